"""SQLite storage of games: each game is its record (metadata + the action log, dice included).

A game's position is never stored, only how to rebuild it: the service replays the log
through the engine. Every change is one transaction, committed (WAL journal, synchronous
FULL) before the caller acknowledges it, so killing the server loses no acknowledged action.
One connection is shared by the server's threads behind a lock; the standard library's
``sqlite3`` is all it needs.
"""

from __future__ import annotations

import datetime
import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 1
DB_NAME = "typhoon.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    edition TEXT NOT NULL,
    options TEXT NOT NULL,      -- JSON object
    seed INTEGER NOT NULL,
    date TEXT NOT NULL,
    mode TEXT NOT NULL,         -- ai | hotseat | remote
    ai TEXT NOT NULL,           -- JSON object: side -> AI level
    tokens TEXT NOT NULL,       -- JSON object: german / soviet / host -> secret token
    version INTEGER NOT NULL,   -- bumped by every action and every undo
    n_actions INTEGER NOT NULL,
    turn INTEGER NOT NULL,
    phase TEXT NOT NULL,
    result TEXT,
    created TEXT NOT NULL,
    updated TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS actions (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    n INTEGER NOT NULL,         -- 1-based position in the log
    actor TEXT NOT NULL,        -- G, S or * (the die)
    text TEXT NOT NULL,         -- the action in the game's notation
    PRIMARY KEY (game_id, n)
);
CREATE TABLE IF NOT EXISTS notes (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    n INTEGER NOT NULL,         -- the action (1-based) the note explains
    side TEXT NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (game_id, n)
);
"""


def now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


@dataclass
class GameRow:
    """A stored game's metadata (the action log is loaded separately)."""

    id: str
    game: str
    edition: str
    options: dict[str, str]
    seed: int
    date: str
    mode: str
    ai: dict[str, str]
    tokens: dict[str, str]
    version: int = 0
    n_actions: int = 0
    turn: int = 0
    phase: str = ""
    result: str | None = None
    created: str = field(default_factory=now)
    updated: str = field(default_factory=now)

    def summary(self) -> dict[str, Any]:
        """Public facts (never the tokens)."""
        return {
            "id": self.id,
            "game": self.game,
            "edition": self.edition,
            "mode": self.mode,
            "ai": dict(self.ai),
            "version": self.version,
            "actions": self.n_actions,
            "turn": self.turn,
            "phase": self.phase,
            "result": self.result,
            "created": self.created,
            "updated": self.updated,
        }


@dataclass
class Progress:
    """What a change did to a game's summary columns."""

    version: int
    n_actions: int
    turn: int
    phase: str
    result: str | None


