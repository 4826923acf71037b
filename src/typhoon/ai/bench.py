"""AI figures for ``typhoon bench``: decision time of each level (median and 95th percentile,
over every decision of whole games against the heuristic), the search's roll-outs per
second, and how long its phase plans take."""

from __future__ import annotations

import statistics
import time
from typing import Any

from typhoon.ai.levels import LevelPlayer
from typhoon.ai.match import TimedPlayer, p95
from typhoon.players import make_player
from typhoon.selfplay import play_game

Figures = list[tuple[str, object]]


def level_times(level: str, games: int, seed: int = 500) -> tuple[list[float], list[Any]]:
    """Decision times of ``level`` over ``games`` games against the heuristic, sides
    alternating. Also returns the search players (those that count their roll-outs)."""
    times: list[float] = []
    searchers: list[Any] = []
    for i in range(games):
        inner = make_player(level, seed + i)
        me = TimedPlayer(inner)
        other = make_player("heuristic", seed + 1000 + i)
        players = [me, other] if i % 2 == 0 else [other, me]
        play_game(players, seed=seed + i)  # type: ignore[list-item]
        times += me.times
        built = inner.players() if isinstance(inner, LevelPlayer) else [inner]
        searchers += [p for p in built if hasattr(p, "rollouts_done")]
    return times, searchers


def bench_figures(quick: bool = False) -> Figures:
    out: Figures = []
    plan: dict[str, int] = (
        {"random": 2, "heuristic": 2, "search:fast": 1, "search": 1}
        if quick
        else {"random": 10, "heuristic": 10, "search:fast": 2, "search": 2, "search:strong": 1}
    )
    for level, games in plan.items():
        t0 = time.perf_counter()
        times, searchers = level_times(level, games)
        wall = time.perf_counter() - t0
        key = level.replace(":", "_")
        out.append((f"ai_{key}_games", games))
        out.append((f"ai_{key}_decisions", len(times)))
        out.append((f"ai_{key}_decision_median_ms", round(statistics.median(times) * 1000, 3)))
        out.append((f"ai_{key}_decision_p95_ms", round(p95(times) * 1000, 3)))
        out.append((f"ai_{key}_decision_max_ms", round(max(times) * 1000, 1)))
        out.append((f"ai_{key}_seconds_per_game", round(wall / games, 2)))
        if searchers:
            rollouts = sum(p.rollouts_done for p in searchers)
            secs = sum(p.search_seconds for p in searchers)
            plans = [r.seconds for p in searchers for r in p.reports]
            out.append((f"ai_{key}_rollouts_per_s", round(rollouts / secs, 1) if secs else 0.0))
            out.append((f"ai_{key}_plans", len(plans)))
            out.append(
                (f"ai_{key}_plan_median_ms", round(statistics.median(plans) * 1000, 1) if plans else 0)
            )
            out.append((f"ai_{key}_plan_p95_ms", round(p95(plans) * 1000, 1)))
    return out


__all__ = ["bench_figures", "level_times"]
