"""The tiny game's engine: immutable states and a pure step function."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from typhoon.errors import IllegalActionError
from typhoon.events import Event

from .rules import HEXES, SIDE_NAMES, SIDE_OF, START, UNITS, Rules, load_rules

CHANCE, TERMINAL = -1, -2


class Move(NamedTuple):
    unit: str
    dst: str
    kind: str = "move"


class Attack(NamedTuple):
    unit: str
    target: str
    kind: str = "attack"


class End(NamedTuple):
    kind: str = "end"


class Roll(NamedTuple):
    die: int
    kind: str = "roll"


Action = Move | Attack | End | Roll
ROLLS = [Roll(d) for d in range(1, 7)]


class PhaseSpec(NamedTuple):
    key: str
    name: str
    side: int


PHASES = (PhaseSpec("german", "German phase", 0), PhaseSpec("soviet", "Soviet phase", 1))


@dataclass(frozen=True)
class State:
    rules: Rules
    turn: int = 1
    phase: int = 0  # index into PHASES
    loc: tuple[int, ...] = START  # hex index of each unit, -1 eliminated
    pending: tuple[int, int] | None = None  # (attacker, defender) awaiting the die
    result: str | None = None

    @property
    def phase_spec(self) -> PhaseSpec:
        return PHASES[self.phase]

    @property
    def is_terminal(self) -> bool:
        return self.result is not None

    def current_player(self) -> int:
        if self.result is not None:
            return TERMINAL
        return CHANCE if self.pending is not None else self.phase

    def copy(self) -> State:
        return dataclasses.replace(self)

    def unit_at(self, h: int) -> int:
        return self.loc.index(h) if h in self.loc else -1

    def units_of(self, side: int) -> list[int]:
        return [u for u in range(len(UNITS)) if SIDE_OF[u] == side and self.loc[u] >= 0]


def new_game(edition: str | None = None, options: Mapping[str, str] | None = None) -> State:
    return State(load_rules(edition, options))


def legal_actions(s: State) -> list[Any]:
    if s.result is not None:
        return []
    if s.pending is not None:
        return list(ROLLS)
    out: list[Any] = []
    for u in s.units_of(s.phase):
        h = s.loc[u]
        for n in (h - 1, h + 1):
            if 0 <= n < len(HEXES):
                other = s.unit_at(n)
                if other < 0:
                    out.append(Move(UNITS[u], HEXES[n]))
                elif SIDE_OF[other] != s.phase:
                    out.append(Attack(UNITS[u], HEXES[n]))
    out.append(End())
    return out


def chance_outcomes(s: State) -> list[tuple[Any, float]]:
    return [(r, 1 / 6) for r in ROLLS] if s.pending is not None else []


def _next_phase(s: State, events: list[Event]) -> State:
    for side in (0, 1):
        if not s.units_of(side):
            win = SIDE_NAMES[1 - side]
            events.append(
                Event("game_over", f"Game over: the {win} side wins (no {SIDE_NAMES[side]} units).", {})
            )
            return dataclasses.replace(s, result=win)
    if s.phase == 0:
        return dataclasses.replace(s, phase=1)
    if s.turn < s.rules.last_turn:
        return dataclasses.replace(s, phase=0, turn=s.turn + 1)
    g, v = len(s.units_of(0)), len(s.units_of(1))
    result = "german" if g > v else "soviet" if v > g else "draw"
    events.append(Event("game_over", f"Game over after the last turn: {result}.", {}))
    return dataclasses.replace(s, result=result)


def apply(s: State, action: Any) -> tuple[State, list[Event]]:
    if action not in legal_actions(s):
        raise IllegalActionError(f"{action!r} is not legal here")
    events: list[Event] = []
    return _step(s, action, events), events


def apply_unchecked(s: State, action: Any) -> State:
    return _step(s, action, [])


def _step(s: State, a: Any, events: list[Event]) -> State:
    if a.kind == "move":
        u, h = UNITS.index(a.unit), HEXES.index(a.dst)
        loc = list(s.loc)
        loc[u] = h
        events.append(Event("move", f"{a.unit} moves to {a.dst}.", {}))
        return _next_phase(dataclasses.replace(s, loc=tuple(loc)), events)
    if a.kind == "attack":
        d = s.unit_at(HEXES.index(a.target))
        return dataclasses.replace(s, pending=(UNITS.index(a.unit), d))
    if a.kind == "roll":
        assert s.pending is not None
        _, d = s.pending
        loc = list(s.loc)
        if a.die >= 4:
            loc[d] = -1
            events.append(Event("eliminated", f"Die {a.die}: {UNITS[d]} is eliminated.", {}))
        else:
            events.append(Event("missed", f"Die {a.die}: no effect.", {}))
        return _next_phase(dataclasses.replace(s, loc=tuple(loc), pending=None), events)
    return _next_phase(s, events)  # end
