"""``typhoon replay FILE|DIR...``: re-run records and verify every step, the dice included.

Every record given is checked (a folder's every file, in name order), whatever happens to the
others (issue 10 point 2): each gets one line, ``ok``, ``dice not verifiable`` (no seed, so the
dice could not be checked) or ``FAILED: reason``, and a summary follows. Any failure, even an
unexpected one, is reported for its file without a traceback; the exit status is 1 if any
record failed.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from typhoon.cli.common import add_edition_option, add_game_option
from typhoon.errors import TyphoonError
from typhoon.game import Game
from typhoon.games import game_module
from typhoon.record import Record


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("replay", help="re-run game records and verify every step")
    p.add_argument("files", nargs="+", metavar="FILE", help="record files or folders of them")
    p.add_argument("--events", action="store_true", help="print what happened, step by step")
    p.add_argument("--quiet", "-q", action="store_true", help="only report failures")
    add_game_option(p)  # a record of another game (or edition) fails
    add_edition_option(p)
    p.set_defaults(func=run)


def _paths(args: list[str]) -> list[Path]:
    paths: list[Path] = []
    for f in args:
        p = Path(f)
        try:
            if p.is_dir():
                paths.extend(sorted(x for x in p.iterdir() if x.is_file()))
                continue
        except OSError:
            pass  # an unreadable folder: reported as a failure of that path below
        paths.append(p)
    return paths


def _check(p: Path, game_key: str | None = None, edition: str | None = None) -> tuple[Game | None, str]:
    """(the game, its one-line verdict) for one record; never raises. With ``game_key`` (or
    ``edition``) a record of another game (edition) fails."""
    try:
        record = Record.load(p)
        if game_key is not None and record.game != game_key:
            return None, f"FAILED: a record of {record.game!r}, not of {game_key!r}"
        if edition is not None and record.edition != edition:
            return None, f"FAILED: a record of {record.edition!r}, not of {edition!r}"
        game = record.replay()
    except TyphoonError as exc:
        return None, f"FAILED: {exc}"
    except Exception as exc:  # a fault of ours: still one line for this record, and on to the next
        return None, f"FAILED: unexpected error ({type(exc).__name__}: {exc})"
    facts = f"{len(game.history)} actions, result: {game.result or 'unfinished'}"
    if not game.dice_verified:
        why = "no [Seed]" if record.seed is None else "no die after [DiceFrom]"
        return game, f"dice not verifiable ({why}; {facts})"
    if game.dice_from:
        facts += f"; dice checked from roll {game.dice_from + 1}"
    return game, f"ok ({facts})"


def run(args: argparse.Namespace) -> int:
    paths = _paths(args.files)
    if not paths:
        raise TyphoonError("no record files given")
    if args.game is not None:
        game_module(args.game)  # an unknown game: OptionError with the list
    ok = unverifiable = bad = 0
    for p in paths:
        game, verdict = _check(p, args.game, args.edition)
        if game is None:
            bad += 1
        elif verdict.startswith("ok"):
            ok += 1
        else:
            unverifiable += 1
        if game is not None and args.events:
            for entry in game.history:
                print(f"{game.actor_letter(entry.actor)} {game.text(entry.action)}")
                for e in entry.events:
                    print(f"    {e.text}")
        if game is None or not args.quiet:
            print(f"{p}: {verdict}", flush=True)
    if len(paths) > 1 or bad:
        print(
            f"{len(paths)} records checked: {ok} ok, {unverifiable} dice not verifiable, {bad} failed "
            f"({len(paths) - bad} of {len(paths)} records replayed)"
        )
    return 1 if bad else 0
