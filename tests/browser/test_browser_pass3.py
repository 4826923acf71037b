"""The browser page, third pass on issue 15 (helper WEBC), in a real browser (Debian's Chromium,
Playwright): The Moscow Campaign's odds preview before the attackers are committed and its
declared attacks marked on the map; its stacks (a picker listing every unit of a hex with its
values, moving a stack together, every unit of a hex on hover); a short message to the opponent
in remote play (plain text, escaped)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from browserfix import js, new_game, wait_js

pytestmark = pytest.mark.browser

SETUP = ("setup standard", "setup standard")
# Three German units stacked next to Soviet 2656 (and 2655), then into the combat phase.
TO_COMBAT = (*SETUP, "move G17Pz 2359-2556", "move G18Pz 2360-2556", "move G10Mot 2361-2556", "end")


def hotseat_tmc(server: str, *actions: str) -> dict[str, Any]:
    return new_game(server, *actions, game="tmc", edition="1", seed=3)


def click_hex(page: Any, hex_id: str) -> None:
    """Click the counter standing in ``hex_id`` (the map is centred on it first)."""
    page.evaluate(f"() => window.typhoon.centreOn('{hex_id}')")
    page.locator(f"#board g.unit[data-hex='{hex_id}']").last.click()  # the last drawn is on top


def test_tmc_odds_preview_before_committing_and_declared_attacks_marked(browser: Any, server: str) -> None:
    """Issue 15: "no odds preview before attackers are committed; declared attacks not marked
    on the map". A click on the enemy hex plans the attack: every possible attacker chosen, the
    odds, the column and the chance of each result shown before anything is sent; removing an
    attacker changes them; declaring marks the battle (target and attackers' hexes)."""
    g = hotseat_tmc(server, *TO_COMBAT)
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    try:
        page = ctx.new_page()
        page.goto(server + g["links"]["host"])
        wait_js(page, "G.view.your_turn && G.view.phase.key === 'german_combat'")
        version = js(page, "G.view.version")
        click_hex(page, "2656")
        wait_js(page, "G.group && G.group.target === '2656'")
        page.wait_for_selector("#preview h3")
        assert "in 2656" in page.inner_text("#preview h3")
        text = page.inner_text("#preview")
        assert "Attack " in text and "Defence " in text and "German table" in text
        assert page.locator("#preview table[aria-label='Probability of each result'] tr").count() >= 1
        assert js(page, "G.view.version") == version  # nothing committed by the preview
        full = page.inner_text("#preview h3")
        assert full.count("+") == 2  # three attackers
        # A click on the attackers' stack takes its units out of the attack, another puts them back.
        click_hex(page, "2556")
        page.wait_for_function(
            "() => document.getElementById('preview').textContent.includes('at least one attacker')"
        )
        assert page.locator("#preview h3").count() == 0
        click_hex(page, "2556")
        page.wait_for_function(
            "() => (document.querySelector('#preview h3') || {}).textContent === " + repr(full)
        )
        page.click("#declare-btn")
        wait_js(page, f"G.view.version > {version}")
        marks = js(page, "G.view.marks")
        assert any(m["class"] == "declared" and {"2656", "2556"} <= set(m["hexes"]) for m in marks), marks
        # Resolving it now (the only attack possible): its hexes are outlined on the map.
        wait_js(page, "G.legal.some(a => a.kind === 'odds')")
        assert page.locator("#overlay polygon.hl[data-for='2656']").count() >= 1
        assert "on 2656" in page.inner_text("#prompt")
    finally:
        ctx.close()


def test_tmc_stack_picker_move_the_stack_together_and_hover(browser: Any, server: str) -> None:
    """Issue 15: "a stack shows only its top unit and units move one at a time". Selecting a
    unit of a stack lists every unit of the hex with its values; "Move the stack together"
    highlights the hexes all of them reach and one click moves them all (one batch: all or
    nothing); the hover line names every unit of the hex."""
    g = hotseat_tmc(server, *SETUP)
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    try:
        page = ctx.new_page()
        page.goto(server + g["links"]["host"])
        wait_js(page, "G.view.your_turn && G.view.phase.key === 'german_movement'")
        hex_id = "2039"
        ids = js(page, f"G.view.units.filter(u => u.hex === '{hex_id}').map(u => u.id)")
        assert sorted(ids) == ["G23Inf", "G7Inf"]
        click_hex(page, hex_id)
        wait_js(page, f"G.sel && G.sel.hex === '{hex_id}'")
        picker = page.locator("#stack button[data-unit]")
        assert picker.count() == 2
        for uid in ids:
            words = js(page, f"G.view.units.find(u => u.id === '{uid}').words")
            assert words in page.inner_text(f"#stack button[data-unit='{uid}']")
        # Pick the other unit from the list.
        other = next(u for u in ids if u != js(page, "G.sel.unit"))
        page.click(f"#stack button[data-unit='{other}']")
        wait_js(page, f"G.sel.unit === '{other}'")
        page.click("#stack-move")
        wait_js(page, "G.sel && G.sel.stack && G.sel.stack.length === 2")
        reach = js(page, "[...document.querySelectorAll('#overlay polygon.reach')].map(p => p.dataset.for)")
        assert reach and hex_id not in reach
        version = js(page, "G.view.version")
        page.evaluate(f"() => window.typhoon.centreOn('{reach[0]}')")
        page.click(f"#overlay polygon.reach[data-for='{reach[0]}']", force=True)
        wait_js(page, f"G.view.version > {version}")
        # Both moved, together, in the one request, to the hex clicked (the hover line, however
        # long, never wraps the toolbar and moves the map under the pointer).
        dst = reach[0]
        assert js(page, f"G.view.units.filter(u => {ids!r}.includes(u.id)).map(u => u.hex)") == [dst, dst]
        # Hover the moved stack: the line under the map names both units.
        page.evaluate(f"() => window.typhoon.centreOn('{dst}')")
        counter = page.locator(f"#board g.unit[data-hex='{dst}']").first
        counter.wait_for(state="visible")  # the map's unit layer is redrawn after the move
        box = counter.bounding_box()
        assert box is not None
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_function("() => document.getElementById('hover-info').textContent.includes('2 units')")
        hover = page.inner_text("#hover-info")
        assert all(uid in hover for uid in ids), hover
    finally:
        ctx.close()


def test_a_message_to_the_opponent_in_remote_play(browser: Any, server: str) -> None:
    """Issue 15: "a way to leave a short message for the opponent": sent from one secret link,
    shown on the other player's page at its next poll, as plain text (markup is not run)."""
    g = httpx.post(server + "/api/games", json={"mode": "remote", "side": "german"}, timeout=20).json()
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        ger = ctx.new_page()
        sov = ctx.new_page()
        ger.goto(server + g["links"]["german"])
        sov.goto(server + g["links"]["soviet"])
        wait_js(sov, "G.view.your_turn")
        wait_js(ger, "!G.view.your_turn")
        assert ger.locator("#chat-box").is_visible()
        text = "<b>Good luck</b> & <img src=x onerror=alert(1)>"
        ger.fill("#chat-input", text)
        ger.click("#chat-form button[type=submit]")
        sov.wait_for_function("() => document.querySelectorAll('#chat-list li').length === 1", timeout=30_000)
        assert sov.inner_text("#chat-list li .msg") == text
        assert sov.locator("#chat-list b, #chat-list img").count() == 0
        assert "German" in sov.inner_text("#chat-list li .who")
        assert ger.input_value("#chat-input") == ""
        # The game plays on after it (the version moved; the page caught up).
        sov.click("#buttons button[data-action='setup standard']")
        wait_js(ger, "G.view.your_turn")
    finally:
        ctx.close()
