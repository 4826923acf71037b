"""Real-browser fixtures shared by every folder of browser tests (tests/browser, and each
game's own, e.g. tests/tinygame): a uvicorn server in a thread on a free port (the one the web
bench uses), and Debian's Chromium driven headless by Playwright (never a downloaded browser).
A folder's conftest.py imports them (``from browserfix import artifacts, browser, server``).

Outside CI the browser tests skip, saying why, when Chromium or Playwright is missing; in CI
(``TYPHOON_CI=1``) that is a failure."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


def _chromium() -> str | None:
    for cand in (
        os.environ.get("PLAYWRIGHT_CHROMIUM_EXECUTABLE"),
        "/usr/bin/chromium",
        shutil.which("chromium"),
    ):
        if cand and os.path.exists(cand):
            return cand
    return None


def _unavailable(why: str) -> None:
    if os.environ.get("TYPHOON_CI"):
        pytest.fail(f"browser tests must run in CI: {why}")
    pytest.skip(f"browser tests skipped: {why}")


# One Playwright for the whole run, however many folders use the fixture: its sync API keeps
# an event loop running in the main thread while it is open, so a second one cannot start
# beside it. Package scope (each folder's conftest imports the fixture): it closes after the
# last folder's tests that use it, and tests elsewhere may call asyncio.run again.
_SHARED: dict[str, Any] = {}


@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    path = _chromium()
    if path is None:
        _unavailable("no Chromium found (set PLAYWRIGHT_CHROMIUM_EXECUTABLE or install Debian's chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the playwright Python package is not installed")
    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    if not _SHARED:
        manager = sync_playwright()
        p = manager.start()
        _SHARED.update(manager=manager, users=0)
        _SHARED["browser"] = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS, headless=True)
    _SHARED["users"] += 1
    try:
        yield _SHARED["browser"]
    finally:
        _SHARED["users"] -= 1
        if not _SHARED["users"]:
            try:
                _SHARED["browser"].close()
            finally:
                _SHARED["manager"].__exit__(None, None, None)
                _SHARED.clear()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of a live server (uvicorn in a thread) with its own data folder."""
    from typhoon.web.bench import live_server

    with live_server(tmp_path_factory.mktemp("web-data")) as url:
        yield url


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


def end_phase(page: Any, key: bool = False) -> None:
    """End the phase from the page: the End button (or the E key), confirmed when the page
    asks first because units could still act (issue 15)."""
    if key:
        page.keyboard.press("e")
    else:
        page.click("#end-btn")
    if page.locator("#end-confirm:not([hidden])").count():
        if key:
            page.keyboard.press("e")
        else:
            page.click("#end-yes")


def wait_js(page: Any, expr: str, timeout: float = 60_000) -> None:
    """Wait until ``expr`` (over the page's ``G = window.typhoon``) holds, once a view is in."""
    page.wait_for_function(
        f"() => {{ const G = window.typhoon; return !!(G && G.view && ({expr})); }}", timeout=timeout
    )


def js(page: Any, expr: str, arg: Any = None) -> Any:
    """``expr`` evaluated over the page's ``G = window.typhoon`` (and ``arg``)."""
    return page.evaluate(f"(arg) => {{ const G = window.typhoon; return ({expr}); }}", arg)


def new_game(server: str, *actions: str, **body: Any) -> dict[str, Any]:
    """A game made through the API (hot seat, seed 5 unless told), played up to a position."""
    body = {"mode": "hotseat", "seed": 5, **body}
    with httpx.Client(base_url=server, timeout=120) as c:
        g = c.post("/api/games", json=body).json()
        if actions:
            v = c.get(f"/api/games/{g['id']}").json()
            r = c.post(
                f"/api/games/{g['id']}/actions",
                json={"actions": list(actions), "seen": v["version"]},
                headers={"X-Typhoon-Token": g["token"]},
            )
            assert r.status_code == 200, r.text
    return dict(g)
