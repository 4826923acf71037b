"""Movement phases (rules_en.md §3, §4, §10, §13.2, §14, §16, §17, §18, §19, §22, §26).

Step RELOCATE (Soviet movement phase only, §17, [Q45]): Soviet EB units may be picked up and
put on another normal rail hex; ``End`` goes on to the moves.

Step MOVE: the phasing side's units move in legs (``Move``): from where a unit stands to any
hex it can reach with the movement points (MP) it has left this phase, along the cheapest
path. Costs, in ticks of 1/120 MP (rules.TICKS):
- entering a hex: 1 MP; forest/swamp 1 MP for non-mechanised units and 3 MP for mechanised
  ones (TEC §26 note B, [Q71]; Soviet tank/motorised units pay the mechanised cost; KGs are
  mechanised); rivers cost nothing extra ([Q5]); lake hexsides are impassable until GT 16
  (§3.3, §18) except along rail for EB units ([Q43]);
- +3 MP entering an enemy ZOC hex, +2 MP leaving one (§4; EB units and units flipped by a
  pending overrun exert no ZOC, [Q7]);
- German units: +2 MP crossing an intact defence-line front hexside (outer -> inner), which
  is destroyed at once; when 5 hexsides of a line are destroyed the rest of it is too (§19).
Allowance: printed MA (a KG's 8), halved when out of supply at the start of the phase (§11),
German: halved in rain; mechanised halved in winter; Soviet: halved in mud (§18); halvings
multiply ([Q10], [Q49]). German units in mud enter at most one hex per movement phase
([Q48]). One-hex minimum ([Q4]): a unit that has not moved this phase may always enter one
adjacent hex it cannot afford (never enemy-ZOC to enemy-ZOC, never a prohibited hex); it
then has no MP left. Units never enter enemy-occupied hexes (§3.1) except: a lone enemy [#]
unit is eliminated by entering its hex (§13.2, [Q32]); hexes of units flipped by a pending
overrun may be passed through but not ended in ([Q34]). A leg may not end where it would put
four units in a hex (the limit holds at the end of the phase, §10/[Q22]; passing through
fuller hexes is allowed); so a unit waits rather than parking on a full hex.
EB units move only from rail hex to rail hex along rail links of any state ([Q44]). In the
German mechanised movement phase only mechanised units (and KGs) move. Disrupted units do not
move (§7); entrained Soviet units only rail-move or detrain (rail.py, [Q56]); units committed
to an overrun move no further (§14.2).
Entering rail (§16, [Q40]-[Q42]): a German unit entering normal or Soviet-repaired rail
destroys it and places a cut marker; a Soviet unit entering German-repaired rail likewise; an
EB unit entering destroyed rail (or enemy rail) repairs it for its side, removing any cut.
Reinforcements: German units ``Enter`` on a west-edge entry hex in the first movement phase
(§22.2), paying that hex's cost, never into an enemy ZOC; Soviet units ``Arrive`` entrained
(rail.py). Overruns (§14): ``Overrun`` declares units adjacent to an enemy hex at 11-1 or
better (combat.py's odds, GT 1-4 German shift included); ``JoinOverrun`` adds a unit.
"""

from __future__ import annotations

import heapq
from fractions import Fraction
from itertools import combinations
from typing import Any

from typhoon.errors import IllegalActionError
from typhoon.events import Event
from typhoon.games.driver import LegalList
from typhoon.games.tmc import combat, combat_phase, overrun, rail, weather
from typhoon.games.tmc.actions import (
    END,
    Action,
    Arrive,
    Detrain,
    End,
    Enter,
    Entrain,
    JoinOverrun,
    Move,
    Overrun,
    RailMove,
    Relocate,
)
from typhoon.games.tmc.combat_phase import piece
from typhoon.games.tmc.flow import due_reinforcements, end_phase
from typhoon.games.tmc.moving import allowance, enter_effects, full_hexes, keep_facts, remaining, remove_unit
from typhoon.games.tmc.rules import GERMAN, GERMAN_MOVEMENT, SOVIET, STACK_LIMIT, TICKS
from typhoon.games.tmc.state import MOVE, OVERRUN, RELOCATE, PendingOverrun, State
from typhoon.hexgrid import bit_list

