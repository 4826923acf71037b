"""``typhoon selfplay``: play many games between two players and summarise them."""

from __future__ import annotations

import argparse
import sys

from typhoon.cli.common import add_game_arguments, game_of, options_from, two_players
from typhoon.errors import OptionError
from typhoon.selfplay import selfplay, summary_json


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("selfplay", help="play full games between two players (no human)")
    p.add_argument("--players", default="random,random", help="GERMAN,SOVIET player levels")
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--records", metavar="DIR", help="write every game's record to DIR")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    add_game_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise OptionError("--games must be at least 1")
    names = two_players(args.players)

    def progress(done: int) -> None:
        if not args.json and sys.stderr.isatty():
            print(f"\r{done}/{args.games} games", end="", file=sys.stderr, flush=True)

    summary = selfplay(
        names,
        args.games,
        args.seed,
        game=game_of(args),
        edition=args.edition,
        options=options_from(args),
        records=args.records,
        progress=progress,
    )
    if not args.json and sys.stderr.isatty():
        print(file=sys.stderr)
    print(summary_json(summary) if args.json else summary.text())
    return 0
