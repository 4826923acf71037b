"""The level players: one object per level name that plays every registered game.

``make_player("heuristic", seed)`` knows no game: the level's player is built when it is first
asked to choose in a game (found from the state, ``typhoon.games.module_of_state``), from the
game's AI module (``FrontEnds.ai``, imported by name):

- the module's ``LEVELS[level](seed)``, the game's own player for that level name, if it lists
  one (the existing games' heuristic and search players, which play exactly as before);
- else the framework's generic player (:mod:`typhoon.ai.generic`) over the module's
  ``evaluate(state, side)``.

A game-own level (``games.own_levels``, e.g. a game's second heuristic) plays only the games that
list it in their ``LEVELS``; asking it to choose in another game raises
:class:`~typhoon.errors.OptionError`.

A game without an AI module (or whose module offers neither) plays only the ``random`` level:
asking another level to choose there raises :class:`~typhoon.errors.OptionError`.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from typhoon.ai.budget import HEURISTIC, LEVEL_NAMES, SEARCH_LEVELS, Budget
from typhoon.ai.generic import OnePlyPlayer, RolloutSearchPlayer
from typhoon.errors import OptionError
from typhoon.games import GameModule, module_of_state, own_levels
from typhoon.players.base import Player


def ai_module(game: GameModule) -> ModuleType | None:
    """The game's AI module (``FrontEnds.ai``), or None if it has none."""
    name = game.front_ends.ai
    return None if name is None else importlib.import_module(name)


def _cap_time(player: Any, limit: float | None) -> None:
    """Cut ``player``'s searches at ``limit`` seconds per decision, if it searches (its
    ``config.time_limit``), keeping a tighter limit of its own."""
    cfg = getattr(player, "config", None)
    if limit is None or cfg is None or not dataclasses.is_dataclass(cfg) or not hasattr(cfg, "time_limit"):
        return
    own = cfg.time_limit
    player.config = dataclasses.replace(cfg, time_limit=limit if own is None else min(own, limit))  # type: ignore[type-var]


class LevelPlayer:
    """The player of one level name, for whatever game it is asked to choose in."""

    def __init__(self, level: str, seed: int | None = None):
        self.name = level
        self.level = level
        self.seed = seed
        self._by_type: dict[type, Player] = {}  # the state's class -> that game's player
        self._last: Player | None = None

    def player_for(self, state: Any) -> Player:
        """This level's player for ``state``'s game, built on first use."""
        p = self._by_type.get(type(state))
        if p is None:
            p = self._by_type[type(state)] = self._build(module_of_state(state))
        return p

    def players(self) -> list[Player]:
        """The players built so far (one per game this level has played)."""
        return list(self._by_type.values())

    def choose(self, state: Any, actions: Sequence[Any]) -> Any:
        p = self._last = self.player_for(state)
        return p.choose(state, actions)

    def explain(self) -> str:
        fn = getattr(self._last, "explain", None)
        return str(fn()) if callable(fn) else "No decision yet."

    def _build(self, game: GameModule) -> Player:
        module = ai_module(game)
        if module is None:
            raise OptionError(
                f"{game.title} ({game.key}) has no AI: only the random level plays it, not {self.level!r}"
            )
        own = getattr(module, "LEVELS", {}).get(self.level)
        if own is not None:
            p: Player = own(self.seed)
        elif self.level not in LEVEL_NAMES:
            # a game-own level (games.own_levels) has no generic player to fall back on
            raise OptionError(f"{game.title} ({game.key}) has no AI level {self.level!r}")
        else:
            evaluate = getattr(module, "evaluate", None)
            if evaluate is None:
                raise OptionError(
                    f"{game.title} ({game.key}): its AI module {module.__name__} has no evaluate"
                    f" and no {self.level!r} level"
                )
            p = self._generic(game, module, evaluate)
        self._adapt(p)
        return p

    def _generic(self, game: GameModule, module: ModuleType, evaluate: Any) -> Player:
        return OnePlyPlayer(game, evaluate, self.seed, name=self.level)

    def _adapt(self, player: Player) -> None:
        """Hook: what the level imposes on a player it has built (the search's time limit)."""


class SearchLevelPlayer(LevelPlayer):
    """A search level: its budget (``config``) is the framework's for the level name; a time
    limit set on it (``config.time_limit``, the web service's cut) applies to the game's
    player too."""

    def __init__(self, level: str, seed: int | None = None):
        super().__init__(level, seed)
        self._config = SEARCH_LEVELS[level]

    @property
    def config(self) -> Budget:
        return self._config

    @config.setter
    def config(self, value: Budget) -> None:
        self._config = value
        for p in self._by_type.values():
            _cap_time(p, value.time_limit)

    def _generic(self, game: GameModule, module: ModuleType, evaluate: Any) -> Player:
        policy = getattr(module, "rollout_policy", None)
        return RolloutSearchPlayer(
            game, evaluate, self.seed, name=self.level, config=self._config, rollout_policy=policy
        )

    def _adapt(self, player: Player) -> None:
        _cap_time(player, self._config.time_limit)


def level_player(level: str, seed: int | None = None) -> LevelPlayer:
    """The player of a framework level name (``heuristic``, ``search``, ``search:fast``, ...)."""
    if level == HEURISTIC:
        return LevelPlayer(level, seed)
    if level in SEARCH_LEVELS:
        return SearchLevelPlayer(level, seed)
    if level in own_levels():
        return LevelPlayer(level, seed)
    known = [HEURISTIC, *SEARCH_LEVELS, *own_levels()]
    raise OptionError(f"unknown AI level {level!r}; levels: {', '.join(known)}")


__all__ = ["LevelPlayer", "SearchLevelPlayer", "ai_module", "level_player"]
