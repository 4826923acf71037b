"""Speed figures for ``typhoon bench``. Every figure is ``name: value``, one per line.

Other parts add figures by exposing ``bench_figures(quick: bool) -> list[tuple[str, object]]``
in a module listed in ``EXTRA`` (skipped when not installed)."""

from __future__ import annotations

import importlib
import random
import statistics
import time
from collections.abc import Callable

from typhoon.games.bfm.engine import apply, apply_unchecked, legal_actions, new_game

EXTRA = ("typhoon.ai.bench", "typhoon.env.bench")

Figures = list[tuple[str, object]]


def random_game(seed: int, edition: str = "gdw1986") -> int:
    """One full game, both sides uniform over the legal actions, dice from the same generator.
    Returns the number of actions."""
    rng = random.Random(seed)
    s = new_game(edition)
    n = 0
    while s.result is None:
        acts = legal_actions(s)
        s = apply_unchecked(s, acts[rng.randrange(len(acts))])
        n += 1
    return n


def core_figures(quick: bool = False, edition: str = "gdw1986") -> Figures:
    games = 20 if quick else 100
    # Full random games on one core.
    t0 = time.perf_counter()
    actions = sum(random_game(1000 + i, edition) for i in range(games))
    dt = time.perf_counter() - t0
    out: Figures = [
        ("edition", edition),
        ("random_games", games),
        ("random_games_per_s", round(games / dt, 1)),
        ("random_actions_per_game", round(actions / games, 1)),
    ]
    # Per-call costs over the states of random games.
    rng = random.Random(7)
    legal_t: list[float] = []
    apply_t: list[float] = []
    pc = time.perf_counter
    for _ in range(5 if quick else 20):
        s = new_game(edition)
        while s.result is None:
            fresh = s.copy()  # no cached list; the phase's shared facts stay warm, as in play
            t = pc()
            acts = legal_actions(fresh)
            legal_t.append(pc() - t)
            a = acts[rng.randrange(len(acts))]
            t = pc()
            s, _ = apply(s, a)
            apply_t.append(pc() - t)
    out += [
        ("us_per_legal_actions", round(statistics.mean(legal_t) * 1e6, 1)),
        ("us_per_legal_actions_p95", round(_p95(legal_t) * 1e6, 1)),
        ("us_per_apply", round(statistics.mean(apply_t) * 1e6, 1)),
        ("us_per_apply_p95", round(_p95(apply_t) * 1e6, 1)),
        ("states_measured", len(apply_t)),
    ]
    return out


def _p95(xs: list[float]) -> float:
    ys = sorted(xs)
    return ys[min(len(ys) - 1, int(0.95 * len(ys)))]


def all_figures(quick: bool = False, only: str | None = None) -> Figures:
    out: Figures = []
    if only in (None, "core"):
        out += core_figures(quick)
    for mod_name in EXTRA:
        part = mod_name.split(".")[1]
        if only not in (None, part):
            continue
        try:
            mod = importlib.import_module(mod_name)
        except ImportError:
            continue
        fn: Callable[[bool], Figures] = mod.bench_figures
        out += fn(quick)
    return out


__all__ = ["all_figures", "core_figures", "random_game"]
