"""Kill -9 at random moments (issue 10 item 7): a real server is killed with SIGKILL while
clients play — at a random moment, during the computer's turn, or right after an answer —
and restarted on the same data folder, over and over. Every acknowledged action (an answer
200 carried it in its log) must be there afterwards at its place, every game's record must
replay, and the games must play on."""

from __future__ import annotations

import random
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from typhoon.record import Record

from .server import Server, get, post

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL semantics")


class Player(threading.Thread):
    """Plays random legal actions in one game as fast as the server answers, remembering
    every action an answer acknowledged, until the server dies."""

    def __init__(self, url: str, gid: str, token: str, seed: int, answered: threading.Event):
        super().__init__(daemon=True)
        self.url, self.gid, self.token = url, gid, token
        self.rng = random.Random(seed)
        self.acked: dict[int, str] = {}
        self.answered = answered
        self.stop = False

    def run(self) -> None:
        client = httpx.Client(base_url=self.url, headers={"X-Typhoon-Token": self.token}, timeout=10)
        try:
            while not self.stop:
                v = client.get(f"/api/games/{self.gid}", params={"legal": "1"}).json()
                if v.get("result"):
                    return
                if not v.get("your_turn") or not v.get("legal"):
                    time.sleep(0.02)
                    continue
                pick = self.rng.choice(v["legal"])["text"]
                r = client.post(
                    f"/api/games/{self.gid}/actions", json={"actions": [pick], "seen": v["version"]}
                )
                if r.status_code == 200:
                    for e in r.json()["log"]:
                        self.acked[e["n"]] = e["action"]
                    self.answered.set()
        except (httpx.HTTPError, ValueError, KeyError):
            return  # the server was killed under us
        finally:
            client.close()


def _check(url: str, gid: str, acked: dict[int, str]) -> int:
    log = get(url, f"/api/games/{gid}/log")["log"]
    stored = {e["n"]: e["action"] for e in log}
    lost = [n for n, text in acked.items() if stored.get(n) != text]
    assert not lost, f"acknowledged actions lost or changed at {lost[:5]}"
    record = httpx.get(url + f"/api/games/{gid}/record", timeout=30).text
    rec = Record.from_text(record)
    game = rec.replay(check_result=False)
    # The computer may play on between the two requests: the log is a prefix of the record.
    assert len(game.history) >= len(log)
    assert [t for _, t in rec.actions[: len(log)]] == [e["action"] for e in log]
    return len(acked)


def _cycles(tmp_path: Path, n: int, seed: int) -> None:
    rng = random.Random(seed)
    server = Server(tmp_path / "data")
    server.start("--ai-delay", "0.02")  # the computer's turn lasts long enough to be hit
    url = server.url
    hot = post(url, "/api/games", {"mode": "hotseat"}).json()
    ai = post(url, "/api/games", {"mode": "ai", "side": "soviet", "level": "random"}).json()
    acked: dict[str, dict[int, str]] = {hot["id"]: {}, ai["id"]: {}}
    kinds = {"random moment": 0, "right after an answer": 0, "during the AI's turn": 0}
    try:
        for cycle in range(n):
            answered = threading.Event()
            players = [
                Player(url, hot["id"], hot["token"], rng.randrange(10**6), answered),
                Player(url, ai["id"], ai["token"], rng.randrange(10**6), answered),
            ]
            for p in players:
                p.start()
            kind = list(kinds)[cycle % 3]
            if kind == "right after an answer":
                answered.wait(10)
            elif kind == "during the AI's turn":
                deadline = time.monotonic() + 10
                while time.monotonic() < deadline and not get(url, f"/api/games/{ai['id']}")["ai_thinking"]:
                    time.sleep(0.01)
            else:
                time.sleep(rng.uniform(0.05, 0.8))
            kinds[kind] += 1
            server.kill9()
            for p in players:
                p.stop = True
                p.join(15)
                acked[p.gid].update(p.acked)
            server.start("--ai-delay", "0.02")
            url = server.url
            for gid, a in acked.items():
                _check(url, gid, a)
            # A finished game is replaced, so that every cycle has play to interrupt.
            for name, g in (("hot", hot), ("ai", ai)):
                if get(url, f"/api/games/{g['id']}").get("result"):
                    body = (
                        {"mode": "hotseat"}
                        if name == "hot"
                        else {"mode": "ai", "side": "soviet", "level": "random"}
                    )
                    new = post(url, "/api/games", body).json()
                    acked[new["id"]] = {}
                    if name == "hot":
                        hot = new
                    else:
                        ai = new
        total = sum(len(a) for a in acked.values())
        print(
            f"\nkill -9: {n} cycles ("
            + ", ".join(f"{k}: {v}" for k, v in kinds.items())
            + f"); acknowledged actions checked: {total}; lost: 0"
        )
    finally:
        server.stop()


def test_kill_9_at_random_moments_loses_no_acknowledged_action(tmp_path: Path) -> None:
    _cycles(tmp_path, 6, seed=1)


@pytest.mark.slow
def test_kill_9_soak(tmp_path: Path) -> None:
    _cycles(tmp_path, 60, seed=2)
