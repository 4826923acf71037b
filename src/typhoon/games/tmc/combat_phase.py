"""The combat phase of The Moscow Campaign (rules_en.md §5–§13; readings in docs/TMC_COMBAT.md).

Notes for the ENGINE helper (how this module plugs in):
- phase-module API: ``begin(s, events)``, ``legal(s)``, ``apply(s, a, events)``,
  ``is_chance(s)``, ``current_player(s)``; flow.enter_phase sets up the same records as
  ``begin`` (flow sits below the phase modules and imports none of them);
- its records are defined in state.py: ``s.cdata`` holds one :class:`PhaseData`, ``s.combat``
  the :class:`Battle` being resolved (also in the movement phase's OVERRUN step, whose
  sequence of overrun battles is :func:`begin_overruns` here, overrun.py its phase module);
- §14.2: flow keeps ``s.overruns`` (the overruns resolved at the end of the movement phase)
  until the following combat phase ends; this module bars those (unit, hex) pairs;
- ``Attack(target, ())`` is written ``attack HEX`` in the notation.

Declaration (§5, "not in the digest" paragraph): the attacker builds one attack at a time with
``Attack(target, (unit,))`` (add ``unit`` to the attack on ``target``; the first one opens an
attack), ``Attack(target, ())`` (the attack being built also takes defending hex ``target``: one
attack may involve several defending hexes) and ``End`` (close the attack being built; with none
being built, end the declarations). An attacking unit must be adjacent to every defending hex
of its attack and not across an unfrozen lake hexside from any (§3.3); each unit attacks at most
once and each hex is attacked at most once per phase; EB, disrupted, entrained units and [#]
units without an ordinary stackmate cannot attack (§13, [Q14], [Q31], [Q56]); a lone [#] unit
cannot be attacked (§13.2). Attacks are then resolved in the order declared (the attacker's
order), each one: ``Odds(column)`` (the computed column or any lower one, §5.4), ``Ignore``
(declare that the ignorable result is ignored, §5.5 [Q8], only where it can come up), die roll
(chance, rerolled while the declared result comes up), then the attacker's loss or disruption
choices (``Lose``/``Disrupt``), the retreats (``Retreat(unit, hex)``, chosen by the retreating
units' OPPONENT, §12.1) and the attacker's advances (``Advance(unit, hex)``, ``Advance(None, "")``
to stop). Supply is judged when each combat starts (§11).
"""

from __future__ import annotations

from fractions import Fraction
from typing import cast

from typhoon.errors import IllegalActionError
from typhoon.events import Event
from typhoon.games.tmc.actions import (
    END,
    ROLLS,
    Action,
    Advance,
    Attack,
    Disrupt,
    End,
    Ignore,
    Lose,
    Odds,
    Retreat,
    Roll,
)
from typhoon.games.tmc.combat import (
    ADVANCE_RESULTS,
    AE,
    AR,
    BR,
    BRACKET,
    DE,
    DE_AD,
    DR,
    EB,
    EX,
    HALF_EX,
    PLAIN,
    RESULT_WORDS,
    CombatOptions,
    Conditions,
    Piece,
    attack_strength,
    becomes_kg,
    bracket_usable,
    conditions_for_turn,
    defence_strength,
    elimination_vp,
    ignore_allowed,
    kg_conversion_vp,
    load_crt,
    loss_credit,
    loss_quota,
    odds_index,
    retreat_hexes,
    terrain_drm,
)
from typhoon.games.tmc.flow import end_phase, german_supply_mask, soviet_supply_mask
from typhoon.games.tmc.moving import enter_effects, full_hexes
from typhoon.games.tmc.rules import GERMAN, SIDE_NAMES
from typhoon.games.tmc.state import (
    ADVANCE,
    DISRUPT,
    IGNORE,
    LOSS,
    ODDS,
    RETREAT,
    ROLL,
    Battle,
    Declared,
    PhaseData,
    State,
    battle_is_chance,
    battle_player,
)
from typhoon.hexgrid import bit_list

STOP_ADVANCE = Advance(None, "")
IGNORE_CHOICES = (Ignore(True), Ignore(False))


