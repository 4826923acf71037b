"""Arguments shared by several subcommands."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from typhoon.errors import OptionError
from typhoon.game import parse_options
from typhoon.games import DEFAULT_GAME, edition_words, game_keys


def add_game_option(p: argparse.ArgumentParser) -> None:
    """``--game KEY``: any registered game (the registry is read, no game is loaded)."""
    p.add_argument(
        "--game",
        default=None,
        metavar="KEY",
        help=f"game: {', '.join(game_keys())} (default {DEFAULT_GAME}; `typhoon rules --game KEY` lists its editions)",
    )


def add_edition_option(p: argparse.ArgumentParser, default: str | None = None, extra: str = "") -> None:
    """``--edition NAME``, also spelt with each game's own word for it (``--scenario``)."""
    aliases = [f"--{w}" for w in edition_words()]
    p.add_argument(
        "--edition",
        *aliases,
        dest="edition",
        default=default,
        metavar="NAME",
        help=f"the game's edition ({', '.join(['--edition', *aliases])} are the same option; "
        f"`typhoon rules --game KEY` lists them; default: the game's own){extra}",
    )


def game_of(args: argparse.Namespace) -> str:
    """The game a command runs: ``--game``, else the default game."""
    return str(getattr(args, "game", None) or DEFAULT_GAME)


def add_game_arguments(p: argparse.ArgumentParser) -> None:
    add_game_option(p)
    add_edition_option(p)
    p.add_argument(
        "--option",
        "-o",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="rule option, repeatable (`typhoon rules --game KEY` lists them)",
    )


def options_from(args: argparse.Namespace) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in args.option:
        out.update(parse_options(item))
    return out


def two_players(text: str) -> list[str]:
    names = [p.strip() for p in text.split(",")]
    if len(names) != 2 or not all(names):
        raise OptionError(f"--players takes GERMAN,SOVIET (e.g. random,random), not {text!r}")
    return names


@contextmanager
def games_progress() -> Iterator[Callable[[int, int], None]]:
    """A ``progress(done, total)`` callback drawing a bar of games on stderr when it is a
    terminal (and nothing otherwise); the line is ended when the run is over."""
    show = sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if show:
            width = 30
            filled = width * done // max(total, 1)
            bar = "#" * filled + "-" * (width - filled)
            print(f"\r[{bar}] {done}/{total} games", end="", file=sys.stderr, flush=True)

    try:
        yield progress
    finally:
        if show:
            print(file=sys.stderr)
