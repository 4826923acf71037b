"""Response times of the main web API calls, measured over real HTTP against uvicorn.

    python -m typhoon.web.bench            # about 20 s
    python -m typhoon.web.bench --quick    # a few seconds

Starts a server in a thread on a free port with a throw-away data folder, then times (median
and 95th percentile, milliseconds, keep-alive connection, loopback): creating a game, reading
the state (as the browser does: with the SVG map and the legal actions, and bare), the legal
actions, a combat preview, playing an action (committed to SQLite before the answer), undo,
and an AI reply (from the human's last action of the German turn until the AI has played the
whole Soviet turn and it is the human's decision again).
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from typhoon.players import player_names


@contextmanager
def live_server(data_dir: str | Path) -> Iterator[str]:
    """The base URL of the web app served by uvicorn in a thread, on a free loopback port
    (also the browser tests' server)."""
    import uvicorn

    from typhoon.web.app import create_app

    app = create_app(data_dir)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)  # TCP_NODELAY
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    port = sock.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=1)
    )
    th = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    th.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not th.is_alive():
            sock.close()
            raise RuntimeError("the web server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        th.join(timeout=10)
        sock.close()


def _stats(samples: list[float]) -> dict[str, float]:
    s = sorted(samples)
    p95 = s[min(len(s) - 1, round(0.95 * (len(s) - 1)))]
    return {"median_ms": round(statistics.median(s) * 1000, 2), "p95_ms": round(p95 * 1000, 2), "n": len(s)}


def _time(fn: Callable[[], Any], n: int) -> dict[str, float]:
    out = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return _stats(out)


def bench_figures(quick: bool = False) -> dict[str, Any]:
    n = 10 if quick else 60
    figures: dict[str, Any] = {}
    with (
        tempfile.TemporaryDirectory() as data,
        live_server(data) as url,
        httpx.Client(base_url=url, timeout=60) as c,
    ):

        def create() -> dict[str, Any]:
            r = c.post("/api/games", json={"mode": "hotseat", "seed": 3})
            r.raise_for_status()
            return dict(r.json())

        figures["create game"] = _time(create, n)
        g = create()
        gid, h = g["id"], {"X-Typhoon-Token": g["token"]}
        v = c.get(f"/api/games/{gid}").json()
        r = c.post(
            f"/api/games/{gid}/actions",
            json={"actions": ["setup standard"] * 2, "seen": v["version"]},
            headers=h,
        )
        r.raise_for_status()
        figures["get state (JSON only)"] = _time(
            lambda: c.get(f"/api/games/{gid}", headers=h).raise_for_status(), n
        )
        figures["get state (with SVG map and legal actions, as the browser does)"] = _time(
            lambda: c.get(f"/api/games/{gid}?svg=1&legal=1", headers=h).raise_for_status(), n
        )
        figures["legal actions (with move paths)"] = _time(
            lambda: c.get(f"/api/games/{gid}/legal").raise_for_status(), n
        )
        legal = c.get(f"/api/games/{gid}/legal").json()["actions"]
        move = next(a["text"] for a in legal if a["kind"] == "move" and a["dst"] != a["src"])
        plays: list[float] = []
        undos: list[float] = []
        for _ in range(n):
            ver = c.get(f"/api/games/{gid}").json()["version"]
            t = time.perf_counter()
            r = c.post(
                f"/api/games/{gid}/actions",
                json={"action": move, "seen": ver, "svg": True, "legal": True},
                headers=h,
            )
            plays.append(time.perf_counter() - t)
            r.raise_for_status()
            t = time.perf_counter()
            r = c.post(
                f"/api/games/{gid}/undo", json={"seen": ver + 1, "svg": True, "legal": True}, headers=h
            )
            undos.append(time.perf_counter() - t)
            r.raise_for_status()
        figures["play action (commit + state with SVG and legal actions)"] = _stats(plays)
        figures["undo"] = _stats(undos)
        # Combat preview.
        ver = c.get(f"/api/games/{gid}").json()["version"]
        c.post(f"/api/games/{gid}/actions", json={"action": "end", "seen": ver}, headers=h).raise_for_status()
        legal = c.get(f"/api/games/{gid}/legal").json()["actions"]
        atk = next(a for a in legal if a["kind"] == "attack")
        units = ",".join(a["unit"] for a in legal if a["kind"] == "attack" and a["target"] == atk["target"])
        figures["combat preview"] = _time(
            lambda: c.get(
                f"/api/games/{gid}/preview", params={"target": atk["target"], "attackers": units}
            ).raise_for_status(),
            n,
        )
        # AI replies: the human (German) ends his turn; time until it is his decision again.
        levels = [lv for lv in ("random", "heuristic", "search") if lv in player_names()]
        for level in levels:
            reps = 3 if quick else 8
            samples: list[float] = []
            actions: list[int] = []
            for i in range(reps):
                samples_i, acts = _ai_reply(c, level, seed=100 + i)
                samples.append(samples_i)
                actions.append(acts)
            st = _stats(samples)
            st["ai_actions_per_turn"] = round(statistics.mean(actions), 1)
            figures[f"AI reply: whole Soviet turn 1, level {level}"] = st
    return figures


def _ai_reply(c: httpx.Client, level: str, seed: int) -> tuple[float, int]:
    g = c.post("/api/games", json={"mode": "ai", "side": "german", "level": level, "seed": seed}).json()
    gid, h = g["id"], {"X-Typhoon-Token": g["token"]}
    v = _wait_turn(c, gid, h)
    v = c.post(
        f"/api/games/{gid}/actions", json={"actions": ["setup standard"], "seen": v["version"]}, headers=h
    ).json()["state"]
    # Pass the German turn: end every phase (declaring no attacks).
    while v["turn"] == 1 and v["phase"]["side"] == "german":
        last = v["phase"]["key"] == "german_movement"
        t = time.perf_counter()
        r = c.post(f"/api/games/{gid}/actions", json={"action": "end", "seen": v["version"]}, headers=h)
        r.raise_for_status()
        v = r.json()["state"]
        if last:
            before = v["actions"]
            v = _wait_turn(c, gid, h)
            return time.perf_counter() - t, v["actions"] - before
    raise RuntimeError("the German turn did not end")  # pragma: no cover


def _wait_turn(c: httpx.Client, gid: str, h: dict[str, str]) -> dict[str, Any]:
    while True:
        v = c.get(f"/api/games/{gid}", headers=h).json()
        if v["your_turn"] or v["result"] or v["ai_error"]:
            return dict(v)
        c.get(f"/api/games/{gid}", params={"after": v["version"], "wait": 5}, headers=h)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    figs = bench_figures(args.quick)
    if args.json:
        print(json.dumps(figs, indent=1))
        return
    for name, st in figs.items():
        extra = f", {st['ai_actions_per_turn']} AI actions" if "ai_actions_per_turn" in st else ""
        print(
            f"{name:68s} median {st['median_ms']:8.2f} ms   p95 {st['p95_ms']:8.2f} ms   (n={st['n']}{extra})"
        )


if __name__ == "__main__":
    main()
