"""The Moscow Campaign engine: new games, legal actions, and the pure step function.

    state = new_game("1")                     # scenario 1, set-up pending (Soviet first)
    acts = legal_actions(state)               # every legal action, and no other
    state, events = apply(state, acts[0])     # a new state; the old one is untouched

The edition is the scenario number as a string, "1".."24" (default "1", the short historical
September battle; "11" is the full 31-turn campaign). Options: data/options.json (one per
[Qn] reading that changes play); an option "scenario" is accepted and ignored (the edition
names the scenario). Die rolls are chance actions (``Roll(n)``); a decision with exactly one
legal answer is taken inside ``apply`` and reported in the events.
"""

from __future__ import annotations

from collections.abc import Mapping

from typhoon.errors import OptionError
from typhoon.events import Event
from typhoon.games.driver import Driver
from typhoon.games.tmc import combat_phase, movement_phase, setup_phase
from typhoon.games.tmc.actions import ACTION_TYPES, ROLLS, Action
from typhoon.games.tmc.flow import enter_phase
from typhoon.games.tmc.rules import DEFAULT_EDITION, GERMAN, SOVIET, Rules, load_rules
from typhoon.games.tmc.state import CHANCE, TERMINAL, State
from typhoon.games.tmc.victory import vp_ratio

_DRIVER: Driver[State, Action] = Driver(
    {"setup": setup_phase, "movement": movement_phase, "combat": combat_phase},
    ACTION_TYPES,
    ROLLS,
    100_000,
)


def new_game(
    edition: str = DEFAULT_EDITION,
    options: Mapping[str, str] | None = None,
    *,
    rules: Rules | None = None,
) -> State:
    """A new game at the start of the Soviet set-up."""
    opts = dict(options or {})
    scen = opts.pop("scenario", None)
    if scen is not None and rules is None and str(scen) != str(edition):
        if edition != DEFAULT_EDITION:
            raise OptionError(f"scenario option {scen} disagrees with edition {edition}")
        edition = str(scen)
    r = rules if rules is not None else load_rules(edition, opts)
    s = State(r)
    events: list[Event] = []
    enter_phase(s, events)
    _DRIVER.play_forced(s, events)
    return s


def result_margin(s: State) -> float:
    """How well the German did in a finished game (larger is better for him): the §24 VP ratio
    (victory.vp_ratio), which orders games by victory level and then within a level. A match
    of paired games compares the two games of a seed by it (typhoon.ai.match)."""
    return vp_ratio(s.vp[GERMAN], s.vp[SOVIET])


legal_actions = _DRIVER.legal_actions
chance_outcomes = _DRIVER.chance_outcomes
is_legal = _DRIVER.is_legal
apply = _DRIVER.apply
apply_unchecked = _DRIVER.apply_unchecked


def current_player(s: State) -> int:
    return s.current_player()


__all__ = [
    "CHANCE",
    "TERMINAL",
    "State",
    "apply",
    "apply_unchecked",
    "chance_outcomes",
    "current_player",
    "is_legal",
    "legal_actions",
    "new_game",
]
