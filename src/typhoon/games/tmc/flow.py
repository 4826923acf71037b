"""Sequence of play: entering and leaving phases, the turn track, scoring, the end of the game.

rules_en.md §2: each game turn is a German player turn (first movement, combat, mechanised
movement) and a Soviet player turn (movement with rail movement, combat); §25: set-up first,
Soviet then German. What this module does at phase boundaries:

- start of every movement phase: judge supply for movement (§11, [Q3]) -> ``State.supply``;
- start of the German first movement phase: German replacement (§21, [Q59]) - one eliminated
  2-5 unit becomes a reinforcement due now; German reinforcements enter during the phase (§22);
- start of the Soviet movement phase: eliminated Soviet EB units return in Moscow, or are
  lost if the Germans hold Moscow (§17, [Q45]); then the EB relocation step (``RELOCATE``);
- end of every movement phase: pending overruns are resolved first (§14.3; step ``OVERRUN``:
  movement_phase, combat_phase.begin_overruns, overrun.py), then flipped units are flipped back;
- end of each player turn: continuous-front gaps score for the opponent (§15, [Q38], [Q39]);
  disrupted units recover at the end of the German player turn ([Q14]);
- end of each Soviet combat phase: the once-per-game German 50 VP for capturing and holding
  Moscow in supply (§23, [Q64]);
- after the scenario's last game turn: final VP and victory level (§23, §24; victory.py).
"""

from __future__ import annotations

from typhoon.events import Event
from typhoon.games.tmc.rules import (
    FIRST_TURN_PHASE,
    GERMAN,
    GERMAN_COMBAT,
    GERMAN_MECH,
    GERMAN_MOVEMENT,
    SIDE_NAMES,
    SOVIET,
    SOVIET_COMBAT,
    SOVIET_MOVEMENT,
)
from typhoon.games.tmc.state import MOVE, OFF, RELOCATE, PhaseData, State
from typhoon.games.tmc.victory import LEVEL_TEXT
from typhoon.hexgrid import bit_list


def end_phase(s: State, events: list[Event]) -> None:
    """Leave the current phase (after its end-of-phase business) and enter the next one.

    The phase module calls this once its own business is done (a movement phase resolves its
    pending overruns first, §14.3: movement_phase and combat_phase.begin_overruns)."""
    rules = s.rules
    spec = rules.phases[s.phase]
    if spec.kind == "movement":
        s.flipped = 0  # s.overruns is kept (resolved) for the following combat phase (§14.2)
    # End of a player turn: continuous front (§15) and German disruption recovery ([Q14]).
    if s.phase == GERMAN_MECH:
        _score_front(s, GERMAN, events)
        _recover(s, events, at="german_turn_end")
    if s.phase == GERMAN_COMBAT:
        _recover(s, events, at="german_combat_end")
    if s.phase == SOVIET_COMBAT:
        _moscow_capture(s, events)
        _score_front(s, SOVIET, events)
    phase = s.phase + 1
    turn = s.turn
    if phase >= len(rules.phases):
        if turn >= rules.last_turn:
            finish_game(s, events)
            return
        turn += 1
        phase = FIRST_TURN_PHASE
        events.append(Event("turn", f"Game turn {turn}.", {"turn": turn}))
    elif phase == FIRST_TURN_PHASE and turn == 0:
        turn = rules.first_turn
        events.append(Event("turn", f"Game turn {turn}.", {"turn": turn}))
    s.turn = turn
    s.phase = phase
    enter_phase(s, events)


def enter_phase(s: State, events: list[Event]) -> None:
    rules = s.rules
    spec = rules.phases[s.phase]
    s.step = MOVE if spec.kind == "movement" else 0
    s.spent = {}
    s.entered = {}
    s.overran = 0
    s.relocated = 0
    s.entrainings = 0
    if spec.kind != "combat":
        s.overruns = ()  # a combat phase keeps the overruns just resolved: their units may not attack them (§14.2)
    s.flipped = 0
    s.oos = 0
    s.combat = None
    s.cdata = ()
    s.placed = 0
    s._cache = {}
    s._legal = None
    text = spec.name
    if spec.kind == "movement":
        if s.phase == GERMAN_MOVEMENT and rules.german_replacements:
            _german_replacement(s, events)
        if s.phase == SOVIET_MOVEMENT:
            _return_soviet_eb(s, events)
            s.step = RELOCATE
        judge_supply(s)
    events.append(Event("phase", f"{text}.", {"phase": spec.key, "turn": s.turn}))
    if spec.kind == "combat":
        s.cdata = PhaseData()  # combat_phase.begin: nothing declared yet


