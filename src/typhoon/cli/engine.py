"""``typhoon engine``: serve a built-in player over the engine protocol (docs/PROTOCOL.md)."""

from __future__ import annotations

import argparse

from typhoon.players import make_player
from typhoon.protocol import serve


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("engine", help="serve a built-in player over the engine protocol on stdin/stdout")
    p.add_argument("--player", default="random", help="level to serve (see `typhoon play --help`)")
    p.add_argument("--seed", type=int, default=None)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    return serve(make_player(args.player, args.seed))
