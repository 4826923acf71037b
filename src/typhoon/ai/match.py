"""Matches between two players: N games alternating sides, results by side with 95%
confidence intervals (Wilson), every record saved, reproducible for a seed.

Game ``i`` uses seed ``seed + i`` for the dice and derives both players' seeds from it;
player A is German in even games and Soviet in odd ones. A game depends on nothing else,
so a match gives the same games whatever the number of worker processes.

Paired games (``paired=True``, "duplicate" scoring as in bridge): games ``2k`` and ``2k + 1``
both use seed ``seed + k``, A German in the first and Soviet in the second, and each pair is
scored by which player did better with the German side: the result first, then the game's
margin (``GameModule.result_margin``, e.g. a VP ratio). Where a scenario favours one side so
much that it wins whoever plays (a short opening scenario, say), the win rate is 50% for
any two players; the paired score still measures which one plays better, and is 50% in
expectation between equals.
"""

from __future__ import annotations

import math
import multiprocessing
import statistics
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from typhoon.errors import OptionError
from typhoon.games import DEFAULT_GAME, game_module
from typhoon.players import Player, make_player
from typhoon.record import Record
from typhoon.selfplay import play_game

SIDES = ("german", "soviet")


def wilson(k: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """95% Wilson score interval of a proportion ``k`` of ``n`` (0..1 each end); a tie counted
    as half a success makes ``k`` a half-integer."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if k == 0 else max(0.0, centre - half)
    hi = 1.0 if k == n else min(1.0, centre + half)
    return (lo, hi)


class TimedPlayer:
    """Wraps a player to record how long each decision takes (wall clock)."""

    def __init__(self, inner: Player):
        self.inner = inner
        self.name = inner.name
        self.times: list[float] = []

    def choose(self, state: Any, actions: Any) -> Any:
        t = time.perf_counter()
        a = self.inner.choose(state, actions)
        self.times.append(time.perf_counter() - t)
        return a

    def explain(self) -> str:
        fn = getattr(self.inner, "explain", None)
        return fn() if callable(fn) else ""


@dataclass(frozen=True)
class GameJob:
    index: int
    seed: int
    a: str
    b: str
    game: str
    edition: str | None
    options: tuple[tuple[str, str], ...]
    records: str | None


@dataclass
class GameResult:
    index: int
    seed: int
    a_side: str  # "german" or "soviet"
    result: str  # "german", "soviet" or "draw"
    turns: int
    actions: int
    seconds: float
    a_times: list[float] = field(default_factory=list)
    b_times: list[float] = field(default_factory=list)
    edition: str = ""
    margin: float | None = None  # GameModule.result_margin of the final state, if the game has one

    @property
    def winner(self) -> str:
        """'a', 'b' or 'draw'."""
        if self.result == "draw":
            return "draw"
        return "a" if self.result == self.a_side else "b"


def player_seed(game_seed: int, which: int) -> int:
    return game_seed * 2 + 1 + which


def play_one(job: GameJob) -> GameResult:
    a_german = job.index % 2 == 0
    pa = TimedPlayer(make_player(job.a, player_seed(job.seed, 0)))
    pb = TimedPlayer(make_player(job.b, player_seed(job.seed, 1)))
    players = [pa, pb] if a_german else [pb, pa]
    t0 = time.perf_counter()
    g = play_game(players, game=job.game, edition=job.edition, options=dict(job.options), seed=job.seed)  # type: ignore[arg-type]
    dt = time.perf_counter() - t0
    margin_of = game_module(job.game).result_margin
    if job.records is not None:
        Record.from_game(g).save(Path(job.records) / f"game-{job.index:04d}-seed-{job.seed}.txt")
    return GameResult(
        index=job.index,
        seed=job.seed,
        a_side="german" if a_german else "soviet",
        result=str(g.result),
        turns=int(g.state.turn),
        actions=len(g.history),
        seconds=dt,
        a_times=pa.times,
        b_times=pb.times,
        edition=g.edition,
        margin=None if margin_of is None else float(margin_of(g.state)),
    )


def german_key(g: GameResult) -> tuple[int, float]:
    """How well the German side did in ``g``, for comparing the two games of a pair: the result
    (German win > draw > Soviet win), then the margin (0 where the game has none)."""
    rank = {"german": 2, "draw": 1}.get(g.result, 0)
    return (rank, g.margin if g.margin is not None else 0.0)


@dataclass
class MatchResult:
    a: str
    b: str
    seed: int
    edition: str
    options: dict[str, str]
    games: list[GameResult]
    seconds: float
    jobs: int
    records: str | None
    paired: bool = False

    def pairs(self) -> dict[str, Any]:
        """The paired score (module docstring): over the complete pairs, how often A did better
        with the German side than B did with it in the game of the same seed."""
        by_seed: dict[int, dict[str, GameResult]] = {}
        for g in self.games:
            by_seed.setdefault(g.seed, {})[g.a_side] = g
        better = equal = worse = 0
        for both in by_seed.values():
            if len(both) < 2:
                continue
            ka, kb = german_key(both["german"]), german_key(both["soviet"])
            if ka > kb:
                better += 1
            elif ka == kb:
                equal += 1
            else:
                worse += 1
        n = better + equal + worse
        score = better + 0.5 * equal
        lo, hi = wilson(score, n)
        return {
            "pairs": n,
            "a_better": better,
            "equal": equal,
            "b_better": worse,
            "a_score": round(score / n, 4) if n else None,
            "a_score_ci95": [round(lo, 4), round(hi, 4)],
        }

    def count(self, side: str | None = None) -> dict[str, int]:
        gs = [g for g in self.games if side is None or g.a_side == side]
        out = {"games": len(gs), "a_wins": 0, "b_wins": 0, "draws": 0}
        for g in gs:
            w = g.winner
            out["draws" if w == "draw" else f"{w}_wins"] += 1
        return out

    def as_dict(self) -> dict[str, Any]:
        total = self.count()
        n = total["games"]
        by_side = {}
        for side in SIDES:
            c = self.count(side)
            lo, hi = wilson(c["a_wins"], c["games"])
            c_out: dict[str, Any] = dict(c)
            c_out["a_win_rate"] = round(c["a_wins"] / c["games"], 4) if c["games"] else None
            c_out["a_win_ci95"] = [round(lo, 4), round(hi, 4)]
            by_side[f"a_{side}"] = c_out
        lo, hi = wilson(total["a_wins"], n)
        extra: dict[str, Any] = {"paired": self.pairs()} if self.paired else {}
        margins = {
            f"a_{side}": [g.margin for g in self.games if g.a_side == side and g.margin is not None]
            for side in SIDES
        }
        return extra | {
            "a": self.a,
            "b": self.b,
            "games": n,
            "a_wins": total["a_wins"],
            "b_wins": total["b_wins"],
            "draws": total["draws"],
            "a_win_rate": round(total["a_wins"] / n, 4) if n else None,
            "a_win_ci95": [round(lo, 4), round(hi, 4)],
            "a_score": round((total["a_wins"] + 0.5 * total["draws"]) / n, 4) if n else None,
            "by_side": by_side,
            "mean_margin": {k: round(statistics.mean(v), 4) if v else None for k, v in margins.items()},
            "edition": self.edition,
            "options": self.options,
            "seed": self.seed,
            "jobs": self.jobs,
            "seconds": round(self.seconds, 2),
            "decision_seconds": {
                "a": _time_stats([t for g in self.games for t in g.a_times]),
                "b": _time_stats([t for g in self.games for t in g.b_times]),
            },
            "records": self.records,
        }

    def table(self) -> str:
        rows = [
            f"{self.a} (A) vs {self.b} (B): {len(self.games)} games, {self.edition}, seed {self.seed}",
            "",
            f"{'A plays':<10}{'games':>6}{'A wins':>8}{'draws':>7}{'B wins':>8}   A win rate (95% CI)",
        ]
        for label, side in (("German", "german"), ("Soviet", "soviet"), ("both", None)):
            c = self.count(side)
            n = c["games"]
            if not n:
                continue
            lo, hi = wilson(c["a_wins"], n)
            rows.append(
                f"{label:<10}{n:>6}{c['a_wins']:>8}{c['draws']:>7}{c['b_wins']:>8}"
                f"   {c['a_wins'] / n:6.1%} ({lo:.1%} - {hi:.1%})"
            )
        if self.paired:
            p = self.pairs()
            if p["pairs"]:
                lo, hi = p["a_score_ci95"]
                rows.append("")
                rows.append(
                    f"paired games (same seed, sides swapped): {p['pairs']} pair{'s' * (p['pairs'] != 1)}; A did better with "
                    f"the German side in {p['a_better']}, as well in {p['equal']}, worse in {p['b_better']}"
                )
                rows.append(f"A paired score {p['a_score']:.1%} ({lo:.1%} - {hi:.1%})")
        for label, side in (("German", "german"), ("Soviet", "soviet")):
            ms = [g.margin for g in self.games if g.a_side == side and g.margin is not None]
            if ms:
                rows.append(
                    f"mean margin (German side's, e.g. VP ratio) when A plays {label}: {statistics.mean(ms):.3f}"
                )
        ta = _time_stats([t for g in self.games for t in g.a_times])
        tb = _time_stats([t for g in self.games for t in g.b_times])
        rows.append("")
        rows.append(
            f"decision time (s): A median {ta['median']:.4f} p95 {ta['p95']:.4f} max {ta['max']:.3f};"
            f" B median {tb['median']:.4f} p95 {tb['p95']:.4f} max {tb['max']:.3f}"
        )
        rows.append(f"time: {self.seconds:.1f} s with {self.jobs} job(s)")
        if self.records:
            rows.append(f"records written to {self.records}")
        return "\n".join(rows)


def p95(xs: list[float]) -> float:
    """The 95th percentile (nearest rank below) of ``xs``; 0 for none."""
    ys = sorted(xs)
    return ys[min(len(ys) - 1, int(0.95 * len(ys)))] if ys else 0.0


def _time_stats(xs: list[float]) -> dict[str, float]:
    if not xs:
        return {"decisions": 0, "median": 0.0, "p95": 0.0, "max": 0.0}
    return {
        "decisions": len(xs),
        "median": round(statistics.median(xs), 5),
        "p95": round(p95(xs), 5),
        "max": round(max(xs), 4),
    }


def run_match(
    a: str,
    b: str,
    games: int,
    seed: int,
    *,
    jobs: int = 1,
    game: str = DEFAULT_GAME,
    edition: str | None = None,
    options: Mapping[str, str] | None = None,
    records: str | Path | None = None,
    progress: Callable[[int, int], None] | None = None,
    paired: bool = False,
) -> MatchResult:
    if games < 1:
        raise OptionError("--games must be at least 1")
    if paired and games % 2:
        raise OptionError("--paired plays each seed twice: --games must be even")
    if jobs < 1:
        raise OptionError("--jobs must be at least 1")
    game_module(game)  # unknown names fail here, before any worker starts
    make_player(a, 0)
    make_player(b, 0)
    out_dir = None
    if records is not None:
        Path(records).mkdir(parents=True, exist_ok=True)
        out_dir = str(records)
    opts = tuple(sorted((options or {}).items()))
    todo = [
        GameJob(i, seed + (i // 2 if paired else i), a, b, game, edition, opts, out_dir) for i in range(games)
    ]
    t0 = time.perf_counter()
    results: list[GameResult] = []
    for r in _run(todo, jobs):
        results.append(r)
        if progress is not None:
            progress(len(results), games)
    results.sort(key=lambda r: r.index)
    ed = results[0].edition if results else (edition or "")
    return MatchResult(
        a=a,
        b=b,
        seed=seed,
        edition=ed,
        options=dict(opts),
        games=results,
        seconds=time.perf_counter() - t0,
        jobs=jobs,
        records=out_dir,
        paired=paired,
    )


def _run(todo: list[GameJob], jobs: int) -> Iterator[GameResult]:
    if jobs == 1 or len(todo) == 1:
        for job in todo:
            yield play_one(job)
        return
    with multiprocessing.get_context().Pool(min(jobs, len(todo))) as pool:
        yield from pool.imap_unordered(play_one, todo)


__all__ = ["GameResult", "MatchResult", "TimedPlayer", "german_key", "p95", "play_one", "run_match", "wilson"]
