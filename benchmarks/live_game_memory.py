"""Memory of a live whole-campaign Moscow Campaign game (issue 10 point 5; target <= 50 MB).

    .venv/bin/python benchmarks/live_game_memory.py [--scenario 11] [--seed 1]
        [--players heuristic,heuristic] [--record FILE] [--every 200] [--compare]

Plays one game of ``--scenario`` (11: the whole campaign, GT 1-31) between ``--players``
(fixed seeds), or takes ``--record FILE``; then, as an upload does, replays its record into a
live Game with tracemalloc on and prints the Python memory the live Game holds (current, after
a garbage collection) and the peak while replaying, for the history's snapshot interval
``--every`` (game.SNAPSHOT_EVERY). ``--compare`` also measures interval 1 (a bare state kept
for every action) and the history as it was before snapshots (every state kept, caches and all).
"""

from __future__ import annotations

import argparse
import gc
import time
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import typhoon.game as game_mod
from typhoon.players import make_player
from typhoon.record import Record
from typhoon.selfplay import play_game


@contextmanager
def _history(mode: str, every: int) -> Iterator[None]:
    """``mode`` "snapshots" (the history as it is) or "every-state" (as before: no entry ever
    lets go of its state)."""
    old_every, old_settle = game_mod.SNAPSHOT_EVERY, game_mod.Entry._settle
    game_mod.SNAPSHOT_EVERY = every
    if mode == "every-state":
        game_mod.Entry._settle = lambda self: None  # type: ignore[method-assign]
    try:
        yield
    finally:
        game_mod.SNAPSHOT_EVERY = old_every
        game_mod.Entry._settle = old_settle  # type: ignore[method-assign]


def measure(record: Record, mode: str, every: int) -> tuple[float, float, float, Any]:
    """(current MB held by the live game, peak MB while replaying, seconds, the game)."""
    gc.collect()
    with _history(mode, every):
        tracemalloc.start()
        t = time.perf_counter()
        g = record.replay()
        seconds = time.perf_counter() - t
        gc.collect()
        current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return current / 1e6, peak / 1e6, seconds, g


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenario", default="11")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", default="heuristic,heuristic")
    ap.add_argument("--record", help="measure this record instead of playing a game")
    ap.add_argument("--every", type=int, default=game_mod.SNAPSHOT_EVERY)
    ap.add_argument("--compare", action="store_true", help="also interval 1 and every state kept")
    args = ap.parse_args()
    if args.record:
        record = Record.load(args.record)
        print(f"record {args.record}: {len(record.actions)} actions", flush=True)
    else:
        german, soviet = args.players.split(",")
        t = time.perf_counter()
        g = play_game(
            [make_player(german, 2 * args.seed + 1), make_player(soviet, 2 * args.seed + 2)],
            game="tmc",
            edition=args.scenario,
            seed=args.seed,
        )
        print(
            f"tmc scenario {args.scenario} seed {args.seed}, {german} vs {soviet}: {len(g.history)} actions, "
            f"GT {g.state.turn}, result {g.result} ({time.perf_counter() - t:.0f} s to play)",
            flush=True,
        )
        record = Record.from_game(g)
        del g
    runs = [("snapshots", args.every)]
    if args.compare:
        runs += [("snapshots", 1), ("every-state", 1)]
    for mode, every in runs:
        current, peak, seconds, g = measure(record, mode, every)
        label = f"snapshot every {every}" if mode == "snapshots" else "every state kept (before)"
        print(
            f"{label:>27}: live game {current:8.1f} MB current, {peak:8.1f} MB peak "
            f"(replay {seconds:.0f} s under tracemalloc)",
            flush=True,
        )
        if mode == "snapshots" and every == args.every:
            t = time.perf_counter()
            n = len(g.history)
            for step in (n // 3, n // 2, n - 1):
                g.state_at(step)
            print(
                f"{'state_at, 3 far steps':>27}: {(time.perf_counter() - t) * 1000 / 3:.0f} ms each",
                flush=True,
            )
        del g


if __name__ == "__main__":
    main()
