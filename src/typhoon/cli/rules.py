"""``typhoon rules``: the editions, their options and where each rule comes from."""

from __future__ import annotations

import argparse
from typing import Any

from typhoon.cli.common import add_edition_option, add_game_option, game_of
from typhoon.errors import OptionError
from typhoon.games import game_module


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "rules",
        help="list editions and rule options",
        description="List a game's editions (or scenarios) and the rule options of each "
        "(`-o NAME=VALUE` on play, serve, selfplay, match).",
    )
    add_game_option(p)
    add_edition_option(p)
    p.add_argument(
        "--options", action="store_true", help="list the rule options (the default; kept for old scripts)"
    )
    p.set_defaults(func=run)


def _signature(specs: Any) -> tuple[tuple[str, tuple[str, ...], str, str], ...]:
    return tuple(
        (name, tuple(spec.choices), str(spec.default), str(spec.note)) for name, spec in sorted(specs.items())
    )


def run(args: argparse.Namespace) -> int:
    gm = game_module(game_of(args))
    eds = gm.editions()
    if args.edition and args.edition not in eds:
        raise OptionError(
            f"unknown {gm.edition_word} {args.edition!r} of {gm.title}; choose one of {list(eds)}"
        )
    chosen = [args.edition] if args.edition else list(eds)
    # Editions with the very same options (a game's many scenarios) are listed together and their
    # options printed once, not once per edition.
    groups: dict[tuple[tuple[str, tuple[str, ...], str, str], ...], list[str]] = {}
    for ed in chosen:
        groups.setdefault(_signature(gm.option_specs(ed)), []).append(ed)
    for sig, members in groups.items():
        for ed in members:
            default = " (default)" if ed == gm.default_edition else ""
            print(f"{ed}{default}: {eds.get(ed, '?')}")
        if len(members) > 1:
            print(f"  options of these {len(members)} {gm.edition_word}s:")
        for name, choices, dflt, note in sig:
            print(f"  -o {name}=VALUE   one of {', '.join(choices)}; default {dflt}")
            print(f"      {note}")
        print()
    return 0
