"""Issue 17: Typhoon's speed figures beside a python-chess anchor measured in the same run.

    .venv/bin/python benchmarks/speed_anchor.py [--quick] [--only bfm,native,tmc,search,env]

The anchor is random full chess games per second with full legality (python-chess, the `dev`
extra), measured before and after the Typhoon figures and averaged, so that each figure is
also printed as a ratio that survives a busy machine: compare ratios, not raw figures, across
runs. Prints ``name: value`` lines.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from typhoon.games import game_module


def chess_games_per_s(games: int, seed: int = 0) -> float:
    import chess

    rng = random.Random(seed)
    t0 = time.perf_counter()
    for _ in range(games):
        board = chess.Board()
        while not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
    return games / (time.perf_counter() - t0)


def random_games(game: str, edition: str, games: int, seed: int = 1000) -> tuple[float, float]:
    """(games/s, actions/s) of uniform random play through the engine facade."""
    m = game_module(game)
    n = 0
    t0 = time.perf_counter()
    for i in range(games):
        rng = random.Random(seed + i)
        s = m.new_game(edition, {})
        while s.result is None:
            acts = m.legal_actions(s)
            s = m.apply_unchecked(s, acts[rng.randrange(len(acts))])
            n += 1
    dt = time.perf_counter() - t0
    return games / dt, n / dt


def native_random_games(edition: str, games: int, seed: int = 1000) -> tuple[float, float] | None:
    """Battle for Moscow's native core (typhoon.games.bfm.native), fully native loop: (games/s,
    actions/s) of uniform random play from the start of set-up; None when the core is not built."""
    from typhoon.games.bfm import native
    from typhoon.games.bfm.env import native as bfm_native
    from typhoon.games.bfm.rules import load_rules

    if not native.available():
        return None
    rules = load_rules(edition)
    bfm_native.random_games(rules, 2, seed)  # tables made, caches warm
    t0 = time.perf_counter()
    got = bfm_native.random_games(rules, games, seed)
    dt = time.perf_counter() - t0
    return games / dt, got.actions / dt


def native_stepped_games(edition: str, games: int, seed: int = 1000) -> tuple[float, float] | None:
    """The native core stepped from Python: each step Python reads the legal codes and applies
    one chosen at random (the shape of a Python roll-out or RL loop over the core)."""
    from typhoon.games.bfm import native
    from typhoon.games.bfm.env import native as bfm_native
    from typhoon.games.bfm.rules import load_rules

    if not native.available():
        return None
    rules = load_rules(edition)
    bfm_native.tables(rules)
    n = 0
    t0 = time.perf_counter()
    for i in range(games):
        rng = random.Random(seed + i)
        core = bfm_native.new_core(rules)
        while core.result < 0:
            codes = core.legal_codes()
            core.apply(codes[rng.randrange(len(codes))])
            n += 1
    dt = time.perf_counter() - t0
    return games / dt, n / dt


def cold_movement_listing(game: str, edition: str, games: int, seed: int = 7) -> float:
    """Median seconds of the first legal listing of each movement phase, the phase's caches
    (and any memo that outlives a phase) cleared."""
    m = game_module(game)
    memo: dict[Any, Any] = {}
    if game == "bfm":
        from typhoon.games.bfm import movement_phase

        memo = movement_phase._MEMO
    out: list[float] = []
    for i in range(games):
        rng = random.Random(seed + i)
        s = m.new_game(edition, {})
        seen: Any = None
        while s.result is None:
            spec = s.rules.phases[s.phase]
            if spec.kind == "movement" and (s.turn, s.phase) != seen:
                seen = (s.turn, s.phase)
                t = s.copy()
                t._cache = {}
                t._legal = None
                memo.clear()  # Battle for Moscow's surroundings memo outlives phases
                t0 = time.perf_counter()
                m.legal_actions(t)
                out.append(time.perf_counter() - t0)
            acts = m.legal_actions(s)
            s = m.apply_unchecked(s, acts[rng.randrange(len(acts))])
    return statistics.median(out)


def search_rollouts_per_s(decisions: int, seed: int = 3) -> float:
    """Battle for Moscow search (level ``search``) against the heuristic: roll-outs per second
    of planning over its first ``decisions`` decisions."""
    from typhoon.game import CHANCE, Game
    from typhoon.games.bfm.ai.search import SearchPlayer, make_search_player
    from typhoon.players import make_player

    me = make_search_player("search")(seed)  # the level's Battle for Moscow player itself
    assert isinstance(me, SearchPlayer)
    other = make_player("heuristic", seed + 1)
    g = Game("bfm", "gdw1986", {}, seed=seed)
    n = 0
    while not g.is_over and n < decisions:
        who = g.current_player()
        if who == CHANCE:
            g.roll()
            continue
        p = me if who == 0 else other
        g.play(p.choose(g.state, g.legal_actions()))
        n += who == 0
    return me.rollouts_done / me.search_seconds if me.search_seconds else 0.0


def env_steps_per_s(game: str, seconds: float) -> float:
    from typhoon.env import bench as env_bench

    # A long game (not the default) is timed mid-game, as typhoon bench does.
    steps, dt, _ = env_bench.pettingzoo_steps(seconds, game=game, mid_game=game != "bfm")
    return steps / dt


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", default="bfm,native,tmc,search,env")
    args = ap.parse_args()
    parts = set(args.only.split(","))
    q = args.quick
    chess_n = 10 if q else 30
    random_games("bfm", "gdw1986", 2)  # imports, memo warm-up
    a0 = chess_games_per_s(chess_n)
    figs: list[tuple[str, float]] = []
    if "bfm" in parts:
        gps, aps = random_games("bfm", "gdw1986", 20 if q else 60)
        figs += [("bfm_random_games_per_s", gps), ("bfm_random_actions_per_s", aps)]
        figs.append(("bfm_cold_movement_listing_ms", cold_movement_listing("bfm", "gdw1986", 5) * 1e3))
    if "native" in parts:
        for ed in ("gdw1986", "vpg2009"):
            full = native_random_games(ed, 200 if q else 1000)
            stepped = native_stepped_games(ed, 20 if q else 100)
            if full is None or stepped is None:
                print("native: skipped (typhoon.games.bfm._bfmcore is not built or TYPHOON_NO_NATIVE is set)")
                break
            tag = "" if ed == "gdw1986" else "_vpg"
            figs += [
                (f"bfm{tag}_native_random_games_per_s", full[0]),
                (f"bfm{tag}_native_random_actions_per_s", full[1]),
            ]
            figs += [
                (f"bfm{tag}_native_stepped_games_per_s", stepped[0]),
                (f"bfm{tag}_native_stepped_actions_per_s", stepped[1]),
            ]
    if "tmc" in parts:
        gps, aps = random_games("tmc", "1", 1 if q else 2)
        figs += [("tmc1_random_games_per_s", gps), ("tmc1_random_actions_per_s", aps)]
        figs.append(("tmc1_cold_movement_listing_ms", cold_movement_listing("tmc", "1", 1) * 1e3))
    if "search" in parts:
        figs.append(("bfm_search_rollouts_per_s", search_rollouts_per_s(8 if q else 30)))
    if "env" in parts:
        try:
            figs.append(("bfm_env_steps_per_s", env_steps_per_s("bfm", 3 if q else 8)))
            figs.append(("tmc_env_steps_per_s", env_steps_per_s("tmc", 3 if q else 8)))
        except ImportError as exc:  # the `rl` extra is not installed
            print(f"env: skipped ({exc})")
    a1 = chess_games_per_s(chess_n, seed=1)
    anchor = (a0 + a1) / 2
    print(f"anchor_chess_random_games_per_s: {anchor:.1f} (start {a0:.1f}, end {a1:.1f})")
    for name, v in figs:
        ratio = v / anchor
        if name.endswith("_ms"):
            # A time: its ratio is anchor game time over it (bigger is faster, like the rest).
            ratio = (1000.0 / anchor) / v
        print(f"{name}: {v:.4g}  (ratio to anchor: {ratio:.4g})")


if __name__ == "__main__":
    main()
