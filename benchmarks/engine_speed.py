"""Engine speed against the issue-2 target (>= 50 random full games per second on one core).

    .venv/bin/python benchmarks/engine_speed.py [--games N]

Prints figures only; CPU time of this process is used so a busy machine distorts less.
"""

from __future__ import annotations

import argparse
import time

from typhoon.bench import random_game

TARGET = 50.0


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--edition", default="gdw1986")
    args = p.parse_args()
    random_game(0, args.edition)  # warm caches and imports
    wall0, cpu0 = time.perf_counter(), time.process_time()
    actions = sum(random_game(1000 + i, args.edition) for i in range(args.games))
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    print(f"games: {args.games}")
    print(f"actions_per_game: {actions / args.games:.1f}")
    print(f"random_games_per_s_wall: {args.games / wall:.1f}")
    print(f"random_games_per_s_cpu: {args.games / cpu:.1f}")
    print(f"us_per_action_cpu: {cpu / actions * 1e6:.1f}")
    print(f"target_games_per_s: {TARGET}")


if __name__ == "__main__":
    main()
