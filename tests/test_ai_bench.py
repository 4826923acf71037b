"""The AI part of `typhoon bench`."""

from __future__ import annotations

import pytest

from typhoon.ai.bench import bench_figures, level_times


def test_level_times_measures_every_decision() -> None:
    times, searchers = level_times("heuristic", 1)
    assert len(times) > 50
    assert all(t >= 0 for t in times)
    assert searchers == []


@pytest.mark.slow
def test_bench_figures_quick() -> None:
    figs = dict(bench_figures(quick=True))
    for key in (
        "ai_heuristic_decision_median_ms",
        "ai_heuristic_decision_p95_ms",
        "ai_search_decision_median_ms",
        "ai_search_decision_p95_ms",
        "ai_search_rollouts_per_s",
    ):
        assert key in figs
    assert float(figs["ai_search_rollouts_per_s"]) > 0  # type: ignore[arg-type]