_tuple_new = tuple.__new__
_MAX_OVERRUN_CANDIDATES = 10  # minimal subsets are enumerated up to this many adjacent units


# -- per-phase facts -------------------------------------------------------------------------


def facts(s: State) -> dict[str, Any]:
    """Facts fixed while the phasing side moves (enemy units, their ZOC, terrain of the turn).
    Rebuilt when an enemy unit is removed or flipped, or a defence-line hexside falls."""
    c = s._cache
    f = c.get("mv")
    if f is None:
        rules = s.rules
        side = s.side
        enemy = 1 - side
        occ_e = 0
        lone = 0
        flipped_hexes = 0
        for h, us in s.stacks.items():
            if rules.units[us[0]].side != enemy:
                continue
            if all((s.flipped >> u) & 1 for u in us):
                flipped_hexes |= 1 << h
            elif len(us) == 1 and rules.units[us[0]].bracket:
                lone |= 1 << h
            else:
                occ_e |= 1 << h
        ezoc = s.zoc(enemy)
        size = rules.grid.size
        blk = bytearray(size)
        for h in bit_list(occ_e):
            blk[h] = 1
        ez = bytearray(size)
        for h in bit_list(ezoc):
            ez[h] = 1
        f = {
            "side": side,
            "block": occ_e,  # may not be entered
            "lone": lone,  # lone enemy [#]: entering removes it
            "noend": flipped_hexes,  # flipped by a pending overrun: pass through only
            "ezoc": ezoc,
            "blk": blk,  # the same two as byte arrays, for the search loop
            "ez": ez,
            "frozen": s.frozen(),
            "units": {},
            "may": {},  # unit -> may_move (step MOVE), see legal()
            "rmay": {},  # unit -> its own part of rail.may_entrain / may_detrain, see rail.add_legal()
            "seg": (-1, {}),  # (full hexes, unit -> its listed moves), see legal()
            "rseg": (None, {}),  # (side-wide key, unit -> its rail actions), see rail.add_legal()
        }
        c["mv"] = f
    return f


def hex_limit(s: State, u: int) -> int | None:
    """German units in mud: hexes per movement phase ([Q48]); None = no limit."""
    if s.rules.units[u].side != GERMAN:
        return None
    return weather.german_hex_limit(s.turn)


def may_move(s: State, u: int) -> bool:
    """May unit ``u`` make an ordinary move leg now (ignoring whether any hex is reachable)?"""
    rules = s.rules
    spec = rules.units[u]
    if spec.side != s.side or s.loc[u] < 0 or s.step != MOVE:
        return False
    if u in s.disrupted or (s.entrained >> u) & 1 or (s.overran >> u) & 1:
        return False
    if rules.phases[s.phase].movers == "mech" and not s.is_mech(u):
        return False
    lim = hex_limit(s, u)
    if lim is not None and s.entered.get(u, 0) >= lim:
        return False
    return u not in s.spent or remaining(s, u) > 0


# -- reach of one unit -----------------------------------------------------------------------


class Reach:
    """Where one unit can end a leg: hex -> ticks left, with the path (parents)."""

    __slots__ = ("start", "left", "parent", "moves", "dsts", "filtered")

    def __init__(
        self, start: int, left: dict[int, int], parent: dict[int, int], moves: list[Move], dsts: list[int]
    ):
        self.start = start
        self.left = left
        self.parent = parent
        self.moves = moves
        self.dsts = dsts
        self.filtered: dict[int, list[Move]] = {0: moves}

    def without(self, bad: int) -> list[Move]:
        got = self.filtered.get(bad)
        if got is None:
            got = self.filtered[bad] = [m for m, d in zip(self.moves, self.dsts) if not (bad >> d) & 1]
        return got

    def path(self, dst: int) -> list[int]:
        out = [dst]
        h = dst
        while h != self.start:
            h = self.parent[h]
            out.append(h)
        out.reverse()
        return out


