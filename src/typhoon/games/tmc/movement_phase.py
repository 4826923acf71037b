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
from bisect import bisect_left
from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations
from operator import itemgetter
from typing import Any

from typhoon.errors import IllegalActionError
from typhoon.events import Event
from typhoon.games.driver import LazyLegal, LazyPart, LegalList
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
from typhoon.games.tmc.moving import (
    LegMaker,
    Legs,
    allowance,
    bits_from,
    enter_effects,
    full_hexes,
    keep_facts,
    leg_actions,
    remaining,
    remove_unit,
)
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
            "glim": weather.german_hex_limit(s.turn),
            "ovc": {},  # overrun candidates by target and surroundings, see overrun_candidates()  # hex_limit of a German unit this turn
            "flm": {},  # forest cost -> whole-map bitsets of the flood, see _flood_masks()
            "flw": {},  # (forest cost, first and last column) -> those bitsets in a window, see _flood()
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


class Reach(Legs):
    """Where one unit can end a leg: hex -> ticks left (``left``), with the path (``path``).

    ``dsts`` (sorted) and the moves (:class:`~typhoon.games.tmc.moving.Legs`: made when first
    read for the flood's reach, given by the reference search); ``left`` and ``parent`` are made when
    first read from the cost layers of the bitset flood (:func:`reach`), or given by the
    reference search (:func:`reach_reference`)."""

    __slots__ = ("start", "_left", "_parent", "_flood")

    _left: dict[int, int] | None

    def __init__(
        self,
        start: int,
        left: dict[int, int] | None,
        parent: dict[int, int] | None,
        moves: list[Move] | None,
        dsts: list[int],
        flood: _Flood | None = None,
        dm: int = -1,
        mk: LegMaker | None = None,
    ):
        super().__init__(dsts, moves, dm, mk)
        self.start = start
        self._left = left
        self._parent = parent
        self._flood = flood

    @property
    def left(self) -> dict[int, int]:
        """Hex -> ticks left on arriving there (the start included, with the whole budget);
        a flood's dict is made when first asked for."""
        got = self._left
        if got is None:
            assert self._flood is not None
            got = self._left = self._flood.left()
        return got

    def rest(self, h: int) -> int:
        """``left[h]`` without making the whole dict (KeyError if ``h`` is not reached)."""
        fl = self._flood
        if fl is None or self._left is not None:
            return self.left[h]
        got = fl.get(h)
        if got is None:
            raise KeyError(h)
        return got

    @property
    def parent(self) -> dict[int, int]:
        """Hex -> the hex it is entered from on the chosen path (every hex of ``left`` but the start)."""
        got = self._parent
        if got is None:
            assert self._flood is not None
            fl = self._flood
            left = self.left
            got = self._parent = {h: fl.parent_of(h) for h in left if h != self.start}
        return got

    def path(self, dst: int) -> list[int]:
        out = [dst]
        h = dst
        fl = self._flood
        if fl is None:
            parent = self.parent
            while h != self.start:
                h = parent[h]
                out.append(h)
        else:
            while h != self.start:
                h = fl.parent_of(h)
                out.append(h)
        out.reverse()
        return out


class _Terrain:
    """Static per-map tables for the searches: forest bytes and bitset, neighbours (and their
    bitset) not across a lake hexside, per hex the defence-line front hexsides leaving it
    (neighbour -> index), the hexes with a lake hexside, and the grid's shift geometry."""

    def __init__(self, rules: Any):
        grid = rules.grid
        m = rules.map
        self.forest = bytearray(grid.size)
        for h in bit_list(m.forest_mask):
            self.forest[h] = 1
        self.forest_mask: int = m.forest_mask & grid.valid
        self.dry: list[tuple[int, ...]] = [()] * grid.size
        self.dry_mask: list[int] = [0] * grid.size
        lake_src = 0
        for h in grid.hexes:
            lake = m.lake_mask[h]
            self.dry[h] = (
                tuple(n for n in grid.neighbours[h] if not (lake >> n) & 1) if lake else grid.neighbours[h]
            )
            self.dry_mask[h] = grid.mask(self.dry[h])
            if lake:
                # Both hexes of a lake hexside: the flood takes them one by one (_Flood).
                lake_src |= (1 << h) | (lake & grid.valid)
        self.lake_src = lake_src
        self.dl_out: dict[int, dict[int, int]] = {}
        for (a, b), k in rules.dl_index.items():
            self.dl_out.setdefault(a, {})[b] = k
        self.dl_src: dict[int, int] = {}  # destroyed defence-line hexsides -> hexes with an intact one
        self.windows: dict[tuple[int, int], tuple[int, int]] = {}  # columns -> (high, low) in the window
        self.stride: int = grid.stride
        self.columns: int = grid.columns
        self.valid: int = grid.valid
        self.high: int = grid._high
        self.low: int = grid._low


