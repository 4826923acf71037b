"""Combat for the AI players: what a battle is worth, which battles to declare, and the
decisions taken while battles are resolved (order, the defender's retreat path, which
attacker takes a loss, who advances, stand fast).

Values are in strength points of the side judging: a point of the enemy destroyed is worth
``their_w``, a point of one's own lost ``my_w``. The German player gets one replacement a
turn and the Soviet five, so each values German points more than Soviet ones.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from typhoon.games.bfm.actions import Action, Advance, Attack, Lose, Resolve, Retreat, StandFast
from typhoon.games.bfm.ai.board import Board, board_of
from typhoon.games.bfm.combat_phase import MAX_COLUMN, RETREAT_LENGTH, compute_odds, retreat_paths_of
from typhoon.games.bfm.rules import GERMAN
from typhoon.games.bfm.state import State
from typhoon.hexgrid import HexGrid
from typhoon.mechanics.combat import odds_column

# Strength-point weights: [side judging] -> (own point lost, enemy point destroyed).
MY_W = (1.6, 1.0)
THEIR_W = (1.0, 1.6)
ELIM_BONUS = 3.0  # a unit removed leaves a hole (no zone of control) beyond its points
RETREAT_BONUS = 1.0  # the defender pushed two hexes back


def attack_halves(s: State, u: int) -> int:
    """Attack strength of ``u`` in half points (halved in mud where the edition says so), as
    :func:`typhoon.games.bfm.combat_phase.compute_odds` counts it. The AI adds these up itself
    where it values many attacker sets, or attackers on hexes they have not reached yet."""
    st = s.strength(u)
    return st if s.is_mud() and s.rules.halved_in_mud(u) else 2 * st


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
    s: State,
    d: int,
    adj: list[int],
    b: Board,
    cost_per_point: float,
    surrounded: bool | Callable[[], bool],
) -> list[tuple[float, int, BattleValue]]:
    """(score, attacker bitmask over ``adj``, value) for every subset of ``adj`` that reaches
    the table. ``surrounded``: whether the defender has no retreat path, or a function that
    says so (asked only if some subset reaches the table)."""
    trapped = surrounded if isinstance(surrounded, bool) else None
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
        col = odds_column(sub_h[mask], dfs, MAX_COLUMN) - base_shift - (1 if sub_r[mask] else 0)
        if col < 1:
            continue
        atk = [adj[i] for i in range(n) if (mask >> i) & 1]
        if trapped is None:
            assert not isinstance(surrounded, bool)
            trapped = surrounded()
        v = battle_value(s, d, atk, col, trapped, b)
        out.append((v.ev - cost_per_point * sub_h[mask] / 2, mask, v))
    return out


# Grid -> {(hex, friendly units near, enemy units near): no retreat path}; a pure function of
# its key, so sharing it between plans, roll-outs and games changes no result. Bounded.
_NO_RETREAT: dict[tuple[HexGrid, bool], dict[tuple[int, int, int], bool]] = {}
_NO_RETREAT_LIMIT = 200_000


def _retreat_area(within: Callable[[int, int], int], t: int, occupied: int, *, beyond: bool = False) -> int:
    """The hexes whose enemy units can change the retreat paths from ``t``: a path's i-th hex
    lies i hexes away, and it goes on past its end only from a hex in ``occupied``, so no
    path passes the first even distance with no occupied hex; the enemy zones of control
    on the path come from one hex further. Under ``two_beyond_occupied`` (``beyond``) a leg
    may run sideways, so a leg that reaches past distance r starts from an occupied hex at
    distance r - 1 or r: the ring test widens to both."""
    r = RETREAT_LENGTH
    inner = RETREAT_LENGTH if beyond else 1
    while occupied & within(t, r) & ~within(t, r - inner):
        r += RETREAT_LENGTH
    return within(t, r + 1)


def no_retreat_now(s: State, d: int) -> bool:
    """``not retreat_paths_of(s, d)``, memoised in :data:`_NO_RETREAT` on the units near
    enough to bear on the answer (the table the German scorer's planned positions share)."""
    rules = s.rules
    grid = rules.map.grid
    side = rules.units[d].side
    t = s.loc[d]
    occupied = s.occ[side] & ~(1 << t)
    beyond = rules.opt("retreat_extension") == "two_beyond_occupied"
    memo = _NO_RETREAT.setdefault((grid, beyond), {})
    area = _retreat_area(grid.within, t, occupied, beyond=beyond)
    key = (t, occupied & area, s.occ[1 - side] & area)
    got = memo.get(key)
    if got is None:
        if len(memo) >= _NO_RETREAT_LIMIT:
            memo.clear()
        got = memo[key] = not retreat_paths_of(s, d)
    return got


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
    free = [u for u in s.on_map(side) if not (s.done >> u) & 1]
    declared = {d for d, _ in s.battles}
    enemy = [d for d in s.on_map(1 - side) if d not in declared]
    cost_per_point = 0.06
    # Every (target, attacker set) once; choosing only ever removes options.
    cands: list[tuple[float, int, tuple[int, ...], int, BattleValue, bool]] = []
    for d in enemy:
        adj = [a for a in free if (nm[s.loc[d]] >> s.loc[a]) & 1]
        if not adj:
            continue
        # The retreat question (the costly part) only for a defender some subset can attack.
        known: list[bool] = []

        def trapped_now(d: int = d, known: list[bool] = known) -> bool:
            if not known:
                known.append(no_retreat_now(s, d))
            return known[0]

        for score, mask, v in _candidates(s, d, adj, b, cost_per_point, trapped_now):
            trapped = trapped_now()  # asked already: a candidate reached the table
            if v.ev < min_ev:
                continue
            atk = tuple(adj[i] for i in range(len(adj)) if (mask >> i) & 1)
            umask = 0
            for a in atk:
                umask |= 1 << a
            if rng is not None and noise:
                score += rng.gauss(0.0, noise)
            cands.append((score, d, atk, umask, v, trapped))
    cands.sort(key=lambda c: -c[0])
    plan = AttackPlan()
    used = 0
    taken: set[int] = set()
    for _score, d, atk, umask, v, trapped in cands:
        if d in taken or umask & used:
            continue
        plan.battles.append(PlannedBattle(d, atk, v, trapped))
        used |= umask
        taken.add(d)
    # Spare units join a battle they border when that raises its value.
    for a in free:
        if (used >> a) & 1:
            continue
        gain_best = 0.0
        pick = -1
        pick_v = None
        for i, bt in enumerate(plan.battles):
            if not (nm[s.loc[bt.defender]] >> s.loc[a]) & 1:
                continue
            atk2 = bt.attackers + (a,)
            col = compute_odds(s, bt.defender, atk2).final
            v2 = battle_value(s, bt.defender, atk2, col, bt.surrounded, b)
            if v2.ev - bt.value.ev > gain_best:
                gain_best = v2.ev - bt.value.ev
                pick = i
                pick_v = v2
        if pick_v is not None:
            bt = plan.battles[pick]
            plan.battles[pick] = PlannedBattle(bt.defender, bt.attackers + (a,), pick_v, bt.surrounded)
            used |= 1 << a
    return plan


# -- decisions while resolving ------------------------------------------------------------


def choose_resolve(s: State, actions: Sequence[Action]) -> tuple[Action, str]:
    """Resolve first the battles at the best odds: their advances can cut the retreat of
    the defenders still waiting."""
    grid = s.rules.map.grid
    attackers = dict(s.battles)

    def key(a: Resolve) -> float:
        d = s.at[grid.index[a.target]]
        return compute_odds(s, d, attackers[d]).final + (0.5 if no_retreat_now(s, d) else 0.0)

    best = max((a for a in actions if isinstance(a, Resolve)), key=key)
    return best, f"resolve the battle in {best.target} first (best odds, its advance may cut other retreats)"


def choose_retreat(s: State, actions: Sequence[Action]) -> tuple[Action, str]:
    """The attacker picks the defender's path: far from Moscow (or from the German front),
    onto poor terrain, away from its friends, through no city it would take back."""
    b = board_of(s.rules)
    grid = s.rules.map.grid
    cur = s.cur
    assert cur is not None
    dside = s.rules.units[cur.defender].side

    def score(a: Retreat) -> float:
        path = [grid.index[x] for x in a.path]
        end = path[-1]
        v = 1.5 * b.mdist[end]
        if dside != GERMAN and (b.moscow_mask >> end) & 1:
            v -= 6.0
        v -= 2.5 * b.shift[dside][end]
        v -= 1.0 * (b.nmask[end] & s.occ[dside]).bit_count()
        for h in path:
            if (b.city_mask >> h) & 1 and s.city_controller_at(h) != dside:
                v -= 4.0
        return v - 0.1 * len(path)

    best = max((a for a in actions if isinstance(a, Retreat)), key=score)
    return best, f"retreat the defender along {'-'.join(best.path)}: poor ground, far from Moscow"


def choose_loss(s: State, actions: Sequence[Action]) -> tuple[Action, str]:
    """The attacker gives up the step that costs least, covering what an exchange still owes."""
    rules = s.rules
    cur = s.cur
    assert cur is not None
    my_w = MY_W[s.side]
    owed = cur.owed

    def cost(a: Lose) -> float:
        u = rules.unit_index[a.unit]
        c = _loss_cost(s, u, my_w)
        pts = rules.units[u].loss(s.steps[u])
        if owed > 0 and pts < owed:
            c += 0.5 * my_w * (owed - pts)  # another step will be owed
        return c

    best = min((a for a in actions if isinstance(a, Lose)), key=cost)
    return best, f"{best.unit} takes the loss: the cheapest step that pays what is owed"


def choose_advance(s: State, actions: Sequence[Action]) -> tuple[Action, str]:
    """Advancing is free ground (a movement phase follows every combat phase). Into a city
    or Moscow the strongest unit goes; elsewhere the slowest, whose move is worth most."""
    rules = s.rules
    cur = s.cur
    assert cur is not None
    hex_ = cur.hex
    city = bool((board_of(rules).city_mask >> hex_) & 1)

    def key(a: Advance) -> tuple[int, int]:
        u = rules.unit_index[a.unit]  # type: ignore[index]
        st, move = s.strength(u), rules.units[u].move
        return (st, -move) if city else (-move, st)

    best = max((a for a in actions if isinstance(a, Advance) and a.unit is not None), key=key, default=None)
    if best is None:
        return Advance(None), "no unit advances"
    return best, f"{best.unit} advances into {rules.map.grid.ids[hex_]}"


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
    "choose_advance",
    "choose_loss",
    "choose_resolve",
    "choose_retreat",
    "choose_stand_fast",
    "plan_attacks",
]
