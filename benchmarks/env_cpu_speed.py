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

from typhoon.env.aec import env_module
from typhoon.env.bench import play_masked


def play(env: Any, seed: int, cap: int) -> int:
    return play_masked(env, seed, random.Random(seed), lambda steps: steps >= cap)


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