class _Terrain:
    """Static per-map tables for the search loop: forest bytes, neighbours not across a lake
    hexside, and per hex the defence-line front hexsides leaving it (neighbour -> index)."""

    def __init__(self, rules: Any):
        grid = rules.grid
        m = rules.map
        self.forest = bytearray(grid.size)
        for h in bit_list(m.forest_mask):
            self.forest[h] = 1
        self.dry: list[tuple[int, ...]] = [()] * grid.size
        for h in grid.hexes:
            lake = m.lake_mask[h]
            self.dry[h] = (
                tuple(n for n in grid.neighbours[h] if not (lake >> n) & 1) if lake else grid.neighbours[h]
            )
        self.dl_out: dict[int, dict[int, int]] = {}
        for (a, b), k in rules.dl_index.items():
            self.dl_out.setdefault(a, {})[b] = k


_TERRAIN: dict[int, tuple[Any, _Terrain]] = {}


def terrain(rules: Any) -> _Terrain:
    got = _TERRAIN.get(id(rules))
    if got is None or got[0] is not rules:
        got = _TERRAIN[id(rules)] = (rules, _Terrain(rules))
    return got[1]


def reach(s: State, u: int) -> Reach:
    """All leg ends of unit ``u`` (cached for the phase until the unit or the facts change).
    The search is a Dijkstra on points left, over byte tables (this is the engine's hottest
    loop); a step costs the terrain of the hex entered, +3 MP entering and +2 MP leaving an
    enemy ZOC, +2 MP for a German unit crossing an intact defence-line front hexside."""
    f = facts(s)
    cache: dict[int, Reach] = f["units"]
    got = cache.get(u)
    if got is not None:
        return got
    rules = s.rules
    start = s.loc[u]
    budget = remaining(s, u)
    T = terrain(rules)
    eb = rules.units[u].eb
    if eb:
        nbrs: Any = rules.map.rail_neighbours  # along the rail, lake hexsides included ([Q43])
    elif f["frozen"]:
        nbrs = rules.grid.neighbours
    else:
        nbrs = T.dry
    forest = T.forest
    fcost = 3 * TICKS if s.is_mech(u) else rules.forest_nonmech_cost * TICKS
    blk = f["blk"]
    ez = f["ez"]
    dl_out = T.dl_out if f["side"] == GERMAN else {}
    dld = s.dl_destroyed
    enter_z = 3 * TICKS
    leave_z = 2 * TICKS
    line = 2 * TICKS
    left: dict[int, int] = {start: budget}
    parent: dict[int, int] = {}
    one_hex = hex_limit(s, u) is not None  # mud: one hex per phase (may_move: none entered yet)
    heap = [(-budget, start)]
    pop = heapq.heappop
    push = heapq.heappush
    while heap:
        neg, h = pop(heap)
        lh = -neg
        if left[h] != lh:
            continue
        if one_hex and h != start:
            continue
        base = leave_z if ez[h] else 0
        dlh = dl_out.get(h)
        for n in nbrs[h]:
            if blk[n]:
                continue
            c = (fcost if forest[n] else TICKS) + base
            if ez[n]:
                c += enter_z
            if dlh is not None:
                k = dlh.get(n)
                if k is not None and not (dld >> k) & 1:
                    c += line
            if c > lh:
                continue
            rest = lh - c
            if left.get(n, -1) < rest:
                left[n] = rest
                parent[n] = h
                push(heap, (-rest, n))
    if u not in s.spent:
        # [Q4] one-hex minimum: any adjacent enterable hex, never enemy ZOC to enemy ZOC.
        for n in nbrs[start]:
            if n in left or blk[n] or (ez[start] and ez[n]):
                continue
            left[n] = 0
            parent[n] = start
    noend = f["noend"]
    ids = rules.grid.ids
    uid = rules.units[u].id
    src = ids[start]
    dsts = sorted(h for h in left if h != start and not (noend >> h) & 1) if noend else sorted(left)
    if not noend:
        dsts.remove(start)
    moves = [_tuple_new(Move, (uid, src, ids[d], "move")) for d in dsts]
    got = cache[u] = Reach(start, left, parent, moves, dsts)
    return got


# -- legal actions ---------------------------------------------------------------------------


