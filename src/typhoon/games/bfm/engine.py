"""The Battle for Moscow engine: new games, legal actions, and the pure step function.

    state = new_game()                       # GDW 1986 rules, set-up pending
    acts = legal_actions(state)              # every legal action, and no other
    state, events = apply(state, acts[0])    # a new state; the old one is untouched

Die rolls are chance actions (``Roll(n)``): at a chance node ``legal_actions`` lists the six
and :func:`chance_outcomes` gives their probabilities; :class:`typhoon.game.Game` rolls them
from its seeded generator. A decision with exactly one possible answer (the only retreat
path, the only unit that can take a loss, a phase in which nothing can be done) is taken by
the engine inside ``apply`` and reported in the events, so players are only asked real
questions.
"""

from __future__ import annotations

from collections.abc import Mapping

from typhoon.events import Event
from typhoon.games.bfm import combat_phase, movement_phase, replacement_phase, setup_phase
from typhoon.games.bfm import notation as _notation  # noqa: F401  (State.__repr__ shows the position)
from typhoon.games.bfm.actions import ACTION_TYPES, ROLLS, Action
from typhoon.games.bfm.flow import enter_phase
from typhoon.games.bfm.rules import DEFAULT_EDITION, Rules, load_rules
from typhoon.games.bfm.state import CHANCE, TERMINAL, State
from typhoon.games.driver import Driver

# Phase kind -> phase module; 10_000 is the safety valve for the forced-action loop (a game
# has far fewer steps than this).
_DRIVER: Driver[State, Action] = Driver(
    {
        "setup": setup_phase,
        "movement": movement_phase,
        "combat": combat_phase,
        "replacement": replacement_phase,
    },
    ACTION_TYPES,
    ROLLS,
    10_000,
)


def new_game(
    edition: str = DEFAULT_EDITION,
    options: Mapping[str, str] | None = None,
    *,
    rules: Rules | None = None,
) -> State:
    """A new game at the start of the Soviet set-up."""
    r = rules if rules is not None else load_rules(edition, options)
    s = State(r)
    events: list[Event] = []
    enter_phase(s, events)
    return s


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
