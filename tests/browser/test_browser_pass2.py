"""The browser page, second pass continued (issue 15), in a real browser (Debian's Chromium,
Playwright). Each test checks one point a player saw: arrowheads on move trails and the other
game's trails after the computer's turn; hex numbers shown by default; the reachable-hex
highlight an outline (visible on forest, over no counter); zoom and pan by touch and wheel on
every game's map; the first keyboard focus on a useful hex; the die banner gone once a new phase
begins; the "S" key in sentences; the replay log following the step shown, with autoplay; a
saved game deleted from the lobby; the standard set-up still offered after a hand placement;
the VPG edition's edge hexes drawn. Each failed against the code before the change (checked
once by running them on a copy of the source with the earlier files)."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from browserfix import js, new_game, wait_js

pytestmark = pytest.mark.browser


def game_keys(server: str) -> list[str]:
    return [g["key"] for g in httpx.get(server + "/api/meta", timeout=20).json()["games"]]


def viewbox(page: Any) -> list[float]:
    return [float(x) for x in page.get_attribute("#board svg", "viewBox").split()]


def luminance(colour: str) -> float:
    nums = [int(x) / 255 for x in re.findall(r"\d+", colour)[:3]]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in nums]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


# -- 1 and 3: trails with arrowheads, the other game's trails, the reach highlight -----------


def test_bfm_path_trail_ends_in_an_arrowhead_and_reach_shows_on_forest(browser: Any, server: str) -> None:
    """Issue 15: "move trails without arrowheads"; "the reachable-hex highlight is invisible on
    forest". The path to the hex under the pointer ends in the page's arrowhead marker; a
    reachable hex is outlined in a colour that stands out on forest (WCAG contrast >= 3), with
    no fill to hide a counter."""
    g = new_game(server, "setup standard", "setup standard", game="bfm")
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        page.goto(f"{server}/g/{g['id']}#t={g['token']}")
        wait_js(page, "G.view.your_turn && G.legal.some(a => a.kind === 'move' && a.hexes.length > 2)")
        uid, dest = js(
            page,
            "(() => { const a = G.legal.find(a => a.kind === 'move' && a.hexes.length > 2); "
            "return [a.units[0], a.hexes[a.hexes.length - 1]]; })()",
        )
        page.evaluate(f"() => window.typhoon.centreOn('{dest}')")
        page.click(f"#board g.unit[data-unit='{uid}']")
        wait_js(page, f"G.sel && G.sel.unit === '{uid}'")
        box = page.locator(f"#board polygon.hl.reach[data-for='{dest}']").bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_selector("#board polyline.path")
        assert page.get_attribute("#board polyline.path", "marker-end") == "url(#ty-arrow-path)"
        assert page.locator("#board marker#ty-arrow-path path").count() == 1
        style = page.evaluate(
            """() => { const e = document.querySelector('#board polygon.hl.reach'); const s = getComputedStyle(e);
            return [s.fill, s.stroke, parseFloat(s.strokeWidth)]; }"""
        )
        forest = page.evaluate(
            """() => { const f = [...document.querySelectorAll('#board svg polygon')].find(p =>
              getComputedStyle(p).fill.replace(/ /g, '') === 'rgb(159,201,138)'); return f ? getComputedStyle(f).fill : null; }"""
        )
        assert forest, "the map draws forest in its legend colour"
        assert style[0] == "none", style
        assert contrast(style[1], forest) >= 3, style
        assert style[2] >= 3
    finally:
        ctx.close()


def test_tmc_shows_the_other_sides_move_trails_with_arrowheads_and_reach_covers_no_counter(
    browser: Any, server: str
) -> None:
    """Issue 15: The Moscow Campaign has "no move trails" (its move events give the whole path,
    no `from`); trails "without arrowheads". The other side's moves since your last decision
    are drawn, each ending in the arrowhead; the reachable-hex highlight (its own map once
    filled it yellow over the counters) is an outline; every log line names its side."""
    g = new_game(server, "setup standard", "setup standard", game="tmc", edition="1")
    with httpx.Client(base_url=server, timeout=60) as c:
        legal = c.get(f"/api/games/{g['id']}/legal").json()["actions"]
        move = next(a for a in legal if a["kind"] == "move")
        v = c.get(f"/api/games/{g['id']}").json()
        r = c.post(
            f"/api/games/{g['id']}/actions",
            json={"actions": [move["text"]], "seen": v["version"]},
            headers={"X-Typhoon-Token": g["token"]},
        )
        assert r.status_code == 200, r.text
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        page.goto(f"{server}/g/{g['id']}#t={g['token']}")
        wait_js(page, "G.view.your_turn && G.legal.some(a => a.kind === 'move')")
        # Seen as the Soviet player would see it (the hot seat plays both sides, so draws none).
        page.evaluate(
            """() => { const G = window.typhoon; const v = JSON.parse(JSON.stringify(G.view));
            v.you = ['soviet']; v.version += 1; G.page.setView(v); }"""
        )
        page.wait_for_selector("#board polyline.recent", state="attached")
        marks = page.eval_on_selector_all(
            "#board polyline.recent", "ls => ls.map(l => l.getAttribute('marker-end'))"
        )
        assert marks == ["url(#ty-arrow)"]
        assert page.locator("#board marker#ty-arrow path").count() == 1
        marker = page.evaluate(
            "() => getComputedStyle(document.querySelector('#board polyline.recent')).markerEnd"
        )
        assert "ty-arrow" in marker
        # Every log line starts with its side (or the die).
        whos = page.eval_on_selector_all("#log li .who", "ws => ws.map(w => w.textContent)")
        assert whos and all(re.fullmatch(r"(German|Soviet|Die): ", w) for w in whos)
        assert page.locator("#log li").count() == len(whos)
        # A unit's reach: outlined, not filled over the counters.
        page.evaluate(
            "() => { const G = window.typhoon; const v = JSON.parse(JSON.stringify(G.view)); v.version += 1; G.page.setView(v); }"
        )
        uid = js(page, "G.legal.find(a => a.kind === 'move').units[0]")
        page.evaluate(f"() => window.typhoon.centreOn(window.typhoon.where.get('{uid}'))")
        page.click(f"#board g.unit[data-unit='{uid}']", force=True)
        wait_js(page, "!!G.sel")
        fills = page.eval_on_selector_all(
            "#board polygon.hl.reach", "ps => ps.map(p => getComputedStyle(p).fill)"
        )
        assert fills and all(f == "none" for f in fills), fills[:3]
    finally:
        ctx.close()


# -- 2: hex numbers by default ----------------------------------------------------------------


def test_hex_numbers_are_shown_by_default_and_the_choice_is_kept(browser: Any, server: str) -> None:
    """Issue 15: "hex numbers hidden by default while retreats, the log and typed notation use
    them". A first visit shows them; turned off, they stay off on the next visit."""
    g = new_game(server, game="bfm")
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        page.goto(f"{server}/g/{g['id']}#t={g['token']}")
        wait_js(page, "!!document.querySelector('#board svg')")
        assert page.is_checked("#numbers")
        assert "numbers" in page.get_attribute("#board svg", "class")
        assert page.locator("#board .hexnum").first.is_visible()
        page.uncheck("#numbers")
        page.reload()
        wait_js(page, "!!document.querySelector('#board svg')")
        assert not page.is_checked("#numbers")
        assert not page.locator("#board .hexnum").first.is_visible()
    finally:
        ctx.close()