def legal(s: State) -> list[Action]:
    if s.step == RELOCATE:
        return _legal_relocate(s)
    if s.step == OVERRUN:
        return list(overrun.legal(s))
    # The per-unit lists below live on unchanged across the phase's states: the parts of a
    # LegalList (the env codec keeps their codes by identity).
    out = LegalList()
    extend = out.extend
    add = out.parts.append  # with extend: LegalList.add_part, inlined (a hundred units)
    full = full_hexes(s)
    # may_move per unit, kept with the phase facts: it reads only the unit's own fields, and
    # keep_facts drops the movers' entries (everything else that changes a unit resets the cache).
    f = facts(s)
    may: dict[int, bool] = f["may"]
    # Each unit's moves for this full-hexes mask, kept across the phase's states: after a move
    # only the mover's list is rebuilt (keep_facts drops it), the rest are reused as they are.
    seg_full, seg = f["seg"]
    if seg_full != full:
        seg = {}
        f["seg"] = (full, seg)
    for u in s.rules.side_units[s.side]:
        got = seg.get(u)
        if got is None:
            ok = may.get(u)
            if ok is None:
                ok = may[u] = may_move(s, u)
            got = seg[u] = reach(s, u).without(full) if ok else []
        if got:
            extend(got)
            add(got)
    if s.side == SOVIET:
        rail.add_legal(s, full, out)  # rail parts, then the (fresh) arrivals
    else:
        out.extend(_legal_reinforcements(s, full))
    out.extend(_legal_overruns(s))
    if _may_end(s, full):
        out.append(END)
    return out


def _may_end(s: State, full: int) -> bool:
    """[Q60]: German reinforcements must enter on their turn when they can (unless the delay
    option); everything else may be left undone."""
    if s.side != GERMAN or s.phase != GERMAN_MOVEMENT or s.rules.flag("german_reinforcement_delay"):
        return True
    return not (due_reinforcements(s, GERMAN) and _entry_hexes(s, full))


def _entry_hexes(s: State, full: int) -> list[int]:
    """§22.2: west-edge entry hexes a German reinforcement may enter: not enemy-occupied, not in
    an enemy ZOC, room to stack; mud: entering is its one hex. A lone Soviet [#] unit's hex may
    be entered, removing it (§13.2, [Q32])."""
    f = facts(s)
    bad = f["block"] | f["noend"] | f["ezoc"] | full | (s.occ[SOVIET] & ~f["lone"])
    return bit_list(s.rules.german_entry & ~bad)


def _legal_reinforcements(s: State, full: int) -> list[Action]:
    out: list[Action] = []
    if s.side == GERMAN and s.phase == GERMAN_MOVEMENT:
        due = due_reinforcements(s, GERMAN)
        if not due:
            return out
        ids = s.rules.grid.ids
        hexes = [ids[h] for h in _entry_hexes(s, full)]
        for u in due:
            uid = s.rules.units[u].id
            out.extend(Enter(uid, h) for h in hexes)
    return out


def _legal_relocate(s: State) -> list[Action]:
    rules = s.rules
    out = LegalList()  # each unit's memoised list is a part (see legal)
    targets = tuple(rail.relocation_hexes(s))
    ids = rules.grid.ids
    # Thousands of actions per listing, and a relocation seldom changes the target hexes (only
    # when it fills or frees a full hex): each unit's list is memoised by (targets, unit, hex),
    # a pure function of its key, so _apply_relocate carries the memo past the cache reset.
    tkey, memo = s._cache.get("reloc", ((), {}))
    if tkey != targets:
        memo = {}
        s._cache["reloc"] = (targets, memo)
    names: list[str] | None = None
    for u in rules.side_units[SOVIET]:
        if rules.units[u].eb and s.loc[u] >= 0 and not (s.relocated >> u) & 1:
            here = s.loc[u]
            got = memo.get((u, here))
            if got is None:
                if names is None:
                    names = [ids[h] for h in targets]
                uid = rules.units[u].id
                # Plain tuple construction (the NamedTuple constructor is a Python-level call).
                got = memo[u, here] = [
                    _tuple_new(Relocate, (uid, n, "relocate")) for h, n in zip(targets, names) if h != here
                ]
            out.add_part(got)
    out.append(END)
    return out


