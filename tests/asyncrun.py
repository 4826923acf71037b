"""Run a test's event loop on its own thread.

Playwright's sync API keeps an event loop running in the main thread while a browser is open,
and asyncio.run / anyio.run refuse to start inside one. A test that drives an ASGI app or an MCP
client by hand runs its loop here, so the order the tests run in cannot break it."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")


def run_in_own_thread(fn: Callable[[], T]) -> T:
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(fn).result()
