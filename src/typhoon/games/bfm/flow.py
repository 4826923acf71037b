"""Sequence of play: entering and leaving phases, the turn track, the end of the game.

Seed 002, "How to play": seven turns of eight phases (German replacement, panzer movement,
combat, movement; Soviet replacement, rail movement, combat, movement). On turn 1 the German
replacement phase is skipped (all German units start at full strength). Editions list the
phases to skip on turn 1 in their data (VPG: the German turn 1 starts with combat).
"""

from __future__ import annotations

from typhoon.events import Event
from typhoon.games.bfm.rules import FIRST_SHOCK, GERMAN, SIDE_NAMES, SOVIET
from typhoon.games.bfm.state import DECLARE, State


def end_phase(s: State, events: list[Event]) -> None:
    """Leave the current phase and enter the next one that is played."""
    rules = s.rules
    if s.repl > 0 and rules.phases[s.phase].kind == "replacement":
        events.append(Event("replacements_lost", f"{s.repl} unused replacement(s) lost.", {"count": s.repl}))
    phase = s.phase + 1
    turn = s.turn
    while True:
        if phase >= len(rules.phases):
            if turn >= rules.last_turn:
                finish_game(s, events)
                return
            turn += 1
            phase = rules.first_turn_phase
            events.append(
                Event(
                    "turn",
                    f"Turn {turn} ({rules.turn_labels[turn]})"
                    + (": mud." if turn in rules.mud_turns else "."),
                    {"turn": turn},
                )
            )
        if turn == 0 and phase >= rules.first_turn_phase:
            turn = 1
            events.append(Event("turn", f"Turn 1 ({rules.turn_labels[1]}).", {"turn": 1}))
        if turn == 1 and phase in rules.skip_on_turn_1:
            phase += 1
            continue
        break
    s.turn = turn
    s.phase = phase
    enter_phase(s, events)


def enter_phase(s: State, events: list[Event]) -> None:
    rules = s.rules
    spec = rules.phases[s.phase]
    s.done = 0
    s.stack = -1
    s.battles = ()
    s.cstep = DECLARE
    s.cur = None
    s.repl = 0
    s.rebuilt = 0
    s._cache = {}
    if spec.kind == "replacement":
        table = rules.german_replacements if spec.side == GERMAN else rules.soviet_replacements
        s.repl = table.get(s.turn, 0)
    events.append(
        Event(
            "phase",
            f"{spec.name}" + (f": {s.repl} replacement(s)." if s.repl else "."),
            {"phase": spec.key, "turn": s.turn},
        )
    )


def reinforcement_due(s: State) -> int:
    """The unit that must arrive as a free reinforcement in this phase, or -1.

    VPG: 1st Shock Army arrives free in the Soviet replacement phase of its turn (and waits
    for a later replacement phase if no hex can take it)."""
    rules = s.rules
    u = rules.first_shock
    if (
        u >= 0
        and rules.first_shock_mode == "reinforcement"
        and s.turn >= rules.first_shock_turn
        and rules.phases[s.phase].kind == "replacement"
        and rules.phases[s.phase].side == SOVIET
        and not (s.arrived >> u) & 1
    ):
        return u
    return -1


def unit_available(s: State, unit: int) -> bool:
    """May this off-map unit be rebuilt with a replacement now?

    Seed 002, "1st Shock Army": it may not be taken as a replacement before turn 4. VPG: it
    first arrives as a reinforcement, and only after that can it be rebuilt."""
    rules = s.rules
    if unit != rules.first_shock:
        return True
    if rules.first_shock_mode == "replacement":
        return s.turn >= rules.first_shock_turn
    return bool((s.arrived >> unit) & 1)


def moscow_holder(s: State) -> int:
    m = s.rules.map
    holders = {s.city_controller_at(h) for h in m.moscow}
    return holders.pop() if len(holders) == 1 else -1  # type: ignore[return-value]


def winner(s: State) -> str:
    """Victory at the end of the last turn.

    GDW (seed 002, "Victory conditions"): whoever holds Moscow wins. VPG/C3i: the German wins
    with Moscow; the Soviet wins with Moscow and at least one other city; otherwise a draw."""
    rules = s.rules
    holder = moscow_holder(s)
    if rules.victory == "moscow":
        return SIDE_NAMES[holder]
    if holder == GERMAN:
        return "german"
    others = sum(
        1
        for i, c in enumerate(rules.map.cities)
        if c.hex not in rules.map.moscow and s.controller(i) == SOVIET
    )
    return "soviet" if others >= 1 else "draw"


def finish_game(s: State, events: list[Event]) -> None:
    s.result = winner(s)
    s.done = 0
    s.stack = -1
    s.battles = ()
    s.cur = None
    s.cstep = DECLARE
    s.repl = 0
    holder = SIDE_NAMES[moscow_holder(s)].capitalize()
    text = {"german": "The German player wins", "soviet": "The Soviet player wins", "draw": "Draw"}[s.result]
    events.append(
        Event("game_over", f"End of turn {s.turn}: {holder} holds Moscow. {text}.", {"result": s.result})
    )


__all__ = [
    "end_phase",
    "enter_phase",
    "finish_game",
    "reinforcement_due",
    "unit_available",
    "winner",
    "FIRST_SHOCK",
]
