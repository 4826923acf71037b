"""Deleting a saved game (issue 15: "the lobby has ... no way to delete a game"):
``DELETE /api/games/ID`` with the secret link's token. Only the link that made the game may:
the hot seat's link, the human's link of a game against the computer, the creator's link of a
remote game (never the opponent's, never a spectator). Unknown ids get 404, refused deletions
403, and a refused deletion changes nothing."""

from __future__ import annotations

from typing import Any

from webapi import new_game, view


def delete(c: Any, gid: str, token: str | None) -> Any:
    return c.delete(f"/api/games/{gid}", headers={"X-Typhoon-Token": token} if token else {})


def listed(c: Any) -> set[str]:
    return {g["id"] for g in c.get("/api/games").json()["games"]}


def test_the_hot_seat_link_deletes_its_game_and_everything_goes(client: Any) -> None:
    g = new_game(client, mode="hotseat", seed=3)
    other = new_game(client, mode="hotseat", seed=4)
    assert g["id"] in listed(client)
    r = delete(client, g["id"], g["token"])
    assert r.status_code == 200 and r.json() == {"deleted": g["id"]}
    assert g["id"] not in listed(client) and other["id"] in listed(client)
    for path in ("", "/legal", "/record", "/log"):
        assert client.get(f"/api/games/{g['id']}{path}").status_code == 404
    # Deleting it again: 404, typed.
    again = delete(client, g["id"], g["token"])
    assert again.status_code == 404 and "no game" in again.json()["error"]
    # The other game is untouched.
    assert view(client, other["id"])["actions"] == 0


def test_unknown_ids_and_missing_or_wrong_tokens_are_refused(client: Any) -> None:
    g = new_game(client, mode="hotseat", seed=3)
    unknown = delete(client, "nosuchgame", g["token"])
    assert unknown.status_code == 404 and "error" in unknown.json()
    for token in (None, "not-a-token", new_game(client, mode="hotseat")["token"]):
        r = delete(client, g["id"], token)
        assert r.status_code == 403, (token, r.text)
        assert "error" in r.json()
    assert g["id"] in listed(client)


def test_against_the_computer_only_the_players_link_deletes(client: Any) -> None:
    g = new_game(client, mode="ai", side="german", level="random", seed=5)
    assert delete(client, g["id"], None).status_code == 403
    assert delete(client, g["id"], g["token"]).status_code == 200
    assert g["id"] not in listed(client)


def test_a_remote_game_is_deleted_by_its_creators_link_only(client: Any) -> None:
    g = new_game(client, mode="remote", side="soviet")
    creator = g["token"]
    opponent = g["links"]["german"].split("#t=")[1]
    assert creator == g["links"]["soviet"].split("#t=")[1]
    r = delete(client, g["id"], opponent)
    assert r.status_code == 403 and "made this game" in r.json()["error"]
    assert g["id"] in listed(client)
    assert delete(client, g["id"], creator).status_code == 200
    assert g["id"] not in listed(client)