# -- 4: touch, wheel and drag on every game's map -------------------------------------------


def touch(cdp: Any, kind: str, points: list[tuple[float, float]]) -> None:
    cdp.send(
        "Input.dispatchTouchEvent",
        {"type": kind, "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]},
    )


@pytest.mark.parametrize("game", ["bfm", "tmc", "ma", "mockba"])
def test_the_map_zooms_and_pans_by_touch_wheel_and_drag(browser: Any, server: str, game: str) -> None:
    """Issue 15: "no zoom or pan for Battle for Moscow (tiny on a phone)"; "the map zooms and
    pans by touch". On a phone with touch, a one-finger drag moves the view and a pinch zooms
    in; with a mouse the wheel zooms and a drag pans. Every game's map."""
    if game not in game_keys(server):
        pytest.skip(f"{game} is not registered here")
    g = new_game(server, game=game)
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        page = ctx.new_page()
        page.goto(f"{server}/g/{g['id']}#t={g['token']}")
        wait_js(page, "!!document.querySelector('#board svg') && !!G.vb")
        page.evaluate("() => document.querySelector('#zoom-in').click()")  # room to pan both ways
        b = page.locator("#board").bounding_box()
        cx, cy = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
        cdp = ctx.new_cdp_session(page)
        before = viewbox(page)
        touch(cdp, "touchStart", [(cx, cy)])
        for k in range(1, 6):
            touch(cdp, "touchMove", [(cx - 12 * k, cy - 8 * k)])
        touch(cdp, "touchEnd", [])
        dragged = viewbox(page)
        assert dragged[0] > before[0] and dragged[1] > before[1], (before, dragged)
        assert dragged[2] == pytest.approx(before[2], rel=1e-3)
        touch(cdp, "touchStart", [(cx - 30, cy), (cx + 30, cy)])
        for k in range(1, 6):
            touch(cdp, "touchMove", [(cx - 30 - 10 * k, cy), (cx + 30 + 10 * k, cy)])
        touch(cdp, "touchEnd", [])
        pinched = viewbox(page)
        assert pinched[2] < dragged[2] * 0.8, (dragged, pinched)
    finally:
        ctx.close()
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        page.goto(f"{server}/g/{g['id']}#t={g['token']}")
        wait_js(page, "!!document.querySelector('#board svg') && !!G.vb")
        b = page.locator("#board").bounding_box()
        page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2)
        before = viewbox(page)
        page.mouse.wheel(0, -300)
        page.wait_for_function(
            f"() => document.querySelector('#board svg').viewBox.baseVal.width < {before[2]}"
        )
        zoomed = viewbox(page)
        page.mouse.down()
        page.mouse.move(b["x"] + b["width"] / 2 - 80, b["y"] + b["height"] / 2 - 40, steps=5)
        page.mouse.up()
        assert viewbox(page)[0] > zoomed[0]
    finally:
        ctx.close()


