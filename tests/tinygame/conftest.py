"""The real-browser fixtures for the tiny game's browser test (tests/browserfix.py)."""

from browserfix import artifacts, browser, server

__all__ = ["artifacts", "browser", "server"]
