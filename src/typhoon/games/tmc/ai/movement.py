"""Movement plans for the TMC AI: one plan per movement phase, made at its first decision and
played out leg by leg.

A plan gives each unit that may move a destination among the ends of its legs (the engine's
own reach, :func:`typhoon.games.tmc.movement_phase.reach`, cached per phase), chosen greedily
with a running picture of the planned position (units per hex, defence per hex, hexes covered
by the side's units and ZOC):

1. Attack positions: enemy hexes in order of value get the strongest units that can reach a
   hex next to them, until the odds give the best expected VP, plus the cheapest exchange payer
   (:mod:`typhoon.games.tmc.ai.combat`); German mechanised phase: only overrun (11-1) positions.
2. Soviet: a Moscow garrison (units march on Moscow if none can reach it), and the units
   nearest Moscow kept within 3 hexes of it while Germans approach.
3. Every other unit: the best-scoring hex of its reach (:class:`Weights`): German - toward
   Moscow, in supply, not exposed, leaving enemy stacks without a retreat hex; Soviet - where
   its strength stops a likely German attack, forest, river and defence-line hexes, near the
   front, in supply; both - not uncovering the hexes of the front line only it covers.
4. Front repair (§15): while the planned position leaves gap hexes on the best north-south
   chain (typhoon.games.tmc.front), the unit that loses least moves next to a gap hex.

Units that appear during the phase (German reinforcements entering, Soviet reinforcements
arriving by rail, units detraining) get their destination when they can first move. Overruns
(§14) are declared as soon as the units of an 11-1 group stand where the plan wants them.
"""

from __future__ import annotations

import copy
import random
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from typhoon.games.tmc import combat as rules_combat
from typhoon.games.tmc import front, movement_phase
from typhoon.games.tmc.actions import (
    END,
    Action,
    Arrive,
    Detrain,
    Enter,
    JoinOverrun,
    Move,
    Overrun,
    RailMove,
)
from typhoon.games.tmc.ai.board import FAR, Situation, elim_vp
from typhoon.games.tmc.ai.combat import Stakes, best_column, cheap_payer, column_ev, stakes
from typhoon.games.tmc.rules import GERMAN, SOVIET, STACK_LIMIT
from typhoon.games.tmc.state import MOVE, RELOCATE, State
from typhoon.hexgrid import bit_list

R = rules_combat


@dataclass(frozen=True)
class Weights:
    """Weights of the movement rules of thumb (search perturbs them)."""

    advance: float = 1.0  # German: per hex closer to Moscow
    supply: float = 6.0  # leaving the side's supply
    risk: float = 1.0  # expected VP lost to an attack on the planned stack
    cover: float = 0.6  # per hex of the front zone newly covered by unit or ZOC
    terrain: float = 1.0  # Soviet: forest / river hexes
    approach: float = 0.35  # Soviet: per hex too far from the front
    moscow: float = 1.0  # Soviet: per hex beyond 3 from Moscow, for the units of the Moscow ring
    attack_min_ev: float = 0.5  # battles planned only above this expected VP
    line: float = 3.0  # Soviet: per front-chain hex left uncovered by moving away
    pocket: float = 1.0  # German: per VP of enemy stacks left with no retreat hex


RING_MAX, RING_BASE, RING_PER, RING_RADIUS = 80, 20, 4, 3  # the Soviet Moscow ring (_moscow_ring)
MOSCOW_HEX_VP = 40.0  # Soviet: what a Moscow hex is worth beyond its garrison (risk of losing it)

PROB_CACHE: dict[tuple[int, int, int], float] = {}


def p_lost(crt: R.Crt, side: int, col: int, drm: int) -> float:
    """Probability that the defender is eliminated (De, Ex, 1/2Ex, De,Ad) on a column."""
    key = (side, col, drm)
    got = PROB_CACHE.get(key)
    if got is None:
        hits = 0
        for die in range(1, 7):
            if crt.result(side, col, crt.row(die, drm)) in (R.DE, R.EX, R.HALF_EX, R.DE_AD):
                hits += 1
        got = PROB_CACHE[key] = hits / 6
    return got


def front_chain(grid: Any, covered: int, north: int, south: int) -> list[int]:
    """Every hex of one north-south chain with the fewest uncovered hexes (0-1 breadth-first
    search, as :func:`typhoon.games.tmc.front.gap_hexes`, which returns only its gaps)."""
    inf = grid.size + 1
    cost = [inf] * grid.size
    parent = [-1] * grid.size
    queue: deque[int] = deque()
    for h in bit_list(north & grid.all_mask):
        cost[h] = 0 if (covered >> h) & 1 else 1
        if cost[h] == 0:
            queue.appendleft(h)
        else:
            queue.append(h)
    nbrs = grid.neighbours
    while queue:
        h = queue.popleft()
        ch = cost[h]
        for n in nbrs[h]:
            step = 0 if (covered >> n) & 1 else 1
            if ch + step < cost[n]:
                cost[n] = ch + step
                parent[n] = h
                if step == 0:
                    queue.appendleft(n)
                else:
                    queue.append(n)
    ends = bit_list(south & grid.all_mask)
    if not ends:
        return []
    h = min(ends, key=lambda e: (cost[e], e))
    out = []
    while h >= 0:
        out.append(h)
        h = parent[h]
    return out


