"""What the State classes of both games share: the player codes, the off-map location, identity
by ``key()`` (the caches are not part of it) and reading the phase table."""

from __future__ import annotations

from typing import Any

CHANCE = -1  # current_player(): a die roll is due
TERMINAL = -2  # current_player(): the game is over
OFF = -1  # unit location: not on the map


class StateBase:
    """Mixin for a game's slotted State: ``rules.phases[phase]`` is the phase in progress
    (with ``side``), ``loc`` the per-unit hex or OFF, ``result`` None while the game goes on."""

    __slots__ = ()

    rules: Any
    phase: int
    loc: list[int]
    result: str | None

    def key(self) -> tuple[Any, ...]:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return isinstance(other, type(self)) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    @property
    def side(self) -> int:
        """The phasing side (whose phase it is)."""
        return self.rules.phases[self.phase].side

    @property
    def is_terminal(self) -> bool:
        return self.result is not None

    def on_map(self, side: int) -> list[int]:
        """``side``'s units on the map."""
        return [u for u in self.rules.side_units[side] if self.loc[u] >= 0]
