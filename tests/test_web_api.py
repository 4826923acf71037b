"""The web API (issue 4): games, legal actions, actions, undo, records, replay, the AI, and
every error path (bad JSON, unknown game, illegal action, wrong side 403, stale position 409,
bad upload 400 that changes nothing). Starlette's TestClient, no network."""

from __future__ import annotations

import json
import re
import sqlite3
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

from typhoon.game import Game
from typhoon.players import LEVELS, make_player
from typhoon.record import Record
from typhoon.selfplay import play_game

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from typhoon.web.app import create_app
from webapi import act, new_game, view


def wait_for(pred: Any, timeout: float = 10.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = pred()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError("condition not met in time")


def hotseat_started(c: TestClient) -> tuple[str, str]:
    """A hot-seat game after both standard set-ups (German panzer movement, turn 1)."""
    g = new_game(c, mode="hotseat", seed=11)
    r = act(c, g["id"], g["token"], "setup standard", "setup standard")
    assert r.status_code == 200, r.text
    return g["id"], g["token"]


def first_move(c: TestClient, gid: str) -> dict[str, Any]:
    legal = c.get(f"/api/games/{gid}/legal").json()["actions"]
    return next(a for a in legal if a["kind"] == "move" and a["dst"] != a["src"])


# -- catalogue and creation ------------------------------------------------------------------


def test_meta_lists_editions_levels_and_modes(client: TestClient) -> None:
    m = client.get("/api/meta").json()
    assert m["modes"] == ["ai", "hotseat", "remote"]
    assert "random" in m["levels"] and m["default_level"] in m["levels"]
    eds = {e["key"] for e in m["games"][0]["editions"]}
    assert {"gdw1986", "vpg2009"} <= eds


def test_create_each_mode_gives_the_right_links(client: TestClient) -> None:
    ai = new_game(client, mode="ai", side="soviet", level="random")
    assert set(ai["links"]) == {"soviet"} and ai["ai"] == {"german": "random"}
    hot = new_game(client, mode="hotseat")
    assert set(hot["links"]) == {"host"} and hot["ai"] == {}
    rem = new_game(
        client, mode="remote", side="german", edition="vpg2009", options={"soviet_replacements": "4"}
    )
    assert set(rem["links"]) == {"german", "soviet"}
    assert rem["links"]["german"] != rem["links"]["soviet"]
    assert rem["token"] in rem["links"]["german"]
    v = view(client, rem["id"], rem["token"])
    assert v["edition"] == "vpg2009" and "soviet_replacements=4" in v["rules"]
    assert v["you"] == ["german"] and v["to_move"] == "soviet" and not v["your_turn"]
    listed = client.get("/api/games").json()["games"]
    assert {g["id"] for g in listed} >= {ai["id"], hot["id"], rem["id"]}
    assert rem["token"] not in json.dumps(listed)  # the list never shows a secret


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ("", "empty"),
        ('{"mode": "solo"}', "mode must be"),
        ('{"side": "french"}', "side must be"),
        ('{"mode": "ai", "level": "grandmaster"}', "unknown AI level"),
        ('{"edition": "avalon"}', "unknown edition"),
        ('{"options": {"no_such_rule": "1"}}', "no option"),
        ('{"options": {"soviet_replacements": "9"}}', "must be one of"),
        ('{"options": [1]}', "options must be"),
        ('{"seed": "abc"}', "seed must be"),
        ('{"seed": 100000000000000000000000000}', "seed must be"),  # more than SQLite holds
        ('{"game": "chess"}', "unknown game"),
    ],
)
def test_create_rejects_bad_requests(client: TestClient, body: str, words: str) -> None:
    before = len(client.get("/api/games").json()["games"])
    r = client.post("/api/games", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 400, r.text
    assert words in r.json()["error"]
    assert len(client.get("/api/games").json()["games"]) == before


# -- unknown game ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", ""),
        ("GET", "/legal"),
        ("GET", "/preview?target=0303&attackers=XXIV"),
        ("POST", "/actions"),
        ("POST", "/undo"),
        ("GET", "/record"),
        ("GET", "/log"),
        ("GET", "/replay"),
        ("GET", "/map.svg"),
    ],
)
def test_unknown_game_is_404(client: TestClient, method: str, path: str) -> None:
    r = client.request(method, "/api/games/nosuchgame" + path, json={"action": "end", "seen": 0})
    assert r.status_code == 404
    assert "no game" in r.json()["error"]


