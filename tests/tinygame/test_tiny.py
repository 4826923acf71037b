"""The tiny test game (issue 11 point 4) through every front end that is game-blind so far:
records and replay, the random player, every command of the command line, the web API (a
whole game played through it) and the lobby's catalogue; it is registered here only.

Terminal play too: the game-blind terminal session plays it from its kit alone (the kit names
no terminal class of its own).
"""

from __future__ import annotations

import io
import json
import re
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from tinygame import KEY, PACKAGE
from typhoon.cli import main
from typhoon.game import Game
from typhoon.games import game_keys, game_module, register_game, unregister_game
from typhoon.players import make_player
from typhoon.record import Record
from typhoon.selfplay import play_game
from typhoon.tui.session import Session, make_session

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from webapi import new_game, view


@pytest.fixture(autouse=True)
def tiny() -> Iterator[None]:
    register_game(KEY, "Tiny game", PACKAGE)
    yield
    unregister_game(KEY)


def test_it_is_registered_by_the_tests_only() -> None:
    assert KEY in game_keys()
    assert game_module(KEY).front_ends.edition_text("long") == "tiny long"


def test_random_games_replay_byte_identically() -> None:
    for seed in range(5):
        g = play_game([make_player("random", seed), make_player("random", seed + 1)], game=KEY, seed=seed)
        assert g.is_over and g.result in ("german", "soviet", "draw")
        text = Record.from_game(g).to_text()
        again = Record.from_text(text).replay()
        assert again.position() == g.position()
        assert Record.from_game(again).to_text() == text
        assert game_module(KEY).position_from_text(g.position()) == g.state


@pytest.mark.parametrize(
    "argv",
    [
        ["rules", "--game", KEY, "--edition", "long"],
        ["selfplay", "--game", KEY, "--edition", "long", "--games", "3", "--json"],
        ["match", "random", "random", "--game", KEY, "--games", "2", "--json"],
        ["soak", "--game", KEY, "--games", "4"],
        ["bench", "--game", KEY, "--games", "2", "--quick"],
    ],
)
def test_every_command_plays_it(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.strip()
    if "--json" in argv and argv[0] == "selfplay":
        assert json.loads(out)["game"] == KEY


def test_replay_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--game", KEY, "--games", "2", "--records", str(tmp_path)]) == 0
    assert main(["replay", str(tmp_path), "--game", KEY]) == 0
    assert "2 of 2 records replayed" in capsys.readouterr().out


def test_the_web_plays_it_to_the_end(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    assert KEY in [g["key"] for g in meta["games"]]
    g = new_game(client, game=KEY, mode="hotseat", seed=3)
    gid, token = g["id"], g["token"]
    for _ in range(100):
        v = view(client, gid, token, legal=1, svg=1)
        assert v["svg"].startswith("<svg")
        if v["result"] is not None:
            break
        text = v["legal"][0]["text"]
        r = client.post(
            f"/api/games/{gid}/actions",
            json={"actions": [text], "seen": v["version"]},
            headers={"X-Typhoon-Token": token},
        )
        assert r.status_code == 200, r.text
    assert v["result"] is not None and v["result_text"].startswith("Game over")
    assert client.get(f"/api/games/{gid}/hex", params={"hex": "0103"}).json()["hex"] == "0103"
    assert client.get(f"/api/games/{gid}/hex", params={"hex": "0909"}).status_code == 400
    assert (
        client.get(f"/api/games/{gid}/preview", params={"target": "0103", "attackers": "G1"}).status_code
        == 422
    )
    rec = Record.from_text(client.get(f"/api/games/{gid}/record").text)
    assert rec.game == KEY and rec.replay().result == v["result"]
    listed = client.get("/api/games").json()["games"]
    assert listed[0]["edition_text"] == "tiny standard"


def test_a_game_in_progress_is_a_game() -> None:
    g = Game(KEY, "long", seed=1)
    g.play_text("move G2 0103")
    assert not g.can_undo(0)  # every tiny action ends its phase: undo never crosses one
    assert g.state_at(0) == Game(KEY, "long", seed=1).state
    assert g.text(g.history[0].action) == "move G2 0103"


def test_terminal_play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("end\nquit\n"))
    assert main(["play", "--game", KEY, "--hotseat", "--no-color", "--automap", "off"]) == 0
    out = capsys.readouterr().out
    assert "Typhoon: Tiny game" in out and "German> end" in out and "Soviet> quit" in out
    assert "Traceback" not in out and "internal error" not in out


def _reply(out: str, line: str) -> str:
    """What the session wrote in answer to the (last) input ``line``, up to the next prompt."""
    rest = out[out.rindex(f"> {line}\n") + len(line) + 3 :]
    return rest[: re.search(r"^(German|Soviet|game over)> ", rest, re.M).start()]  # type: ignore[union-attr]


def test_a_scripted_terminal_game_to_the_end() -> None:
    """Issue 11 point 4: the game-blind session alone (no terminal module in tests/tinygame)
    answers every command from the kit and the notation, refuses what is wrong in one line,
    and plays the game to its end."""
    assert game_module(KEY).front_ends.terminal is None
    script = [
        "units soviet",
        "hex 0102",
        "hex 0909",
        "moves g2",
        "odds 0104 G2",
        "mvoe G2 0103",
        "roll 4",
        "move G2 0105",
        "help move",
        "move g2 0103",  # any case: the typed line matches a legal action's text
        *["end"] * 5,  # the other five phases of three turns
        "end",
        "log 1",
    ]
    out = io.StringIO()
    session = make_session(Game(KEY, seed=3), {0: None, 1: None}, out=out, automap="off")
    assert type(session) is Session
    assert session.run(io.StringIO("".join(c + "\n" for c in script))) == 0
    text = out.getvalue()
    assert "Traceback" not in text and "internal error" not in text
    assert _reply(text, "units soviet") == "Soviet units (2):\n  S1 in 0104\n  S2 in 0105\n"
    hex_reply = _reply(text, "hex 0102")
    assert hex_reply.startswith("0102: clear, G2 (german)\n") and "1. move G2 0103" in hex_reply
    one_line = {
        "hex 0909": "'0909' is not a hex of this map",
        "odds 0104 G2": "every attack in the tiny game succeeds on 4-6",
        "mvoe G2 0103": "Did you mean `move`?",
        "roll 4": "dice are rolled automatically",
        "move G2 0105": "is not legal here",
    }
    for line, words in one_line.items():
        reply = _reply(text, line)
        assert words in reply and len(reply.strip().splitlines()) == 1, (line, reply)
    assert "1. move G2 0103" in _reply(text, "moves g2")
    assert "possible now: move G2 0103" in _reply(text, "help move")
    assert "G2 moves to 0103." in _reply(text, "move g2 0103")
    assert "*** Game over after the last turn: draw. ***" in text
    assert "The game is over: a draw." in text
    assert "The game is over (a draw)" in _reply(text, "end")  # the last one: nothing to end
    assert session.game.is_over and session.game.result == "draw"
    assert [t for _, t in Record.from_game(session.game).actions] == ["move G2 0103"] + ["end"] * 5


def test_computers_play_it_to_the_end_in_the_terminal() -> None:
    out = io.StringIO()
    players = {0: make_player("random", 1), 1: make_player("random", 2)}
    session = make_session(Game(KEY, seed=4), players, out=out)
    assert session.run(io.StringIO("log 1\n")) == 0
    text = out.getvalue()
    assert session.game.is_over and "*** Game over" in text and "game over> log 1" in text
    assert "German (random): " in text and "Soviet (random): " in text
