"""Issue 17: PettingZoo steps per second of CPU time (steadier than wall time on a shared
machine), through a game's ``env()`` with its standard wrappers, each step reading the
observation and the mask (``env.last()``) and choosing uniformly among the legal codes as
``typhoon bench`` does.

    .venv/bin/python benchmarks/env_cpu_speed.py GAME STEPS_PER_GAME ROUNDS

plays seeds 0-3 (each up to ``STEPS_PER_GAME`` steps) per round after a warm-up and prints
the best round. For a before/after comparison run it with ``PYTHONPATH`` pointing at each
extract of ``src``, alternating, in one shell command.
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

import numpy as np

from typhoon.env.aec import env_module


def play(env: Any, seed: int, cap: int) -> int:
    rng = random.Random(seed)
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
        if steps >= cap:
            break
    return steps


def main() -> None:
    game, cap, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    env = env_module(game).env()
    play(env, 10_000, 300)  # warm-up (memos, tables)
    best = 0.0
    for _ in range(rounds):
        t = time.process_time()
        n = sum(play(env, seed, cap) for seed in range(4))
        best = max(best, n / (time.process_time() - t))
    print(
        f"{game}_env_cpu_steps_per_s: {best:.0f} (best of {rounds} rounds, seeds 0-3, {cap} steps each at most)"
    )


if __name__ == "__main__":
    main()
