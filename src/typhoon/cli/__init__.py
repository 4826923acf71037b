"""The ``typhoon`` command. Each subcommand lives in its own module of this package and
exposes ``register(subparsers)``; modules that are absent (an optional part not installed)
are skipped. Errors a user can cause are printed as one line, never as a traceback."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from typhoon import __version__
from typhoon.errors import TyphoonError

COMMANDS = (
    "play",
    "serve",
    "selfplay",
    "match",
    "replay",
    "bench",
    "soak",
    "rules",
    "engine",
    "tournament",
    "study",
    "mcp",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="typhoon",
        description="Typhoon: the Battle of Moscow, 1941 board wargames with every rule enforced.",
    )
    parser.add_argument("--version", action="version", version=f"typhoon {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"typhoon.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name and exc.name.startswith("typhoon.cli."):
                continue
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return int(args.func(args) or 0)
    except TyphoonError as exc:
        print(f"typhoon {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
