"""``typhoon soak``: many random games with every invariant checked after every step (and, for
The Moscow Campaign, supply cross-checked by a plain search at every phase)."""

from __future__ import annotations

import argparse
import importlib
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from typhoon.errors import OptionError, TyphoonError
from typhoon.game import Game
from typhoon.games import game_keys, game_module
from typhoon.record import Record

# What "--edition all" means per game: BfM alternates its two editions, The Moscow Campaign
# cycles through its 24 scenarios.
_ALL = {"bfm": ["gdw1986", "vpg2009"], "tmc": [str(n) for n in range(1, 25)]}


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("soak", help="long random-play run checking every invariant")
    p.add_argument("--games", type=int, default=500)
    p.add_argument("--seed", type=int, default=1000)
    p.add_argument("--game", default="bfm", help=f"game: {', '.join(game_keys())} (default: bfm)")
    p.add_argument(
        "--edition",
        default="both",
        help="bfm: gdw1986, vpg2009 or both (alternating); tmc: a scenario 1-24 or all (cycling)",
    )
    p.set_defaults(func=run)


# Slower checks run once per phase rather than after every action: The Moscow Campaign's supply
# (§11) recomputed unit by unit by a plain search and compared with the engine's.
_PHASE_CHECKS = {"tmc": ("typhoon.games.tmc.supply_check", "supply_problems")}


def _problems(game: str) -> Callable[[Any], list[str]]:
    mod = importlib.import_module(f"typhoon.games.{game}.invariants")
    fn: Callable[[Any], list[str]] = mod.problems
    return fn


def _phase_problems(game: str) -> Callable[[Any], list[str]] | None:
    if game not in _PHASE_CHECKS:
        return None
    mod_name, name = _PHASE_CHECKS[game]
    fn: Callable[[Any], list[str]] = getattr(importlib.import_module(mod_name), name)
    return fn


def soak_game(seed: int, edition: str, game: str = "bfm") -> tuple[str, int]:
    """One random game with checks; returns (result, actions). Raises AssertionError."""
    problems = _problems(game)
    step_problems: Callable[[Any, Any], list[str]] | None = getattr(
        importlib.import_module(f"typhoon.games.{game}.invariants"), "vp_problems", None
    )
    phase_problems = _phase_problems(game)
    rng = random.Random(seed)
    g = Game(game, edition=edition, seed=seed)
    phase: tuple[int, int] | None = None
    while not g.is_over:
        before = g.state
        if g.current_player() == -1:
            g.roll()
        else:
            acts = g.legal_actions()
            if not acts:
                raise AssertionError(f"no legal action in a live position: {g.position()}")
            if game == "bfm" and g.state.stack >= 0 and any(type(a).__name__ == "End" for a in acts):
                raise AssertionError(f"a phase could end with two units in one hex: {g.position()}")
            g.play(acts[rng.randrange(len(acts))])
        bad = problems(g.state)
        if step_problems is not None:
            bad += step_problems(before, g.state)
        if phase_problems is not None and (g.state.turn, g.state.phase) != phase:
            phase = (g.state.turn, g.state.phase)
            bad += phase_problems(g.state)
        if bad:
            raise AssertionError("; ".join(bad) + f" at {g.position()}")
    replayed = Record.from_text(g.to_record().to_text()).replay()
    if replayed.position() != g.position():
        raise AssertionError("record replays to a different final position")
    assert g.module.legal_actions(g.state) == []
    return str(g.result), len(g.history)


def run(args: argparse.Namespace) -> int:
    game_module(args.game)  # unknown game -> OptionError with the list
    if args.edition in ("both", "all"):
        editions = _ALL[args.game]
    else:
        editions = [args.edition]
    if args.games < 1:
        raise OptionError("--games must be at least 1")
    results: dict[str, int] = {}
    t0 = time.perf_counter()
    actions = 0
    for i in range(args.games):
        seed = args.seed + i
        ed = editions[i % len(editions)]
        try:
            result, n = soak_game(seed, ed, args.game)
        except AssertionError as exc:
            raise TyphoonError(
                f"invariant broken in game {args.game} seed={seed} edition={ed}: {exc}"
            ) from None
        results[f"{ed}:{result}"] = results.get(f"{ed}:{result}", 0) + 1
        actions += n
        if sys.stderr.isatty():
            print(f"\r{i + 1}/{args.games}", end="", file=sys.stderr, flush=True)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    dt = time.perf_counter() - t0
    print(f"{args.games} games, {actions} actions, every invariant held ({dt:.1f} s)")
    for k, v in sorted(results.items()):
        print(f"  {k}: {v}")
    return 0
