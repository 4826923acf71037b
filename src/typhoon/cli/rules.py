"""``typhoon rules``: the editions, their options and where each rule comes from."""

from __future__ import annotations

import argparse

from typhoon.games import game_module


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("rules", help="list editions and rule options")
    p.add_argument("--game", default="bfm")
    p.add_argument("--edition", default=None)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    gm = game_module(args.game)
    eds = gm.editions()
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
