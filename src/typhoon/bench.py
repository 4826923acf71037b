"""Speed figures for ``typhoon bench``. Every figure is ``name: value``, one per line.

The core figures are measured through the game-module interface, so each game gets the same
ones (Battle for Moscow unprefixed, The Moscow Campaign prefixed ``tmc_``). Other parts add
figures by exposing ``bench_figures(quick: bool) -> list[tuple[str, object]]`` in a module
listed in ``EXTRA`` (skipped when not installed)."""

from __future__ import annotations

import importlib
import random
import statistics
import time
from collections.abc import Callable

from typhoon.games import GameModule, game_module

EXTRA = {"ai": "typhoon.ai.bench", "env": "typhoon.env.bench"}

Figures = list[tuple[str, object]]


def random_game(seed: int, edition: str = "gdw1986", game: str = "bfm") -> int:
    """One full game, both sides uniform over the legal actions, dice from the same generator.
    Returns the number of actions."""
    m = game_module(game)
    rng = random.Random(seed)
    s = m.new_game(edition, {})
    n = 0
    while s.result is None:
        acts = m.legal_actions(s)
        s = m.apply_unchecked(s, acts[rng.randrange(len(acts))])
        n += 1
    return n


def core_figures(
    quick: bool = False,
    edition: str = "gdw1986",
    game: str = "bfm",
    games: int | None = None,
    timed_games: int | None = None,
) -> Figures:
    """Random full games per second and the cost of one legal-action listing and one apply.
    Figures of games other than Battle for Moscow carry the game's key as a prefix."""
    m: GameModule = game_module(game)
    pre = "" if game == "bfm" else f"{game}_"
    n_games = games if games is not None else (20 if quick else 100)
    # Full random games on one core.
    t0 = time.perf_counter()
    actions = sum(random_game(1000 + i, edition, game) for i in range(n_games))
    dt = time.perf_counter() - t0
    out: Figures = [
        (f"{pre}edition", edition),
        (f"{pre}random_games", n_games),
        (f"{pre}random_games_per_s", round(n_games / dt, 3 if pre else 1)),
        (f"{pre}random_actions_per_game", round(actions / n_games, 1)),
    ]
    # Per-call costs over the states of random games.
    rng = random.Random(7)
    legal_t: list[float] = []
    apply_t: list[float] = []
    pc = time.perf_counter
    n_timed = timed_games if timed_games is not None else (5 if quick else 20)
    for _ in range(n_timed):
        s = m.new_game(edition, {})
        while s.result is None:
            fresh = s.copy()  # no cached list; the phase's shared facts stay warm, as in play
            t = pc()
            acts = m.legal_actions(fresh)
            legal_t.append(pc() - t)
            a = acts[rng.randrange(len(acts))]
            t = pc()
            s, _ = m.apply(s, a)
            apply_t.append(pc() - t)
    out += [
        (f"{pre}us_per_legal_actions", round(statistics.mean(legal_t) * 1e6, 1)),
        (f"{pre}us_per_legal_actions_p95", round(_p95(legal_t) * 1e6, 1)),
        (f"{pre}us_per_apply", round(statistics.mean(apply_t) * 1e6, 1)),
        (f"{pre}us_per_apply_p95", round(_p95(apply_t) * 1e6, 1)),
        (f"{pre}states_measured", len(apply_t)),
    ]
    return out


def tmc_figures(quick: bool = False) -> Figures:
    """The Moscow Campaign, scenario 1 (GT 1-8): fewer games, they are long."""
    return core_figures(quick, edition="1", game="tmc", games=1 if quick else 3, timed_games=1)


def _p95(xs: list[float]) -> float:
    ys = sorted(xs)
    return ys[min(len(ys) - 1, int(0.95 * len(ys)))]


def all_figures(quick: bool = False, only: str | None = None) -> Figures:
    out: Figures = []
    if only in (None, "core"):
        out += core_figures(quick)
    if only in (None, "tmc"):
        out += tmc_figures(quick)
    for part, mod_name in EXTRA.items():
        if only not in (None, part):
            continue
        try:
            mod = importlib.import_module(mod_name)
        except ImportError:
            continue
        fn: Callable[[bool], Figures] = mod.bench_figures
        out += fn(quick)
    return out


__all__ = ["all_figures", "core_figures", "random_game", "tmc_figures"]
