"""Playing whole games between players, and summaries of many games."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from typhoon.errors import TyphoonError
from typhoon.game import CHANCE, Game
from typhoon.games import DEFAULT_GAME
from typhoon.players import Player, make_player
from typhoon.record import Record


def play_game(
    players: Sequence[Player],
    *,
    game: str = DEFAULT_GAME,
    edition: str | None = None,
    options: Mapping[str, str] | None = None,
    seed: int | None = None,
    on_step: Callable[[Game, Any], None] | None = None,
) -> Game:
    """Play one game to the end; ``players[side]`` decides for each side (0 German, 1 Soviet)."""
    g = Game(
        game,
        edition,
        options,
        seed=seed,
        players={g_side: p.name for g_side, p in zip(("german", "soviet"), players)},
    )
    # Players with an observe(game) method (external engines, docs/PROTOCOL.md) hear of every action.
    observers = list({id(p): p for p in players if callable(getattr(p, "observe", None))}.values())
    while not g.is_over:
        who = g.current_player()
        if who == CHANCE:
            g.roll()
        else:
            actions = g.legal_actions()
            action = players[who].choose(g.state, actions)
            if on_step is not None:
                on_step(g, action)
            g.play(action)
        for p in observers:
            p.observe(g)  # type: ignore[attr-defined]
    return g


@dataclass
class Summary:
    games: int = 0
    german_wins: int = 0
    soviet_wins: int = 0
    draws: int = 0
    steps: int = 0
    seconds: float = 0.0
    players: list[str] = field(default_factory=list)
    game: str = ""
    edition: str = ""
    records: str | None = None

    def add(self, game: Game) -> None:
        self.games += 1
        self.steps += len(game.history)
        if game.result == "german":
            self.german_wins += 1
        elif game.result == "soviet":
            self.soviet_wins += 1
        else:
            self.draws += 1

    def as_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "german_wins": self.german_wins,
            "soviet_wins": self.soviet_wins,
            "draws": self.draws,
            "players": {"german": self.players[0], "soviet": self.players[1]} if self.players else {},
            "game": self.game,
            "edition": self.edition,
            "mean_actions_per_game": round(self.steps / self.games, 1) if self.games else 0,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games / self.seconds, 2) if self.seconds else None,
            "records": self.records,
        }

    def text(self) -> str:
        d = self.as_dict()
        lines = [
            f"{self.games} games ({self.players[0]} as German, {self.players[1]} as Soviet, {self.game} {self.edition})",
            f"  German wins: {self.german_wins}",
            f"  Soviet wins: {self.soviet_wins}",
            f"  Draws:       {self.draws}",
            f"  Mean actions per game: {d['mean_actions_per_game']}",
            f"  Time: {d['seconds']} s ({d['games_per_second']} games/s)",
        ]
        if self.records:
            lines.append(f"  Records written to {self.records}")
        return "\n".join(lines)


def selfplay(
    player_names: Sequence[str],
    games: int,
    seed: int,
    *,
    game: str = DEFAULT_GAME,
    edition: str | None = None,
    options: Mapping[str, str] | None = None,
    records: str | Path | None = None,
    progress: Callable[[int], None] | None = None,
) -> Summary:
    """Play ``games`` games, German = player_names[0], Soviet = player_names[1]. Game i uses
    seed ``seed + i`` for the dice and for the players, so a run is reproducible."""
    if len(player_names) != 2:
        raise TyphoonError("give two players: GERMAN,SOVIET")
    out = Path(records) if records is not None else None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    summary = Summary(players=list(player_names), records=str(out) if out else None)
    t0 = time.perf_counter()
    for i in range(games):
        s = seed + i
        players = [make_player(player_names[0], s * 2 + 1), make_player(player_names[1], s * 2 + 2)]
        g = play_game(players, game=game, edition=edition, options=options, seed=s)
        summary.game = g.module.key
        summary.edition = g.edition
        summary.add(g)
        if out is not None:
            Record.from_game(g).save(out / f"game-{s:06d}.txt")
        if progress is not None:
            progress(i + 1)
    summary.seconds = time.perf_counter() - t0
    return summary


def summary_json(summary: Summary) -> str:
    return json.dumps(summary.as_dict(), sort_keys=True)