# -- 6: the first keyboard focus ----------------------------------------------------------------


@pytest.mark.parametrize("game", ["bfm", "tmc"])
def test_keyboard_focus_starts_on_a_useful_hex(browser: Any, server: str, game: str) -> None:
    """Issue 15: "keyboard focus starts on an empty corner hex". At the start of the set-up it
    is near the middle of the map (or on a unit of the side to move); once the game runs, on a
    unit that can act."""
    g = new_game(server, game=game)
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        page.goto(f"{server}/g/{g['id']}#t={g['token']}")
        wait_js(page, "!!G.focus")
        near = js(page, "G.view.units.some(u => u.hex === G.focus && u.side === G.view.to_move)")
        if not near:
            # The focus hex's centre against the map's middle (within a fifth of its size).
            fx, fy, mx, my, w, h = js(
                page,
                """(() => { const f = G.focus; let cx, cy;
                if (G.grid) { const c = parseInt(f.slice(0, 2), 10), r = parseInt(f.slice(2), 10);
                  cx = G.grid.x0 + (c - 1) * 1.5 * G.grid.r; cy = G.grid.y0 + (r - 1) * 2 * G.grid.h; }
                else { cx = G.hexes[f].cx; cy = G.hexes[f].cy; }
                return [cx, cy, G.home.x + G.home.w / 2, G.home.y + G.home.h / 2, G.home.w, G.home.h]; })()""",
            )
            assert abs(fx - mx) < w / 5 and abs(fy - my) < h / 5, (fx, fy, mx, my, w, h)
        ctx.close()
        g = new_game(server, "setup standard", "setup standard", game=game)
        ctx = browser.new_context(viewport={"width": 1366, "height": 768})
        page = ctx.new_page()
        page.goto(f"{server}/g/{g['id']}#t={g['token']}")
        wait_js(page, "!!G.focus && G.legal.length > 0")
        assert js(page, "G.legal.some(a => (a.units || []).some(u => G.where.get(u) === G.focus))"), js(
            page, "G.focus"
        )
    finally:
        ctx.close()


