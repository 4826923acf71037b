"""Two clients, one position, the same moment (issue 10 item 7): on a real server, two
clients send changes against the same position version at once — action against action, and
action against undo — and exactly one is accepted each time; the other is told the game moved
on (409). Afterwards the stored game is one line of play, no action doubled, no game forked
or duplicated, and its record replays to the position the server shows."""

from __future__ import annotations

import sys
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from typhoon.record import Record

from .server import Server, get, post

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX server process")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path / "data")
    s.start()
    try:
        yield s
    finally:
        s.stop()


def _at_once(calls: list[tuple[str, dict[str, Any]]], url: str, token: str) -> list[httpx.Response]:
    """POST every call from its own client thread, released together by a barrier."""
    barrier = threading.Barrier(len(calls))
    out: list[httpx.Response | None] = [None] * len(calls)
    clients = [httpx.Client(base_url=url, headers={"X-Typhoon-Token": token}, timeout=30) for _ in calls]
    for c in clients:
        c.get("/healthz")  # the connection is open before the race starts

    def go(i: int) -> None:
        path, body = calls[i]
        barrier.wait()
        out[i] = clients[i].post(path, json=body)

    threads = [threading.Thread(target=go, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for c in clients:
        c.close()
    return [r for r in out if r is not None]


def _two_moves(url: str, gid: str) -> list[str]:
    legal = get(url, f"/api/games/{gid}/legal")["actions"]
    texts = [a["text"] for a in legal if a.get("kind") != "end"] or [a["text"] for a in legal]
    return (texts[:2] * 2)[:2]


def _log_texts(url: str, gid: str) -> list[str]:
    return [e["action"] for e in get(url, f"/api/games/{gid}/log")["log"]]


def _race(server: Server, rounds: int) -> None:
    url = server.url
    g = post(url, "/api/games", {"mode": "hotseat"}).json()
    gid, tok = g["id"], g["token"]
    games_before = len(get(url, "/api/games")["games"])
    outcome: Counter[str] = Counter()
    for r in range(rounds):
        v = get(url, f"/api/games/{gid}", tok)
        before = _log_texts(url, gid)
        a, b = _two_moves(url, gid)
        act = f"/api/games/{gid}/actions"
        if r % 2 == 0 or not v["can_undo"]:
            kind = "act/act"
            calls = [
                (act, {"actions": [a], "seen": v["version"]}),
                (act, {"actions": [b], "seen": v["version"]}),
            ]
        else:
            kind = "act/undo"
            calls = [
                (act, {"actions": [a], "seen": v["version"]}),
                (f"/api/games/{gid}/undo", {"seen": v["version"]}),
            ]
        answers = _at_once(calls, url, tok)
        codes = [x.status_code for x in answers]
        outcome[f"{kind} {sorted(codes)}"] += 1
        # Exactly one change wins; the other is told the game moved on (409) and nothing of
        # it is applied.
        assert sorted(codes) == [200, 409], [x.text[:200] for x in answers]
        won = answers[codes.index(200)].json()
        after = get(url, f"/api/games/{gid}", tok)
        assert after["version"] == v["version"] + 1
        now = _log_texts(url, gid)
        if "undone" in won:
            assert now == before[:-1], "an undo raced with an action left a fork"
        else:
            assert now[: len(before) + 1] == before + [won["log"][0]["action"]], (
                "an action was doubled or lost"
            )
        # One more move, so that the next odd round has something to undo.
        c, _ = _two_moves(url, gid)
        nxt = post(url, act, {"actions": [c], "seen": after["version"]}, tok)
        assert nxt.status_code == 200, nxt.text
    final = get(url, f"/api/games/{gid}", tok)
    record = httpx.get(url + f"/api/games/{gid}/record", timeout=20).text
    game = Record.from_text(record).replay(check_result=False)
    assert len(game.history) == final["actions"], "the record and the server disagree"
    assert [t for _, t in Record.from_text(record).actions] == _log_texts(url, gid)
    assert len(get(url, "/api/games")["games"]) == games_before, "a race duplicated a game"
    total = sum(outcome.values())
    print(
        f"\nraces: {total} ("
        + ", ".join(f"{k}: {n}" for k, n in sorted(outcome.items()))
        + "); forked or duplicated games: 0"
    )


def test_two_clients_at_the_same_version_never_fork_a_game(server: Server) -> None:
    _race(server, 12)


@pytest.mark.slow
def test_races_soak(server: Server) -> None:
    _race(server, 200)
