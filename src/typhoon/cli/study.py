"""``typhoon study A B --grid NAME=V1,V2 ...``: one pairing over a grid of editions, scenarios
and options, written up as a Markdown report with PNG plots (issue 16 point 4)."""

from __future__ import annotations

import argparse
import shlex
import sys

from typhoon.cli.common import add_game_arguments, game_of, options_from


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "study",
        help="a balance study: one pairing over a grid of editions/options, report with plots",
        description="Play GAMES games per cell of the grid (every combination of the --grid axes) "
        "between players A and B, alternating sides, and write a Markdown report with PNG plots "
        "(win rate per side with 95% Wilson intervals, game length, turn of the decisive capture, "
        "victory levels where the game has them). Game i of the run uses seed SEED+i on any backend.",
    )
    p.add_argument("a", metavar="PLAYER_A", nargs="?")
    p.add_argument("b", metavar="PLAYER_B", nargs="?")
    p.add_argument(
        "--grid",
        action="append",
        default=[],
        metavar="NAME=V1,V2",
        help="an axis of the grid: a rule option, or 'edition' (or 'scenario': the game's editions); repeatable",
    )
    p.add_argument("--games", type=int, default=20, help="games per cell (default 20)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument(
        "--ray", metavar="ADDRESS", help="run on Ray: 'local' starts a cluster here, else its address"
    )
    p.add_argument("--report", metavar="FILE.md", help="write the Markdown report (and FILE_*.png plots)")
    p.add_argument("--title", help="the report's title")
    p.add_argument("--json", metavar="FILE", help="write every game and the per-cell figures as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress display")
    p.add_argument(
        "--from-json",
        metavar="FILE",
        help="write the report of a study saved with --json, without playing it",
    )
    add_game_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from typhoon.errors import OptionError
    from typhoon.research.study import _Progress, load_json, parse_grid, run_study, save_json, write_report

    if args.from_json:
        result = load_json(args.from_json)
        if not args.report:
            raise OptionError("--from-json needs --report FILE.md")
        for path in write_report(result, args.report, title=args.title, command=_command()):
            print(f"wrote {path}")
        return 0
    if not args.a or not args.b:
        raise OptionError("give two players: typhoon study PLAYER_A PLAYER_B --grid NAME=V1,V2 ...")
    axes = parse_grid(args.grid)
    bar: _Progress | None = None

    def progress(done: int, total: int) -> None:
        nonlocal bar
        if bar is None:
            bar = _Progress(total, quiet=args.quiet)
        bar.update(done)

    try:
        result = run_study(
            args.a,
            args.b,
            args.games,
            args.seed,
            game=game_of(args),
            axes=axes,
            edition=args.edition,
            options=options_from(args),
            jobs=args.jobs,
            ray=args.ray,
            progress=progress,
        )
    finally:
        if bar is not None:
            bar.close()
    result.command = _command()
    for s in result.as_dict()["cells"]:
        print(
            f"{s['cell']}: {s['games']} games, German {s['german_rate']:.1%} "
            f"({s['german_ci95'][0]:.1%}-{s['german_ci95'][1]:.1%}), Soviet {s['soviet_rate']:.1%}, "
            f"draws {s['draw_rate']:.1%}, {s['actions_mean']} actions"
        )
    print(f"time: {result.seconds:.1f} s on {result.backend}")
    if args.json:
        save_json(result, args.json)
    if args.report:
        for path in write_report(result, args.report, title=args.title):
            print(f"wrote {path}")
    return 0


def _command() -> str:
    return "typhoon " + " ".join(shlex.quote(a) for a in sys.argv[1:]) if sys.argv[1:] else ""
