"""A small synthetic Moscow Campaign world for the combat and overrun tests.

A 10 x 10 grid (even columns shifted down, as the real map). One rail line runs along row 5
from the west edge (0105) to the east edge (1005): German-repaired west of the start line
(column 5), normal east of it, so both sides are in supply everywhere unless a test cuts it.
Forest hexes, river/lake hexsides and defence-line front hexsides are given per test.
Units are placed by id; the rest stay off the map.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from typhoon.events import Event
from typhoon.games.tmc import combat_phase, engine
from typhoon.games.tmc.actions import Action, Attack, End, Roll
from typhoon.games.tmc.rules import GERMAN_COMBAT, GERMAN_MOVEMENT, SOVIET_COMBAT, Rules
from typhoon.games.tmc.state import State
from typhoon.hexgrid import HexGrid

GRID = HexGrid(10, 10, 10, "even")
IDX = GRID.index


def hx(hid: str) -> int:
    return IDX[hid]


@dataclass(frozen=True)
class Line:
    name: str
    sides: tuple[tuple[int, int], ...]


@dataclass
class SynthMap:
    grid: HexGrid
    forest_mask: int
    river_mask: list[int]
    lake_mask: list[int]
    defence_lines: tuple[Line, ...]
    defence_front: list[int]
    rail_neighbours: tuple[tuple[int, ...], ...]
    rail_mask: int
    rail_edge: dict[str, int]
    edges: dict[str, int]
    moscow: tuple[int, ...]
    moscow_mask: int
    german_entry: int
    soviet_entry: tuple[int, ...]
    start_lines: dict[str, tuple[int, ...]]
    west_of: dict[str, int]
    east_of: dict[str, int]
    repaired_rail: dict[str, int]
    lake_hexes: int = 0
    cities: dict[int, str] = field(default_factory=dict)


def _pairs(pairs: Sequence[tuple[str, str]]) -> list[int]:
    out = [0] * GRID.size
    for a, b in pairs:
        out[hx(a)] |= 1 << hx(b)
        out[hx(b)] |= 1 << hx(a)
    return out


def make_map(
    forest: Sequence[str] = (),
    rivers: Sequence[tuple[str, str]] = (),
    lakes: Sequence[tuple[str, str]] = (),
    front: Sequence[tuple[str, str]] = (),
) -> SynthMap:
    g = GRID
    rail_chain = [hx(f"{c:02d}05") for c in range(1, 11)]
    nbrs: list[list[int]] = [[] for _ in range(g.size)]
    for a, b in zip(rail_chain, rail_chain[1:], strict=False):
        nbrs[a].append(b)
        nbrs[b].append(a)
    cols = {c: g.mask(hx(f"{c:02d}{r:02d}") for r in range(1, 11)) for c in range(1, 11)}
    west = cols[1] | cols[2] | cols[3] | cols[4]
    east = cols[6] | cols[7] | cols[8] | cols[9] | cols[10]
    sides = tuple((hx(a), hx(b)) for a, b in front)
    dfront = [0] * g.size
    for o, i in sides:
        dfront[o] |= 1 << i
    edges = {
        "west": cols[1],
        "east": cols[10],
        "north": g.mask(hx(f"{c:02d}01") for c in range(1, 11)),
        "south": g.mask(hx(f"{c:02d}10") for c in range(1, 11)),
    }
    moscow = (hx("1009"), hx("1010"), hx("0910"))
    return SynthMap(
        grid=g,
        forest_mask=g.mask(hx(h) for h in forest),
        river_mask=_pairs(rivers),
        lake_mask=_pairs(lakes),
        defence_lines=(Line("Test line", sides),) if sides else (),
        defence_front=dfront,
        rail_neighbours=tuple(tuple(sorted(x)) for x in nbrs),
        rail_mask=g.mask(rail_chain),
        rail_edge={"west": 1 << hx("0105"), "east": 1 << hx("1005"), "north": 0, "south": 0},
        edges=edges,
        moscow=moscow,
        moscow_mask=g.mask(moscow),
        german_entry=cols[1],
        soviet_entry=(hx("1005"),),
        start_lines={"september": tuple(hx(f"05{r:02d}") for r in range(1, 11))},
        west_of={"september": west},
        east_of={"september": east},
        repaired_rail={"september": g.mask(rail_chain[:4])},
    )


# id, side, cf, ma, kind, extra
UNITS: tuple[dict[str, Any], ...] = (
    {"id": "PZ1", "side": "german", "cf": 6, "ma": 10, "kind": "armour"},
    {"id": "PZ2", "side": "german", "cf": 5, "ma": 10, "kind": "armour"},
    {"id": "MOT", "side": "german", "cf": 3, "ma": 10, "kind": "motorised"},
    {"id": "I1", "side": "german", "cf": 3, "ma": 5, "kind": "infantry"},
    {"id": "I2", "side": "german", "cf": 3, "ma": 5, "kind": "infantry"},
    {"id": "I3", "side": "german", "cf": 2, "ma": 5, "kind": "infantry"},
    {"id": "I4", "side": "german", "cf": 2, "ma": 5, "kind": "infantry"},
    {"id": "I5", "side": "german", "cf": 4, "ma": 5, "kind": "infantry"},
    {"id": "GEB", "side": "german", "cf": 1, "ma": 5, "kind": "eb", "eb": True},
    {"id": "R1", "side": "soviet", "cf": 2, "ma": 4, "kind": "infantry"},
    {"id": "R2", "side": "soviet", "cf": 2, "ma": 4, "kind": "infantry"},
    {"id": "R3", "side": "soviet", "cf": 2, "ma": 4, "kind": "infantry"},
    {"id": "R4", "side": "soviet", "cf": 2, "ma": 4, "kind": "infantry"},
    {"id": "R5", "side": "soviet", "cf": 2, "ma": 4, "kind": "infantry"},
    {"id": "R6", "side": "soviet", "cf": 2, "ma": 4, "kind": "infantry"},
    {"id": "R7", "side": "soviet", "cf": 2, "ma": 4, "kind": "infantry"},
    {"id": "R8", "side": "soviet", "cf": 2, "ma": 4, "kind": "infantry"},
    {"id": "R9", "side": "soviet", "cf": 2, "ma": 4, "kind": "infantry"},
    {"id": "S5", "side": "soviet", "cf": 5, "ma": 4, "kind": "infantry"},
    {"id": "T1", "side": "soviet", "cf": 3, "ma": 6, "kind": "tank"},
    {"id": "SEB", "side": "soviet", "cf": 1, "ma": 4, "kind": "eb", "eb": True},
    {"id": "G1", "side": "soviet", "cf": 2, "ma": 4, "kind": "infantry", "bracket": True},
    {"id": "G2", "side": "soviet", "cf": 1, "ma": 4, "kind": "infantry", "bracket": True},
)


def make_rules(m: SynthMap | None = None, options: Mapping[str, str] | None = None) -> Rules:
    scenario = {
        "title": "combat test",
        "first_turn": 1,
        "last_turn": 31,
        "start_line": "september",
        "german_replacements": False,
        "units": list(UNITS),
    }
    return Rules.from_data(m or make_map(), scenario, options)  # type: ignore[arg-type]


def world(
    german: Mapping[str, str],
    soviet: Mapping[str, str],
    *,
    turn: int = 18,
    phase: int = GERMAN_COMBAT,
    m: SynthMap | None = None,
    options: Mapping[str, str] | None = None,
    rules: Rules | None = None,
) -> State:
    """A state in the combat phase of ``phase`` with units on the given hexes."""
    r = rules or make_rules(m, options)
    s = State(r)
    for placed in (german, soviet):
        for uid, h in placed.items():
            u = r.unit_index[uid]
            s.put(u, hx(h))
            s.arrived |= 1 << u
    s.arrived = sum(1 << u for u in range(len(r.units)))  # nobody waits to enter
    s.turn = turn
    s.phase = phase
    if r.phases[phase].kind == "combat":
        combat_phase.begin(s, [])
    else:
        s.step = 1
    return s


SOVIET_TURN = SOVIET_COMBAT
GERMAN_MOVE = GERMAN_MOVEMENT


def legal(s: State) -> list[Action]:
    return engine.legal_actions(s)


def act(s: State, a: Action) -> tuple[State, list[Event]]:
    """The engine's apply: checks legality, then plays every forced single decision."""
    acts = legal(s)
    assert a in acts, f"{a} not legal; legal: {acts}"
    return engine.apply(s, a)


