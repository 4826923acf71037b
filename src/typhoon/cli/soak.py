"""``typhoon soak``: many random games with every invariant checked after every step.

The checks are the game package's ``invariants`` module: ``problems(state)`` after every step,
and where the game has them ``vp_problems(before, after)`` (each step), ``legal_problems(state,
legal)`` (each decision) and ``phase_problems(state)`` (once per phase: slower checks, such as
a game's supply recomputed by a plain search)."""

from __future__ import annotations

import argparse
import importlib
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from typhoon.cli.common import add_edition_option, add_game_option, game_of
from typhoon.errors import OptionError, TyphoonError
from typhoon.game import Game
from typhoon.games import DEFAULT_GAME, game_module
from typhoon.record import Record

ALL = ("all", "both")  # every edition of the game in turn


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("soak", help="long random-play run checking every invariant")
    p.add_argument("--games", type=int, default=500)
    p.add_argument("--seed", type=int, default=1000)
    add_game_option(p)
    add_edition_option(p, default="all", extra="; all (or both): every edition in turn (the default)")
    p.set_defaults(func=run)


def _invariants(game: str) -> Any:
    return importlib.import_module(f"{game_module(game).package}.invariants")


def soak_game(seed: int, edition: str, game: str = DEFAULT_GAME) -> tuple[str, int]:
    """One random game with checks; returns (result, actions). Raises AssertionError."""
    inv = _invariants(game)
    problems: Callable[[Any], list[str]] = inv.problems
    step_problems: Callable[[Any, Any], list[str]] | None = getattr(inv, "vp_problems", None)
    legal_problems: Callable[[Any, Any], list[str]] | None = getattr(inv, "legal_problems", None)
    phase_problems: Callable[[Any], list[str]] | None = getattr(inv, "phase_problems", None)
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
            if legal_problems is not None and (bad := legal_problems(g.state, acts)):
                raise AssertionError("; ".join(bad) + f" at {g.position()}")
            g.play(acts[rng.randrange(len(acts))])
        bad = problems(g.state)
        if step_problems is not None:
            bad += step_problems(before, g.state)
        if phase_problems is not None and (g.state.turn, g.state.phase) != phase:
            phase = (g.state.turn, g.state.phase)
            bad += phase_problems(g.state)
        if bad:
            raise AssertionError("; ".join(bad) + f" at {g.position()}")
    replayed = Record.from_text(Record.from_game(g).to_text()).replay()
    if replayed.position() != g.position():
        raise AssertionError("record replays to a different final position")
    assert g.module.legal_actions(g.state) == []
    return str(g.result), len(g.history)


def run(args: argparse.Namespace) -> int:
    key = game_of(args)
    editions = list(game_module(key).editions()) if args.edition in ALL else [args.edition]
    if args.games < 1:
        raise OptionError("--games must be at least 1")
    results: dict[str, int] = {}
    t0 = time.perf_counter()
    actions = 0
    for i in range(args.games):
        seed = args.seed + i
        ed = editions[i % len(editions)]
        try:
            result, n = soak_game(seed, ed, key)
        except AssertionError as exc:
            raise TyphoonError(f"invariant broken in game {key} seed={seed} edition={ed}: {exc}") from None
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
