"""``typhoon tournament A B C ... --games N``: a round robin with sides alternated, a table of
results and Bradley–Terry ratings with 95% intervals, also as JSON (issue 16 point 3)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from typhoon.cli.common import add_game_arguments, game_of, games_progress, options_from


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "tournament",
        help="a round robin between players, with ratings and 95%% intervals",
        description="Every pair of players plays --games games, sides alternated; prints the "
        "results and Bradley-Terry ratings (Elo scale) with 95% bootstrap intervals. Game i of "
        "the run uses seed SEED+i, so a tournament is the same with any --jobs or --ray.",
    )
    p.add_argument("players", nargs="+", metavar="PLAYER", help="player levels or cmd:<command line>")
    p.add_argument("--games", type=int, default=10, help="games per pairing (default 10)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument(
        "--ray", metavar="ADDRESS", help="run on Ray: 'local' starts a cluster here, else its address"
    )
    p.add_argument(
        "--json", metavar="FILE", help="also write the result as JSON to FILE ('-': print it instead)"
    )
    add_game_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from typhoon.research.tournament import run_tournament

    with games_progress() as progress:
        result = run_tournament(
            args.players,
            args.games,
            args.seed,
            game=game_of(args),
            edition=args.edition,
            options=options_from(args),
            jobs=args.jobs,
            ray=args.ray,
            progress=progress,
        )
    if args.json == "-":
        print(json.dumps(result.as_dict(), sort_keys=True))
        return 0
    print(result.table())
    if args.json:
        Path(args.json).write_text(json.dumps(result.as_dict(), sort_keys=True, indent=1) + "\n")
    return 0
