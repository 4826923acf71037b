"""The engine driver both games share: legal-list caching, exact-list legality, copy-on-apply
and the forced-single-action loop, over a game's table of phase modules.

A game's ``engine.py`` builds one :class:`Driver` from its phase table (phase kind → module
with ``legal(state)`` and ``apply(state, action, events)``) and re-exports the bound
functions. The functions are closures over the table rather than methods so that the hot
path (``legal_actions``, ``apply_unchecked``) costs no more attribute look-ups than a
hand-written engine module.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, Protocol, TypeVar

from typhoon.errors import IllegalActionError
from typhoon.events import Event


class PhaseModule(Protocol):
    """What a phase module offers the driver."""

    def legal(self, s: Any) -> list[Any]: ...

    def apply(self, s: Any, a: Any, events: list[Event]) -> None: ...


S = TypeVar("S")
A = TypeVar("A")


class LegalList(list):  # type: ignore[type-arg]
    """A legal-action list that says how its head was assembled, for consumers that derive
    something per action (e.g. the research environments' action codes).

    ``parts``: list objects whose concatenation, in order, is the start of this list (the
    actions after them are built fresh). A phase lists a part only if the engine keeps that
    list object unchanged for as long as it lives (never mutated after it is handed out: one
    unit's moves memoised across a phase's states, say), and only if its actions mean the same
    in every state that lists it. So a consumer may keep what it derived from a part under the
    part's identity, holding the part itself so that the identity is never reused. A plain
    ``list`` (no parts) is equally valid: the parts are a hint, never the legal list."""

    __slots__ = ("parts",)

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[list[Any]] = []

    def add_part(self, part: list[Any]) -> None:
        """Append a stable part (see the class docstring); only before any fresh action."""
        if part:
            self.extend(part)
            self.parts.append(part)


class Driver(Generic[S, A]):
    """The bound engine functions of one game (see the module docstring).

    ``phases`` maps ``rules.phases[state.phase].kind`` to its phase module; ``action_types``
    are the game's action classes (anything else is refused before the legal list is
    consulted); ``rolls`` the six die-roll actions; ``max_forced`` bounds the forced loop.
    """

    legal_actions: Callable[[S], list[A]]
    chance_outcomes: Callable[[S], list[tuple[A, float]]]
    is_legal: Callable[[S, object], bool]
    apply: Callable[[S, A], tuple[S, list[Event]]]
    apply_unchecked: Callable[[S, A], S]
    play_forced: Callable[[S, list[Event]], None]
    why_illegal: Callable[[S, A], str]

    def __init__(
        self,
        phases: Mapping[str, PhaseModule],
        action_types: tuple[type, ...],
        rolls: Sequence[A],
        max_forced: int,
    ) -> None:
        table = dict(phases)
        outcomes = [(r, 1 / len(rolls)) for r in rolls]

        def legal_actions(s: Any) -> list[Any]:
            """Every legal action in this state (empty when the game is over). The list is
            cached on the state; do not modify it."""
            if s._legal is None:
                s._legal = [] if s.result is not None else table[s.rules.phases[s.phase].kind].legal(s)
            return s._legal

        def chance_outcomes(s: Any) -> list[tuple[Any, float]]:
            return list(outcomes) if s.is_chance else []

        def is_legal(s: Any, a: object) -> bool:
            return a in legal_actions(s)

        def play_forced(t: Any, events: list[Event]) -> None:
            """Take every decision that has exactly one answer (not chance, not after the end)."""
            for _ in range(max_forced):
                if t.result is not None or t.is_chance:
                    return
                acts = legal_actions(t)
                if len(acts) != 1:
                    return
                table[t.rules.phases[t.phase].kind].apply(t, acts[0], events)
                t._legal = None
            raise AssertionError("forced-action loop did not settle")  # pragma: no cover

        def why_illegal(s: Any, a: Any) -> str:
            """The phase code's own reason for refusing ``a``, in words."""
            t = s.copy()
            try:
                table[t.rules.phases[t.phase].kind].apply(t, a, [])
            except IllegalActionError as exc:
                return str(exc)
            except (TypeError, ValueError, AttributeError, KeyError, IndexError):
                return f"malformed action: {a!r}"
            return f"{type(a).__name__} is not legal in this position"

        def apply(s: Any, a: Any) -> tuple[Any, list[Event]]:
            """The state after ``a`` and what happened. Raises IllegalActionError (and changes
            nothing) if ``a`` is not legal here."""
            if not isinstance(a, action_types):
                raise IllegalActionError(f"not an action: {a!r}")
            if s.result is not None:
                raise IllegalActionError("the game is over")
            # The legal list is the definition of legality (it is exact); the phase code's own
            # checks only supply the reason in words.
            acts = legal_actions(s)
            try:
                a = acts[acts.index(a)]  # the engine's own object: equal values of other types end here
            except ValueError:
                raise IllegalActionError(why_illegal(s, a)) from None
            t = s.copy()
            events: list[Event] = []
            table[t.rules.phases[t.phase].kind].apply(t, a, events)
            t._legal = None
            play_forced(t, events)
            return t, events

        def apply_unchecked(s: Any, a: Any) -> Any:
            """``apply`` for an action taken from ``legal_actions(s)``, without events (search)."""
            t = s.copy()
            events: list[Event] = []
            table[t.rules.phases[t.phase].kind].apply(t, a, events)
            t._legal = None
            play_forced(t, events)
            return t

        self.legal_actions = legal_actions
        self.chance_outcomes = chance_outcomes
        self.is_legal = is_legal
        self.apply = apply
        self.apply_unchecked = apply_unchecked
        self.play_forced = play_forced
        self.why_illegal = why_illegal
