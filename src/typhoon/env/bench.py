"""Speed figures of the research environments, for ``typhoon bench`` (``--only env``).

``env_steps_per_s``: PettingZoo AEC steps per second on one core, through ``bfm_v0.env()``
with its standard wrappers, each step reading the observation tensor and the action mask
(``env.last()``) and choosing uniformly among the legal actions (the nonzero entries of the
mask, read as booleans: ``mask.view(bool).nonzero()``, ten times faster than on the int8
array), over whole games, after a warm-up (the engine's movement memo fills during the
first games of a process). ``env_raw_steps_per_s``: the same
through ``bfm_v0.raw_env()`` (no PettingZoo wrappers). The other figures split one step
into its parts.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

Figures = list[tuple[str, object]]


def _random_play(env: Any, seconds: float, seed: int, mid_game: bool = False) -> tuple[int, float, int]:
    """Random masked play on a PettingZoo env for about ``seconds``: (steps, seconds, games).
    ``mid_game``: stop as soon as the time is up rather than at the end of a game (a TMC game
    is long)."""
    rng = random.Random(seed)
    steps = games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        env.reset(seed=seed + games)
        for _agent in env.agent_iter():
            obs, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                env.step(None)
                continue
            legal = obs["action_mask"].view(np.bool_).nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
            if mid_game and time.perf_counter() - t0 >= seconds:
                return steps, time.perf_counter() - t0, games
        games += 1
    return steps, time.perf_counter() - t0, games


def pettingzoo_steps(
    seconds: float, edition: str = "gdw1986", seed: int = 0, raw: bool = False
) -> tuple[int, float, int]:
    """(steps, elapsed seconds, games finished) of random masked play for about ``seconds``."""
    from typhoon.env import bfm_v0

    env = bfm_v0.raw_env(edition=edition) if raw else bfm_v0.env(edition=edition)
    return _random_play(env, seconds, seed)


def tmc_pettingzoo_steps(
    seconds: float, scenario: str = "1", seed: int = 0, raw: bool = False
) -> tuple[int, float, int]:
    """The Moscow Campaign: (steps, elapsed seconds, games finished) of random masked play."""
    from typhoon.env import tmc_v0

    env = tmc_v0.raw_env(scenario=scenario) if raw else tmc_v0.env(scenario=scenario)
    return _random_play(env, seconds, seed, mid_game=True)


def tmc_figures(seconds: float) -> Figures:
    """TMC environment speed (after a short warm-up that builds the scenario's tables)."""
    tmc_pettingzoo_steps(min(1.0, seconds / 4), seed=10_000)
    steps, dt, _ = tmc_pettingzoo_steps(seconds)
    raw_steps, raw_dt, _ = tmc_pettingzoo_steps(seconds, raw=True)
    return [
        ("tmc_env_steps_per_s", round(steps / dt)),
        ("tmc_env_raw_steps_per_s", round(raw_steps / raw_dt)),
        ("tmc_env_us_per_step", round(dt / steps * 1e6, 1)),
    ]


def step_parts(seconds: float, edition: str = "gdw1986", seed: int = 20_000) -> dict[str, float]:
    """Mean microseconds per PettingZoo step (through ``bfm_v0.env()``, random masked play)
    spent in the engine (applying the action and the dice, which computes the next legal
    actions), in encoding the legal actions (the mask), in the observation, and in the rest
    (PettingZoo's API and wrappers, the action lookup, the sampling)."""
    from typhoon.env import bfm_v0, core

    env = bfm_v0.env(edition=edition)
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

    original = core.Match._apply
    core.Match._apply = staticmethod(timed("engine", original))  # type: ignore[method-assign,assignment]
    match.legal_codes = timed("mask", match.legal_codes)  # type: ignore[method-assign]
    match.observe = timed("observation", match.observe)  # type: ignore[method-assign]
    try:
        steps, total, _games = _random_play(env, seconds, seed)
    finally:
        core.Match._apply = staticmethod(original)  # type: ignore[method-assign,assignment]
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
    return [
        ("env_steps_per_s", round(steps / dt)),
        ("env_raw_steps_per_s", round(raw_steps / raw_dt)),
        ("env_us_per_step", round(per_step, 1)),
        ("env_games", games),
        ("env_us_engine_per_step", round(parts["engine"], 1)),
        ("env_us_mask_per_step", round(parts["mask"], 1)),
        ("env_us_observation_per_step", round(parts["observation"], 1)),
        ("env_us_api_wrappers_sampling_per_step", round(parts["rest"], 1)),
        *tmc_figures(seconds / 2),
    ]


__all__ = ["bench_figures", "pettingzoo_steps", "step_parts", "tmc_figures", "tmc_pettingzoo_steps"]
