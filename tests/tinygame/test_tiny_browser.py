"""The tiny test game in a real browser (issue 11 point 4): the one game page plays it from its
views alone, by clicking, to the end. Registered here only, in the live server's process."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from browserfix import end_phase
from tinygame import KEY, PACKAGE
from typhoon.games import register_game, unregister_game

pytestmark = pytest.mark.browser


@pytest.fixture
def tiny() -> Iterator[None]:
    register_game(KEY, "Tiny game", PACKAGE)
    yield
    unregister_game(KEY)


def wait_js(page: Any, expr: str, timeout: float = 20_000) -> None:
    page.wait_for_function(
        f"() => {{ const G = window.typhoon; return !!(G && G.view && ({expr})); }}", timeout=timeout
    )


def js(page: Any, expr: str) -> Any:
    return page.evaluate(f"() => {{ const G = window.typhoon; return ({expr}); }}")


def test_the_tiny_game_is_played_to_the_end_by_clicking(
    tiny: None, browser: Any, server: str, artifacts: Path
) -> None:
    g = httpx.post(server + "/api/games", json={"game": KEY, "mode": "hotseat", "seed": 3}, timeout=20).json()
    ctx = browser.new_context(viewport={"width": 1200, "height": 800})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(server + g["links"]["host"])
        wait_js(page, "G.view.your_turn && G.legal.length")
        assert js(page, "G.view.game") == KEY
        assert "Hot seat" in page.inner_text("#who")
        # German: click G2 (in 0102), its one free hex lights up, click it: G2 moves.
        page.click("#board g.unit[data-unit='G2']")
        wait_js(page, "G.sel && G.sel.unit === 'G2'")
        assert page.locator("#overlay polygon.reach").count() == 1
        page.hover("#hex-0103")
        assert page.locator("#overlay polyline.path").count() == 1
        page.click("#hex-0103")
        wait_js(page, "G.view.units.find(u => u.id === 'G2').hex === '0103'")
        assert "moves" in page.inner_text("#log") or "G2" in page.inner_text("#log")
        # Soviet: S1 (0104) attacks G2 by a click on S1, then on G2's hex; the die decides.
        wait_js(page, "G.view.to_move === 'soviet' && G.view.your_turn")
        version = js(page, "G.view.version")
        page.click("#board g.unit[data-unit='S1']")
        wait_js(page, "G.sel && G.sel.unit === 'S1'")
        page.click("#board g.unit[data-unit='G2']")
        wait_js(page, f"G.view.version > {version} && G.view.to_move !== 'chance'")
        assert "Die:" in page.inner_text("#log")
        # Every map pans and zooms: the zoom buttons change the SVG's viewBox, W shows it whole.
        whole = page.get_attribute("#board svg", "viewBox")
        page.click("#zoom-in")
        zoomed = page.get_attribute("#board svg", "viewBox")
        assert float(zoomed.split()[2]) < float(whole.split()[2])
        page.focus("#board")
        page.keyboard.press("w")
        assert float(page.get_attribute("#board svg", "viewBox").split()[2]) >= float(whole.split()[2])
        # The German moves by keyboard only: arrows to the unit, Enter, arrows to the hex, Enter.
        wait_js(page, "G.view.to_move === 'german' && G.legal.some(a => a.kind === 'move')")
        mv = js(page, "G.legal.find(a => a.kind === 'move')")
        src, dst = mv["hexes"]
        unit = mv["units"][0]

        def go(to: str) -> None:
            step = int(to[2:]) - int(js(page, "G.focus")[2:])  # the tiny map's ids: 0101 .. 0105
            for _ in range(abs(step)):
                page.keyboard.press("ArrowRight" if step > 0 else "ArrowLeft")
            wait_js(page, f"G.focus === '{to}'")

        page.focus("#board")
        go(src)
        page.keyboard.press("Enter")
        wait_js(page, f"G.sel && G.sel.unit === '{unit}'")
        go(dst)
        # the focus words come with the hex's view, fetched after the key press: wait for them
        wait_js(
            page, f"document.getElementById('focus-info').innerText.includes('Enter: Move {unit} to {dst}')"
        )
        page.keyboard.press("Enter")
        wait_js(page, f"G.view.units.find(u => u.id === '{unit}').hex === '{dst}'")
        # Then each side clicks the End button (or a unit and a hex) until the game is over.
        for _ in range(20):
            if js(page, "G.view.result"):
                break
            version = js(page, "G.view.version")
            end_phase(page)
            wait_js(page, f"G.view.version > {version}")
        wait_js(page, "G.view.result")
        assert page.inner_text("#prompt .banner.over").strip()
        assert page.locator("#end-btn").count() == 0
        page.screenshot(path=str(artifacts / "tiny_over.png"))
        # The replay steps back through it on the same page.
        page.click("#rp-toggle")
        page.click("#rp-first")
        page.wait_for_function("document.getElementById('rp-info').textContent.startsWith('Step 0 of')")
        assert page.locator("#board g.unit[data-unit='G2'][data-hex='0102']").count() == 1
        assert not errors, errors
    finally:
        ctx.close()
