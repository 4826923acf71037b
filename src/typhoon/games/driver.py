"""The engine driver both games share: legal-list caching, exact-list legality, copy-on-apply
and the forced-single-action loop, over a game's table of phase modules.

A game's ``engine.py`` builds one :class:`Driver` from its phase table (phase kind → module
with ``legal(state)`` and ``apply(state, action, events)``) and re-exports the bound
functions. The functions are closures over the table rather than methods so that the hot
path (``legal_actions``, ``apply_unchecked``) costs no more attribute look-ups than a
hand-written engine module.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import accumulate, chain
from operator import attrgetter
from typing import Any, Generic, Protocol, TypeVar, overload

from typhoon.errors import IllegalActionError
from typhoon.events import Event


class PhaseModule(Protocol):
    """What a phase module offers the driver."""

    def legal(self, s: Any) -> Sequence[Any]: ...

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


class LazyPart:
    """One part of a :class:`LazyLegal`: a list made when first read.

    ``n`` is the length of that list, known without making it; ``key`` is what every action
    of the list has as its first field (a tuple action's unit id, say), so a lookup of an
    action whose first field differs skips the part unmade; ``make(arg)`` makes the list
    (called once: the list is kept and handed out as it is, never mutated); ``at(arg, i)``,
    if given, is an action equal to the list's ``i``-th (0 <= i < n) made alone, so that
    reading one action of an unmade part does not make the whole list."""

    __slots__ = ("n", "key", "_make", "_arg", "_at", "_got", "data")

    def __init__(
        self,
        n: int,
        key: str,
        make: Callable[[Any], list[Any]],
        arg: Any,
        at: Callable[[Any, int], Any] | None = None,
        data: Any = None,
    ) -> None:
        self.n = n
        self.key = key
        self._make = make
        self._arg = arg
        self._at = at
        self._got: list[Any] | None = None
        self.data = data  # what the list is made from, for consumers that know it (or None)

    def __len__(self) -> int:
        return self.n

    @property
    def make(self) -> Callable[[Any], list[Any]]:
        """The function that makes the list (with ``arg``: what a consumer may read instead)."""
        return self._make

    @property
    def arg(self) -> Any:
        return self._arg

    def get(self) -> list[Any]:
        """The list (made on the first call, the same object after)."""
        got = self._got
        if got is None:
            got = self._got = self._make(self._arg)
        return got

    def item(self, i: int) -> Any:
        """The ``i``-th action (0 <= i < n), from the list if made, else by ``at``."""
        got = self._got
        if got is not None:
            return got[i]
        at = self._at
        if at is None:
            return self.get()[i]
        return at(self._arg, i)


_get_part = LazyPart.get
_part_n = attrgetter("n")


class LazyLegal(Sequence[Any]):
    """A legal-action list whose parts are made when read: the concatenation of ``src``'s
    parts (:class:`LazyPart`, nonempty), then ``tail`` (a plain list).

    ``len`` costs nothing; a read by index makes at most one action (or the one part read);
    ``in`` and ``index`` of a tuple action whose first field is a string make only the parts
    of that key (see :class:`LazyPart`); iteration makes every part (each once). ``parts``
    (the made lists) is what :class:`LegalList` offers consumers such as the environments'
    codecs. Equal to a list (or LazyLegal) of the same actions in the same order; never
    modified (it is a legal list)."""

    __slots__ = ("_src", "_tail", "_ends", "_head", "_n", "_keys", "_flat")

    def __init__(self, src: list[LazyPart], tail: list[Any]) -> None:
        self._src = src
        self._tail = tail
        ends = list(accumulate(map(_part_n, src)))
        self._ends = ends
        self._head = head = ends[-1] if ends else 0
        self._n = head + len(tail)
        self._keys: dict[str, list[int]] | None = None
        self._flat: list[Any] | None = None

    def __len__(self) -> int:
        return self._n

    def __bool__(self) -> bool:
        return self._n > 0

    @overload
    def __getitem__(self, i: int) -> Any: ...

    @overload
    def __getitem__(self, i: slice) -> list[Any]: ...

    def __getitem__(self, i: int | slice) -> Any:
        if isinstance(i, slice):
            start, stop, step = i.indices(self._n)
            head = self._head
            if step == 1 and start >= head:  # within the tail (a codec's "the rest")
                return self._tail[start - head : max(stop - head, 0)]
            return self.as_list()[i]
        n = self._n
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("legal list index out of range")
        head = self._head
        if i >= head:
            return self._tail[i - head]
        ends = self._ends
        k = bisect_right(ends, i)
        return self._src[k].item(i - ends[k - 1] if k else i)

    def __iter__(self) -> Iterator[Any]:
        flat = self._flat
        if flat is not None:
            return iter(flat)
        return chain(chain.from_iterable(map(_get_part, self._src)), self._tail)

    def __reversed__(self) -> Iterator[Any]:
        return reversed(self.as_list())

    def as_list(self) -> list[Any]:
        """Every action, in order, as a plain list (made once and kept; do not modify it)."""
        flat = self._flat
        if flat is None:
            flat = self._flat = list(self.__iter__())
        return flat

    @property
    def lazy_parts(self) -> list[LazyPart]:
        """The parts as they are (made or not); do not modify."""
        return self._src

    @property
    def tail(self) -> list[Any]:
        """The actions after the parts; do not modify."""
        return self._tail

    @property
    def parts(self) -> list[list[Any]]:
        """The parts as lists (see :class:`LegalList`): their concatenation is the head."""
        return list(map(_get_part, self._src))

    def _find(self, a: object) -> int:
        if not (isinstance(a, tuple) and a and type(a[0]) is str):
            return self.as_list().index(a)
        keys = self._keys
        src = self._src
        if keys is None:
            keys = self._keys = {}
            for k, p in enumerate(src):
                keys.setdefault(p.key, []).append(k)
        ends = self._ends
        for k in keys.get(a[0], ()):
            try:
                return src[k].get().index(a) + (ends[k - 1] if k else 0)
            except ValueError:
                pass
        return self._head + self._tail.index(a)

    def index(self, a: Any, start: int = 0, stop: int | None = None) -> int:
        if start or stop is not None:
            return self.as_list().index(a, start, len(self) if stop is None else stop)
        return self._find(a)

    def __contains__(self, a: object) -> bool:
        try:
            self._find(a)
        except ValueError:
            return False
        return True

    def count(self, a: Any) -> int:
        return self.as_list().count(a)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyLegal):
            other = other.as_list()
        if isinstance(other, list):
            return self.as_list() == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __add__(self, other: list[Any]) -> list[Any]:
        return self.as_list() + list(other)

    def __radd__(self, other: list[Any]) -> list[Any]:
        return list(other) + self.as_list()

    def __repr__(self) -> str:
        return repr(self.as_list())


class Driver(Generic[S, A]):
    """The bound engine functions of one game (see the module docstring).

    ``phases`` maps ``rules.phases[state.phase].kind`` to its phase module; ``action_types``
    are the game's action classes (anything else is refused before the legal list is
    consulted); ``rolls`` the six die-roll actions; ``max_forced`` bounds the forced loop.
    """

    legal_actions: Callable[[S], Sequence[A]]
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

        def legal_actions(s: Any) -> Sequence[Any]:
            """Every legal action in this state (empty when the game is over): a list, or a
            :class:`LazyLegal` whose actions are made when read. Cached on the state; do not
            modify it."""
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
