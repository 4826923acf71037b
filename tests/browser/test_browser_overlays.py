"""Issue 15, "What to add", in a real browser (Debian's Chromium, Playwright): the overlays a
player switches on (enemy zones of control, supply, the victory status), remembered by the page
across a reload, and the rules reference opened by its button and the R key, with the phase in
force marked, for Battle for Moscow and The Moscow Campaign (overlays.js, rulesref.js)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from test_browser_pass import hotseat, js, wait_js

pytestmark = pytest.mark.browser


def _layer(server: str, g: dict[str, Any], key: str) -> dict[str, Any]:
    o = httpx.get(f"{server}/api/games/{g['id']}/overlays", timeout=60).json()
    return next(layer for layer in o["layers"] if layer["key"] == key)


def _drawn(page: Any, key: str) -> int:
    return int(js(page, f"document.querySelectorAll('#board svg #overlay [data-overlay=\"{key}\"]').length"))


@pytest.mark.parametrize("game", ["bfm", "tmc"])
def test_enemy_zoc_overlay_is_drawn_and_remembered(browser: Any, server: str, game: str) -> None:
    """Issue 15: "Overlays a player can switch on: enemy zones of control ... and the victory
    status now": the ZOC checkbox draws one mark per hex of the enemy's zones (as the server's
    rules give them), the choice survives a reload, and the victory status is in the panel."""
    g = hotseat(server, "setup standard", "setup standard", game=game)
    zoc = _layer(server, g, "zoc")
    assert zoc["hexes"], "the standard set-up puts enemy zones on the map"
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        page.goto(server + g["links"]["host"])
        wait_js(page, "G.view.your_turn")
        page.wait_for_selector("#ov-zoc")
        assert _drawn(page, "zoc") == 0  # off until switched on
        page.check("#ov-zoc")
        page.wait_for_function(
            f"document.querySelectorAll('#overlay [data-overlay=\"zoc\"]').length === {len(zoc['hexes'])}"
        )
        drawn = set(
            js(
                page,
                "[...document.querySelectorAll('#overlay [data-overlay=\"zoc\"]')].map(e => e.dataset.for)",
            )
        )
        assert drawn == set(zoc["hexes"])
        # Remembered by the page: after a reload the layer is on and drawn again.
        page.reload()
        wait_js(page, "G.view.your_turn")
        page.wait_for_function(
            "document.querySelector('#ov-zoc') && document.querySelector('#ov-zoc').checked"
        )
        page.wait_for_function(
            f"document.querySelectorAll('#overlay [data-overlay=\"zoc\"]').length === {len(zoc['hexes'])}"
        )
        # Switched off: gone, and the choice is forgotten.
        page.uncheck("#ov-zoc")
        page.wait_for_function("document.querySelectorAll('#overlay [data-overlay=\"zoc\"]').length === 0")
        # The victory status now, in words.
        page.click("#ov-status-box summary")
        page.wait_for_function("document.querySelector('#ov-status').innerText.includes('Moscow')")
        text = page.inner_text("#ov-status")
        assert (
            ("held by the Soviet" in text)
            if game == "bfm"
            else ("Victory points so far: German 0, Soviet 0" in text)
        )
    finally:
        ctx.close()


def test_cut_off_units_are_marked_on_their_hexes(browser: Any, server: str) -> None:
    """Issue 15: "which of my units are cut off": the Moscow Campaign's standard start leaves
    four German infantry units without a supply line (§11); the layer outlines their hexes."""
    g = hotseat(server, "setup standard", "setup standard", game="tmc")
    cut = _layer(server, g, "cut")["units"]
    assert len(cut) == 4
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        page.goto(server + g["links"]["host"])
        wait_js(page, "G.view.your_turn")
        page.wait_for_selector("#ov-cut")
        page.check("#ov-cut")
        page.wait_for_function("document.querySelectorAll('#overlay [data-overlay=\"cut\"]').length === 4")
        assert set(
            js(
                page,
                "[...document.querySelectorAll('#overlay [data-overlay=\"cut\"]')].map(e => e.dataset.unit)",
            )
        ) == set(cut)
    finally:
        ctx.close()


@pytest.mark.parametrize("game", ["bfm", "tmc"])
def test_rules_reference_by_button_and_key_marks_the_phase(browser: Any, server: str, game: str) -> None:
    """Issue 15: "A rules reference in the page: sequence of play with the current phase, the
    CRT and terrain chart of the edition in force, the weather track": the Rules button and
    the R key open it; the phase in force is the marked row; Escape closes it."""
    g = hotseat(server, "setup standard", "setup standard", game=game)
    ctx = browser.new_context(viewport={"width": 1024, "height": 768})
    try:
        page = ctx.new_page()
        page.goto(server + g["links"]["host"])
        wait_js(page, "G.view.your_turn")
        phase = js(page, "G.view.phase.name")
        page.click("#rules-ref")
        page.wait_for_selector("#rulesref[open] [data-section='sequence'] tr.current")
        assert phase in page.inner_text("[data-section='sequence'] tr.current")
        crt = "crt" if game == "bfm" else "crt-german"
        assert page.locator(f"[data-section='{crt}'] tbody tr").count() >= 6
        assert page.locator("[data-section='terrain'] tbody tr").count() >= 3
        assert page.inner_text("[data-section='weather'] tr.current").startswith("▶")
        page.keyboard.press("Escape")
        page.wait_for_selector("#rulesref", state="hidden")
        page.focus("#board")
        page.keyboard.press("r")
        page.wait_for_selector("#rulesref[open]")
        page.keyboard.press("r")
        page.wait_for_selector("#rulesref", state="hidden")
    finally:
        ctx.close()
