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
from types import ModuleType

from typhoon.errors import IllegalActionError
from typhoon.events import Event
from typhoon.games.bfm import combat_phase, movement_phase, replacement_phase, setup_phase
from typhoon.games.bfm.actions import ACTION_TYPES, ROLLS, Action, Roll
from typhoon.games.bfm.flow import enter_phase
from typhoon.games.bfm.rules import DEFAULT_EDITION, Rules, load_rules
from typhoon.games.bfm.state import CHANCE, TERMINAL, State

_PHASES: dict[str, ModuleType] = {
    "setup": setup_phase,
    "movement": movement_phase,
    "combat": combat_phase,
    "replacement": replacement_phase,
}

# Safety valve for the forced-action loop; a game has far fewer steps than this.
_MAX_FORCED = 10_000


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


def legal_actions(s: State) -> list[Action]:
    """Every legal action in this state (empty when the game is over). The list is cached
    on the state; do not modify it."""
    if s._legal is None:
        if s.result is not None:
            s._legal = []
        else:
            s._legal = _PHASES[s.rules.phases[s.phase].kind].legal(s)
    return s._legal


def chance_outcomes(s: State) -> list[tuple[Roll, float]]:
    if not s.is_chance:
        return []
    return [(r, 1 / 6) for r in ROLLS]


def is_legal(s: State, a: object) -> bool:
    return a in legal_actions(s)


def apply(s: State, a: Action) -> tuple[State, list[Event]]:
    """The state after ``a`` and what happened. Raises IllegalActionError (and changes
    nothing) if ``a`` is not legal here."""
    if not isinstance(a, ACTION_TYPES):
        raise IllegalActionError(f"not an action: {a!r}")
    if s.result is not None:
        raise IllegalActionError("the game is over")
    # The legal list is the definition of legality (it is exact); the phase code's own checks
    # only supply the reason in words.
    acts = legal_actions(s)
    try:
        a = acts[acts.index(a)]  # the engine's own object: equal values of other types (3.0) end here
    except ValueError:
        raise IllegalActionError(_why_illegal(s, a)) from None
    t = s.copy()
    events: list[Event] = []
    _PHASES[t.rules.phases[t.phase].kind].apply(t, a, events)
    _play_forced(t, events)
    return t, events


def _why_illegal(s: State, a: Action) -> str:
    t = s.copy()
    try:
        _PHASES[t.rules.phases[t.phase].kind].apply(t, a, [])
    except IllegalActionError as exc:
        return str(exc)
    except (TypeError, ValueError, AttributeError, KeyError, IndexError):
        return f"malformed action: {a!r}"
    return f"{type(a).__name__} is not legal in this position"


def apply_unchecked(s: State, a: Action) -> State:
    """``apply`` for an action taken from ``legal_actions(s)``, without events (search)."""
    t = s.copy()
    events: list[Event] = []
    _PHASES[t.rules.phases[t.phase].kind].apply(t, a, events)
    _play_forced(t, events)
    return t


def _play_forced(t: State, events: list[Event]) -> None:
    for _ in range(_MAX_FORCED):
        if t.result is not None or t.is_chance:
            return
        acts = legal_actions(t)
        if len(acts) != 1:
            return
        _PHASES[t.rules.phases[t.phase].kind].apply(t, acts[0], events)
        t._legal = None
    raise AssertionError("forced-action loop did not settle")  # pragma: no cover


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