# -- overruns --------------------------------------------------------------------------------


def overrun_candidates(s: State, h: int) -> list[int]:
    """Phasing units adjacent to enemy hex ``h`` that may join an overrun of it: not yet
    committed to one, not disrupted or entrained, allowed to attack (§13), movers of this
    phase (mechanised only in the mechanised phase), not across an unfrozen lake (§3.3)."""
    rules = s.rules
    grid = rules.grid
    frozen = s.frozen()
    out = []
    opts = combat.CombatOptions.from_options(rules.options)
    mech_only = rules.phases[s.phase].movers == "mech"
    for n in grid.neighbours[h]:
        us = s.stacks.get(n, ())
        if not us or rules.units[us[0]].side != s.side:
            continue
        if not frozen and (rules.map.lake_mask[n] >> h) & 1:
            continue
        mates = [piece(s, x) for x in us]
        for i, u in enumerate(us):
            if (s.overran >> u) & 1 or (mech_only and not s.is_mech(u)):
                continue
            if not combat.may_attack(
                mates[i],
                mates[:i] + mates[i + 1 :],
                entrained=bool((s.entrained >> u) & 1),
                disrupted=u in s.disrupted,
                opts=opts,
            ):
                continue
            out.append(u)
    return out


def overrun_reaches(s: State, h: int, attackers: tuple[int, ...] | list[int]) -> bool:
    """Do ``attackers`` reach 11-1 against the units on ``h`` (§14.1, [Q35]: halvings for supply
    and weather, [Q9] rounding, the GT 1-4 German shift; supply as judged at phase start)?"""
    rules = s.rules
    cond = combat.conditions_for_turn(s.turn)
    opts = combat.CombatOptions.from_options(rules.options)
    crt = combat.load_crt()
    att = sum(
        (combat.attack_strength(piece(s, u), s.in_supply(u), cond, opts) for u in attackers),
        Fraction(0),
    )
    dfn = sum(
        (
            combat.defence_strength(
                piece(s, d), s.in_supply(d), cond, entrained=bool((s.entrained >> d) & 1), opts=opts
            )
            for d in s.stacks.get(h, ())
        ),
        Fraction(0),
    )
    if dfn <= 0:
        return att > 0
    return combat.odds_index(crt, att, dfn, s.side, cond) == len(crt.columns) - 1


def _legal_overruns(s: State) -> list[Action]:
    rules = s.rules
    if s.side == SOVIET and rules.opt("overrun_by") == "german":
        return []
    f = facts(s)
    grid = rules.grid
    ids = grid.ids
    out: list[Action] = []
    pending = {p.hex: p for p in s.overruns}
    targets = grid.expand(s.occ[s.side]) & f["block"]
    cache: dict[Any, list[Action]] = s._cache.setdefault("ovr", {})
    while targets:
        low = targets & -targets
        targets ^= low
        h = low.bit_length() - 1
        if h in pending:
            continue
        cands = overrun_candidates(s, h)
        if not cands:
            continue
        key = (h, tuple(cands), tuple(s.stacks.get(h, ())))
        got = cache.get(key)
        if got is None:
            got = []
            for group in _minimal_groups(s, h, cands):
                got.append(Overrun(ids[h], tuple(rules.units[u].id for u in group)))
            cache[key] = got
        out.extend(got)
    for p in s.overruns:
        for u in overrun_candidates(s, p.hex):
            out.append(JoinOverrun(rules.units[u].id, ids[p.hex]))
    return out


def _minimal_groups(s: State, h: int, cands: list[int]) -> list[tuple[int, ...]]:
    """Every minimal group of candidates reaching 11-1 (others join later, §14.5); with many
    candidates, the strongest-first group only."""
    if not overrun_reaches(s, h, cands):
        return []
    if len(cands) > _MAX_OVERRUN_CANDIDATES:
        ranked = sorted(cands, key=lambda u: -s.cf(u))
        group: list[int] = []
        for u in ranked:
            group.append(u)
            if overrun_reaches(s, h, group):
                return [tuple(sorted(group))]
        return [tuple(sorted(cands))]
    found: list[tuple[int, ...]] = []
    for k in range(1, len(cands) + 1):
        for combo in combinations(sorted(cands), k):
            if any(set(g) <= set(combo) for g in found):
                continue
            if overrun_reaches(s, h, combo):
                found.append(combo)
    return found


