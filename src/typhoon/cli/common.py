"""Arguments shared by several subcommands."""

from __future__ import annotations

import argparse

from typhoon.errors import OptionError
from typhoon.game import parse_options


def add_game_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--game", default="bfm", help="game: bfm (default, Battle for Moscow) or tmc (The Moscow Campaign)"
    )
    p.add_argument(
        "--edition",
        default=None,
        help="bfm: rules edition gdw1986 (default, the rules of seed 002) or vpg2009; "
        "tmc: the scenario number 1-24",
    )
    p.add_argument(
        "--option",
        "-o",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="rule option, repeatable (see `typhoon rules --options`)",
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