def test_unknown_api_route_is_json_404(client: TestClient) -> None:
    r = client.get("/api/nothing-here")
    assert r.status_code == 404 and r.json()["error"]


# -- actions: the happy path and every refusal -----------------------------------------------


def test_play_a_move_and_see_it(client: TestClient) -> None:
    gid, tok = hotseat_started(client)
    v = view(client, gid, tok, legal=1, svg=1)
    assert v["your_turn"] and v["you"] == ["german", "soviet"]
    assert v["phase"]["key"] == "german_panzer_movement" and v["turn"] == 1
    assert v["svg"].startswith("<svg") and v["legal"]
    mv = first_move(client, gid)
    assert mv["path"][0] == mv["src"] and mv["path"][-1] == mv["dst"]
    r = act(client, gid, tok, mv["text"], seen=v["version"])
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["state"]["version"] == v["version"] + 1
    unit = next(u for u in out["state"]["units"] if u["id"] == mv["unit"])
    assert unit["hex"] == mv["dst"] and unit["done"]
    assert out["log"][0]["action"] == mv["text"] and "moves" in out["log"][0]["events"][0]["text"]


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ("{oops", 400, "not valid JSON"),
        ('"end"', 400, "JSON object"),
        ('{"seen": 0}', 400, "give 'action'"),
        ('{"action": "end"}', 400, "'seen' is required"),
        ('{"action": "end", "seen": "x"}', 400, "'seen' must be an integer"),
        ('{"action": "end", "seen": 1.5}', 400, "'seen' must be an integer"),
        ('{"action": "end", "seen": 1e400}', 400, "'seen' must be an integer"),
        ('{"action": "end", "seen": true}', 400, "'seen' must be an integer"),
        ('{"action": 5, "seen": 0}', 400, "'action' must be a string"),
        ('{"actions": "end", "seen": 0}', 400, "list of action texts"),
        ('{"actions": [], "seen": 0}', 400, "no action"),
    ],
)
def test_malformed_action_requests_are_400(client: TestClient, body: str, status: int, words: str) -> None:
    gid, tok = hotseat_started(client)
    before = view(client, gid)["version"]
    r = client.post(
        f"/api/games/{gid}/actions",
        content=body.replace('"seen": 0', f'"seen": {before}'),
        headers={"Content-Type": "application/json", "X-Typhoon-Token": tok},
    )
    assert r.status_code == status, r.text
    assert words in r.json()["error"]
    assert view(client, gid)["version"] == before


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("fly XXIV 0409", "cannot read the action"),
        ("move XXIV 04-09", "cannot read the action"),
        ("move XXIV 0409-1410", "illegal action"),
        ("attack XXIV 0303", "illegal action"),
        ("move 16A 0301-0401", "illegal action"),
    ],
)
def test_illegal_or_unreadable_actions_are_422(client: TestClient, text: str, words: str) -> None:
    gid, tok = hotseat_started(client)
    before = view(client, gid)
    r = act(client, gid, tok, text, seen=before["version"])
    assert r.status_code == 422, r.text
    assert words in r.json()["error"]
    after = view(client, gid)
    assert after["version"] == before["version"] and after["units"] == before["units"]


def test_a_batch_is_all_or_nothing(client: TestClient) -> None:
    gid, tok = hotseat_started(client)
    before = view(client, gid)
    mv = first_move(client, gid)
    r = act(client, gid, tok, mv["text"], "move XXIV 0409-1410", seen=before["version"])
    assert r.status_code == 422
    after = view(client, gid)
    assert after["version"] == before["version"] and after["units"] == before["units"]