# -- small helpers ---------------------------------------------------------------------------


def data(s: State) -> PhaseData:
    return cast(PhaseData, s.cdata) if s.cdata else PhaseData()


def battle(s: State) -> Battle:
    b = s.combat
    if not isinstance(b, Battle):
        raise AssertionError("no battle in progress")
    return b


def options(s: State) -> CombatOptions:
    return CombatOptions.from_options(s.rules.options)


def conditions(s: State) -> Conditions:
    return conditions_for_turn(max(s.turn, 1))


def piece(s: State, u: int) -> Piece:
    """The combat facts of the counter now standing for unit ``u`` (a KG is a mechanised 2)."""
    spec = s.rules.units[u]
    kind = EB if spec.eb else BRACKET if spec.bracket else PLAIN
    return Piece(spec.side, s.cf(u), kind, s.is_mech(u), bool((s.kg >> u) & 1))


def _uid(s: State, u: int) -> str:
    return s.rules.units[u].id


def _name(s: State, u: int) -> str:
    return s.rules.units[u].name


def _hid(s: State, h: int) -> str:
    return s.rules.grid.ids[h]


def _mask(units: tuple[int, ...] | list[int]) -> int:
    m = 0
    for u in units:
        m |= 1 << u
    return m


def _passable(s: State, h: int) -> int:
    """Neighbours of h not across an unfrozen lake hexside (no attack, move or retreat, §3.3)."""
    m = s.rules.grid.neighbour_mask[h]
    if not s.frozen():
        m &= ~s.rules.map.lake_mask[h]
    return m


def intact_front(s: State) -> list[int]:
    """Per hex: front-hexside neighbours whose defence-line hexside is not destroyed (§19)."""
    got = s._cache.get("dl_intact_front")
    if got is None:
        front = list(s.rules.map.defence_front)  # type: ignore[attr-defined]
        for k in bit_list(s.dl_destroyed):
            _, outer, inner = s.rules.dl_sides[k]
            front[outer] &= ~(1 << inner)
        s._cache["dl_intact_front"] = got = front
    return cast(list[int], got)


def supply_now(s: State) -> tuple[int, int]:
    """Hexes where each side's units are in supply at this moment (§11: judged at each combat)."""
    return german_supply_mask(s), soviet_supply_mask(s)


def strengths(s: State, attackers: tuple[int, ...], defenders: tuple[int, ...]) -> tuple[Fraction, Fraction]:
    """Total attack and defence strength with every halving (§5.2, §11.3, §18, §20.8). A [#]
    attacker adds its CF only while it is still stacked with a unit of ordinary CF when the
    attack is resolved (§13.2): an earlier combat of the phase may have taken its stackmate."""
    sup = supply_now(s)
    cond = conditions(s)
    opts = options(s)
    att = Fraction(0)
    for u in attackers:
        p = piece(s, u)
        if s.rules.units[u].bracket and not bracket_usable(
            [piece(s, x) for x in s.stacks.get(s.loc[u], ()) if x != u], opts
        ):
            continue
        att += attack_strength(p, bool((sup[p.side] >> s.loc[u]) & 1), cond, opts)
    dfn = Fraction(0)
    for u in defenders:
        p = piece(s, u)
        dfn += defence_strength(
            p, bool((sup[p.side] >> s.loc[u]) & 1), cond, entrained=bool((s.entrained >> u) & 1), opts=opts
        )
    return att, dfn


# -- phase API -------------------------------------------------------------------------------


def begin(s: State, events: list[Event]) -> None:
    """Start of a combat phase: nothing declared yet."""
    s.cdata = PhaseData()
    s.combat = None


# The state answers these itself (it needs them without importing the phase modules).
is_chance = battle_is_chance
current_player = battle_player


def legal(s: State) -> list[Action]:
    if isinstance(s.combat, Battle):
        return battle_legal(s)
    return _legal_declare(s)