_TERRAIN: dict[int, tuple[Any, _Terrain]] = {}


def terrain(rules: Any) -> _Terrain:
    got = _TERRAIN.get(id(rules))
    if got is None or got[0] is not rules:
        got = _TERRAIN[id(rules)] = (rules, _Terrain(rules))
    return got[1]


def reach(s: State, u: int) -> Reach:
    """All leg ends of unit ``u`` (cached for the phase until the unit or the facts change).

    A step costs the terrain of the hex entered, +3 MP entering and +2 MP leaving an enemy
    ZOC, +2 MP for a German unit crossing an intact defence-line front hexside. Every cost is
    a whole number of MP, so the cheapest paths are found a whole MP layer at a time on
    bitsets (:func:`_flood`): the same hexes, points left and paths as the reference Dijkstra
    (:func:`reach_reference`), which still serves EB units (rail links); German units in mud
    move one hex (:func:`_one_hex`)."""
    f = facts(s)
    cache: dict[int, Reach] = f["units"]
    got = cache.get(u)
    if got is None:
        got = cache[u] = _flood(s, u, f)
    return got


def reach_reference(s: State, u: int) -> Reach:
    """:func:`reach` by the reference search (a heap Dijkstra), uncached: for the tests."""
    return _dijkstra(s, u, facts(s))


def _moves(s: State, u: int, start: int, dsts: list[int]) -> list[Move]:
    ids = s.rules.grid.ids
    uid = s.rules.units[u].id
    src = ids[start]
    return leg_actions(Move, uid, src, ids, dsts, "move")


def _dijkstra(s: State, u: int, f: dict[str, Any]) -> Reach:
    """The reference search: a Dijkstra on points left, over byte tables. Of two paths as
    cheap, the one through the hex popped first (more points left, then the lower index)."""
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
    dsts = sorted(h for h in left if h != start and not (noend >> h) & 1) if noend else sorted(left)
    if not noend:
        dsts.remove(start)
    return Reach(start, left, parent, _moves(s, u, start, dsts), dsts)


def _one_hex(s: State, u: int, f: dict[str, Any], budget: int) -> Reach:
    """:func:`reach` of a German unit in mud ([Q48]: one hex per phase, and may_move says it
    has entered none): the reference search expands only the start, so its neighbours in
    order, then the [Q4] one-hex minimum; the same ``left`` and ``parent`` dicts."""
    rules = s.rules
    start = s.loc[u]
    T = terrain(rules)
    nbrs = (rules.grid.neighbours if f["frozen"] else T.dry)[start]
    forest = T.forest
    fcost = 3 * TICKS if s.is_mech(u) else rules.forest_nonmech_cost * TICKS
    blk = f["blk"]
    ez = f["ez"]
    z0 = ez[start]
    base = 2 * TICKS if z0 else 0
    dlh = T.dl_out.get(start) if f["side"] == GERMAN else None  # defence-line front hexsides
    dld = s.dl_destroyed
    left: dict[int, int] = {start: budget}
    parent: dict[int, int] = {}
    for n in nbrs:
        if blk[n]:
            continue
        c = (fcost if forest[n] else TICKS) + base
        if ez[n]:
            c += 3 * TICKS
        if dlh is not None:
            k = dlh.get(n)
            if k is not None and not (dld >> k) & 1:
                c += 2 * TICKS
        if c <= budget:
            left[n] = budget - c
            parent[n] = start
    if u not in s.spent:
        for n in nbrs:
            if n in left or blk[n] or (z0 and ez[n]):
                continue
            left[n] = 0
            parent[n] = start
    noend = f["noend"]
    dsts = sorted(h for h in left if h != start and not (noend >> h) & 1)
    return Reach(start, left, parent, _moves(s, u, start, dsts), dsts)


