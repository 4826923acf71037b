"""``typhoon rules``: the editions, their options and where each rule comes from."""

from __future__ import annotations

import argparse

from typhoon.cli.common import add_edition_option, add_game_option, game_of
from typhoon.errors import OptionError
from typhoon.games import game_module


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("rules", help="list editions and rule options")
    add_game_option(p)
    add_edition_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    gm = game_module(game_of(args))
    eds = gm.editions()
    if args.edition and args.edition not in eds:
        raise OptionError(
            f"unknown {gm.edition_word} {args.edition!r} of {gm.title}; choose one of {list(eds)}"
        )
    chosen = [args.edition] if args.edition else list(eds)
    for ed in chosen:
        specs = gm.option_specs(ed)
        default = " (default)" if ed == gm.default_edition else ""
        print(f"{ed}{default}: {eds.get(ed, '?')}")
        for name, spec in sorted(specs.items()):
            print(f"  -o {name}=VALUE   one of {', '.join(spec.choices)}; default {spec.default}")
            print(f"      {spec.note}")
        print()
    return 0
