"""``typhoon match A B``: play many games between two players, alternating sides, and
print wins, draws and losses by side with 95% confidence intervals."""

from __future__ import annotations

import argparse
import json

from typhoon.cli.common import add_game_arguments, game_of, games_progress, options_from


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "match",
        help="play N games between two players, alternating sides",
        description="Play N games between players A and B (A is German in even games, Soviet in "
        "odd ones) and print the results by side with 95% Wilson confidence intervals. "
        "Game i uses seed SEED+i, so a match is reproducible whatever --jobs is.",
    )
    p.add_argument("a", metavar="PLAYER_A", help="player level, e.g. heuristic, search, search:fast")
    p.add_argument("b", metavar="PLAYER_B", help="player level, e.g. random")
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--records", metavar="DIR", help="write every game's record to DIR")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.add_argument(
        "--paired",
        action="store_true",
        help="play each seed twice, sides swapped (games 2k and 2k+1 use seed SEED+k), and also "
        "score each pair by who did better with the first side: the result, then the game's "
        "margin where its rules grade one (a VP ratio, a point score); 50%% between equal players "
        "even where one side always wins",
    )
    add_game_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from typhoon.ai.match import run_match

    with games_progress() as progress:
        result = run_match(
            args.a,
            args.b,
            args.games,
            args.seed,
            jobs=args.jobs,
            game=game_of(args),
            edition=args.edition,
            options=options_from(args),
            records=args.records,
            progress=progress,
            paired=args.paired,
        )
    if args.json:
        print(json.dumps(result.as_dict(), sort_keys=True))
    else:
        print(result.table())
    return 0
