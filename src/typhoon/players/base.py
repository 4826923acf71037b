"""The player interface and the random player."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from typhoon.errors import OptionError


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


# Level name -> factory(seed). AI modules add their levels here on import.
LEVELS: dict[str, Callable[[int | None], Player]] = {"random": lambda seed: RandomPlayer(seed)}


def _load_levels() -> None:
    # AI levels live in typhoon.ai; importing it registers them. The core works without it.
    with contextlib.suppress(ImportError):
        import typhoon.ai  # noqa: F401


def player_names() -> list[str]:
    _load_levels()
    return sorted(LEVELS)


def make_player(name: str, seed: int | None = None) -> Player:
    """A player by level name, e.g. 'random', or 'cmd:<command line>' for an external engine
    (docs/PROTOCOL.md). Raises OptionError for an unknown name."""
    _load_levels()
    if name in LEVELS:
        return LEVELS[name](seed)
    if name.startswith("cmd:") and name[4:].strip():
        from typhoon.players.external import ExternalPlayer  # the protocol is imported only when used

        return ExternalPlayer(name[4:].strip())
    raise OptionError(f"unknown player {name!r}; players: {', '.join(sorted(LEVELS))}")
