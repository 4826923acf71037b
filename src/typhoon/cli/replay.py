"""``typhoon replay FILE...``: re-run records and verify every step."""

from __future__ import annotations

import argparse
from pathlib import Path

from typhoon.errors import RecordError, TyphoonError
from typhoon.record import Record


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("replay", help="re-run game records and verify every step")
    p.add_argument("files", nargs="+", metavar="FILE", help="record files or folders of them")
    p.add_argument("--events", action="store_true", help="print what happened, step by step")
    p.add_argument("--quiet", "-q", action="store_true", help="only report failures")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    paths: list[Path] = []
    for f in args.files:
        p = Path(f)
        if p.is_dir():
            paths.extend(sorted(x for x in p.iterdir() if x.is_file()))
        else:
            paths.append(p)
    if not paths:
        raise TyphoonError("no record files given")
    bad = 0
    for p in paths:
        try:
            record = Record.load(p)
            game = record.replay()
        except RecordError as exc:
            bad += 1
            print(f"{p}: FAILED: {exc}")
            continue
        if args.events:
            for entry in game.history:
                print(f"{game.actor_letter(entry.actor)} {game.text(entry.action)}")
                for e in entry.events:
                    print(f"    {e.text}")
        if not args.quiet:
            result = game.result or "unfinished"
            print(f"{p}: ok ({len(game.history)} actions, result: {result})")
    if len(paths) > 1 and not args.quiet:
        print(f"{len(paths) - bad} of {len(paths)} records replayed")
    return 1 if bad else 0