def apply(s: State, a: Action, events: list[Event]) -> None:
    if isinstance(s.combat, Battle):
        battle_apply(s, a, events)
        return
    if a not in _legal_declare(s):
        raise IllegalActionError(_why_not_declare(s, a))
    if isinstance(a, Attack):
        _declare(s, a, events)
    elif isinstance(a, End):
        _end_declare(s, events)


# -- declaration -----------------------------------------------------------------------------


def can_attack(s: State, u: int) -> bool:
    """Unit ``u`` of the phasing side may still take part in an attack this phase."""
    if s.loc[u] < 0 or (data(s).used >> u) & 1 or u in s.disrupted:
        return False
    if ((s.entrained | s.flipped) >> u) & 1:
        return False
    spec = s.rules.units[u]
    if spec.eb or s.cf(u) <= 0:
        return False
    if spec.bracket:
        mates = [piece(s, x) for x in s.stacks[s.loc[u]] if x != u]
        return bracket_usable(mates, options(s))
    return True


def attackable(s: State, h: int, side: int) -> bool:
    """Hex ``h`` holds enemy units that ``side`` may attack (not a lone [#] unit, §13.2)."""
    us = s.stacks.get(h, ())
    if not us or s.rules.units[us[0]].side == side or (data(s).hit >> h) & 1:
        return False
    if len(us) == 1 and s.rules.units[us[0]].bracket:
        return False
    return not all((s.flipped >> u) & 1 for u in us)


def _barred(s: State, u: int, h: int) -> bool:
    """§14.2: a unit that overran hex h this player turn may not attack it in this combat phase."""
    return any(o.hex == h and u in o.attackers for o in s.overruns)


def _legal_declare(s: State) -> list[Action]:
    pd = data(s)
    if not pd.declaring:
        return []
    side = s.side
    ids = s.rules.grid.ids
    out: list[Action] = []
    draft = pd.draft
    if draft is None:
        for u in s.rules.side_units[side]:
            if not can_attack(s, u):
                continue
            h = s.loc[u]
            uid = _uid(s, u)
            for t in bit_list(_passable(s, h) & s.occ[1 - side]):
                if attackable(s, t, side) and not _barred(s, u, t):
                    out.append(Attack(ids[t], (uid,)))
        out.append(END)
        return out
    first = ids[draft.hexes[0]]
    for u in s.rules.side_units[side]:
        if u in draft.attackers or not can_attack(s, u):
            continue
        reach = _passable(s, s.loc[u])
        if all((reach >> t) & 1 and not _barred(s, u, t) for t in draft.hexes):
            out.append(Attack(first, (_uid(s, u),)))
    common = s.occ[1 - side]
    for u in draft.attackers:
        common &= _passable(s, s.loc[u])
    for t in bit_list(common):
        if (
            t not in draft.hexes
            and attackable(s, t, side)
            and not any(_barred(s, u, t) for u in draft.attackers)
        ):
            out.append(Attack(ids[t], ()))
    out.append(END)
    return out


def _why_not_declare(s: State, a: Action) -> str:
    if not isinstance(a, Attack | End):
        return f"{type(a).__name__} is not possible while attacks are being declared"
    if isinstance(a, Attack):
        for uid in a.units:
            u = s.rules.unit_index.get(uid, -1)
            if u < 0:
                return f"there is no unit {uid}"
            if s.rules.units[u].side != s.side:
                return f"{s.rules.units[u].name} is not a unit of the attacking side"
            if not can_attack(s, u):
                return f"{s.rules.units[u].name} cannot attack now (already attacking, EB, disrupted, entrained or a lone [#])"
        h = s.rules.grid.index.get(a.target, -1)
        if h < 0:
            return f"{a.target} is not a hex of this map"
        if not attackable(s, h, s.side):
            return f"{a.target} holds no enemy unit that can be attacked (or is already attacked)"
        return (
            f"{a.target}: every attacker must be adjacent to every defending hex, not across a lake hexside"
        )
    return "End is not possible here"


