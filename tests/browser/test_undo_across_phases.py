"""Undo across a phase end in a real browser (issue 15, "Phases end by accident": "undo should
reach back across phase ends as long as no die was rolled since")."""

from __future__ import annotations

from typing import Any

import pytest
from test_browser_pass import hotseat

from browserfix import end_phase, js, wait_js

pytestmark = pytest.mark.browser


def test_undo_takes_back_a_phase_end_until_a_die_is_rolled(browser: Any, server: str) -> None:
    """A German move, then End (confirmed): the combat phase follows. Undo is offered and takes
    back the phase end, then the move; once a battle's die is rolled, nothing before it can be
    undone."""
    g = hotseat(server, "setup standard", "setup standard", game="bfm")
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        page.goto(server + g["links"]["host"])
        wait_js(page, "G.view.your_turn && G.legal.some(a => a.kind === 'move')")
        phase = js(page, "G.view.phase.key")
        move = js(page, "G.legal.find(a => a.kind === 'move').text")
        version = js(page, "G.view.version")
        page.evaluate(f"() => window.typhoon.send([{move!r}])")
        wait_js(page, f"G.view.version > {version}")
        end_phase(page)
        wait_js(page, f"G.view.phase.key !== {phase!r}")
        page.wait_for_selector("#undo-btn")
        version = js(page, "G.view.version")
        page.click("#undo-btn")
        wait_js(page, f"G.view.version > {version} && G.view.phase.key === {phase!r}")
        assert js(page, "G.view.can_undo")  # the move itself is still there to take back
        # The page ignores Undo while a request is in flight (common.js): under load the
        # first undo's follow-up refresh can still be running, and a key pressed then is lost.
        wait_js(page, "!G.busy")
        version = js(page, "G.view.version")
        page.keyboard.press("u")
        wait_js(page, f"G.view.version > {version}")
        assert not js(page, "G.view.log.some(e => e.action === " + repr(move) + ")")
        # Across a die roll: never. End movement, declare a battle and end combat (a die).
        end_phase(page)
        wait_js(page, "G.legal.some(a => a.kind === 'attack')")
        atk = js(page, "G.legal.find(a => a.kind === 'attack').text")
        version = js(page, "G.view.version")
        page.evaluate(f"() => window.typhoon.send([{atk!r}, 'end'])")
        wait_js(page, f"G.view.version > {version} && G.view.log.some(e => e.actor === 'chance')")
        wait_js(page, "!G.busy")
        if js(page, "G.view.log[G.view.log.length - 1].actor === 'chance'"):
            assert not js(page, "G.view.can_undo")
            assert page.locator("#undo-btn").count() == 0
    finally:
        ctx.close()