def run(s: State, *actions: Action) -> tuple[State, list[Event]]:
    """Apply ``actions`` in turn; an ``End`` that the engine already played as a forced
    decision (the only legal action) is skipped."""
    events: list[Event] = []
    for a in actions:
        if isinstance(a, End) and a not in legal(s):
            continue
        s, ev = act(s, a)
        events.extend(ev)
    return s, events


def roll(s: State, die: int) -> tuple[State, list[Event]]:
    assert s.is_chance, "no die roll is due"
    return act(s, Roll(die))


def where(s: State, uid: str) -> str:
    h = s.loc[s.rules.unit_index[uid]]
    return GRID.ids[h] if h >= 0 else "off"


def unit(s: State, uid: str) -> int:
    return s.rules.unit_index[uid]


def declare(s: State, *attacks: tuple[str | tuple[str, ...], tuple[str, ...]]) -> tuple[State, list[Event]]:
    """Declare attacks (defending hex or hexes, attacking units) in order, then end the
    declarations; Ends the engine already played as forced decisions are not repeated."""
    events: list[Event] = []
    for target, units in attacks:
        hexes = (target,) if isinstance(target, str) else target
        for uid in units:
            s, ev = act(s, Attack(hexes[0], (uid,)))
            events.extend(ev)
        for h in hexes[1:]:
            s, ev = act(s, Attack(h, ()))
            events.extend(ev)
        if combat_phase.data(s).draft is not None:
            s, ev = act(s, End())
            events.extend(ev)
    if combat_phase.data(s).declaring:
        s, ev = act(s, End())
        events.extend(ev)
    return s, events
