"""The terminal map (issue 2, item 8): drawn from the grid geometry of each edition, every hex
once, units with side and strength, cities with their controller, plain text without colour."""

from __future__ import annotations

import re

import pytest

from typhoon.game import Game
from typhoon.games.bfm.notation import position_from_text
from typhoon.games.bfm.termmap import EDGE, ROW_LINES, city_codes, legend, map_size, render_map
from typhoon.textstyle import Palette, strip_ansi


def started(edition: str) -> Game:
    g = Game(edition=edition, seed=1)
    g.play_text("setup standard")
    g.play_text("setup standard")
    return g


@pytest.mark.parametrize(("edition", "count"), [("gdw1986", 140), ("vpg2009", 147)])
def test_every_hex_id_appears_once(edition: str, count: int) -> None:
    state = started(edition).state
    text = render_map(state)
    found = re.findall(r"\d{4}", text)
    grid = state.rules.map.grid
    assert len(found) == count == grid.count
    assert sorted(found) == sorted(grid.ids[h] for h in grid.hexes)


@pytest.mark.parametrize("edition", ["gdw1986", "vpg2009"])
def test_layout_follows_the_grid(edition: str) -> None:
    """Columns side by side, rows downwards, the grid's shifted columns half a hex lower."""
    state = started(edition).state
    grid = state.rules.map.grid
    lines = render_map(state).splitlines()
    width, height = map_size(grid)
    assert len(lines) == height
    assert max(len(line) for line in lines) <= width
    for h in grid.hexes:
        c, r = grid.coords[h]
        low = (c % 2 == 0) == (grid.shifted_down == "even")
        y = 1 + (r - 1) * ROW_LINES + (ROW_LINES // 2 if low else 0)
        x = (c - 1) * (EDGE + 2) + 2
        assert lines[y][x : x + 4] == grid.ids[h], grid.ids[h]
    # Neighbours by the grid touch on the drawing: N/S neighbours are one row apart, the
    # others in the next column half a row up or down.
    h = grid.index["0504"]
    ys = {}
    for n in grid.neighbours[h]:
        c, r = grid.coords[n]
        low = (c % 2 == 0) == (grid.shifted_down == "even")
        ys[grid.ids[n]] = (r - 1) * ROW_LINES + (ROW_LINES // 2 if low else 0)
    assert sorted(set(ys.values())) == [4 * 2, 4 * 2 + 2, 4 * 3 + 2, 4 * 4]


def test_units_cities_and_terrain_are_shown() -> None:
    state = started("gdw1986").state
    text = render_map(state)
    for uid in ("XXIV", "XLVIII", "XLI"):
        assert f"[{uid}]" in text  # German: square brackets
    assert "(16A)" in text  # Soviet: round brackets
    assert "4h" in text and "12" in text  # half and full strength
    codes = city_codes(state)
    assert sorted(codes.values()) == [
        "BRY",
        "KAL",
        "MOS",
        "MOZ",
        "ORE",
        "ROS",
        "RYA",
        "RZH",
        "SMO",
        "TUL",
        "VYA",
    ]
    assert "MOS:S" in text and "SMO:G" in text
    assert "~" in text  # rivers on hex sides
    assert "#" in text and "f" in text and "=" in text
    key = legend(state)
    assert "Moscow 1103 Soviet" in key and "Smolensk 0204 German" in key


def test_moved_units_and_two_units_on_a_hex() -> None:
    g = started("gdw1986")
    g.play_text("move XXIV 0409-0408")  # onto XLVII, which must now move off
    text = render_map(g.state)
    assert "+XLVII" in text
    g.play(next(a for a in g.legal_actions() if getattr(a, "unit", "") == "XLVII"))
    text = render_map(g.state)
    assert "+XLVII" not in text
    assert "12*" in text and "9*" in text  # moved this phase


def test_highlight_marks_hexes() -> None:
    g = started("gdw1986")
    grid = g.state.rules.map.grid
    text = render_map(g.state, highlight=[grid.index["0108"], grid.index["0110"]])
    assert text.count("++") == 2
    coloured = render_map(g.state, Palette(True), highlight=[grid.index["0108"]])
    assert strip_ansi(coloured) == render_map(g.state, highlight=[grid.index["0108"]])


def test_city_controller_changes_on_the_map() -> None:
    state = position_from_text(
        "bfm ed=gdw1986 opt=- t=3 ph=german_movement G=XXIV@1103 S=16A@1405/h "
        "ctl=0204,0307,1103 repl=0 arr=- stack=- step=declare battles=- cur=- res=-"
    )
    text = render_map(state)
    assert "MOS:G" in text and "MOS:S" not in text


def test_no_escape_codes_without_colour() -> None:
    state = started("vpg2009").state
    assert "\x1b" not in render_map(state) + legend(state)
    coloured = render_map(state, Palette(True))
    assert "\x1b[" in coloured
    assert strip_ansi(coloured) == render_map(state)