# -- 7: the die banner ends with its phase ----------------------------------------------------------


def test_the_die_banner_does_not_stay_into_the_next_phase(browser: Any, server: str) -> None:
    """Issue 15: "the last die banner stays into the next phase". A roll just made shows its
    banner; once a decision after it begins a new phase the banner is gone."""
    g = new_game(server, "setup standard", "setup standard", game="bfm")
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        page.goto(f"{server}/g/{g['id']}#t={g['token']}")
        wait_js(page, "G.view.your_turn")
        show = """(extra) => { const G = window.typhoon; const v = JSON.parse(JSON.stringify(G.view));
          const n = v.log.length;
          v.log.push({n: n + 1, actor: 'chance', action: 'roll 4', events: [{kind: 'roll', text: 'Die roll 4: DR.', data: {}}]});
          for (const [i, e] of extra.entries()) v.log.push({n: n + 2 + i, ...e});
          v.version += 1; G.page.setView(v); return !!document.querySelector('#last-roll'); }"""
        assert page.evaluate(show, []) is True
        after = [
            {
                "actor": "german",
                "action": "end",
                "events": [{"kind": "phase", "text": "Soviet movement phase.", "data": {}}],
            }
        ]
        assert page.evaluate(show, after) is False
        assert page.evaluate(show, []) is True
        # A roll that itself began the new phase: only until the next decision.
        ended = """() => { const G = window.typhoon; const v = JSON.parse(JSON.stringify(G.view)); const n = v.log.length;
          v.log.push({n: n + 1, actor: 'chance', action: 'roll 2', events: [{kind: 'roll', text: 'Die roll 2.', data: {}},
            {kind: 'phase', text: 'German movement phase.', data: {}}]});
          v.log.push({n: n + 2, actor: 'german', action: 'move', events: []});
          v.version += 1; G.page.setView(v); return !!document.querySelector('#last-roll'); }"""
        assert page.evaluate(ended) is False
    finally:
        ctx.close()


# -- 8: the "S" key in sentences ------------------------------------------------------------------


def test_the_s_key_speaks_separate_sentences(browser: Any, server: str) -> None:
    """Issue 15: "the screen-reader S key runs two sentences together". The status, the side
    to decide and the prompt are read as sentences, each ended by a full stop."""
    g = new_game(server, "setup standard", "setup standard", game="bfm")
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        page.goto(f"{server}/g/{g['id']}#t={g['token']}")
        wait_js(page, "G.view.your_turn")
        to_move = page.inner_text("#to-move").strip()
        page.click("h2#prompt-h")
        page.keyboard.press("s")
        page.wait_for_function("document.querySelector('#announce').textContent.length > 0")
        said = page.inner_text("#announce")
        assert re.search(r"[.!?:] " + re.escape(to_move) + r"\. \S", said), said
        assert not re.search(r"[a-z][A-Z]", said.replace("McK", "")), said
    finally:
        ctx.close()


# -- 11: the replay log follows the step, autoplay -------------------------------------------------


