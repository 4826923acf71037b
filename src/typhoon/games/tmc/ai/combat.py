"""Combat for the TMC AI: which battles to fight (expected VP over the die) and every decision
inside a battle (odds column, ignoring Dr, losses, retreats chosen for the enemy, advances).

Values are in victory points from the attacker's side: the defender's elimination VP (with a
KG conversion for German armour, §8), the attacker's exchange losses at its own VP rate, small
amounts for retreats, and the whole defender when it has no retreat hex ([Q28]).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from typhoon.games.tmc import combat as rules_combat
from typhoon.games.tmc import combat_phase
from typhoon.games.tmc.actions import END, Action, Advance, Attack, Disrupt, Ignore, Lose, Odds, Retreat
from typhoon.games.tmc.ai.board import Situation, board_of, elim_vp, piece
from typhoon.games.tmc.rules import GERMAN
from typhoon.games.tmc.state import State
from typhoon.hexgrid import bit_list

R = rules_combat


@dataclass(frozen=True)
class Stakes:
    """What one battle puts at stake, in VP (attacker's view)."""

    defender_vp: float  # elimination VP of every defender
    defender_cf: int  # printed CF of the defenders (the Ex quota)
    attacker_vp: float  # elimination VP of every attacker
    loss_rate: float  # attacker VP lost per CF of exchange quota (cheapest units first)
    trapped: float  # 0..1: share of the defence that cannot retreat
    ex_cost: float = -1.0  # VP the attacker loses paying an Ex (whole units), -1: from loss_rate
    half_ex_cost: float = -1.0  # the same for a 1/2Ex
    clear_bonus: float = 1.5  # the defending hex emptied: the front opened, ground to take
    loss_weight: float = 1.0  # weight of the attacker's own losses (see LOSS_WEIGHT)


# §24 compares German VP with three times the Soviet VP: a VP the Germans give away costs
# them about as much as three they score, and the other way round for the Soviets. Losses are
# weighted most of the way (2.5 and 1/2); the rest of the game is not all about the ratio.
LOSS_WEIGHT = (2.5, 0.5)


def result_value(res: str, st: Stakes) -> float:
    vd, va, lw = st.defender_vp, st.attacker_vp, st.loss_weight
    quota = st.defender_cf * st.loss_rate
    if res == R.AE:
        return -va * lw
    if res == R.AR:
        return -0.1 * va * lw
    if res == R.BR:
        return st.trapped * vd * 0.8 + 0.1 * vd - 0.1 * va * lw
    if res == R.DR:
        return st.trapped * vd + (1 - st.trapped) * 0.25 * vd
    clear = st.clear_bonus
    if res == R.EX:
        return vd + clear - lw * (st.ex_cost if st.ex_cost >= 0 else min(va, quota))
    if res == R.HALF_EX:
        return vd + clear - lw * (st.half_ex_cost if st.half_ex_cost >= 0 else min(va, quota / 2))
    if res == R.DE:
        return vd + clear + 0.5
    if res == R.DE_AD:
        return vd + clear - 0.2 * st.defender_cf * lw
    return 0.0


def column_ev(crt: R.Crt, side: int, col: int, drm: int, st: Stakes, ignore: str | None = None) -> float:
    """Expected value of rolling on column ``col``; with ``ignore`` that result is rerolled."""
    vals = []
    for die in range(1, 7):
        res = crt.result(side, col, crt.row(die, drm))
        if ignore is not None and res == ignore:
            continue
        vals.append(result_value(res, st))
    return sum(vals) / len(vals) if vals else 0.0


def best_column(crt: R.Crt, side: int, top: int, drm: int, st: Stakes) -> tuple[int, float]:
    """The column (the computed one or lower, §5.4) with the best expected value."""
    best = (top, column_ev(crt, side, top, drm, st))
    for c in range(top - 1, max(-1, top - 4), -1):
        v = column_ev(crt, side, c, drm, st)
        if v > best[1] + 1e-9:
            best = (c, v)
    return best


def exchange_cost(s: State, attackers: Sequence[int], quota: Fraction) -> float:
    """VP the attacker loses paying an exchange quota with whole units, cheapest way (a German
    armoured unit pays as a KG conversion, §8, credit CF - 2)."""
    if quota <= 0 or not attackers:
        return 0.0
    opts = R.CombatOptions.from_options(s.rules.options)
    units = [(float(elim_vp(s, u)), R.loss_credit(piece(s, u), opts)) for u in attackers]
    single = [c for c, k in units if k >= quota]
    best = min(single) if single else float("inf")
    paid = Fraction(0)
    total = 0.0
    for c, k in sorted(units, key=lambda x: x[0] / max(0.5, float(x[1]))):
        if paid >= quota:
            break
        paid += k
        total += c
    return min(best, total)


def stakes(
    s: State, sit: Situation, attackers: Sequence[int], defenders: Sequence[int], hexes: Sequence[int]
) -> Stakes:
    vd = float(sum(elim_vp(s, u) for u in defenders))
    dcf = sum(s.cf(u) for u in defenders)
    va = float(sum(elim_vp(s, u) for u in attackers))
    rates = [elim_vp(s, u) / max(1, s.cf(u)) for u in attackers]
    rate = min(rates) if rates else 1.0
    dside = 1 - sit.side
    trapped = 1.0 if all(not sit.retreat_room(h, dside) for h in hexes) else 0.0
    q = Fraction(dcf)
    return Stakes(
        vd, dcf, va, rate, trapped, exchange_cost(s, attackers, q), exchange_cost(s, attackers, q / 2)
    )


# -- declaring battles ---------------------------------------------------------------------------


@dataclass
class Battle:
    target: int
    attackers: tuple[int, ...]
    column: int
    ev: float


@dataclass
class AttackPlan:
    battles: list[Battle] = field(default_factory=list)

    @property
    def value(self) -> float:
        return sum(b.ev for b in self.battles)


def _odds(sit: Situation, side: int, att: Fraction, dfn: Fraction) -> int:
    if dfn <= 0:
        return sit.crt.top
    return R.odds_index(sit.crt, att, dfn, side, sit.cond)


def plan_attacks(
    s: State,
    *,
    noise: float = 0.0,
    rng: random.Random | None = None,
    min_ev: float = 0.3,
    bonus: Callable[[int], float] | None = None,
) -> AttackPlan:
    """Battles for this combat phase: targets in order of value, each with the smallest set
    of adjacent attackers that gets the best expected VP; only battles worth ``min_ev``.
    ``bonus(target hex)``: VP added to a battle's value (the operational player's counter-attack
    targets); None adds nothing."""
    side = s.side
    sit = Situation(s, side, supply_now=True)
    grid = s.rules.grid
    lake = s.rules.map.lake_mask
    front = combat_phase.intact_front(s)
    avail = [u for u in s.rules.side_units[side] if s.loc[u] >= 0 and combat_phase.can_attack(s, u)]
    if not avail:
        return AttackPlan()
    occ = 0
    for u in avail:
        occ |= 1 << s.loc[u]
    targets = [t for t in bit_list(grid.expand(occ) & sit.enemy_occ) if combat_phase.attackable(s, t, side)]
    free = set(avail)
    strength = {u: sit.attack_of(u) for u in avail}
    barred = getattr(combat_phase, "_barred", None)  # §14.2: an overrun's units may not attack its hex
    options: list[tuple[float, int, list[int]]] = []
    for t in targets:
        adj = [
            u
            for u in avail
            if (grid.neighbour_mask[t] >> s.loc[u]) & 1 and (sit.cond.frozen or not (lake[s.loc[u]] >> t) & 1)
        ]
        if barred is not None:
            adj = [u for u in adj if not barred(s, u, t)]
        if adj:
            ev = _best_group(s, sit, t, adj, strength, front)[0]
            if bonus is not None:
                ev += bonus(t)
            options.append((ev, t, adj))
    if rng is not None and noise > 0:
        options = [(ev + rng.gauss(0.0, noise), t, adj) for ev, t, adj in options]
    options.sort(key=lambda x: -x[0])
    plan = AttackPlan()
    for _, t, adj in options:
        cands = [u for u in adj if u in free]
        if not cands:
            continue
        ev, group, col = _best_group(s, sit, t, cands, strength, front)
        if bonus is not None:
            ev += bonus(t)
        if rng is not None and noise > 0:
            ev += rng.gauss(0.0, noise)
        if ev >= min_ev and group:
            plan.battles.append(Battle(t, tuple(group), col, ev))
            free -= set(group)
    return plan


def group_ev(
    s: State,
    sit: Situation,
    t: int,
    group: Sequence[int],
    hexes: Sequence[int],
    att: Fraction,
    dfn: Fraction,
    base: Stakes,
    front: Sequence[int],
) -> tuple[float, int]:
    """(EV, best column) of ``group`` (standing on ``hexes``, attack ``att``) against ``t``."""
    side = sit.side
    col = _odds(sit, side, att, dfn)
    drm = R.terrain_drm(s.rules.map, (t,), hexes, side, sit.cond, front).value  # type: ignore[arg-type]
    va = sum(float(elim_vp(s, x)) for x in group)
    rate = min(elim_vp(s, x) / max(1, s.cf(x)) for x in group)
    q = Fraction(base.defender_cf)
    st = Stakes(
        base.defender_vp,
        base.defender_cf,
        va,
        rate,
        base.trapped,
        exchange_cost(s, group, q),
        exchange_cost(s, group, q / 2),
        loss_weight=LOSS_WEIGHT[side],
    )
    c, ev = best_column(sit.crt, side, col, drm, st)
    return ev - 0.02 * len(group), c  # a unit kept out of this battle may fight another


def cheap_payer(s: State, cands: Sequence[int], quota: int) -> int | None:
    """The candidate that pays an exchange of ``quota`` CF at the least VP (an infantry unit
    rather than an armoured one that would become a KG, §7, §8), if any can alone."""
    opts = R.CombatOptions.from_options(s.rules.options)
    ok = [u for u in cands if R.loss_credit(piece(s, u), opts) >= quota]
    return min(ok, key=lambda u: (elim_vp(s, u), u)) if ok else None


def _best_group(
    s: State,
    sit: Situation,
    t: int,
    cands: list[int],
    strength: dict[int, Fraction],
    front: Sequence[int],
) -> tuple[float, list[int], int]:
    """(EV, attackers, column) of the best prefix of ``cands`` (strongest first) against ``t``,
    attackers across a river or defence line last (the -2 needs all of them); then with the
    cheapest exchange payer added if that is better."""
    side = sit.side
    river = s.rules.map.river_mask

    def across(u: int) -> bool:
        h = s.loc[u]
        return bool((river[h] >> t) & 1) or (side == GERMAN and bool((front[h] >> t) & 1))

    order = sorted(cands, key=lambda u: (across(u), -strength[u]))
    defenders = s.stacks.get(t, ())
    dfn = sum((sit.defence_of(u) for u in defenders), Fraction(0))
    best: tuple[float, list[int], int] = (-1e9, [], 0)
    att = Fraction(0)
    base = stakes(s, sit, [], defenders, (t,))
    group: list[int] = []
    for u in order:
        group.append(u)
        att += strength[u]
        ev, c = group_ev(s, sit, t, group, [s.loc[x] for x in group], att, dfn, base, front)
        if ev > best[0] + 1e-9:
            best = (ev, list(group), c)
        if c >= sit.crt.top:
            break
    if best[1]:
        payer = cheap_payer(s, [u for u in order if u not in best[1]], base.defender_cf)
        if payer is not None:
            g2 = [*best[1], payer]
            a2 = sum((strength[x] for x in g2), Fraction(0))
            ev, c = group_ev(s, sit, t, g2, [s.loc[x] for x in g2], a2, dfn, base, front)
            if ev > best[0] + 1e-9:
                best = (ev, g2, c)
    return best


def next_declaration(s: State, actions: Sequence[Action], plan: AttackPlan) -> Action:
    """The next declaration of ``plan`` that is legal, else End."""
    pd = combat_phase.data(s)
    ids = s.rules.grid.ids
    units = s.rules.units
    acts = set(actions)
    draft = pd.draft
    if draft is None:
        for b in plan.battles:
            if (pd.hit >> b.target) & 1:
                continue
            for u in b.attackers:
                a = Attack(ids[b.target], (units[u].id,))
                if a in acts:
                    return a
        return END
    for b in plan.battles:
        if b.target != draft.hexes[0]:
            continue
        for u in b.attackers:
            if u in draft.attackers:
                continue
            a = Attack(ids[b.target], (units[u].id,))
            if a in acts:
                return a
    return END


# -- inside a battle -----------------------------------------------------------------------------


def _battle_stakes(s: State, b: Any) -> tuple[Situation, Stakes]:
    sit = Situation(s, b.side, supply_now=True)
    attackers = [u for u in b.attackers if s.loc[u] >= 0]
    defenders = [u for u in b.defenders if s.loc[u] >= 0]
    return sit, stakes(s, sit, attackers, defenders, b.hexes)


def choose_odds(s: State, actions: Sequence[Action]) -> tuple[Action, str]:
    b = combat_phase.battle(s)
    sit, st = _battle_stakes(s, b)
    col, ev = best_column(sit.crt, b.side, b.top, b.drm, st)
    name = sit.crt.columns[col]
    a = Odds(name)
    if a not in actions:
        a = actions[-1]  # type: ignore[assignment]
    why = f"resolve at {name} (expected {ev:+.1f} VP)"
    if col < b.top:
        why += f"; the computed {sit.crt.columns[b.top]} risks more exchange losses"
    return a, why


def choose_ignore(s: State, actions: Sequence[Action]) -> tuple[Action, str]:
    b = combat_phase.battle(s)
    sit, st = _battle_stakes(s, b)
    ignorable = combat_phase.options(s).ignorable_result
    plain = column_ev(sit.crt, b.side, b.column, b.drm, st)
    skip = column_ev(sit.crt, b.side, b.column, b.drm, st, ignore=ignorable)
    if skip > plain + 1e-9 and Ignore(True) in actions:
        return Ignore(True), f"ignore {ignorable}: expected {skip:+.1f} VP instead of {plain:+.1f}"
    return Ignore(False), f"accept {ignorable} results (expected {plain:+.1f} VP)"


def choose_loss(s: State, actions: Sequence[Action]) -> tuple[Action, str]:
    """Exchange losses (Lose) or De,Ad disruptions (Disrupt): the cheapest units that cover
    what is owed."""
    b = combat_phase.battle(s)
    owed = b.owed
    opts = combat_phase.options(s)
    disrupt = isinstance(actions[0], Disrupt)

    def credit(u: int) -> Fraction:
        return Fraction(s.cf(u)) if disrupt else R.loss_credit(piece(s, u), opts)

    def cost(u: int) -> float:
        v = float(elim_vp(s, u))
        return 0.3 * v if disrupt else v

    units = {s.rules.unit_index[a.unit]: a for a in actions if isinstance(a, (Lose, Disrupt))}
    covering = [u for u in units if credit(u) >= owed]
    if covering:
        u = min(covering, key=lambda x: (cost(x), x))
    else:
        u = max(units, key=lambda x: (float(credit(x)) / max(0.5, cost(x)), -x))
    verb = "disrupt" if disrupt else "lose"
    return units[u], f"{verb} {s.rules.units[u].id}: the cheapest way to pay {owed} CF"


def choose_retreat(s: State, actions: Sequence[Action]) -> tuple[Action, str]:
    """Retreats are routed by the retreating unit's opponent (§12.1): the worst hex for it -
    out of its supply, next to many of our units, in the open."""
    me = s.current_player()
    sit = Situation(s, me, supply_now=True)
    index = s.rules.grid.index
    nm = s.rules.grid.neighbour_mask
    board = board_of(s.rules)
    best: tuple[float, Action] | None = None
    for a in actions:
        if not isinstance(a, Retreat):
            continue
        u = s.rules.unit_index[a.unit]
        h = index[a.hex]
        side = s.rules.units[u].side
        if side == me:  # our own unit (not expected: the opponent routes it), keep it safe
            v = -float(bin(nm[h] & sit.enemy_occ).count("1")) + 3 * sit.in_supply_at(side, h)
        else:
            v = 3.0 * (not sit.in_supply_at(side, h)) + bin(nm[h] & s.occ[me]).count("1")
            v -= 1.5 * ((board.forest >> h) & 1)
            v += 0.1 * (board.dist_moscow[h] if side == GERMAN else -board.dist_moscow[h])
        if best is None or v > best[0]:
            best = (v, a)
    assert best is not None
    a = best[1]
    assert isinstance(a, Retreat)
    return a, f"retreat {a.unit} to {a.hex}: the hex that leaves it most exposed"


def choose_advance(s: State, actions: Sequence[Action]) -> tuple[Action, str]:
    """After combat: one unit advances into the vacated hex when it gains ground toward the
    side's goal (German: Moscow; Soviet: stronger terrain or the Moscow approaches)."""
    b = combat_phase.battle(s)
    stop = combat_phase.STOP_ADVANCE
    if b.advanced:
        return stop, "one unit has advanced: the others hold their hexes"
    board = board_of(s.rules)
    index = s.rules.grid.index
    best: tuple[float, Action] | None = None
    for a in actions:
        if not isinstance(a, Advance) or a.unit is None:
            continue
        u = s.rules.unit_index[a.unit]
        h, h0 = index[a.hex], s.loc[u]
        if b.side == GERMAN:
            v = float(board.dist_moscow[h0] - board.dist_moscow[h]) + (0.5 if s.is_mech(u) else 0.0)
        else:
            v = 1.5 * (((board.forest >> h) & 1) - ((board.forest >> h0) & 1)) + 0.3
            v += 0.2 * (board.river_count[h] - board.river_count[h0])
        if best is None or v > best[0]:
            best = (v, a)
    if best is not None and best[0] > 0:
        a = best[1]
        assert isinstance(a, Advance)
        return a, f"advance {a.unit} into {a.hex}: ground gained"
    return stop, "no advance: nothing gained by leaving the hex"


__all__ = [
    "AttackPlan",
    "Battle",
    "Stakes",
    "best_column",
    "choose_advance",
    "choose_ignore",
    "choose_loss",
    "choose_odds",
    "choose_retreat",
    "column_ev",
    "next_declaration",
    "plan_attacks",
    "result_value",
]
