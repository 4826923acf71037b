"""Battle for Moscow's AI: the game's adapter for the AI framework (``FrontEnds.ai``).

The framework (:mod:`typhoon.ai`) reads two names here: :func:`evaluate`, the static
evaluation (:mod:`~typhoon.games.bfm.ai.evaluate`, a logistic model of the German score), and
:data:`LEVELS`, this game's own players for the framework's level names: the rules-of-thumb
player (:mod:`~typhoon.games.bfm.ai.heuristic`) and the phase-planning search
(:mod:`~typhoon.games.bfm.ai.search`) with each search level's budget.
"""

from __future__ import annotations

from collections.abc import Callable

from typhoon.games.bfm.ai.evaluate import german_score
from typhoon.games.bfm.ai.heuristic import HeuristicPlayer
from typhoon.games.bfm.ai.search import LEVEL_CONFIGS, SearchConfig, SearchPlayer, make_search_player
from typhoon.games.bfm.rules import GERMAN
from typhoon.games.bfm.state import State
from typhoon.players.base import Player


def evaluate(state: State, side: int) -> float:
    """How good ``state`` is for ``side``, in [-1, 1] (1: won): the German expected score
    rescaled, or its mirror for the Soviet side."""
    g = 2.0 * german_score(state) - 1.0
    return g if side == GERMAN else -g


LEVELS: dict[str, Callable[[int | None], Player]] = {
    "heuristic": lambda seed: HeuristicPlayer(seed),
    **{level: make_search_player(level) for level in LEVEL_CONFIGS},
}

__all__ = ["LEVELS", "HeuristicPlayer", "SearchConfig", "SearchPlayer", "evaluate"]
