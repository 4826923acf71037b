"""Messages between the players of a remote game (issue 15: "a way to leave a short message for
the opponent"): POST /api/games/{id}/messages with a player's secret link; stored with the game;
the version moves on, so the opponent's next poll shows it; typed 4xx errors for bad input."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from typhoon.web.app import create_app
from webapi import act, new_game, view


def post(c: Any, gid: str, token: str | None, body: Any) -> Any:
    headers = {"X-Typhoon-Token": token} if token else {}
    return c.post(f"/api/games/{gid}/messages", json=body, headers=headers)


def remote(c: Any) -> tuple[str, str, str]:
    g = new_game(c, mode="remote", side="german")
    return g["id"], g["token"], g["links"]["soviet"].split("#t=")[1]


def test_a_message_reaches_the_opponent_and_is_stored(client: Any, tmp_path: Path) -> None:
    gid, german, soviet = remote(client)
    v0 = view(client, gid, soviet)
    assert v0["messages"] == []
    text = "<b>Good luck</b> & have fun"
    r = post(client, gid, german, {"text": f"  {text} "})
    assert r.status_code == 200, r.text
    assert r.json()["version"] == v0["version"] + 1
    # The opponent's long poll after the version it saw wakes with the message (plain text as sent).
    r = client.get(
        f"/api/games/{gid}", params={"after": v0["version"], "wait": 5}, headers={"X-Typhoon-Token": soviet}
    )
    assert r.status_code == 200
    assert [(m["side"], m["text"]) for m in r.json()["messages"]] == [("german", text)]
    # A spectator (no token) sees no messages; the game plays on from the new version.
    assert "messages" not in view(client, gid)
    assert act(client, gid, soviet, "setup standard").status_code == 200
    # Stored with the game: a new server on the same data reads it back.
    from starlette.testclient import TestClient

    with TestClient(create_app(tmp_path / "data")) as c2:
        assert [m["text"] for m in view(c2, gid, german)["messages"]] == [text]


def test_bad_messages_are_typed_4xx_and_change_nothing(client: Any) -> None:
    gid, german, soviet = remote(client)
    before = view(client, gid)["version"]
    cases = [
        (german, {"text": ""}, 400, "empty"),
        (german, {"text": "   "}, 400, "empty"),
        (german, {"text": 5}, 400, "a string"),
        (german, {}, 400, "a string"),
        (german, {"text": "x" * 501}, 400, "at most 500"),
        (german, {"text": "bell\x07"}, 400, "control"),
        (None, {"text": "hi"}, 403, "secret link"),
        ("wrong-token", {"text": "hi"}, 403, "secret link"),
    ]
    for token, body, status, words in cases:
        r = post(client, gid, token, body)
        assert r.status_code == status and words in r.json()["error"], (body, r.text)
    r = client.post(f"/api/games/{gid}/messages", content=b"hi", headers={"X-Typhoon-Token": german})
    assert r.status_code == 415
    assert post(client, "nosuchgame", german, {"text": "hi"}).status_code == 404
    hot = new_game(client, mode="hotseat")
    r = post(client, hot["id"], hot["token"], {"text": "hi"})
    assert r.status_code == 422 and "remote games" in r.json()["error"]
    assert view(client, gid)["version"] == before
    assert view(client, gid, soviet)["messages"] == []
