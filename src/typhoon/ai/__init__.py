"""AI players for Typhoon: the ``heuristic`` and ``search`` levels.

Importing this package registers the levels in :data:`typhoon.players.LEVELS`, so
``make_player("heuristic")`` and every command that takes player names know them.
"""

from __future__ import annotations

from typhoon.ai.heuristic import HeuristicPlayer
from typhoon.ai.search import LEVEL_CONFIGS, SearchConfig, SearchPlayer, make_search_player
from typhoon.players.base import LEVELS

LEVELS["heuristic"] = lambda seed: HeuristicPlayer(seed)
for _level in LEVEL_CONFIGS:
    LEVELS[_level] = make_search_player(_level)

__all__ = ["HeuristicPlayer", "SearchConfig", "SearchPlayer"]
