"""Rules of thumb for movement, as scores of a unit ending its move on a hex.

German: before combat, panzers go where they raise the odds of an attack or close the last
retreat path of a Soviet unit (surrounded, any retreat result destroys it); after combat,
every unit pushes towards Moscow, keeps touch with its neighbours, takes cities, and avoids
standing alone where Soviet units can strike it at good odds.

Soviet: hold a line whose zones of control bar the German roads to Moscow, in forests,
fortifications and behind rivers; do not stand where the panzers can mass against a weak
unit with no way out; keep Moscow garrisoned, more strongly as the end nears; take back
cities the Germans left empty (above all Moscow on the last turn).

Weights are in strength points, like the combat values of :mod:`typhoon.games.bfm.ai.combat`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from typhoon.games.bfm.ai.board import approach_cost, board_of
from typhoon.games.bfm.ai.combat import (
    _NO_RETREAT,
    _NO_RETREAT_LIMIT,
    ELIM_BONUS,
    MY_W,
    _retreat_area,
    attack_halves,
    battle_value,
    vacate_value,
)
from typhoon.games.bfm.ai.movement import movers, staying_occ
from typhoon.games.bfm.combat_phase import MAX_COLUMN, RETREAT_LENGTH, retreat_paths_beyond
from typhoon.games.bfm.rules import GERMAN, SOVIET, Rules
from typhoon.games.bfm.state import State
from typhoon.hexgrid import bits
from typhoon.mechanics.combat import odds_column
from typhoon.mechanics.movement import reach
from typhoon.mechanics.retreat import retreat_paths
from typhoon.mechanics.zoc import zoc_mask


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
    """Scores for the German panzer movement phase (``before_combat``) and movement phase.

    Everything that depends only on the position the phase began with is worked out once,
    here: a plan scores thousands of (unit, hex) pairs, and every search roll-out plans."""

    def __init__(self, s: State, w: Weights | None = None, before_combat: bool = False):
        # Before combat a score depends on units placed near the targets (4 hexes); after,
        # only on neighbours.
        self.radius = 4 if before_combat else 1
        # After combat a score reads the placements next to its hex only (flanks); before
        # combat it reaches further (the targets' neighbours) than the radius re-scored.
        self.local = not before_combat
        self.s = s
        self.w = w = w or Weights()
        self.before_combat = before_combat
        rules = s.rules
        self.rules = rules
        self.b = board_of(rules)
        grid = rules.map.grid
        self.grid = grid
        self.planned: dict[int, int] = {}  # hex -> unit
        self.plan_occ = staying_occ(s, movers(s))
        self.sov_occ = s.occ[SOVIET]
        # A German unit can retreat only through neighbours free of Soviet units and zones.
        self.sov_block = self.sov_occ | zoc_mask(self.sov_occ, grid.expand)
        late = max(0, s.turn - 3)
        self.late = late
        self.prog_w = w.progress * (0.25 if before_combat else 1.0) * (1.0 + 0.15 * late)
        self.city_v = w.city * (1.0 if rules.victory != "moscow" else 0.25)
        self.moscow_v = 10.0 + 6.0 * late
        self._vacate: dict[int, float] = {}  # hex -> what the Soviet gains by taking it
        # Soviet strike on a hex in their coming combat phase: units next to it now, and
        # units that can reach it by rail first (half weight: they may be wanted elsewhere).
        self.threat = [0.0] * grid.size
        for u in s.on_map(SOVIET):
            st = attack_halves(s, u)
            h = s.loc[u]
            for n in grid.neighbours[h]:
                self.threat[n] += st
            if rules.map.is_rail(h):
                by_rail = _rail_reach(rules, h, 4, s.occ[GERMAN])
                for x in bits(by_rail & ~grid.neighbour_mask[h]):
                    for n in grid.neighbours[x]:
                        self.threat[n] += 0.25 * st
        # Memos of target_value: Soviet hex -> hexes whose German units bear on its retreat;
        # (hex, Soviet units near, German units near) -> no retreat path; battle values.
        self._area: dict[int, int] = {}
        # The retreat reading in force (option ``retreat_extension``): the estimate asks the
        # same question the engine will.
        self._beyond = rules.opt("retreat_extension") == "two_beyond_occupied"
        self._trapped = _NO_RETREAT.setdefault((grid, self._beyond), {})
        self._battle: dict[tuple[int, tuple[int, ...], int, bool], float] = {}
        # Before combat: value of each Soviet target with the units that can strike it.
        self.targets: dict[int, float] = {}
        if before_combat:
            for d in s.on_map(SOVIET):
                self.targets[d] = self.target_value(d, self.plan_occ)

    # -- scoring -------------------------------------------------------------------------

    def score(self, u: int, h: int) -> float:
        s, b, w = self.s, self.b, self.w
        val = 0.0
        val -= self.prog_w * b.mcost[h]
        # Taking cities (the destination; cities passed through count in move_action).
        if (b.city_mask >> h) & 1 and s.city_controller_at(h) != GERMAN:
            val += self.city_v
        if (b.moscow_mask >> h) & 1:
            val += self.moscow_v
        nb = b.nmask[h]
        friends = (nb & self.plan_occ).bit_count()
        val += w.cohesion * min(friends, 2)
        if self.before_combat:
            return val + w.support * self._support_gain(u, h)
        spec = self.rules.units[u]
        k = (nb & self.sov_occ).bit_count()
        val += w.contact * min(k, 2) * (1.0 if not spec.panzer else 0.5)
        if self.late and (nb & b.moscow_mask):
            val += 1.5 * self.late  # ring Moscow: fewer hexes to counter-attack from
        # Exposure to the Soviet combat phase that follows (after combat moves only; before
        # combat the Soviet turn is a whole phase away and the unit moves again).
        atk = self.threat[h]
        if atk > 0:
            steps = s.steps[u]
            st = spec.strength(steps)
            col = odds_column(int(atk), st, MAX_COLUMN) - b.shift[GERMAN][h]
            if col >= 1:
                trapped = not (nb & ~self.sov_block)
                pts, p_elim, p_vac = _risk(s, b.probs[col], steps, st, spec.loss(steps), trapped)
                cost = MY_W[GERMAN] * pts + ELIM_BONUS * p_elim
                if (b.moscow_mask >> h) & 1 or ((b.city_mask >> h) & 1):
                    cost += p_vac * self._vacate_value(h)
                val -= w.exposure * cost
        return val

    def _vacate_value(self, h: int) -> float:
        v = self._vacate.get(h)
        if v is None:
            v = self._vacate[h] = vacate_value(self.s, SOVIET, h)
        return v

    def _support_gain(self, u: int, h: int) -> float:
        near = self.grid.within(h, 3) & self.sov_occ
        if not near:
            return 0.0
        occ2 = self.plan_occ | (1 << h)
        gains = []
        for x in bits(near):
            d = self.s.at[x]
            g = self.target_value(d, occ2, h, u) - self.targets[d]
            if g:
                gains.append(g)
        if not gains:
            return 0.0
        gains.sort(reverse=True)
        return gains[0] + 0.5 * sum(gains[1:])

    def target_value(self, d: int, occ: int, h: int = -1, u: int = -1) -> float:
        """Best expected value of attacking ``d`` with every German unit next to it, given
        German units on ``occ``: the plan so far (``planned``), the units that stay, and
        ``u`` on ``h`` if given."""
        s = self.s
        rules = self.rules
        t = s.loc[d]
        atk = []
        all_river = True
        river = rules.map.river_mask[t]
        halves = 0
        for x in bits(self.b.nmask[t] & occ):
            a = u if x == h else self.planned.get(x, s.at[x])
            if a < 0:
                continue
            atk.append(a)
            halves += attack_halves(s, a)
            if not (river >> x) & 1:
                all_river = False
        if not atk:
            return 0.0
        shifts = self.b.shift[SOVIET][t] + (1 if all_river else 0)
        col = odds_column(halves, s.strength(d), MAX_COLUMN) - shifts
        if col < 1:
            return 0.0
        trapped = self._no_retreat(t, occ)
        key = (d, tuple(atk), col, trapped)
        v = self._battle.get(key)
        if v is None:
            v = self._battle[key] = max(0.0, battle_value(s, d, atk, col, trapped, self.b).ev)
        return v

    def _no_retreat(self, t: int, occ: int) -> bool:
        """Would the Soviet unit on ``t`` have no retreat path with German units on ``occ``?
        A question about a planned position, not the one that stands, so it goes to the
        mechanics (``combat_phase.retreat_paths_of`` answers only for the position itself).
        Memoised across plans and roll-outs on the units near enough to bear on the answer."""
        grid = self.grid
        occupied = self.sov_occ & ~(1 << t)
        area = self._area.get(t)
        if area is None:
            area = self._area[t] = _retreat_area(grid.within, t, occupied, beyond=self._beyond)
        key = (t, occupied & area, occ & area)
        got = self._trapped.get(key)
        if got is None:
            if len(self._trapped) >= _NO_RETREAT_LIMIT:
                self._trapped.clear()
            forbidden = occ | zoc_mask(occ, grid.expand)
            find = retreat_paths_beyond if self._beyond else retreat_paths
            paths = find(t, RETREAT_LENGTH, grid.neighbours, grid.distance, forbidden, occupied)
            got = self._trapped[key] = not paths
        return got

    def assign(self, u: int, h: int) -> None:
        self.planned[h] = u
        self.plan_occ |= 1 << h
        if self.before_combat:
            for x in bits(self.grid.within(h, 3) & self.sov_occ):
                d = self.s.at[x]
                self.targets[d] = self.target_value(d, self.plan_occ)

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


def _rail_reach(rules: Rules, start: int, steps: int, blocked: int) -> int:
    """Hexes (``start`` included) a unit reaches along the rail line in ``steps`` hexes,
    never entering ``blocked``. A rough reach: zones of control are not heeded."""
    m = rules.map
    out = 1 << start
    for h, _ in reach(start, steps, m.rail_neighbours, m.rail_cost, blocked, 0):
        out |= 1 << h
    return out


class SovietScorer:
    """Scores for the Soviet rail movement and movement phases (what depends only on the
    position the phase began with is worked out once, here)."""

    radius = 2
    local = True  # a score reads the plan within 2 hexes only (cover, flanks, way out)

    def __init__(self, s: State, w: Weights | None = None):
        self.s = s
        self.w = w = w or Weights()
        rules = s.rules
        self.rules = rules
        self.b = b = board_of(rules)
        grid = rules.map.grid
        self.grid = grid
        self.final = s.turn == rules.last_turn and rules.phases[s.phase].key == "soviet_movement"
        self.plan_occ = staying_occ(s, movers(s))
        self.cover_occ = grid.expand(self.plan_occ) | self.plan_occ
        self.ger_occ = s.occ[GERMAN]
        self.ger_zoc = zoc_mask(self.ger_occ, grid.expand)
        self._vacate: dict[int, float] = {}  # hex -> what the German gains by taking it
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
        # Panzers: (hex, attack halves, reach); pz_near (per hex, strongest first) is made
        # when first read (the native planner takes the panzers themselves).
        self.reach = 2 if mud else 7
        self.panzers: list[tuple[int, int]] = []
        for g in s.on_map(GERMAN):
            st = attack_halves(s, g)
            if rules.units[g].panzer:
                self.panzers.append((s.loc[g], st))
            else:
                for n in grid.neighbours[s.loc[g]]:
                    self.inf_adj[n] += st
        self.moscow_threat = self.dg[b.moscow] <= (4 if mud else 14)
        # Cities: Moscow above all; on the last move only the victory cities count.
        late = max(0, s.turn - 3)
        self.garrison_v = w.moscow * (3.0 + 1.5 * s.turn + (4.0 if self.moscow_threat else 0.0))
        self.retake_moscow_v = 100.0 if self.final else 20.0
        self.city_v = w.city * (8.0 if self.final and rules.victory != "moscow" else 1.0)
        self.ring_v = w.moscow * (0.5 + 0.6 * late) * (1.5 if self.moscow_threat else 1.0)
        # Exposure by (unit, hex, attack strength, trapped): a plan re-scores a pair each time
        # a neighbour is placed, mostly with the same answer (the unit's steps do not change).
        self._exp: dict[tuple[int, int, int, bool], float] = {}

    @cached_property
    def pz_near(self) -> list[list[int]]:
        """Per hex, the attack halves of the German panzers within reach of it, strongest
        first."""
        out: list[list[int]] = [[] for _ in range(self.grid.size)]
        for h, st in self.panzers:
            for x in self.b.within_list(h, self.reach):
                out[x].append(st)
        for lst in out:
            lst.sort(reverse=True)
        return out

    def score(self, u: int, h: int) -> float:
        s, b, w = self.s, self.b, self.w
        val = 0.0
        taken_city = (b.city_mask >> h) & 1 and s.city_controller_at(h) != SOVIET
        if (b.moscow_mask >> h) & 1:
            val += self.garrison_v
            if taken_city:
                val += self.retake_moscow_v
        elif taken_city:
            val += self.city_v
        if self.final:
            return val + 0.1 * b.shift[SOVIET][h] - 0.01 * b.mcost[h]
        nb = b.nmask[h]
        if nb & b.moscow_mask:
            val += self.ring_v
        # Terrain and rivers facing the Germans.
        val += w.terrain * b.shift[SOVIET][h]
        if b.river[h]:
            dg = self.dg
            dgh = dg[h]
            val += w.river * sum(1 for n in b.river_list[h] if dg[n] < dgh)
        # Zones of control barring German roads (hexes not already barred by the plan), in
        # hex order (the same sum as over bits((nb | 1 << h) & ~cover_occ)).
        cover = 0.0
        cover_occ = self.cover_occ
        gate = self.gate
        for x in b.near1[h]:
            if not (cover_occ >> x) & 1:
                cover += gate[x]
        val += w.cover * cover
        # Flanks.
        friends = (nb & self.plan_occ).bit_count()
        val += w.cohesion * min(friends, 2)
        # Exposure to the coming German attack.
        val -= w.exposure * self._exposure(u, h)
        # Idle units far from any road drift towards Moscow.
        val -= 0.05 * b.mcost[h]
        return val

    def _exposure(self, u: int, h: int) -> float:
        s, b = self.s, self.b
        nb = b.nmask[h]
        atk = self.inf_adj[h]
        free = nb & ~self.plan_occ & ~self.ger_occ
        k = free.bit_count()
        if k:
            atk += sum(self.pz_near[h][:k])
        if not atk:
            return 0.0
        # No way out: every neighbour next to Germans or held by them, or the planned line
        # behind blocks (retreats may not end on a friendly unit).
        trapped = not (free & ~self.ger_zoc)
        key = (u, h, atk, trapped)
        got = self._exp.get(key)
        if got is not None:
            return got
        steps = s.steps[u]
        spec = self.rules.units[u]
        st = spec.strength(steps)
        col = odds_column(atk, st, MAX_COLUMN) - b.shift[SOVIET][h]
        if col < 1:
            got = 0.0
        else:
            pts, p_elim, p_vac = _risk(s, b.probs[col], steps, st, spec.loss(steps), trapped)
            cost = MY_W[SOVIET] * pts + ELIM_BONUS * p_elim
            got = cost + p_vac * self.vacate_value(h)
        self._exp[key] = got
        return got

    def vacate_value(self, h: int) -> float:
        """What the German gains by taking ``h`` (memoised for the phase)."""
        v = self._vacate.get(h)
        if v is None:
            v = self._vacate[h] = vacate_value(self.s, GERMAN, h)
        return v

    def assign(self, u: int, h: int) -> None:
        self.plan_occ |= 1 << h
        self.cover_occ |= (1 << h) | self.b.nmask[h]

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
