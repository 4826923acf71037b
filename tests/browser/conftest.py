"""The real-browser fixtures (tests/browserfix.py): Debian's Chromium driven by Playwright, a
live server in a thread. The browser is package-scoped there on purpose (its comment says why)."""

from browserfix import artifacts, browser, server

__all__ = ["artifacts", "browser", "server"]