def _declare(s: State, a: Attack, events: list[Event]) -> None:
    pd = data(s)
    h = s.rules.grid.index[a.target]
    if a.units:
        u = s.rules.unit_index[a.units[0]]
        if pd.draft is None:
            draft = Declared((h,), (u,))
            pd = pd._replace(hit=pd.hit | (1 << h))
        else:
            draft = pd.draft._replace(attackers=pd.draft.attackers + (u,))
        pd = pd._replace(used=pd.used | (1 << u), draft=draft)
        text = f"{_name(s, u)} will attack {a.target}."
    else:
        assert pd.draft is not None
        pd = pd._replace(draft=pd.draft._replace(hexes=pd.draft.hexes + (h,)), hit=pd.hit | (1 << h))
        text = f"The attack also takes in {a.target}."
    s.cdata = pd
    events.append(Event("declare", text, {"target": a.target, "units": list(a.units)}))


def describe(s: State, d: Declared) -> str:
    hexes = "+".join(_hid(s, h) for h in d.hexes)
    return f"{' + '.join(_uid(s, u) for u in d.attackers)} against {hexes}"


def _end_declare(s: State, events: list[Event]) -> None:
    pd = data(s)
    if pd.draft is not None:
        s.cdata = pd._replace(battles=pd.battles + (pd.draft,), draft=None)
        events.append(Event("declare", f"Attack declared: {describe(s, pd.draft)}.", {}))
        return
    s.cdata = pd._replace(declaring=False)
    if not pd.battles:
        events.append(Event("declare", "No attacks declared.", {}))
    else:
        events.append(Event("declare", f"{len(pd.battles)} attack(s) declared.", {"count": len(pd.battles)}))
    _next_battle(s, events)


def _next_battle(s: State, events: list[Event]) -> None:
    pd = data(s)
    if not pd.battles:
        s.combat = None
        end_phase(s, events)
        return
    d, rest = pd.battles[0], pd.battles[1:]
    s.cdata = pd._replace(battles=rest)
    start_battle(s, d.hexes, d.attackers, events)


# -- resolution ------------------------------------------------------------------------------


def start_battle(
    s: State,
    hexes: tuple[int, ...],
    attackers: tuple[int, ...],
    events: list[Event],
    *,
    overrun: bool = False,
) -> None:
    """Work out strengths, odds and terrain for one attack (now: supply is judged at this
    moment) and wait for the odds choice; an overrun goes straight to its roll on 11-1 (§14.3)."""
    crt = load_crt()
    defenders = tuple(u for h in hexes for u in s.stacks.get(h, ()))
    attackers = tuple(u for u in attackers if s.loc[u] >= 0)
    side = s.rules.units[attackers[0]].side if attackers else s.side
    if not defenders or not attackers:
        events.append(Event("battle", "The attack has nobody left to fight; it lapses.", {}))
        s.combat = Battle(hexes, attackers, defenders, side, ADVANCE, overrun=overrun)
        finish_battle(s, events)
        return
    att, dfn = strengths(s, attackers, defenders)
    cond = conditions(s)
    top = odds_index(crt, att, dfn, side, cond)
    drm = terrain_drm(
        s.rules.map,  # type: ignore[arg-type]
        hexes,
        [s.loc[u] for u in attackers],
        side,
        cond,
        intact_front(s),
    )
    b = Battle(hexes, attackers, defenders, side, ODDS, att, dfn, top, top, drm.value, overrun=overrun)
    shift = " (+1 column: GT 1-4)" if side == GERMAN and cond.german_shift else ""
    where = "+".join(_hid(s, h) for h in hexes)
    text = (
        f"{'Overrun' if overrun else 'Attack'} on {where}: {float(att):g} against {float(dfn):g}, "
        f"{crt.columns[top]}{shift}" + (f", {drm.value} for {drm.reason}" if drm.value else "") + "."
    )
    events.append(
        Event(
            "battle",
            text,
            {
                "hexes": [_hid(s, h) for h in hexes],
                "attackers": [_uid(s, u) for u in attackers],
                "defenders": [_uid(s, u) for u in defenders],
                "attack": str(att),
                "defence": str(dfn),
                "column": crt.columns[top],
                "drm": drm.value,
                "overrun": overrun,
            },
        )
    )
    if overrun:  # §14.3: one roll on the 11-1 column, nothing to lower or ignore
        b = b._replace(top=crt.top, column=crt.top, stage=ROLL)
    s.combat = b


