"""``typhoon soak``: many random games with every invariant checked after every step."""

from __future__ import annotations

import argparse
import random
import sys
import time

from typhoon.errors import TyphoonError
from typhoon.game import Game
from typhoon.games.bfm import engine
from typhoon.games.bfm.invariants import problems
from typhoon.record import Record


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("soak", help="long random-play run checking every invariant")
    p.add_argument("--games", type=int, default=500)
    p.add_argument("--seed", type=int, default=1000)
    p.add_argument("--edition", default="both", help="gdw1986, vpg2009 or both (alternating)")
    p.set_defaults(func=run)


def soak_game(seed: int, edition: str) -> tuple[str, int]:
    """One random game with checks; returns (result, actions). Raises AssertionError."""
    rng = random.Random(seed)
    game = Game(edition=edition, seed=seed)
    while not game.is_over:
        if game.current_player() == -1:
            game.roll()
        else:
            acts = game.legal_actions()
            if not acts:
                raise AssertionError(f"no legal action in a live position: {game.position()}")
            if game.state.stack >= 0 and any(type(a).__name__ == "End" for a in acts):
                raise AssertionError(f"a phase could end with two units in one hex: {game.position()}")
            game.play(acts[rng.randrange(len(acts))])
        bad = problems(game.state)
        if bad:
            raise AssertionError("; ".join(bad) + f" at {game.position()}")
    replayed = Record.from_text(game.to_record().to_text()).replay()
    if replayed.position() != game.position():
        raise AssertionError("record replays to a different final position")
    assert engine.legal_actions(game.state) == []
    return str(game.result), len(game.history)


def run(args: argparse.Namespace) -> int:
    editions = ["gdw1986", "vpg2009"] if args.edition == "both" else [args.edition]
    results: dict[str, int] = {}
    t0 = time.perf_counter()
    actions = 0
    for i in range(args.games):
        seed = args.seed + i
        ed = editions[i % len(editions)]
        try:
            result, n = soak_game(seed, ed)
        except AssertionError as exc:
            raise TyphoonError(f"invariant broken in game seed={seed} edition={ed}: {exc}") from None
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