# -- the bitset flood ------------------------------------------------------------------------


def _flood_masks(
    s: State, f: dict[str, Any], fc: int
) -> tuple[int, int, int, int, tuple[tuple[int, int], ...]]:
    """Whole-map bitsets of the phase facts for forest cost ``fc`` (whole MP): hexes that may
    be entered, inside enemy ZOC, taken one by one (a lake hexside unless frozen,
    an intact defence-line front hexside for German units), ends not allowed, and the cost
    classes of entering (cost, hexes) in increasing cost."""
    memo: dict[int, Any] = f["flm"]
    got = memo.get(fc)
    if got is None:
        T = terrain(s.rules)
        valid = T.valid
        opn = valid & ~f["block"]
        ez = f["ezoc"] & valid
        nez = valid & ~ez
        irr = 0 if f["frozen"] else T.lake_src
        if f["side"] == GERMAN:
            dld = s.dl_destroyed
            dl = T.dl_src.get(dld)
            if dl is None:
                dl = 0
                for a, out in T.dl_out.items():
                    if any(not (dld >> k) & 1 for k in out.values()):
                        dl |= 1 << a
                if len(T.dl_src) < 256:
                    T.dl_src[dld] = dl
            irr |= dl
        forest = T.forest_mask
        plain = opn & ~forest
        wood = opn & forest
        cls: dict[int, int] = {}
        for cost, m in ((1, plain & nez), (fc, wood & nez), (4, plain & ez), (fc + 3, wood & ez)):
            if m:
                cls[cost] = cls.get(cost, 0) | m
        got = memo[fc] = (opn, ez, irr, f["noend"], tuple(sorted(cls.items())))
    return got


class _Flood:
    """One unit's flood in a window of whole columns around its start (bits shifted down by
    ``off``): ``layers[k]`` holds the hexes first reached at a cost of exactly ``k`` MP."""

    # What the paths need, and neither the state nor the phase facts: a Reach lives in the
    # facts, and a reference back would make a cycle that only the garbage collector frees.
    __slots__ = (
        "T",
        "neighbours",
        "frozen",
        "ez",
        "dl_out",
        "dld",
        "start",
        "budget",
        "off",
        "layers",
        "q4",
        "fc",
    )

    def __init__(
        self,
        s: State,
        f: dict[str, Any],
        start: int,
        budget: int,
        off: int,
        layers: list[int],
        q4: int,
        fc: int,
    ):
        self.T = terrain(s.rules)
        self.neighbours = s.rules.grid.neighbours
        self.frozen: bool = f["frozen"]
        self.ez: bytearray = f["ez"]
        self.dl_out = self.T.dl_out if f["side"] == GERMAN else {}
        self.dld = s.dl_destroyed
        self.start = start
        self.budget = budget
        self.off = off
        self.layers = layers
        self.q4 = q4
        self.fc = fc

    def left(self) -> dict[int, int]:
        off = self.off
        b = self.budget
        out = {self.start: b}
        for k, m in enumerate(self.layers):
            if k and m:
                rest = b - k * TICKS
                for h in bits_from(m, off):
                    out[h] = rest
        for h in bits_from(self.q4, off):
            out[h] = 0
        return out

    def get(self, h: int) -> int | None:
        """Ticks left on reaching ``h`` (None: not reached), read off the layers."""
        if h == self.start:
            return self.budget
        b = h - self.off
        if b < 0:
            return None
        for k, m in enumerate(self.layers):
            if (m >> b) & 1:
                return self.budget - k * TICKS if k else None
        return 0 if (self.q4 >> b) & 1 else None

    def parent_of(self, n: int) -> int:
        """The hex ``n`` is entered from: of the hexes from which ``n`` costs exactly its points
        left, the one the reference Dijkstra pops first (most points left, then lowest index);
        the start for a [Q4] one-hex move."""
        if (self.q4 >> (n - self.off)) & 1:
            return self.start
        T = self.T
        frozen = self.frozen
        ez = self.ez
        off = self.off
        layers = self.layers
        nb = n - off
        kn = 0
        while not (layers[kn] >> nb) & 1:
            kn += 1
        enter = (self.fc if T.forest[n] else 1) + (3 if ez[n] else 0)
        dl_out = self.dl_out
        dld = self.dld
        best = -1
        best_k = kn
        for h in self.neighbours[n]:
            hb = h - off
            if hb < 0:
                continue
            if not frozen and n not in T.dry[h]:
                continue
            c = enter + (2 if ez[h] else 0)
            dlh = dl_out.get(h)
            if dlh is not None:
                d = dlh.get(n)
                if d is not None and not (dld >> d) & 1:
                    c += 2
            k = kn - c  # the layer h must be in to reach n at its cost through this hexside
            if k < 0 or k > best_k or not (layers[k] >> hb) & 1:
                continue
            if k < best_k or h < best:
                best = h
                best_k = k
        assert best >= 0
        return best


