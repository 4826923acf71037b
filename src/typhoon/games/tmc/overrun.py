"""Resolution of overruns at the end of a movement phase (rules_en.md §14; [Q33]-[Q37]).

The movement phase (movement_phase.py, ENGINE helper) declares overruns: participants adjacent
to the enemy hex reaching 11-1 (GT 1-4 German shift included, [Q35]), defenders flipped, the
participants stop (§14.1, §14.2, §14.5). When the phase ends, movement_phase sets the OVERRUN
step and calls :func:`begin_resolution`; each pending overrun, in declaration order, is then
resolved like a combat (combat_phase.start_battle with ``overrun=True``): strengths, supply
and terrain judged now (§14.3: "all other effects on strength and on the die roll apply"), one
die roll on the 11-1 column of the mover's CRT (no lowering, no ignore declaration: only Ex,
1/2Ex, De and De,Ad can come up), the attacker's loss or disruption choices, and his advance
(§14.4). A German defender of printed CF 4+ that becomes a KG stays in the hex, face up, and
may be attacked in the following combat phase by units that did not overrun it ([Q36]). When
the last overrun is resolved the phase ends (flow.end_phase again).

Phase-module API used by movement_phase: ``begin_resolution``, ``legal``, ``apply``,
``is_chance``, ``current_player`` (State answers the last two itself); combat_phase.finish_battle
goes on to the next overrun (``after_battle``). The index of the overrun being resolved is kept
in ``State.cdata`` as ("overrun", i) during the OVERRUN step.
"""

from __future__ import annotations

from typhoon.errors import IllegalActionError
from typhoon.events import Event
from typhoon.games.tmc import combat_phase
from typhoon.games.tmc.actions import Action
from typhoon.games.tmc.state import State

# The sequence of overrun battles lives with the battles (combat_phase.finish_battle goes on
# to the next overrun); these are its names as the OVERRUN step's API.
begin_resolution = combat_phase.begin_overruns
after_battle = combat_phase.after_overrun


def legal(s: State) -> list[Action]:
    if isinstance(s.combat, combat_phase.Battle):
        return combat_phase.battle_legal(s)
    return []


def apply(s: State, a: Action, events: list[Event]) -> None:
    if not isinstance(s.combat, combat_phase.Battle):
        raise IllegalActionError("no overrun is being resolved")
    combat_phase.battle_apply(s, a, events)


def is_chance(s: State) -> bool:
    return combat_phase.is_chance(s)


def current_player(s: State) -> int:
    if isinstance(s.combat, combat_phase.Battle):
        return combat_phase.current_player(s)
    return s.side
