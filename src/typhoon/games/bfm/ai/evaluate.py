"""Static evaluation: the German player's expected score (win 1, draw 1/2, loss 0) from a
position at the start of a side's turn, assuming heuristic play from there on.

One logistic model per (turn, side to move) over :mod:`typhoon.games.bfm.ai.features`, fitted on
self-play games by ``benchmarks/ai_train_eval.py`` (weights in :mod:`typhoon.games.bfm.ai.eval_weights`).
"""

from __future__ import annotations

import math

from typhoon.games.bfm.ai.eval_weights import WEIGHTS
from typhoon.games.bfm.ai.features import features
from typhoon.games.bfm.state import State

RESULT_SCORE = {"german": 1.0, "draw": 0.5, "soviet": 0.0}


def checkpoint_key(s: State) -> tuple[int, int] | None:
    """(turn, side whose turn it is), or None during set-up or after the game."""
    if s.result is not None or s.turn < 1:
        return None
    return (s.turn, s.side)


def german_score(s: State) -> float:
    """Expected German score of ``s`` (exact when the game is over)."""
    if s.result is not None:
        return RESULT_SCORE[s.result]
    key = checkpoint_key(s)
    if key is None:
        key = (1, 0)
    w = WEIGHTS.get(key)
    if w is None:
        w = WEIGHTS[min(WEIGHTS, key=lambda k: (abs(k[0] - key[0]), k[1] != key[1]))]
    z = sum(a * b for a, b in zip(w, features(s)))
    if z > 30:
        return 1.0
    if z < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))


__all__ = ["RESULT_SCORE", "checkpoint_key", "german_score"]