def battle_legal(s: State) -> list[Action]:
    b = battle(s)
    st = b.stage
    if st == ODDS:
        return [Odds(c) for c in load_crt().columns[: b.top + 1]]
    if st == IGNORE:
        return list(IGNORE_CHOICES)
    if st == ROLL:
        return list(ROLLS)
    if st == LOSS:
        return [Lose(_uid(s, u)) for u in _loss_candidates(s, b)]
    if st == DISRUPT:
        return [Disrupt(_uid(s, u)) for u in _loss_candidates(s, b)]
    if st == RETREAT:
        ids = s.rules.grid.ids
        return [Retreat(_uid(s, u), ids[h]) for u in bit_list(b.retreating) for h in retreat_options(s, u)]
    if st == ADVANCE:
        ids = s.rules.grid.ids
        acts: list[Action] = [Advance(_uid(s, u), ids[h]) for u, h in advance_options(s, b)]
        acts.append(STOP_ADVANCE)
        return acts
    raise AssertionError(f"unknown battle stage {st}")


def battle_apply(s: State, a: Action, events: list[Event]) -> None:
    b = battle(s)
    if a not in battle_legal(s):
        raise IllegalActionError(_why_not_battle(s, b, a))
    if isinstance(a, Odds):
        col = load_crt().columns.index(a.column)
        ignorable = options(s).ignorable_result
        b = b._replace(column=col)
        if col < b.top:
            events.append(
                Event("odds", f"The attacker lowers the odds to {a.column} (§5.4).", {"column": a.column})
            )
        can_ignore = ignore_allowed(load_crt(), b.side, col, b.drm, ignorable)
        s.combat = b._replace(stage=IGNORE if can_ignore else ROLL)
    elif isinstance(a, Ignore):
        if a.accept:
            ignorable = options(s).ignorable_result
            events.append(
                Event("ignore", f"The attacker declares that {ignorable} results are ignored (§5.5).", {})
            )
        s.combat = b._replace(ignore=a.accept, stage=ROLL)
    elif isinstance(a, Roll):
        _roll(s, b, a.die, events)
    elif isinstance(a, Lose):
        _take_loss(s, b, s.rules.unit_index[a.unit], events)
    elif isinstance(a, Disrupt):
        _take_disruption(s, b, s.rules.unit_index[a.unit], events)
    elif isinstance(a, Retreat):
        _retreat(s, b, s.rules.unit_index[a.unit], s.rules.grid.index[a.hex], events)
    elif isinstance(a, Advance):
        if a.unit is None:
            events.append(Event("advance", "No (further) advance.", {}))
            finish_battle(s, events)
        else:
            _advance(s, b, s.rules.unit_index[a.unit], s.rules.grid.index[a.hex], events)


def _why_not_battle(s: State, b: Battle, a: Action) -> str:
    expected = {
        ODDS: "choose the odds column (the computed one or lower)",
        IGNORE: "declare whether the ignorable result is ignored",
        ROLL: "a die roll of 1 to 6 is due",
        LOSS: "the attacker must choose an attacking unit to eliminate",
        DISRUPT: "the attacker must choose an attacking unit to disrupt",
        RETREAT: "the opposing player must choose a retreat hex for a retreating unit",
        ADVANCE: "the attacker may advance a surviving attacker into a vacated hex, or stop",
    }[b.stage]
    return f"{type(a).__name__} is not legal here: {expected}"


