"""Calibration of MOCKBA's reconstruction against the 1941 course (issue 13 point 4): games of the
game's heuristic player against itself, and where the German front stands at the end of each
game-turn, set against the history the reference pack gives (gaps.md MO-V1's capture weeks, the
Vyazma and Bryansk pockets, Moscow, Tula and Serpukhov held, the December counter-offensive).

    python -m typhoon.games.mockba.ai_calibrate --games 10 --seed 1 [--option victory_cities=pack18]

Named ``ai_*`` because it drives the AI players (an adapter of the AI layer, KIT2.md).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources

from .ai import MockbaHeuristicPlayer
from .engine import apply, distance, legal_actions, new_game, result_of, victory_points
from .rules import GERMAN, SOVIET
from .state import ELIM, State

Check = Callable[[State], bool]


def historical_captures() -> dict[str, int | None]:
    """gaps.md MO-V1: the game-turn each city fell in 1941 (None: held to 10 December)."""
    text = resources.files("typhoon.games.mockba").joinpath("data", "calendar.json").read_text("utf-8")
    turns: dict[str, int | None] = json.loads(text)["historical_captures"]["turns"]
    return turns


def historical_score(s: State) -> int:
    """The score of the 1941 course under the victory cities in force (rules_en.md 11, MO-V1): a
    city counts if it fell by its deadline; none was retaken before 10 December."""
    hist = historical_captures()
    r = s.rules
    taken = control = 0
    for name, h in r.cities.items():
        t = hist.get(name)
        if t is None:
            continue
        control |= 1 << h
        if any(vh == h and t <= deadline for vh, deadline, _ in r.victory):
            taken |= 1 << h
    return victory_points(s.replace(taken=taken, control=control))


def _german(*names: str) -> Check:
    return lambda s: all(s.control >> s.rules.cities[n] & 1 for n in names)


def _soviet(*names: str) -> Check:
    return lambda s: not any(s.control >> s.rules.cities[n] & 1 for n in names)


def _soviet_lost(share: float) -> Check:
    """The pockets: that share of the Soviet set-up force eliminated."""

    def check(s: State) -> bool:
        units = s.rules.units
        start = [u for u, sp in enumerate(units) if sp.side == SOVIET and sp.turn == 0]
        return sum(1 for u in start if s.loc[u] == ELIM) >= share * len(start)

    return check


def moscow_distance(s: State) -> int:
    """Hexes from Moscow to the nearest German unit on the map."""
    r = s.rules
    m = r.cities["Moscow"]
    ds = [distance(r, h, m) for u, h in enumerate(s.loc) if h >= 0 and r.units[u].side == GERMAN]
    return min(ds) if ds else 99


# (label, history, end of turn, test of the state). History: gaps.md MO-V1 (capture dates), the pack's
# calendar (turn 1 = 2-8 Oct ... turn 10 = 4-10 Dec) and the 1941 course it summarises.
MARKERS: tuple[tuple[str, str, int, Check], ...] = (
    ("Orel, Bryansk German", "yes (3, 6 Oct)", 1, _german("Orel", "Bryansk")),
    ("Vyazma German", "yes (7 Oct)", 1, _german("Vyazma")),
    (
        "Vyazma and Bryansk pockets: half the Soviet set-up force gone",
        "yes (by 13-20 Oct)",
        2,
        _soviet_lost(0.5),
    ),
    ("Kaluga German", "yes (13 Oct)", 2, _german("Kaluga")),
    ("Kalinin, Rzhev German", "yes (14 Oct)", 2, _german("Kalinin", "Rzhev")),
    ("Mozhaisk German", "yes (18 Oct)", 3, _german("Mozhaisk")),
    ("Kursk German", "yes (2 Nov)", 5, _german("Kursk")),
    ("Tula Soviet", "yes (never taken)", 10, _soviet("Tula")),
    ("Serpukhov Soviet", "yes (never taken)", 10, _soviet("Serpukhov")),
    ("Germans within 2 hexes (32 km) of Moscow", "yes (27 km, 2 Dec)", 9, lambda s: moscow_distance(s) <= 2),
    ("Moscow Soviet", "yes (held)", 10, _soviet("Moscow")),
    ("Kalinin German at the end (retaken 16 Dec)", "yes", 10, _german("Kalinin")),
)


@dataclass
class GameLog:
    result: str | None = None
    score: int | None = None
    turns: int = 0
    at_end_of: dict[int, State] = field(default_factory=dict)  # the state at the end of each game-turn
    soviet_attacks: dict[int, int] = field(default_factory=dict)  # attacks the Soviet declared, by turn
    actions: int = 0


def play_one(seed: int, options: dict[str, str] | None = None) -> GameLog:
    rng = random.Random(seed)
    players = (MockbaHeuristicPlayer(seed), MockbaHeuristicPlayer(seed + 1))
    s = new_game(None, options)
    log = GameLog()
    while not s.is_terminal:
        acts = legal_actions(s)
        p = s.current_player()
        a = acts[rng.randrange(len(acts))] if p < 0 else players[p].choose(s, acts)
        if p == SOVIET and a.kind == "attack" and s.battle is None:
            log.soviet_attacks[s.turn] = log.soviet_attacks.get(s.turn, 0) + 1
        before = s
        s, _ = apply(s, a)
        log.actions += 1
        if s.turn != before.turn:
            log.at_end_of[before.turn] = before
    log.at_end_of[s.turn] = s
    log.result, log.score, log.turns = s.result, s.score, s.turn
    return log


def _share(logs: list[GameLog], turn: int, check: Check) -> tuple[int, int]:
    got = [log.at_end_of[turn] for log in logs if turn in log.at_end_of]
    return sum(1 for s in got if check(s)), len(got)


def report(logs: list[GameLog], options: dict[str, str] | None = None) -> list[str]:
    lines = ["| Marker (end of turn) | History | Games meeting it |", "|---|---|---|"]
    for label, hist, turn, check in MARKERS:
        k, n = _share(logs, turn, check)
        lines.append(f"| {label} (T{turn}) | {hist} | {k}/{n} |")
    att = [log.soviet_attacks.get(10, 0) for log in logs]
    lines.append(
        f"| December counter-offensive: Soviet attacks on turn 10 (T10) | yes (from 5-6 Dec) | "
        f"{sum(1 for a in att if a)}/{len(logs)} (mean {sum(att) / len(att):.1f} attacks) |"
    )
    lines += ["", "| Turn | Mean German distance to Moscow (hexes) | Mean Soviet attacks |", "|---|---|---|"]
    for t in range(1, max(log.turns for log in logs) + 1):
        ds = [moscow_distance(log.at_end_of[t]) for log in logs if t in log.at_end_of]
        sa = [log.soviet_attacks.get(t, 0) for log in logs]
        if ds:
            lines.append(f"| {t} | {sum(ds) / len(ds):.2f} | {sum(sa) / len(sa):.1f} |")
    results: dict[str, int] = {}
    for log in logs:
        results[str(log.result)] = results.get(str(log.result), 0) + 1
    s0 = new_game(None, options)
    course = historical_score(s0)
    scores = sorted(log.score for log in logs if log.score is not None)
    lines += [
        "",
        "Results: " + ", ".join(f"{k} {v}" for k, v in sorted(results.items())),
        f"Scores: {', '.join(map(str, scores))}; the 1941 course scores {course} ({result_of(s0, course)}) "
        "under these victory cities",
    ]
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="a rules option (repeat)"
    )
    args = ap.parse_args(argv)
    options = dict(o.split("=", 1) for o in args.option)
    t0 = time.perf_counter()
    logs = [play_one(args.seed + i, options) for i in range(args.games)]
    dt = time.perf_counter() - t0
    last = args.seed + args.games - 1
    opts = f", options {options}" if options else ""
    print(f"{args.games} MOCKBA games, heuristic v heuristic, seeds {args.seed}..{last}{opts}")
    print("\n".join(report(logs, options)))
    print(f"({dt:.1f} s, {sum(log.actions for log in logs) / len(logs):.0f} actions a game)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
