"""A damaged store (issue 10 point 3): a database file that is not one, truncated, overwritten,
from a newer Typhoon, or in a folder that cannot be written is a one-line StoreError at
start-up naming the file and what to do, and ``typhoon serve`` prints that line and stops
(no traceback); one bad row is skipped by the lobby (logged once) and its game answers 410;
schema 1 files are migrated in place (the seed becomes decimal text so that 256-bit secret
seeds survive, old games get dice "mt" from roll 0)."""

from __future__ import annotations

import json
import logging
import os
import random
import sqlite3
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

from typhoon.errors import TyphoonError
from typhoon.game import Game
from typhoon.web.service import ApiError, GameService
from typhoon.web.storage import DB_NAME, SCHEMA_VERSION, Store, StoreError

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from typhoon.web.app import create_app


def _filled(data: Path, games: int = 3) -> list[str]:
    """A store holding a few hot-seat games with some actions each; returns their ids."""
    store = Store(data)
    svc = GameService(store)
    ids = []
    for _ in range(games):
        g = svc.create({"mode": "hotseat"})
        svc.act(g["id"], g["token"], ["setup standard", "setup standard"], 0)
        ids.append(g["id"])
    svc.close()
    store.close()
    return ids


def _refused(data: Path, *words: str) -> str:
    with pytest.raises(StoreError) as info:
        Store(data)
    msg = str(info.value)
    assert isinstance(info.value, TyphoonError) and "\n" not in msg
    for w in words:
        assert w in msg, msg
    return msg


# -- the whole file -------------------------------------------------------------------------


def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    (tmp_path / DB_NAME).write_bytes(b"these are my notes, not a database\n" * 200)
    _refused(tmp_path, str(tmp_path / DB_NAME), "move the file aside", "--data")


def test_a_truncated_database(tmp_path: Path) -> None:
    _filled(tmp_path, games=40)
    db = tmp_path / DB_NAME
    size = db.stat().st_size
    assert size > 8192
    with db.open("r+b") as f:
        f.truncate(size // 2)
    _refused(tmp_path, str(db), "damaged", "--data")


def test_an_overwritten_database(tmp_path: Path) -> None:
    _filled(tmp_path, games=40)
    db = tmp_path / DB_NAME
    with db.open("r+b") as f:  # garbage over pages in the middle of the file (the header is intact)
        f.seek(4096 * 2)
        f.write(os.urandom(4096 * 3))
    _refused(tmp_path, str(db), "--data")
    with db.open("r+b") as f:  # and over the header
        f.write(b"\xff" * 100)
    _refused(tmp_path, str(db), "--data")


def test_a_database_from_a_newer_typhoon(tmp_path: Path) -> None:
    _filled(tmp_path, games=1)
    con = sqlite3.connect(tmp_path / DB_NAME)
    con.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    con.commit()
    con.close()
    _refused(tmp_path, "newer Typhoon", f"schema {SCHEMA_VERSION + 1}", "--data")


def test_a_database_of_another_program(tmp_path: Path) -> None:
    con = sqlite3.connect(tmp_path / DB_NAME)
    con.execute("CREATE TABLE recipes (name TEXT)")
    con.commit()
    con.close()
    _refused(tmp_path, "not a Typhoon games database")


def test_a_data_folder_that_is_a_file(tmp_path: Path) -> None:
    (tmp_path / "data").write_text("x")
    _refused(tmp_path / "data", str(tmp_path / "data"), "--data")
    _refused(tmp_path / "data" / "deeper", "--data")


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0, reason="root writes anywhere")
def test_a_read_only_data_folder(tmp_path: Path) -> None:
    _filled(tmp_path / "data", games=1)
    (tmp_path / "data").chmod(0o555)
    try:
        _refused(tmp_path / "data", "cannot be written", "--data")
    finally:
        (tmp_path / "data").chmod(0o755)


