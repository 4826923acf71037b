"""The web API with The Moscow Campaign (issue 6 part 5, front ends): creating a game for a
scenario, the state JSON and SVG (marked RECONSTRUCTION, with the counters), legal actions,
playing, refusals, bad scenario numbers, undo, the AI, and the record download replaying.
Starlette's TestClient, no network."""

from __future__ import annotations

import time
import warnings
from typing import Any

import pytest

from typhoon.record import Record

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from webapi import act, new_game, view


def new_tmc(c: TestClient, scenario: str = "1", **body: Any) -> dict[str, Any]:
    return new_game(c, **{"game": "tmc", "edition": scenario, "mode": "hotseat", "seed": 7, **body})


def set_up(c: TestClient, scenario: str = "1") -> tuple[str, str]:
    g = new_tmc(c, scenario)
    r = act(c, g["id"], g["token"], "setup standard", "setup standard")
    assert r.status_code == 200, r.text
    return g["id"], g["token"]


def test_create_a_scenario_and_read_its_state(client: TestClient) -> None:
    g = new_tmc(client, "15")
    v = view(client, g["id"], g["token"])
    assert v["game"] == "tmc" and v["edition"] == "15"
    assert v["scenario"]["first_turn"] == 16 and v["scenario"]["last_turn"] == 23
    assert v["scenario"]["start_line"] == "november"
    assert v["reconstruction"].startswith("RECONSTRUCTION")
    assert v["phase"]["key"] == "setup_soviet" and v["to_move"] == "soviet"
    assert "VP German 0, Soviet 0" in v["status"] and "TMC scenario 15" in v["status"]
    assert v["your_turn"] is True
    # The lobby's catalogue offers the 24 scenarios with their titles and start lines.
    meta = client.get("/api/meta").json()
    tmc = next(x for x in meta["games"] if x["key"] == "tmc")
    assert len(tmc["editions"]) == 24
    assert tmc["editions"][14]["title"].startswith("15: The November offensive, GT 16-23")
    assert "november start line" in tmc["editions"][14]["title"]
    assert tmc["reconstruction"].startswith("RECONSTRUCTION")


@pytest.mark.parametrize("bad", ["0", "25", "abc", "1.5"])
def test_a_bad_scenario_number_is_a_400(client: TestClient, bad: str) -> None:
    r = client.post("/api/games", json={"game": "tmc", "edition": bad, "mode": "hotseat"})
    assert r.status_code == 400
    assert "1..24" in r.json()["error"]


def test_svg_is_marked_reconstruction_and_holds_the_counters(client: TestClient) -> None:
    gid, token = set_up(client)
    v = view(client, gid, token, svg=1)
    svg = v["svg"]
    assert svg.startswith("<svg") and 'class="tmc-map"' in svg
    assert "RECONSTRUCTION" in svg
    assert 'data-unit="G1Pz" data-hex="1420"' in svg  # the 1st Panzer Division on its start hex
    assert ">6-10</text>" in svg  # its CF-MA
    assert "(1)-4" in svg  # a Soviet EB unit's parenthesised CF
    assert svg.count('class="unit ') == sum(1 for u in v["units"] if u["hex"])
    # The same counters come alone in the view's layer (the browser swaps it into <g id="layer">).
    assert 'data-unit="G1Pz"' in v["layer"] and "RECONSTRUCTION" not in v["layer"]
    assert '<g id="layer">' in svg and 'data-grid="columns"' in svg
    r = client.get(f"/api/games/{gid}/map.svg")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert "RECONSTRUCTION" in r.text
    # The one game page plays it, and the view carries the reconstruction notice it shows.
    page = client.get(f"/g/{gid}")
    assert page.status_code == 200 and "/static/board.js" in page.text and 'id="notice"' in page.text
    assert "RECONSTRUCTION" in v["notice"]


def test_legal_actions_play_a_move_and_undo(client: TestClient) -> None:
    gid, token = set_up(client)
    legal = client.get(f"/api/games/{gid}/legal").json()
    moves = [a for a in legal["actions"] if a["kind"] == "move" and a["unit"] == "G1Pz"]
    assert {
        "text": "move G1Pz 1420-0516",
        "unit": "G1Pz",
        "src": "1420",
        "dst": "0516",
        "kind": "move",
        # what the one browser client reads (games/frontends.py): the unit that acts, the hexes
        "units": ["G1Pz"],
        "hexes": ["1420", "0516"],
        "label": "Move G1Pz 6-10 1420 \u2192 0516",
    } in moves
    assert any(a["kind"] == "end" for a in legal["actions"])
    r = act(client, gid, token, "move G1Pz 1420-0516")
    assert r.status_code == 200, r.text
    st = r.json()["state"]
    g1 = next(u for u in st["units"] if u["id"] == "G1Pz")
    assert g1["hex"] == "0516" and g1["moved"] is True
    assert 'data-unit="G1Pz" data-hex="0516"' in st["layer"]
    assert r.json()["log"][0]["events"][0]["text"] == "1st Panzer Division moves 1420 to 0516."
    r = client.post(
        f"/api/games/{gid}/undo", json={"seen": st["version"]}, headers={"X-Typhoon-Token": token}
    )
    assert r.status_code == 200 and r.json()["undone"] == "move G1Pz 1420-0516"
    assert next(u for u in r.json()["state"]["units"] if u["id"] == "G1Pz")["hex"] == "1420"


