"""The AI framework: the ``heuristic`` and ``search`` levels, for every registered game.

Importing this package registers the levels in :data:`typhoon.players.LEVELS`, so
``make_player("heuristic")`` and every command that takes player names know them. A level's
player finds the game it plays from the state and reads the game's AI module
(``FrontEnds.ai``): the game's own players for the level (``LEVELS``), or the framework's
generic ones over its ``evaluate`` (:mod:`typhoon.ai.levels`, :mod:`typhoon.ai.generic`).
The framework names no game.
"""

from __future__ import annotations

from collections.abc import Callable

from typhoon.ai.budget import LEVEL_NAMES, SEARCH_LEVELS, Budget
from typhoon.ai.levels import LevelPlayer, SearchLevelPlayer, level_player
from typhoon.games import own_levels
from typhoon.players.base import LEVELS


def _factory(level: str) -> Callable[[int | None], LevelPlayer]:
    return lambda seed: level_player(level, seed)


for _level in (*LEVEL_NAMES, *own_levels()):
    LEVELS[_level] = _factory(_level)

__all__ = ["SEARCH_LEVELS", "Budget", "LevelPlayer", "SearchLevelPlayer", "level_player"]