def judge_supply(s: State) -> None:
    """Supply for movement of both sides as at this moment (§11): bitsets of hexes."""
    s.supply = [german_supply_mask(s), soviet_supply_mask(s)]
    mark_supply(s)


def mark_supply(s: State) -> None:
    """``State.oos`` from ``State.supply`` for every unit on the map."""
    oos = 0
    for h, us in s.stacks.items():
        side = s.rules.units[us[0]].side
        if not s.supplied_hex(side, h):
            for u in us:
                oos |= 1 << u
    s.oos = oos


def german_supply_mask(s: State) -> int:
    from typhoon.games.tmc import supply

    return supply.supply_now(s, GERMAN).in_supply


def soviet_supply_mask(s: State) -> int:
    """One computation of supply for the engine, the AI and the end-of-game VP alike
    (supply.supply_now; the [Q6] lake option reaches it through State.zoc)."""
    from typhoon.games.tmc import supply

    return supply.supply_now(s, SOVIET).in_supply


def due_reinforcements(s: State, side: int) -> list[int]:
    """Units of ``side`` that may enter now: scheduled for this turn or earlier (Soviet units
    may have been delayed, [Q60]) and not yet in play, plus returned German replacements."""
    rules = s.rules
    loc = s.loc
    units = rules.units
    turn = s.turn
    # Only the side's units neither arrived nor eliminated, in index order (= side_units order).
    return [
        u
        for u in bit_list(rules.side_unit_mask[side] & ~(s.arrived | s.eliminated))
        if loc[u] == OFF and units[u].arrive <= turn
    ]


def _german_replacement(s: State, events: list[Event]) -> None:
    """§21, [Q59]: one eliminated German 2-5 unit (the lowest-indexed; they are alike) comes
    back as a reinforcement of this first movement phase."""
    rules = s.rules
    pool = s.eliminated & ~s.lost & rules.replaceable_mask
    if not pool:
        return
    u = (pool & -pool).bit_length() - 1
    s.eliminated &= ~(1 << u)
    s.arrived &= ~(1 << u)
    events.append(
        Event(
            "replacement", f"German replacement: {rules.units[u].name} returns.", {"unit": rules.units[u].id}
        )
    )


def _return_soviet_eb(s: State, events: list[Event]) -> None:
    """§17, [Q45]: each eliminated Soviet EB unit returns in a Moscow hex free of German units
    (the first with stacking room); if the Germans hold Moscow it is lost for good."""
    rules = s.rules
    pool = s.eliminated & ~s.lost & rules.eb_mask & rules.side_unit_mask[SOVIET]
    if not pool:
        return
    held = s.moscow_holder() == GERMAN
    for u in bit_list(pool):
        name = rules.units[u].name
        if held:
            s.lost |= 1 << u
            events.append(
                Event("eb_lost", f"{name} is lost: the Germans hold Moscow.", {"unit": rules.units[u].id})
            )
            continue
        for h in rules.map.moscow:
            if not (s.occ[GERMAN] >> h) & 1 and len(s.stacks.get(h, ())) < 3:
                s.eliminated &= ~(1 << u)
                s.put(u, h)
                events.append(
                    Event(
                        "eb_return",
                        f"{name} returns in Moscow ({rules.grid.ids[h]}).",
                        {"unit": rules.units[u].id},
                    )
                )
                break


def _score_front(s: State, side: int, events: list[Event]) -> None:
    """§15: gaps in ``side``'s front at the end of its player turn score 1 VP each for the opponent."""
    from typhoon.games.tmc import front

    rules = s.rules
    m = rules.map
    gaps = front.front_gaps(
        rules.grid,
        s.occ[side],
        s.zoc_units_mask(side),
        north=m.edges.get("north"),
        south=m.edges.get("south"),
        method=rules.opt("front_gap_count"),
    )
    if gaps:
        s.add_vp(1 - side, gaps)
        events.append(
            Event(
                "front",
                f"{SIDE_NAMES[side].capitalize()} front has {gaps} gap hex(es): "
                f"{SIDE_NAMES[1 - side].capitalize()} +{gaps} VP.",
                {"side": SIDE_NAMES[side], "gaps": gaps},
            )
        )