class Store:
    def __init__(self, data_dir: str | Path):
        self.dir = Path(data_dir).expanduser()
        self.dir.mkdir(parents=True, exist_ok=True)
        self.path = self.dir / DB_NAME
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        with self._tx() as db:
            for stmt in _SCHEMA.split(";"):
                if stmt.strip():
                    db.execute(stmt)
            (ver,) = db.execute("PRAGMA user_version").fetchone()
            if ver == 0:
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            elif ver > SCHEMA_VERSION:
                raise RuntimeError(f"{self.path} was written by a newer Typhoon (schema {ver})")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    # -- writing ----------------------------------------------------------------------------

    def create(
        self, row: GameRow, actions: Sequence[tuple[str, str]], notes: Sequence[tuple[int, str, str]] = ()
    ) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT INTO games (id, game, edition, options, seed, date, mode, ai, tokens, version,"
                " n_actions, turn, phase, result, created, updated)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    row.id,
                    row.game,
                    row.edition,
                    json.dumps(row.options, sort_keys=True),
                    row.seed,
                    row.date,
                    row.mode,
                    json.dumps(row.ai, sort_keys=True),
                    json.dumps(row.tokens, sort_keys=True),
                    row.version,
                    len(actions),
                    row.turn,
                    row.phase,
                    row.result,
                    row.created,
                    row.updated,
                ),
            )
            db.executemany(
                "INSERT INTO actions (game_id, n, actor, text) VALUES (?, ?, ?, ?)",
                [(row.id, i, a, t) for i, (a, t) in enumerate(actions, 1)],
            )
            db.executemany(
                "INSERT OR REPLACE INTO notes (game_id, n, side, text) VALUES (?, ?, ?, ?)",
                [(row.id, n, s, t) for n, s, t in notes],
            )

    def append(
        self,
        game_id: str,
        first: int,
        actions: Sequence[tuple[str, str]],
        progress: Progress,
        expect_version: int,
        notes: Sequence[tuple[int, str, str]] = (),
    ) -> None:
        """Add actions numbered ``first``, ``first + 1``, ... in one transaction. Fails (and
        writes nothing) if the stored version is not ``expect_version``."""
        with self._tx() as db:
            self._check_version(db, game_id, expect_version)
            db.executemany(
                "INSERT INTO actions (game_id, n, actor, text) VALUES (?, ?, ?, ?)",
                [(game_id, first + i, a, t) for i, (a, t) in enumerate(actions)],
            )
            db.executemany(
                "INSERT OR REPLACE INTO notes (game_id, n, side, text) VALUES (?, ?, ?, ?)",
                [(game_id, n, s, t) for n, s, t in notes],
            )
            self._progress(db, game_id, progress)

    def truncate(self, game_id: str, keep: int, progress: Progress, expect_version: int) -> None:
        """Drop the actions after the first ``keep`` (undo)."""
        with self._tx() as db:
            self._check_version(db, game_id, expect_version)
            db.execute("DELETE FROM actions WHERE game_id = ? AND n > ?", (game_id, keep))
            db.execute("DELETE FROM notes WHERE game_id = ? AND n > ?", (game_id, keep))
            self._progress(db, game_id, progress)

    @staticmethod
    def _check_version(db: sqlite3.Connection, game_id: str, expect: int) -> None:
        got = db.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()
        if got is None:
            raise KeyError(game_id)
        if got[0] != expect:
            raise RuntimeError(f"game {game_id}: stored version {got[0]}, expected {expect}")

    @staticmethod
    def _progress(db: sqlite3.Connection, game_id: str, p: Progress) -> None:
        db.execute(
            "UPDATE games SET version = ?, n_actions = ?, turn = ?, phase = ?, result = ?, updated = ? WHERE id = ?",
            (p.version, p.n_actions, p.turn, p.phase, p.result, now(), game_id),
        )

    # -- reading ----------------------------------------------------------------------------

    def _row(self, r: Sequence[Any]) -> GameRow:
        return GameRow(
            id=r[0],
            game=r[1],
            edition=r[2],
            options=json.loads(r[3]),
            seed=int(r[4]),
            date=r[5],
            mode=r[6],
            ai=json.loads(r[7]),
            tokens=json.loads(r[8]),
            version=int(r[9]),
            n_actions=int(r[10]),
            turn=int(r[11]),
            phase=r[12],
            result=r[13],
            created=r[14],
            updated=r[15],
        )

    _COLS = (
        "id, game, edition, options, seed, date, mode, ai, tokens, version, n_actions, turn, phase, result,"
        " created, updated"
    )

    def get(self, game_id: str) -> GameRow | None:
        with self._lock:
            r = self._db.execute(f"SELECT {self._COLS} FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if r is None else self._row(r)

    def actions(self, game_id: str) -> list[tuple[str, str]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT actor, text FROM actions WHERE game_id = ? ORDER BY n", (game_id,)
            ).fetchall()
        return [(a, t) for a, t in rows]

    def notes(self, game_id: str) -> list[tuple[int, str, str]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT n, side, text FROM notes WHERE game_id = ? ORDER BY n", (game_id,)
            ).fetchall()
        return [(int(n), s, t) for n, s, t in rows]

    def recent(self, limit: int = 100) -> list[GameRow]:
        with self._lock:
            rows = self._db.execute(
                f"SELECT {self._COLS} FROM games ORDER BY updated DESC, id LIMIT ?", (limit,)
            ).fetchall()
        return [self._row(r) for r in rows]

    def unfinished_ids(self, ai_only: bool = False) -> list[str]:
        """Games not over yet (with ``ai_only``: only those with a side played by the AI)."""
        sql = "SELECT id FROM games WHERE result IS NULL" + (" AND ai != '{}'" if ai_only else "")
        with self._lock:
            rows = self._db.execute(sql).fetchall()
        return [r[0] for r in rows]
