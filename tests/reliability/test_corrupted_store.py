"""A damaged store (issue 10 items 3 and 7): the games database truncated, overwritten,
replaced by another file, written by a newer Typhoon, or in a folder nobody can write, stops
``typhoon serve`` with one line naming the file and what to do — never a traceback; one bad
row is skipped (the lobby and every other game still open) and that game answers a clear 4xx."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from .server import Server, get, post

DB = "typhoon.sqlite3"


def _stored_games(data: Path, n: int = 2) -> list[str]:
    server = Server(data)
    server.start()
    try:
        ids = []
        for i in range(n):
            g = post(server.url, "/api/games", {"mode": "hotseat"}).json()
            legal = get(server.url, f"/api/games/{g['id']}/legal")["actions"]
            v = get(server.url, f"/api/games/{g['id']}")["version"]
            r = post(
                server.url,
                f"/api/games/{g['id']}/actions",
                {"actions": [legal[i]["text"]], "seen": v},
                g["token"],
            )
            assert r.status_code == 200
            ids.append(g["id"])
        return ids
    finally:
        server.stop()


def _truncate(p: Path) -> None:
    data = p.read_bytes()
    p.write_bytes(data[: len(data) // 3])


def _overwrite_header(p: Path) -> None:
    with p.open("r+b") as f:
        f.write(os.urandom(100))


def _not_a_database(p: Path) -> None:
    p.write_text("these are my notes, not a database\n" * 200)


def _newer_schema(p: Path) -> None:
    with sqlite3.connect(p) as db:
        db.execute("PRAGMA user_version=99")


DAMAGE: dict[str, Callable[[Path], None]] = {
    "truncated": _truncate,
    "header overwritten": _overwrite_header,
    "not a database": _not_a_database,
    "written by a newer Typhoon": _newer_schema,
}


def _serve_fails(data: Path) -> str:
    out = subprocess.run(
        [sys.executable, "-m", "typhoon", "serve", "--port", "0", "--data", str(data)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    text = (out.stdout + out.stderr).strip()
    assert out.returncode != 0, text[-1000:]
    assert "Traceback" not in text, text[-3000:]
    return text


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_a_damaged_database_stops_the_server_with_one_clear_line(tmp_path: Path, damage: str) -> None:
    data = tmp_path / "data"
    _stored_games(data, 1)
    for extra in ("-wal", "-shm"):  # the damage must not be healed by a leftover journal
        (data / (DB + extra)).unlink(missing_ok=True)
    DAMAGE[damage](data / DB)
    text = _serve_fails(data)
    print(f"\n{damage}: {text.splitlines()[-1]}")
    assert DB in text, text
    assert "--data" in text or "move" in text, text


def test_an_unwritable_data_folder_stops_the_server_with_one_clear_line(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    text = _serve_fails(blocker / "data")  # a folder inside a file cannot be made, even by root
    print(f"\nunwritable: {text.splitlines()[-1]}")
    assert "a-file" in text and "--data" in text, text


BAD_ROWS = {
    "options not JSON": "UPDATE games SET options='{not json' WHERE id=?",
    "unknown game": "UPDATE games SET game='chess' WHERE id=?",
    "unknown edition": "UPDATE games SET edition='1066' WHERE id=?",
    "seed not a number": "UPDATE games SET seed='x' WHERE id=?",
    "tokens wrong type": "UPDATE games SET tokens='[1,2]' WHERE id=?",
    "action garbage": "UPDATE actions SET text='teleport XXIV 9999' WHERE game_id=?",
}


@pytest.mark.parametrize("bad", list(BAD_ROWS))
def test_a_bad_row_is_skipped_and_everything_else_opens(tmp_path: Path, bad: str) -> None:
    data = tmp_path / "data"
    broken, good = _stored_games(data, 2)
    with sqlite3.connect(data / DB) as db:
        db.execute(BAD_ROWS[bad], (broken,))
    server = Server(data)
    server.start()
    try:
        lobby = httpx.get(server.url + "/api/games", timeout=20)
        assert lobby.status_code == 200, lobby.text
        assert good in lobby.text
        assert httpx.get(server.url + f"/api/games/{good}", timeout=20).status_code == 200
        r = httpx.get(server.url + f"/api/games/{broken}", timeout=20)
        assert 400 <= r.status_code < 500, r.text
        assert isinstance(r.json().get("error"), str)
        page = httpx.get(server.url + f"/g/{broken}", timeout=20)
        assert page.status_code < 500
        print(f"\n{bad}: lobby 200, that game {r.status_code}: {r.json()['error'][:100]}")
    finally:
        server.stop()
