"""``typhoon bench``: speed figures, one ``name: value`` per line."""

from __future__ import annotations

import argparse

from typhoon.bench import all_figures, core_figures, parts
from typhoon.cli.common import add_edition_option, add_game_option
from typhoon.errors import OptionError
from typhoon.games import game_module


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("bench", help="print speed figures (name: value per line)")
    p.add_argument("--quick", action="store_true", help="fewer games (rough figures)")
    p.add_argument(
        "--only",
        choices=parts(),
        default=None,
        help="one part: core (the default game), a game's key, ai, env",
    )
    add_game_option(p)
    add_edition_option(p, extra="; with --game")
    p.add_argument("--games", type=int, default=None, help="with --game: random games to time")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.game is None:
        if args.edition is not None or args.games is not None:
            raise OptionError("--edition and --games go with --game")
        figures = all_figures(args.quick, args.only)
    else:
        # One game's core figures, measured through the game-module interface like every game's.
        if args.only is not None:
            raise OptionError("--only and --game are two ways to choose: give one")
        if args.games is not None and args.games < 1:
            raise OptionError("--games must be at least 1")
        m = game_module(args.game)
        edition = args.edition or m.default_edition
        if edition not in m.editions():
            raise OptionError(
                f"unknown {m.edition_word} {edition!r} of {m.title}; choose one of {list(m.editions())}"
            )
        n = args.games
        figures = core_figures(args.quick, edition=edition, game=m.key, games=n, timed_games=n)
    for name, value in figures:
        print(f"{name}: {value}", flush=True)
    return 0