def _flood(s: State, u: int, f: dict[str, Any]) -> Reach:
    """:func:`reach` by whole-MP layers on bitsets. Leaving an enemy ZOC (+2 MP) is charged by
    letting such a hex spread two layers late; hexes next to a lake hexside or a defence-line
    front hexside spread one neighbour at a time. Only the columns within the unit's MP of its
    start take part (a step costs at least 1 MP), at least one either side ([Q4])."""
    rules = s.rules
    spec = rules.units[u]
    budget = remaining(s, u)
    if spec.eb or budget < 0:
        return _dijkstra(s, u, f)
    if spec.side == GERMAN and f["glim"] is not None:
        return _one_hex(s, u, f, budget)
    start = s.loc[u]
    T = terrain(rules)
    fc = 3 if s.is_mech(u) else rules.forest_nonmech_cost
    K = budget // TICKS
    st = T.stride
    col = start // st
    r = K if K else 1  # the [Q4] one-hex move of a unit with under 1 MP reaches the next columns
    c0 = col - r if col > r else 0
    c1 = min(T.columns - 1, col + r)
    wmemo: dict[tuple[int, int, int], Any] = f["flw"]
    wkey = (fc, c0, c1)
    win = wmemo.get(wkey)
    if win is None:
        opn, ez, irr, noend, cls = _flood_masks(s, f, fc)
        off = c0 * st
        wm = (1 << ((c1 - c0 + 1) * st)) - 1
        win = wmemo[wkey] = (
            off,
            (opn >> off) & wm,
            (ez >> off) & wm,
            (irr >> off) & wm,
            (noend >> off) & wm,
            tuple((cost, (m >> off) & wm) for cost, m in cls),
        )
    off, opn_w, ez_w, irr_w, noend_w, cls_w = win
    hl = T.windows.get((c0, c1))
    if hl is None:
        wm = (1 << ((c1 - c0 + 1) * st)) - 1
        hl = T.windows[c0, c1] = ((T.high >> off) & wm, (T.low >> off) & wm)
    hi_w, lo_w = hl
    nez_w = ~ez_w
    reg_w = ~irr_w
    sb = 1 << (start - off)
    notr = opn_w & ~sb
    layers = [sb]
    pend = [0] * (K + 1)
    sm1 = st - 1
    sp1 = st + 1
    for j in range(K + 1):
        if j:
            lj = pend[j] & notr
            notr ^= lj
            layers.append(lj)
            x = lj & nez_w
        else:
            x = sb & nez_w
        if j >= 2:
            x |= layers[j - 2] & ez_w
        if not x:
            continue
        xr = x & reg_w
        if xr:
            hi = xr & hi_w
            lo = xr & lo_w
            e = (
                (xr >> 1)
                | (xr << 1)
                | (xr << st)
                | (xr >> st)
                | (hi << sm1)
                | (hi >> sp1)
                | (lo << sp1)
                | (lo >> sm1)
            ) & notr
            if e:
                for cost, cm in cls_w:
                    k = j + cost
                    if k > K:
                        break
                    pend[k] |= e & cm
        xi = x & irr_w
        if xi:
            _spread_one_by_one(s, f, xi, off, j, K, fc, notr, pend)
    q4 = 0
    if u not in s.spent:
        # [Q4] one-hex minimum: any adjacent enterable hex, never enemy ZOC to enemy ZOC.
        nb = rules.grid.neighbour_mask[start] if f["frozen"] else T.dry_mask[start]
        q4 = (nb >> off) & notr
        if ez_w & sb:
            q4 &= nez_w
    dmask = ((opn_w ^ notr ^ sb) | q4) & ~noend_w
    dsts = bits_from(dmask, off)
    fl = _Flood(s, f, start, budget, off, layers, q4, fc)
    ids = rules.grid.ids
    return Reach(
        start, None, None, None, dsts, fl, dmask << off, (Move, rules.units[u].id, ids[start], ids, "move")
    )


