"""Combat phases (seed 002, "Combat", "Combat results", "Mud"; reference CRT).

1. Declaration: the attacker names every battle (which enemy unit, which of his adjacent
   units attack it). Each unit attacks at most once, each enemy unit is attacked at most
   once. Once he ends the declarations they are fixed.
2. Resolution, one battle at a time in the attacker's order: total attack strength (halved in
   mud, fractions kept; VPG halves panzers only) divided by the defender's, fractions dropped,
   above 6:1 counts as 6:1; then one column left for a defender in forest, in Moscow (VPG: a
   major city) or a Soviet defender in a fortification, and one more if every attacker is
   across a river; below 1:1 the attack has no effect. Roll a die and apply the result.
3. Results: NE nothing; DR the attacker retreats the defender two hexes, ending two hexes
   away, never into an enemy zone of control, going on two more hexes while the hex it
   reaches holds a friendly unit (no path: eliminated); DRL a step loss, then DR; AL one
   attacking unit of the attacker's choice loses a step; DE the defender is eliminated; EX
   the defender loses a step, the attacker then loses at least as many strength points
   (printed strengths, a flip counting full minus half), and a surviving defender retreats
   as DR. When the defender's hex is empty one attacking unit may advance into it.
   VPG "stand fast": a defender in Moscow or Tula may take a step loss instead of a DR retreat.

Decisions with a single possible answer are taken by the engine (see engine.apply).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from typhoon.errors import IllegalActionError
from typhoon.events import Event
from typhoon.games.bfm.actions import (
    END,
    ROLLS,
    Action,
    Advance,
    Attack,
    End,
    Lose,
    Resolve,
    Retreat,
    Roll,
    StandFast,
)
from typhoon.games.bfm.flow import end_phase
from typhoon.games.bfm.rules import Rules
from typhoon.games.bfm.state import (
    ADVANCE,
    CHOOSE,
    DECLARE,
    LOSS,
    RETREAT,
    ROLL,
    STAND,
    Battle,
    State,
)
from typhoon.mechanics.combat import odds_column
from typhoon.mechanics.retreat import retreat_paths
from typhoon.mechanics.zoc import zoc_mask

MAX_COLUMN = 6
RETREAT_LENGTH = 2
STAND_FAST_ACTIONS = (StandFast(True), StandFast(False))


# -- odds ----------------------------------------------------------------------------------


class Odds:
    """The odds of a battle, worked out step by step (used by events, previews and AIs)."""

    __slots__ = ("attack_halves", "defense", "column", "shifts", "reasons", "final")

    def __init__(self, attack_halves: int, defense: int, column: int, reasons: list[str]):
        self.attack_halves = attack_halves
        self.defense = defense
        self.column = column
        self.reasons = reasons
        self.shifts = len(reasons)
        self.final = column - self.shifts

    @property
    def attack(self) -> float:
        return self.attack_halves / 2

    @property
    def no_effect(self) -> bool:
        return self.final < 1

    def text(self) -> str:
        a = self.attack
        atk = f"{a:g}"
        base = f"{self.column}:1" if self.column >= 1 else "below 1:1"
        out = f"{atk} against {self.defense}: {base}"
        if self.reasons:
            out += ", shifted left for " + ", ".join(self.reasons)
            out += f" to {self.final}:1" if self.final >= 1 else " to below 1:1"
        if self.final < 1:
            out += " (no effect)"
        return out


def compute_odds(s: State, defender: int, attackers: tuple[int, ...] | list[int]) -> Odds:
    """The odds of a battle as it stands. Units no longer on the map (an attacker lost to an
    exchange while its battle is still being decided) add nothing, and a defender that has
    left the map gets no terrain shifts: every view may ask about any reachable position."""
    rules = s.rules
    m = rules.map
    mud = s.is_mud()
    attackers = [a for a in attackers if s.loc[a] >= 0]
    halves = 0
    for a in attackers:
        st = s.strength(a)
        halves += st if mud and rules.halved_in_mud(a) else 2 * st
    dfs = s.strength(defender)
    col = odds_column(halves, dfs, MAX_COLUMN)
    h = s.loc[defender]
    dside = rules.units[defender].side
    reasons: list[str] = []
    if h < 0:
        return Odds(halves, dfs, col, reasons)
    if rules.defender_shift[dside][h]:
        if m.is_forest(h):
            reasons.append("forest")
        if m.is_moscow(h) and "moscow" in rules.defender_shift_reasons:
            reasons.append("Moscow")
        if (m.major_city_mask >> h) & 1 and "major_city" in rules.defender_shift_reasons:
            reasons.append(f"major city ({m.city_name(h)})")
        if m.is_fortification(h) and "soviet_fortification" in rules.defender_shift_reasons and dside == 1:
            reasons.append("fortification")
    river = m.river_mask[h]
    if attackers and all((river >> s.loc[a]) & 1 for a in attackers):
        reasons.append("river (all attackers across)")
    return Odds(halves, dfs, col, reasons)


# -- legal actions -------------------------------------------------------------------------


def legal(s: State) -> list[Action]:
    step = s.cstep
    if step == DECLARE:
        return _legal_declare(s)
    if step == CHOOSE:
        ids = s.rules.map.grid.ids
        return [Resolve(ids[s.loc[d]]) for d, _ in s.battles]
    if step == ROLL:
        return list(ROLLS)
    cur = s.cur
    assert cur is not None
    ids = s.rules.map.grid.ids
    if step == STAND:
        return list(STAND_FAST_ACTIONS)
    if step == LOSS:
        return [Lose(s.rules.units[a].id) for a in cur.attackers if s.loc[a] >= 0]
    if step == RETREAT:
        return [Retreat(tuple(ids[h] for h in p)) for p in retreat_paths_of(s, cur.defender)]
    if step == ADVANCE:
        acts: list[Action] = [Advance(s.rules.units[a].id) for a in cur.attackers if s.loc[a] >= 0]
        acts.append(Advance(None))
        return acts
    raise AssertionError(f"unknown combat step {step}")


def _legal_declare(s: State) -> list[Action]:
    rules = s.rules
    side = s.side
    enemy_occ = s.occ[1 - side]
    nm = rules.map.grid.neighbour_mask
    ids = rules.map.grid.ids
    out: list[Action] = []
    for u in rules.side_units[side]:
        h = s.loc[u]
        if h < 0 or (s.done >> u) & 1:
            continue
        targets = nm[h] & enemy_occ
        if not targets:
            continue
        uid = rules.units[u].id
        while targets:
            low = targets & -targets
            out.append(Attack(uid, ids[low.bit_length() - 1]))
            targets ^= low
    out.append(END)
    return out


def retreat_paths_of(s: State, defender: int) -> list[tuple[int, ...]]:
    """Every legal retreat path (hex indices) of ``defender`` in the position as it stands."""
    rules = s.rules
    grid = rules.map.grid
    side = rules.units[defender].side
    enemy = 1 - side
    forbidden = s.occ[enemy] | zoc_mask(s.occ[enemy], grid.expand)
    occupied = s.occ[side] & ~(1 << s.loc[defender])
    if rules.opt("retreat_extension") == "two_beyond_occupied":
        return retreat_paths_beyond(
            s.loc[defender], RETREAT_LENGTH, grid.neighbours, grid.distance, forbidden, occupied
        )
    return retreat_paths(s.loc[defender], RETREAT_LENGTH, grid.neighbours, grid.distance, forbidden, occupied)


def retreat_paths_beyond(
    origin: int,
    length: int,
    neighbours: Sequence[Sequence[int]],
    distance: Callable[[int, int], int],
    forbidden: int,
    occupied: int,
) -> list[tuple[int, ...]]:
    """Option ``retreat_extension=two_beyond_occupied`` (seed 002, "Combat results": "must
    retreat another two hexes to reach an empty hex"): each leg of ``length`` hexes is a retreat
    of its own from where the last one ended, its n-th hex n hexes from that hex; a leg that ends
    on an ``occupied`` hex is followed by another. "Beyond": a later leg never comes back nearer
    the start than the hex it leaves from (it may go sideways), and no hex is entered twice. No
    hex of the path is ``forbidden``. (The default reading,
    :func:`typhoon.mechanics.retreat.retreat_paths`, measures every hex from the start.)"""
    paths: list[tuple[int, ...]] = []

    def extend(path: tuple[int, ...], here: int, anchor: int, step: int) -> None:
        floor = distance(origin, anchor)
        for n in neighbours[here]:
            if (forbidden >> n) & 1 or n in path or distance(anchor, n) != step + 1:
                continue
            if distance(origin, n) < floor or n == origin:
                continue
            p = path + (n,)
            if step + 1 < length:
                extend(p, n, anchor, step + 1)
            elif (occupied >> n) & 1:
                extend(p, n, n, 0)
            else:
                paths.append(p)

    extend((), origin, origin, 0)
    return paths


# -- applying ------------------------------------------------------------------------------


def apply(s: State, a: Action, events: list[Event]) -> None:
    step = s.cstep
    if step == DECLARE:
        if isinstance(a, Attack):
            _declare(s, a, events)
        elif isinstance(a, End):
            _close_declarations(s, events)
        else:
            raise IllegalActionError(f"{type(a).__name__} is not possible while declaring attacks")
    elif step == CHOOSE:
        if not isinstance(a, Resolve):
            raise IllegalActionError("choose the next battle to resolve (resolve HEX)")
        _start_battle(s, a, events)
    elif step == ROLL:
        if not isinstance(a, Roll) or not 1 <= a.die <= 6:
            raise IllegalActionError("a die roll of 1 to 6 is due")
        _roll(s, a.die, events)
    elif step == STAND:
        if not isinstance(a, StandFast):
            raise IllegalActionError("the defender must choose: stand fast or retreat")
        _stand_fast(s, a.accept, events)
    elif step == LOSS:
        if not isinstance(a, Lose):
            raise IllegalActionError("the attacker must choose a unit to take a step loss")
        _attacker_loss(s, a, events)
    elif step == RETREAT:
        if not isinstance(a, Retreat):
            raise IllegalActionError("the attacker must choose the defender's retreat path")
        _retreat(s, a, events)
    elif step == ADVANCE:
        if not isinstance(a, Advance):
            raise IllegalActionError("the attacker must choose whether a unit advances")
        _advance(s, a, events)


def _unit(rules: Rules, uid: str) -> int:
    u = rules.unit_index.get(uid, -1)
    if u < 0:
        raise IllegalActionError(f"there is no unit {uid}")
    return u


def _declare(s: State, a: Attack, events: list[Event]) -> None:
    rules = s.rules
    u = _unit(rules, a.unit)
    name = rules.units[u].name
    if rules.units[u].side != s.side or s.loc[u] < 0:
        raise IllegalActionError(f"{name} is not a unit of the attacking side on the map")
    if (s.done >> u) & 1:
        raise IllegalActionError(f"{name} already attacks in this phase")
    h = rules.map.grid.index.get(a.target, -1)
    if h < 0:
        raise IllegalActionError(f"{a.target} is not a hex of this map")
    d = s.at[h]
    if d < 0 or rules.units[d].side == s.side:
        raise IllegalActionError(f"{a.target} holds no enemy unit")
    if not rules.map.grid.adjacent(s.loc[u], h):
        raise IllegalActionError(f"{name} is not adjacent to {a.target}")
    s.done |= 1 << u
    battles = list(s.battles)
    for i, (dd, atk) in enumerate(battles):
        if dd == d:
            battles[i] = (d, atk + (u,))
            break
    else:
        battles.append((d, (u,)))
    s.battles = tuple(battles)
    events.append(
        Event(
            "declare",
            f"{name} will attack {rules.units[d].name} in {a.target}.",
            {"unit": a.unit, "target": a.target},
        )
    )


def battle_summary(s: State, d: int, atk: tuple[int, ...]) -> str:
    """One declared battle in words: attackers, defender, hex and odds."""
    rules = s.rules
    return (
        f"{' + '.join(rules.units[x].id for x in atk)} against {rules.units[d].id} "
        f"in {rules.map.grid.ids[s.loc[d]] if s.loc[d] >= 0 else 'a hex it has left'} "
        f"({compute_odds(s, d, atk).text()})"
    )


def _close_declarations(s: State, events: list[Event]) -> None:
    if not s.battles:
        events.append(Event("declare", "No attacks declared.", {}))
        end_phase(s, events)
        return
    lines = [battle_summary(s, d, atk) for d, atk in s.battles]
    events.append(Event("declare", "Attacks declared: " + "; ".join(lines) + ".", {"count": len(s.battles)}))
    s.cstep = CHOOSE


def _start_battle(s: State, a: Resolve, events: list[Event]) -> None:
    rules = s.rules
    h = rules.map.grid.index.get(a.target, -1)
    found = None
    for d, atk in s.battles:
        if h >= 0 and s.loc[d] == h:
            found = (d, atk)
            break
    if found is None:
        raise IllegalActionError(f"no declared battle waits against {a.target}")
    d, atk = found
    odds = compute_odds(s, d, atk)
    names = " + ".join(rules.units[x].name for x in atk)
    data = {
        "target": a.target,
        "defender": rules.units[d].id,
        "attackers": [rules.units[x].id for x in atk],
        "attack": odds.attack,
        "defense": odds.defense,
        "column": odds.column,
        "shifts": odds.reasons,
        "final": odds.final,
    }
    events.append(
        Event("battle", f"{names} attack {rules.units[d].name} in {a.target}: {odds.text()}.", data)
    )
    s.cur = Battle(d, atk, h, odds.final)
    if odds.no_effect:
        events.append(Event("result", "The attack has no effect (below 1:1).", {"result": "none"}))
        _finish_battle(s, events)
        return
    s.cstep = ROLL


def _roll(s: State, die: int, events: list[Event]) -> None:
    cur = s.cur
    assert cur is not None
    rules = s.rules
    result = rules.crt[die][cur.column]
    s.cur = cur = cur._replace(result=result)
    events.append(
        Event(
            "roll",
            f"Die: {die} on the {cur.column}:1 column: {result} ({_RESULT_WORDS[result]}).",
            {"die": die, "column": cur.column, "result": result},
        )
    )
    d = cur.defender
    if result == "NE":
        _finish_battle(s, events)
    elif result == "DE":
        _eliminate(s, d, events, "is eliminated")
        _to_advance(s, events)
    elif result == "DR":
        if (rules.stand_fast_mask >> cur.hex) & 1:
            s.cstep = STAND
        else:
            _to_retreat(s, events)
    elif result == "DRL":
        _defender_step(s, events)
        if s.loc[d] >= 0:
            _to_retreat(s, events)
        else:
            _to_advance(s, events)
    elif result == "AL":
        s.cur = cur._replace(owed=-1)
        s.cstep = LOSS
    elif result == "EX":
        lost = _defender_step(s, events)
        s.cur = cur._replace(owed=lost)
        s.cstep = LOSS
        events.append(
            Event("exchange", f"The attacker must lose at least {lost} strength point(s).", {"owed": lost})
        )


_RESULT_WORDS = {
    "NE": "no effect",
    "DR": "defender retreats",
    "DRL": "defender loses a step and retreats",
    "AL": "attacker loses a step",
    "DE": "defender eliminated",
    "EX": "exchange",
}


def _defender_step(s: State, events: list[Event]) -> int:
    cur = s.cur
    assert cur is not None
    d = cur.defender
    rules = s.rules
    full = s.steps[d] == 2
    lost = s.lose_step(d)
    if full:
        events.append(
            Event("loss", f"{rules.units[d].name} is reduced to half strength.", {"unit": rules.units[d].id})
        )
    else:
        events.append(
            Event("eliminated", f"{rules.units[d].name} is eliminated.", {"unit": rules.units[d].id})
        )
    return lost


def _eliminate(s: State, u: int, events: list[Event], why: str) -> None:
    name = s.rules.units[u].name
    s.lift(u)
    events.append(Event("eliminated", f"{name} {why}.", {"unit": s.rules.units[u].id}))


def _stand_fast(s: State, accept: bool, events: list[Event]) -> None:
    cur = s.cur
    assert cur is not None
    name = s.rules.units[cur.defender].name
    if accept:
        events.append(
            Event("standfast", f"{name} stands fast and takes a step loss instead of retreating.", {})
        )
        _defender_step(s, events)
        if s.loc[cur.defender] >= 0:
            _finish_battle(s, events)
        else:
            _to_advance(s, events)
    else:
        events.append(Event("standfast", f"{name} does not stand fast.", {}))
        _to_retreat(s, events)


def _attacker_loss(s: State, a: Lose, events: list[Event]) -> None:
    cur = s.cur
    assert cur is not None
    rules = s.rules
    u = _unit(rules, a.unit)
    if u not in cur.attackers or s.loc[u] < 0:
        raise IllegalActionError(f"{rules.units[u].name} is not a surviving attacker of this battle")
    full = s.steps[u] == 2
    lost = s.lose_step(u)
    words = "is reduced to half strength" if full else "is eliminated"
    events.append(
        Event(
            "loss",
            f"{rules.units[u].name} {words} ({lost} strength point(s)).",
            {"unit": a.unit, "lost": lost},
        )
    )
    if cur.owed == -1:  # AL: one step
        _finish_battle(s, events)
        return
    owed = cur.owed - lost
    s.cur = cur = cur._replace(owed=max(owed, 0))
    if owed > 0 and any(s.loc[x] >= 0 for x in cur.attackers):
        return  # still owes: choose another step
    if s.loc[cur.defender] >= 0:
        _to_retreat(s, events)
    else:
        _to_advance(s, events)


def _to_retreat(s: State, events: list[Event]) -> None:
    cur = s.cur
    assert cur is not None
    if not retreat_paths_of(s, cur.defender):
        _eliminate(s, cur.defender, events, "has no retreat path and is eliminated")
        _to_advance(s, events)
        return
    s.cstep = RETREAT


def _retreat(s: State, a: Retreat, events: list[Event]) -> None:
    cur = s.cur
    assert cur is not None
    rules = s.rules
    grid = rules.map.grid
    try:
        path = tuple(grid.index[h] for h in a.path)
    except KeyError:
        raise IllegalActionError(f"retreat path {'-'.join(a.path)} leaves the map") from None
    if path not in retreat_paths_of(s, cur.defender):
        raise IllegalActionError(f"{'-'.join(a.path)} is not a legal retreat path")
    d = cur.defender
    side = rules.units[d].side
    s.relocate(d, path[-1])
    mask = 0
    for h in path:
        mask |= 1 << h
    s.take_cities(side, mask)
    events.append(
        Event(
            "retreat",
            f"{rules.units[d].name} retreats {grid.ids[cur.hex]}-{'-'.join(a.path)}.",
            {"unit": rules.units[d].id, "from": grid.ids[cur.hex], "path": list(a.path)},
        )
    )
    _to_advance(s, events)


def _to_advance(s: State, events: list[Event]) -> None:
    cur = s.cur
    assert cur is not None
    if s.at[cur.hex] < 0 and any(s.loc[x] >= 0 for x in cur.attackers):
        s.cstep = ADVANCE
    else:
        _finish_battle(s, events)


def _advance(s: State, a: Advance, events: list[Event]) -> None:
    cur = s.cur
    assert cur is not None
    rules = s.rules
    if a.unit is not None:
        u = _unit(rules, a.unit)
        if u not in cur.attackers or s.loc[u] < 0:
            raise IllegalActionError(f"{rules.units[u].name} is not a surviving attacker of this battle")
        left = rules.map.grid.ids[s.loc[u]]
        s.relocate(u, cur.hex)
        s.take_cities(rules.units[u].side, 1 << cur.hex)
        events.append(
            Event(
                "advance",
                f"{rules.units[u].name} advances into {rules.map.grid.ids[cur.hex]}.",
                {"unit": a.unit, "from": left, "hex": rules.map.grid.ids[cur.hex]},
            )
        )
    else:
        events.append(Event("advance", "No unit advances.", {}))
    _finish_battle(s, events)


def _finish_battle(s: State, events: list[Event]) -> None:
    cur = s.cur
    assert cur is not None
    s.battles = tuple(b for b in s.battles if b[0] != cur.defender)
    s.cur = None
    if s.battles:
        s.cstep = CHOOSE
    else:
        end_phase(s, events)
