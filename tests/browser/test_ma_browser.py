"""Moscow Attacked! in the one game page (issue 11: a new game plays in the browser from its
package alone). The test registers it in the live server's process (it is not registered yet)
and plays a few actions by clicking: a unit from the pool onto a hex, and what comes next."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from browserfix import js, wait_js
from typhoon.games import game_keys, register_game, unregister_game

pytestmark = pytest.mark.browser


@pytest.fixture
def ma() -> Iterator[None]:
    known = "ma" in game_keys()
    if not known:
        register_game("ma", "Moscow Attacked!", "typhoon.games.ma")
    yield
    if not known:
        unregister_game("ma")


# The first legal action, and how the page offers it (the fields of games/frontends.py).
HOW = """(() => {
  const a = G.legal[0];
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


def play_first_action(page: Any) -> str:
    a = js(page, HOW)
    version = js(page, "G.view.version")
    if a["how"] == "pool":
        page.click(f"#pool button[data-unit='{a['unit']}']")
        page.click(f"#overlay polygon.reach[data-for='{a['to']}']", force=True)
    elif a["how"] == "select":
        page.click(f"#board g.unit[data-unit='{a['unit']}']")
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
    return str(a["how"])


def test_moscow_attacked_plays_in_the_one_game_page(
    ma: None, browser: Any, server: str, artifacts: Path
) -> None:
    g = httpx.post(
        server + "/api/games", json={"game": "ma", "mode": "hotseat", "seed": 5}, timeout=20
    ).json()
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(server + g["links"]["host"])
        try:
            wait_js(page, "G.view.your_turn && G.legal.length")
        except Exception:
            raise AssertionError((errors, page.inner_text("#error"), page.inner_text("#prompt"))) from None
        assert js(page, "G.view.game") == "ma"
        assert "Reconstruction" in page.inner_text("#notice")  # the game's notice, shown on the page
        assert page.locator("#board svg").count() == 1
        hows = [play_first_action(page) for _ in range(4)]
        assert hows[0] == "pool"  # the first decision is a unit put on a hex, by two clicks
        assert js(page, "G.view.log.length") >= 4
        page.screenshot(path=str(artifacts / "ma_board.png"))
        assert not errors, errors
    finally:
        ctx.close()
