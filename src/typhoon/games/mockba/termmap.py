r"""The MOCKBA map as text: the reconstructed 33 x 40 grid (data/map.json), one line a hex row
(row 01 at the top), two characters a hex, columns left to right (west to east). The grid has
flat-topped hexes with even columns half a hex lower; the text keeps each hex on its row::

    .  clear      :  rough      ~  lake       =  railway      M  Moscow (a city: its initial;
    G3 three German units       S1 one Soviet unit         upper case German-held)
    #  a hex the battle (or the highlight) involves

A line under the map repeats the reconstruction notice.
"""

from __future__ import annotations

from collections.abc import Collection

from .state import State
from .words import NOTICE

CELL = 2
LEGEND = (
    "Legend: . clear, : rough, ~ lake, = railway; a city by its initial (upper case: German-held); "
    "G3/S2 German/Soviet units; # in the current battle. Columns 01-33 west to east, rows 01-40."
)
_TERRAIN = {"clear": ".", "rough": ":", "lake": "~"}


def _cell(s: State, h: int, marked: set[int], initials: dict[int, str]) -> str:
    r = s.rules
    units = s.units_at(h)
    if units:
        text = f"{'GS'[r.units[units[0]].side]}{min(9, len(units))}"
    elif h in initials:
        name = initials[h]
        text = (name.upper() if s.control >> h & 1 else name.lower()) + " "
    else:
        text = (_TERRAIN[r.terrain[h]] + ("=" if r.rail_hexes >> h & 1 else " "))[:CELL]
    if h in marked:  # keep the side letter of a unit hex, else the terrain's second mark
        text = text[0] + "#" if units else "#" + text[1]
    return text


def map_lines(s: State, numbers: bool = True, highlight: Collection[int] = ()) -> list[str]:
    """The whole map, one string a line (no colour), with the legend and the notice under it;
    ``highlight`` hexes are marked like the current battle's."""
    r = s.rules
    b = s.battle
    marked: set[int] = set(highlight)
    if b is not None:
        marked |= {b.target, *(s.loc[u] for u in b.attackers if s.loc[u] >= 0)}
    initials = {h: name[0] for name, h in r.cities.items()}
    lines = []
    if numbers:
        lines.append(("   " + "".join(f"{c:<10}" for c in range(1, r.cols + 1, 5))).rstrip())
    for row in range(r.rows):
        cells = "".join(_cell(s, c * r.rows + row, marked, initials) for c in range(r.cols))
        lines.append((f"{row + 1:02} " if numbers else "") + cells)
    lines.append(LEGEND)
    lines.append("Cities: " + ", ".join(f"{n[0]} {n}" for n in r.cities))
    lines.append(NOTICE)
    return lines


def map_width() -> int:
    return 3 + 33 * CELL
