"""The game service under load and at its edges (issue 10 points 3-6): the AI queue is fair
(round-robin, one decision per game at a time, at most one search-level decision at once
with two workers, so a cheap game's move never waits behind strong searches), searches are
cut at the time limit, close() stops at once while a search runs, a restart answers before
any game is rebuilt, the version a long poll watches survives the live cache, uploads that
end at a due die are rolled on, and no creator of a remote game chooses its dice."""

from __future__ import annotations

import random
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

import typhoon.web.service as service_mod
from typhoon.game import CHANCE, Game
from typhoon.games import game_module
from typhoon.players import LEVELS, RandomPlayer, make_player
from typhoon.record import Record
from typhoon.web.service import ApiError, GameService
from typhoon.web.storage import DB_NAME, Store


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    st = Store(tmp_path)
    yield st
    st.close()


def wait_for(pred: Callable[[], Any], timeout: float = 10.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = pred()
        if got:
            return got
        time.sleep(0.01)
    raise AssertionError("condition not met in time")


class Slow(RandomPlayer):
    """A random player that takes ``delay`` seconds per decision and logs who decided when."""

    running = 0
    peak = 0
    log: list[int] = []
    lock = threading.Lock()

    def __init__(self, seed: int | None, delay: float):
        super().__init__(seed, name="slow")
        self.delay = delay

    def choose(self, state: Any, actions: Sequence[Any]) -> Any:
        cls = type(self)
        with cls.lock:
            cls.running += 1
            cls.peak = max(cls.peak, cls.running)
            cls.log.append(id(self))
        time.sleep(self.delay)
        with cls.lock:
            cls.running -= 1
        return super().choose(state, actions)


def _ai_turn(svc: GameService, level: str) -> dict[str, Any]:
    """A game in which the AI (German) is to play its set-up and first turn at once."""
    g = svc.create({"mode": "ai", "side": "soviet", "level": level})
    svc.act(g["id"], g["token"], ["setup standard"], 0)
    return g


# -- fair scheduling ------------------------------------------------------------------------


def test_strong_searches_do_not_delay_a_cheap_game_and_take_turns(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    Slow.running, Slow.peak, Slow.log = 0, 0, []
    monkeypatch.setitem(LEVELS, "search:slowtest", lambda seed: Slow(seed, 0.12))
    svc = GameService(store)  # 2 workers, at most 1 inside a search level
    busy = [_ai_turn(svc, "search:slowtest") for _ in range(3)]
    wait_for(lambda: len(Slow.log) >= 2)
    t0 = time.monotonic()
    cheap = svc.create({"mode": "ai", "side": "german", "level": "random"})  # the AI sets up at once
    wait_for(lambda: svc.version(cheap["id"]) >= 1, timeout=5)
    waited = time.monotonic() - t0
    wait_for(lambda: len(Slow.log) >= 10)
    svc.close()
    assert waited < 0.5, f"the cheap game's move waited {waited:.2f} s behind the searches"
    assert Slow.peak == 1  # never two search-level decisions at once
    # Round-robin: each of the three games decides once before any decides again.
    players = {id(p): g["id"] for g in busy for p in svc.session(g["id"]).players.values()}
    order = [players[x] for x in Slow.log[:9]]
    for i in range(len(order) - 2):
        assert len(set(order[i : i + 3])) == 3, order


def test_a_search_is_cut_at_the_time_limit(store: Store) -> None:
    svc = GameService(store, ai_time_limit=0.4)
    g = _ai_turn(svc, "search:strong")
    s = svc.session(g["id"])
    svc.close()  # the decisions below are made here, not by the workers
    p = svc._player(s, 0)
    assert p.config.time_limit == 0.4
    tmc = game_module("tmc").new_game()
    assert p.player_for(tmc).config.time_limit == 0.4  # The Moscow Campaign's search too
    game = Game(seed=11)
    game.play_text("setup standard")
    game.play_text("setup standard")
    t = time.perf_counter()
    p.choose(game.state, game.legal_actions())  # plans the panzer movement (2-3 s without a limit)
    assert time.perf_counter() - t < 2.0
    heuristic = make_player("heuristic")
    service_mod._limit_time(heuristic, 0.4)  # a player that does not search is left alone
    assert not hasattr(heuristic, "config")


def test_close_does_not_wait_for_a_running_search(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    entered, release = threading.Event(), threading.Event()

    class Stuck(RandomPlayer):
        def choose(self, state: Any, actions: Sequence[Any]) -> Any:
            entered.set()
            release.wait(30)
            return super().choose(state, actions)

    monkeypatch.setitem(LEVELS, "search:stucktest", lambda seed: Stuck(seed))
    monkeypatch.setattr(service_mod, "CLOSE_WAIT", 0.3)  # (2 s in the server) keeps the test short
    svc = GameService(store)
    g = _ai_turn(svc, "search:stucktest")
    assert entered.wait(10)
    before = svc.version(g["id"])
    t = time.monotonic()
    svc.close()
    assert time.monotonic() - t < 0.3 + 0.5
    release.set()  # the abandoned decision ends: it is dropped, not committed
    time.sleep(0.2)
    assert store.version(g["id"]) == before


# -- start-up -------------------------------------------------------------------------------


def _stored_ai_game(data: Path, store: Store) -> str:
    """A game stored with the AI (random, Soviet) to move, as a restart finds it."""
    svc = GameService(store)
    g = svc.create({"mode": "hotseat"})
    svc.close()
    con = sqlite3.connect(data / DB_NAME)
    con.execute("UPDATE games SET mode = 'ai', ai = '{\"soviet\": \"random\"}' WHERE id = ?", (g["id"],))
    con.commit()
    con.close()
    return str(g["id"])


def test_a_restart_answers_before_rebuilding(
    tmp_path: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid = _stored_ai_game(tmp_path, store)
    real = Record.replay

    def slow_replay(self: Record, **kw: Any) -> Game:
        time.sleep(1.0)  # a long game's rebuild
        return real(self, **kw)

    monkeypatch.setattr(Record, "replay", slow_replay)
    svc = GameService(store)
    t = time.monotonic()
    assert svc.resume() == 1
    assert time.monotonic() - t < 0.3  # the rebuild is in the background
    assert svc.list_games()[0]["id"] == gid  # the lobby answers meanwhile
    wait_for(lambda: (store.version(gid) or 0) >= 1)  # and the AI played on by itself
    svc.close()


def test_a_game_is_rebuilt_and_its_ai_started_on_first_access(tmp_path: Path, store: Store) -> None:
    gid = _stored_ai_game(tmp_path, store)
    svc = GameService(store)  # no resume()
    assert svc.view(gid, None)["actions"] == 0
    wait_for(lambda: svc.version(gid) >= 1)
    svc.close()


# -- the version a long poll watches ----------------------------------------------------------


def test_the_version_survives_eviction(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(service_mod, "MAX_SESSIONS", 1)
    svc = GameService(store)
    a = svc.create({"mode": "hotseat"})
    b = svc.create({"mode": "hotseat"})
    assert a["id"] not in svc._sessions  # evicted
    assert svc.version(a["id"]) == 0
    svc.act(a["id"], a["token"], ["setup standard"], 0)  # rebuilt, b evicted
    assert b["id"] not in svc._sessions
    assert svc.version(a["id"]) == 1
    svc.act(b["id"], b["token"], ["setup standard", "setup standard"], 0)
    assert a["id"] not in svc._sessions and svc.version(a["id"]) == 1 and svc.version(b["id"]) == 1
    with pytest.raises(ApiError) as info:
        svc.version("nosuchgame")
    assert info.value.status == 404
    svc.close()
    fresh = GameService(store)  # another process: read from the store
    assert fresh.version(a["id"]) == 1 and fresh.version(b["id"]) == 1
    fresh.close()


# -- dice -----------------------------------------------------------------------------------


def test_a_remote_creator_cannot_choose_the_seed(store: Store) -> None:
    svc = GameService(store)
    with pytest.raises(ApiError) as info:
        svc.create({"mode": "remote", "seed": 5})
    assert info.value.status == 400 and "drawn by the server" in info.value.message
    assert svc.list_games() == []
    remote = store.get(svc.create({"mode": "remote"})["id"])
    assert remote is not None and remote.dice == "sha256" and remote.seed.bit_length() > 128
    # Alone at the table (hot seat), a chosen seed is the player's own business.
    chosen = store.get(svc.create({"mode": "hotseat", "seed": 5})["id"])
    assert chosen is not None and chosen.seed == 5 and chosen.dice == "mt"
    # The record of an unfinished game never tells the seed.
    assert "[Seed" not in svc.record_text(remote.id)
    svc.close()


def test_ai_players_are_not_seeded_from_the_dice(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    seeds: list[int | None] = []

    def spy(name: str, seed: int | None = None) -> Any:
        seeds.append(seed)
        return make_player(name, seed)

    monkeypatch.setattr(service_mod, "make_player", spy)
    svc = GameService(store)
    gids = [
        svc.create({"mode": "ai", "side": "german", "level": "random", "seed": 7})["id"] for _ in range(2)
    ]
    wait_for(lambda: all(svc.version(g) >= 1 for g in gids))
    svc.close()
    assert len(seeds) == 2 and seeds[0] != seeds[1]  # the same dice seed, different AI seeds
    assert 7 * 2 + 1 not in seeds  # the old derivation (seed * 2 + side + actions)


def _record_at_due_die(seed: int | None) -> tuple[str, Game]:
    g = Game(seed=4)
    rng = random.Random(1)
    while g.current_player() != CHANCE:
        g.play(rng.choice(g.legal_actions()))
    rec = Record.from_game(g)
    rec.seed = seed
    return rec.to_text(), g


@pytest.mark.parametrize("mode", ["hotseat", "remote"])
def test_an_upload_ending_at_a_due_die_is_rolled_on(store: Store, mode: str) -> None:
    svc = GameService(store)
    text, g = _record_at_due_die(seed=None)
    n = len(g.history)
    up = svc.upload(text, {"mode": mode})
    s = svc.session(up["id"])
    assert s.game.current_player() not in (CHANCE,) and len(s.game.history) > n
    assert s.game.history[n].actor == CHANCE
    row = store.get(up["id"])
    assert row is not None and row.dice == "sha256" and row.dice_from == g.rolls_drawn
    assert store.actions(up["id"])[n][0] == "*"  # the roll is stored
    svc.close()
    again = GameService(store)  # rebuilt from the store, its dice checked against its seed
    assert again.session(up["id"]).game.position() == s.game.position()
    again.close()


def test_a_seeded_upload_keeps_its_dice_except_in_a_remote_game(store: Store) -> None:
    svc = GameService(store)
    text, g = _record_at_due_die(seed=4)
    n = len(g.history)
    g.roll_dice()
    up = svc.upload(text, {"mode": "hotseat"})
    s = svc.session(up["id"])
    assert s.game.seed == 4 and s.game.text(s.game.history[n].action) == g.text(g.history[n].action)
    remote = store.get(svc.upload(text, {"mode": "remote"})["id"])
    assert remote is not None and remote.seed != 4 and remote.dice == "sha256"  # the uploader knew seed 4
    svc.close()


def test_a_stored_level_that_names_a_program_is_never_run(tmp_path: Path, store: Store) -> None:
    # Only built-in levels reach a web game (create and upload check them); a tampered store
    # naming `cmd:...` must not start that program on the server.
    marker = tmp_path / "ran"
    svc = GameService(store)
    g = svc.create({"mode": "ai", "side": "german", "level": "random"})
    svc.close()
    con = sqlite3.connect(tmp_path / DB_NAME)
    con.execute("UPDATE games SET ai=? WHERE id=?", ('{"soviet": "cmd:touch ' + str(marker) + '"}', g["id"]))
    con.commit()
    con.close()
    svc = GameService(store)
    try:
        v = wait_for(lambda: (x := svc.view(g["id"], g["token"]))["ai_error"] and x)
        assert "unknown AI level" in v["ai_error"]
        assert not marker.exists()
    finally:
        svc.close()