def _roll(s: State, b: Battle, die: int, events: list[Event]) -> None:
    crt = load_crt()
    row = crt.row(die, b.drm)
    result = crt.result(b.side, b.column, row)
    text = f"Die {die}" + (f" {b.drm:+d} = {row}" if b.drm else "") + f" on {crt.columns[b.column]}: {result}"
    info = {"die": die, "row": row, "column": crt.columns[b.column], "result": result}
    if b.ignore and result == options(s).ignorable_result:
        events.append(
            Event("roll", text + " - ignored as declared, roll again (§5.5).", info | {"ignored": True})
        )
        return
    events.append(Event("roll", text + f" ({RESULT_WORDS[result]}).", info))
    b = b._replace(result=result)
    s.combat = b
    defenders = _alive(s, b.defenders)
    attackers = _alive(s, b.attackers)
    if result == AE:
        for u in attackers:
            kill(s, u, events, "attacker eliminated (Ae)")
        finish_battle(s, events)
    elif result == AR:
        _begin_retreat(s, b, attackers, then_attackers=False, advance=False, events=events)
    elif result == BR:
        _begin_retreat(s, b, defenders, then_attackers=True, advance=False, events=events)
    elif result == DR:
        _begin_retreat(s, b, defenders, then_attackers=False, advance=True, events=events)
    elif result == DE:
        for u in defenders:
            kill(s, u, events, "defender eliminated (De)")
        to_advance(s, events)
    elif result in (EX, HALF_EX, DE_AD):
        quota = loss_quota(result, [piece(s, u) for u in defenders])
        for u in defenders:
            kill(s, u, events, f"defender eliminated ({result})")
        s.combat = battle(s)._replace(stage=DISRUPT if result == DE_AD else LOSS, owed=quota)
        verb = "disrupt" if result == DE_AD else "eliminate"
        events.append(
            Event(
                "quota",
                f"The attacker must {verb} units of at least {quota} printed CF.",
                {"owed": str(quota)},
            )
        )
        _settle_quota(s, events)
    else:  # pragma: no cover - crt.json is validated
        raise AssertionError(result)


