"""Supply lines of The Moscow Campaign (rules_en.md §11, §16; readings [Q23]-[Q27], [Q40]-[Q42]).

A supply line = an overland portion (unit -> a rail hex, at most 12 German / 6 Soviet hexes,
counting the rail hex but not the unit's hex, through any terrain, lakes included: [Q23]) plus a
rail portion (that rail hex -> a rail hex on one of the side's supply edges, along rail LINKS,
not mere adjacency). Both portions are blocked by (§11.4):
- hexes holding an enemy unit (EB units are units and block; overrun-flipped units "block
  nothing" [Q34] — leave them out of the occupancy the caller passes);
- for Soviet lines only, hexes in German ZOC that hold no Soviet unit (German EB units and
  overrun-flipped units exert no ZOC). Soviet ZOC never affects German supply.
Rail that carries supply: German = German-repaired, not cut ([Q26]); Soviet = normal or
Soviet-repaired, neither destroyed nor cut ([Q25]); [Q24] option ``soviet_supply_west_of_start_line``:
"descriptive" (default: any such rail counts) or "strict" (only rail not west of the start line:
east of it or on it; rail on start-line hexes is normal at the start, §16.1).

Everything is computed once for all units: the result holds bitsets of the rail network in
supply and of the hexes where a unit of that side is in supply (a unit is in supply iff its hex
is in ``in_supply``). For an empty hex the answer is "a unit of that side placed there, all else
unchanged, would be in supply". Supply is judged by the caller at the start of each movement
phase (for movement) and at the moment of each combat (§11; the engine decides when to call).
Cost: one rail BFS (a few hundred hexes) plus 12 or 6 bitset expands; well under a millisecond
on the 4,914-hex map (see tests/tmc/test_supply.py timings).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from typhoon.mechanics.zoc import graph_flood, trace_within

if TYPE_CHECKING:  # only for annotations (no import cycle with the engine's modules)
    from typhoon.games.tmc.rules import MapLike
    from typhoon.games.tmc.state import State

GERMAN_REACH = 12  # §11.1
SOVIET_REACH = 6  # §11.2
GERMAN_EDGES = ("west", "south")  # §11.1
SOVIET_EDGES = ("north", "south", "east")  # §11.2
SOVIET_WEST_OF_START_LINE = ("descriptive", "strict")  # [Q24]


@dataclass(frozen=True)
class Supply:
    """One side's supply at one moment: ``rail`` = rail hexes joined to a supply edge by usable
    rail (the sources of the overland portion), ``in_supply`` = hexes where that side's units
    are in supply."""

    rail: int
    in_supply: int

    def has(self, h: int) -> bool:
        return (self.in_supply >> h) & 1 == 1


def german_supply(
    expand: Callable[[int], int],
    all_hexes: int,
    rail_links: Sequence[Sequence[int]],
    edge_rail: int,
    repaired_german: int,
    cut: int,
    soviet_occ: int,
    reach: int = GERMAN_REACH,
) -> Supply:
    """German supply (§11.1, §11.4, [Q23], [Q26], [Q27]).

    ``edge_rail``: rail hexes on the west and south map edges; ``repaired_german``: German-
    repaired rail hexes; ``cut``: hexes with a cut marker; ``soviet_occ``: hexes holding a Soviet
    unit (any kind). Soviet ZOC is ignored."""
    blocked = soviet_occ
    usable = repaired_german & ~cut & ~blocked
    rail = graph_flood(edge_rail, rail_links, usable)
    return Supply(rail, trace_within(rail, blocked, expand, all_hexes, reach) & ~soviet_occ)


def soviet_supply(
    expand: Callable[[int], int],
    all_hexes: int,
    rail_links: Sequence[Sequence[int]],
    edge_rail: int,
    normal: int,
    repaired_soviet: int,
    cut: int,
    destroyed: int,
    german_occ: int,
    german_zoc: int,
    soviet_occ: int,
    allowed_rail: int | None = None,
    reach: int = SOVIET_REACH,
) -> Supply:
    """Soviet supply (§11.2, §11.4, [Q23]-[Q25], [Q27]).

    ``edge_rail``: rail hexes on the north, south and east edges; ``normal`` / ``repaired_soviet``
    / ``cut`` / ``destroyed``: rail states; ``german_occ``: hexes holding a German unit (any kind);
    ``german_zoc``: hexes in the ZOC of German units that exert one (not EB, not overrun-flipped;
    see :func:`typhoon.mechanics.zoc.zoc_mask`); ``soviet_occ``: hexes holding a Soviet unit;
    ``allowed_rail``: None, or the only hexes the rail portion may use ([Q24] strict: the hexes
    not west of the start line)."""
    blocked = german_occ | (german_zoc & ~soviet_occ)
    usable = (normal | repaired_soviet) & ~cut & ~destroyed & ~blocked
    if allowed_rail is not None:
        usable &= allowed_rail
    rail = graph_flood(edge_rail, rail_links, usable)
    return Supply(rail, trace_within(rail, blocked, expand, all_hexes, reach) & ~german_occ)


# --- On a map (TmcMap, or anything with the fields of rules.MapLike) ----------------------------


def edge_rail(tmap: MapLike, edges: Sequence[str]) -> int:
    """Rail hexes on the named map edges (the supply sources): the map's ``rail_edge``, or else
    its rail hexes on those ``edges``."""
    by_edge = getattr(tmap, "rail_edge", None)
    m = 0
    for e in edges:
        m |= by_edge.get(e, 0) if by_edge is not None else tmap.edges.get(e, 0) & tmap.rail_mask
    return m


def german_supply_on_map(
    tmap: MapLike, *, repaired_german: int, cut: int, soviet_occ: int, reach: int = GERMAN_REACH
) -> Supply:
    g = tmap.grid
    return german_supply(
        g.expand,
        g.all_mask,
        tmap.rail_neighbours,
        edge_rail(tmap, GERMAN_EDGES),
        repaired_german,
        cut,
        soviet_occ,
        reach,
    )


def soviet_supply_on_map(
    tmap: MapLike,
    *,
    normal: int,
    repaired_soviet: int,
    cut: int,
    destroyed: int,
    german_occ: int,
    german_zoc_units: int,
    soviet_occ: int,
    start_line: str,
    west_of_start_line: str = "descriptive",
    reach: int = SOVIET_REACH,
) -> Supply:
    """Soviet supply on the map. ``german_zoc_units``: hexes holding at least one German unit that
    exerts a ZOC (not EB, not overrun-flipped); ZOC reaches all six neighbours ([Q6] literal)."""
    if west_of_start_line not in SOVIET_WEST_OF_START_LINE:
        raise ValueError(f"soviet_supply_west_of_start_line must be one of {SOVIET_WEST_OF_START_LINE}")
    g = tmap.grid
    allowed = g.all_mask & ~tmap.west_of[start_line] if west_of_start_line == "strict" else None
    return soviet_supply(
        g.expand,
        g.all_mask,
        tmap.rail_neighbours,
        edge_rail(tmap, SOVIET_EDGES),
        normal,
        repaired_soviet,
        cut,
        destroyed,
        german_occ,
        g.expand(german_zoc_units),
        soviet_occ,
        allowed,
        reach,
    )


# --- On a game State (the ENGINE helper's state.py) ---------------------------------------------


def unflipped_occ(state: State, side: int) -> int:
    """Hexes holding a unit of ``side`` not flipped by a pending overrun: a hex whose units are all
    flipped counts as empty and blocks nothing ([Q34])."""
    if not state.flipped:
        return int(state.occ[side])
    out = 0
    for h, us in state.stacks.items():
        if state.rules.units[us[0]].side == side and any(not (state.flipped >> u) & 1 for u in us):
            out |= 1 << h
    return out


def supply_now(state: State, side: int) -> Supply:
    """``side``'s supply in ``state`` as it stands (for combat, judged at the moment of each combat,
    and for the end-of-game VP); options from the state's rules ([Q24], [Q6] via ``State.zoc``)."""
    from typhoon.games.tmc.rules import GERMAN, SOVIET

    rules = state.rules
    tmap = rules.map
    if side == GERMAN:
        return german_supply_on_map(
            tmap,
            repaired_german=state.rail_german,
            cut=state.rail_cut,
            soviet_occ=unflipped_occ(state, SOVIET),
        )
    g = rules.grid
    strict = not rules.flag("soviet_supply_west_of_start_line")
    return soviet_supply(
        g.expand,
        g.all_mask,
        tmap.rail_neighbours,
        edge_rail(tmap, SOVIET_EDGES),
        state.rail_normal,
        state.rail_soviet,
        state.rail_cut,
        state.rail_destroyed(),
        unflipped_occ(state, GERMAN),
        state.zoc(GERMAN),  # ZOC of non-EB, unflipped German units; [Q6] option applied there
        state.occ[SOVIET],
        g.all_mask & ~rules.west_mask if strict else None,
    )
