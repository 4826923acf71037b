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


def _map_reply(edition: str, width: int, command: str = "map") -> list[str]:
    import io

    from typhoon.tui.session import make_session

    out = io.StringIO()
    s = make_session(started(edition), {0: None, 1: None}, out=out, width=width, automap="off")
    s.handle(command)
    return out.getvalue().splitlines()


@pytest.mark.parametrize("edition", ["gdw1986", "vpg2009"])
def test_the_map_fits_the_terminal(edition: str) -> None:
    """Issue 15, Terminal: the map needed a 200x50 terminal. Every line of `map` (the map, its
    legend, any note) fits 120 columns for the full map, 80 for the compact one, which a
    narrower terminal gets by itself; `map full` / `map compact` choose."""
    full = _map_reply(edition, 120)
    assert any("/0101" in line for line in full) and "~" in "\n".join(full)
    assert max(len(line) for line in full) <= 120
    for width in (80, 100):
        lines = _map_reply(edition, width)
        assert not any("/0101" in line for line in lines)  # the compact map
        assert max(len(line) for line in lines) <= 80, width
        assert len(lines) <= 30  # and it fits a 80x30 screen
    compact = _map_reply(edition, 120, "map compact")
    assert max(len(line) for line in compact) <= 80 and "[XXIV]12" in "\n".join(compact)
    narrow_full = _map_reply(edition, 80, "map full")
    assert any("/0101" in line for line in narrow_full)
    assert "`map compact`" in narrow_full[-1]
    assert "usage: map [full|compact]" in "\n".join(_map_reply(edition, 120, "map wide"))


def test_compact_map_places_every_hex_in_its_column() -> None:
    """The compact map: each hex's text starts at its column (header CC) on its row's upper
    line, or the lower one for the grid's shifted columns."""
    from typhoon.games.bfm.termmap import COMPACT_CELL, COMPACT_LEFT, compact_size, render_compact

    g = Game(edition="gdw1986", seed=1)  # an empty map: each hex shows its terrain
    state = g.state
    grid = state.rules.map.grid
    lines = render_compact(state).splitlines()
    assert len(lines) <= compact_size(grid)[1]
    for h in grid.hexes:
        c, r = grid.coords[h]
        low = (c % 2 == 0) == (grid.shifted_down == "even")
        line = lines[1 + 2 * (r - 1) + (1 if low else 0)]
        x = COMPACT_LEFT + (c - 1) * COMPACT_CELL
        assert line[x] != " " and line[x - 1] == " ", grid.ids[h]
    codes = city_codes(state)
    assert all(f"{code}:" in "\n".join(lines) for code in codes.values())


def test_moscow_campaign_window_draws_every_river_hexside() -> None:
    """Issue 15, Terminal: the Moscow Campaign terminal map had no rivers. Every river hexside
    of the rules data (tmcmap rivers) inside the window is drawn with ~ where its two hexes
    meet: between a hex and its neighbour in the next column, the first character of the blank
    cell right of the left hex; between a hex and the one below it, the middle two of the blank
    under it; and the legend says so."""
    from typhoon.games.tmc.termmap import CELL, LEFT, LEGEND, render_window, window_bounds

    g = Game("tmc", "1", seed=1)
    state = g.state
    grid = state.rules.grid
    focus = grid.index["4030"]
    lines = render_window(state, focus).splitlines()
    c0, c1, r0, r1 = window_bounds(grid, focus, 22, 12)

    def line_of(c: int, r: int) -> int:
        return 1 + 2 * (r - r0) + (1 if c % 2 == 0 else 0)

    def x_of(c: int) -> int:
        return LEFT + (c - c0) * CELL

    checked = 0
    for a, b in state.rules.map.river_sides:
        (ca, ra), (cb, rb) = sorted([grid.coords[a], grid.coords[b]])
        if not (c0 <= ca <= cb <= c1 and r0 <= min(ra, rb) and max(ra, rb) <= r1):
            continue
        if ca == cb:  # the south side of (ca, ra): the blank under it, middle characters
            y = line_of(ca, ra) + 1
            if y < len(lines):
                assert lines[y][x_of(ca) + 1 : x_of(ca) + 3] == "~~", (grid.ids[a], grid.ids[b])
                checked += 1
        else:  # the left hex's line, in the blank of the right hex's column
            line = lines[line_of(ca, ra)]
            assert line[x_of(cb)] == "~", (grid.ids[a], grid.ids[b])
            checked += 1
    assert checked > 10
    assert "river" in LEGEND


@pytest.mark.parametrize("width", [80, 100, 120])
def test_moscow_campaign_map_fits_the_terminal(width: int) -> None:
    """Issue 15, Terminal: every line of the Moscow Campaign's `map` fits the terminal (its
    legend was one line of some 300 characters)."""
    import io

    from typhoon.tui.session import make_session

    out = io.StringIO()
    s = make_session(Game("tmc", "1", seed=1), {0: None, 1: None}, out=out, width=width, automap="off")
    s.handle("map")
    lines = out.getvalue().splitlines()
    assert any("~" in line for line in lines) and any("river" in line for line in lines)
    assert max(len(line) for line in lines) <= width