def test_illegal_and_malformed_actions_are_422_with_the_reason(client: TestClient) -> None:
    gid, token = set_up(client)
    before = view(client, gid)["version"]
    r = act(client, gid, token, "move G1Pz 1420-3040")
    assert r.status_code == 422
    assert r.json()["error"] == "illegal action 'move G1Pz 1420-3040': G1Pz cannot reach 3040"
    r = act(client, gid, token, "move G1Pz 14")
    assert r.status_code == 422 and "cannot read the action" in r.json()["error"]
    r = act(client, gid, token, "attack 1521 with G1Pz")
    assert r.status_code == 422 and "not possible in a movement phase" in r.json()["error"]
    assert view(client, gid)["version"] == before  # nothing changed
    # The odds preview is for attacks being declared (issue 15): outside a combat phase, said plainly.
    r = client.get(f"/api/games/{gid}/preview", params={"target": "1521"})
    assert r.status_code == 422 and "while they are being declared" in r.json()["error"]


def test_hex_words(client: TestClient) -> None:
    gid, _ = set_up(client)
    r = client.get(f"/api/games/{gid}/hex", params={"hex": "5622"})
    assert r.status_code == 200
    assert r.json()["words"].startswith("5622 clear, Moscow")
    r = client.get(f"/api/games/{gid}/hex", params={"hex": "9999"})
    assert r.status_code == 400 and "not a hex" in r.json()["error"]


def test_the_record_download_replays_to_the_same_position(client: TestClient) -> None:
    gid, token = set_up(client)
    assert act(client, gid, token, "move G1Pz 1420-0516", "end").status_code == 200
    text = client.get(f"/api/games/{gid}/record").text
    assert text.startswith('[Game "tmc"]\n[Edition "1"]')
    game = Record.from_text(text).replay()
    v = view(client, gid)
    assert game.edition == "1" and game.state.phase_spec.key == v["phase"]["key"]
    hexes = {u["id"]: u["hex"] for u in v["units"]}
    ids = game.state.rules.grid.ids
    for u in game.state.rules.units:
        h = game.state.loc[u.index]
        assert hexes.get(u.id) == (ids[h] if h >= 0 else None)


def test_against_the_ai_the_soviet_side_sets_up_by_itself(client: TestClient) -> None:
    g = client.post(
        "/api/games",
        json={"game": "tmc", "edition": "1", "mode": "ai", "side": "german", "level": "random", "seed": 3},
    ).json()
    deadline = time.monotonic() + 30
    v = view(client, g["id"], g["token"])
    while not v["your_turn"] and time.monotonic() < deadline:
        time.sleep(0.05)
        v = view(client, g["id"], g["token"])
    assert v["your_turn"] and v["phase"]["key"] == "setup_german"
    assert v["ai"] == {"soviet": "random"}
    assert sum(1 for u in v["units"] if u["side"] == "soviet" and u["hex"]) > 50
    # The German human cannot play for the AI's side.
    r = client.post(
        f"/api/games/{g['id']}/actions",
        json={"action": "setup standard", "seen": v["version"]},
        headers={"X-Typhoon-Token": "wrong"},
    )
    assert r.status_code == 403


def test_replay_steps_and_uploading_a_record(client: TestClient) -> None:
    gid, token = set_up(client)
    assert act(client, gid, token, "move G1Pz 1420-0516").status_code == 200
    r = client.get(f"/api/games/{gid}/replay", params={"step": 2}).json()
    assert r["step"] == 2 and r["total"] == 3
    assert [t["label"] for t in r["turns"]] == ["set-up", "GT 1"]
    assert next(u for u in r["state"]["units"] if u["id"] == "G1Pz")["hex"] == "1420"
    assert "RECONSTRUCTION" in r["svg"]
    text = client.get(f"/api/games/{gid}/record").text
    up = client.post("/api/records", json={"record": text, "mode": "hotseat"})
    assert up.status_code == 201, up.text
    v = view(client, up.json()["id"])
    assert v["game"] == "tmc" and v["actions"] == 3
    assert next(u for u in v["units"] if u["id"] == "G1Pz")["hex"] == "0516"


def test_odds_choice_lists_the_computed_odds_first_then_highest_first() -> None:
    """Issue 15 (The Moscow Campaign's combat): the computed odds come first and are marked
    ``primary``, the lower columns follow highest first, and the prompt names the battle."""
    from typhoon.games.tmc import webview
    from typhoon.games.tmc.actions import Odds
    from typhoon.games.tmc.engine import new_game

    state = new_game("1")
    cols = ["1-2", "1-1", "11-1", "2-1", "5-1", "3-2"]
    lv = webview.legal_view(state, [Odds(c) for c in cols], lambda a: f"odds {a.column}")
    shown = [d["column"] for d in lv["actions"] if d["kind"] == "odds"]
    assert shown == ["11-1", "5-1", "2-1", "3-2", "1-1", "1-2"]
    assert lv["actions"][0]["primary"] is True
    assert [d for d in lv["actions"] if d.get("primary")] == [lv["actions"][0]]
    assert "(the computed odds)" in lv["actions"][0]["label"]
    # The prompt says which battle is being resolved.
    from typhoon.games.tmc.state import Battle

    state.combat = Battle(hexes=(0,), attackers=(0,), defenders=(), side=0, stage=0)
    prompt = webview.legal_view(state, [Odds("1-1")], lambda a: "odds 1-1")["prompt"]
    r = state.rules
    assert f"on {r.grid.ids[0]} by {r.units[0].id}" in prompt
