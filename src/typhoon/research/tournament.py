"""Round-robin tournaments (issue 16 point 3): every pair of players plays ``games`` games with
sides alternated, and the players get Bradley–Terry ratings on the Elo scale with 95%
intervals from a bootstrap with a fixed seed.

Pairing ``p`` (in the order of :func:`itertools.combinations`) plays the run's games
``p * games + i``, each with seed ``seed + p * games + i``; the first player of the pair is
German in even games ``i``. The games, so the table, are the same on any backend.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from typhoon.ai.match import SIDES, GameJob, GameResult, play_one
from typhoon.errors import OptionError
from typhoon.games import DEFAULT_GAME, game_module
from typhoon.players import make_player
from typhoon.protocol.messages import EngineError
from typhoon.research.parallel import run_jobs

BOOTSTRAP = 1000
PRIOR_DRAWS = 0.5  # virtual draws per pairing: keeps a player who never lost (or won) finite


@dataclass(frozen=True)
class TournamentJob:
    pair: int
    i: int
    j: int
    job: GameJob


@dataclass
class PairGame:
    pair: int
    i: int
    j: int
    result: GameResult
    forfeit: str = ""  # why an engine forfeited the game, if one did

    @property
    def score_i(self) -> float:
        """1, 0.5 or 0 for player ``i`` (the pair's first)."""
        w = self.result.winner
        return 0.5 if w == "draw" else (1.0 if w == "a" else 0.0)


def play_tournament_game(tj: TournamentJob) -> PairGame:
    """One game; an external engine that breaks the protocol forfeits it (docs/PROTOCOL.md)."""
    try:
        return PairGame(tj.pair, tj.i, tj.j, play_one(tj.job))
    except EngineError as exc:
        a_side = "german" if tj.job.index % 2 == 0 else "soviet"
        loser = exc.side if exc.side is not None else SIDES.index(a_side)
        result = GameResult(tj.job.index, tj.job.seed, a_side, SIDES[1 - loser], 0, 0, 0.0)
        return PairGame(tj.pair, tj.i, tj.j, result, forfeit=str(exc))


def bradley_terry(
    n_players: int, games: Sequence[tuple[int, int, float]], iterations: int = 2000
) -> list[float]:
    """Bradley–Terry ratings on the Elo scale (400 log10 of the strength), mean 0, from
    ``(i, j, score of i)`` games (a draw is half a win each way), by the MM algorithm of
    Hunter (2004) with PRIOR_DRAWS virtual draws in every pairing played."""
    wins = [0.0] * n_players
    played: dict[tuple[int, int], float] = {}
    for i, j, s in games:
        wins[i] += s
        wins[j] += 1 - s
        key = (min(i, j), max(i, j))
        played[key] = played.get(key, 0.0) + 1
    for i, j in played:
        wins[i] += PRIOR_DRAWS / 2
        wins[j] += PRIOR_DRAWS / 2
        played[(i, j)] += PRIOR_DRAWS
    p = [1.0] * n_players
    for _ in range(iterations):
        denom = [0.0] * n_players
        for (i, j), n in played.items():
            d = n / (p[i] + p[j])
            denom[i] += d
            denom[j] += d
        new = [wins[k] / denom[k] if denom[k] else p[k] for k in range(n_players)]
        g = math.exp(sum(math.log(x) for x in new) / n_players)
        new = [x / g for x in new]
        if max(abs(a - b) for a, b in zip(new, p)) < 1e-10:
            p = new
            break
        p = new
    return [400 * math.log10(x) for x in p]


@dataclass
class TournamentResult:
    players: list[str]
    games_per_pair: int
    seed: int
    game: str
    edition: str
    options: dict[str, str]
    games: list[PairGame]
    seconds: float
    backend: str

    def _triples(self, games: Sequence[PairGame]) -> list[tuple[int, int, float]]:
        return [(g.i, g.j, g.score_i) for g in games]

    def ratings(self, samples: int = BOOTSTRAP) -> list[tuple[float, float, float]]:
        """(rating, low, high) per player. The 95% interval is the 2.5th and 97.5th percentiles
        over ``samples`` parametric bootstrap tournaments: every game replayed as a win for the
        pair's first player with the probability the fitted ratings give (a resample of the
        games themselves would give a zero-width interval to a pairing that always ends the
        same way). Seeded by the tournament's seed, so the table is reproducible."""
        n = len(self.players)
        point = bradley_terry(n, self._triples(self.games))
        rng = random.Random(self.seed)
        boots: list[list[float]] = [[] for _ in range(n)]
        expected = [1 / (1 + 10 ** ((point[g.j] - point[g.i]) / 400)) for g in self.games]
        for _ in range(samples):
            sample = [(g.i, g.j, 1.0 if rng.random() < e else 0.0) for g, e in zip(self.games, expected)]
            for k, r in enumerate(bradley_terry(n, sample, iterations=500)):
                boots[k].append(r)
        out = []
        for k in range(n):
            b = sorted(boots[k])
            lo = b[int(0.025 * (len(b) - 1))] if b else point[k]
            hi = b[int(math.ceil(0.975 * (len(b) - 1)))] if b else point[k]
            out.append((point[k], lo, hi))
        return out

    def record(self, k: int) -> dict[str, float]:
        w = d = lo = 0
        for g in self.games:
            if k not in (g.i, g.j):
                continue
            s = g.score_i if k == g.i else 1 - g.score_i
            if s == 1:
                w += 1
            elif s == 0:
                lo += 1
            else:
                d += 1
        n = w + d + lo
        return {
            "games": n,
            "wins": w,
            "draws": d,
            "losses": lo,
            "score": round((w + d / 2) / n, 4) if n else 0.0,
        }

    def cross(self) -> list[list[float | None]]:
        """cross[a][b]: a's score against b (points out of the games they played)."""
        n = len(self.players)
        tab: list[list[float | None]] = [[None] * n for _ in range(n)]
        for g in self.games:
            for a, b, s in ((g.i, g.j, g.score_i), (g.j, g.i, 1 - g.score_i)):
                tab[a][b] = (tab[a][b] or 0.0) + s
        return tab

    def as_dict(self) -> dict[str, Any]:
        ratings = self.ratings()
        rows: list[dict[str, Any]] = []
        for k, name in enumerate(self.players):
            r, lo, hi = ratings[k]
            rows.append(
                {
                    "player": name,
                    "rating": round(r, 1),
                    "ci95": [round(lo, 1), round(hi, 1)],
                    **self.record(k),
                }
            )
        rows.sort(key=lambda row: -float(row["rating"]))
        return {
            "players": self.players,
            "games_per_pair": self.games_per_pair,
            "seed": self.seed,
            "game": self.game,
            "edition": self.edition,
            "options": self.options,
            "ratings": rows,
            "cross": {
                a: {b: s for b, s in zip(self.players, row) if s is not None}
                for a, row in zip(self.players, self.cross())
            },
            "pairings": [
                {
                    "first": self.players[i],
                    "second": self.players[j],
                    "games": [
                        {
                            "seed": g.result.seed,
                            "first_side": g.result.a_side,
                            "result": g.result.result,
                            **({"forfeit": g.forfeit} if g.forfeit else {}),
                        }
                        for g in self.games
                        if g.pair == p
                    ],
                }
                for p, (i, j) in enumerate(itertools.combinations(range(len(self.players)), 2))
            ],
            "rating_model": f"Bradley-Terry (Elo scale, mean 0), 95% parametric bootstrap interval over {BOOTSTRAP} resamples",
            "backend": self.backend,
            "seconds": round(self.seconds, 2),
        }

    def table(self) -> str:
        d = self.as_dict()
        width = max(8, *(len(p) for p in self.players)) + 2
        lines = [
            f"Round robin: {len(self.players)} players, {self.games_per_pair} games per pairing (sides alternated), "
            f"{self.game} {self.edition}, seed {self.seed}",
            "",
            f"{'player':<{width}}{'rating':>8}   {'95% interval':<16}{'games':>6}{'W':>5}{'D':>5}{'L':>5}{'score':>8}",
        ]
        for row in d["ratings"]:
            lo, hi = row["ci95"]
            lines.append(
                f"{row['player']:<{width}}{row['rating']:>8.0f}   {f'{lo:.0f} .. {hi:.0f}':<16}{row['games']:>6}"
                f"{row['wins']:>5}{row['draws']:>5}{row['losses']:>5}{row['score']:>8.1%}"
            )
        lines += [
            "",
            "score of row against column:",
            " " * width + "".join(f"{p[:10]:>12}" for p in self.players),
        ]
        for name, row in zip(self.players, self.cross()):
            cells = "".join(f"{'-' if s is None else f'{s:g}/{self.games_per_pair}':>12}" for s in row)
            lines.append(f"{name:<{width}}{cells}")
        lines += ["", f"ratings: {d['rating_model']}", f"time: {self.seconds:.1f} s on {self.backend}"]
        return "\n".join(lines)


def run_tournament(
    players: Sequence[str],
    games: int,
    seed: int,
    *,
    game: str = DEFAULT_GAME,
    edition: str | None = None,
    options: Mapping[str, str] | None = None,
    jobs: int = 1,
    ray: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> TournamentResult:
    if len(players) < 2:
        raise OptionError("a tournament needs at least two players")
    if len(set(players)) != len(players):
        raise OptionError("each player may enter a tournament once")
    if games < 1:
        raise OptionError("--games must be at least 1")
    module = game_module(game)
    for name in players:
        make_player(name, 0)
    opts = tuple(sorted((options or {}).items()))
    todo = []
    for p, (i, j) in enumerate(itertools.combinations(range(len(players)), 2)):
        for k in range(games):
            job = GameJob(k, seed + p * games + k, players[i], players[j], module.key, edition, opts, None)
            todo.append(TournamentJob(p, i, j, job))
    t0 = time.perf_counter()
    out: list[PairGame] = []
    for r in run_jobs(play_tournament_game, todo, workers=jobs, ray=ray):
        out.append(r)
        if progress is not None:
            progress(len(out), len(todo))
    out.sort(key=lambda g: (g.pair, g.result.index))
    return TournamentResult(
        players=list(players),
        games_per_pair=games,
        seed=seed,
        game=module.key,
        edition=out[0].result.edition if out else (edition or module.default_edition),
        options=dict(opts),
        games=out,
        seconds=time.perf_counter() - t0,
        backend=f"ray {ray}" if ray else f"{jobs} local process(es)",
    )


__all__ = [
    "PairGame",
    "TournamentJob",
    "TournamentResult",
    "bradley_terry",
    "play_tournament_game",
    "run_tournament",
]
