"""``typhoon play``: play in the terminal, hot seat or against a computer player."""

from __future__ import annotations

import argparse
import contextlib
import shutil
import sys

from typhoon.cli.common import add_game_arguments, game_of, options_from
from typhoon.errors import OptionError
from typhoon.game import Game
from typhoon.players import Player, make_player, player_names
from typhoon.record import Record
from typhoon.textstyle import want_color
from typhoon.tui.session import make_session

HUMAN = "human"


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "play",
        help="play in the terminal (hot seat, or against a computer player)",
        # Levels are listed when a name is wrong, not here: building the parser must not
        # import the AI modules (every typhoon command builds it).
        description="Play any registered game in the terminal (--game KEY; `typhoon rules --game KEY` lists "
        "its editions, or scenarios). Each side is 'human' or a computer "
        "player level ('random', or any AI level installed; a wrong name lists them). Default: you "
        "play the German side against the computer (the heuristic level, as in the browser; random for "
        "a game without an AI). Type `help` in the game for the commands.",
    )
    p.add_argument("--german", metavar="WHO", help="human or a player level (default: human)")
    p.add_argument("--soviet", metavar="WHO", help="human or a player level (default: heuristic)")
    p.add_argument("--hotseat", action="store_true", help="two humans at one terminal")
    p.add_argument("--seed", type=int, help="seed of the dice and the computer players (default: random)")
    p.add_argument("--load", metavar="FILE", help="continue a saved game record")
    p.add_argument("--no-color", action="store_true", help="plain text, no ANSI colours (also: NO_COLOR=1)")
    p.add_argument(
        "--automap",
        choices=("on", "phase", "off"),
        default="phase",
        help="redraw the map after every change, at new phases and after the other side (default), or never",
    )
    add_game_arguments(p)
    p.set_defaults(func=run)


def make_controller(who: str, seed: int | None) -> Player | None:
    """None for a human, else the computer player of that level."""
    if who == HUMAN:
        return None
    if who not in player_names() and not who.startswith("cmd:"):
        raise OptionError(
            f"unknown player {who!r}; choose human, cmd:<engine command> or one of: {', '.join(player_names())}"
        )
    return make_player(who, seed)


def default_opponent(game: Game) -> str:
    """The computer's level when none is named: the browser's default (heuristic) where the game
    has an AI and the AI levels are installed, else random."""
    if "heuristic" in player_names() and game.module.front_ends.ai is not None:
        return "heuristic"
    return "random"


def run(args: argparse.Namespace) -> int:
    if args.load:
        if args.edition or args.option or args.game is not None:
            raise OptionError("--load takes the game, edition and options from the record")
        if args.seed is not None:
            raise OptionError("--load continues the record's own dice; leave out --seed")
        game = Record.load(args.load).replay()
    else:
        game = Game(game_of(args), args.edition, options_from(args), seed=args.seed)
    german = args.german or HUMAN
    soviet = args.soviet or (HUMAN if args.hotseat else default_opponent(game))
    if args.hotseat and (args.german not in (None, HUMAN) or args.soviet not in (None, HUMAN)):
        raise OptionError("--hotseat means two humans; leave out --german/--soviet levels")
    # Computer players get their own seeds derived from the game's, so a seed replays a session.
    controllers = {
        0: make_controller(german, game.seed * 2 + 1),
        1: make_controller(soviet, game.seed * 2 + 2),
    }
    session = make_session(
        game,
        controllers,
        out=sys.stdout,
        color=want_color(sys.stdout, args.no_color),
        width=shutil.get_terminal_size((100, 24)).columns,
        automap=args.automap,
    )
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    if interactive:
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401  (line editing and history for input())
    return session.run(sys.stdin, interactive=interactive)
