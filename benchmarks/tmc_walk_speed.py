"""The Moscow Campaign: CPU time of random full games, split into listing and applying.

    .venv/bin/python benchmarks/tmc_walk_speed.py [--scenario 1] [--games 2] [--seed 1000]

Plays fixed-seed uniform-random games (die rolls included) through ``legal_actions`` and
``apply_unchecked`` and prints games/s, µs per legal listing (every phase module's ``legal``
call, the forced-action checks inside ``apply`` included), µs per apply without those listings
(CPU time, so other processes on a shared machine disturb it less), and the median cold
listing at the start of a movement phase (phase caches cleared). For a before/after comparison run it twice in one shell
command, once with ``PYTHONPATH`` pointing at an extract of the old ``src``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from typhoon.games.tmc import combat_phase, engine, movement_phase, setup_phase

_listed = [0.0, 0]  # CPU seconds in the phase modules' legal(), calls


def _timed(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def wrapper(s: Any) -> Any:
        t0 = time.process_time()
        try:
            return fn(s)
        finally:
            _listed[0] += time.process_time() - t0
            _listed[1] += 1

    return wrapper


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--scenario", default="1")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1000)
    args = ap.parse_args()
    engine.new_game(args.scenario)  # load the rules and map outside the timing
    for mod in (setup_phase, movement_phase, combat_phase):
        mod.legal = _timed(mod.legal)  # type: ignore[method-assign]  # the driver looks it up per call
    clock = time.process_time
    t_apply = 0.0
    n_apply = 0
    cold: list[float] = []
    t_all = clock()
    for g in range(args.games):
        rng = random.Random(args.seed + g)
        s = engine.new_game(args.scenario)
        seen = None
        while not s.is_terminal:
            if s.is_chance:
                outs = engine.chance_outcomes(s)
                a = outs[rng.randrange(len(outs))][0]
            else:
                if s.phase_spec.kind == "movement" and s.step == 1 and seen != (s.turn, s.phase):
                    seen = (s.turn, s.phase)
                    t = s.copy()
                    t._cache = {}
                    t._legal = None
                    t0 = clock()
                    engine.legal_actions(t)
                    cold.append(clock() - t0)
                acts = engine.legal_actions(s)
                a = acts[rng.randrange(len(acts))]
            t0 = clock()
            s = engine.apply_unchecked(s, a)
            t_apply += clock() - t0
            n_apply += 1
    total = clock() - t_all - sum(cold)
    t_list, n_list = _listed[0] - sum(cold), _listed[1] - len(cold)
    t_apply -= t_list
    print(
        f"scenario {args.scenario}: {args.games / total:.3f} games/s ({n_apply / total:.0f} actions/s), "
        f"listing {t_list / n_list * 1e6:.0f} µs ({n_list} listings), apply {t_apply / n_apply * 1e6:.0f} µs "
        f"({n_apply} applies), cold movement listing median "
        f"{statistics.median(cold) * 1000:.2f} ms"
    )


if __name__ == "__main__":
    main()