# -- applying --------------------------------------------------------------------------------


def apply(s: State, a: Action, events: list[Event]) -> None:
    if s.step == OVERRUN:
        overrun.apply(s, a, events)
        return
    if isinstance(a, End):
        if s.step == RELOCATE:
            s.step = MOVE
            s._cache = {}
            events.append(Event("step", "EB relocation over.", {}))
            return
        if s.overruns:
            s.step = OVERRUN  # §14.3: resolve the overruns before the phase ends (then flow.end_phase)
            s._legal = None
            combat_phase.begin_overruns(s, events)
            return
        end_phase(s, events)
        return
    if isinstance(a, Relocate):
        _apply_relocate(s, a, events)
    elif isinstance(a, Move):
        _apply_move(s, a, events)
    elif isinstance(a, Enter):
        _apply_enter(s, a, events)
    elif isinstance(a, (Arrive, Entrain, RailMove, Detrain)):
        rail.apply(s, a, events)
    elif isinstance(a, Overrun):
        _apply_overrun(s, a, events)
    elif isinstance(a, JoinOverrun):
        _apply_join(s, a, events)
    else:
        raise IllegalActionError(f"{type(a).__name__} is not possible in a movement phase")


def _unit(s: State, uid: str) -> int:
    u = s.rules.unit_index.get(uid, -1)
    if u < 0:
        raise IllegalActionError(f"there is no unit {uid}")
    return u


def _hex(s: State, hid: str) -> int:
    h = s.rules.grid.index.get(hid, -1)
    if h < 0:
        raise IllegalActionError(f"{hid} is not a hex of the map")
    return h


def _apply_move(s: State, a: Move, events: list[Event]) -> None:
    u = _unit(s, a.unit)
    if not may_move(s, u):
        raise IllegalActionError(f"{a.unit} cannot move now")
    r = reach(s, u)
    dst = _hex(s, a.dst)
    if s.rules.grid.ids[s.loc[u]] != a.src or dst not in r.left or dst == r.start or dst not in r.dsts:
        raise IllegalActionError(f"{a.unit} cannot reach {a.dst}")
    if len(s.stacks.get(dst, ())) >= STACK_LIMIT:
        raise IllegalActionError(f"{a.dst} already holds {STACK_LIMIT} units")
    path = r.path(dst)
    left = r.left[dst]
    do_move(s, u, path, left, events)


def do_move(s: State, u: int, path: list[int], left: int, events: list[Event]) -> None:
    """Carry out a leg along ``path`` (start first) leaving ``left`` ticks."""
    rules = s.rules
    facts(s)
    old_cache = s._cache
    s.spent[u] = allowance(s, u) - left
    s.entered[u] = s.entered.get(u, 0) + len(path) - 1
    reset = False
    rail_changed = False
    for a, b in zip(path, path[1:]):
        r, c = enter_effects(s, u, a, b, events)
        reset |= r
        rail_changed |= c
    s.relocate(u, path[-1])
    if reset:
        s._cache = {}
    else:
        # The phase facts still hold; only this unit's reach and the friendly ZOC changed.
        keep_facts(s, old_cache, (u,))
        if rail_changed:
            s._cache.pop("rail", None)
    ids = rules.grid.ids
    events.append(
        Event(
            "move",
            f"{rules.units[u].name} moves {ids[path[0]]} to {ids[path[-1]]}.",
            {"unit": rules.units[u].id, "path": [ids[h] for h in path]},
        )
    )


