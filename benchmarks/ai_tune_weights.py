"""Tune the heuristic's movement weights for one side by the cross-entropy method.

    .venv/bin/python benchmarks/ai_tune_weights.py --side german --iters 6 --games 48

Each candidate (log-scale multipliers of the side's :class:`typhoon.games.bfm.ai.scoring.Weights`)
plays the same ``--games`` games (same seeds, both editions) against the default heuristic;
the best third moves the sampling distribution. Prints the best weights found. Tuning one
side against a fixed opponent can over-fit it; alternate sides and check with matches.
"""

from __future__ import annotations

import argparse
import math
import random
from dataclasses import asdict, replace

from typhoon.games.bfm.ai.heuristic import HeuristicPlayer
from typhoon.games.bfm.ai.scoring import Weights
from typhoon.selfplay import play_game

FIELDS = {
    "german": ("progress", "contact", "cohesion", "exposure", "support", "city"),
    "soviet": ("cohesion", "exposure", "cover", "terrain", "river", "moscow"),
}


def score(side: int, w: Weights, base: tuple[Weights, Weights], games: int, seed: int) -> float:
    mine = (w, base[1]) if side == 0 else (base[0], w)
    total = 0.0
    for i in range(games):
        edition = "gdw1986" if i % 2 == 0 else "vpg2009"
        players = [
            HeuristicPlayer(seed + i, weights=mine if side == 0 else base, explain=False),
            HeuristicPlayer(seed + i + 7, weights=mine if side == 1 else base, explain=False),
        ]
        g = play_game(players, edition=edition, seed=seed + i)  # type: ignore[arg-type]
        r = g.result
        if r == "draw":
            total += 0.5
        elif (r == "german") == (side == 0):
            total += 1.0
    return total / games


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--side", choices=["german", "soviet"], required=True)
    ap.add_argument("--iters", type=int, default=6)
    ap.add_argument("--pop", type=int, default=8)
    ap.add_argument("--games", type=int, default=48)
    ap.add_argument("--seed", type=int, default=7000)
    args = ap.parse_args()
    side = 0 if args.side == "german" else 1
    names = FIELDS[args.side]
    base = (Weights(), Weights())
    rng = random.Random(args.seed)
    mu = dict.fromkeys(names, 0.0)
    sigma = dict.fromkeys(names, 0.5)
    ref = score(side, base[side], base, args.games, args.seed)
    print(f"default weights: score {ref:.3f}", flush=True)
    best = (ref, base[side])
    for it in range(args.iters):
        pop = []
        for k in range(args.pop):
            z = {n: (mu[n] + sigma[n] * rng.gauss(0, 1)) if k else mu[n] for n in names}
            w = replace(base[side], **{n: getattr(base[side], n) * math.exp(z[n]) for n in names})
            sc = score(side, w, base, args.games, args.seed + 1000 * (it + 1))
            pop.append((sc, z, w))
        pop.sort(key=lambda x: -x[0])
        elite = pop[: max(2, args.pop // 3)]
        for n in names:
            vals = [e[1][n] for e in elite]
            mu[n] = sum(vals) / len(vals)
            sigma[n] = max(0.1, (sum((v - mu[n]) ** 2 for v in vals) / len(vals)) ** 0.5)
        if pop[0][0] > best[0]:
            best = (pop[0][0], pop[0][2])
        print(
            f"iter {it}: best {pop[0][0]:.3f} mean {sum(p[0] for p in pop) / len(pop):.3f} mu {mu}",
            flush=True,
        )
    final = replace(base[side], **{n: getattr(base[side], n) * math.exp(mu[n]) for n in names})
    check = score(side, final, base, 2 * args.games, args.seed + 99999)
    ref2 = score(side, base[side], base, 2 * args.games, args.seed + 99999)
    print(f"mean weights {asdict(final)}: score {check:.3f} (default {ref2:.3f})")


if __name__ == "__main__":
    main()
