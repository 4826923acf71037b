"""Rules of thumb for movement, as scores of a unit ending its move on a hex.

German: before combat, panzers go where they raise the odds of an attack or close the last
retreat path of a Soviet unit (surrounded, any retreat result destroys it); after combat,
every unit pushes towards Moscow, keeps touch with its neighbours, takes cities, and avoids
standing alone where Soviet units can strike it at good odds.

Soviet: hold a line whose zones of control bar the German roads to Moscow, in forests,
fortifications and behind rivers; do not stand where the panzers can mass against a weak
unit with no way out; keep Moscow garrisoned, more strongly as the end nears; take back
cities the Germans left empty (above all Moscow on the last turn).

Weights are in strength points, like the combat values of :mod:`typhoon.ai.combat`.
"""

from __future__ import annotations

from dataclasses import dataclass

from typhoon.ai.board import approach_cost, board_of
from typhoon.ai.combat import ELIM_BONUS, MY_W, attack_halves, battle_value, vacate_value
from typhoon.games.bfm.rules import GERMAN, SOVIET
from typhoon.games.bfm.state import State
from typhoon.hexgrid import HexGrid, bits
from typhoon.mechanics.retreat import retreat_paths


@dataclass
class Weights:
    """Tunable weights of the movement rules of thumb (search perturbs them)."""

    progress: float = 1.0  # German: per movement point nearer Moscow
    contact: float = 0.8  # German: per adjacent Soviet unit after combat
    cohesion: float = 0.5  # per friendly neighbour (up to two)
    exposure: float = 1.0  # multiplier of the expected loss where the enemy can strike
    support: float = 1.0  # German panzer phase: value added to the coming battles
    cover: float = 1.6  # Soviet: per zone-of-control hex barring a German road
    terrain: float = 2.0  # Soviet: per column shift the hex gives a defender
    river: float = 0.7  # Soviet: per river hexside facing the Germans
    moscow: float = 1.0  # garrison of Moscow and its ring
    city: float = 2.0  # taking an enemy-held city


def _risk(
    s: State, b_probs: dict[str, float], steps: int, strength: int, loss_pts: int, surrounded: bool
) -> tuple[float, float, float]:
    """(expected points lost, P(eliminated), P(hex emptied)) of a defender on a column."""
    pts = p_elim = p_vac = 0.0
    for r, p in b_probs.items():
        if not p or r in ("NE", "AL"):
            continue
        p_vac += p
        if r == "DE" or surrounded or (r in ("DRL", "EX") and steps == 1):
            pts += p * strength
            p_elim += p
        elif r in ("DRL", "EX"):
            pts += p * loss_pts
    return pts, p_elim, p_vac


