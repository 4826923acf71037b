r"""The map as text: flat-topped hexes in columns, drawn from the map's own grid geometry.

Each hex is an outlined cell (edges shared with its neighbours); the cells of one column sit
half a hex lower or higher than the next as the grid says (``grid.shifted_down``)::

      ______
     /0409f=\        0409  hex id; f forest, # fortification, = rail
    / [XXIV] \       [XXIV] German unit, (16A) Soviet unit
    \ 12*    /       12 full strength, 6h half strength, * moved / attacking this phase
     \______/        MOS:S city (three letters) and who controls it; ~ on an edge: river

With colour, terrain, sides and controllers are also coloured; without it the text above says
everything on its own.
"""

from __future__ import annotations

from collections.abc import Collection

from typhoon.games.bfm.rules import GERMAN
from typhoon.games.bfm.state import State
from typhoon.hexgrid import DIRECTIONS, HexGrid
from typhoon.textstyle import RESET, Palette

EDGE = 6  # underscores in a hex's top edge; a column is EDGE + 2 characters wide
ROW_LINES = 4  # text lines per hex row; a shifted column is ROW_LINES // 2 lower

SIDE_LETTER = ("G", "S")
BACKGROUNDS = {"forest"}


def city_codes(state: State) -> dict[int, str]:
    """Hex -> a three-letter code for each city, unique on the map."""
    out: dict[int, str] = {}
    used: set[str] = set()
    for c in state.rules.map.cities:
        letters = "".join(ch for ch in c.name.upper() if ch.isalpha()) or "CTY"
        code = letters[:3]
        k = 3
        while code in used and k < len(letters):
            code = letters[:2] + letters[k]
            k += 1
        n = 1
        while code in used:
            code = f"{letters[:2]}{n}"
            n += 1
        used.add(code)
        out[c.hex] = code
    return out


def unit_label(state: State, u: int) -> str:
    """[XXIV] for a German unit, (16A) for a Soviet one."""
    uid = state.rules.units[u].id
    return f"[{uid}]" if state.rules.units[u].side == GERMAN else f"({uid})"


def strength_label(state: State, u: int) -> str:
    """12 (full strength) or 6h (half strength)."""
    st = state.strength(u)
    return f"{st}h" if state.steps[u] == 1 else str(st)


class _Canvas:
    def __init__(self, width: int, height: int):
        self.chars = [[" "] * width for _ in range(height)]
        self.styles: list[list[tuple[str, ...]]] = [[()] * width for _ in range(height)]

    def put(self, y: int, x: int, text: str, *style: str) -> None:
        row, srow = self.chars[y], self.styles[y]
        for i, ch in enumerate(text):
            row[x + i] = ch
            # Text keeps the terrain colour under it; a style with its own background wins.
            srow[x + i] = (*(b for b in srow[x + i] if b in BACKGROUNDS), *style)

    def tint(self, y: int, x: int, width: int, style: str) -> None:
        """Add a background style under whatever is drawn there later or already."""
        srow = self.styles[y]
        for i in range(x, x + width):
            if style not in srow[i]:
                srow[i] = (style, *srow[i])

    def lines(self, palette: Palette) -> list[str]:
        out = []
        for row, srow in zip(self.chars, self.styles):
            parts: list[str] = []
            cur = ""
            for ch, st in zip(row, srow):
                code = palette.sgr(*st) if st else ""
                if code != cur:
                    parts.append(RESET if cur else "")
                    parts.append(code)
                    cur = code
                parts.append(ch)
            if cur:
                parts.append(RESET)
            out.append("".join(parts).rstrip())
        return out


def _is_low(grid: HexGrid, col: int) -> bool:
    return (col % 2 == 0) == (grid.shifted_down == "even")


