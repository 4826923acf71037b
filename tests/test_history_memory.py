"""A live game's history keeps memory bounded (issue 10 point 5): actions plus a snapshot every
SNAPSHOT_EVERY actions, with ``Entry.before`` and ``Game.state_at`` replayed on demand. Every
replayed state must be the state that was played, whatever the order of access, after copies,
undo and further play."""

from __future__ import annotations

import random
import tracemalloc
from typing import Any

import pytest

import typhoon.game as game_mod
from typhoon.game import CHANCE, Game
from typhoon.record import Record

DEFAULT_EVERY = game_mod.SNAPSHOT_EVERY


def _play(g: Game, n: int, rng: random.Random, states: list[Any]) -> None:
    """Play ``n`` random actions (dice from the seed), appending the state after each."""
    for _ in range(n):
        if g.is_over:
            return
        if g.current_player() == CHANCE:
            g.roll()
        else:
            g.play(rng.choice(g.legal_actions()))
        states.append(g.state)


@pytest.fixture(autouse=True)
def small_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(game_mod, "SNAPSHOT_EVERY", 25)  # many snapshots in a short game


@pytest.mark.parametrize(
    ("game", "edition", "n"), [("bfm", None, 600), ("tmc", "1", 150), ("tmc", "15", 120)]
)
def test_every_replayed_state_is_the_played_one(game: str, edition: str | None, n: int) -> None:
    g = Game(game, edition, seed=4)
    states = [g.state]
    _play(g, n, random.Random(4), states)
    kept = sum(e._before is not None for e in g.history)
    assert kept <= len(g.history) // 25 + 2  # snapshots and the last entry only
    some = random.Random(1).sample(range(len(states)), 30)
    for i in [*some, *range(len(states))]:  # random access, then in order (the cached path)
        assert g.state_at(i) == states[i], i
    for i, e in enumerate(g.history):
        assert e.turn == states[i].turn and e.phase == states[i].phase
    with pytest.raises(IndexError):
        g.state_at(len(states))


def test_copies_and_undo_keep_their_own_history() -> None:
    g = Game(seed=8)
    states = [g.state]
    rng = random.Random(8)
    _play(g, 120, rng, states)
    while not g.can_undo():
        _play(g, 1, rng, states)
    c = g.copy()
    undone_state = g.history[-1].before
    c.undo()
    assert c.state == undone_state and len(c.history) == len(g.history) - 1
    other: list[Any] = []
    _play(c, 60, random.Random(99), other)  # the copy goes its own way
    for i in range(len(states)):
        assert g.state_at(i) == states[i]
    assert g.undo() is not None and g.state == states[-2]
    # The copy's own later states are replayed from the shared prefix, not the original's.
    base = len(states) - 2
    for j, st in enumerate(other[:-1]):
        assert c.state_at(base + 1 + j) == st


def test_undo_several_steps_far_from_a_snapshot(started: Game) -> None:
    g = started
    states = [g.state]
    while len(g.history) % 25 != 12 or not g.can_undo():
        _play(g, 1, random.Random(len(g.history)), states)
    undone = 0
    while g.can_undo() and undone < 3:
        expected = g.history[-1].before
        g.undo()
        undone += 1
        assert g.state == expected
    assert undone >= 1


def test_record_replay_gives_the_same_history() -> None:
    g = Game("tmc", "1", seed=2)
    states = [g.state]
    _play(g, 200, random.Random(2), states)
    again = Record.from_text(Record.from_game(g).to_text()).replay()
    for i in range(0, len(states), 7):
        assert again.state_at(i) == states[i]


@pytest.mark.slow
def test_whole_campaign_live_game_is_under_50_mb(monkeypatch: pytest.MonkeyPatch) -> None:
    """The figure of benchmarks/live_game_memory.py, as a soak check (make soak)."""
    from typhoon.players import make_player
    from typhoon.selfplay import play_game

    monkeypatch.setattr(game_mod, "SNAPSHOT_EVERY", DEFAULT_EVERY)
    g = play_game(
        [make_player("heuristic", 3), make_player("heuristic", 4)], game="tmc", edition="11", seed=1
    )
    record = Record.from_game(g)
    del g
    tracemalloc.start()
    try:
        live = record.replay()
        current, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    print(f"whole campaign, {len(live.history)} actions: {current / 1e6:.1f} MB")
    assert current < 50e6
