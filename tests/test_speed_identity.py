"""Issue 17: engine speed work must not change a single action. Fixed-seed games of both games
are played through the public Game/record layer and the record text is compared, by digest,
with the digest taken before the first optimisation landed (pinned below)."""

from __future__ import annotations

import hashlib

import pytest

from typhoon.game import CHANCE, Game
from typhoon.players import make_player
from typhoon.record import Record

DATE = "2026-01-01"  # a fixed date, so the record text depends on the play only


def _record_digest(
    game: str, edition: str, seed: int, players: tuple[str, str], limit: int | None = None
) -> str:
    g = Game(game, edition, {}, seed=seed, date=DATE, players={"german": players[0], "soviet": players[1]})
    who = [make_player(players[0], seed), make_player(players[1], seed + 1)]
    n = 0
    while not g.is_over and (limit is None or n < limit):
        side = g.current_player()
        if side == CHANCE:
            g.roll()
        else:
            g.play(who[side].choose(g.state, g.legal_actions()))
        n += 1
    return hashlib.sha256(Record.from_game(g).to_text().encode()).hexdigest()[:16]


# (game, edition, seed, players, action limit) -> digest taken before any speed change.
PINNED: list[tuple[str, str, int, tuple[str, str], int | None, str]] = [
    ("bfm", "gdw1986", 1, ("random", "random"), None, "cfec280ca897fb77"),
    ("bfm", "gdw1986", 2, ("random", "random"), None, "a5776842929d9b52"),
    ("bfm", "vpg2009", 3, ("random", "random"), None, "643207e89d0c38f9"),
    ("bfm", "gdw1986", 4, ("heuristic", "random"), None, "da12a9bf9e9059ea"),
    ("bfm", "vpg2009", 5, ("random", "heuristic"), None, "9dbb299f68a1d926"),
    ("bfm", "gdw1986", 6, ("search:16", "heuristic"), 40, "3cd81992056c804d"),
    ("tmc", "1", 7, ("random", "random"), 1500, "15d6c098c244846b"),
    ("tmc", "1", 8, ("heuristic", "random"), 300, "3ecd4ed512bae2ee"),
    ("tmc", "2", 9, ("random", "random"), 400, "0cffa5ade4bf9809"),
]


@pytest.mark.parametrize(("game", "edition", "seed", "players", "limit", "digest"), PINNED)
def test_fixed_seed_records_unchanged(
    game: str, edition: str, seed: int, players: tuple[str, str], limit: int | None, digest: str
) -> None:
    assert _record_digest(game, edition, seed, players, limit) == digest
