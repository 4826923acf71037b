"""The Moscow Campaign: AI-vs-AI games and the distribution of victory levels (§24).

    .venv/bin/python benchmarks/tmc_calibration.py [--scenarios 1,11,15,21] [--games 4]
        [--german heuristic] [--soviet heuristic] [--seed 1] [--jobs 1]

For each scenario it plays ``--games`` games (German and Soviet players by level name, any
level of ``typhoon.players``; dice from seed + game index), then prints per game the result,
the victory level and the final VP, and per scenario the count of each level, the mean VP
and each side's decision time (median and 95th percentile). The result of a game is
``state.result`` ("german"/"soviet"), its level ``state.level`` (victory.py, §24), the VP
``state.vp`` (German, Soviet) after the end-of-game awards.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import time
from collections import Counter
from dataclasses import dataclass

from typhoon.ai.match import TimedPlayer, p95
from typhoon.games.tmc.victory import LEVELS
from typhoon.players import make_player
from typhoon.selfplay import play_game


@dataclass
class Outcome:
    scenario: str
    seed: int
    result: str
    level: str
    vp: tuple[int, int]
    turns: int
    seconds: float
    times: tuple[list[float], list[float]]


def play(job: tuple[str, int, str, str]) -> Outcome:
    scenario, seed, german, soviet = job
    players = (TimedPlayer(make_player(german, 2 * seed + 1)), TimedPlayer(make_player(soviet, 2 * seed + 2)))
    t0 = time.perf_counter()
    g = play_game(list(players), game="tmc", edition=scenario, seed=seed)  # type: ignore[arg-type]
    s = g.state
    return Outcome(
        scenario,
        seed,
        str(s.result),
        str(s.level),
        (int(s.vp[0]), int(s.vp[1])),
        int(s.turn),
        time.perf_counter() - t0,
        (players[0].times, players[1].times),
    )


def _times(xs: list[float]) -> str:
    if not xs:
        return "no decisions"
    return f"median {statistics.median(xs) * 1000:.2f} ms, p95 {p95(xs) * 1000:.1f} ms, max {max(xs) * 1000:.0f} ms"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenarios", default="1,11,15,21")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--german", default="heuristic")
    ap.add_argument("--soviet", default="heuristic")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    scenarios = [x.strip() for x in args.scenarios.split(",") if x.strip()]
    jobs = [(sc, args.seed + i, args.german, args.soviet) for sc in scenarios for i in range(args.games)]
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            outcomes = pool.map(play, jobs)
    else:
        outcomes = [play(j) for j in jobs]
    print(
        f"German {args.german} vs Soviet {args.soviet}, {args.games} game(s) per scenario, seed {args.seed}"
    )
    for sc in scenarios:
        got = [o for o in outcomes if o.scenario == sc]
        print(f"\nscenario {sc}")
        for o in got:
            print(
                f"  seed {o.seed}: {o.result:7s} {o.level:19s} VP G {o.vp[0]:4d} S {o.vp[1]:4d}"
                f"  ({o.turns} turns, {o.seconds:.1f} s)"
            )
        levels = Counter(o.level for o in got)
        print("  levels: " + ", ".join(f"{lv} {levels.get(lv, 0)}" for lv in LEVELS))
        print(
            f"  mean VP: German {statistics.mean(o.vp[0] for o in got):.1f},"
            f" Soviet {statistics.mean(o.vp[1] for o in got):.1f}"
        )
        print(f"  German decisions: {_times([t for o in got for t in o.times[0]])}")
        print(f"  Soviet decisions: {_times([t for o in got for t in o.times[1]])}")


if __name__ == "__main__":
    main()
