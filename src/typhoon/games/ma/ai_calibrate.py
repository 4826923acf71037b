"""Calibration of Moscow Attacked!'s reconstruction against the 1941 course (issue 12 point 5):
games of the game's heuristic player against itself, and where the German front stands at the
end of each game-turn, set against the history the reference pack's gaps.md gives as targets.

    python -m typhoon.games.ma.ai_calibrate --games 20 --seed 1 [--edition campaign] [--option stacking=2]

Named ``ai_*`` because it drives the AI players (an adapter of the AI layer, KIT2.md).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .ai import MaHeuristicPlayer, moscow_distance
from .engine import MOSCOW, apply, legal_actions, new_game
from .rules import GERMAN, SOVIET, hex_index
from .state import ELIM, State

# The markers (gaps.md "Calibration targets"): (label, history, end of turn, test of the state).
Check = Callable[[State], bool]


def _german(*hexes: str) -> Check:
    hs = [hex_index(h) for h in hexes]
    return lambda s: all(s.controller(h) == GERMAN for h in hs)


def _soviet(*hexes: str) -> Check:
    hs = [hex_index(h) for h in hexes]
    return lambda s: all(s.controller(h) == SOVIET for h in hs)


def _armies_lost(n: int) -> Check:
    def check(s: State) -> bool:
        r = s.rules
        lost = sum(
            1
            for u, h in enumerate(s.loc)
            if h == ELIM and r.units[u].side == SOVIET and r.units[u].echelon == "army"
        )
        return lost >= n

    return check


MARKERS: tuple[tuple[str, str, int, Check], ...] = (
    ("Vyazma and Bryansk pockets: 5+ Soviet armies lost", "yes (turn 1)", 1, _armies_lost(5)),
    ("Vyazma (H3) and Bryansk (D3) German", "yes (turn 1)", 1, _german("H3", "D3")),
    (
        "Kalinin, Kaluga, Orel, Mozhaisk, Kursk German",
        "yes (turn 3)",
        3,
        _german("K5", "F5", "D5", "I5", "A5"),
    ),
    ("  Kalinin (K5) German", "yes (turn 3)", 3, _german("K5")),
    ("  Kaluga (F5) German", "yes (turn 3)", 3, _german("F5")),
    ("  Orel (D5) German", "yes (turn 3)", 3, _german("D5")),
    ("  Mozhaisk (I5) German", "yes (turn 3)", 3, _german("I5")),
    ("  Kursk (A5) German", "yes (turn 3)", 3, _german("A5")),
    ("German units next to Moscow (Klin-Istra line)", "yes (turn 4)", 4, lambda s: moscow_distance(s) <= 1),
    ("Moscow Soviet", "yes (turn 4)", 4, _soviet("I7")),
    ("Tula (F6) Soviet", "yes (turn 4)", 4, _soviet("F6")),
    ("Kalinin and Kaluga retaken by the Soviet", "yes (turn 6)", 6, _soviet("K5", "F5")),
    ("Moscow Soviet", "yes (turn 6)", 6, _soviet("I7")),
    ("Rzhev (J3) and Vyazma (H3) German", "yes (turn 10)", 10, _german("J3", "H3")),
)


@dataclass
class GameLog:
    result: str | None = None
    turns: int = 0
    at_end_of: dict[int, State] = field(default_factory=dict)  # the state at the end of each game-turn
    moscow_fell: int | None = None
    actions: int = 0


def play_one(seed: int, edition: str, options: dict[str, str] | None = None) -> GameLog:
    rng = random.Random(seed)
    players = (MaHeuristicPlayer(seed), MaHeuristicPlayer(seed + 1))
    s = new_game(edition, options)
    log = GameLog()
    while not s.is_terminal:
        acts = legal_actions(s)
        p = s.current_player()
        a = acts[rng.randrange(len(acts))] if p < 0 else players[p].choose(s, acts)
        before = s
        s, _ = apply(s, a)
        log.actions += 1
        if s.turn != before.turn:
            log.at_end_of[before.turn] = before
        if log.moscow_fell is None and s.controller(MOSCOW) == GERMAN:
            log.moscow_fell = s.turn
    log.at_end_of[s.turn] = s  # the last turn (or the turn the game was won)
    log.result, log.turns = s.result, s.turn
    return log


def _share(logs: list[GameLog], turn: int, check: Check) -> tuple[int, int]:
    """(games meeting the marker at the end of ``turn``, games that reached it)."""
    got = [log.at_end_of[turn] for log in logs if turn in log.at_end_of]
    return sum(1 for s in got if check(s)), len(got)


def report(logs: list[GameLog]) -> list[str]:
    lines = ["| Marker (end of turn) | History | Games meeting it |", "|---|---|---|"]
    for label, hist, turn, check in MARKERS:
        k, n = _share(logs, turn, check)
        lines.append(f"| {label} (T{turn}) | {hist} | {k}/{n} |")
    lines.append("")
    lines.append("| Turn | Mean German distance to Moscow (hexes) | Games reaching the turn |")
    lines.append("|---|---|---|")
    for t in range(1, max(log.turns for log in logs) + 1):
        ds = [moscow_distance(log.at_end_of[t]) for log in logs if t in log.at_end_of]
        if ds:
            lines.append(f"| {t} | {sum(ds) / len(ds):.2f} | {len(ds)} |")
    results: dict[str, int] = {}
    for log in logs:
        results[str(log.result)] = results.get(str(log.result), 0) + 1
    fell = [log.moscow_fell for log in logs if log.moscow_fell is not None]
    lines.append("")
    lines.append(
        "Results: "
        + ", ".join(f"{k} {v}" for k, v in sorted(results.items()))
        + " (history: draw under MA-V1)"
    )
    lines.append(
        f"Moscow taken by the German in {len(fell)}/{len(logs)} games"
        + (f" (turns {', '.join(map(str, sorted(fell)))})" if fell else "")
        + " (history: never)"
    )
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--edition", default="campaign", choices=["basic", "campaign"])
    ap.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="a rules option (repeat)"
    )
    args = ap.parse_args(argv)
    options = dict(o.split("=", 1) for o in args.option)
    t0 = time.perf_counter()
    logs = [play_one(args.seed + i, args.edition, options) for i in range(args.games)]
    dt = time.perf_counter() - t0
    last = args.seed + args.games - 1
    opts = f", options {options}" if options else ""
    print(f"{args.games} {args.edition} games, heuristic v heuristic, seeds {args.seed}..{last}{opts}")
    print("\n".join(report(logs)))
    print(f"({dt:.1f} s, {sum(log.actions for log in logs) / len(logs):.0f} actions a game)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
