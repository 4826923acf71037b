"""The lobby in a real browser (issue 15, smaller faults): a hot seat asks for no side ("Your
side" is hidden: one screen plays both), and a record loaded to play against the computer gets
a level choice, sent with the upload."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser


def test_hot_seat_hides_your_side_and_uploads_get_a_level(browser: Any, server: str) -> None:
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    page = ctx.new_page()
    try:
        page.goto(server + "/")
        page.wait_for_function("document.querySelectorAll('#level option').length > 0")
        assert page.is_visible("#side")
        page.check("input[name=mode][value=hotseat]")
        assert not page.is_visible("#side") and not page.is_visible("#level")
        page.check("input[name=mode][value=ai]")
        assert page.is_visible("#side") and page.is_visible("#level")
        # Loading a record: hot seat (the default) has neither; against the computer, a level.
        assert not page.is_visible("#up-side") and not page.is_visible("#up-level")
        page.select_option("#up-mode", "ai")
        assert page.is_visible("#up-side") and page.is_visible("#up-level")
        levels = page.eval_on_selector_all("#up-level option", "os => os.map(o => o.value)")
        assert "heuristic" in levels and "random" in levels
        assert page.eval_on_selector("#up-level", "s => s.name") == "level"
    finally:
        ctx.close()


def test_a_spectators_header_reads_sensibly(browser: Any, server: str) -> None:
    """Issue 15: a spectator of a remote game read "Watching (no side) · remote opponent"."""
    import httpx

    g = httpx.post(server + "/api/games", json={"mode": "remote", "side": "german"}, timeout=20).json()
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        page.goto(server + g["watch"])
        page.wait_for_function("window.typhoon && window.typhoon.view")
        who = page.inner_text("#who")
        assert who.startswith("Watching this game") and "two players" in who
        assert "no side" not in who and "remote opponent" not in who
        mine = ctx.new_page()
        mine.goto(server + g["links"]["german"])
        mine.wait_for_function("window.typhoon && window.typhoon.view")
        assert "your opponent plays from their own link" in mine.inner_text("#who")
    finally:
        ctx.close()
