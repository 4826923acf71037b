"""The browser page, second pass (issue 15), in a real browser (Debian's Chromium, Playwright).

Each test checks one point of the issue that a player saw: the lobby's levels as a short ladder
in words; ending a phase is deliberate; the decisive buttons in view at 1366x768, 1024x768 and
on a 390x844 phone; the computer's clock, the lost-connection notice and the tab badge; no
project jargon (raw option keys, "rules of seed NNN", web addresses, "UNVERIFIED") in the page."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from browserfix import js, new_game, wait_js

pytestmark = pytest.mark.browser

SIZES = [(1366, 768), (1024, 768), (390, 844)]
# Words a player should never meet (issue 15, "Words").
JARGON = re.compile(
    r"rules of seed|\bseed \d{3}\b|UNVERIFIED|https?://|www\.|\.com\b|\.md\b|docs/|\b[a-z0-9]+_[a-z0-9_]+\b"
)


def hotseat(server: str, *actions: str, game: str | None = None, seed: int = 5) -> dict[str, Any]:
    """A hot-seat game, played through the API up to a position."""
    return new_game(server, *actions, seed=seed, **({"game": game} if game else {}))


def in_viewport(page: Any, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    vp = page.viewport_size
    return bool(
        box
        and box["width"] > 0
        and box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= vp["width"]
        and box["y"] + box["height"] <= vp["height"]
    )


def level_options(page: Any) -> list[tuple[str, str]]:
    return [
        (v, t)
        for v, t in page.eval_on_selector_all("#level option", "os => os.map(o => [o.value, o.textContent])")
    ]


# -- 1. the lobby's levels -------------------------------------------------------------------


def test_lobby_levels_are_a_ladder_in_words_for_the_chosen_game(browser: Any, server: str) -> None:
    """Issue 15: "AI levels are listed alphabetically with internal variants (search:16 ...
    search:512): offer a short ladder in order of strength, named in words"; a game's own level
    is offered with its game only."""
    meta = httpx.get(server + "/api/meta", timeout=20).json()
    own = {
        g["key"]: [lv for lv in g["levels"] if not all(lv in h["levels"] for h in meta["games"])]
        for g in meta["games"]
    }
    with_own = next(k for k, v in own.items() if v)
    without = next(k for k, v in own.items() if not v)
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        page.goto(server + "/")
        page.wait_for_function("document.querySelectorAll('#level option').length > 0")
        page.select_option("#game", with_own)
        opts = level_options(page)
        values = [v for v, _ in opts]
        words = [t for _, t in opts]
        # Weakest first, in words, with the typical time a turn.
        assert words[0].startswith("Easy — random moves") and values[0] == "random"
        assert words[1].startswith("Normal — heuristic")
        assert values.index("random") < values.index("heuristic") < values.index("search")
        assert any(t.startswith("Strong — search") for t in words)
        assert all("turn" in t or "instant" in t for t in words)
        # The game's own level is there, in words, above the heuristic it builds on.
        for lv in own[with_own]:
            assert lv in values and values.index(lv) > values.index("heuristic")
        # No internal variants until "All levels" is opened; then in order of budget.
        assert not any(re.fullmatch(r"search:\d+", v) for v in values)
        assert not any(":" in t.split("—")[0] for t in words)
        page.click("#level-all summary")
        page.wait_for_function(
            "[...document.querySelectorAll('#level option')].some(o => o.value === 'search:16')"
        )
        budgets = [v for v, _ in level_options(page) if re.fullmatch(r"search:\d+", v)]
        assert budgets == sorted(budgets, key=lambda v: int(v.split(":")[1])) and len(budgets) >= 6
        # Another game: its own list, without the first game's own level.
        page.select_option("#game", without)
        values = [v for v, _ in level_options(page)]
        assert not set(own[with_own]) & set(values) and "heuristic" in values
        assert page.eval_on_selector("#level", "s => s.value") == meta["default_level"]
    finally:
        ctx.close()


# -- 2. ending a phase is deliberate ----------------------------------------------------------


def test_end_asks_first_while_units_could_still_act(browser: Any, server: str) -> None:
    """Issue 15: "One stray E ends a phase anywhere without confirmation": the End button and
    the E key ask first while units could still act, and the button says what it ends."""
    g = hotseat(server, "setup standard", "setup standard", game="bfm")
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        page.goto(server + g["links"]["host"])
        wait_js(page, "G.view.your_turn && G.legal.some(a => a.kind === 'end')")
        phase = js(page, "G.view.phase.key")
        name = js(page, "G.view.phase.name")
        end_text = page.inner_text("#end-btn")
        assert end_text.startswith("End") and end_text != "End (E)"
        assert name.split()[-1].lower() in end_text.lower() or "phase" in end_text.lower()
        # A click asks; Keep playing leaves the phase as it was.
        page.click("#end-btn")
        assert page.is_visible("#end-confirm")
        assert "could still act" in page.inner_text("#end-confirm")
        assert js(page, "G.view.phase.key") == phase
        page.click("#end-no")
        assert not page.is_visible("#end-confirm")
        # A stray E asks too; Escape cancels; E twice ends the phase.
        page.focus("#board")
        page.keyboard.press("e")
        assert page.is_visible("#end-confirm")
        page.keyboard.press("Escape")
        assert not page.is_visible("#end-confirm")
        page.wait_for_timeout(300)
        assert js(page, "G.view.phase.key") == phase
        page.keyboard.press("e")
        page.keyboard.press("e")
        wait_js(page, f"G.view.phase.key !== '{phase}'")
    finally:
        ctx.close()


# -- 3. the decisive buttons in view ----------------------------------------------------------


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_declare_and_end_are_in_view(browser: Any, server: str, width: int, height: int) -> None:
    """Issue 15: "At 1366x768 and 1024x768 the Declare this attack button is off screen; the
    visible button ends the phase." Planning an attack: Declare and End are both in the
    viewport at both sizes and on a phone (controls under the map)."""
    g = hotseat(server, "setup standard", "setup standard", "end", game="bfm")
    ctx = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = ctx.new_page()
        page.goto(server + g["links"]["host"])
        wait_js(page, "G.view.your_turn && G.legal.some(a => a.kind === 'attack')")
        target = js(page, "G.legal.find(a => a.kind === 'attack').target")
        page.evaluate(f"() => window.typhoon.centreOn('{target}')")
        page.click(f"#board g.unit[data-hex='{target}']")
        page.wait_for_selector("#declare-btn")
        page.wait_for_function("document.querySelector('#preview h3')")
        assert in_viewport(page, "#declare-btn"), page.locator("#declare-btn").bounding_box()
        assert in_viewport(page, "#end-btn"), page.locator("#end-btn").bounding_box()
        # The map is on screen too, above the controls on a phone.
        board = page.locator("#board").bounding_box()
        assert board and board["y"] < height / 2
        if width < 600:
            assert page.locator("#actionbar").bounding_box()["y"] > board["y"] + board["height"] - 1
        # Declaring from there works.
        version = js(page, "G.view.version")
        page.click("#declare-btn")
        wait_js(page, f"G.view.version > {version}")
    finally:
        ctx.close()


def test_the_end_button_is_in_view_on_a_large_map(browser: Any, server: str) -> None:
    """The same on the other game's large map (with its reconstruction banner over it): the End
    button is in view at each size, the map above the controls on a phone."""
    g = hotseat(server, "setup standard", "setup standard", game="tmc")
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        page.goto(server + g["links"]["host"])
        wait_js(page, "G.view.your_turn && G.legal.some(a => a.kind === 'end')", timeout=60_000)
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(200)
            assert in_viewport(page, "#end-btn"), ((width, height), page.locator("#end-btn").bounding_box())
            board = page.locator("#board").bounding_box()
            assert board and board["height"] > 200 and board["y"] < height / 2
    finally:
        ctx.close()


# -- 4. the computer's turn, the connection, the tab badge -------------------------------------


def test_the_computers_turn_shows_a_clock(browser: Any, server: str) -> None:
    """Issue 15: "up to half a minute at the stronger levels with no sign of progress"."""
    g = httpx.post(
        server + "/api/games", json={"mode": "ai", "side": "german", "level": "random"}, timeout=20
    ).json()
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        page.goto(server + g["links"]["german"])
        wait_js(page, "G.view")
        # The view of a computer's turn in progress (the random level answers too fast to see it).
        page.evaluate(
            "() => { const G = window.typhoon; const v = {...G.view, your_turn: false, legal: [],"
            " to_move: Object.keys(G.view.ai)[0], ai_thinking: true, result: null};"
            " G.page.setView(v, {force: true}); }"
        )
        page.wait_for_selector("#thinking")
        assert re.search(r"The computer is thinking… \d+s", page.inner_text("#prompt"))
        page.wait_for_function("/thinking… [1-9]\\d*s/.test(document.getElementById('thinking').textContent)")
    finally:
        ctx.close()


def test_a_lost_connection_is_shown(browser: Any, server: str) -> None:
    """Issue 15: "no sign when the connection to the server is lost"."""
    g = hotseat(server, game="bfm")
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        page.goto(server + g["links"]["host"])
        wait_js(page, "G.view.your_turn")
        assert not page.is_visible("#conn")
        ctx.set_offline(True)
        page.wait_for_selector("#conn", state="visible", timeout=10_000)
        assert "Cannot reach the server" in page.inner_text("#conn")
        # A decision tried meanwhile says it was not sent.
        page.click("#buttons button[data-action='setup standard']")
        page.wait_for_function("document.getElementById('error').textContent.includes('not sent')")
        ctx.set_offline(False)
        page.wait_for_selector("#conn", state="hidden", timeout=15_000)
    finally:
        ctx.close()


def test_the_tab_title_says_when_it_is_your_turn_in_remote_play(browser: Any, server: str) -> None:
    """Issue 15: "A notice when it is your turn in remote play (page title / tab badge)"."""
    g = httpx.post(server + "/api/games", json={"mode": "remote", "side": "german"}, timeout=20).json()
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        ger = ctx.new_page()
        sov = ctx.new_page()
        ger.goto(server + g["links"]["german"])
        sov.goto(server + g["links"]["soviet"])
        wait_js(sov, "G.view.your_turn")
        wait_js(ger, "!G.view.your_turn")
        assert sov.title().startswith("● Your turn")
        assert "Your turn" not in ger.title()
        sov.click("#buttons button[data-action='setup standard']")
        wait_js(ger, "G.view.your_turn")
        ger.wait_for_function("document.title.startsWith('● Your turn')")
        sov.wait_for_function("!document.title.includes('Your turn')")
    finally:
        ctx.close()


# -- 5. words --------------------------------------------------------------------------------


def test_the_lobby_speaks_in_words(browser: Any, server: str) -> None:
    """Issue 15: no raw option keys, "rules of seed NNN", source URLs or "UNVERIFIED" in the
    page; the sources are behind a "where this comes from" link."""
    meta = httpx.get(server + "/api/meta", timeout=20).json()
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    try:
        page = ctx.new_page()
        page.goto(server + "/")
        page.wait_for_function("document.querySelectorAll('#level option').length > 0")
        page.click("#options-box summary")
        sources = 0
        for g in meta["games"]:
            for ed in g["editions"][:2]:
                page.select_option("#game", g["key"])
                page.select_option("#edition", ed["key"])
                text = page.inner_text("#new-game") + page.inner_text("#game-note")
                bad = JARGON.findall(text)
                assert not bad, (g["key"], ed["key"], bad)
                sources += page.locator("#new-game details.sources, #game-note details.sources").count()
        assert sources > 0  # the sources are still there, one click away
        page.locator("details.sources summary").first.click()
        assert page.locator("details.sources[open] span").first.inner_text().strip()
    finally:
        ctx.close()


@pytest.mark.parametrize("game", ["bfm", "tmc", "ma"])
def test_the_game_page_speaks_in_words(browser: Any, server: str, game: str) -> None:
    g = hotseat(server, game=game)
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        page.goto(server + g["links"]["host"])
        wait_js(page, "G.view.your_turn")
        for sel in (".top", "#notice", "#status", "#rules", "#prompt-box"):
            if page.is_visible(sel):
                text = page.inner_text(sel)
                assert not JARGON.findall(text), (sel, JARGON.findall(text), text)
    finally:
        ctx.close()
