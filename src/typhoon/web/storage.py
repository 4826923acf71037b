"""SQLite storage of games: each game is its record (metadata + the action log, dice included).

A game's position is never stored, only how to rebuild it: the service replays the log
through the engine. Every change is one transaction, committed (WAL journal, synchronous
FULL) before the caller acknowledges it, so killing the server loses no acknowledged action.
One connection is shared by the server's threads behind a lock; the standard library's
``sqlite3`` is all it needs.

Faults (issue 10 point 3): a database that cannot be used at all (not a database, damaged,
written by a newer Typhoon, in a folder that cannot be written) is a :class:`StoreError` at
start-up naming the file and what to do; one stored game that cannot be read (a bad row) is
skipped by the lobby list, logged once, and :class:`DamagedGameError` when asked for.

Schema 2 keeps the dice seed as decimal TEXT (256-bit seeds do not fit an SQLite integer)
with the dice method (``dice``: "mt" | "sha256") and ``dice_from`` (rolls at the start of the
log not drawn from the seed); a schema 1 file is migrated in place on opening.
"""

from __future__ import annotations

import datetime
import functools
import json
import logging
import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from typhoon.errors import TyphoonError

log = logging.getLogger("typhoon.web")

SCHEMA_VERSION = 2
DB_NAME = "typhoon.sqlite3"
MODES = ("ai", "hotseat", "remote")
SIDE_NAMES = ("german", "soviet")  # the sides a token or a creator row may name
DICE = ("mt", "sha256")
MAX_SEED_DIGITS = 400  # far above a 256-bit seed (78 digits); a longer one is a damaged row

_GAMES = """
CREATE TABLE IF NOT EXISTS {name} (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    edition TEXT NOT NULL,
    options TEXT NOT NULL,      -- JSON object
    seed TEXT NOT NULL,         -- decimal (any size)
    dice TEXT NOT NULL DEFAULT 'mt',
    dice_from INTEGER NOT NULL DEFAULT 0,
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
)"""
_SCHEMA = [
    _GAMES.format(name="games"),
    """CREATE TABLE IF NOT EXISTS actions (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    n INTEGER NOT NULL,         -- 1-based position in the log
    actor TEXT NOT NULL,        -- G, S or * (the die)
    text TEXT NOT NULL,         -- the action in the game's notation
    PRIMARY KEY (game_id, n)
)""",
    """CREATE TABLE IF NOT EXISTS notes (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    n INTEGER NOT NULL,         -- the action (1-based) the note explains
    side TEXT NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (game_id, n)
)""",
    # Messages between the players of a remote game (issue 15); a table older files gain on
    # opening (CREATE ... IF NOT EXISTS), so the schema version stays.
    """CREATE TABLE IF NOT EXISTS messages (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    n INTEGER NOT NULL,         -- 1-based, in the order posted
    side TEXT NOT NULL,
    text TEXT NOT NULL,
    created TEXT NOT NULL,
    PRIMARY KEY (game_id, n)
)""",
    # Who made a remote game (issue 15: only the creator's secret link may delete it); a table
    # older files gain on opening, as above. Hot-seat and AI games have one link: no row.
    """CREATE TABLE IF NOT EXISTS creators (
    game_id TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    side TEXT NOT NULL          -- german or soviet: the side whose link the creator was given
)""",
]
_COLUMNS = (
    "id",
    "game",
    "edition",
    "options",
    "seed",
    "dice",
    "dice_from",
    "date",
    "mode",
    "ai",
    "tokens",
    "version",
    "n_actions",
    "turn",
    "phase",
    "result",
    "created",
    "updated",
)
_V1_COLUMNS = tuple(c for c in _COLUMNS if c not in ("dice", "dice_from"))
_WHAT_TO_DO = "move the file aside (a new, empty one is then started) or start with --data pointing elsewhere"


class StoreError(TyphoonError):
    """The games database cannot be used, or a change could not be written."""


class DamagedGameError(StoreError):
    """One stored game cannot be read back (a bad row); the others are fine."""

    def __init__(self, game_id: str, reason: str):
        super().__init__(f"game {game_id} is damaged in the store: {reason}")
        self.game_id = game_id
        self.reason = reason


class VersionConflict(StoreError):
    """The stored game is not at the version the change was made against."""