def _origin(grid: HexGrid, h: int) -> tuple[int, int]:
    """Canvas (y, x) of the top-left corner of hex ``h``'s cell (its top edge line)."""
    c, r = grid.coords[h]
    return (r - 1) * ROW_LINES + (ROW_LINES // 2 if _is_low(grid, c) else 0), (c - 1) * (EDGE + 2)


def _edge_cells(y: int, x: int) -> dict[str, list[tuple[int, int, str]]]:
    """The canvas cells of each of a hex's six edges, with their outline character."""
    top = [(y, x + 2 + i, "_") for i in range(EDGE)]
    bottom = [(y + ROW_LINES, x + 2 + i, "_") for i in range(EDGE)]
    right = x + EDGE + 3
    return {
        "N": top,
        "NE": [(y + 1, right - 1, "\\"), (y + 2, right, "\\")],
        "SE": [(y + 3, right, "/"), (y + 4, right - 1, "/")],
        "S": bottom,
        "SW": [(y + 3, x, "\\"), (y + 4, x + 1, "\\")],
        "NW": [(y + 1, x + 1, "/"), (y + 2, x, "/")],
    }


def map_size(grid: HexGrid) -> tuple[int, int]:
    """(width, height) of the drawn map in characters."""
    height = max(_origin(grid, h)[0] for h in grid.hexes) + ROW_LINES + 1
    return grid.columns * (EDGE + 2) + 2, height


def render_map(
    state: State,
    palette: Palette | None = None,
    highlight: Collection[int] = (),
) -> str:
    """The whole map as text. ``highlight``: hex indices to mark (e.g. where a unit can go)."""
    pal = palette or Palette(False)
    m = state.rules.map
    grid = m.grid
    width, height = map_size(grid)
    cv = _Canvas(width, height)
    codes = city_codes(state)
    marked = set(highlight)
    # Outlines first, rivers over them, so a river edge shared by two hexes is drawn once.
    for h in grid.hexes:
        y, x = _origin(grid, h)
        for cells in _edge_cells(y, x).values():
            for cy, cx, ch in cells:
                cv.put(cy, cx, ch, "outline")
    for h in grid.hexes:
        y, x = _origin(grid, h)
        edges = _edge_cells(y, x)
        for d, n in zip(DIRECTIONS, grid.neighbours_by_dir[h]):
            if n >= 0 and m.river_between(h, n):
                for cy, cx, _ in edges[d]:
                    cv.put(cy, cx, "~", "river")
    for h in grid.hexes:
        _draw_hex(cv, state, h, codes, h in marked)
    return "\n".join(cv.lines(pal))


def _draw_hex(cv: _Canvas, state: State, h: int, codes: dict[int, str], marked: bool) -> None:
    m = state.rules.map
    y, x = _origin(grid := m.grid, h)
    if m.is_forest(h):
        cv.tint(y + 1, x + 2, EDGE, "forest")
        cv.tint(y + 2, x + 1, EDGE + 2, "forest")
        cv.tint(y + 3, x + 1, EDGE + 2, "forest")
    # Line 1: hex id and terrain markers.
    cv.put(y + 1, x + 2, grid.ids[h], "mark" if marked else "hexid")
    if m.is_forest(h):
        cv.put(y + 1, x + 6, "f", "hexid")
    elif m.is_fortification(h):
        cv.put(y + 1, x + 6, "#", "fort")
    if m.is_rail(h):
        cv.put(y + 1, x + 7, "=", "rail")
    # Line 2: the unit; line 3: its strength and the city.
    units = state.units_at(h)
    inner = EDGE + 2
    if units:
        u = units[0]
        side = "german" if state.rules.units[u].side == GERMAN else "soviet"
        style = side if state.steps[u] == 2 else f"{side}_half"
        label = unit_label(state, u)[:inner]
        cv.put(y + 2, x + 1 + (inner - len(label)) // 2, label, style)
        if len(units) > 1:
            cv.put(y + 3, x + 2, ("+" + state.rules.units[units[1]].id)[: inner - 1], "hexid")
            return
        st = strength_label(state, u) + ("*" if (state.done >> u) & 1 else "")
        # One space from the edge, unless a city label needs the room.
        cv.put(y + 3, x + (1 if h in codes else 2), st, style)
    elif marked:
        cv.put(y + 2, x + 1 + (inner - 2) // 2, "++", "mark")
    code = codes.get(h)
    if code is not None:
        ctrl = state.city_controller_at(h)
        label = f"{code}:{SIDE_LETTER[ctrl or 0]}"
        cv.put(y + 3, x + 1 + inner - len(label), label, "city_german" if ctrl == GERMAN else "city_soviet")


def legend(state: State, palette: Palette | None = None, width: int = 0) -> str:
    """What the map's marks mean, and every city with its controller, in lines no wider than
    ``width`` (default: the map's)."""
    pal = palette or Palette(False)
    width = width or map_size(state.rules.map.grid)[0]
    codes = city_codes(state)
    m = state.rules.map
    # (plain text, painted text) pairs, so lines are filled by what the eye sees.
    items: list[tuple[str, str]] = [
        ("[XXIV] German", f"{pal.paint('[XXIV]', 'german')} German"),
        ("(16A) Soviet", f"{pal.paint('(16A)', 'soviet')} Soviet"),
        ("12 full / 6h half strength", "12 full / 6h half strength"),
        ("* moved or attacking", "* moved or attacking"),
        ("f forest", "f forest"),
        ("# fortification", f"{pal.paint('#', 'fort')} fortification"),
        ("= rail", "= rail"),
        ("~ river", f"{pal.paint('~', 'river')} river"),
        ("++ choices now", f"{pal.paint('++', 'mark')} choices now"),
    ]
    lines = _fill(items, "", "  ", width)
    cities = []
    for c in m.cities:
        ctrl = state.city_controller_at(c.hex)
        text = f"{codes[c.hex]} {c.name} {m.grid.ids[c.hex]} {'German' if ctrl == GERMAN else 'Soviet'}"
        cities.append((text, pal.paint(text, "city_german" if ctrl == GERMAN else "city_soviet")))
    lines += _fill(cities, "Cities: ", ", ", width)
    return "\n".join(lines)


def _fill(items: list[tuple[str, str]], head: str, sep: str, width: int) -> list[str]:
    lines: list[str] = []
    plain, painted, empty = head, head, True
    for text, shown in items:
        if not empty and len(plain) + len(sep) + len(text) > width:
            lines.append(painted + sep.rstrip())
            plain, painted, empty = " " * len(head), " " * len(head), True
        if not empty:
            plain, painted = plain + sep, painted + sep
        plain, painted, empty = plain + text, painted + shown, False
    lines.append(painted)
    return lines


# -- the compact map: one text line per hex, for 80-column terminals ----------------------------

COMPACT_CELL = 5  # columns sit this many characters apart; a hex's text may use two cells
COMPACT_LEFT = 3  # row labels


def compact_size(grid: HexGrid) -> tuple[int, int]:
    """(width, height) of the compact map in characters."""
    nrows = max(grid.coords[h][1] for h in grid.hexes)
    return COMPACT_LEFT + (grid.columns + 1) * COMPACT_CELL - 1, 1 + 2 * nrows + 1


def _compact_text(state: State, h: int, codes: dict[int, str], marked: bool) -> tuple[str, str]:
    """A hex in at most ``2 * COMPACT_CELL - 1`` characters, and its style."""
    m = state.rules.map
    room = 2 * COMPACT_CELL - 1
    units = state.units_at(h)
    if units:
        u = units[0]
        side = "german" if state.rules.units[u].side == GERMAN else "soviet"
        label = unit_label(state, u)
        text = label + strength_label(state, u) + ("*" if (state.done >> u) & 1 else "")
        if len(units) > 1:
            text = label + "+"
        return (text if len(text) <= room else label)[:room], side if state.steps[u] == 2 else f"{side}_half"
    if marked:
        return "++", "mark"
    code = codes.get(h)
    if code is not None:
        ctrl = state.city_controller_at(h)
        return f"{code}:{SIDE_LETTER[ctrl or 0]}", "city_german" if ctrl == GERMAN else "city_soviet"
    marks = ("f" if m.is_forest(h) else "#" if m.is_fortification(h) else ".") + ("=" if m.is_rail(h) else "")
    return marks, "forest" if m.is_forest(h) else ""


def render_compact(state: State, palette: Palette | None = None, highlight: Collection[int] = ()) -> str:
    """The map in one text line per hex, for narrow terminals (``map compact``): columns
    ``COMPACT_CELL`` characters apart under a header of column numbers, each hex row on two
    lines, the grid's shifted columns on the lower one, so the cells keep the hex pattern.
    Hex sides (rivers) are not drawn: `hex HEX` names them."""
    pal = palette or Palette(False)
    grid = state.rules.map.grid
    codes = city_codes(state)
    marked = set(highlight)
    nrows = max(grid.coords[h][1] for h in grid.hexes)
    header = " " * COMPACT_LEFT + "".join(f"{c:02d}".ljust(COMPACT_CELL) for c in range(1, grid.columns + 1))
    lines = [header.rstrip()]
    for r in range(1, nrows + 1):
        for low in (False, True):
            parts = [f"{r:02d} " if not low else " " * COMPACT_LEFT]
            width = COMPACT_LEFT
            for c in range(1, grid.columns + 1):
                h = grid.index.get(f"{c:02d}{r:02d}", -1)
                if h < 0 or _is_low(grid, c) != low:
                    continue
                x = COMPACT_LEFT + (c - 1) * COMPACT_CELL
                text, style = _compact_text(state, h, codes, h in marked)
                parts.append(" " * (x - width) + (pal.paint(text, style) if style else text))
                width = x + len(text)
            lines.append("".join(parts).rstrip())
    lines.append("")
    return "\n".join(lines).rstrip("\n")


def compact_legend(state: State, palette: Palette | None = None) -> str:
    """The compact map's marks (column number across, row down: hex CCRR)."""
    text = (
        "Compact map: hex CCRR = column (across) then row (down). [XXIV] German, (16A) Soviet, "
        "12 full / 6h half strength, * moved or attacking, + a second unit; f forest, # fortification, "
        ". clear, = rail, MOS:S city and controller, ++ choices now. Rivers are not drawn: `hex HEX` "
        "names them; `map full` draws the full map (114 columns)."
    )
    return "\n".join(_fill([(w, w) for w in text.split()], "", " ", compact_size(state.rules.map.grid)[0]))
