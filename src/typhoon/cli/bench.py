"""``typhoon bench``: speed figures, one ``name: value`` per line."""

from __future__ import annotations

import argparse

from typhoon.bench import all_figures


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("bench", help="print speed figures (name: value per line)")
    p.add_argument("--quick", action="store_true", help="fewer games (rough figures)")
    p.add_argument("--only", choices=["core", "tmc", "ai", "env"], default=None)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    for name, value in all_figures(args.quick, args.only):
        print(f"{name}: {value}", flush=True)
    return 0
