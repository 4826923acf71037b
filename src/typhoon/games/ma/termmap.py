r"""The Moscow Attacked! map as text, north up: rows M (north) to A (south), the odd-index rows
(B, D, ...) half a hex east, as the reconstructed grid has them (data/map.json). Each hex is
two lines of a 7-character cell::

    I7 MOS     hex id, then a city or town (three letters; upper case: a victory city), or
    S3 d       f forest, s forest/swamp; below: G3 = three German units, S1 = one Soviet unit,
               d some Dispersed, * some Spent, u some unsupplied; # a hex the battle involves

A line under the map repeats the reconstruction notice.
"""

from __future__ import annotations

from collections.abc import Collection

from .engine import GERMAN_VICTORY, SOVIET_VICTORY, in_supply
from .rules import COLS, GERMAN, ROWS, hex_id
from .state import DISPERSED, SPENT, State
from .words import NOTICE

CELL = 7
TERRAIN = {"clear": "", "forest": "f", "forest_swamp": "s"}
LEGEND = (
    "Legend: hex id, then a city/town (upper case: a victory city) or f forest / s forest-swamp; "
    "' German-held; G3/S2 = German/Soviet units; d Dispersed, * Spent, u unsupplied; # in the current battle."
)


def _top(s: State, h: int, numbers: bool) -> str:
    r = s.rules
    hid = hex_id(h) if numbers else ""
    place = r.place[h]
    if place:
        code = place[:3]
        code = code.upper() if h in GERMAN_VICTORY or h in SOVIET_VICTORY else code.lower()
        code += "'" if s.controller(h) == GERMAN else ""
    else:
        code = TERRAIN[r.terrain[h]]
    return f"{hid:<3}{code}"[:CELL].ljust(CELL)


def _bottom(s: State, h: int, battle: set[int]) -> str:
    units = s.units_at(h)
    if not units:
        return ("#" if h in battle else "").ljust(CELL)
    side = s.rules.units[units[0]].side
    marks = ""
    if any(s.status[u] == DISPERSED for u in units):
        marks += "d"
    if any(s.status[u] == SPENT for u in units):
        marks += "*"
    if any(not in_supply(s, u) for u in units):
        marks += "u"
    if h in battle:
        marks += "#"
    return f"{'GS'[side]}{len(units)} {marks}"[:CELL].ljust(CELL)


def map_lines(s: State, numbers: bool = True, highlight: Collection[int] = ()) -> list[str]:
    """The whole map, one string a line (no colour), with the notice under it; ``highlight``
    hexes are marked like the current battle's."""
    b = s.battle
    battle: set[int] = set(highlight)
    if b is not None:
        battle |= {b.target, *(s.loc[u] for u in b.attackers if s.loc[u] >= 0)}
    lines = []
    for row in range(len(ROWS) - 1, -1, -1):
        pad = " " * (CELL // 2) if row % 2 else ""
        hexes = [row * COLS + c for c in range(COLS)]
        lines.append(pad + "|".join(_top(s, h, numbers) for h in hexes))
        lines.append(pad + "|".join(_bottom(s, h, battle) for h in hexes))
    lines.append(LEGEND)
    lines.append(NOTICE)
    return lines


def map_width() -> int:
    return CELL // 2 + COLS * (CELL + 1)