def _alive(s: State, units: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(u for u in units if s.loc[u] >= 0)


# -- eliminations, KG, VP ------------------------------------------------------------------------


def kill(s: State, u: int, events: list[Event], why: str) -> bool:
    """Eliminate ``u`` as a combat result, or replace it in place by its KG (§8.1, [Q16]); score
    the VP (§23). Returns True if it became a KG."""
    p = piece(s, u)
    if becomes_kg(p):
        make_kg(s, u, events, why)
        return True
    side, vp = elimination_vp(p)
    s.add_vp(side, vp)
    s.eliminate(u)
    events.append(
        Event(
            "eliminated",
            f"{_name(s, u)} is eliminated ({why}): {SIDE_NAMES[side].capitalize()} +{vp} VP.",
            {"unit": _uid(s, u), "vp": vp, "to": SIDE_NAMES[side]},
        )
    )
    return False


def make_kg(s: State, u: int, events: list[Event], why: str) -> None:
    """§8: the German mechanised unit is replaced in its hex by a Kampfgruppe (2-8)."""
    side, vp = kg_conversion_vp(piece(s, u))
    s.kg |= 1 << u
    s.add_vp(side, vp)
    s._cache = {}
    events.append(
        Event(
            "kg",
            f"{_name(s, u)} is replaced by a Kampfgruppe ({why}): Soviet +{vp} VP.",
            {"unit": _uid(s, u), "vp": vp},
        )
    )


# -- losses and disruption -----------------------------------------------------------------------


def _loss_candidates(s: State, b: Battle) -> list[int]:
    return [u for u in b.attackers if s.loc[u] >= 0 and not (b.chosen >> u) & 1]


def _credit(s: State, b: Battle, u: int) -> Fraction:
    if b.stage == DISRUPT:
        return Fraction(s.cf(u))  # §7 De,Ad: printed CF
    return loss_credit(piece(s, u), options(s))


def _settle_quota(s: State, events: list[Event]) -> None:
    """Stop when the quota is met; when the remaining attackers cannot meet it, all of them
    go ([Q12]) without asking."""
    b = battle(s)
    cands = _loss_candidates(s, b)
    if b.owed <= 0 or not cands:
        to_advance(s, events)
        return
    if sum((_credit(s, b, u) for u in cands), Fraction(0)) <= b.owed:
        for u in cands:
            if b.stage == DISRUPT:
                _disrupt_one(s, u, events)
            else:
                kill(s, u, events, f"exchange loss ({b.result})")
        s.combat = battle(s)._replace(owed=Fraction(0), chosen=b.chosen | _mask(cands))
        to_advance(s, events)


def _take_loss(s: State, b: Battle, u: int, events: list[Event]) -> None:
    credit = _credit(s, b, u)
    kill(s, u, events, f"exchange loss ({b.result})")
    s.combat = battle(s)._replace(owed=b.owed - credit, chosen=b.chosen | (1 << u))
    _settle_quota(s, events)


def _disrupt_one(s: State, u: int, events: list[Event]) -> None:
    s.disrupted[u] = s.turn + 1  # [Q14]: recovers at the end of the German player turn of GT n+1
    s._cache = {}
    events.append(
        Event("disrupted", f"{_name(s, u)} is disrupted.", {"unit": _uid(s, u), "until": s.turn + 1})
    )


def _take_disruption(s: State, b: Battle, u: int, events: list[Event]) -> None:
    credit = _credit(s, b, u)
    _disrupt_one(s, u, events)
    s.combat = b._replace(owed=b.owed - credit, chosen=b.chosen | (1 << u))
    _settle_quota(s, events)


# -- retreats ------------------------------------------------------------------------------------


def retreat_options(s: State, u: int) -> list[int]:
    """Where unit ``u`` may be retreated now (§12, §17.3; readings [Q28]-[Q30]). A hex already
    holding the stacking limit is among them: §10.3 turns that retreat into the unit's
    elimination (or KG, [Q17]) rather than making it illegal ([Q28]), and the retreat is the
    opponent's choice (§12.1)."""
    spec = s.rules.units[u]
    side = spec.side
    h = s.loc[u]
    rail = tuple(s.rules.map.rail_neighbours[h]) if spec.eb else None
    return retreat_hexes(
        s.rules.map,  # type: ignore[arg-type]
        s.rules.grid.neighbour_mask,
        h,
        conditions(s),
        friendly_occ=s.occ[side],
        enemy_occ=s.occ[1 - side],
        enemy_zoc=s.zoc(1 - side),
        full=0,
        rail=rail,
        rail_usable=s.rail_normal | s.rail_german | s.rail_soviet,
    )


def _begin_retreat(
    s: State,
    b: Battle,
    units: tuple[int, ...],
    *,
    then_attackers: bool,
    advance: bool,
    events: list[Event],
) -> None:
    s.combat = b._replace(
        stage=RETREAT, retreating=_mask(units), then_attackers=then_attackers, advance=advance
    )
    _settle_retreats(s, events)


def _settle_retreats(s: State, events: list[Event]) -> None:
    """Units that cannot retreat (any more) are eliminated or become KGs in place ([Q28],
    §8.2, [Q17]); then wait for the opponent's choice, or go on (Br: attackers next)."""
    while True:
        b = battle(s)
        pending = [u for u in bit_list(b.retreating) if s.loc[u] >= 0]
        stuck = [u for u in pending if not retreat_options(s, u)]
        for u in stuck:
            pending.remove(u)
            if becomes_kg(piece(s, u)):
                make_kg(s, u, events, "no retreat possible")
            else:
                kill(s, u, events, "no retreat possible")
        b = battle(s)._replace(retreating=_mask(pending))
        s.combat = b
        if stuck:
            continue
        if pending:
            return
        if b.then_attackers:
            s.combat = b._replace(then_attackers=False, retreating=_mask(_alive(s, b.attackers)))
            continue
        if b.advance:
            to_advance(s, events)
        else:
            finish_battle(s, events)
        return


def _retreat(s: State, b: Battle, u: int, h: int, events: list[Event]) -> None:
    frm = s.loc[u]
    if (full_hexes(s) >> h) & 1:
        # §10.3: the retreat would overstack, so the unit is eliminated instead (a German
        # mechanised unit of 4+ CF becomes a KG in its own hex, [Q17]).
        kill(s, u, events, f"retreat into full hex {_hid(s, h)}")
        s.combat = battle(s)._replace(retreating=b.retreating & ~(1 << u))
        _settle_retreats(s, events)
        return
    s.relocate(u, h)
    entered(s, u, frm, h, events)
    s.combat = battle(s)._replace(retreating=b.retreating & ~(1 << u))
    events.append(
        Event(
            "retreat",
            f"{_name(s, u)} retreats {_hid(s, frm)}-{_hid(s, h)}.",
            {"unit": _uid(s, u), "from": _hid(s, frm), "to": _hid(s, h)},
        )
    )
    _settle_retreats(s, events)


# -- advance -------------------------------------------------------------------------------------


def vacated(s: State, b: Battle) -> list[int]:
    """Defending hexes now free of the defender's units ([Q16]: a KG left there keeps it)."""
    dside = 1 - b.side
    return [h for h in b.hexes if not (s.occ[dside] >> h) & 1]


def advance_options(s: State, b: Battle) -> list[tuple[int, int]]:
    """(unit, hex): surviving, non-disrupted attackers that have not advanced yet, into a
    vacated defending hex next to them, up to the stacking limit (§9, [Q21], §8.4)."""
    if b.result not in ADVANCE_RESULTS:
        return []
    out = []
    full = full_hexes(s)
    targets = [h for h in vacated(s, b) if not (full >> h) & 1]
    if not targets:
        return []
    for u in b.attackers:
        h0 = s.loc[u]
        if h0 < 0 or u in s.disrupted or (b.advanced >> u) & 1 or h0 in b.hexes:
            continue
        reach = _passable(s, h0)
        for h in targets:
            if (reach >> h) & 1:
                out.append((u, h))
    return out


def to_advance(s: State, events: list[Event]) -> None:
    b = battle(s)._replace(stage=ADVANCE)
    s.combat = b
    if not advance_options(s, b):
        finish_battle(s, events)


def _advance(s: State, b: Battle, u: int, h: int, events: list[Event]) -> None:
    frm = s.loc[u]
    s.relocate(u, h)
    entered(s, u, frm, h, events)
    b = battle(s)._replace(advanced=b.advanced | (1 << u))
    s.combat = b
    events.append(
        Event(
            "advance",
            f"{_name(s, u)} advances {_hid(s, frm)}-{_hid(s, h)}.",
            {"unit": _uid(s, u), "from": _hid(s, frm), "to": _hid(s, h)},
        )
    )
    if not advance_options(s, b):
        finish_battle(s, events)


def finish_battle(s: State, events: list[Event]) -> None:
    b = battle(s)
    s.combat = None
    if b.overrun:
        after_overrun(s, events)
    else:
        _next_battle(s, events)


# -- the overruns of a movement phase, resolved one after another like battles (§14.3) -----------
# (overrun.py is the OVERRUN step's phase-module face; the sequence lives here because each
# overrun's battle ends in finish_battle above.)


def _overrun_index(s: State) -> int:
    if len(s.cdata) == 2 and s.cdata[0] == "overrun":
        return int(s.cdata[1])
    return 0


def begin_overruns(s: State, events: list[Event]) -> None:
    """End of the movement phase: resolve the pending overruns one after another (§14.3)."""
    s.cdata = ("overrun", 0)
    _start_overrun(s, events)


def _start_overrun(s: State, events: list[Event]) -> None:
    i = _overrun_index(s)
    if i >= len(s.overruns):
        s.cdata = ()
        s.combat = None
        end_phase(s, events)
        return
    p = s.overruns[i]
    for d in s.stacks.get(p.hex, ()):
        s.flipped &= ~(1 << d)  # face up again for the resolution ([Q36])
    s._cache = {}
    start_battle(s, (p.hex,), p.attackers, events, overrun=True)


def after_overrun(s: State, events: list[Event]) -> None:
    """finish_battle calls this when an overrun's resolution is over."""
    s.cdata = ("overrun", _overrun_index(s) + 1)
    _start_overrun(s, events)


# -- side effects of entering a hex outside movement ---------------------------------------------


def entered(s: State, u: int, frm: int, to: int, events: list[Event]) -> None:
    """A retreat or advance enters ``to``: the same effects as a move (§16 rail destroyed or
    repaired, §19 a German crossing destroys an intact front hexside; [Q21], [Q40], [Q50])."""
    enter_effects(s, u, frm, to, events)
    s._cache = {}
