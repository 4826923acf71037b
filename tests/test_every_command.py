"""Every command takes every registered game the same way (issue 11 point 5): ``--game KEY``
and the edition under the game's own word (``--scenario`` for The Moscow Campaign, an alias of
``--edition``). Each command runs in-process through ``typhoon.cli.main``, briefly.

Full random games of a long game take seconds each, so the commands that play whole games
(match, soak, bench) run on the default game here and on every game under ``slow``; selfplay
(whose --game was once lost on the way, issue 11 "Why") plays one whole game of every game.
"""

from __future__ import annotations

import io
import json
import random
import warnings
from pathlib import Path
from typing import Any

import pytest

from typhoon.cli import main
from typhoon.game import CHANCE, Game
from typhoon.games import DEFAULT_GAME, game_keys, game_module
from typhoon.record import Record

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

GAMES = game_keys()


def _edition(key: str) -> str:
    """An edition other than the default where the game has one (so the flag is seen to work)."""
    eds = list(game_module(key).editions())
    return eds[1] if len(eds) > 1 else eds[0]


def _flags(key: str) -> list[str]:
    """``--game KEY --<word> EDITION``, with the word the game declares."""
    m = game_module(key)
    return ["--game", key, f"--{m.edition_word}", _edition(key)]


def _slow_unless_default(key: str) -> Any:
    return pytest.param(key, marks=() if key == DEFAULT_GAME else pytest.mark.slow)


def test_every_game_has_a_word_for_its_editions() -> None:
    # The word is an option of every command (and the lobby's label): one that argparse
    # could not take would break them all.
    for key in GAMES:
        assert game_module(key).edition_word.isidentifier()


@pytest.mark.parametrize("key", GAMES)
def test_rules(key: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", *_flags(key)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(_edition(key))  # just the edition asked for
    assert main(["rules", "--game", key, "--edition", "no-such-edition"]) == 2
    assert "no-such-edition" in capsys.readouterr().err


@pytest.mark.parametrize("key", GAMES)
def test_selfplay(key: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`typhoon selfplay --game tmc --edition 1` once failed: selfplay never passed --game on."""
    argv = ["selfplay", *_flags(key), "--games", "1", "--seed", "3", "--json", "--records", str(tmp_path)]
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out)
    assert (summary["game"], summary["edition"], summary["games"]) == (key, _edition(key), 1)
    (path,) = tmp_path.iterdir()
    rec = Record.load(path)
    assert (rec.game, rec.edition) == (key, _edition(key))
    assert rec.result is not None  # a whole game


def _short_record(key: str, folder: Path, actions: int = 40) -> Path:
    """A record of the first ``actions`` random actions of a game (replay takes unfinished ones)."""
    rng = random.Random(4)
    g = Game(key, _edition(key), seed=4)
    while len(g.history) < actions and not g.is_over:
        if g.current_player() == CHANCE:
            g.roll()
        else:
            acts = g.legal_actions()
            g.play(acts[rng.randrange(len(acts))])
    path = folder / f"{key}.txt"
    Record.from_game(g).save(path)
    return path


@pytest.mark.parametrize("key", GAMES)
def test_replay(key: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(_short_record(key, tmp_path))
    assert main(["replay", path, *_flags(key)]) == 0
    assert ": ok (40 actions" in capsys.readouterr().out
    # A record of another game, or of another edition, fails when the command names one.
    for other in (k for k in GAMES if k != key):
        assert main(["replay", path, "--game", other]) == 1
        assert f"not of {other!r}" in capsys.readouterr().out
    assert main(["replay", path, "--game", key, "--edition", "no-such-edition"]) == 1
    assert "not of 'no-such-edition'" in capsys.readouterr().out


@pytest.mark.parametrize("key", GAMES)
def test_play(key: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", *_flags(key), "--hotseat", "--seed", "1", "--no-color", "--automap", "off"]) == 0
    out = capsys.readouterr().out
    assert "Leaving the game." in out
    notice = game_module(key).front_ends.notice
    if notice is not None:
        assert notice.split(":")[0] in out  # every front end shows the game's notice


@pytest.mark.parametrize("key", GAMES)
def test_serve(
    key: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`serve --game KEY --<word> E`: the lobby offers that game and edition first."""
    import uvicorn

    served: list[Any] = []

    def run(self: Any, sockets: Any = None) -> None:
        served.append(self.config.app)

    monkeypatch.setattr(uvicorn.Server, "run", run)
    # uvicorn's logging set-up binds handlers to the sys.stderr of the moment (here pytest's
    # capture file, closed after the test): not what this test is about.
    monkeypatch.setattr(uvicorn.Config, "configure_logging", lambda self: None)
    argv = ["serve", *_flags(key), "--port", "0", "--data", str(tmp_path)]
    assert main(argv) == 0
    assert "Typhoon is running at" in capsys.readouterr().out
    with TestClient(served[0]) as c:
        meta = c.get("/api/meta").json()
        assert meta["default_game"] == key
        (g,) = [g for g in meta["games"] if g["key"] == key]
        assert g["default_edition"] == _edition(key)
        assert g["edition_word"] == game_module(key).edition_word
        # A game created without naming one is of that game and edition, on its own page.
        gid = c.post("/api/games", json={"mode": "hotseat"}).json()["id"]
        state = c.get(f"/api/games/{gid}").json()
        assert (state["game"], state["edition"]) == (key, _edition(key))
        listed = c.get("/api/games").json()["games"]
        assert listed[0]["edition_text"] == game_module(key).front_ends.edition_text(_edition(key))
        page = c.get(f"/g/{gid}").text
        assert 'src="/static/board.js"' in page  # the one client page plays every game (issue 11)
    assert (
        main(["serve", "--game", key, "--edition", "no-such-edition", "--port", "0", "--data", str(tmp_path)])
        == 2
    )


@pytest.mark.parametrize("key", [_slow_unless_default(k) for k in GAMES])
def test_match(key: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "random", "random", *_flags(key), "--games", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 1


@pytest.mark.parametrize("key", [_slow_unless_default(k) for k in GAMES])
def test_soak(key: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["soak", *_flags(key), "--games", "1", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "every invariant held" in out
    assert f"{_edition(key)}:" in out


@pytest.mark.parametrize("key", [_slow_unless_default(k) for k in GAMES])
def test_bench(key: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", *_flags(key), "--games", "1", "--quick"]) == 0
    lines = dict(line.split(": ", 1) for line in capsys.readouterr().out.splitlines())
    assert _edition(key) in lines.values()
    assert any(name.endswith("random_games_per_s") for name in lines)


def test_bench_parts_are_the_registered_games(capsys: pytest.CaptureFixture[str]) -> None:
    # `bench --only` offers every registered game (the default game is "core"), not a list
    # written by hand; each game's figures are its own kit's size, on its default edition.
    from typhoon.bench import EXTRA, parts

    assert parts() == ["core", *(k for k in GAMES if k != DEFAULT_GAME), *EXTRA]
    with pytest.raises(SystemExit):
        main(["bench", "--only", "no-such-game"])
    assert "invalid choice" in capsys.readouterr().err


def test_a_bad_game_is_one_line_for_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (
        ["rules"],
        ["selfplay", "--games", "1"],
        ["match", "random", "random", "--games", "1"],
        ["soak", "--games", "1"],
        ["bench", "--quick"],
        ["play"],
    ):
        assert main([*argv, "--game", "no-such-game"]) == 2, argv
        err = capsys.readouterr().err
        assert "unknown game 'no-such-game'" in err and "Traceback" not in err, argv