def test_wrong_side_is_403(client: TestClient) -> None:
    g = new_game(client, mode="remote", side="german")
    gid, german = g["id"], g["token"]
    soviet = g["links"]["soviet"].split("#t=")[1]
    v = view(client, gid)
    assert v["to_move"] == "soviet"
    r = act(client, gid, german, "setup standard", seen=v["version"])
    assert r.status_code == 403 and "Soviet player's decision" in r.json()["error"]
    assert r.json()["state"]["version"] == v["version"]
    for bad in (None, "not-a-token"):
        r = act(client, gid, bad, "setup standard", seen=v["version"])
        assert r.status_code == 403 and "cannot play" in r.json()["error"]
    # A token that is not ASCII is just a wrong token (compared as bytes, in constant time).
    r = client.post(
        f"/api/games/{gid}/actions?token=%C3%A9t%C3%A9", json={"action": "end", "seen": v["version"]}
    )
    assert r.status_code == 403 and "cannot play" in r.json()["error"]
    r = client.get(f"/api/games/{gid}", headers={"X-Typhoon-Token": "\xe9t\xe9".encode()})
    assert r.status_code == 200 and r.json()["you"] == []
    body = json.dumps({"action": "end", "seen": v["version"], "token": "\ud800"})  # a lone surrogate
    r = client.post(f"/api/games/{gid}/actions", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 403 and "cannot play" in r.json()["error"]
    assert view(client, gid)["version"] == v["version"]
    assert act(client, gid, soviet, "setup standard", seen=v["version"]).status_code == 200
    # Now the German sets up; the Soviet link may not play for him.
    v = view(client, gid)
    r = act(client, gid, soviet, "setup standard", seen=v["version"])
    assert r.status_code == 403 and "German player's decision" in r.json()["error"]


def test_the_ai_side_cannot_be_played_by_a_link(client: TestClient) -> None:
    g = new_game(client, mode="ai", side="german", level="random", seed=4)
    gid = g["id"]
    store = client.app.state.store  # type: ignore[attr-defined]
    ai_token = store.get(gid).tokens["soviet"]
    v = view(client, gid)
    r = act(client, gid, ai_token, "setup standard", seen=v["version"])
    assert r.status_code == 403 and "AI" in r.json()["error"]


def test_stale_position_is_409_with_the_current_one(client: TestClient) -> None:
    gid, tok = hotseat_started(client)
    v = view(client, gid)
    mv = first_move(client, gid)
    assert act(client, gid, tok, mv["text"], seen=v["version"]).status_code == 200
    # A second tab that still shows the old position tries to play.
    r = client.post(
        f"/api/games/{gid}/actions",
        json={"action": "end", "seen": v["version"], "svg": True},
        headers={"X-Typhoon-Token": tok},
    )
    assert r.status_code == 409
    body = r.json()
    assert "moved on" in body["error"]
    assert body["state"]["version"] == v["version"] + 1 and body["state"]["svg"].startswith("<svg")
    assert view(client, gid)["version"] == v["version"] + 1


def test_the_token_may_come_in_the_body_or_the_query(client: TestClient) -> None:
    gid, tok = hotseat_started(client)
    v = view(client, gid)
    mv = first_move(client, gid)
    r = client.post(
        f"/api/games/{gid}/actions", json={"action": mv["text"], "seen": v["version"], "token": tok}
    )
    assert r.status_code == 200
    r = client.post(f"/api/games/{gid}/actions?token={tok}", json={"action": "end", "seen": v["version"] + 1})
    assert r.status_code == 200


def test_a_finished_game_refuses_actions(client: TestClient) -> None:
    game = play_game([make_player("random", 1), make_player("random", 2)], seed=5)
    assert game.is_over
    r = client.post(
        "/api/records", content=Record.from_game(game).to_text(), headers={"Content-Type": "text/plain"}
    )
    assert r.status_code == 201, r.text
    up = r.json()
    v = view(client, up["id"], up["token"])
    assert v["result"] == game.result and v["result_text"]
    r = act(client, up["id"], up["token"], "end", seen=v["version"])
    assert r.status_code == 422 and "over" in r.json()["error"]
    assert view(client, up["id"])["version"] == v["version"]


# -- undo --------------------------------------------------------------------------------------


def test_undo_within_a_phase(client: TestClient) -> None:
    gid, tok = hotseat_started(client)
    v0 = view(client, gid, tok)
    # Issue 15: the German set-up, a phase ago, can still be taken back: no die since.
    assert v0["can_undo"]
    mv = first_move(client, gid)
    v1 = act(client, gid, tok, mv["text"], seen=v0["version"]).json()["state"]
    assert v1["can_undo"]
    r = client.post(f"/api/games/{gid}/undo", json={"seen": v0["version"]}, headers={"X-Typhoon-Token": tok})
    assert r.status_code == 409  # stale
    r = client.post(f"/api/games/{gid}/undo", json={"seen": v1["version"]})
    assert r.status_code == 403  # no token
    r = client.post(f"/api/games/{gid}/undo", json={"seen": v1["version"]}, headers={"X-Typhoon-Token": tok})
    assert r.status_code == 200 and r.json()["undone"] == mv["text"]
    v2 = r.json()["state"]
    assert v2["version"] == v1["version"] + 1 and v2["actions"] == v0["actions"]
    assert v2["units"] == v0["units"]
    # The undone action is gone from the stored record too.
    assert mv["text"] not in client.get(f"/api/games/{gid}/record").text


def test_undo_never_crosses_a_die_roll_nor_the_other_side(client: TestClient) -> None:
    g = new_game(client, mode="remote", side="german")
    gid, german = g["id"], g["token"]
    soviet = g["links"]["soviet"].split("#t=")[1]
    assert act(client, gid, soviet, "setup standard").status_code == 200
    v = view(client, gid, soviet)
    assert not v["can_undo"]  # the German is to move now; the last decision was the Soviet's... in set-up
    assert act(client, gid, german, "setup standard", "end").status_code == 200
    # German combat phase: declare one attack, then fight it (a die is rolled).
    legal = client.get(f"/api/games/{gid}/legal").json()["actions"]
    atk = next(a for a in legal if a["kind"] == "attack")
    v = act(client, gid, german, atk["text"]).json()["state"]
    assert v["can_undo"]
    assert not view(client, gid, soviet)["can_undo"]
    r = client.post(
        f"/api/games/{gid}/undo", json={"seen": v["version"]}, headers={"X-Typhoon-Token": soviet}
    )
    assert r.status_code == 403
    out = act(client, gid, german, "end").json()
    assert any(e["actor"] == "chance" for e in out["log"])  # the die was rolled
    v = out["state"]
    assert v["to_move"] == "german" and v["log"][-1]["actor"] == "chance"
    assert not v["can_undo"]
    r = client.post(
        f"/api/games/{gid}/undo", json={"seen": v["version"]}, headers={"X-Typhoon-Token": german}
    )
    assert r.status_code == 422


# -- preview, legal actions --------------------------------------------------------------------


def test_combat_preview(client: TestClient) -> None:
    gid, tok = hotseat_started(client)
    act(client, gid, tok, "end")
    legal = client.get(f"/api/games/{gid}/legal").json()["actions"]
    atk = next(a for a in legal if a["kind"] == "attack")
    attackers = sorted({a["unit"] for a in legal if a["kind"] == "attack" and a["target"] == atk["target"]})
    r = client.get(
        f"/api/games/{gid}/preview", params={"target": atk["target"], "attackers": ",".join(attackers)}
    )
    assert r.status_code == 200, r.text
    p = r.json()
    assert p["defender"] and p["attackers"] == attackers and "against" in p["odds_text"]
    assert abs(sum(p["results"].values()) - 1.0) < 1e-9 or p["no_effect"]
    assert len(p["by_die"]) == 6
    r = client.get(f"/api/games/{gid}/preview", params={"attackers": "XXIV"})
    assert r.status_code == 400
    r = client.get(f"/api/games/{gid}/preview", params={"target": "1410", "attackers": "XXIV"})
    assert r.status_code == 422
    r = client.get(f"/api/games/{gid}/preview", params={"target": atk["target"], "attackers": "NOPE"})
    assert r.status_code == 422


# -- records -----------------------------------------------------------------------------------


def test_record_download_and_upload_round_trip(client: TestClient) -> None:
    gid, tok = hotseat_started(client)
    mv = first_move(client, gid)
    act(client, gid, tok, mv["text"])
    r = client.get(f"/api/games/{gid}/record")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    text = r.text
    assert "[Seed" not in text  # the dice still to come stay secret while the game runs
    assert Record.from_text(text).replay().position() == _position(client, gid)
    for how in ("text", "multipart", "json"):
        if how == "text":
            r = client.post(
                "/api/records?mode=remote&side=soviet", content=text, headers={"Content-Type": "text/plain"}
            )
        elif how == "multipart":
            r = client.post(
                "/api/records",
                files={"file": ("game.txt", text.encode(), "text/plain")},
                data={"mode": "hotseat"},
            )
        else:
            r = client.post(
                "/api/records", json={"record": text, "mode": "ai", "side": "german", "level": "random"}
            )
        assert r.status_code == 201, r.text
        up = r.json()
        assert _position(client, up["id"]) == _position(client, gid)
    assert up["ai"] == {"soviet": "random"}


def _position(client: TestClient, gid: str) -> str:
    rec = client.get(f"/api/games/{gid}/record").text
    return str(Record.from_text(rec).replay().position())


def _good_record() -> str:
    g = Game(seed=9)
    g.play_text("setup standard")
    g.play_text("setup standard")
    return str(Record.from_game(g).to_text())


@pytest.mark.parametrize(
    ("payload", "words"),
    [
        (b"hello world", "cannot be loaded"),
        (b"", "empty"),
        (b"\xff\xfe\x00garbage", "not UTF-8"),
        (_good_record().replace("2. G setup standard", "2. G move XXIV 0409-1410").encode(), "line"),
        (_good_record().replace("2. G setup standard", "2. S setup standard").encode(), "decision"),
        (_good_record().replace('[Result "*"]', '[Result "german"]').encode(), "claims result"),
        (_good_record().replace("1. S setup standard", "1. S fly away").encode(), "cannot read"),
        (_good_record().replace('[Edition "gdw1986"]', '[Edition "nope"]').encode(), "cannot start"),
        (b"x" * 5_000_001, "larger than"),
    ],
)
def test_bad_uploads_are_refused_and_change_nothing(client: TestClient, payload: bytes, words: str) -> None:
    before = client.get("/api/games").json()["games"]
    r = client.post("/api/records", content=payload, headers={"Content-Type": "text/plain"})
    assert r.status_code == 400, r.text
    assert words in r.json()["error"]
    r = client.post("/api/records", files={"file": ("bad.txt", payload, "text/plain")})
    assert r.status_code == 400
    assert client.get("/api/games").json()["games"] == before


def test_oversized_bodies_are_refused_before_they_are_read(client: TestClient) -> None:
    gid, tok = hotseat_started(client)
    before = view(client, gid)["version"]
    big = json.dumps({"action": "end", "seen": before, "pad": "x" * 70_000})
    r = client.post(f"/api/games/{gid}/actions", content=big, headers={"X-Typhoon-Token": tok})
    assert r.status_code == 400 and "larger than" in r.json()["error"]
    # Sent in chunks (no Content-Length): refused as soon as it passes the limit.
    chunks = (c.encode() for c in (big[i : i + 8192] for i in range(0, len(big), 8192)))
    r = client.post(f"/api/games/{gid}/actions", content=chunks, headers={"X-Typhoon-Token": tok})
    assert r.status_code == 400 and "larger than" in r.json()["error"]
    r = client.post("/api/records", files={"file": ("big.txt", b"x" * 5_100_000, "text/plain")})
    assert r.status_code == 400 and "larger than" in r.json()["error"]
    r = client.post("/api/records", json={"record": "x" * 5_000_001})
    assert r.status_code == 400 and "larger than" in r.json()["error"]
    assert view(client, gid)["version"] == before


def test_a_record_with_an_impossible_seed_or_a_huge_bad_line(client: TestClient) -> None:
    before = client.get("/api/games").json()["games"]
    text = _good_record().replace('[Seed "9"]', '[Seed "99999999999999999999999"]')
    r = client.post("/api/records", content=text, headers={"Content-Type": "text/plain"})
    assert r.status_code == 400 and "seed" in r.json()["error"]
    text = _good_record().replace("2. G setup standard", "2. G " + "x" * 100_000)
    r = client.post("/api/records", content=text, headers={"Content-Type": "text/plain"})
    assert r.status_code == 400 and "line 9" in r.json()["error"]
    assert len(r.json()["error"]) <= 2000  # the bad line is quoted, not echoed whole
    assert client.get("/api/games").json()["games"] == before


def test_a_server_fault_is_logged_not_shown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        app = create_app(tmp_path / "data")
        with TestClient(app, raise_server_exceptions=False) as c:

            def broken(limit: int = 50) -> Any:
                raise RuntimeError("/secret/path/typhoon.sqlite3 is locked")

            monkeypatch.setattr(app.state.service, "list_games", broken)
            r = c.get("/api/games")
    assert r.status_code == 500 and r.json()["status"] == 500
    assert "secret" not in r.text and "Traceback" not in r.text


def test_malformed_upload_requests(client: TestClient) -> None:
    r = client.post("/api/records", files={"other": ("x.txt", b"1", "text/plain")})
    assert r.status_code == 400 and "'file'" in r.json()["error"]
    r = client.post("/api/records", json={"text": "x"})
    assert r.status_code == 400 and "'record'" in r.json()["error"]
    r = client.post("/api/records", content=b"{bad", headers={"Content-Type": "application/json"})
    assert r.status_code == 400
    r = client.post("/api/records", json={"record": _good_record(), "mode": "bogus"})
    assert r.status_code == 400 and "mode" in r.json()["error"]
    r = client.post(
        "/api/records",
        files=[("file", ("a.txt", b"1", "text/plain")), ("file", ("b.txt", b"2", "text/plain"))],
    )
    assert r.status_code == 400 and "cannot read the uploaded form" in r.json()["error"]
    r = client.post("/api/records", content=b"--x", headers={"Content-Type": "multipart/form-data"})
    assert r.status_code == 400 and "cannot read the uploaded form" in r.json()["error"]


# -- replay ------------------------------------------------------------------------------------


def test_replay_steps_through_the_game(client: TestClient) -> None:
    gid, tok = hotseat_started(client)
    act(client, gid, tok, "end")
    total = view(client, gid)["actions"]
    r0 = client.get(f"/api/games/{gid}/replay", params={"step": 0}).json()
    assert r0["step"] == 0 and r0["entry"] is None and r0["total"] == total
    assert r0["state"]["turn"] == 0 and all(u["hex"] is None for u in r0["state"]["units"])
    r1 = client.get(f"/api/games/{gid}/replay", params={"step": 1}).json()
    assert r1["entry"]["n"] == 1 and r1["entry"]["action"] == "setup standard"
    last = client.get(f"/api/games/{gid}/replay").json()
    assert last["step"] == total and last["state"]["phase"] == view(client, gid)["phase"]
    assert [t["turn"] for t in last["turns"]] == [0, 1]
    assert client.get(f"/api/games/{gid}/replay", params={"step": 10_000}).json()["step"] == total
    assert client.get(f"/api/games/{gid}/replay", params={"step": "x"}).status_code == 400
    svg = client.get(f"/api/games/{gid}/map.svg", params={"step": 1})
    assert svg.headers["content-type"].startswith("image/svg+xml") and b"<svg" in svg.content
    log = client.get(f"/api/games/{gid}/log").json()["log"]
    assert len(log) == total


# -- waiting, the AI, restarts -----------------------------------------------------------------


def test_long_poll_waits_for_a_change(client: TestClient) -> None:
    gid, _ = hotseat_started(client)
    v = view(client, gid)
    t = time.monotonic()
    assert view(client, gid, after=v["version"] - 1, wait=5)["version"] == v["version"]
    assert time.monotonic() - t < 2
    t = time.monotonic()
    assert view(client, gid, after=v["version"], wait=1)["version"] == v["version"]
    assert time.monotonic() - t >= 0.9


def test_the_ai_replies_and_explains(client: TestClient) -> None:
    g = new_game(client, mode="ai", side="soviet", level="random", seed=8)
    gid, tok = g["id"], g["token"]
    v = view(client, gid, tok, legal=1)
    assert v["your_turn"] and v["to_move"] == "soviet"
    act(client, gid, tok, "setup standard", seen=v["version"])
    # The AI sets up the German side and plays its whole first turn; then the Soviet decides.
    v = wait_for(lambda: (x := view(client, gid, tok)) and x["your_turn"] and x["turn"] == 1 and x)
    german = [e for e in v["log"] if e["actor"] == "german"]
    assert german and all(e.get("explanation") for e in german)
    assert v["phase"]["side"] == "soviet" or v["to_move"] == "soviet"


def test_an_ai_failure_is_reported_not_fatal(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken:
        name = "broken"

        def choose(self, state: Any, actions: Any) -> Any:
            raise RuntimeError("boom")

    monkeypatch.setitem(LEVELS, "broken", lambda seed: Broken())
    g = new_game(client, mode="ai", side="german", level="broken")
    v = wait_for(lambda: (x := view(client, g["id"], g["token"])) and x["ai_error"] and x)
    assert "boom" in v["ai_error"] and v["version"] == 0
    assert client.get("/api/meta").status_code == 200


def test_a_restarted_server_resumes_every_game(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        with TestClient(create_app(data)) as c:
            gid, tok = hotseat_started(c)
            act(c, gid, tok, first_move(c, gid)["text"])
            before = view(c, gid, tok)
            ai = new_game(c, mode="remote", side="german")
            act(c, ai["id"], ai["links"]["soviet"].split("#t=")[1], "setup standard")
        # While the server is down, hand the German side of the second game to the AI.
        db = sqlite3.connect(data / "typhoon.sqlite3")
        db.execute("UPDATE games SET mode = 'ai', ai = ? WHERE id = ?", ('{"german": "random"}', ai["id"]))
        db.commit()
        db.close()
        with TestClient(create_app(data)) as c:
            after = view(c, gid, tok)
            assert after["version"] == before["version"] and after["units"] == before["units"]
            assert after["log"] == before["log"]
            # The AI took over the German side at start-up and played until the Soviet's turn.
            v = wait_for(
                lambda: (x := view(c, ai["id"])) and x["to_move"] == "soviet" and x["turn"] >= 1 and x
            )
            assert v["actions"] > 13


def test_pages_and_client_files_are_served(client: TestClient) -> None:
    for path, words in (("/", "New game"), ("/g/anything", 'id="board"'), ("/static/board.js", "legal")):
        r = client.get(path)
        assert r.status_code == 200 and words in r.text
        assert r.headers["cache-control"] == "no-cache"
    assert client.get("/static/lobby.js").status_code == 200
    assert "TyphoonUI" in client.get("/static/common.js").text
    for page in ("/", "/g/anything"):  # both pages load the shared helpers first
        html = client.get(page).text
        assert html.index("/static/common.js") < html.index("/static/", html.index("/static/common.js") + 1)
    assert client.get("/static/style.css").status_code == 200
    assert client.get("/static/nothing.js").status_code == 404
    assert client.get("/healthz").json() == {"ok": True}


def test_serve_is_a_cli_command(capsys: pytest.CaptureFixture[str]) -> None:
    from typhoon.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["serve", "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert "--port" in out and "--data" in out and "--host" in out


def test_no_file_of_the_web_layer_names_a_game() -> None:
    """Issue 11: one client page plays every game from its views; no file of typhoon/web (the
    static client included) names a game by key, title or edition key."""
    from typhoon.games import game_keys, game_module

    web = Path(__file__).resolve().parents[1] / "src" / "typhoon" / "web"
    names: set[str] = set()
    for key in set(game_keys()) | {"ma", "mockba"}:
        names.add(rf"\b{key}\b")
    for key in game_keys():
        mod = game_module(key)
        names.add(re.escape(mod.title))
        names.update(re.escape(ed) for ed in mod.editions() if re.search(r"[a-z]\d", ed))
    names |= {"Moscow Campaign", "Battle for Moscow", "Moscow Attacked"}
    found = [
        f"{p.relative_to(web)}: {m.group(0)!r}"
        for p in sorted(web.rglob("*"))
        if p.is_file() and p.suffix in (".py", ".js", ".html", ".css")
        for n in names
        for m in [re.search(n, p.read_text(encoding="utf-8"), re.IGNORECASE)]
        if m
    ]
    assert found == []
    assert not (web / "static" / "game.js").exists() and not (web / "static" / "tmc.js").exists()
