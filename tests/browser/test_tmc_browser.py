"""The Moscow Campaign in a real browser (issue 6 part 5): Debian's Chromium, headless, driven
by Playwright. From the lobby, start scenario 1 against the AI (German side); the AI sets up
the Soviet side; take the standard set-up; select a unit by clicking its counter, see its
destinations highlighted, click one to move it; end the German phases; see the AI's Soviet
player turn arrive; save a mid-game screenshot (test-artifacts/tmc_midgame.png)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from browserfix import end_phase, js, wait_js

pytestmark = pytest.mark.browser


FREE_MOVE = """G.legal.find(a => a.kind === 'move' && !G.view.units.some(u => u.hex === a.dst)
    && G.view.units.filter(u => u.hex === a.src).length === 1)"""


def test_tmc_against_the_ai_move_by_clicking_and_see_the_reply(
    browser: Any, server: str, artifacts: Path
) -> None:
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(server + "/")
        page.select_option("#game", "tmc")
        assert "RECONSTRUCTION" in page.inner_text("#game-note")
        assert page.inner_text("#edition-label") == "Scenario"
        page.select_option("#edition", "1")
        page.check("input[name=mode][value=ai]")
        page.select_option("#side", "german")
        page.select_option("#level", "random")
        page.fill("#seed", "11")
        page.click("#start")
        page.wait_for_url("**/g/**")
        # The page says what it shows is a reconstruction, on the banner and on the map.
        wait_js(page, "G.view.game === 'tmc'")
        assert "RECONSTRUCTION" in page.inner_text("#notice")
        assert page.locator("#board svg text.recon").count() == 1
        # The AI (Soviet) sets up first; then the German standard set-up by its button.
        wait_js(page, "G.view.your_turn && G.view.phase.key === 'setup_german'")
        page.click("#buttons button[data-action='setup standard']")
        wait_js(page, "G.view.your_turn && G.view.phase.key === 'german_movement'")
        assert "scenario 1" in page.inner_text("#status") and "weather: fair" in page.inner_text("#status")
        # Select a unit by clicking its counter: its destinations are highlighted.
        move = js(page, FREE_MOVE)
        assert move is not None
        page.evaluate(f"() => window.typhoon.centreOn('{move['src']}')")
        page.click(f"#board g.unit[data-unit='{move['unit']}']")
        wait_js(page, f"G.sel && G.sel.unit === '{move['unit']}'")
        n_dest = js(
            page,
            f"new Set(G.legal.filter(a => (a.units || []).includes('{move['unit']}') && a.hexes.length"
            f" && a.hexes[a.hexes.length - 1] !== '{move['src']}').map(a => a.hexes[a.hexes.length - 1])).size",
        )
        assert page.locator("#overlay polygon.reach").count() == n_dest > 1
        assert move["unit"] in page.inner_text("#sel-words")
        # Click the destination hex on the map: the unit moves there.
        version = js(page, "G.view.version")
        page.evaluate(f"() => window.typhoon.centreOn('{move['dst']}')")
        page.click(f"#overlay polygon.reach[data-for='{move['dst']}']", force=True)
        wait_js(page, f"G.view.version > {version}")
        assert js(page, f"G.view.units.find(u => u.id === '{move['unit']}').hex") == move["dst"]
        # End the German phases (movement, combat if any attack was possible, mechanised).
        for _ in range(6):
            if js(page, "G.view.turn > 1 || !G.view.your_turn"):
                break
            version = js(page, "G.view.version")
            end_phase(page)
            wait_js(page, f"G.view.version > {version}")
        # The AI plays the Soviet player turn; then it is the German's decision in GT 2. When a
        # Soviet attack ends in an attacker retreat, the German routes it (§12.1: the retreating
        # units' opponent) during the Soviet turn: the page asks, and the first route is taken.
        for _ in range(50):
            wait_js(page, "G.view.your_turn && !G.busy", timeout=90_000)
            if js(page, "G.view.turn") >= 2:
                break
            assert js(page, "G.legal.every(a => a.kind === 'retreat')"), js(page, "G.legal.map(a => a.text)")
            version = js(page, "G.view.version")
            page.evaluate("() => window.typhoon.send([window.typhoon.legal[0].text])")
            wait_js(page, f"G.view.version > {version}")
        wait_js(page, "G.view.turn === 2 && G.view.your_turn")
        soviet = js(page, "G.view.log.filter(e => e.actor === 'soviet').map(e => e.action)")
        assert any(a.startswith(("move ", "entrain ", "rail ", "arrive ")) for a in soviet)
        assert "German to decide" in page.inner_text("#status")
        page.click("#view-active")
        page.screenshot(path=str(artifacts / "tmc_midgame.png"))
        assert not errors, errors
    finally:
        ctx.close()
