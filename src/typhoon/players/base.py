"""The player interface and the random player."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Player(Protocol):
    """Chooses one of the legal actions. ``state`` is the game module's state (never
    modified by the player); ``actions`` is exactly ``legal_actions(state)``."""

    name: str

    def choose(self, state: Any, actions: Sequence[Any]) -> Any: ...


class RandomPlayer:
    """Uniform over the legal actions."""

    def __init__(self, seed: int | None = None, name: str = "random"):
        self.name = name
        self.rng = random.Random(seed)

    def choose(self, state: Any, actions: Sequence[Any]) -> Any:
        return actions[self.rng.randrange(len(actions))]

    def explain(self) -> str:
        return "Chosen uniformly at random among the legal actions."


# Level name -> factory(seed). AI modules add their levels here on import; make_player and
# player_names (typhoon.players.levels) import them, so nothing here imports upward.
LEVELS: dict[str, Callable[[int | None], Player]] = {"random": lambda seed: RandomPlayer(seed)}
