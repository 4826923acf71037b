"""Combat for the AI players: what a battle is worth, which battles to declare, and the
decisions taken while battles are resolved (order, the defender's retreat path, which
attacker takes a loss, who advances, stand fast).

Values are in strength points of the side judging: a point of the enemy destroyed is worth
``their_w``, a point of one's own lost ``my_w``. The German player gets one replacement a
turn and the Soviet five, so each values German points more than Soviet ones.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from typhoon.ai.board import Board, board_of
from typhoon.games.bfm.actions import Action, Advance, Attack, Lose, Resolve, Retreat, StandFast
from typhoon.games.bfm.rules import GERMAN
from typhoon.games.bfm.state import State
from typhoon.mechanics.retreat import retreat_paths

MAX_COLUMN = 6

# Strength-point weights: [side judging] -> (own point lost, enemy point destroyed).
MY_W = (1.6, 1.0)
THEIR_W = (1.0, 1.6)
ELIM_BONUS = 3.0  # a unit removed leaves a hole (no zone of control) beyond its points
RETREAT_BONUS = 1.0  # the defender pushed two hexes back


def attack_halves(s: State, u: int) -> int:
    """Attack strength of ``u`` in half points (halved in mud where the edition says so)."""
    st = s.strength(u)
    return st if s.is_mud() and s.rules.halved_in_mud(u) else 2 * st


def final_column(s: State, d: int, atk: Sequence[int]) -> int:
    """The odds column a battle is resolved on; below 1 means no effect."""
    halves = 0
    river = s.rules.map.river_mask[s.loc[d]]
    all_river = True
    for a in atk:
        halves += attack_halves(s, a)
        if not (river >> s.loc[a]) & 1:
            all_river = False
    dfs = s.strength(d)
    col = min(halves // (2 * dfs), MAX_COLUMN)
    return col - s.rules.defender_shift[s.rules.units[d].side][s.loc[d]] - (1 if atk and all_river else 0)


def can_retreat(s: State, d: int, extra_block: int = 0) -> bool:
    """Has the defender at least one retreat path now (``extra_block``: more enemy-held hexes
    to assume, e.g. where attackers will stand)?"""
    rules = s.rules
    grid = rules.map.grid
    side = rules.units[d].side
    enemy_occ = s.occ[1 - side] | extra_block
    forbidden = enemy_occ | grid.expand(enemy_occ)
    occupied = s.occ[side] & ~(1 << s.loc[d])
    return bool(retreat_paths(s.loc[d], 2, grid.neighbours, grid.distance, forbidden, occupied))


def vacate_value(s: State, side: int, h: int) -> float:
    """What taking hex ``h`` is worth to ``side``: Moscow above all, late in the game most;
    for the German also the ring round Moscow as the end nears, and ground towards it."""
    b = board_of(s.rules)
    late = max(0, s.turn - 3)
    if (b.moscow_mask >> h) & 1:
        return 6.0 + 4.0 * late
    v = 0.3
    if (b.city_mask >> h) & 1 and s.city_controller_at(h) != side:
        v += 1.5 if s.rules.victory != "moscow" else 0.5
    if side == GERMAN:
        v += max(0.0, 1.2 - 0.1 * b.mdist[h])
        if b.mdist[h] <= 2:
            v += 0.8 * late * (3 - b.mdist[h])
    return v


@dataclass
class BattleValue:
    ev: float  # expected value for the attacker, strength points
    column: int
    p_elim: float  # defender eliminated
    p_vacate: float  # defender's hex emptied
    att_loss: float  # expected attacker strength points lost
    def_loss: float  # expected defender strength points lost


def battle_value(
    s: State, d: int, atk: Sequence[int], column: int, surrounded: bool, b: Board | None = None
) -> BattleValue:
    """Expected outcome of a battle on ``column`` (worked out before any die is rolled)."""
    if column < 1:
        return BattleValue(-0.01 * len(atk), column, 0.0, 0.0, 0.0, 0.0)
    b = b or board_of(s.rules)
    rules = s.rules
    side = 1 - rules.units[d].side  # attacker
    my_w, their_w = MY_W[side], THEIR_W[side]
    dspec = rules.units[d]
    steps = s.steps[d]
    sd = dspec.strength(steps)
    step_pts = dspec.loss(steps)
    h = s.loc[d]
    vac = vacate_value(s, side, h)
    stand = bool((rules.stand_fast_mask >> h) & 1) and steps == 2
    elim_v = their_w * sd + ELIM_BONUS
    losses = sorted((_loss_cost(s, a, my_w), rules.units[a].loss(s.steps[a])) for a in atk)
    al_cost = losses[0][0]
    need = step_pts if steps == 2 else sd
    ex_cost = _cover_cost(losses, need)
    ev = p_elim = p_vac = att_l = def_l = 0.0
    for r, p in b.probs[column].items():
        if not p:
            continue
        if r == "DE":
            ev += p * (elim_v + vac)
            p_elim += p
            p_vac += p
            def_l += p * sd
        elif r == "DR":
            if stand:
                ev += p * their_w * step_pts
                def_l += p * step_pts
            elif surrounded:
                ev += p * (elim_v + vac)
                p_elim += p
                p_vac += p
                def_l += p * sd
            else:
                ev += p * (RETREAT_BONUS + vac)
                p_vac += p
        elif r in ("DRL", "EX"):
            if steps == 2 and not surrounded:
                ev += p * (their_w * step_pts + RETREAT_BONUS + vac)
                def_l += p * step_pts
            else:
                ev += p * (elim_v + vac)
                p_elim += p
                def_l += p * sd
            p_vac += p
            if r == "EX":
                ev -= p * ex_cost
                att_l += p * need
        elif r == "AL":
            ev -= p * al_cost
            att_l += p * losses[0][1]
    return BattleValue(ev, column, p_elim, p_vac, att_l, def_l)


def _loss_cost(s: State, u: int, my_w: float) -> float:
    spec = s.rules.units[u]
    pts = spec.loss(s.steps[u])
    cost = my_w * pts
    if s.steps[u] == 1:
        cost += ELIM_BONUS
    if spec.panzer:
        cost += 0.3 * pts
    return cost


def _cover_cost(losses: list[tuple[float, int]], need: int) -> float:
    """Cheapest set of single step losses whose points reach ``need`` (all if none does)."""
    best = sum(c for c, _ in losses)
    n = len(losses)
    for mask in range(1, 1 << n):
        pts = cost = 0.0
        for i in range(n):
            if (mask >> i) & 1:
                cost += losses[i][0]
                pts += losses[i][1]
        if pts >= need and cost < best:
            best = cost
    return best


# -- declaring battles ---------------------------------------------------------------------


@dataclass
class PlannedBattle:
    defender: int
    attackers: tuple[int, ...]
    value: BattleValue
    surrounded: bool

    def describe(self, s: State) -> str:
        rules = s.rules
        v = self.value
        names = " + ".join(rules.units[a].id for a in self.attackers)
        where = rules.map.grid.ids[s.loc[self.defender]]
        text = (
            f"{names} against {rules.units[self.defender].id} in {where} at {v.column}:1"
            f" (defender eliminated {v.p_elim:.0%}, hex taken {v.p_vacate:.0%},"
            f" expected losses {v.def_loss:.1f} to {v.att_loss:.1f} points"
        )
        if self.surrounded:
            text += ", no retreat path"
        return text + ")"


@dataclass
class AttackPlan:
    battles: list[PlannedBattle] = field(default_factory=list)

    @property
    def value(self) -> float:
        return sum(b.value.ev for b in self.battles)

    def actions(self, s: State) -> list[Action]:
        ids = s.rules.map.grid.ids
        out: list[Action] = []
        for bt in self.battles:
            for a in bt.attackers:
                out.append(Attack(s.rules.units[a].id, ids[s.loc[bt.defender]]))
        return out


def _candidates(
    s: State, d: int, adj: list[int], b: Board, cost_per_point: float, surrounded: bool
) -> list[tuple[float, int, BattleValue]]:
    """(score, attacker bitmask over ``adj``, value) for every subset of ``adj`` that reaches
    the table."""
    n = len(adj)
    halves = [attack_halves(s, a) for a in adj]
    river = s.rules.map.river_mask[s.loc[d]]
    across = [bool((river >> s.loc[a]) & 1) for a in adj]
    dfs = s.strength(d)
    base_shift = s.rules.defender_shift[s.rules.units[d].side][s.loc[d]]
    out = []
    sub_h = [0] * (1 << n)
    sub_r = [True] * (1 << n)
    for mask in range(1, 1 << n):
        low = (mask & -mask).bit_length() - 1
        rest = mask & (mask - 1)
        sub_h[mask] = sub_h[rest] + halves[low]
        sub_r[mask] = sub_r[rest] and across[low]
        col = min(sub_h[mask] // (2 * dfs), MAX_COLUMN) - base_shift - (1 if sub_r[mask] else 0)
        if col < 1:
            continue
        atk = [adj[i] for i in range(n) if (mask >> i) & 1]
        v = battle_value(s, d, atk, col, surrounded, b)
        out.append((v.ev - cost_per_point * sub_h[mask] / 2, mask, v))
    return out


def plan_attacks(
    s: State, noise: float = 0.0, rng: random.Random | None = None, min_ev: float = 0.05
) -> AttackPlan:
    """Greedy choice of battles for the phasing side: repeatedly take the best-valued battle
    (expected value less a small charge per attacking point, so that spare units stay free
    for other battles), then add spare adjacent units where they raise the value."""
    rules = s.rules
    side = s.side
    b = board_of(rules)
    nm = rules.map.grid.neighbour_mask
    free = [u for u in rules.side_units[side] if s.loc[u] >= 0 and not (s.done >> u) & 1]
    declared = {d for d, _ in s.battles}
    enemy = [d for d in rules.side_units[1 - side] if s.loc[d] >= 0 and d not in declared]
    cost_per_point = 0.06
    # Every (target, attacker set) once; choosing only ever removes options.
    cands: list[tuple[float, int, tuple[int, ...], int, BattleValue, bool]] = []
    for d in enemy:
        adj = [a for a in free if (nm[s.loc[d]] >> s.loc[a]) & 1]
        if not adj:
            continue
        surrounded = not can_retreat(s, d)
        for score, mask, v in _candidates(s, d, adj, b, cost_per_point, surrounded):
            if v.ev < min_ev:
                continue
            atk = tuple(adj[i] for i in range(len(adj)) if (mask >> i) & 1)
            umask = 0
            for a in atk:
                umask |= 1 << a
            if rng is not None and noise:
                score += rng.gauss(0.0, noise)
            cands.append((score, d, atk, umask, v, surrounded))
    cands.sort(key=lambda c: -c[0])
    plan = AttackPlan()
    used = 0
    taken: set[int] = set()
    for _score, d, atk, umask, v, surrounded in cands:
        if d in taken or umask & used:
            continue
        plan.battles.append(PlannedBattle(d, atk, v, surrounded))
        used |= umask
        taken.add(d)
    # Spare units join a battle they border when that raises its value.
    for a in free:
        if (used >> a) & 1:
            continue
        gain_best = 0.0
        pick = -1
        pick_v: BattleValue | None = None
        for i, bt in enumerate(plan.battles):
            if not (nm[s.loc[bt.defender]] >> s.loc[a]) & 1:
                continue
            atk2 = bt.attackers + (a,)
            v2 = battle_value(s, bt.defender, atk2, final_column(s, bt.defender, atk2), bt.surrounded, b)
            if v2.ev - bt.value.ev > gain_best:
                gain_best = v2.ev - bt.value.ev
                pick = i
                pick_v = v2
        if pick >= 0 and pick_v is not None:
            bt = plan.battles[pick]
            plan.battles[pick] = PlannedBattle(bt.defender, bt.attackers + (a,), pick_v, bt.surrounded)
            used |= 1 << a
    return plan


# -- decisions while resolving ------------------------------------------------------------


def choose_resolve(s: State, actions: Sequence[Action]) -> tuple[Action, str]:
    """Resolve first the battles at the best odds: their advances can cut the retreat of
    the defenders still waiting."""
    grid = s.rules.map.grid
    best: tuple[float, Action] | None = None
    for a in actions:
        if not isinstance(a, Resolve):
            continue
        h = grid.index[a.target]
        d = s.at[h]
        atk = next(x for dd, x in s.battles if dd == d)
        col = final_column(s, d, atk)
        key = col + (0.5 if not can_retreat(s, d) else 0.0)
        if best is None or key > best[0]:
            best = (key, a)
    assert best is not None
    return best[
        1
    ], f"resolve the battle in {best[1].target} first (best odds, its advance may cut other retreats)"  # type: ignore[union-attr]


def choose_retreat(s: State, actions: Sequence[Action]) -> tuple[Action, str]:
    """The attacker picks the defender's path: far from Moscow (or from the German front),
    onto poor terrain, away from its friends, through no city it would take back."""
    b = board_of(s.rules)
    grid = s.rules.map.grid
    cur = s.cur
    assert cur is not None
    d = cur.defender
    dside = s.rules.units[d].side
    best: tuple[float, Action] | None = None
    for a in actions:
        if not isinstance(a, Retreat):
            continue
        path = [grid.index[x] for x in a.path]
        end = path[-1]
        score = 0.0
        if dside == GERMAN:
            score += 1.5 * b.mdist[end]
        else:
            score += 1.5 * b.mdist[end] - (6.0 if (b.moscow_mask >> end) & 1 else 0.0)
        score -= 2.5 * b.shift[dside][end]
        score -= 1.0 * (b.nmask[end] & s.occ[dside]).bit_count()
        for h in path:
            if (b.city_mask >> h) & 1 and s.city_controller_at(h) != dside:
                score -= 4.0
        score -= 0.1 * len(path)
        if best is None or score > best[0]:
            best = (score, a)
    assert best is not None
    return best[1], f"retreat the defender along {'-'.join(best[1].path)}: poor ground, far from Moscow"  # type: ignore[union-attr]


def choose_loss(s: State, actions: Sequence[Action]) -> tuple[Action, str]:
    """The attacker gives up the step that costs least, covering what an exchange still owes."""
    rules = s.rules
    cur = s.cur
    assert cur is not None
    side = s.side
    owed = cur.owed
    best: tuple[float, Action] | None = None
    for a in actions:
        if not isinstance(a, Lose):
            continue
        u = rules.unit_index[a.unit]
        cost = _loss_cost(s, u, MY_W[side])
        pts = rules.units[u].loss(s.steps[u])
        if owed > 0 and pts < owed:
            cost += 0.5 * MY_W[side] * (owed - pts)  # another step will be owed
        if best is None or cost < best[0]:
            best = (cost, a)
    assert best is not None
    return best[1], f"{best[1].unit} takes the loss: the cheapest step that pays what is owed"  # type: ignore[union-attr]


def choose_advance(s: State, actions: Sequence[Action]) -> tuple[Action, str]:
    """Advancing is free ground (a movement phase follows every combat phase). Into a city
    or Moscow the strongest unit goes; elsewhere the slowest, whose move is worth most."""
    rules = s.rules
    cur = s.cur
    assert cur is not None
    b = board_of(rules)
    hex_ = cur.hex
    city = bool((b.city_mask >> hex_) & 1)
    best: tuple[tuple[float, ...], Action] | None = None
    for a in actions:
        if not isinstance(a, Advance) or a.unit is None:
            continue
        u = rules.unit_index[a.unit]
        st = s.strength(u)
        key = (st, -rules.units[u].move) if city else (-rules.units[u].move, st)
        if best is None or key > best[0]:
            best = (key, a)
    if best is None:
        return Advance(None), "no unit advances"
    where = rules.map.grid.ids[hex_]
    return best[1], f"{best[1].unit} advances into {where}"  # type: ignore[union-attr]


def choose_stand_fast(s: State, actions: Sequence[Action]) -> tuple[Action, str]:
    """A full-strength defender holds the major city at the cost of a step; a half-strength
    one would die holding it, so it retreats."""
    cur = s.cur
    assert cur is not None
    full = s.steps[cur.defender] == 2
    if full:
        return StandFast(True), "stand fast: keep the city at the cost of one step"
    return StandFast(False), "retreat: at half strength standing fast would eliminate the unit"


__all__ = [
    "AttackPlan",
    "BattleValue",
    "PlannedBattle",
    "attack_halves",
    "battle_value",
    "can_retreat",
    "choose_advance",
    "choose_loss",
    "choose_resolve",
    "choose_retreat",
    "choose_stand_fast",
    "final_column",
    "plan_attacks",
]