def _apply_enter(s: State, a: Enter, events: list[Event]) -> None:
    u = _unit(s, a.unit)
    h = _hex(s, a.hex)
    if s.phase != GERMAN_MOVEMENT or u not in due_reinforcements(s, GERMAN) or s.step != MOVE:
        raise IllegalActionError(f"{a.unit} is not a German reinforcement due now")
    if h not in _entry_hexes(s, full_hexes(s)):
        raise IllegalActionError(f"{a.unit} cannot enter at {a.hex}")
    rules = s.rules
    cost = TICKS
    if (rules.map.forest_mask >> h) & 1:
        cost = (3 if s.is_mech(u) else rules.forest_nonmech_cost) * TICKS
    enter_effects(s, u, h, h, events)
    s.put(u, h)
    s.arrived |= 1 << u
    if not s.supplied_hex(GERMAN, h):
        s.oos |= 1 << u  # judged by its entry hex (§11)
    budget = allowance(s, u)
    s.spent[u] = min(cost, budget)  # §22.2: the first hex costs its normal MP ([Q4] minimum if short)
    s.entered[u] = 1
    events.append(Event("enter", f"{rules.units[u].name} enters at {a.hex}.", {"unit": a.unit, "hex": a.hex}))


def _apply_relocate(s: State, a: Relocate, events: list[Event]) -> None:
    u = _unit(s, a.unit)
    h = _hex(s, a.hex)
    rules = s.rules
    if s.step != RELOCATE or not rules.units[u].eb or rules.units[u].side != SOVIET or s.loc[u] < 0:
        raise IllegalActionError(f"{a.unit} cannot be relocated now")
    if (s.relocated >> u) & 1:
        raise IllegalActionError(f"{a.unit} was already relocated this phase")
    if h not in rail.relocation_hexes(s) or h == s.loc[u]:
        raise IllegalActionError(f"{a.hex} is not a normal rail hex free for {a.unit}")
    src = rules.grid.ids[s.loc[u]]
    memo = s._cache.get("reloc")
    s.relocate(u, h)
    if memo is not None:
        s._cache["reloc"] = memo  # keyed by the target hexes: exact whatever changed
    s.relocated |= 1 << u
    s.entrained &= ~(1 << u)
    events.append(Event("relocate", f"{rules.units[u].name} relocated {src} to {a.hex}.", {"unit": a.unit}))


def _apply_overrun(s: State, a: Overrun, events: list[Event]) -> None:
    h = _hex(s, a.hex)
    rules = s.rules
    units = tuple(_unit(s, x) for x in a.units)
    cands = overrun_candidates(s, h)
    if not units or any(u not in cands for u in units) or len(set(units)) != len(units):
        raise IllegalActionError("those units cannot overrun that hex")
    if any(p.hex == h for p in s.overruns) or not (facts(s)["block"] >> h) & 1:
        raise IllegalActionError(f"{a.hex} cannot be overrun")
    if not overrun_reaches(s, h, units):
        raise IllegalActionError("the overrun does not reach 11-1")
    defenders = s.stacks[h]
    for u in units:
        s.overran |= 1 << u
    for d in defenders:
        s.flipped |= 1 << d
    s.overruns = s.overruns + (PendingOverrun(h, tuple(sorted(units)), tuple(defenders)),)
    s._cache = {}
    names = ", ".join(rules.units[u].name for u in units)
    events.append(
        Event(
            "overrun",
            f"Overrun of {a.hex} by {names}: defenders flipped.",
            {"hex": a.hex, "units": list(a.units)},
        )
    )


def _apply_join(s: State, a: JoinOverrun, events: list[Event]) -> None:
    u = _unit(s, a.unit)
    h = _hex(s, a.hex)
    idx = next((i for i, p in enumerate(s.overruns) if p.hex == h), -1)
    if idx < 0 or u not in overrun_candidates(s, h):
        raise IllegalActionError(f"{a.unit} cannot join an overrun of {a.hex}")
    p = s.overruns[idx]
    s.overran |= 1 << u
    s.overruns = (
        s.overruns[:idx] + (p._replace(attackers=tuple(sorted(p.attackers + (u,)))),) + s.overruns[idx + 1 :]
    )
    s._cache = {}
    events.append(
        Event("overrun_join", f"{s.rules.units[u].name} joins the overrun of {a.hex}.", {"unit": a.unit})
    )


__all__ = ["allowance", "apply", "enter_effects", "legal", "may_move", "reach", "remaining", "remove_unit"]
