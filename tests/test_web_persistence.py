"""Nothing acknowledged is lost (issue 4 item 2): a real ``typhoon serve`` process (uvicorn)
is killed with SIGKILL in the middle of games, restarted on the same data folder, and every
acknowledged action is still there; an AI game resumes by itself."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from reliability.server import Server, get, post

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL semantics")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path / "data")
    s.start("--ai-delay", "0.05")  # slow the AI down so that the kill finds it mid-turn
    try:
        yield s
    finally:
        s.stop()


def test_kill_9_loses_no_acknowledged_action(server: Server) -> None:
    url = server.url
    g = post(url, "/api/games", {"mode": "hotseat", "seed": 21}).json()
    gid, tok = g["id"], g["token"]
    ai = post(url, "/api/games", {"mode": "ai", "side": "soviet", "level": "random", "seed": 22}).json()
    v = get(url, f"/api/games/{gid}")
    for _ in range(12):
        legal = get(url, f"/api/games/{gid}/legal")["actions"]
        moves = [a for a in legal if a["kind"] == "move" and a["dst"] != a["src"]]
        pick = moves[0] if moves else legal[0]
        r = post(url, f"/api/games/{gid}/actions", {"action": pick["text"], "seen": v["version"]}, tok)
        assert r.status_code == 200, r.text
        v = r.json()["state"]
    record_before = httpx.get(url + f"/api/games/{gid}/record").text
    # The Soviet sets up; the AI starts its German set-up and turn, and is killed in the middle.
    av = get(url, f"/api/games/{ai['id']}")
    r = post(
        url,
        f"/api/games/{ai['id']}/actions",
        {"action": "setup standard", "seen": av["version"]},
        ai["token"],
    )
    assert r.status_code == 200
    time.sleep(0.6)
    mid = get(url, f"/api/games/{ai['id']}", ai["token"])
    assert mid["ai_thinking"] and not mid["your_turn"] and mid["actions"] > av["actions"] + 1
    ai_record = httpx.get(url + f"/api/games/{ai['id']}/record").text
    ai_lines = [x for x in ai_record.splitlines() if re.match(r"^\d+\. ", x)]

    server.kill9()
    server.start()
    url = server.url

    after = get(url, f"/api/games/{gid}", tok)
    assert after["version"] == v["version"] and after["actions"] == v["actions"]
    assert after["units"] == v["units"] and after["phase"] == v["phase"]
    assert httpx.get(url + f"/api/games/{gid}/record").text == record_before
    # Play on after the restart.
    legal = get(url, f"/api/games/{gid}/legal")["actions"]
    r = post(url, f"/api/games/{gid}/actions", {"action": legal[0]["text"], "seen": after["version"]}, tok)
    assert r.status_code == 200
    # The AI game resumed by itself: the AI finished its turn and the Soviet decides again.
    deadline = time.monotonic() + 30
    while True:
        av = get(url, f"/api/games/{ai['id']}", ai["token"])
        if av["your_turn"] and av["turn"] >= 1:
            break
        assert time.monotonic() < deadline, "the AI did not resume"
        time.sleep(0.2)
    assert any(e["actor"] == "german" for e in av["log"])
    resumed = httpx.get(url + f"/api/games/{ai['id']}/record").text
    assert [x for x in resumed.splitlines() if re.match(r"^\d+\. ", x)][: len(ai_lines)] == ai_lines


def test_serve_refuses_a_busy_port(tmp_path: Path, server: Server) -> None:
    port = server.url.rsplit(":", 1)[1]
    out = subprocess.run(
        [sys.executable, "-m", "typhoon", "serve", "--port", port, "--data", str(tmp_path / "other")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2
    assert "cannot listen" in out.stderr and "Traceback" not in out.stderr