def _spread_one_by_one(
    s: State, f: dict[str, Any], xi: int, off: int, j: int, K: int, fc: int, notr: int, pend: list[int]
) -> None:
    """The hexes of ``xi`` (window bits, spreading at layer ``j``) next to a lake hexside or
    an intact defence-line front hexside: each neighbour at its own cost."""
    T = terrain(s.rules)
    nbrs = s.rules.grid.neighbours if f["frozen"] else T.dry
    blk = f["blk"]
    ez = f["ez"]
    forest = T.forest
    dl_out = T.dl_out if f["side"] == GERMAN else {}
    dld = s.dl_destroyed
    for hb in bit_list(xi):
        h = hb + off
        dlh = dl_out.get(h)
        for n in nbrs[h]:
            if blk[n]:
                continue
            k = j + (fc if forest[n] else 1) + (3 if ez[n] else 0)
            if dlh is not None:
                d = dlh.get(n)
                if d is not None and not (dld >> d) & 1:
                    k += 2
            if k > K:
                continue
            nb = n - off
            if (notr >> nb) & 1:
                pend[k] |= 1 << nb


# -- legal actions ---------------------------------------------------------------------------


def legal(s: State) -> Sequence[Action]:
    if s.step == RELOCATE:
        return _legal_relocate(s)
    if s.step == OVERRUN:
        return list(overrun.legal(s))
    # The per-unit lists below live on unchanged across the phase's states: the parts of a
    # LazyLegal (the env codec keeps their codes by identity), each made only when read (a
    # random player reads the length and one action; the length is known from the
    # destination bitsets).
    full = full_hexes(s)
    # may_move per unit, kept with the phase facts: it reads only the unit's own fields, and
    # keep_facts drops the movers' entries (everything else that changes a unit resets the cache).
    f = facts(s)
    may: dict[int, bool] = f["may"]
    # Each unit's moves for this full-hexes mask, kept across the phase's states: after a move
    # only the mover's part is remade (keep_facts drops it), the rest are reused as they are.
    seg_full, seg = f["seg"]
    if seg_full != full:
        seg = {}
        f["seg"] = (full, seg)
    rules = s.rules
    units = rules.side_units[s.side]
    # After a move only the mover's part is missing: find it (and make it) with one C-level
    # pass, then take every unit's part in order (a Python loop per unit was most of a warm
    # listing).
    for u in [u for u in units if u not in seg]:
        ok = may.get(u)
        if ok is None:
            ok = may[u] = may_move(s, u)
        part = None
        if ok:
            r = reach(s, u)
            n = r.count(full)
            if n:
                part = LazyPart(n, rules.units[u].id, r.without, full, r.item, r)
        seg[u] = part
    # (None for no part: a test of None costs less than LazyPart.__len__)
    parts: list[LazyPart] = [p for p in map(seg.__getitem__, units) if p is not None]
    if s.side == SOVIET:
        tail = rail.add_legal(s, full, parts)  # rail parts, then the (fresh) arrivals
    else:
        tail = _legal_reinforcements(s, full)
    tail.extend(_legal_overruns(s))
    if _may_end(s, full):
        tail.append(END)
    return LazyLegal(parts, tail)


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
    # Thousands of actions per listing, and a relocation seldom changes the target hexes (only
    # when it fills or frees a full hex): each unit's list is memoised by (targets, unit, hex),
    # a pure function of its key, so _apply_relocate carries the memo past the cache reset.
    tkey, memo = s._cache.get("reloc", ((), {}))
    if tkey != targets:
        memo = {}
        s._cache["reloc"] = (targets, memo)
    pick: Any = None
    all_rail = not rail.usable_rail(s) & ~rules.rail_mask  # the targets are usable rail hexes
    ids = rules.grid.ids
    for u in rules.side_units[SOVIET]:
        if rules.units[u].eb and s.loc[u] >= 0 and not (s.relocated >> u) & 1:
            here = s.loc[u]
            got = memo.get((u, here))
            if got is None:
                # The unit's Relocate actions come from its row of the static table (one per
                # rail hex), gathered in C by an itemgetter shared by the units of the listing.
                row = _relocate_row(rules, u)
                if len(targets) > 1 and all_rail:
                    if pick is None:
                        pick = itemgetter(*targets)
                    got = list(pick(row))
                else:  # a target off the map's rail (never, as the rail data stand): made here
                    uid = rules.units[u].id
                    got = [row.get(h) or _tuple_new(Relocate, (uid, ids[h], "relocate")) for h in targets]
                i = bisect_left(targets, here)
                if i < len(targets) and targets[i] == here:
                    del got[i]
                memo[u, here] = got
            out.add_part(got)
    out.append(END)
    return out


