"""The Moscow Campaign's AI: the game's adapter for the AI framework (``FrontEnds.ai``).

:func:`evaluate` is the static evaluation (:mod:`~typhoon.games.tmc.ai.evaluate`: the German
score from the expected VP ratio, §24); :data:`LEVELS` are this game's players for the
framework's level names: the rules-of-thumb player (:class:`~typhoon.games.tmc.ai.heuristic.TmcHeuristic`)
and the phase-planning search (:class:`~typhoon.games.tmc.ai.search.TmcSearch`), with each
search level's budget scaled to this game's longer roll-outs (:func:`~typhoon.games.tmc.ai.search.tmc_config`).

A level player's seed is drawn from a generator seeded with the level's seed (as the level
players always did), so fixed-seed games play as before.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from typhoon.ai.budget import SEARCH_LEVELS, Budget
from typhoon.games.tmc.ai.evaluate import german_score
from typhoon.games.tmc.ai.heuristic import TmcHeuristic
from typhoon.games.tmc.ai.operational import TmcOperational
from typhoon.games.tmc.ai.search import TmcSearch, tmc_config
from typhoon.games.tmc.rules import GERMAN
from typhoon.games.tmc.state import State
from typhoon.players.base import Player


def evaluate(state: State, side: int) -> float:
    """How good ``state`` is for ``side``, in [-1, 1] (1: won)."""
    g = 2.0 * german_score(state) - 1.0
    return g if side == GERMAN else -g


def _seed(seed: int | None) -> int:
    return random.Random(seed).randrange(2**31)


def _search(level: str, b: Budget) -> Callable[[int | None], Player]:
    cfg = tmc_config(b.rollouts, b.candidates, b.time_limit)
    return lambda seed: TmcSearch(_seed(seed), name=level, config=cfg)


LEVELS: dict[str, Callable[[int | None], Player]] = {
    "heuristic": lambda seed: TmcHeuristic(_seed(seed), name="heuristic"),
    "operational": lambda seed: TmcOperational(_seed(seed), name="operational"),
    **{level: _search(level, b) for level, b in SEARCH_LEVELS.items()},
}

__all__ = ["LEVELS", "evaluate"]
