"""Speed figures for ``typhoon bench``. Every figure is ``name: value``, one per line.

The core figures are measured through the game-module interface, so each registered game gets
the same ones, on its default edition (the registry's default game unprefixed, every other
game prefixed with its key, e.g. ``<key>_us_per_apply``; how many games each plays is its
kit's ``bench_games``). Other parts add
figures by exposing ``bench_figures(quick: bool) -> list[tuple[str, object]]`` in a module
listed in ``EXTRA`` (skipped when not installed)."""

from __future__ import annotations

import importlib
import random
import statistics
import time
from collections.abc import Callable

from typhoon.games import DEFAULT_GAME, GameModule, game_keys, game_module

EXTRA = {"ai": "typhoon.ai.bench", "env": "typhoon.env.bench"}

Figures = list[tuple[str, object]]


def random_game(seed: int, edition: str | None = None, game: str = DEFAULT_GAME) -> int:
    """One full game, both sides uniform over the legal actions, dice from the same generator
    (``edition`` None: the game's default). Returns the number of actions."""
    m = game_module(game)
    if edition is None:
        edition = m.default_edition
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
    edition: str | None = None,
    game: str = DEFAULT_GAME,
    games: int | None = None,
    timed_games: int | None = None,
) -> Figures:
    """Random full games per second and the cost of one legal-action listing and one apply
    (``edition`` None: the game's default; ``games``/``timed_games`` None: the game's
    ``bench_games``). Figures of games other than the default game carry its key as a prefix."""
    m: GameModule = game_module(game)
    if edition is None:
        edition = m.default_edition
    sizes = m.front_ends.bench_games[1 if quick else 0]
    pre = "" if m.key == DEFAULT_GAME else f"{m.key}_"
    n_games = games if games is not None else sizes[0]
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
    n_timed = timed_games if timed_games is not None else sizes[1]
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


def _p95(xs: list[float]) -> float:
    ys = sorted(xs)
    return ys[min(len(ys) - 1, int(0.95 * len(ys)))]


def parts() -> list[str]:
    """What ``--only`` chooses: "core" (the default game), every other registered game's key,
    and the extra parts."""
    return ["core", *(k for k in game_keys() if k != DEFAULT_GAME), *EXTRA]


def all_figures(quick: bool = False, only: str | None = None) -> Figures:
    """Every registered game's core figures (the default game's first), then the extra parts'."""
    out: Figures = []
    for key in [DEFAULT_GAME, *(k for k in game_keys() if k != DEFAULT_GAME)]:
        if only in (None, "core" if key == DEFAULT_GAME else key):
            out += core_figures(quick, game=key)
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


__all__ = ["all_figures", "core_figures", "parts", "random_game"]