def test_replay_log_follows_the_step_and_autoplay_steps_through(browser: Any, server: str) -> None:
    """Issue 15: "the replay log does not follow the step shown and has no autoplay". The entry
    of the step shown is marked (aria-current) and scrolled into the log's view; Play steps on
    by itself at the chosen speed, Pause stops it."""
    with httpx.Client(base_url=server, timeout=60) as c:
        g = c.post("/api/games", json={"mode": "hotseat", "seed": 5, "game": "bfm"}).json()
        for _ in range(30):
            v = c.get(f"/api/games/{g['id']}").json()
            legal = c.get(f"/api/games/{g['id']}/legal").json()["actions"]
            pick = next((a for a in legal if a["kind"] == "setupstandard"), legal[0])
            c.post(
                f"/api/games/{g['id']}/actions",
                json={"actions": [pick["text"]], "seen": v["version"]},
                headers={"X-Typhoon-Token": g["token"]},
            )
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        page.goto(f"{server}/g/{g['id']}#t={g['token']}")
        wait_js(page, "G.view.log.length >= 20")
        page.click("#rp-toggle")
        wait_js(page, "!!G.replay")
        page.click("#rp-first")
        wait_js(page, "G.replay.step === 0")
        for _ in range(3):
            page.click("#rp-next")
        wait_js(page, "G.replay.step === 3")
        cur = page.locator("#log li.current")
        assert cur.count() == 1 and cur.get_attribute("value") == "3"
        assert cur.get_attribute("aria-current") == "step"
        page.click("#rp-last")
        wait_js(page, "G.replay.step === G.replay.total")
        page.click("#rp-first")
        wait_js(page, "G.replay.step === 0")
        for _ in range(2):
            page.click("#rp-next")
        wait_js(page, "G.replay.step === 2")
        page.select_option("#rp-speed", "400")
        page.click("#rp-play")
        wait_js(page, "G.replay.step >= 6", 30_000)
        page.click("#rp-play")
        stopped = js(page, "G.replay.step")
        page.wait_for_timeout(1200)
        assert js(page, "G.replay.step") <= stopped + 1
        # The entry shown is inside the log's visible part.
        inside = page.evaluate(
            """() => { const ol = document.querySelector('#log'); const li = ol.querySelector('li.current');
            const a = ol.getBoundingClientRect(), b = li.getBoundingClientRect();
            return b.top >= a.top - 1 && b.bottom <= a.bottom + 1; }"""
        )
        assert inside
    finally:
        ctx.close()


# -- 12: deleting a saved game from the lobby --------------------------------------------------------


def test_the_lobby_deletes_a_saved_game_after_a_confirm(browser: Any, server: str) -> None:
    """Issue 15: the lobby has "no way to delete a game". A game this browser holds the link of
    has a Delete button; it asks first (No keeps the game), Yes removes it from the list and the
    server; a remote game's opponent is refused, in words."""
    mine = new_game(server, game="bfm")
    remote = new_game(server, game="bfm", mode="remote", side="german", seed=None)
    opponent = remote["links"]["soviet"].split("#t=")[1]
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        page.goto(server + "/")
        page.evaluate(
            f"""() => {{ localStorage.setItem('typhoon:token:{mine["id"]}', '{mine["token"]}');
            localStorage.setItem('typhoon:token:{remote["id"]}', '{opponent}'); }}"""
        )
        page.reload()
        button = f"#games button[data-delete='{mine['id']}']"
        page.wait_for_selector(button)
        answers: list[str] = []

        def answer(d: Any) -> None:
            answers.append(d.message)
            d.accept() if len(answers) > 1 else d.dismiss()

        page.on("dialog", answer)
        page.click(button)
        page.wait_for_timeout(300)
        assert answers and "Delete game" in answers[0]
        assert page.locator(button).count() == 1
        assert httpx.get(f"{server}/api/games/{mine['id']}").status_code == 200
        page.click(button)
        page.wait_for_selector(button, state="detached")
        assert httpx.get(f"{server}/api/games/{mine['id']}").status_code == 404
        page.click(f"#games button[data-delete='{remote['id']}']")
        page.wait_for_function("document.querySelector('#list-error').textContent.length > 0")
        assert "made this game" in page.inner_text("#list-error")
        assert httpx.get(f"{server}/api/games/{remote['id']}").status_code == 200
    finally:
        ctx.close()


