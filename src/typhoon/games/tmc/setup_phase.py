"""Set-up (rules_en.md §25): the Soviet player sets up first, then the German.

- ``SetupStandard`` places every unit of the side on the scenario's reconstructed deployment
  (the OOB helper's set-up hexes); offered before the side has placed anything.
- ``Place`` puts units one at a time, in the scenario's unit order (the next unplaced unit
  is the only one offered; this keeps the action list to one unit's hexes, and the order
  does not restrict where anything may go). Constraints:
  - never on a start-line hex; Soviet units east of the line, German units west (§25.5);
  - at most 3 units per hex (§25.3);
  - Soviet units within 8 hexes of the start line, except any 10 that may go anywhere east
    of it (§25.6, [Q69]); Soviet EB units on rail hexes ([Q69]);
  - German EB units (and any unit the scenario marks ``fixed``) on their designated hex
    (§25.7); other German units anywhere west of the line ([Q70]);
  - every start-line hex must be in the setting-up side's ZOC when its set-up ends (§25.4;
    both sides, [Q68], option german_must_cover_start_line). Enforced as the units go down:
    a placement is legal only if the start-line hexes still uncovered can be covered by the
    ZOC-exerting units not yet placed (counted by a greedy interval cover along the line), so
    a set-up can never get stuck. (A side with too few units to cover the line at all is not
    held to it.)
The side's set-up ends by itself when its last unit is placed.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from typhoon.errors import IllegalActionError
from typhoon.events import Event
from typhoon.games.driver import LazyLegal, LazyPart
from typhoon.games.tmc.actions import SETUP_STANDARD, Action, Place, SetupStandard
from typhoon.games.tmc.combat_phase import full_hexes
from typhoon.games.tmc.flow import end_phase
from typhoon.games.tmc.moving import bits_from
from typhoon.games.tmc.rules import GERMAN, SIDE_NAMES, SOVIET, STACK_LIMIT, Rules
from typhoon.games.tmc.state import State
from typhoon.hexgrid import bit_list

SOVIET_DEPTH = 8  # §25.6
SOVIET_EXEMPT = 10  # §25.6


@lru_cache(maxsize=64)
def setup_units(rules: Rules, side: int) -> tuple[int, ...]:
    """Units a side sets up: its starting forces (no reinforcements); memoised (the rules
    never change, and every set-up listing asks several times)."""
    return tuple(u for u in rules.side_units[side] if rules.units[u].arrive == 0)


@lru_cache(maxsize=32)
def _geometry(rules: Rules) -> tuple[int, tuple[int, ...], int]:
    """(hexes within 8 of the start line, per start-line position the mask of hexes adjacent
    to it, all hexes adjacent to the line)."""
    grid = rules.grid
    line = rules.start_line_mask
    near = line
    for _ in range(SOVIET_DEPTH):
        near |= grid.expand(near)
    adj = tuple(grid.neighbour_mask[h] for h in rules.start_line_hexes)
    return near, adj, grid.expand(line) & ~line


@lru_cache(maxsize=64)
def _reach_along(rules: Rules, side_area: int) -> tuple[int, ...]:
    """Per start-line position p: the farthest position (along the line) covered together with
    p by one hex of ``side_area`` adjacent to p; -1 if no such hex."""
    grid = rules.grid
    line = rules.start_line_hexes
    pos = {h: i for i, h in enumerate(line)}
    _, adj, _ = _geometry(rules)
    out = []
    for p in range(len(line)):
        best = -1
        for c in bit_list(adj[p] & side_area):
            best = max(best, max((pos[x] for x in grid.neighbours[c] if x in pos), default=p))
        out.append(best)
    return tuple(out)


def _needed(rules: Rules, side_area: int, uncovered: list[int]) -> int:
    """Fewest hexes of ``side_area`` whose neighbourhoods cover the start-line positions
    ``uncovered`` (greedy interval cover along the line: each hex touches consecutive positions)."""
    if not uncovered:
        return 0
    reach_of = _reach_along(rules, side_area)
    todo = sorted(uncovered)
    count = 0
    i = 0
    while i < len(todo):
        best = reach_of[todo[i]]
        if best < 0:
            i += 1  # no hex of the side's area touches it: the rule cannot apply there
            continue
        count += 1
        while i < len(todo) and todo[i] <= best:
            i += 1
    return count


@lru_cache(maxsize=8192)
def _needed_memo(rules: Rules, side_area: int, uncovered_hexes: int) -> int:
    """``_needed`` of the start-line positions whose hexes are in the bitset ``uncovered_hexes``,
    memoised: consecutive placements ask about the same positions."""
    line = rules.start_line_hexes
    return _needed(rules, side_area, [i for i, h in enumerate(line) if (uncovered_hexes >> h) & 1])


def side_area(rules: Rules, side: int) -> int:
    """Where a side may set up: its side of the start line, not on the line (§25.5), and not
    in a lake hex (water; the map's Moscow Sea and Seliger hexes)."""
    base = (rules.east_mask if side == SOVIET else rules.west_mask) & ~rules.start_line_mask
    return base & rules.all_hexes & ~getattr(rules.map, "lake_hexes", 0)


def _area(s: State, side: int) -> int:
    return side_area(s.rules, side)


def _must_cover(s: State, side: int) -> bool:
    return side == SOVIET or s.rules.flag("german_must_cover_start_line")


def _uncovered(s: State, side: int) -> list[int]:
    z = s.zoc(side)
    return [i for i, h in enumerate(s.rules.start_line_hexes) if not (z >> h) & 1]


def next_unit(s: State) -> int:
    for u in setup_units(s.rules, s.side):
        if not (s.placed >> u) & 1:
            return u
    return -1


def place_hexes(s: State, u: int) -> list[int]:
    """Hexes where the next unit ``u`` may be placed now."""
    rules = s.rules
    spec = rules.units[u]
    side = spec.side
    area = _area(s, side)
    if spec.fixed and spec.setup >= 0:
        area &= 1 << spec.setup
    if spec.eb:
        area &= rules.rail_mask
    area &= ~full_hexes(s) & ~s.occ[1 - side]
    near, adj, line_adj = _geometry(rules)
    if side == SOVIET:
        exempt_used = sum(
            1 for x in setup_units(rules, SOVIET) if (s.placed >> x) & 1 and not (near >> s.loc[x]) & 1
        )
        if exempt_used >= SOVIET_EXEMPT:
            area &= near
    if not _must_cover(s, side):
        return bits_from(area, 0)
    unplaced = [x for x in setup_units(rules, side) if not (s.placed >> x) & 1 and x != u]
    zoc_left = sum(1 for x in unplaced if not rules.units[x].eb)
    uncovered = _uncovered(s, side)
    side_area = _area(s, side)
    base_need = _needed(rules, side_area, uncovered)
    if base_need > zoc_left + (0 if spec.eb else 1):
        return bits_from(area, 0)  # the side lacks the units to cover the line at all: no constraint
    far_ok = base_need <= zoc_left
    line = rules.start_line_hexes
    uncovered_mask = 0
    for i in uncovered:
        uncovered_mask |= 1 << line[i]
    # Hexes away from the line (and EB units anywhere: no ZOC) are all fine or all not; only the
    # few hexes next to the line are judged one by one. Hexes next to the same uncovered line
    # hexes leave the same positions to cover.
    if spec.eb:
        return bits_from(area, 0) if far_ok else []
    ok_mask = area & ~line_adj if far_ok else 0
    verdict: dict[int, bool] = {}
    nbm = rules.grid.neighbour_mask
    for h in bit_list(area & line_adj):
        nb = nbm[h] & uncovered_mask
        ok = verdict.get(nb)
        if ok is None:
            ok = verdict[nb] = _needed_memo(rules, side_area, uncovered_mask & ~nb) <= zoc_left
        if ok:
            ok_mask |= 1 << h
    return bits_from(ok_mask, 0)


def _place_hexes_cached(s: State, u: int) -> list[int]:
    """``place_hexes`` kept in the state's cache (reset by every placement): the copy that
    ``apply`` validates shares the cache of the state that was listed, so the hexes are worked
    out once per placement instead of twice. Keyed by what it reads besides the position."""
    memo: dict[tuple[int, int, int], list[int]] = s._cache.setdefault("place", {})
    key = (u, s.placed, s.side)
    got = memo.get(key)
    if got is None:
        got = memo[key] = place_hexes(s, u)
    return got


def legal(s: State) -> Sequence[Action]:
    """The standard set-up (before any placement, if every unit has a hex), then the next
    unit's Place to each hex it may take, in hex order: a LazyLegal whose Place actions are
    made only when read (the environment codes them from the hexes, ``place_part_hexes``)."""
    parts: list[LazyPart] = []
    if not s.placed and all(s.rules.units[u].setup >= 0 for u in setup_units(s.rules, s.side)):
        parts.append(LazyPart(1, SETUP_STANDARD[0], _single, SETUP_STANDARD, _single_at))
    u = next_unit(s)
    if u >= 0:
        hexes = _place_hexes_cached(s, u)
        if hexes:
            uid = s.rules.units[u].id
            parts.append(LazyPart(len(hexes), uid, _places, (uid, hexes, s.rules.grid.ids), _place_at))
    return LazyLegal(parts, [])


def place_part_hexes(p: LazyPart) -> list[int] | None:
    """The hexes of a set-up listing's part of Place actions (in order), None for another part."""
    return p.arg[1] if p.make is _places else None  # type: ignore[no-any-return]


def _single(a: Action) -> list[Action]:
    return [a]


def _single_at(a: Action, i: int) -> Action:
    return a


def _places(arg: tuple[str, list[int], list[str]]) -> list[Action]:
    uid, hexes, ids = arg
    new = tuple.__new__  # plain tuple construction: the NamedTuple constructor is a Python call
    return [new(Place, (uid, ids[h], "place")) for h in hexes]


def _place_at(arg: tuple[str, list[int], list[str]], i: int) -> Action:
    uid, hexes, ids = arg
    return tuple.__new__(Place, (uid, ids[hexes[i]], "place"))  # type: ignore[no-any-return]


def apply(s: State, a: Action, events: list[Event]) -> None:
    rules = s.rules
    side = s.side
    name = SIDE_NAMES[side]
    if isinstance(a, SetupStandard):
        if s.placed:
            raise IllegalActionError("the standard set-up is only possible before any unit is placed")
        for u in setup_units(rules, side):
            if rules.units[u].setup < 0:
                raise IllegalActionError(f"{rules.units[u].id} has no standard set-up hex")
            _place(s, u, rules.units[u].setup)
        events.append(Event("setup", f"{name.capitalize()} standard set-up placed.", {"side": name}))
    elif isinstance(a, Place):
        u = rules.unit_index.get(a.unit, -1)
        if u < 0 or u != next_unit(s):
            raise IllegalActionError(f"{a.unit} is not the next {name} unit to set up")
        h = rules.grid.index.get(a.hex, -1)
        if h not in _place_hexes_cached(s, u):
            raise IllegalActionError(f"{a.unit} may not be set up in {a.hex} (§25)")
        _place(s, u, h)
        events.append(
            Event("setup", f"{rules.units[u].name} set up in {a.hex}.", {"unit": a.unit, "hex": a.hex})
        )
    else:
        raise IllegalActionError(f"{type(a).__name__} is not a set-up action")
    if next_unit(s) < 0:
        end_phase(s, events)


def _place(s: State, u: int, h: int) -> None:
    s.put(u, h)
    s.placed |= 1 << u
    s.arrived |= 1 << u


def standard_problems(rules: Rules) -> list[str]:
    """How the scenario's standard deployment breaks §25 (for tests and the OOB report)."""
    out = []
    ids = rules.grid.ids
    count: dict[int, int] = {}
    near, _, _ = _geometry(rules)
    far = 0
    for side in (SOVIET, GERMAN):
        area = side_area(rules, side)
        for u in setup_units(rules, side):
            spec = rules.units[u]
            h = spec.setup
            if h < 0:
                out.append(f"{spec.id}: no set-up hex")
                continue
            count[h] = count.get(h, 0) + 1
            if not (area >> h) & 1:
                out.append(f"{spec.id} at {ids[h]}: wrong side of (or on) the start line")
            if side == SOVIET and not (near >> h) & 1:
                far += 1
            if spec.eb and not (rules.rail_mask >> h) & 1:
                out.append(f"{spec.id} at {ids[h]}: EB unit off the rail")
    out += [f"{ids[h]}: {n} units" for h, n in count.items() if n > STACK_LIMIT]
    if far > SOVIET_EXEMPT:
        out.append(
            f"{far} Soviet units more than {SOVIET_DEPTH} hexes from the start line (limit {SOVIET_EXEMPT})"
        )
    for side in (SOVIET, GERMAN):
        if side == GERMAN and rules.opt("german_must_cover_start_line") != "yes":
            continue
        zoc_src = 0
        for u in setup_units(rules, side):
            if rules.units[u].setup >= 0 and not rules.units[u].eb:
                zoc_src |= 1 << rules.units[u].setup
        z = rules.grid.expand(zoc_src)
        # A line hex with no neighbour where the side may set up cannot be covered by any
        # set-up (December's 5010 beside the Moscow Sea): §25.4 asks for the coverable ones.
        area = side_area(rules, side)
        gaps = [
            ids[h] for h in rules.start_line_hexes if not (z >> h) & 1 and rules.grid.neighbour_mask[h] & area
        ]
        if gaps:
            out.append(f"{SIDE_NAMES[side]} ZOC misses start-line hexes {', '.join(gaps)}")
    return out


__all__ = ["GERMAN", "legal", "apply", "place_hexes", "setup_units", "standard_problems"]