class GermanScorer:
    """Scores for the German panzer movement phase (``before_combat``) and movement phase."""

    def __init__(self, s: State, w: Weights | None = None, before_combat: bool = False):
        # Before combat a score depends on units placed near the targets (4 hexes); after,
        # only on neighbours.
        self.radius = 4 if before_combat else 1
        self.s = s
        self.w = w or Weights()
        self.before_combat = before_combat
        rules = s.rules
        self.rules = rules
        self.b = b = board_of(rules)
        grid = rules.map.grid
        self.grid = grid
        self.turn = s.turn
        self.last_turn = rules.last_turn
        movers = [u for u in rules.side_units[GERMAN] if s.loc[u] >= 0 and _movable(s, u)]
        self.mover_set = set(movers)
        self.fixed_occ = s.occ[GERMAN]
        for u in movers:
            self.fixed_occ &= ~(1 << s.loc[u])
        self.planned: dict[int, int] = {}  # hex -> unit
        self.plan_occ = self.fixed_occ
        sov = [u for u in rules.side_units[SOVIET] if s.loc[u] >= 0]
        self.sov = sov
        self.sov_occ = s.occ[SOVIET]
        self.sov_zoc = grid.expand(self.sov_occ)
        # Soviet strike on a hex in their coming combat phase: units next to it now, and
        # units that can reach it by rail first (half weight: they may be wanted elsewhere).
        mud_halves = s.is_mud()
        self.threat = [0.0] * grid.size
        for u in sov:
            st = s.strength(u) * (1 if mud_halves and rules.halved_in_mud(u) else 2)
            for n in grid.neighbours[s.loc[u]]:
                self.threat[n] += st
            if rules.map.is_rail(s.loc[u]):
                reach = _rail_reach(s, s.loc[u], 4, s.occ[GERMAN])
                for x in bits(reach & ~grid.neighbour_mask[s.loc[u]]):
                    for n in grid.neighbours[x]:
                        self.threat[n] += 0.25 * st
        # Before combat: value of each Soviet target with the units that can strike it.
        self.targets: dict[int, float] = {}
        if before_combat:
            for d in sov:
                self.targets[d] = self._target_value(d, self.plan_occ, self.planned)
        self.moscow_open = not (s.occ[SOVIET] & b.moscow_mask)

    # -- scoring -------------------------------------------------------------------------

    def score(self, u: int, h: int) -> float:
        s, b, w = self.s, self.b, self.w
        rules = self.rules
        spec = rules.units[u]
        val = 0.0
        late = max(0, self.turn - 3)
        prog_w = w.progress * (0.25 if self.before_combat else 1.0) * (1.0 + 0.15 * late)
        val -= prog_w * b.mcost[h]
        # Taking cities (the destination; cities passed through count in move_action).
        if (b.city_mask >> h) & 1 and s.city_controller_at(h) != GERMAN:
            val += w.city * (1.0 if rules.victory != "moscow" else 0.25)
        if (b.moscow_mask >> h) & 1:
            val += 10.0 + 6.0 * late
        nb = b.nmask[h]
        friends = (nb & self.plan_occ).bit_count()
        val += w.cohesion * min(friends, 2)
        adj_sov = nb & self.sov_occ
        if not self.before_combat:
            k = adj_sov.bit_count()
            val += w.contact * min(k, 2) * (1.0 if not spec.panzer else 0.5)
            if late and (nb & b.moscow_mask):
                val += 1.5 * late  # ring Moscow: fewer hexes to counter-attack from
        # Exposure to the Soviet combat phase that follows (after combat moves only; before
        # combat the Soviet turn is a whole phase away and the unit moves again).
        if not self.before_combat:
            atk = self.threat[h]
            if atk > 0:
                steps = s.steps[u]
                st = spec.strength(steps)
                col = min(int(atk) // (2 * st), 6) - rules.defender_shift[GERMAN][h]
                if col >= 1:
                    exits = grid_exits(self.grid, h, self.sov_occ | self.sov_zoc)
                    pts, p_elim, p_vac = _risk(s, b.probs[col], steps, st, spec.loss(steps), exits == 0)
                    cost = MY_W[GERMAN] * pts + ELIM_BONUS * p_elim
                    if (b.moscow_mask >> h) & 1 or ((b.city_mask >> h) & 1):
                        cost += p_vac * vacate_value(s, SOVIET, h)
                    val -= w.exposure * cost
        if self.before_combat:
            val += w.support * self._support_gain(u, h)
        return val

    def _support_gain(self, u: int, h: int) -> float:
        grid = self.grid
        near = grid.within(h, 3) & self.sov_occ
        if not near:
            return 0.0
        occ2 = self.plan_occ | (1 << h)
        planned2 = dict(self.planned)
        planned2[h] = u
        gains = []
        for x in bits(near):
            d = self.s.at[x]
            g = self._target_value(d, occ2, planned2) - self.targets[d]
            if g:
                gains.append(g)
        if not gains:
            return 0.0
        gains.sort(reverse=True)
        return gains[0] + 0.5 * sum(gains[1:])

    def _target_value(self, d: int, occ: int, planned: dict[int, int]) -> float:
        """Best expected value of attacking ``d`` with every German unit next to it, given
        German units on ``occ`` (the plan so far)."""
        s = self.s
        rules = self.rules
        grid = self.grid
        t = s.loc[d]
        atk = []
        all_river = True
        river = rules.map.river_mask[t]
        halves = 0
        for x in bits(grid.neighbour_mask[t] & occ):
            a = planned.get(x, s.at[x])
            if a < 0:
                continue
            atk.append(a)
            halves += attack_halves(s, a)
            if not (river >> x) & 1:
                all_river = False
        if not atk:
            return 0.0
        dfs = s.strength(d)
        col = min(halves // (2 * dfs), 6) - rules.defender_shift[SOVIET][t] - (1 if all_river else 0)
        if col < 1:
            return 0.0
        forbidden = occ | grid.expand(occ)
        occupied = s.occ[SOVIET] & ~(1 << t)
        surrounded = not retreat_paths(t, 2, grid.neighbours, grid.distance, forbidden, occupied)
        return max(0.0, battle_value(s, d, atk, col, surrounded, self.b).ev)

    def assign(self, u: int, h: int) -> None:
        self.planned[h] = u
        self.plan_occ |= 1 << h
        if self.before_combat:
            for x in bits(self.grid.within(h, 3) & self.sov_occ):
                d = self.s.at[x]
                self.targets[d] = self._target_value(d, self.plan_occ, self.planned)

    def note(self, u: int, h: int) -> str:
        s, b = self.s, self.b
        where = self.grid.ids[h]
        if self.before_combat:
            gain = self._support_gain(u, h)
            if gain > 0.5:
                return f"to {where}: sets up an attack (+{gain:.1f} expected points)"
        if (b.moscow_mask >> h) & 1:
            return f"to {where}: into Moscow"
        if (b.city_mask >> h) & 1 and s.city_controller_at(h) != GERMAN:
            return f"to {where}: takes {self.rules.map.city_name(h)}"
        if h == s.loc[u]:
            return f"holds {where}"
        return f"to {where}: {b.mcost[s.loc[u]] - b.mcost[h]:+d} towards Moscow"


def grid_exits(grid: HexGrid, h: int, blocked: int) -> int:
    """Neighbours of ``h`` a unit there could retreat through (not blocked)."""
    return (grid.neighbour_mask[h] & ~blocked).bit_count()


def _movable(s: State, u: int) -> bool:
    from typhoon.games.bfm import movement_phase

    return movement_phase.movable(s, u)


def _rail_reach(s: State, start: int, steps: int, blocked: int) -> int:
    nbrs = s.rules.map.rail_neighbours
    seen = 1 << start
    frontier = [start]
    for _ in range(steps):
        nxt = []
        for h in frontier:
            for n in nbrs[h]:
                if not (seen >> n) & 1 and not (blocked >> n) & 1:
                    seen |= 1 << n
                    nxt.append(n)
        frontier = nxt
    return seen


class SovietScorer:
    """Scores for the Soviet rail movement and movement phases."""

    radius = 2

    def __init__(self, s: State, w: Weights | None = None):
        self.s = s
        self.w = w or Weights()
        rules = s.rules
        self.rules = rules
        self.b = b = board_of(rules)
        grid = rules.map.grid
        self.grid = grid
        self.turn = s.turn
        self.final = s.turn == rules.last_turn and rules.phases[s.phase].key == "soviet_movement"
        movers = [u for u in rules.side_units[SOVIET] if s.loc[u] >= 0 and _movable(s, u)]
        self.mover_set = set(movers)
        self.plan_occ = s.occ[SOVIET]
        for u in movers:
            self.plan_occ &= ~(1 << s.loc[u])
        self.cover_occ = grid.expand(self.plan_occ) | self.plan_occ
        ger = [u for u in rules.side_units[GERMAN] if s.loc[u] >= 0]
        self.ger_occ = s.occ[GERMAN]
        self.ger_zoc = grid.expand(self.ger_occ)
        # German approach: movement points from the nearest German unit (Soviet units
        # ignored: they are about to move). Route slack: how far off a shortest road to Moscow.
        self.dg = approach_cost(rules, self.ger_occ, 0)
        dm = min(self.dg[x] + b.mcost[x] for x in b.hexes)
        self.gate = [0.0] * grid.size
        for x in b.hexes:
            if self.dg[x] == 0:
                continue
            slack = self.dg[x] + b.mcost[x] - dm
            wt = 1.0 / (1.0 + slack / 2.0)
            if self.dg[x] > 14:
                wt *= 0.3
            self.gate[x] = wt
        # German strike at a hex next turn: infantry next to it (they do not move before
        # combat), panzers within reach of it (a panzer move, then the attack).
        mud = s.is_mud()
        self.inf_adj = [0] * grid.size
        self.pz_near: list[list[int]] = [[] for _ in range(grid.size)]
        reach = 2 if mud else 7
        for g in ger:
            spec = rules.units[g]
            st = s.strength(g) * (1 if mud and rules.halved_in_mud(g) else 2)
            if spec.panzer:
                for x in bits(grid.within(s.loc[g], reach)):
                    self.pz_near[x].append(st)
            else:
                for n in grid.neighbours[s.loc[g]]:
                    self.inf_adj[n] += st
        for lst in self.pz_near:
            lst.sort(reverse=True)
        self.moscow_threat = self.dg[b.moscow] <= (4 if mud else 14)

    def score(self, u: int, h: int) -> float:
        s, b, w = self.s, self.b, self.w
        rules = self.rules
        grid = self.grid
        val = 0.0
        late = max(0, self.turn - 3)
        # Cities: Moscow above all; on the last move only the victory cities count.
        taken_city = (b.city_mask >> h) & 1 and s.city_controller_at(h) != SOVIET
        if (b.moscow_mask >> h) & 1:
            val += w.moscow * (3.0 + 1.5 * self.turn + (4.0 if self.moscow_threat else 0.0))
            if taken_city:
                val += 100.0 if self.final else 20.0
        elif taken_city:
            val += w.city * (8.0 if self.final and rules.victory != "moscow" else 1.0)
        if self.final:
            return val + 0.1 * b.shift[SOVIET][h] - 0.01 * b.mcost[h]
        if grid.neighbour_mask[h] & b.moscow_mask:
            val += w.moscow * (0.5 + 0.6 * late) * (1.5 if self.moscow_threat else 1.0)
        # Terrain and rivers facing the Germans.
        val += w.terrain * b.shift[SOVIET][h]
        riv = b.river[h]
        if riv:
            dgh = self.dg[h]
            val += w.river * sum(1 for n in bits(riv) if self.dg[n] < dgh)
        # Zones of control barring German roads (hexes not already barred by the plan).
        cover = 0.0
        for x in bits((grid.neighbour_mask[h] | (1 << h)) & ~self.cover_occ):
            cover += self.gate[x]
        val += w.cover * cover
        # Flanks.
        friends = (grid.neighbour_mask[h] & self.plan_occ).bit_count()
        val += w.cohesion * min(friends, 2)
        # Exposure to the coming German attack.
        val -= w.exposure * self._exposure(u, h)
        # Idle units far from any road drift towards Moscow.
        val -= 0.05 * b.mcost[h]
        return val

    def _exposure(self, u: int, h: int) -> float:
        s, b = self.s, self.b
        rules = self.rules
        grid = self.grid
        nb = grid.neighbour_mask[h]
        atk = self.inf_adj[h]
        free = nb & ~self.plan_occ & ~self.ger_occ
        k = free.bit_count()
        if k:
            atk += sum(self.pz_near[h][:k])
        if not atk:
            return 0.0
        steps = s.steps[u]
        spec = rules.units[u]
        st = spec.strength(steps)
        col = min(int(atk) // (2 * st), 6) - b.shift[SOVIET][h]
        if col < 1:
            return 0.0
        # No way out: every neighbour next to Germans or held by them, or the planned line
        # behind blocks (retreats may not end on a friendly unit).
        exits = (free & ~self.ger_zoc).bit_count()
        pts, p_elim, p_vac = _risk(s, b.probs[col], steps, st, spec.loss(steps), exits == 0)
        cost = MY_W[SOVIET] * pts + ELIM_BONUS * p_elim
        cost += p_vac * vacate_value(s, GERMAN, h)
        return cost

    def assign(self, u: int, h: int) -> None:
        self.plan_occ |= 1 << h
        self.cover_occ |= (1 << h) | self.grid.neighbour_mask[h]

    def note(self, u: int, h: int) -> str:
        s, b = self.s, self.b
        where = self.grid.ids[h]
        bits_ = []
        if (b.moscow_mask >> h) & 1:
            bits_.append("garrisons Moscow")
        if b.shift[SOVIET][h]:
            bits_.append("good defensive ground")
        if self.inf_adj[h] or self.pz_near[h]:
            exp = self._exposure(u, h)
            bits_.append(f"expected loss if attacked {exp:.1f}")
        if not bits_:
            bits_.append("bars the road to Moscow")
        verb = "holds" if h == s.loc[u] else "to"
        return f"{verb} {where}: " + ", ".join(bits_)


__all__ = ["GermanScorer", "SovietScorer", "Weights"]
