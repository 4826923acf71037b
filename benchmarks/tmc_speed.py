"""The Moscow Campaign engine speed: legal-action listing and random full games.

    .venv/bin/python benchmarks/tmc_speed.py [--scenario 1] [--games 3] [--seed 1]

Prints the time to list the legal actions at the start of each movement phase, cold (phase
caches cleared) and warm (cached, after one move), the time per ``apply``, and full random
games per second (uniform random choice among the legal actions, die rolls included).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from typhoon.games.tmc import engine


def _listing(s: engine.State) -> tuple[float, float, int]:
    t = s.copy()
    t._cache = {}
    t._legal = None
    t0 = time.perf_counter()
    acts = engine.legal_actions(t)
    cold = time.perf_counter() - t0
    moves = [a for a in acts if a.kind == "move"]
    if not moves:
        return cold, 0.0, len(acts)
    u, _ = engine.apply(t, moves[len(moves) // 2])
    u._legal = None
    t0 = time.perf_counter()
    engine.legal_actions(u)
    warm = time.perf_counter() - t0
    return cold, warm, len(acts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--scenario", default="1")
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    cold_t: list[float] = []
    warm_t: list[float] = []
    sizes: list[int] = []
    applies = 0
    apply_time = 0.0
    t_games = time.perf_counter()
    for g in range(args.games):
        t_start = time.perf_counter()
        s = engine.new_game(args.scenario)
        seen_phase = None
        steps = 0
        while not s.is_terminal:
            key = (s.turn, s.phase)
            if s.phase_spec.kind == "movement" and key != seen_phase and s.step == 1:
                seen_phase = key
                c, w, n = _listing(s)
                cold_t.append(c)
                warm_t.append(w)
                sizes.append(n)
            acts = engine.legal_actions(s)
            a = rng.choice(acts)
            t0 = time.perf_counter()
            s, _ = engine.apply(s, a)
            apply_time += time.perf_counter() - t0
            applies += 1
            steps += 1
        print(
            f"game {g + 1}: scenario {args.scenario}, {steps} actions, {time.perf_counter() - t_start:.1f} s, "
            f"result {s.result} ({s.level}), VP G {s.vp[0]} S {s.vp[1]}"
        )
    total = time.perf_counter() - t_games
    print(
        f"legal listing at movement-phase start: cold median {statistics.median(cold_t) * 1000:.1f} ms "
        f"(max {max(cold_t) * 1000:.1f}), warm median {statistics.median(warm_t) * 1000:.2f} ms, "
        f"median {int(statistics.median(sizes))} actions"
    )
    print(
        f"apply (with its next listing): {apply_time / applies * 1000:.2f} ms per action over {applies} actions"
    )
    print(f"random full games: {args.games / total:.3f} games/s ({total / args.games:.1f} s per game)")


if __name__ == "__main__":
    main()
