"""Text maps of The Moscow Campaign: a window of the 78x63 grid around a focus hex, and a
one-character-per-hex overview of the whole map.

Window cells are four characters: columns sit four characters apart and every hex row takes
two text lines, the (1-based) even columns half a hex lower on the line between, so the cells
form the hex pattern. A cell holds the units (``G2`` = two German units, ``S1`` one Soviet) or
the terrain and a feature, then one more terrain letter:

    .  clear      f  forest/swamp   ~  lake     M  Moscow   c  city
    =  rail       :  destroyed rail +  marked (a destination or a hex to act on)

Rivers run along hexsides: ``~`` in the blank between cells, where the sides meet (see
:func:`_junction`); the overview has no room for them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from typhoon.textstyle import Palette

CELL = 4
LEFT = 3  # row labels


def terrain_letter(state: Any, h: int) -> str:
    m = state.rules.map
    if (m.moscow_mask >> h) & 1:
        return "M"
    if (m.lake_hexes >> h) & 1:
        return "~"
    if h in m.cities:
        return "c"
    if m.is_forest(h):
        return "f"
    return "."


def feature_letter(state: Any, h: int) -> str:
    m = state.rules.map
    if not (m.rail_mask >> h) & 1:
        return " "
    if (state.rail_normal | state.rail_german | state.rail_soviet) >> h & 1:
        return "="
    return ":"


def cell(state: Any, h: int, pal: Palette, marked: bool) -> str:
    us = state.units_at(h)
    mark = "+" if marked else " "
    if us:
        side = state.rules.units[us[0]].side
        body = pal.paint(f"{'GS'[side]}{min(len(us), 9)}", "german" if side == 0 else "soviet")
        text = body + terrain_letter(state, h)
    else:
        t = terrain_letter(state, h)
        style = "forest" if t == "f" else ("city_soviet" if t in "Mc" else "")
        text = (pal.paint(t, style) if style else t) + feature_letter(state, h) + " "
    return text + (pal.paint(mark, "mark") if marked else mark)


def window_bounds(grid: Any, focus: int, cols: int, rows: int) -> tuple[int, int, int, int]:
    """First and last column and row (1-based) of a window of ``cols`` x ``rows`` hexes around
    ``focus``, kept inside the map."""
    c, r = grid.coords[focus]
    cols = min(cols, grid.columns)
    rows = min(rows, max(grid.rows_odd, grid.rows_even))
    c0 = max(1, min(c - cols // 2, grid.columns - cols + 1))
    r0 = max(1, min(r - rows // 2, max(grid.rows_odd, grid.rows_even) - rows + 1))
    return c0, c0 + cols - 1, r0, r0 + rows - 1


def render_window(
    state: Any,
    focus: int,
    pal: Palette | None = None,
    *,
    cols: int = 22,
    rows: int = 12,
    marks: Iterable[int] = (),
) -> str:
    """The window of the map around ``focus`` as text (with a column header and row labels)."""
    p = pal or Palette(False)
    grid = state.rules.grid
    marked = set(marks)
    c0, c1, r0, r1 = window_bounds(grid, focus, cols, rows)
    header = " " * LEFT + "".join(f"{c:02d}".ljust(CELL) for c in range(c0, c1 + 1))
    lines = [header.rstrip()]
    for r in range(r0, r1 + 1):
        for low in (False, True):
            row = [f"{r:02d} " if not low else "   "]
            for c in range(c0, c1 + 1):
                if (c % 2 == 0) != low:
                    row.append(_junction(state, grid, c, r, low, p))
                    continue
                h = grid.index.get(f"{c:02d}{r:02d}", -1)
                if h < 0:
                    row.append(" " * CELL)
                    continue
                text = cell(state, h, p, h in marked)
                if h == focus and not marked:
                    text = text[:-1] + "<"
                row.append(text)
            lines.append("".join(row).rstrip())
    return "\n".join(lines)


def _junction(state: Any, grid: Any, c: int, r: int, low: bool, pal: Palette) -> str:
    """The blank cell at column ``c`` of row ``r``'s upper (or ``low``er) line, where four hexes
    meet: the hexes of column ``c`` above and below it, of columns ``c - 1`` and ``c + 1`` to
    its sides. A river hexside between them is drawn in it with ``~``: first character, a
    side of the left hex; the middle two, the side between the hexes above and below; the
    last, a side of the right hex."""
    above_r, below_r = (r - 1, r) if not low else (r, r + 1)
    at = grid.index.get
    above, below = at(f"{c:02d}{above_r:02d}", -1), at(f"{c:02d}{below_r:02d}", -1)
    left, right = at(f"{c - 1:02d}{r:02d}", -1), at(f"{c + 1:02d}{r:02d}", -1)
    mask = state.rules.map.river_mask

    def river(a: int, b: int) -> bool:
        return a >= 0 and b >= 0 and bool((mask[a] >> b) & 1)

    chars = [
        "~" if river(left, above) or river(left, below) else " ",
        "~~" if river(above, below) else "  ",
        "~" if river(right, above) or river(right, below) else " ",
    ]
    text = "".join(chars)
    return pal.paint(text, "river") if text.strip() else text


def render_overview(state: Any, pal: Palette | None = None, marks: Iterable[int] = ()) -> str:
    """The whole map, one character per hex (columns across, rows down; the half-hex shift of
    even columns is not drawn): G/S units, M Moscow, c city, f forest, ~ lake, . clear."""
    p = pal or Palette(False)
    grid = state.rules.grid
    marked = set(marks)
    nrows = max(grid.rows_odd, grid.rows_even)
    tens = "   " + "".join(str(c // 10) if c % 10 == 0 or c == 1 else " " for c in range(1, grid.columns + 1))
    ones = "   " + "".join(str(c % 10) for c in range(1, grid.columns + 1))
    lines = [tens.rstrip(), ones]
    for r in range(1, nrows + 1):
        out = [f"{r:02d} "]
        for c in range(1, grid.columns + 1):
            h = grid.index.get(f"{c:02d}{r:02d}", -1)
            if h < 0:
                out.append(" ")
                continue
            us = state.units_at(h)
            if h in marked:
                out.append(p.paint("+", "mark"))
            elif us:
                side = state.rules.units[us[0]].side
                out.append(p.paint("GS"[side], "german" if side == 0 else "soviet"))
            else:
                out.append(terrain_letter(state, h))
        lines.append("".join(out))
    return "\n".join(lines)


LEGEND = (
    "Cells: G2/S1 = German/Soviet units (how many) then the terrain; . clear, f forest/swamp, ~ lake, "
    "M Moscow, c city; = rail, : destroyed rail; + marked hex; < the focus hex; "
    "~ between cells: a river hexside. "
    "`map CCRR` recentres, `map overview` shows the whole map, `hex CCRR` describes a hex."
)