_RELOCATE_ROWS: dict[int, tuple[Any, dict[int, dict[int, Relocate]]]] = {}


def _relocate_row(rules: Any, u: int) -> dict[int, Relocate]:
    """Unit ``u``'s row of the static relocation table: its ``Relocate`` to every rail hex of
    the map, built once per rules (the actions are immutable and depend on nothing else)."""
    got = _RELOCATE_ROWS.get(id(rules))
    if got is None or got[0] is not rules:
        got = _RELOCATE_ROWS[id(rules)] = (rules, {})
    rows = got[1]
    row = rows.get(u)
    if row is None:
        uid = rules.units[u].id
        ids = rules.grid.ids
        row = rows[u] = {
            h: _tuple_new(Relocate, (uid, ids[h], "relocate")) for h in bit_list(rules.rail_mask)
        }
    return row


# -- overruns --------------------------------------------------------------------------------


def overrun_candidates(s: State, h: int) -> list[int]:
    """Phasing units adjacent to enemy hex ``h`` that may join an overrun of it: not yet
    committed to one, not disrupted or entrained, allowed to attack (§13), movers of this
    phase (mechanised only in the mechanised phase), not across an unfrozen lake (§3.3)."""
    rules = s.rules
    grid = rules.grid
    stacks = s.stacks
    # Kept with the phase facts (the phase, side, turn, disrupted units and strengths are fixed
    # while they live) by what else it reads: the stacks next to h, entrained and committed units.
    f = s._cache.get("mv")
    key: tuple[Any, ...] = ()
    if f is not None:
        key = (h, s.entrained, s.overran, *[stacks.get(n) for n in grid.neighbours[h]])
        got: list[int] | None = f["ovc"].get(key)
        if got is not None:
            return got
    frozen = s.frozen()
    out = []
    opts = combat.CombatOptions.from_options(rules.options)
    mech_only = rules.phases[s.phase].movers == "mech"
    for n in grid.neighbours[h]:
        us = stacks.get(n, ())
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
    if f is not None:
        f["ovc"][key] = out
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
    # dsts are the hexes reached (left) less the start and the pass-only hexes
    if s.rules.grid.ids[s.loc[u]] != a.src or dst == r.start or dst not in r.dsts:
        raise IllegalActionError(f"{a.unit} cannot reach {a.dst}")
    if len(s.stacks.get(dst, ())) >= STACK_LIMIT:
        raise IllegalActionError(f"{a.dst} already holds {STACK_LIMIT} units")
    path = r.path(dst)
    left = r.rest(dst)
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
