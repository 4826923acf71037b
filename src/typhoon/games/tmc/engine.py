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
from typing import Any

from typhoon.errors import IllegalActionError, OptionError
from typhoon.events import Event
from typhoon.games.tmc import combat_phase, movement_phase, setup_phase
from typhoon.games.tmc.actions import ACTION_TYPES, ROLLS, Action, Roll
from typhoon.games.tmc.flow import enter_phase
from typhoon.games.tmc.rules import DEFAULT_EDITION, Rules, load_rules
from typhoon.games.tmc.state import CHANCE, TERMINAL, State

_MAX_FORCED = 100_000


def _module(s: State) -> Any:
    kind = s.rules.phases[s.phase].kind
    if kind == "setup":
        return setup_phase
    if kind == "movement":
        return movement_phase
    return combat_phase


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
    _play_forced(s, events)
    return s


def legal_actions(s: State) -> list[Action]:
    """Every legal action in this state (empty when the game is over); cached on the state."""
    if s._legal is None:
        s._legal = [] if s.result is not None else _module(s).legal(s)
    return s._legal


def chance_outcomes(s: State) -> list[tuple[Roll, float]]:
    if not s.is_chance:
        return []
    return [(r, 1 / 6) for r in ROLLS]


def is_legal(s: State, a: object) -> bool:
    return a in legal_actions(s)


def apply(s: State, a: Action) -> tuple[State, list[Event]]:
    """The state after ``a`` and what happened. Raises IllegalActionError (changing nothing)
    if ``a`` is not in the legal list."""
    if not isinstance(a, ACTION_TYPES):
        raise IllegalActionError(f"not an action: {a!r}")
    if s.result is not None:
        raise IllegalActionError("the game is over")
    acts = legal_actions(s)
    try:
        a = acts[acts.index(a)]
    except ValueError:
        raise IllegalActionError(_why_illegal(s, a)) from None
    t = s.copy()
    events: list[Event] = []
    _module(t).apply(t, a, events)
    t._legal = None
    _play_forced(t, events)
    return t, events


def _why_illegal(s: State, a: Action) -> str:
    t = s.copy()
    try:
        _module(t).apply(t, a, [])
    except IllegalActionError as exc:
        return str(exc)
    except (TypeError, ValueError, AttributeError, KeyError, IndexError):
        return f"malformed action: {a!r}"
    return f"{type(a).__name__} is not legal in this position"


def apply_unchecked(s: State, a: Action) -> State:
    """``apply`` for an action taken from ``legal_actions(s)``, without events (search)."""
    t = s.copy()
    events: list[Event] = []
    _module(t).apply(t, a, events)
    t._legal = None
    _play_forced(t, events)
    return t


def _play_forced(t: State, events: list[Event]) -> None:
    for _ in range(_MAX_FORCED):
        if t.result is not None or t.is_chance:
            return
        acts = legal_actions(t)
        if len(acts) != 1:
            return
        _module(t).apply(t, acts[0], events)
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
