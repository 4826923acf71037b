"""The search levels' budgets, by level name: the same names and figures for every game.

A game's own search players read the budget of their level from here (``SEARCH_LEVELS``) and
may scale it to the length of their roll-outs; the framework's generic search
(:mod:`typhoon.ai.generic`) spends it as it is.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Budget:
    rollouts: int = 64  # roll-outs per searched decision (a game's own search: per phase plan)
    candidates: int = 8  # choices compared per searched decision
    horizon: int = 12  # the generic search: decisions played in a roll-out before it is scored
    time_limit: float | None = None  # seconds per searched decision, None: no limit (reproducible)


SEARCH_LEVELS: dict[str, Budget] = {
    "search": Budget(),
    "search:fast": Budget(rollouts=24, candidates=4),
    "search:strong": Budget(rollouts=192, candidates=12),
}
# A ladder by budget for experiments: search:16 ... search:512.
for _n in (16, 32, 64, 128, 256, 512):
    SEARCH_LEVELS[f"search:{_n}"] = Budget(rollouts=_n, candidates=max(4, min(16, _n // 8)))

HEURISTIC = "heuristic"
LEVEL_NAMES: tuple[str, ...] = (HEURISTIC, *SEARCH_LEVELS)


__all__ = ["HEURISTIC", "LEVEL_NAMES", "SEARCH_LEVELS", "Budget"]