DEFAULT_WEIGHTS = (  # German, Soviet: §24 ratio (see combat.LOSS_WEIGHT), fewer marginal German battles
    Weights(risk=1.5, attack_min_ev=1.5),
    Weights(risk=0.6),
)


@dataclass
class MovePlan:
    key: tuple[int, int]
    side: int
    targets: dict[int, int] = field(default_factory=dict)  # unit -> hex
    order: list[int] = field(default_factory=list)
    notes: dict[int, str] = field(default_factory=dict)
    overrun_hexes: set[int] = field(default_factory=set)
    goal: int = -1  # where Soviet rail reinforcements head


class Planner:
    """Makes and plays one movement phase's plan."""

    def __init__(
        self,
        s: State,
        *,
        weights: Weights | None = None,
        noise: float = 0.0,
        rng: random.Random | None = None,
        notes: bool = True,
    ) -> None:
        self.w = weights or DEFAULT_WEIGHTS[s.side]
        self.noise = noise
        self.rng = rng or random.Random(0)
        self.with_notes = notes
        self.side = s.side
        self.sit = Situation(s, s.side)
        self.board = self.sit.board
        self.grid = s.rules.grid
        self.count: dict[int, int] = {h: len(us) for h, us in s.stacks.items()}
        self.dfn: dict[int, float] = {}
        self.vp: dict[int, float] = {}
        for h, us in s.stacks.items():
            if s.rules.units[us[0]].side == s.side:
                self.dfn[h] = float(sum((self.sit.defence_of(u) for u in us), Fraction(0)))
                self.vp[h] = float(sum(elim_vp(s, u) for u in us))
        self.accounted = {u for u in s.rules.side_units[s.side] if s.loc[u] >= 0}
        self.plan = MovePlan((s.turn, s.phase), s.side)
        self.done: set[int] = set()
        self.railed: set[int] = set()
        self.lazy_done: set[int] = set()
        self.front_zone = self._front_zone()
        self.covered = 0
        self.zoc_planned = self.sit.own_zoc  # the side's ZOC, current and planned (a union)
        self.turns_left = max(1, s.rules.last_turn - s.turn + 1)
        self.unique: dict[int, int] = {}  # unit -> front-chain hexes only it covers now
        self.ring: set[int] = set()  # Soviet units kept near Moscow
        self.held: set[int] = set()  # units the front repair may not take (attackers, garrison)
        # Hexes behind an intact defence-line front hexside (§19: a German attack across it is -2).
        self.dl_inner = 0
        if self.side == SOVIET:
            for k, (_, _, inner) in enumerate(s.rules.dl_sides):
                if not (s.dl_destroyed >> k) & 1:
                    self.dl_inner |= 1 << inner
        if s.step == MOVE:
            self._make(s)

    # -- the plan ------------------------------------------------------------------------------

    def _front_zone(self) -> int:
        ed = self.sit.enemy_dist()
        zone = 0
        lo, hi = (1, 4) if self.side == GERMAN else (1, 6)
        for h in self.grid.hexes:
            if lo <= ed[h] <= hi:
                zone |= 1 << h
        return zone

    def _make(self, s: State) -> None:
        rules = s.rules
        movers = [u for u in rules.side_units[self.side] if movement_phase.may_move(s, u)]
        self.reach = {u: movement_phase.reach(s, u) for u in movers}
        if self.w.line > 0:
            self._line_keep(s)
        fixed = [u for u in rules.side_units[self.side] if s.loc[u] >= 0 and u not in self.reach]
        for u in fixed:
            self._cover(s, u, s.loc[u])
        mech_phase = rules.phases[s.phase].movers == "mech"
        if self.side == GERMAN or rules.opt("overrun_by") != "german":
            self._attack_positions(s, movers, overrun_only=mech_phase)
        if self.side == SOVIET:
            self._moscow_garrison(s, movers)
            self._moscow_ring(s, movers)
            self.plan.goal = self._rail_goal(s)
        ed = self.sit.enemy_dist()
        rest = [u for u in movers if u not in self.plan.targets]
        rest.sort(key=lambda u: (ed[s.loc[u]], -s.cf(u), u))
        for u in rest:
            self._assign(s, u, self.reach[u])
        self._repair_front(s, movers)
        # Attackers first (their hexes matter most), then the rest in plan order.
        self.plan.order = [u for u in self.plan.order if u in self.plan.targets]

    def _where(self, s: State, u: int) -> int:
        """The hex where ``u`` is counted in the planned position (-1: not counted)."""
        h = self.plan.targets.get(u, -1)
        if h >= 0:
            return h
        return s.loc[u] if u in self.accounted else -1

    def _claim(self, s: State, u: int, h: int, note: str) -> None:
        old = self._where(s, u)
        v = float(elim_vp(s, u))
        if old >= 0:
            self.count[old] = self.count.get(old, 1) - 1
            self.dfn[old] = max(0.0, self.dfn.get(old, 0.0) - float(self.sit.defence_of(u, old)))
            self.vp[old] = max(0.0, self.vp.get(old, 0.0) - v)
        self.count[h] = self.count.get(h, 0) + 1
        self.dfn[h] = self.dfn.get(h, 0.0) + float(self.sit.defence_of(u, h))
        self.vp[h] = self.vp.get(h, 0.0) + v
        if u not in self.plan.targets:
            self.plan.order.append(u)
        self.plan.targets[u] = h
        if self.with_notes:
            self.plan.notes[u] = note
        self._cover(s, u, h)

    def _cover(self, s: State, u: int, h: int) -> None:
        if s.rules.units[u].eb:
            self.covered |= 1 << h
        else:
            self.covered |= (1 << h) | self.grid.neighbour_mask[h]
            self.zoc_planned |= self.grid.neighbour_mask[h]

    def _room(self, h: int) -> bool:
        return self.count.get(h, 0) < STACK_LIMIT

    # attack and overrun positions --------------------------------------------------------------

    def _attack_positions(self, s: State, movers: list[int], overrun_only: bool) -> None:
        sit = self.sit
        grid = self.grid
        lake = s.rules.map.lake_mask
        frozen = sit.cond.frozen
        dmask: dict[int, int] = {}
        for u in movers:
            if s.rules.units[u].eb or s.cf(u) <= 0 or s.rules.units[u].bracket:
                continue
            r = self.reach[u]
            m = 1 << s.loc[u]
            for d in r.dsts:
                m |= 1 << d
            dmask[u] = m
        if not dmask:
            return
        near = 0
        for m in dmask.values():
            near |= m
        targets = bit_list(grid.expand(near) & sit.enemy_occ)
        scored: list[tuple[float, int]] = []
        for t in targets:
            us = s.stacks.get(t, ())
            if len(us) == 1 and s.rules.units[us[0]].bracket:
                continue
            dfn = sit.hex_defence(t)
            if dfn <= 0:
                continue
            vd = sit.hex_vp(t)
            forest = (self.board.forest >> t) & 1
            scored.append((vd / float(dfn) - 0.5 * forest - 0.02 * self.board.dist_moscow[t], t))
        if self.noise > 0:
            scored = [(v + self.rng.gauss(0, self.noise * 0.3), t) for v, t in scored]
        scored.sort(reverse=True)
        used: set[int] = set()
        for _, t in scored:
            adj = grid.neighbour_mask[t]
            if not frozen:
                adj &= ~lake[t]
            # A Soviet unit that alone holds part of the front line stays in it (the Germans
            # attack with what they have and close gaps afterwards).
            keep = self.unique if self.side == SOVIET else {}
            cands = [u for u, m in dmask.items() if u not in used and m & adj and not keep.get(u)]
            if not cands:
                continue
            self._plan_battle(s, t, adj, cands, dmask, used, overrun_only)

    def _plan_battle(
        self,
        s: State,
        t: int,
        adj: int,
        cands: list[int],
        dmask: dict[int, int],
        used: set[int],
        overrun_only: bool,
    ) -> None:
        """Attackers for enemy hex ``t``: the strongest first, each to the hex next to ``t`` it
        can reach (staying if already there; not across a river; room to stack; nearest
        Moscow), as many as give the best expected VP, plus the cheapest exchange payer if
        that is better (an overrun must reach 11-1, §14.1)."""
        sit = self.sit
        side = self.side
        crt = sit.crt
        river = s.rules.map.river_mask
        defenders = s.stacks.get(t, ())
        dfn = sit.hex_defence(t)
        cands.sort(key=lambda u: -float(sit.attack_of(u)))
        placed: list[tuple[int, int]] = []
        extra: dict[int, int] = {}
        for u in cands:
            opts = [
                h
                for h in bit_list(dmask[u] & adj)
                if h == s.loc[u] or self.count.get(h, 0) + extra.get(h, 0) < STACK_LIMIT
            ]
            if not opts:
                continue
            h = min(
                opts,
                key=lambda x: (
                    x != s.loc[u],
                    (river[x] >> t) & 1,
                    -self.count.get(x, 0),
                    self.board.dist_moscow[x],
                ),
            )
            if not sit.in_supply_at(side, h) and sit.in_supply_at(side, s.loc[u]):
                continue
            placed.append((u, h))
            if h != s.loc[u]:
                extra[h] = extra.get(h, 0) + 1

        def value(group: list[tuple[int, int]]) -> float:
            att = sum((sit.attack_of(u, h) for u, h in group), Fraction(0))
            col = R.odds_index(crt, att, dfn, side, sit.cond)
            if overrun_only and col < crt.top:
                return -1e9
            drm = self._drm(s, t, [h for _, h in group])
            st = self._stakes(s, [u for u, _ in group], defenders, t)
            if overrun_only:
                return column_ev(crt, side, crt.top, drm, st)
            return best_column(crt, side, col, drm, st)[1] - 0.05 * len(group)

        best: tuple[float, list[tuple[int, int]]] = (-1e9, [])
        for k in range(1, len(placed) + 1):
            v = value(placed[:k])
            if v > best[0] + 1e-9:
                best = (v, placed[:k])
            att = sum((sit.attack_of(u, h) for u, h in placed[:k]), Fraction(0))
            if R.odds_index(crt, att, dfn, side, sit.cond) >= crt.top:
                break
        if best[1]:
            rest = [u for u, _ in placed if all(u != x for x, _ in best[1])]
            payer = cheap_payer(s, rest, sum(s.cf(d) for d in defenders))
            if payer is not None:
                g2 = [*best[1], next(p for p in placed if p[0] == payer)]
                v = value(g2)
                if v > best[0] + 1e-9:
                    best = (v, g2)
        if not best[1] or best[0] < self.w.attack_min_ev:
            return
        what = "overrun" if overrun_only else "attack"
        ids = s.rules.grid.ids
        for u, h in best[1]:
            used.add(u)
            self.held.add(u)
            self._claim(s, u, h, f"moves to {ids[h]} to {what} {ids[t]} (expected {best[0]:+.1f} VP)")
        if overrun_only:
            self.plan.overrun_hexes.add(t)

    def _drm(self, s: State, t: int, hexes: list[int]) -> int:
        from typhoon.games.tmc import combat_phase

        return R.terrain_drm(
            s.rules.map,  # type: ignore[arg-type]
            (t,),
            hexes,
            self.side,
            self.sit.cond,
            combat_phase.intact_front(s),
        ).value

    def _stakes(self, s: State, attackers: list[int], defenders: Sequence[int], t: int) -> Stakes:
        return stakes(s, self.sit, attackers, defenders, (t,))

    # Soviet specials ---------------------------------------------------------------------------

    def _moscow_garrison(self, s: State, movers: list[int]) -> None:
        moscow = s.rules.map.moscow
        ed = self.sit.enemy_dist()
        near = min(ed[h] for h in moscow)
        # Far from the Germans one unit in one Moscow hex is enough; closer, every hex, two
        # units each once they are within five hexes, three within three.
        want = 1 if near > 5 else 2 if near > 3 else 3
        hexes = moscow[:1] if near > 8 else moscow
        short = 0
        for h in hexes:
            have = sum(1 for u in s.stacks.get(h, ()) if s.rules.units[u].side == SOVIET)
            have += sum(1 for u, x in self.plan.targets.items() if x == h and s.loc[u] != h)
            if have >= want:
                # Units already there stay.
                for u in s.stacks.get(h, ())[:want]:
                    if u in self.reach and u not in self.plan.targets:
                        self._claim(s, u, h, "holds Moscow")
                        self.held.add(u)
                continue
            for u in s.stacks.get(h, ()):
                if u in self.reach and u not in self.plan.targets:
                    self._claim(s, u, h, "holds Moscow")
                    self.held.add(u)
            cands = [
                u
                for u in movers
                if u not in self.plan.targets and not s.rules.units[u].eb and h in self.reach[u].left
            ]
            cands.sort(key=lambda u: (self.board.dist_moscow[s.loc[u]], -s.cf(u)))
            for u in cands[: max(0, want - have)]:
                if self._room(h):
                    self._claim(s, u, h, "garrisons Moscow")
                    self.held.add(u)
                    have += 1
            short += max(0, want - have)
        # Nobody can reach the missing places this phase: the nearest units march on Moscow
        # (holding it at the end is worth 50 VP, §23).
        dm = self.board.dist_moscow
        marchers = sorted(
            (u for u in movers if u not in self.plan.targets and not s.rules.units[u].eb),
            key=lambda u: (dm[s.loc[u]], -s.cf(u), u),
        )
        for u in marchers[:short]:
            r = self.reach[u]
            best = min((d for d in r.dsts if self._room(d)), key=lambda d: (dm[d], d), default=s.loc[u])
            if dm[best] < dm[s.loc[u]]:
                self._claim(s, u, best, f"marches on Moscow ({s.rules.grid.ids[best]})")
                self.held.add(u)

    def _moscow_ring(self, s: State, movers: list[int]) -> None:
        """Soviet: the units nearest Moscow, 20 + 4 per German unit within 10 hexes of it (at
        most 80), keep within 3 hexes of it (§23: Moscow is worth 50 + 50 VP, and every German
        unit that ends within 3 hexes 10). Compared on scenarios 11, 15 and 21 (3 games each)
        with 6 + 2 per German unit (at most 30): Moscow held more often in 15, a little worse
        in 21; a thinner ring 4-6 hexes out lost Moscow in 15."""
        dm = self.board.dist_moscow
        close = sum(1 for u in s.rules.side_units[GERMAN] if s.loc[u] >= 0 and dm[s.loc[u]] <= 10)
        if not close:
            return
        k = min(RING_MAX, RING_BASE + RING_PER * close)
        pool = sorted((u for u in movers if not s.rules.units[u].eb), key=lambda u: (dm[s.loc[u]], u))
        self.ring = set(pool[:k])

    def _rail_goal(self, s: State) -> int:
        """Where Soviet reinforcements go by rail: in front of the German spearhead nearest
        Moscow (two hexes from it), else Moscow."""
        if not s.occ[SOVIET] & s.rules.map.moscow_mask:
            return s.rules.map.moscow[0]  # Moscow empty: the first trains go there
        ed = self.sit.enemy_dist()
        dm = self.board.dist_moscow
        best = -1
        for h in self.grid.hexes:
            if ed[h] == 2 and (best < 0 or dm[h] < dm[best]):
                best = h
        return best if best >= 0 else s.rules.map.moscow[0]

    # scoring -----------------------------------------------------------------------------------

    def score(self, s: State, u: int, h: int) -> float:
        w = self.w
        sit = self.sit
        b = self.board
        side = self.side
        v = 0.0
        here = s.loc[u]
        if not sit.in_supply_at(side, h) and sit.in_supply_at(side, here):
            v -= w.supply
        eb = s.rules.units[u].eb
        if eb:
            if side == GERMAN:
                # Forward along the rail (repairing it), never next to the enemy.
                v -= w.advance * b.dist_moscow[h]
                if (sit.enemy_zoc >> h) & 1:
                    v -= 20.0
                return v
            return -0.1 * b.dist_moscow[h] - (20.0 if (sit.enemy_zoc >> h) & 1 else 0.0)
        # The planned stack's expected loss to an enemy attack, before and after this unit joins.
        d0 = self.dfn.get(h, 0.0)
        vp0 = self.vp.get(h, 0.0)
        if self._where(s, u) == h:
            d0 = max(0.0, d0 - float(sit.defence_of(u, h)))
            vp0 = max(0.0, vp0 - float(elim_vp(s, u)))
        d1 = d0 + float(sit.defence_of(u, h))
        vp1 = vp0 + float(elim_vp(s, u))
        threat = sit.threat()[h] * 0.5
        if threat > 0:
            drm = -2 if (b.forest >> h) & 1 else (-1 if b.river_count[h] >= 3 else 0)
            enemy = 1 - side
            # A Moscow hex lost is worth far more than its garrison (§23: 50 VP for taking
            # Moscow, 50 for holding it at the end): the stack there is valued with it.
            stake = MOSCOW_HEX_VP if side == SOVIET and (s.rules.map.moscow_mask >> h) & 1 else 0.0
            r0 = self._loss(enemy, threat, d0, drm) * (vp0 + stake) if d0 > 0 else stake
            r1 = self._loss(enemy, threat, d1, drm) * (vp1 + stake)
            v -= w.risk * (r1 - r0)
        mine = (1 << h) | self.grid.neighbour_mask[h]
        lost = self.unique.get(u, 0) & ~mine
        if lost:
            v -= w.line * lost.bit_count()
        new_cover = mine & ~self.covered & self.front_zone
        v += w.cover * new_cover.bit_count()
        ed = sit.enemy_dist()[h]
        if side == GERMAN:
            v -= w.advance * b.dist_moscow[h]
            if w.pocket > 0:
                v += w.pocket * self._trapped_vp(s, h)
        else:
            v += w.terrain * (
                ((b.forest >> h) & 1) + 0.2 * b.river_count[h] + 0.5 * ((self.dl_inner >> h) & 1)
            )
            v -= w.approach * max(0, ed - 3) if ed < FAR else w.approach * 6
            if (s.rules.map.moscow_mask >> h) & 1 and self.count.get(h, 0) < 2:
                v += 1.0
            if u in self.ring:
                v -= w.moscow * max(0, b.dist_moscow[h] - RING_RADIUS)
        if self.noise > 0:
            v += self.rng.gauss(0.0, self.noise)
        return v

    def _trapped_vp(self, s: State, h: int) -> float:
        """VP of the enemy stacks near ``h`` that a unit of ours on ``h`` would leave with no
        retreat hex (enemy-occupied or in our ZOC without a friendly unit, §12, [Q28]): a Dr
        or Br against them then eliminates them, and they are on the way to being cut off."""
        sit = self.sit
        nm = self.grid.neighbour_mask
        near = self.grid.within(h, 2) & sit.enemy_occ & ~(1 << h)
        if not near:
            return 0.0
        lake = s.rules.map.lake_mask
        frozen = sit.cond.frozen
        mine = sit.own_occ | (1 << h)
        zoc0 = self.zoc_planned
        zoc1 = zoc0 | nm[h]
        total = 0.0
        for x in bit_list(near):
            m = nm[x] if frozen else nm[x] & ~lake[x]
            m &= ~mine
            before = m & ~(zoc0 & ~sit.enemy_occ)
            after = m & ~(zoc1 & ~sit.enemy_occ)
            if before and not after:
                total += sit.hex_vp(x)
        return total

    def _loss(self, attacker: int, threat: float, dfn: float, drm: int) -> float:
        if dfn <= 0:
            return 1.0
        crt = self.sit.crt
        col = R.odds_index(
            crt,
            Fraction(threat).limit_denominator(8),
            Fraction(dfn).limit_denominator(8),
            attacker,
            self.sit.cond,
        )
        return p_lost(crt, attacker, col, drm)

    def _best_dst(self, s: State, u: int, r: Any) -> tuple[int, float]:
        here = s.loc[u]
        best_h = here
        best_v = self.score(s, u, here)
        for d in r.dsts:
            if not self._room(d):
                continue
            v = self.score(s, u, d)
            if v > best_v:
                best_h, best_v = d, v
        return best_h, best_v

    def _assign(self, s: State, u: int, r: Any) -> None:
        h, v = self._best_dst(s, u, r)
        ids = s.rules.grid.ids
        if h == s.loc[u]:
            self._claim(s, u, h, f"stays in {ids[h]} (score {v:.1f})")
        else:
            self._claim(s, u, h, f"moves to {ids[h]} (score {v:.1f})")

    # front repair (§15) ------------------------------------------------------------------------

    def _planned_cover(self, s: State) -> int:
        occ = 0
        zoc_units = 0
        for u in s.rules.side_units[self.side]:
            h = self.plan.targets.get(u, s.loc[u])
            if h < 0:
                continue
            occ |= 1 << h
            if not s.rules.units[u].eb:
                zoc_units |= 1 << h
        return occ | self.grid.expand(zoc_units)

    def _line_keep(self, s: State) -> None:
        """The hexes of the best north-south chain that only one unit covers now; a
        unit that leaves such hexes uncovered pays for each (it would open a gap, §15)."""
        m = s.rules.map
        cover = self._planned_cover(s)
        chain = front_chain(self.grid, cover, m.edges["north"], m.edges["south"])
        counts = self._cover_counts(s)
        self.unique = {}
        nm = self.grid.neighbour_mask
        for x in chain:
            if counts.get(x, 0) != 1:
                continue
            for u in s.rules.side_units[self.side]:
                h = s.loc[u]
                if h >= 0 and (h == x or (not s.rules.units[u].eb and (nm[h] >> x) & 1)):
                    self.unique[u] = self.unique.get(u, 0) | (1 << x)
                    break

    def _cover_counts(self, s: State) -> dict[int, int]:
        """Per hex: how many of the side's units cover it (unit or ZOC) in the planned position."""
        counts: dict[int, int] = {}
        nbrs = self.grid.neighbours
        for u in s.rules.side_units[self.side]:
            h = self.plan.targets.get(u, s.loc[u])
            if h < 0:
                continue
            counts[h] = counts.get(h, 0) + 1
            if not s.rules.units[u].eb:
                for n in nbrs[h]:
                    counts[n] = counts.get(n, 0) + 1
        return counts

    def _gaps(self, s: State) -> int:
        m = s.rules.map
        cover = self._planned_cover(s)
        return front.path_gaps(
            self.grid.expand, self.grid.all_mask, m.edges["north"], m.edges["south"], cover
        )

    def _repair_front(self, s: State, movers: list[int]) -> None:
        """Close gap hexes of the planned front, one unit at a time, keeping a move only if the
        planned gap count drops (a unit pulled out of the line would just move the gap)."""
        m = s.rules.map
        north, south = m.edges["north"], m.edges["south"]
        held = set(self.held)  # attackers and the Moscow garrison keep their hexes
        free = [u for u in movers if not s.rules.units[u].eb and u not in held]
        # A gap costs 1 VP a player turn while it stays open (twice as dear to the Germans, §24).
        limit = (3.0 + 2.0 * self.turns_left) * (2.0 if self.side == GERMAN else 1.0)
        nm = self.grid.neighbour_mask
        gaps = self._gaps(s)
        tries = 0
        while gaps and tries < 40:
            cover = self._planned_cover(s)
            holes = front.gap_hexes(self.grid, cover, north, south)
            progress = False
            for g in holes:
                if (self._planned_cover(s) >> g) & 1:
                    continue
                want = (1 << g) | nm[g]
                options: list[tuple[float, int, int]] = []
                for u in free:
                    cur = self.plan.targets.get(u, s.loc[u])
                    if (want >> cur) & 1:
                        continue
                    base = self.score(s, u, cur)
                    best_d: tuple[float, int] | None = None
                    for d in self.reach[u].dsts:
                        if (want >> d) & 1 and self._room(d):
                            loss = base - self.score(s, u, d)
                            if best_d is None or loss < best_d[0]:
                                best_d = (loss, d)
                    if best_d is not None and best_d[0] < limit:
                        options.append((best_d[0], u, best_d[1]))
                options.sort()
                for _loss, u, d in options[:4]:
                    tries += 1
                    old = self.plan.targets.get(u, s.loc[u])
                    note = self.plan.notes.get(u, "")
                    self._claim(s, u, d, f"moves to {s.rules.grid.ids[d]} to close a gap in the front")
                    now = self._gaps(s)
                    if now < gaps:
                        gaps = now
                        free.remove(u)
                        progress = True
                        break
                    self._claim(s, u, old, note)
                if not gaps:
                    return
            if not progress:
                return

    def fork(self) -> Planner:
        """A copy to play the same plan again from the position it was made for (search)."""
        p = copy.copy(self)
        p.plan = MovePlan(
            self.plan.key,
            self.plan.side,
            dict(self.plan.targets),
            list(self.plan.order),
            dict(self.plan.notes),
            set(self.plan.overrun_hexes),
            self.plan.goal,
        )
        p.count = dict(self.count)
        p.dfn = dict(self.dfn)
        p.vp = dict(self.vp)
        p.done = set(self.done)
        p.lazy_done = set(self.lazy_done)
        p.railed = set(self.railed)
        p.held = set(self.held)
        return p

    def signature(self) -> tuple[tuple[int, int], ...]:
        return tuple(sorted(self.plan.targets.items()))

    # -- playing the plan --------------------------------------------------------------------------

    def next_action(self, s: State, actions: Sequence[Action]) -> tuple[Action, str]:
        if s.step == RELOCATE:
            return END, "no EB relocation"
        acts = actions
        ids = s.rules.grid.ids
        units = s.rules.units
        kinds = {a.kind for a in acts}
        if "overrun" in kinds:
            a = self._overrun(s, acts)
            if a is not None:
                return a, f"overrun {a.hex} at 11-1"
        if "join" in kinds:
            a1 = self._join(s, acts)
            if a1 is not None:
                return a1, f"{a1.unit} joins the overrun of {a1.hex}: an exchange is paid with infantry"
        if "enter" in kinds:
            a2 = self._enter(s, acts)
            if a2 is not None:
                return a2, f"reinforcement {a2.unit} enters at {a2.hex}, nearest the front"
        if "arrive" in kinds:
            a3 = self._arrive(s, acts)
            if a3 is not None:
                return (
                    a3,
                    f"reinforcement {a3.unit} arrives by rail at {a3.hex}, toward {ids[self.plan.goal]}",
                )
        if "railmove" in kinds or "detrain" in kinds:
            a4 = self._rail(s, acts)
            if a4 is not None:
                return a4, f"{getattr(a4, 'unit', '')} rides the rail toward {ids[self.plan.goal]}"
        for u in self.plan.order:
            if u in self.done:
                continue
            h = self.plan.targets[u]
            if s.loc[u] == h or not movement_phase.may_move(s, u):
                self.done.add(u)
                continue
            a5 = Move(units[u].id, ids[s.loc[u]], ids[h])
            if a5 in acts:
                self.done.add(u)
                return a5, f"{units[u].id} {self.plan.notes.get(u, '')}"
        # Units with no destination yet: they arrived or detrained during the phase.
        for u in s.rules.side_units[self.side]:
            if u in self.plan.targets or u in self.lazy_done or s.loc[u] < 0:
                continue
            self.lazy_done.add(u)
            if not movement_phase.may_move(s, u):
                continue
            r = movement_phase.reach(s, u)
            self._assign(s, u, r)
            h = self.plan.targets[u]
            if h != s.loc[u]:
                a6 = Move(units[u].id, ids[s.loc[u]], ids[h])
                if a6 in acts:
                    self.done.add(u)
                    return a6, f"{units[u].id} {self.plan.notes.get(u, '')}"
        if END in acts:
            return END, "end of the movement phase: every unit is where the plan wants it"
        return acts[0], "the only way on"

    def _overrun(self, s: State, acts: Sequence[Action]) -> Overrun | None:
        """The best 11-1 overrun whose units stand where the plan wants them, valued with the
        cheapest adjacent unit that could join it to pay an exchange (:meth:`_join`)."""
        index = s.rules.grid.index
        best: tuple[float, Overrun] | None = None
        for a in acts:
            if not isinstance(a, Overrun):
                continue
            us = [s.rules.unit_index[x] for x in a.units]
            if any(
                u in self.plan.targets and u not in self.done and self.plan.targets[u] != s.loc[u] for u in us
            ):
                continue  # wait until they stand where the plan wants them
            t = index[a.hex]
            defenders = s.stacks.get(t, ())
            others = [
                u
                for u in movement_phase.overrun_candidates(s, t)
                if u not in us and not s.is_mech(u) and self.plan.targets.get(u, s.loc[u]) == s.loc[u]
            ]
            payer = cheap_payer(s, others, sum(s.cf(d) for d in defenders))
            group = us if payer is None else [*us, payer]
            st = stakes(s, self.sit, group, defenders, (t,))
            drm = self._drm(s, t, [s.loc[u] for u in group])
            ev = column_ev(self.sit.crt, self.side, self.sit.crt.top, drm, st)
            if ev > 0 and (best is None or ev > best[0]):
                best = (ev, a)
        return best[1] if best else None

    def _join(self, s: State, acts: Sequence[Action]) -> JoinOverrun | None:
        """An infantry unit next to an overrun made by armour alone joins it, so that an Ex
        result costs an infantry unit rather than an armoured one becoming a KG (§8, §14.5)."""
        index = s.rules.grid.index
        for a in acts:
            if not isinstance(a, JoinOverrun):
                continue
            u = s.rules.unit_index[a.unit]
            if s.is_mech(u) or s.rules.units[u].eb or s.cf(u) <= 0:
                continue
            if u in self.plan.targets and self.plan.targets[u] != s.loc[u] and u not in self.done:
                continue
            h = index[a.hex]
            p = next((o for o in s.overruns if o.hex == h), None)
            if p is None or not all(s.is_mech(x) for x in p.attackers):
                continue
            quota = sum(s.cf(d) for d in p.defenders)
            if s.cf(u) >= quota:
                return a
        return None

    def _enter(self, s: State, acts: Sequence[Action]) -> Enter | None:
        index = s.rules.grid.index
        dm = self.board.dist_moscow
        best: Enter | None = None
        for a in acts:
            if isinstance(a, Enter) and (best is None or dm[index[a.hex]] < dm[index[best.hex]]):
                best = a
        return best

    def _arrive(self, s: State, acts: Sequence[Action]) -> Arrive | None:
        index = s.rules.grid.index
        goal = self.plan.goal
        if goal < 0:
            goal = s.rules.map.moscow[0]
            self.plan.goal = goal
        best: Arrive | None = None
        dist = self.grid.distance
        for a in acts:
            if isinstance(a, Arrive) and (
                best is None or dist(index[a.hex], goal) < dist(index[best.hex], goal)
            ):
                best = a
        return best

    def _rail(self, s: State, acts: Sequence[Action]) -> Action | None:
        index = s.rules.grid.index
        goal = self.plan.goal if self.plan.goal >= 0 else s.rules.map.moscow[0]
        dist = self.grid.distance
        by_unit: dict[str, list[Action]] = {}
        for a in acts:
            if isinstance(a, (RailMove, Detrain)):
                by_unit.setdefault(a.unit, []).append(a)
        for uid, la in by_unit.items():
            u = s.rules.unit_index[uid]
            here = dist(s.loc[u], goal)
            moves = [a for a in la if isinstance(a, RailMove)]
            if moves and u not in self.railed:
                m = min(moves, key=lambda a: dist(index[a.dst], goal))
                if dist(index[m.dst], goal) <= here - 2:
                    self.railed.add(u)
                    return m
            for a in la:
                if isinstance(a, Detrain):
                    return a
        return None


__all__ = ["DEFAULT_WEIGHTS", "MovePlan", "Planner", "Weights", "front_chain", "p_lost"]
