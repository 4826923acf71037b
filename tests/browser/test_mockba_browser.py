"""MOCKBA in the one game page (issue 13: the game plays in the browser from its kit alone): the
reconstruction notice on the page, the air allocation ended by its button, then units moved by
two clicks (the unit, then a highlighted hex) and the next decisions as the page offers them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from browserfix import js, wait_js

pytestmark = pytest.mark.browser


# The first legal action of a kind (else the first), and how the page offers it
# (the fields of games/frontends.py).
HOW = """(() => {
  const a = G.legal.find((x) => x.kind === arg) || G.legal[0];
  const units = a.units || [], hexes = a.hexes || [];
  const to = hexes.length ? hexes[hexes.length - 1] : null;
  const at = (u) => { const x = G.view.units.find((y) => y.id === u); return x ? x.hex : null; };
  let how = 'list';
  if (!units.length && !hexes.length) how = 'button';
  else if (a.group) how = 'group';
  else if (to && units.length && !at(units[0])) how = 'pool';
  else if (to && units.length && at(units[0]) !== to) how = 'select';
  return {text: a.text, how, unit: units[0] || null, to, group: a.group || null};
})()"""


def play(page: Any, kind: str | None = None) -> dict[str, Any]:
    a: dict[str, Any] = js(page, HOW, kind)
    version = js(page, "G.view.version")
    if a["how"] == "pool":
        page.click(f"#pool button[data-unit='{a['unit']}']")
        page.click(f"#overlay polygon.reach[data-for='{a['to']}']", force=True)
    elif a["how"] == "select":
        page.click(f"#board g.unit[data-unit='{a['unit']}']", force=True)
        page.click(f"#overlay polygon.reach[data-for='{a['to']}']", force=True)
        if page.locator("#choices button").count():
            page.click(f"#choices button[data-action='{a['text']}']")
    elif a["how"] == "group":
        page.click(f"#hex-{a['group']}", force=True)
        page.click("#declare-btn")
    elif a["how"] == "button":
        page.click(f"#buttons button[data-action='{a['text']}']")
    else:
        page.fill("#type-input", a["text"])
        page.press("#type-input", "Enter")
    try:
        wait_js(page, f"G.view.version > {version}", timeout=10_000)
    except Exception:  # say what the page offered
        raise AssertionError((a, page.inner_text("#error"), page.inner_text("#prompt-box"))) from None
    return a


def test_mockba_plays_in_the_one_game_page(browser: Any, server: str, artifacts: Path) -> None:
    g = httpx.post(
        server + "/api/games", json={"game": "mockba", "mode": "hotseat", "seed": 5}, timeout=20
    ).json()
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(server + g["links"]["host"])
        try:
            wait_js(page, "G.view.your_turn && G.legal.length", timeout=40_000)
        except Exception:
            raise AssertionError((errors, page.inner_text("#error"), page.inner_text("#prompt"))) from None
        assert js(page, "G.view.game") == "mockba"
        assert "Reconstruction" in page.inner_text("#notice")  # seed 000 rules exact, the rest rebuilt
        assert page.locator("#board svg").count() == 1
        assert page.locator("#board g[data-hex='2912']").count() == 1
        first = play(page, "end")  # the German air allocation (seed step 1): kept for the attacks
        assert first["how"] == "button"
        assert js(page, "G.view.phase.key") == "g_move"
        page.click("button:has-text('Whole map')")  # the 33 x 40 map, every counter in view
        moves = [play(page, "move") for _ in range(2)]
        assert [m["how"] for m in moves] == ["select", "select"]  # a unit, then a highlighted hex
        for m in moves:  # each unit stands where it was sent
            assert js(page, "G.view.units.find((u) => u.id === arg).hex", m["unit"]) == m["to"]
        assert js(page, "G.view.log.length") >= 3
        page.screenshot(path=str(artifacts / "mockba_board.png"))
        assert not errors, errors
    finally:
        ctx.close()