def test_serve_prints_one_line_and_stops(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / DB_NAME).write_bytes(b"\x00garbage" * 1000)
    out = subprocess.run(
        [sys.executable, "-m", "typhoon", "serve", "--port", "0", "--data", str(data)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode != 0
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in out.stderr, out.stderr
    assert str(data / DB_NAME) in lines[0] and "--data" in lines[0]


# -- one bad row ----------------------------------------------------------------------------


BAD_ROWS: list[tuple[str, str, Any]] = [
    ("options", "not json", "{not json"),
    ("options", "not an object", "[1, 2]"),
    ("ai", "a number for a level", '{"german": 3}'),
    ("ai", "an unknown side", '{"french": "random"}'),
    ("tokens", "deep JSON", "[" * 100_000 + "]" * 100_000),
    ("game", "unknown game", "chess"),
    ("edition", "unknown edition", "avalon"),
    ("mode", "unknown mode", "solo"),
    ("seed", "seed not a number", "12abc"),
    ("seed", "seed of thousands of digits", "9" * 5000),
    ("dice", "unknown dice", "loaded"),
    ("version", "version not a number", "seven"),
    ("turn", "a blob for the turn", b"\x00\x01"),
]


def test_a_bad_row_is_skipped_and_reported_once(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    ids = _filled(tmp_path, games=len(BAD_ROWS) + 2)
    con = sqlite3.connect(tmp_path / DB_NAME)
    for gid, (col, _, value) in zip(ids, BAD_ROWS, strict=False):
        con.execute(f"UPDATE games SET {col} = ? WHERE id = ?", (value, gid))
    con.commit()
    con.close()
    good = set(ids[len(BAD_ROWS) :])
    store = Store(tmp_path)
    svc = GameService(store)
    with caplog.at_level(logging.ERROR, logger="typhoon.web"):
        for _ in range(3):
            assert {g["id"] for g in svc.list_games()} == good
    skipped = [r for r in caplog.records if "is skipped" in r.getMessage()]
    assert len(skipped) == len(BAD_ROWS)  # each bad row logged once, however often the lobby is read
    for gid, (_, what, _) in zip(ids, BAD_ROWS, strict=False):
        with pytest.raises(ApiError) as info:
            svc.session(gid)
        assert info.value.status == 410 and "damaged" in info.value.message, (what, info.value.message)
        assert store.get(gid) is None, what
    for gid in good:
        assert svc.view(gid, None)["actions"] == 2
    svc.close()
    store.close()


def test_a_record_that_no_longer_replays_is_410_and_the_lobby_still_works(tmp_path: Path) -> None:
    ids = _filled(tmp_path, games=2)
    con = sqlite3.connect(tmp_path / DB_NAME)
    con.execute("UPDATE actions SET text = 'teleport XXIV 9999' WHERE game_id = ? AND n = 2", (ids[0],))
    con.execute("UPDATE actions SET text = ? WHERE game_id = ? AND n = 1", (7, ids[1]))  # not text
    con.commit()
    con.close()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        with TestClient(create_app(tmp_path)) as c:
            r = c.get("/api/games")
            assert r.status_code == 200 and len(r.json()["games"]) == 2
            for gid in ids:
                for path in ("", "/legal", "/record", "/log", "/replay", "/map.svg"):
                    r = c.get(f"/api/games/{gid}{path}")
                    assert r.status_code == 410, (path, r.text)
                    assert "damaged" in r.json()["error"]
            assert c.get("/api/games").status_code == 200


# -- schema 1 -> 2 --------------------------------------------------------------------------

V1_SCHEMA = """
CREATE TABLE games (
    id TEXT PRIMARY KEY, game TEXT NOT NULL, edition TEXT NOT NULL, options TEXT NOT NULL,
    seed INTEGER NOT NULL, date TEXT NOT NULL, mode TEXT NOT NULL, ai TEXT NOT NULL,
    tokens TEXT NOT NULL, version INTEGER NOT NULL, n_actions INTEGER NOT NULL,
    turn INTEGER NOT NULL, phase TEXT NOT NULL, result TEXT, created TEXT NOT NULL,
    updated TEXT NOT NULL
);
CREATE TABLE actions (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE, n INTEGER NOT NULL,
    actor TEXT NOT NULL, text TEXT NOT NULL, PRIMARY KEY (game_id, n)
);
CREATE TABLE notes (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE, n INTEGER NOT NULL,
    side TEXT NOT NULL, text TEXT NOT NULL, PRIMARY KEY (game_id, n)
);
PRAGMA user_version=1;
"""


def test_a_schema_1_file_is_migrated_in_place(tmp_path: Path) -> None:
    # A schema 1 file as the previous Typhoon wrote it: a game with seed 2**62 + 5 and its dice.
    seed = 2**62 + 5
    g = Game(seed=seed)
    rng = random.Random(1)
    while g.rolls_drawn < 2 or g.current_player() < 0:
        g.play(rng.choice(g.legal_actions()))
        g.roll_dice()
    assert g.rolls_drawn > 0
    log = [(g.actor_letter(e.actor), g.text(e.action)) for e in g.history]
    con = sqlite3.connect(tmp_path / DB_NAME)
    con.executescript(V1_SCHEMA)
    con.execute(
        "INSERT INTO games VALUES ('old1', 'bfm', ?, ?, ?, '2026-01-01', 'hotseat', '{}', ?, ?, ?, ?, ?, NULL,"
        " '2026-01-01T00:00:00+00:00', '2026-01-01T00:00:00+00:00')",
        (
            g.edition,
            json.dumps(g.options),
            seed,
            json.dumps({"german": "g", "soviet": "s", "host": "h"}),
            len(log),
            len(log),
            int(g.state.turn),
            str(g.state.phase_spec.key),
        ),
    )
    con.executemany(
        "INSERT INTO actions VALUES ('old1', ?, ?, ?)", [(i, a, t) for i, (a, t) in enumerate(log, 1)]
    )
    con.execute("INSERT INTO notes VALUES ('old1', 3, 'german', 'why')")
    con.commit()
    con.close()

    store = Store(tmp_path)
    con = sqlite3.connect(tmp_path / DB_NAME)
    assert con.execute("PRAGMA user_version").fetchone()[0] == 2
    assert con.execute("SELECT typeof(seed), seed, dice, dice_from FROM games").fetchone() == (
        "text",
        str(seed),
        "mt",
        0,
    )
    con.close()
    row = store.get("old1")
    assert row is not None and row.seed == seed and row.dice == "mt" and row.dice_from == 0
    assert store.actions("old1") == log and store.notes("old1") == [(3, "german", "why")]  # kept
    svc = GameService(store)
    v = svc.view("old1", "h")
    assert v["actions"] == len(log) and v["you"] == ["german", "soviet"]
    # The old game goes on with its own dice: the next roll is the one its seed gives.
    assert svc.session("old1").game.position() == g.position()
    # A new game's 256-bit secret seed is stored, and read back, exactly.
    new = svc.create({"mode": "hotseat"})
    secret = store.get(new["id"])
    assert secret is not None and secret.seed.bit_length() > 64 and secret.dice == "sha256"
    svc.close()
    store.close()
    store = Store(tmp_path)  # opening a schema 2 file again changes nothing
    again = store.get(new["id"])
    assert again is not None and again.seed == secret.seed
    assert store.get("old1") == row
    store.close()


def test_a_schema_1_uploaded_game_whose_rolls_its_seed_does_not_give_still_opens(tmp_path: Path) -> None:
    # Before the dice were checked, an upload without a seed was stored with a made-up seed
    # that does not give the record's rolls: the rebuild takes those rolls as played.
    g = Game(seed=3)
    rng = random.Random(2)
    while g.rolls_drawn < 3 or g.current_player() < 0:
        g.play(rng.choice(g.legal_actions()))
        g.roll_dice()
    log = [(g.actor_letter(e.actor), g.text(e.action)) for e in g.history]
    con = sqlite3.connect(tmp_path / DB_NAME)
    con.executescript(V1_SCHEMA)
    con.execute(
        "INSERT INTO games VALUES ('up1', 'bfm', ?, ?, 77, '2026-01-01', 'hotseat', '{}', ?, ?, ?, ?, ?, NULL,"
        " '2026-01-01T00:00:00+00:00', '2026-01-01T00:00:00+00:00')",
        (
            g.edition,
            json.dumps(g.options),
            json.dumps({"german": "g", "soviet": "s", "host": "h"}),
            len(log),
            len(log),
            int(g.state.turn),
            str(g.state.phase_spec.key),
        ),
    )
    con.executemany(
        "INSERT INTO actions VALUES ('up1', ?, ?, ?)", [(i, a, t) for i, (a, t) in enumerate(log, 1)]
    )
    con.commit()
    con.close()
    store = Store(tmp_path)
    svc = GameService(store)
    try:
        v = svc.view("up1", "h")
        assert v["actions"] == len(log)
        assert svc.session("up1").game.position() == g.position()
    finally:
        svc.close()
        store.close()


def test_an_unwritable_data_folder_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Root writes anywhere, so the folder's permission check is made to fail here.
    monkeypatch.setattr("typhoon.web.storage.os.access", lambda path, mode: False)
    _refused(tmp_path, str(tmp_path), "cannot be written", "--data")
