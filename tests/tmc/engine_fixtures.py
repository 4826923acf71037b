"""Small synthetic maps and scenarios for the engine tests (ENGINE helper).

The map object carries the attributes the engine reads from a TmcMap (rules.MapLike), built
directly on a HexGrid so tests pin exact geometry. Default: 12 columns x 10 rows; the
September start line is column 06 (rows 01-10); west = columns 01-05, east = 07-12. North
edge = row 01, south edge = row 10. Moscow = 1105, 1106, 1205.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from typhoon.games.tmc import engine
from typhoon.games.tmc.actions import SETUP_STANDARD
from typhoon.games.tmc.rules import Rules
from typhoon.games.tmc.state import State
from typhoon.hexgrid import HexGrid


@dataclass
class Line:
    name: str
    sides: tuple[tuple[int, int], ...]


@dataclass
class SynthMap:
    grid: HexGrid
    forest_mask: int = 0
    moscow: tuple[int, ...] = ()
    moscow_mask: int = 0
    river_mask: list[int] = field(default_factory=list)
    lake_mask: list[int] = field(default_factory=list)
    rail_neighbours: list[tuple[int, ...]] = field(default_factory=list)
    rail_mask: int = 0
    defence_lines: tuple[Any, ...] = ()
    defence_front: list[int] = field(default_factory=list)
    edges: dict[str, int] = field(default_factory=dict)
    rail_edge: dict[str, int] = field(default_factory=dict)
    german_entry: int = 0
    soviet_entry: tuple[int, ...] = ()
    start_lines: dict[str, tuple[int, ...]] = field(default_factory=dict)
    west_of: dict[str, int] = field(default_factory=dict)
    east_of: dict[str, int] = field(default_factory=dict)
    repaired_rail: dict[str, int] = field(default_factory=dict)
    lake_hexes: int = 0
    cities: dict[int, str] = field(default_factory=dict)
    city_mask: int = 0


def make_map(
    cols: int = 12,
    rows: int = 10,
    line_col: int = 6,
    forest: tuple[str, ...] = (),
    rails: tuple[tuple[str, ...], ...] = (),
    lakes: tuple[tuple[str, str], ...] = (),
    repaired: tuple[str, ...] = (),
    defence: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (),
    moscow: tuple[str, ...] = ("1105", "1106", "1205"),
) -> SynthMap:
    g = HexGrid(cols, rows, rows, "even")
    idx = g.index
    m = SynthMap(g)
    m.forest_mask = g.mask(idx[h] for h in forest)
    m.moscow = tuple(sorted(idx[h] for h in moscow))
    m.moscow_mask = g.mask(m.moscow)
    m.river_mask = [0] * g.size
    m.lake_mask = [0] * g.size
    for a, b in lakes:
        m.lake_mask[idx[a]] |= 1 << idx[b]
        m.lake_mask[idx[b]] |= 1 << idx[a]
    nb: list[set[int]] = [set() for _ in range(g.size)]
    for chain in rails:
        for a, b in zip(chain, chain[1:]):
            assert g.adjacent(idx[a], idx[b]), (a, b)
            nb[idx[a]].add(idx[b])
            nb[idx[b]].add(idx[a])
            m.rail_mask |= (1 << idx[a]) | (1 << idx[b])
    m.rail_neighbours = [tuple(sorted(s)) for s in nb]
    lines = []
    m.defence_front = [0] * g.size
    for name, sides in defence:
        ss = tuple((idx[a], idx[b]) for a, b in sides)
        lines.append(Line(name, ss))
        for a, b in ss:
            m.defence_front[a] |= 1 << b
    m.defence_lines = tuple(lines)
    edges = {"north": 0, "south": 0, "west": 0, "east": 0}
    for h in g.hexes:
        c, r = g.coords[h]
        if r == 1:
            edges["north"] |= 1 << h
        if r == rows:
            edges["south"] |= 1 << h
        if c == 1:
            edges["west"] |= 1 << h
        if c == cols:
            edges["east"] |= 1 << h
    m.edges = edges
    m.rail_edge = {e: v & m.rail_mask for e, v in edges.items()}
    m.german_entry = edges["west"]
    m.soviet_entry = tuple(sorted(h for h in g.hexes if (m.rail_edge["east"] >> h) & 1))
    line = tuple(idx[f"{line_col:02d}{r:02d}"] for r in range(1, rows + 1))
    west = g.mask(h for h in g.hexes if g.coords[h][0] < line_col)
    east = g.mask(h for h in g.hexes if g.coords[h][0] > line_col)
    for key in ("september", "november", "december"):
        m.start_lines[key] = line
        m.west_of[key] = west
        m.east_of[key] = east
        m.repaired_rail[key] = g.mask(idx[h] for h in repaired)
    m.cities = {h: "Moscow" for h in m.moscow}
    m.city_mask = m.moscow_mask
    return m


def unit(
    uid: str,
    side: str,
    cf: int,
    ma: int,
    setup: str | None = None,
    kind: str = "infantry",
    arrive: int = 0,
    **extra: Any,
) -> dict[str, Any]:
    d: dict[str, Any] = {"id": uid, "side": side, "cf": cf, "ma": ma, "type": kind, "arrive": arrive}
    if setup:
        d["setup"] = setup
    d.update(extra)
    return d


def make_rules(
    units: list[dict[str, Any]],
    game_map: SynthMap | None = None,
    first: int = 1,
    last: int = 2,
    options: dict[str, str] | None = None,
    replacements: bool = False,
) -> Rules:
    sc = {
        "first_turn": first,
        "last_turn": last,
        "start_line": "september",
        "german_replacements": replacements,
        "units": units,
    }
    return Rules.from_data(game_map or make_map(), sc, options)


def started(rules: Rules) -> State:
    """A game on ``rules`` after both standard set-ups: the German first movement phase of
    the first turn (or later, if nothing could be done there)."""
    s = engine.new_game(rules=rules)
    while s.phase_spec.kind == "setup":
        s, _ = engine.apply(s, SETUP_STANDARD)
    return s


def hx(s: State | Rules, hid: str) -> int:
    rules = s.rules if isinstance(s, State) else s
    return rules.grid.index[hid]


def dests(s: State, uid: str) -> set[str]:
    """Hexes a unit can end a Move leg on now."""
    return {a.dst for a in engine.legal_actions(s) if a.kind == "move" and a.unit == uid}


def position(
    rules: Rules,
    placements: dict[str, str],
    turn: int = 1,
    phase: str = "german_movement",
    supply_all: bool = True,
    relocate: bool = False,
) -> State:
    """A state with exactly ``placements`` (unit id -> hex) on the map, at the start of
    ``phase`` of game turn ``turn`` (phase-start business done: supply judged, EB return...;
    the EB relocation step skipped unless ``relocate``). Forced actions are NOT played, so the
    state may have a single legal action (``apply`` plays forced ones after each action).
    With ``supply_all`` every unit counts as in supply for movement."""
    from typhoon.events import Event
    from typhoon.games.tmc.flow import enter_phase
    from typhoon.games.tmc.rules import PHASE_INDEX

    s = State(rules)
    for uid, hid in placements.items():
        u = rules.unit_index[uid]
        s.put(u, rules.grid.index[hid])
        s.arrived |= 1 << u
    for u in range(len(rules.units)):
        if rules.units[u].arrive == 0 and s.loc[u] < 0:
            s.arrived |= 1 << u  # starting units not placed are out of the game
            s.eliminated |= 1 << u
            s.lost |= 1 << u
    s.turn = turn
    s.phase = PHASE_INDEX[phase]
    events: list[Event] = []
    enter_phase(s, events)
    if supply_all:
        s.supply = [-1, -1]
        s.oos = 0
    s._cache = {}
    s._legal = None
    if s.step == 0 and s.phase_spec.kind == "movement" and not relocate:
        s.step = 1  # skip the Soviet EB relocation step
    return s


def within(rules: Rules, hid: str, lo: int, hi: int) -> set[str]:
    """Hex ids at distance lo..hi from ``hid``."""
    g = rules.grid
    h = g.index[hid]
    return {g.ids[x] for x in g.hexes if lo <= g.distance(h, x) <= hi}


# The rail line along row 05 of the default map, German-repaired west of the start line.
RAIL_ROW_05 = tuple(f"{c:02d}05" for c in range(1, 13))
REPAIRED_WEST = ("0105", "0205", "0305", "0405", "0505")


def line_units(side: str, col: int, prefix: str) -> list[dict[str, Any]]:
    """A unit every third row of a column: their ZOC covers the whole column (rows 1-10)."""
    return [
        unit(f"{prefix}{r}", side, 2, 5 if side == "german" else 4, f"{col:02d}{r:02d}")
        for r in (2, 5, 8, 10)
    ]