def _recover(s: State, events: list[Event], at: str) -> None:
    """[Q14]: a unit disrupted in GT n (``disrupted[u] == n + 1``) recovers at the end of the
    German player turn of GT n+1 (default), or at the end of the German combat phase of GT
    n+1 (option one_game_turn: back before that turn's mechanised phase)."""
    option = s.rules.opt("disruption_length")
    if (option == "next_german_turn") != (at == "german_turn_end"):
        return
    back = [u for u, t in s.disrupted.items() if t <= s.turn]
    for u in back:
        del s.disrupted[u]
    if back:
        s._cache = {}
        names = ", ".join(s.rules.units[u].name for u in sorted(back))
        events.append(
            Event("recover", f"No longer disrupted: {names}.", {"units": [s.rules.units[u].id for u in back]})
        )


def _moscow_capture(s: State, events: list[Event]) -> None:
    """§23, [Q64]: 50 VP once per game, the first time the Germans hold Moscow in supply at the
    end of a Soviet combat phase."""
    from typhoon.games.tmc import victory

    if s.moscow_award or s.moscow_holder() != GERMAN:
        return
    vp = victory.moscow_capture_vp(
        s.moscow_award, s.occ[GERMAN], s.occ[SOVIET], s.rules.map.moscow_mask, german_supply_mask(s)
    )
    if vp:
        s.moscow_award = True
        s.add_vp(GERMAN, vp)
        events.append(Event("moscow", f"The Germans hold Moscow in supply: +{vp} VP.", {"vp": vp}))


def final_awards(s: State) -> list[tuple[int, int, str]]:
    """§23 end-of-game VP: (side, VP, why) for each part of the schedule (victory.py)."""
    from typhoon.games.tmc import victory

    rules = s.rules
    grid = rules.grid
    far = victory.far_west_hexes(grid, rules.start_line_hexes, rules.west_mask)
    german_hexes = [s.loc[u] for u in rules.side_units[GERMAN] if s.loc[u] >= 0]
    e = victory.end_of_game_vp(
        grid,
        german_unit_hexes=german_hexes,
        german_occ=s.occ[GERMAN],
        soviet_occ=s.occ[SOVIET],
        german_in_supply=german_supply_mask(s),
        soviet_in_supply=soviet_supply_mask(s),
        moscow=rules.map.moscow,
        far_west=far,
    )
    return [
        (GERMAN, e.german_near_moscow, "German units near Moscow"),
        (GERMAN, e.german_moscow, "Germans hold Moscow in supply"),
        (SOVIET, e.soviet_moscow, "Soviets hold Moscow in supply"),
        (SOVIET, e.soviet_far_west, "in-supply Soviet units 11+ hexes west of the start line"),
    ]


def finish_game(s: State, events: list[Event]) -> None:
    """§23/§24: end-of-game VP and the victory level (victory.py)."""
    from typhoon.games.tmc import victory

    s.step = 0
    s.combat = None
    s.spent = {}
    for side, n, why in final_awards(s):
        if n:
            s.add_vp(side, n)
            events.append(
                Event("vp", f"{SIDE_NAMES[side].capitalize()} +{n} VP: {why}.", {"side": side, "vp": n})
            )
    level = victory.victory_level(s.vp[GERMAN], s.vp[SOVIET])
    s.level = level
    s.result = "german" if level.startswith("german") else "soviet"
    events.append(
        Event(
            "game_over",
            f"End of game turn {s.turn}: German {s.vp[GERMAN]} VP, Soviet {s.vp[SOVIET]} VP. {LEVEL_TEXT[level]}.",
            {"result": s.result, "level": level, "vp": list(s.vp)},
        )
    )


__all__ = ["due_reinforcements", "end_phase", "enter_phase", "finish_game", "judge_supply"]
