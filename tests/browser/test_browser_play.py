"""Playing in a real browser (issue 4 item 7): Debian's Chromium, headless, driven by Playwright.

Against the AI: start a game from the lobby, move units by mouse and by keyboard, plan an
attack (odds and result probabilities shown), declare and resolve it, pick the retreat hex
and the advance on the map, see the AI reply, save a mid-game screenshot, reload the page
and play on, step through the replay. Two remote players: the second side's secret link, in
a second browser context, cannot move the first side's units, and sees its moves arrive."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from browserfix import end_phase, js, wait_js

pytestmark = pytest.mark.browser


SETUP = "#buttons button[data-action='setup standard']"
FREE_MOVE = """G.legal.find(a => a.kind === 'move' && a.dst !== a.src && !a.via.length
    && !G.view.units.some(u => u.hex === a.dst) && (!arg || a.unit !== arg))"""


def arrows(src: str, dst: str) -> list[str]:
    """Keys that take the focus from hex src to hex dst (left/right: column, up/down: row)."""
    dc = int(dst[:2]) - int(src[:2])
    dr = int(dst[2:]) - int(src[2:])
    keys = ["ArrowRight" if dc > 0 else "ArrowLeft"] * abs(dc)
    keys += ["ArrowDown" if dr > 0 else "ArrowUp"] * abs(dr)
    return keys


def settle_battles(page: Any) -> list[str]:
    """Answer the decisions a resolved battle leaves (retreat hex, advancing unit, step loss)
    by clicking on the map, until none is left. Returns the kinds answered."""
    done = []
    for _ in range(12):
        a = js(
            page,
            "G.legal.find(a => ['retreat', 'advance', 'lose', 'resolve'].includes(a.kind) && (a.kind !== 'advance' || a.unit))",
        )
        if not a:
            break
        version = js(page, "G.view.version")
        if a["kind"] == "retreat":
            page.click(f"#hex-{a['dst']}")
            if page.locator("#choices button").count():
                page.click("#choices button >> nth=0")
        elif a["kind"] == "resolve":
            page.click(f"#board g.unit[data-hex='{a['target']}']")
        else:
            page.click(f"#board g.unit[data-unit='{a['unit']}']")
        wait_js(page, f"G.view.version > {version}")
        done.append(a["kind"])
    return done


def test_play_against_the_ai(browser: Any, server: str, artifacts: Path) -> None:
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        # The lobby: against the computer, German side, fixed dice.
        page.goto(server + "/")
        page.check("input[name=mode][value=ai]")
        page.select_option("#side", "german")
        page.select_option("#level", "random")
        page.fill("#seed", "1")
        page.click("#start")
        page.wait_for_url(re.compile(r"/g/[\w-]+#t="))
        wait_js(page, "G.view.your_turn")  # the computer has set up the Soviet side
        assert "Soviet: computer (random)" in page.inner_text("#who")
        assert "Edition in force" in page.inner_text("#rules")
        page.click(SETUP)
        wait_js(page, "G.view.phase.key === 'german_panzer_movement'")

        # Move a unit with the mouse: its reachable hexes light up, the path shows on hover.
        mv = js(page, FREE_MOVE)
        page.click(f"#board g.unit[data-unit='{mv['unit']}']")
        assert page.locator("#overlay polygon.reach").count() >= 1
        page.hover(f"#hex-{mv['dst']}")
        assert page.locator("#overlay polyline.path").count() == 1
        page.click(f"#hex-{mv['dst']}")
        wait_js(page, f"G.view.units.find(u => u.id === '{mv['unit']}').hex === '{mv['dst']}'")
        assert page.locator(f"#board g.unit[data-unit='{mv['unit']}']").get_attribute("data-hex") == mv["dst"]
        assert "moves" in page.inner_text("#log")

        # Move another with the keyboard only; the focus hex is read out in words.
        mv2 = js(page, FREE_MOVE, mv["unit"])
        page.focus("#board")
        for key in arrows(js(page, "G.focus"), mv2["src"]):
            page.keyboard.press(key)
        page.wait_for_function(
            "(u) => document.getElementById('announce').textContent.includes(u)", arg=mv2["unit"]
        )
        assert "Panzer Corps" in page.inner_text("#focus-info") or "Corps" in page.inner_text("#focus-info")
        page.keyboard.press("Enter")
        wait_js(page, f"G.sel && G.sel.unit === '{mv2['unit']}'")
        for key in arrows(mv2["src"], mv2["dst"]):
            page.keyboard.press(key)
        assert f"Enter: Move {mv2['unit']} {mv2['src']} to {mv2['dst']}" in page.inner_text("#focus-info")
        page.keyboard.press("Enter")
        wait_js(page, f"G.view.units.find(u => u.id === '{mv2['unit']}').hex === '{mv2['dst']}'")

        # Combat: click a defender, the eligible attackers light up, keep one, see the odds.
        end_phase(page, key=True)
        wait_js(page, "G.view.phase.kind === 'combat' && G.legal.some(a => a.kind === 'attack')")
        target = js(page, "G.legal.find(a => a.kind === 'attack').target")
        attackers = js(
            page, "G.legal.filter(a => a.kind === 'attack' && a.target === arg).map(a => a.unit)", target
        )
        page.click(f"#board g.unit[data-hex='{target}']")
        page.wait_for_selector("#declare-btn")
        assert page.locator("#overlay polygon.chosen").count() == len(attackers)
        for u in attackers[1:]:
            page.click(f"#board g.unit[data-unit='{u}']")
        page.wait_for_function(
            "(u) => { const h = document.querySelector('#preview h3'); return h && h.textContent.startsWith(u + ' against'); }",
            arg=attackers[0],
        )
        preview = page.inner_text("#preview")
        assert "Odds:" in preview and "Die" in preview and "%" in preview and "Defender:" in preview
        page.click("#declare-btn")
        wait_js(page, "G.view.battles.length === 1")
        end_phase(page)
        wait_js(page, "G.view.log.some(e => e.actor === 'chance')")
        assert "Die:" in page.inner_text("#log")

        # Whatever the die asks for next is answered on the map (retreat, advance, loss).
        settle_battles(page)

        # End the German turn; the computer plays the Soviet turn and the German decides again.
        wait_js(page, "G.legal.some(a => a.kind === 'end')")
        end_phase(page, key=True)
        wait_js(page, "G.view.turn === 2 && G.view.your_turn", timeout=30_000)
        soviet = js(page, "G.view.log.filter(e => e.actor === 'soviet' && e.n > 20).length")
        assert soviet > 0
        assert page.locator("#log li.soviet").count() > 0
        page.screenshot(path=str(artifacts / "midgame.png"))

        # Reload in the middle of the game: the same position, and play goes on.
        before = js(page, "({version: G.view.version, units: G.view.units})")
        page.reload()
        wait_js(page, "G.view.your_turn")
        after = js(page, "({version: G.view.version, units: G.view.units})")
        assert json.dumps(after, sort_keys=True) == json.dumps(before, sort_keys=True)
        wait_js(page, "G.legal.some(a => a.kind === 'end')")
        end_phase(page)
        wait_js(page, f"G.view.version > {before['version']}")

        # The replay viewer: from the start, step forward, jump to a turn, leave.
        page.click("#rp-toggle")
        page.wait_for_function("document.getElementById('rp-info').textContent.startsWith('Step')")
        page.click("#rp-first")
        page.wait_for_function("document.getElementById('rp-info').textContent.startsWith('Step 0 of')")
        page.click("#rp-next")
        page.wait_for_function("document.getElementById('rp-info').textContent.startsWith('Step 1 of')")
        page.select_option("#rp-turn", label="Turn 1 (Oct I)")
        page.wait_for_function("window.typhoon.replay && window.typhoon.replay.state.turn === 1")
        page.click("#rp-toggle")
        wait_js(page, "!G.replay && G.view.your_turn")
        assert not errors, errors
    finally:
        ctx.close()


def test_remote_link_cannot_move_the_other_sides_units(browser: Any, server: str) -> None:
    g = httpx.post(server + "/api/games", json={"mode": "remote", "side": "german"}, timeout=20).json()
    german_ctx = browser.new_context(viewport={"width": 1300, "height": 850})
    soviet_ctx = browser.new_context(viewport={"width": 1300, "height": 850})
    try:
        ga = german_ctx.new_page()
        sb = soviet_ctx.new_page()
        ga.goto(server + g["links"]["german"])
        sb.goto(server + g["links"]["soviet"])
        wait_js(sb, "G.view.your_turn")
        wait_js(ga, "!G.view.your_turn")
        assert "Waiting for the Soviet player" in ga.inner_text("#prompt")
        sb.click(SETUP)
        wait_js(ga, "G.view.your_turn")  # the German page learns of it by itself
        ga.click(SETUP)
        wait_js(sb, "G.view.phase.key === 'german_panzer_movement'")

        mv = js(ga, FREE_MOVE)
        # The Soviet page cannot select, let alone move, a German unit.
        sb.click(f"#board g.unit[data-unit='{mv['unit']}']")
        assert js(sb, "G.sel") is None
        assert sb.locator("#overlay polygon.reach").count() == 0
        assert "Waiting for the German player" in sb.inner_text("#prompt")
        sb.fill("#type-input", mv["text"])
        sb.press("#type-input", "Enter")
        assert "not your decision" in sb.inner_text("#error")
        # Nor can a hand-made request with the Soviet link's token: the server says 403.
        status = sb.evaluate(
            """async (text) => {
                const G = window.typhoon;
                const r = await fetch(`/api/games/${G.id}/actions`, {method: 'POST',
                  headers: {'Content-Type': 'application/json', 'X-Typhoon-Token': G.token},
                  body: JSON.stringify({action: text, seen: G.view.version})});
                return r.status; }""",
            mv["text"],
        )
        assert status == 403
        assert js(sb, f"G.view.units.find(u => u.id === '{mv['unit']}').hex") == mv["src"]

        # The German moves it; the Soviet page sees the move arrive.
        ga.click(f"#board g.unit[data-unit='{mv['unit']}']")
        ga.click(f"#hex-{mv['dst']}")
        wait_js(sb, f"G.view.units.find(u => u.id === '{mv['unit']}').hex === '{mv['dst']}'")
    finally:
        german_ctx.close()
        soviet_ctx.close()


def test_hot_seat_set_up_by_hand_and_undo(browser: Any, server: str) -> None:
    g = httpx.post(server + "/api/games", json={"mode": "hotseat", "seed": 9}, timeout=20).json()
    ctx = browser.new_context(viewport={"width": 1300, "height": 850})
    try:
        page = ctx.new_page()
        page.goto(server + g["links"]["host"])
        wait_js(page, "G.view.your_turn && G.view.to_move === 'soviet'")
        assert "Hot seat" in page.inner_text("#who")
        # Pick a unit from the list, the set-up hexes light up, click one.
        place = js(page, "G.legal.find(a => a.kind === 'place')")
        page.click(f"#pool button[data-unit='{place['unit']}']")
        n = js(page, "G.legal.filter(a => a.kind === 'place' && a.unit === arg).length", place["unit"])
        assert page.locator("#overlay polygon.reach").count() == n
        page.click(f"#hex-{place['hex']}")
        wait_js(page, f"G.view.units.find(u => u.id === '{place['unit']}').hex === '{place['hex']}'")
        assert page.locator(f"#board g.unit[data-unit='{place['unit']}']").count() == 1
        # Undo from the keyboard.
        wait_js(page, "G.view.can_undo")
        page.focus("#board")
        page.keyboard.press("u")
        wait_js(page, f"G.view.units.find(u => u.id === '{place['unit']}').hex === null")
        assert page.locator(f"#board g.unit[data-unit='{place['unit']}']").count() == 0
        # Hex numbers on demand.
        page.check("#numbers")
        assert page.locator("#board svg.numbers").count() == 1
    finally:
        ctx.close()


def test_retreat_and_advance_are_picked_on_the_map(browser: Any, server: str) -> None:
    """Find (through the API, so that engine changes cannot break it) a hot-seat game whose
    first battle ends in a retreat with a choice of hexes; then fight it in the browser."""
    c = httpx.Client(base_url=server, timeout=20)
    found = None
    for seed in range(1, 80):
        g = c.post("/api/games", json={"mode": "hotseat", "seed": seed}).json()
        h = {"X-Typhoon-Token": g["token"]}

        def play(*texts: str, gid: str = g["id"], h: dict[str, str] = h) -> dict[str, Any]:
            v = c.get(f"/api/games/{gid}").json()
            r = c.post(
                f"/api/games/{gid}/actions",
                json={"actions": list(texts), "seen": v["version"], "legal": True},
                headers=h,
            )
            assert r.status_code == 200, r.text
            return dict(r.json()["state"])

        v = play("setup standard", "setup standard", "end")
        attacks = [a for a in v["legal"] if a["kind"] == "attack"]
        # One attacker only, for middling odds.
        v = play(attacks[0]["text"])
        rolled = play("end")
        if len({a["dst"] for a in rolled.get("legal", []) if a["kind"] == "retreat"}) >= 2:
            found = (g, attacks[0])
            break
    c.close()
    assert found, "no seed in 1..79 gives a retreat with a choice"
    g, attack = found
    ctx = browser.new_context(viewport={"width": 1300, "height": 850})
    try:
        page = ctx.new_page()
        page.goto(server + g["links"]["host"])
        wait_js(page, "G.legal.some(a => a.kind === 'retreat')")
        assert "Die:" in page.inner_text("#last-roll")
        ends = js(page, "[...new Set(G.legal.filter(a => a.kind === 'retreat').map(a => a.dst))]")
        assert page.locator("#overlay polygon.reach").count() == len(ends)
        page.hover(f"#hex-{ends[-1]}")
        assert page.locator("#overlay polyline.path").count() == 1
        kinds = settle_battles(page)
        assert kinds[0] == "retreat"
        assert "retreats" in page.inner_text("#log")
        # The defender's hex is empty and the attacker survived: it advances, chosen on the map.
        assert "advance" in kinds
        assert js(page, f"G.view.units.find(u => u.id === '{attack['unit']}').hex") == attack["target"]
        assert "advances" in page.inner_text("#log")
    finally:
        ctx.close()