# -- 10: the standard set-up after a hand placement ----------------------------------------------------


def test_the_standard_setup_stays_offered_after_a_hand_placement(browser: Any, server: str) -> None:
    """Issue 15: "placing one unit by hand removes the Standard set-up button". After one unit
    is placed by hand the button is still there; it places the remaining units as standard and
    leaves the hand-placed one where it was."""
    g = new_game(server, game="bfm")
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        page.goto(f"{server}/g/{g['id']}#t={g['token']}")
        wait_js(page, "G.view.your_turn && G.legal.some(a => a.kind === 'place')")
        side = js(page, "G.view.to_move")
        # By hand: a unit, then a highlighted hex (the last of its set-up hexes).
        uid = page.get_attribute("#pool button[data-unit]", "data-unit")
        page.click(f"#pool button[data-unit='{uid}']")
        hexid = js(page, f"G.legal.filter(a => a.kind === 'place' && a.unit === '{uid}').pop().hex")
        page.evaluate(f"() => window.typhoon.centreOn('{hexid}')")
        box = page.locator(f"#board polygon.hl.reach[data-for='{hexid}']").bounding_box()
        version = js(page, "G.view.version")
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        wait_js(page, f"G.view.version > {version}")
        assert js(page, f"G.where.get('{uid}')") == hexid
        button = page.locator("#buttons button[data-batch='setupstandard']")
        assert button.count() == 1 and "Standard set-up" in button.inner_text()
        button.click()
        wait_js(page, f"G.view.to_move !== '{side}' || G.view.phase.kind !== 'setup'")
        assert js(page, f"G.where.get('{uid}')") == hexid
        log = js(page, f"G.view.log.filter(e => e.actor === '{side}').length")
        placed = js(page, f"G.view.units.filter(u => u.side === '{side}' && u.hex).length")
        assert log == placed  # one placement each, the hand one included
    finally:
        ctx.close()


# -- 5: the VPG edition's Soviet edge hexes ------------------------------------------------------------


def test_the_vpg_editions_soviet_edge_hexes_are_drawn(browser: Any, server: str) -> None:
    """Issue 15: "the VPG edition's Soviet edge hexes are not drawn". Its map data names 17
    Soviet edge hexes, the east column and hexes at the north and south corners (1010, 1101,
    1111, 1201, 1210, 1301, 1311): each is outlined in the Soviet colour on the page's map, as
    the German edge is in its own."""
    from typhoon.datafile import read_package_json

    edges = read_package_json("typhoon.games.bfm", "map_vpg2009.json")["edges"]
    g = new_game(server, game="bfm", edition="vpg2009")
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        page.goto(f"{server}/g/{g['id']}#t={g['token']}")
        wait_js(page, "!!document.querySelector('#board svg')")
        for side in ("soviet", "german"):
            drawn = page.eval_on_selector_all(
                f"#board polygon.edge.{side}", "ps => ps.map(p => p.dataset.edge)"
            )
            assert sorted(drawn) == sorted(edges[side]), side
        assert {"1010", "1101", "1201", "1311"} <= set(edges["soviet"])
        stroke = page.evaluate(
            "() => getComputedStyle(document.querySelector('#board polygon.edge.soviet')).stroke"
        )
        assert stroke == "rgb(179, 38, 30)"
        assert page.locator("#board polygon.edge[data-edge='1201']").bounding_box()["width"] > 10
    finally:
        ctx.close()
