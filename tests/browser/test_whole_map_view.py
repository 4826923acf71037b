"""The Moscow Campaign's whole map made readable (issue 15, "Map": "the Moscow Campaign's
whole-map view is unreadable"): zoomed out, the page marks the map far (``data-far``, with
``--px`` map units per screen pixel; games/frontends.py "Semantic zoom"); the map's styles then
drop the counters' small print and the towns' names and keep the cities' names at a readable
size on screen."""

from __future__ import annotations

from typing import Any

import pytest
from test_browser_pass import hotseat

from browserfix import js, wait_js

pytestmark = pytest.mark.browser


def test_the_whole_map_keeps_the_cities_readable(browser: Any, server: str) -> None:
    g = hotseat(server, "setup standard", "setup standard", game="tmc")
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        page.goto(server + g["links"]["host"])
        wait_js(page, "G.view.your_turn")
        page.click("#view-active")
        assert not js(page, "document.querySelector('#board svg').hasAttribute('data-far')")
        page.click("#view-all")
        page.wait_for_function("document.querySelector('#board svg').hasAttribute('data-far')")
        sizes = page.evaluate(
            """() => [...document.querySelectorAll('#board svg .cityname')].map(t => {
                 const b = t.getBoundingClientRect();
                 return [t.textContent, getComputedStyle(t).display, b.height];
               })"""
        )
        shown = {name: h for name, display, h in sizes if display != "none"}
        assert {"Moscow", "Kalinin", "Tula", "Bryansk"} <= set(shown), shown
        assert all(h >= 10 for h in shown.values()), shown  # readable on screen
        assert len(shown) < len(sizes) / 3  # the small towns' names are gone
        hidden = page.evaluate(
            "() => [...document.querySelectorAll('#board svg .unit text')]"
            ".every(t => getComputedStyle(t).display === 'none')"
        )
        assert hidden  # counters' print would be a smudge at this size
        page.click("#view-active")
        page.wait_for_function("!document.querySelector('#board svg').hasAttribute('data-far')")
    finally:
        ctx.close()


def test_a_large_maps_hex_numbers_are_written_for_the_hexes_in_view(browser: Any, server: str) -> None:
    """Issue 15: "hex numbers hidden by default while retreats, the log and typed notation use
    them". The Moscow Campaign's map declares its grid (no label per hex), so the page writes
    the numbers of the hexes in view, by default; none on the whole map, none when turned off."""
    g = hotseat(server, "setup standard", "setup standard", game="tmc")
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        page.goto(server + g["links"]["host"])
        wait_js(page, "G.view.your_turn")
        page.click("#view-active")
        page.wait_for_function("document.querySelectorAll('#ty-hexnums text').length > 100")
        shown = page.evaluate(
            "() => [...document.querySelectorAll('#ty-hexnums text')].map(t => t.textContent)"
        )
        unit_hex = js(page, "G.view.units.find(u => u.side === 'german' && u.hex).hex")
        page.evaluate(f"() => window.typhoon.centreOn('{unit_hex}')")
        page.wait_for_function(
            f"[...document.querySelectorAll('#ty-hexnums text')].some(t => t.textContent === '{unit_hex}')"
        )
        assert len(shown) < 2000  # the hexes in view, not all 4,914
        page.click("#view-all")
        page.wait_for_function("document.querySelectorAll('#ty-hexnums text').length === 0")
        page.click("#view-active")
        page.wait_for_function("document.querySelectorAll('#ty-hexnums text').length > 100")
        page.uncheck("#numbers")
        page.wait_for_function("document.querySelectorAll('#ty-hexnums text').length === 0")
    finally:
        ctx.close()
