"""Speed figures of the research environments, for ``typhoon bench`` (``--only env``).

For the default game (figures unprefixed): ``env_steps_per_s``: PettingZoo AEC steps per
second on one core, through the game's ``env()`` with its standard wrappers, each step
reading the observation tensor and the action mask (``env.last()``) and choosing uniformly
among the legal actions (the nonzero entries of the mask, read as booleans:
``mask.view(bool).nonzero()``, ten times faster than on the int8 array), over whole games,
after a warm-up (an engine may memoise during the first games of a process).
``env_raw_steps_per_s``: the same through ``raw_env()`` (no PettingZoo wrappers). The other
figures split one step into its parts. Every other registered game with a research codec
gets ``<key>_env_steps_per_s``, ``<key>_env_raw_steps_per_s`` and ``<key>_env_us_per_step``
(stopped when the time is up, mid-game: a game may be long).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from typhoon.games import DEFAULT_GAME

Figures = list[tuple[str, object]]


def play_masked(env: Any, seed: int, rng: random.Random, stop: Callable[[int], bool] | None = None) -> int:
    """One game of random masked play from ``env.reset(seed=seed)``: each step reads the
    observation and the mask (``env.last()``) and picks uniformly among the legal codes with
    ``rng``. ``stop(steps)``, asked after each step, ends the game early. Returns the steps."""
    steps = 0
    env.reset(seed=seed)
    for _agent in env.agent_iter():
        obs, _reward, termination, truncation, _info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        legal = obs["action_mask"].view(np.bool_).nonzero()[0]
        env.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
        if stop is not None and stop(steps):
            break
    return steps


def _random_play(env: Any, seconds: float, seed: int, mid_game: bool = False) -> tuple[int, float, int]:
    """Random masked play on a PettingZoo env for about ``seconds``: (steps, seconds, games).
    ``mid_game``: stop as soon as the time is up rather than at the end of a game (a game
    may be long)."""
    rng = random.Random(seed)
    steps = games = 0
    t0 = time.perf_counter()

    def time_up(_steps: int) -> bool:
        return time.perf_counter() - t0 >= seconds

    while time.perf_counter() - t0 < seconds:
        steps += play_masked(env, seed + games, rng, time_up if mid_game else None)
        if mid_game and time_up(steps):
            return steps, time.perf_counter() - t0, games
        games += 1
    return steps, time.perf_counter() - t0, games


def pettingzoo_steps(
    seconds: float,
    edition: str | None = None,
    seed: int = 0,
    raw: bool = False,
    game: str = DEFAULT_GAME,
    mid_game: bool = False,
) -> tuple[int, float, int]:
    """(steps, elapsed seconds, games finished) of random masked play for about ``seconds``
    (``edition`` None: the game's default)."""
    from typhoon.env.aec import env_module

    mod = env_module(game)
    env = mod.raw_env(edition=edition) if raw else mod.env(edition=edition)
    return _random_play(env, seconds, seed, mid_game=mid_game)


def game_figures(seconds: float, game: str) -> Figures:
    """A game's environment speed, prefixed with its key (after a short warm-up that builds
    the rules' tables)."""
    pettingzoo_steps(min(1.0, seconds / 4), seed=10_000, game=game, mid_game=True)
    steps, dt, _ = pettingzoo_steps(seconds, game=game, mid_game=True)
    raw_steps, raw_dt, _ = pettingzoo_steps(seconds, raw=True, game=game, mid_game=True)
    return [
        (f"{game}_env_steps_per_s", round(steps / dt)),
        (f"{game}_env_raw_steps_per_s", round(raw_steps / raw_dt)),
        (f"{game}_env_us_per_step", round(dt / steps * 1e6, 1)),
    ]


def step_parts(
    seconds: float, edition: str | None = None, seed: int = 20_000, game: str = DEFAULT_GAME
) -> dict[str, float]:
    """Mean microseconds per PettingZoo step (through the game's ``env()``, random masked
    play) spent in the engine (applying the action and the dice, which computes the next
    legal actions), in encoding the legal actions (the mask), in the observation, and in the
    rest (PettingZoo's API and wrappers, the action lookup, the sampling)."""
    from typhoon.env.aec import env_module

    env = env_module(game).env(edition=edition)
    match = env.unwrapped.match
    spent = {"engine": 0.0, "mask": 0.0, "observation": 0.0}
    pc = time.perf_counter

    def timed(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any) -> Any:
            t = pc()
            try:
                return fn(*args)
            finally:
                spent[name] += pc() - t

        return run

    match._apply = timed("engine", match._apply)
    match.legal_codes = timed("mask", match.legal_codes)  # type: ignore[method-assign]
    match.observe = timed("observation", match.observe)  # type: ignore[method-assign]
    steps, total, _games = _random_play(env, seconds, seed)
    out = {k: v / steps * 1e6 for k, v in spent.items()}
    out["rest"] = total / steps * 1e6 - sum(out.values())
    return out


def bench_figures(quick: bool = False) -> Figures:
    try:
        import gymnasium  # noqa: F401
        import pettingzoo  # noqa: F401
    except ImportError:
        return [("env", "skipped (install typhoon[rl])")]
    seconds = 2.0 if quick else 10.0
    # Warm up first: the engine memoises movement ranges, so the first games of a process
    # run slower.
    pettingzoo_steps(seconds / 2, seed=10_000)
    steps, dt, games = pettingzoo_steps(seconds)
    raw_steps, raw_dt, _ = pettingzoo_steps(seconds / 2, raw=True)
    parts = step_parts(seconds / 2)
    per_step = dt / steps * 1e6
    figures: Figures = [
        ("env_steps_per_s", round(steps / dt)),
        ("env_raw_steps_per_s", round(raw_steps / raw_dt)),
        ("env_us_per_step", round(per_step, 1)),
        ("env_games", games),
        ("env_us_engine_per_step", round(parts["engine"], 1)),
        ("env_us_mask_per_step", round(parts["mask"], 1)),
        ("env_us_observation_per_step", round(parts["observation"], 1)),
        ("env_us_api_wrappers_sampling_per_step", round(parts["rest"], 1)),
    ]
    from typhoon.env.codec import env_games

    for key in env_games():
        if key != DEFAULT_GAME:
            figures += game_figures(seconds / 2, key)
    return figures


__all__ = ["bench_figures", "game_figures", "pettingzoo_steps", "step_parts"]