class _BadRow(ValueError):
    pass


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
    dice: str = "mt"
    dice_from: int = 0
    version: int = 0
    n_actions: int = 0
    turn: int = 0
    phase: str = ""
    result: str | None = None
    created: str = field(default_factory=now)
    updated: str = field(default_factory=now)

    def summary(self) -> dict[str, Any]:
        """Public facts (never the tokens, nor the seed)."""
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
        self.path = self.dir / DB_NAME
        self._lock = threading.Lock()
        self._reported: set[str] = set()  # damaged games already logged
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(
                f"cannot use the data folder {self.dir}: {exc.strerror or exc};"
                " start with --data pointing at a folder that can be written"
            ) from None
        if not os.access(self.dir, os.W_OK | os.X_OK):
            raise StoreError(
                f"the data folder {self.dir} cannot be written;"
                " start with --data pointing at a folder that can be written"
            )
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the games database {self.path}: {exc}; {_WHAT_TO_DO}") from None
        try:
            self._open()
        except StoreError:
            self._db.close()
            raise
        except sqlite3.Error as exc:
            self._db.close()
            reason = str(exc) or type(exc).__name__
            if "readonly" in reason or "unable to open" in reason:
                raise StoreError(
                    f"cannot write the games database {self.path}: {reason};"
                    " make it and its folder writable, or start with --data pointing elsewhere"
                ) from None
            raise StoreError(
                f"cannot use the games database {self.path} (damaged, or not a database: {reason}); {_WHAT_TO_DO}"
            ) from None

    def _open(self) -> None:
        db = self._db
        (ver,) = db.execute("PRAGMA user_version").fetchone()  # reads the header: a non-database fails here
        if ver > SCHEMA_VERSION:
            raise StoreError(
                f"the games database {self.path} was written by a newer Typhoon (schema {ver}, this one"
                f" reads {SCHEMA_VERSION}); run that version, or start with --data pointing elsewhere"
            )
        # A damaged file may open and fail only on the page that is gone: look at every page now
        # (a few milliseconds per megabyte) rather than fail in the middle of a request.
        bad = [str(r[0]) for r in db.execute("PRAGMA quick_check(3)").fetchall()]
        if bad != ["ok"]:
            found = " ".join("; ".join(bad).split())[:300]  # one line
            raise StoreError(f"the games database {self.path} is damaged ({found}); {_WHAT_TO_DO}")
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if ver == 0 and tables:
            raise StoreError(f"{self.path} is not a Typhoon games database; {_WHAT_TO_DO}")
        if ver == 1:
            self._migrate_v1()
        db.execute("PRAGMA foreign_keys=ON")
        with self._tx() as tx:
            for stmt in _SCHEMA:
                tx.execute(stmt)
            if ver == 0:
                tx.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        have = [r[1] for r in db.execute("PRAGMA table_info(games)")]
        if set(have) != set(_COLUMNS):
            raise StoreError(f"{self.path} does not hold the games table this Typhoon expects; {_WHAT_TO_DO}")

    def _migrate_v1(self) -> None:
        """Schema 1 -> 2: the seed becomes TEXT, and the dice columns appear (old games: "mt",
        every roll from the seed). SQLite cannot change a column's type, so the table is rebuilt
        (with foreign keys off, so that dropping the old table keeps the actions)."""
        db = self._db
        db.execute("PRAGMA foreign_keys=OFF")
        with self._tx() as tx:
            have = {r[1] for r in tx.execute("PRAGMA table_info(games)")}
            if not set(_V1_COLUMNS) <= have:
                raise StoreError(f"{self.path} does not hold the games table of schema 1; {_WHAT_TO_DO}")
            tx.execute(_GAMES.format(name="games_v2"))
            cols = ", ".join(_V1_COLUMNS)
            select = cols.replace("seed", "CAST(seed AS TEXT)")
            tx.execute(f"INSERT INTO games_v2 ({cols}) SELECT {select} FROM games")
            tx.execute("DROP TABLE games")
            tx.execute("ALTER TABLE games_v2 RENAME TO games")
            tx.execute("PRAGMA user_version=2")
        log.info("games database %s migrated to schema 2", self.path)

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

    @contextmanager
    def _writing(self, what: str) -> Iterator[sqlite3.Connection]:
        """A write transaction whose database failures are StoreErrors (nothing is written)."""
        try:
            with self._tx() as db:
                yield db
        except sqlite3.Error as exc:
            raise StoreError(f"could not {what} in {self.path}: {exc}") from None

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        try:
            with self._lock:
                yield self._db
        except sqlite3.Error as exc:
            raise StoreError(f"could not read {self.path}: {exc}") from None

    # -- writing ----------------------------------------------------------------------------

    def create(
        self,
        row: GameRow,
        actions: Sequence[tuple[str, str]],
        notes: Sequence[tuple[int, str, str]] = (),
        creator: str | None = None,
    ) -> None:
        """Store a new game; ``creator``: the side of a remote game's creator."""
        with self._writing("store the new game") as db:
            db.execute(
                f"INSERT INTO games ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))})",
                (
                    row.id,
                    row.game,
                    row.edition,
                    json.dumps(row.options, sort_keys=True),
                    str(int(row.seed)),
                    row.dice,
                    row.dice_from,
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
            if creator is not None:
                db.execute("INSERT INTO creators (game_id, side) VALUES (?, ?)", (row.id, creator))

    def delete(self, game_id: str) -> bool:
        """Remove a game and everything stored with it; False if there was none."""
        with self._writing("delete the game") as db:
            for table in ("actions", "notes", "messages", "creators"):
                db.execute(f"DELETE FROM {table} WHERE game_id = ?", (game_id,))
            gone = db.execute("DELETE FROM games WHERE id = ?", (game_id,)).rowcount
        return bool(gone)

    def creator(self, game_id: str) -> str | None:
        """The side of a remote game's creator (None if not recorded: an older game)."""
        with self._reading() as db:
            r = db.execute("SELECT side FROM creators WHERE game_id = ?", (game_id,)).fetchone()
        return r[0] if r is not None and r[0] in SIDE_NAMES else None

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
        with self._writing("save the actions") as db:
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

    def add_message(self, game_id: str, side: str, text: str, expect_version: int) -> int:
        """Store a player's message and bump the game's version (so the opponent's long poll
        wakes); returns the new version. Fails (and writes nothing) on a version conflict."""
        with self._writing("save the message") as db:
            self._check_version(db, game_id, expect_version)
            (n,) = db.execute("SELECT COUNT(*) FROM messages WHERE game_id = ?", (game_id,)).fetchone()
            db.execute(
                "INSERT INTO messages (game_id, n, side, text, created) VALUES (?, ?, ?, ?, ?)",
                (game_id, n + 1, side, text, now()),
            )
            db.execute("UPDATE games SET version = version + 1, updated = ? WHERE id = ?", (now(), game_id))
        return expect_version + 1

    def messages(self, game_id: str) -> list[tuple[int, str, str, str]]:
        """(n, side, text, created) of the game's messages, oldest first (bad rows dropped)."""
        with self._reading() as db:
            rows = db.execute(
                "SELECT n, side, text, created FROM messages WHERE game_id = ? ORDER BY n", (game_id,)
            ).fetchall()
        return [
            (n, s, t, c)
            for n, s, t, c in rows
            if type(n) is int and isinstance(s, str) and isinstance(t, str) and isinstance(c, str)
        ]

    def truncate(self, game_id: str, keep: int, progress: Progress, expect_version: int) -> None:
        """Drop the actions after the first ``keep`` (undo)."""
        with self._writing("save the undo") as db:
            self._check_version(db, game_id, expect_version)
            db.execute("DELETE FROM actions WHERE game_id = ? AND n > ?", (game_id, keep))
            db.execute("DELETE FROM notes WHERE game_id = ? AND n > ?", (game_id, keep))
            self._progress(db, game_id, progress)

    @staticmethod
    def _check_version(db: sqlite3.Connection, game_id: str, expect: int) -> None:
        got = db.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()
        if got is None:
            raise VersionConflict(f"game {game_id} is not in the store")
        if got[0] != expect:
            raise VersionConflict(f"game {game_id}: stored version {got[0]}, expected {expect}")

    @staticmethod
    def _progress(db: sqlite3.Connection, game_id: str, p: Progress) -> None:
        db.execute(
            "UPDATE games SET version = ?, n_actions = ?, turn = ?, phase = ?, result = ?, updated = ? WHERE id = ?",
            (p.version, p.n_actions, p.turn, p.phase, p.result, now(), game_id),
        )

    # -- reading ----------------------------------------------------------------------------

    _SELECT = f"SELECT {', '.join(_COLUMNS)} FROM games"

    def _skip(self, game_id: Any, reason: str) -> None:
        key = repr(game_id)
        if key not in self._reported:
            self._reported.add(key)
            log.error("game %s is damaged in %s and is skipped: %s", key, self.path, reason)

    def load(self, game_id: str) -> GameRow | None:
        """The stored game (None if there is none); DamagedGameError if its row is bad."""
        with self._reading() as db:
            r = db.execute(f"{self._SELECT} WHERE id = ?", (game_id,)).fetchone()
        if r is None:
            return None
        try:
            return _row(r)
        except _BadRow as exc:
            self._skip(game_id, str(exc))
            raise DamagedGameError(game_id, str(exc)) from None

    def get(self, game_id: str) -> GameRow | None:
        """The stored game, or None if there is none or its row cannot be read."""
        try:
            return self.load(game_id)
        except DamagedGameError:
            return None

    def version(self, game_id: str) -> int | None:
        with self._reading() as db:
            r = db.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()
        return r[0] if r is not None and type(r[0]) is int else None

    def actions(self, game_id: str) -> list[tuple[str, str]]:
        with self._reading() as db:
            rows = db.execute(
                "SELECT actor, text FROM actions WHERE game_id = ? ORDER BY n", (game_id,)
            ).fetchall()
        if not all(isinstance(a, str) and isinstance(t, str) for a, t in rows):
            raise DamagedGameError(game_id, "an action of its log is not text")
        return [(a, t) for a, t in rows]

    def notes(self, game_id: str) -> list[tuple[int, str, str]]:
        with self._reading() as db:
            rows = db.execute(
                "SELECT n, side, text FROM notes WHERE game_id = ? ORDER BY n", (game_id,)
            ).fetchall()
        # A note only explains an AI move: a bad one is dropped, the game is still fine.
        return [(n, s, t) for n, s, t in rows if type(n) is int and isinstance(s, str) and isinstance(t, str)]

    def recent(self, limit: int = 100) -> list[GameRow]:
        """The ``limit`` most recently changed games that can be read (bad rows are skipped
        and logged once)."""
        out: list[GameRow] = []
        with self._reading() as db:
            for r in db.execute(f"{self._SELECT} ORDER BY updated DESC, id"):
                try:
                    out.append(_row(r))
                except _BadRow as exc:
                    self._skip(r[0], str(exc))
                    continue
                if len(out) >= limit:
                    break
        return out

    def unfinished_ids(self, ai_only: bool = False) -> list[str]:
        """Games not over yet (with ``ai_only``: only those with a side played by the AI), the
        most recently changed first."""
        sql = "SELECT id FROM games WHERE result IS NULL" + (" AND ai != '{}'" if ai_only else "")
        with self._reading() as db:
            rows = db.execute(sql + " ORDER BY updated DESC").fetchall()
        return [r[0] for r in rows if isinstance(r[0], str)]


@functools.cache
def _editions(game: str) -> frozenset[str]:
    from typhoon.games import game_keys, game_module

    if game not in game_keys():
        return frozenset()
    return frozenset(game_module(game).editions())


def _str(v: Any, what: str) -> str:
    if not isinstance(v, str):
        raise _BadRow(f"{what} is not text")
    return v


def _int(v: Any, what: str) -> int:
    if type(v) is not int:
        raise _BadRow(f"{what} is not a whole number")
    return v


def _json_strings(v: Any, what: str, keys: Sequence[str] | None = None) -> dict[str, str]:
    try:
        d = json.loads(_str(v, what))
    except (ValueError, RecursionError):
        raise _BadRow(f"{what} is not valid JSON") from None
    if not isinstance(d, dict) or not all(isinstance(x, str) for kv in d.items() for x in kv):
        raise _BadRow(f"{what} is not an object of text values")
    if keys is not None and not set(d) <= set(keys):
        raise _BadRow(f"{what} names unknown sides")
    return d


def _seed(v: Any) -> int:
    if type(v) is int:
        return v
    s = _str(v, "the seed")
    if not (0 < len(s) <= MAX_SEED_DIGITS and s.lstrip("-").isdigit() and s.isascii()):
        raise _BadRow("the seed is not a decimal number")
    return int(s)


def _row(r: Sequence[Any]) -> GameRow:
    """A row of the games table, checked (raises _BadRow saying what is wrong)."""
    c = dict(zip(_COLUMNS, r, strict=True))
    game = _str(c["game"], "the game")
    edition = _str(c["edition"], "the edition")
    eds = _editions(game)
    if not eds:
        raise _BadRow(f"unknown game {game[:40]!r}")
    if edition not in eds:
        raise _BadRow(f"unknown edition {edition[:40]!r} of {game}")
    mode = _str(c["mode"], "the mode")
    if mode not in MODES:
        raise _BadRow(f"unknown mode {mode[:40]!r}")
    dice = _str(c["dice"], "the dice")
    if dice not in DICE:
        raise _BadRow(f"unknown dice {dice[:40]!r}")
    dice_from = _int(c["dice_from"], "dice_from")
    result = c["result"]
    if result is not None:
        result = _str(result, "the result")
    return GameRow(
        id=_str(c["id"], "the id"),
        game=game,
        edition=edition,
        options=_json_strings(c["options"], "the options"),
        seed=_seed(c["seed"]),
        dice=dice,
        dice_from=max(0, dice_from),
        date=_str(c["date"], "the date"),
        mode=mode,
        ai=_json_strings(c["ai"], "the AI sides", ("german", "soviet")),
        tokens=_json_strings(c["tokens"], "the tokens", ("german", "soviet", "host")),
        version=_int(c["version"], "the version"),
        n_actions=_int(c["n_actions"], "the number of actions"),
        turn=_int(c["turn"], "the turn"),
        phase=_str(c["phase"], "the phase"),
        result=result,
        created=_str(c["created"], "created"),
        updated=_str(c["updated"], "updated"),
    )
