"""AI for The Moscow Campaign: the ``heuristic`` and ``search`` levels' TMC side.

The level players of :mod:`typhoon.ai.heuristic` and :mod:`typhoon.ai.search` are the same
objects for every game; when they are asked to decide in a TMC position they hand the decision
to the players of this package (:class:`~typhoon.ai.tmc.heuristic.TmcHeuristic`,
:class:`~typhoon.ai.tmc.search.TmcSearch`).
"""

from __future__ import annotations

from typing import Any

TMC_STATE_MODULE = "typhoon.games.tmc.state"


def is_tmc(state: Any) -> bool:
    """Is ``state`` a Moscow Campaign position? (Cheap: no TMC module is imported.)"""
    return type(state).__module__ == TMC_STATE_MODULE


__all__ = ["is_tmc"]
