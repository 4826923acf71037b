"""Live games behind the web API: modes, secret links, version checks, undo and the AI.

A game lives in memory as a :class:`typhoon.game.Game` rebuilt from its stored record (the
engine replays the log). Every change is made on a copy of the game, written to SQLite in one
transaction, and only then becomes the live game and is acknowledged; if the write fails the
live game is untouched.

Who may act: every game has a secret token per side (and a ``host`` token for hot seat, good
for both sides). A token acts only for its sides, never for a side the AI plays, and only when
one of its sides is to decide (else 403). Each change bumps the game's ``version``; a request
must say which version it has seen, and is refused with 409 (and the current position) if
that is not the current one, so two tabs can never corrupt a game.

AI sides play in worker threads as soon as it is their decision, one action at a time,
each committed like a human one, so the server stays responsive and a crash loses nothing.
The workers serve one queue of games round-robin, one decision per game at a time (a game
goes back to the end of the queue after each decision), with at most ``heavy_workers`` of
them inside a search level's decision at once, so one visitor's strong searches cannot starve
everyone else's games (issue 10 point 5); a search's decision is cut at ``ai_time_limit``.

Dice (issue 10 point 4): a game whose dice nobody chose has a secret seed (``Game(seed=None)``);
in a remote game neither player may choose it; the AI players get their own seeds from
``secrets``, never from the dice seed.
"""

from __future__ import annotations

import dataclasses
import logging
import secrets
import threading
import time
import unicodedata
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from typhoon.errors import IllegalActionError, NotationError, OptionError, RecordError, TyphoonError
from typhoon.game import CHANCE, TERMINAL, Game
from typhoon.games import DEFAULT_GAME, game_keys, game_module
from typhoon.games.frontends import FrontEnds
from typhoon.players import make_player, player_names
from typhoon.record import Record
from typhoon.web.storage import (
    MODES,
    DamagedGameError,
    GameRow,
    Progress,
    Store,
    StoreError,
    VersionConflict,
    now,
)

log = logging.getLogger("typhoon.web")

SIDES = ("german", "soviet")
LOG_ENTRIES = 120  # log entries sent with every view
MAX_SESSIONS = 64  # live games kept in memory (the rest are rebuilt on demand)
MAX_BATCH = 64  # actions in one request
MAX_CHAT = 500  # characters of a message to the opponent (issue 15: a short message)
MAX_CHATS = 200  # messages kept per game
MAX_MESSAGE = 2000  # characters of an error message (a record's bad line is quoted in it)
SEEDS = range(2**63)  # a seed a player may choose (hot seat and games against the AI only)
# An uploaded record's seed, by its dice: a chosen seed ("mt") has at most 64 bits, a
# server-drawn secret one ("sha256") 256.
MAX_UPLOAD_SEED_BITS = {"mt": 64, "sha256": 256}
AI_TIME_LIMIT = 10.0  # seconds a search level may think over one decision (None: no limit)
CLOSE_WAIT = 2.0  # seconds close() waits for the AI workers; then they are abandoned (daemons)


class ApiError(Exception):
    """An error the API reports as JSON with an HTTP status."""

    def __init__(self, status: int, message: str, **extra: Any):
        if len(message) > MAX_MESSAGE:
            message = message[: MAX_MESSAGE - 1] + "\u2026"
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


def _bad(message: str) -> ApiError:
    return ApiError(400, message)


@dataclass
class Session:
    row: GameRow
    game: Game
    notes: dict[int, tuple[str, str]] = field(default_factory=dict)  # action n -> (side, text)
    messages: list[dict[str, Any]] = field(default_factory=list)  # remote players' messages
    lock: threading.RLock = field(default_factory=threading.RLock)
    players: dict[int, Any] = field(default_factory=dict)  # side -> AI player object
    ai_running: bool = False  # queued for the AI workers or being decided
    deleted: bool = False  # removed from the store: the AI stops, nothing more is written
    ai_error: str | None = None
    ai_ready_at: float = 0.0  # monotonic time before which the AI does not decide (ai_delay)
    # What every viewer of the current position is shown (views, map, legal actions), made
    # once per version: the long poll wakes every watcher of a game at the same change.
    _memo: dict[Any, Any] = field(default_factory=dict)
    _memo_version: int = -1

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def heavy(self) -> bool:
        """Whether an AI side plays a search level (its decisions may take seconds)."""
        return any(_is_search(level) for level in self.row.ai.values())

    def memo(self, key: Any, make: Callable[[], Any]) -> Any:
        """``make()``, computed once per version of the game (call it under ``self.lock``)."""
        if self._memo_version != self.row.version:
            self._memo = {}
            self._memo_version = self.row.version
        if key not in self._memo:
            self._memo[key] = make()
        return self._memo[key]


class GameService:
    def __init__(
        self,
        store: Store,
        *,
        ai_workers: int = 2,
        ai_delay: float = 0.0,
        heavy_workers: int | None = None,
        ai_time_limit: float | None = AI_TIME_LIMIT,
        default_game: str | None = None,
        default_edition: str | None = None,
    ):
        """``heavy_workers``: how many of the ``ai_workers`` may be inside a search level's
        decision at once (default all but one, so cheap levels always have a worker);
        ``ai_time_limit``: seconds a search may spend on one decision (None: its own budget);
        ``default_game``, ``default_edition``: what the lobby offers first and a new game gets
        when the request names none (OptionError if not registered)."""
        self.default_game = default_game or DEFAULT_GAME
        mod = game_module(self.default_game)
        if default_edition is not None and default_edition not in mod.editions():
            raise OptionError(
                f"unknown {mod.edition_word} {default_edition!r} of {mod.title}; choose one of {list(mod.editions())}"
            )
        self.default_edition = default_edition
        self.store = store
        self.ai_delay = ai_delay
        self.ai_workers = max(1, ai_workers)
        self.heavy_workers = max(1, self.ai_workers - 1 if heavy_workers is None else heavy_workers)
        self.ai_time_limit = ai_time_limit
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self._versions: dict[str, int] = {}  # game id -> version, kept when a session is evicted
        self._damaged: dict[str, str] = {}  # game id -> why it cannot be rebuilt
        self._building: dict[str, threading.Lock] = {}  # one rebuild of a game at a time
        self._lock = threading.Lock()
        self._closing = False
        # The AI's queue: games wanting a decision, served round-robin by the workers.
        self._cv = threading.Condition()
        self._queue: deque[Session] = deque()
        self._heavy_running = 0
        self._threads: list[threading.Thread] = []

    # -- lifecycle --------------------------------------------------------------------------

    def resume(self, *, wait: bool = False) -> int:
        """After a restart: let the AI play on in unfinished games where it is to move. The
        server answers at once: games are rebuilt in a background thread (the most recently
        changed first, at most half the live cache), and any game is rebuilt, and its AI
        started, when it is first asked for. Returns the number of games to look at."""
        ids = self.store.unfinished_ids(ai_only=True)[: MAX_SESSIONS // 2]
        t = threading.Thread(target=self._resume, args=(ids,), name="typhoon-resume", daemon=True)
        t.start()
        if wait:
            t.join()
        return len(ids)

    def _resume(self, ids: Sequence[str]) -> None:
        for gid in ids:
            if self._closing:
                return
            try:
                self.session(gid)  # kicks the AI
            except ApiError as exc:
                log.error("cannot resume game %s: %s", gid, exc.message)
            except Exception:  # a fault here must not end the thread silently
                log.exception("cannot resume game %s", gid)

    def close(self) -> None:
        """Stop the AI: no new decision starts; a decision being made is not waited for
        longer than CLOSE_WAIT seconds (its thread is a daemon and its result is dropped)."""
        self._closing = True
        with self._cv:
            self._queue.clear()
            self._cv.notify_all()
        deadline = time.monotonic() + CLOSE_WAIT
        for t in self._threads:
            t.join(max(0.0, deadline - time.monotonic()))

    # -- catalogue --------------------------------------------------------------------------

    def meta(self) -> dict[str, Any]:
        games = []
        for key in game_keys():
            mod = game_module(key)
            fe = mod.front_ends
            eds = mod.editions()
            games.append(
                {
                    "key": key,
                    "title": mod.title,
                    "sides": list(mod.sides),
                    "default_edition": self._default_edition(key),
                    "edition_word": mod.edition_word,
                    # the lobby's label for the edition list ("Rules edition", "Scenario")
                    "edition_label": "Rules edition"
                    if mod.edition_word == "edition"
                    else mod.edition_word.capitalize(),
                    "reconstruction": fe.notice,
                    "levels": player_names(key),  # a game-own level is offered only with its game
                    "editions": [
                        {
                            "key": ed,
                            "title": fe.edition_title(ed, title),
                            "options": [
                                {
                                    "name": o.name,
                                    "default": o.default,
                                    "choices": list(o.choices),
                                    "note": o.note,
                                }
                                for o in mod.option_specs(ed).values()
                            ],
                        }
                        for ed, title in eds.items()
                    ],
                }
            )
        levels = player_names()
        return {
            "games": games,
            "default_game": self.default_game,
            "levels": levels,
            "default_level": _default_level(levels),
            "modes": list(MODES),
        }

    def _default_edition(self, key: str) -> str:
        if key == self.default_game and self.default_edition is not None:
            return self.default_edition
        return game_module(key).default_edition

    def list_games(self, limit: int = 50) -> list[dict[str, Any]]:
        """The lobby: the most recent games (a damaged row is skipped by the store)."""
        with self._stored("read the games"):
            rows = self.store.recent(limit)
        out = []
        for r in rows:
            d = r.summary()
            d["edition_text"] = _edition_text(r.game, r.edition)
            out.append(d)
        return out

    # -- creating ---------------------------------------------------------------------------

    def create(self, params: Mapping[str, Any]) -> dict[str, Any]:
        key = _opt_str(params, "game") or self.default_game
        if key not in game_keys():
            raise _bad(f"unknown game {key!r}; games: {', '.join(game_keys())}")
        mode, side, level = _mode_side_level(params, game=key)
        edition = _opt_str(params, "edition") or self._default_edition(key)
        options = params.get("options") or {}
        if not isinstance(options, dict) or not all(isinstance(v, str | int) for v in options.values()):
            raise _bad("options must be an object of name: value strings")
        seed = params.get("seed")
        if seed is not None and mode == "remote":
            # The creator would know every die to come; the opponent could not tell.
            raise _bad("the seed is drawn by the server in a remote game: neither player may choose it")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed not in SEEDS):
            raise _bad("seed must be a whole number from 0 to 2**63 - 1")
        ai = _ai_sides(mode, side, level)
        try:
            game = Game(
                key,
                edition,
                {str(k): str(v) for k, v in options.items()},
                seed=seed,  # None: a secret seed drawn by the game
                players={sd: ai.get(sd, "human") for sd in SIDES},
            )
        except TyphoonError as exc:
            raise _bad(str(exc)) from None
        return self._store_new(game, mode, side, ai, notes=())

    def upload(self, text: str, params: Mapping[str, Any]) -> dict[str, Any]:
        """A new game from an uploaded record (validated by replaying every action). The
        game goes on with the record's seed when it has one (a remote game always gets a
        secret one: the uploader knows the record's), else with secret dice; if the record
        ends where a die is due, the die is rolled so that the game can continue."""
        mode, side, level = _mode_side_level(params, default_mode="hotseat")
        try:
            record = Record.from_text(text)
            bits = MAX_UPLOAD_SEED_BITS.get(record.dice, 0)
            if record.seed is not None and record.seed.bit_length() > bits:
                raise RecordError(
                    f"the seed is more than a {bits}-bit number, more than Typhoon draws for dice {record.dice!r}"
                )
            game = record.replay()
        except TyphoonError as exc:  # a RecordError naming the line at fault
            raise _bad(f"this record cannot be loaded: {exc}") from None
        if record.seed is None or mode == "remote":
            game.reseed_secret()  # the rolls so far stay as they are (dice_from)
        game.roll_dice()
        if mode == "ai" and level not in player_names(game.module.key):
            raise _bad(
                f"{game.module.title} has no AI level {level!r}; levels: {', '.join(player_names(game.module.key))}"
            )
        ai = _ai_sides(mode, side, level)
        game.players = {sd: ai.get(sd, "human") for sd in SIDES}
        return self._store_new(game, mode, side, ai, notes=())

    def _store_new(
        self, game: Game, mode: str, side: str, ai: dict[str, str], notes: Sequence[tuple[int, str, str]]
    ) -> dict[str, Any]:
        tokens = {sd: secrets.token_urlsafe(18) for sd in SIDES}
        if mode == "hotseat":
            tokens["host"] = secrets.token_urlsafe(18)
        gid = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        st = game.state
        row = GameRow(
            id=gid,
            game=game.module.key,
            edition=game.edition,
            options=dict(game.options),
            seed=game.seed,
            dice=game.dice,
            dice_from=game.dice_from,
            date=game.date,
            mode=mode,
            ai=ai,
            tokens=tokens,
            version=len(game.history),
            n_actions=len(game.history),
            turn=int(st.turn),
            phase=str(st.phase_spec.key),
            result=game.result,
        )
        actions = [(game.actor_letter(e.actor), game.text(e.action)) for e in game.history]
        with self._stored("store the new game"):
            self.store.create(row, actions, notes, creator=side if mode == "remote" else None)
        s = Session(row=row, game=game)
        self._remember(s)
        self.kick_ai(s)
        mine = "host" if mode == "hotseat" else side
        shared = list(SIDES) if mode == "remote" else [mine]  # remote: the opponent's link too
        return {
            "id": gid,
            "mode": mode,
            "side": side,
            "ai": ai,
            "token": tokens[mine],
            "links": {k: f"/g/{gid}#t={tokens[k]}" for k in shared},
            "watch": f"/g/{gid}",
        }

    @contextmanager
    def _stored(self, what: str) -> Iterator[None]:
        """Store failures as API errors: a conflict is 409, anything else 503 (the change, if
        any, was not written)."""
        try:
            yield
        except VersionConflict:
            raise ApiError(409, "the game changed meanwhile: reload it") from None
        except DamagedGameError as exc:
            raise ApiError(410, f"{exc}; it cannot be opened") from None
        except StoreError as exc:
            log.error("store failure (%s): %s", what, exc)
            raise ApiError(
                503, f"could not {what}: the games database failed (the fault is logged)"
            ) from None

    # -- sessions ---------------------------------------------------------------------------

    def _remember(self, s: Session) -> None:
        with self._lock:
            self._sessions[s.id] = s
            self._sessions.move_to_end(s.id)
            self._versions[s.id] = s.row.version
            while len(self._sessions) > MAX_SESSIONS:
                # The least recently used game the AI is not queued or deciding for (a game
                # the AI holds must stay the one live object of that game).
                old = next((k for k, v in self._sessions.items() if not v.ai_running), None)
                if old is None:
                    break
                del self._sessions[old]

    def session(self, game_id: str) -> Session:
        """The live game, rebuilt from the store if it is not in memory (then its AI is
        started if it is to move). 404 if there is no such game, 410 if it is damaged."""
        with self._lock:
            s = self._sessions.get(game_id)
            if s is not None:
                self._sessions.move_to_end(game_id)
                return s
            building = self._building.setdefault(game_id, threading.Lock())
        try:
            with building:  # a second request for the same game waits for the first rebuild
                with self._lock:
                    s = self._sessions.get(game_id)
                if s is None:
                    s = self._rebuild(game_id)
                    self._remember(s)
                    self.kick_ai(s)
                return s
        finally:
            with self._lock:
                self._building.pop(game_id, None)

    def _rebuild(self, game_id: str) -> Session:
        why = self._damaged.get(game_id)
        if why is not None:
            raise ApiError(410, why)
        with self._stored("read the game"):
            row = self.store.load(game_id)
            if row is None:
                raise ApiError(404, f"there is no game {game_id!r}")
            actions = self.store.actions(game_id)
            notes = self.store.notes(game_id)
            messages = self.store.messages(game_id)
        record = Record(
            game=row.game,
            edition=row.edition,
            options=dict(row.options),
            seed=row.seed,
            players={sd: row.ai.get(sd, "human") for sd in SIDES},
            date=row.date,
            actions=actions,
            dice=row.dice,
            dice_from=row.dice_from,
        )
        try:
            game = self._replay_stored(record)
        except Exception as exc:  # a RecordError, or whatever an engine changed since may raise
            why = f"game {game_id} is damaged and cannot be opened: its record no longer replays ({exc})"
            log.error("%s", why, exc_info=not isinstance(exc, TyphoonError))
            self._damaged[game_id] = why[:MAX_MESSAGE]
            raise ApiError(410, why) from None
        return Session(
            row=row,
            game=game,
            notes={n: (sd, t) for n, sd, t in notes},
            messages=[{"n": n, "side": sd, "text": t, "at": c} for n, sd, t, c in messages],
        )

    @staticmethod
    def _replay_stored(record: Record) -> Game:
        """A stored game rebuilt. Games uploaded before the dice were checked (schema 1) have
        rolls that their stored seed does not give; the store wrote them itself, so they are
        rebuilt with those rolls taken as played, and the dice to come still drawn from the
        seed by roll index."""
        try:
            return record.replay(check_result=False)
        except RecordError:
            if record.dice != "mt" or record.dice_from != 0:
                raise
        record.dice_from = sum(1 for actor, _ in record.actions if actor == "*")
        game = record.replay(check_result=False)
        log.warning("game rebuilt with rolls its seed does not give (uploaded before the dice were checked)")
        return game

    def version(self, game_id: str) -> int:
        """The game's current version, cheaply and whether or not it is live (a long poll
        watches this, so it wakes even if its game was evicted from the cache meanwhile)."""
        with self._lock:
            v = self._versions.get(game_id)
        if v is not None:
            return v
        with self._stored("read the game"):
            got = self.store.version(game_id)
        if got is None:
            raise ApiError(404, f"there is no game {game_id!r}")
        with self._lock:
            return self._versions.setdefault(game_id, got)

    @staticmethod
    def _token_sides(s: Session, token: str | None) -> set[int]:
        """The sides this token is the secret of (AI sides included). Every stored token is
        compared in constant time, as bytes (a token may hold any character)."""
        if not token:
            return set()
        given = token.encode("utf-8", "surrogatepass")
        out: set[int] = set()
        for key, value in s.row.tokens.items():
            if secrets.compare_digest(value.encode(), given):
                out |= {0, 1} if key == "host" else {SIDES.index(key)}
        return out

    def sides_of(self, s: Session, token: str | None) -> set[int]:
        """The sides this token may play for (never an AI side)."""
        return {sd for sd in self._token_sides(s, token) if SIDES[sd] not in s.row.ai}

    # -- reading ----------------------------------------------------------------------------

    def view(
        self,
        game_id: str,
        token: str | None,
        *,
        svg: bool = False,
        numbers: bool = False,
        legal: bool = False,
    ) -> dict[str, Any]:
        s = self.session(game_id)
        with s.lock:
            return self._view(s, token, svg=svg, numbers=numbers, legal=legal)

    def _view(
        self, s: Session, token: str | None, *, svg: bool, numbers: bool = False, legal: bool = False
    ) -> dict[str, Any]:
        """The position for this token's holder (under s.lock); with ``legal``, the legal
        actions too when it is that holder's decision (saves the browser a request)."""
        g = s.game
        you = sorted(self.sides_of(s, token))
        player = g.current_player()
        v = dict(s.memo("view", lambda: self._shared_view(s)))
        v.update(
            {
                "you": [SIDES[sd] for sd in you],
                "your_turn": player in you,
                "can_undo": any(g.can_undo(sd, players=you) for sd in you),
                "ai_thinking": s.ai_running,
                "ai_error": s.ai_error,
            }
        )
        if s.row.mode == "remote" and you:  # the players' messages: never a spectator's to read
            v["messages"] = s.messages[-50:]
        if svg:
            v["svg"] = s.memo(("svg", numbers), lambda: _render(g.module.front_ends, g.state, numbers))
        if legal and player in you:
            lv = self._legal(s)
            v["legal"] = lv["actions"]
            v["prompt"] = lv.get("prompt")
            if lv.get("batches"):  # buttons that send several legal actions together
                v["batches"] = lv["batches"]
        return v

    def _shared_view(self, s: Session) -> dict[str, Any]:
        """The part of the view that is the same for every token."""
        g = s.game
        fe = g.module.front_ends
        v = fe.state_view(g.state)
        v["game"] = g.module.key
        v.setdefault("notice", fe.notice)
        v.update(
            {
                "id": s.id,
                "version": s.row.version,
                "actions": len(g.history),
                "mode": s.row.mode,
                "ai": dict(s.row.ai),
                "log": self._log(s, max(0, len(g.history) - LOG_ENTRIES)),
                "result_text": _result_text(g),
            }
        )
        return v

    @staticmethod
    def _legal(s: Session) -> dict[str, Any]:
        g = s.game
        fe = g.module.front_ends
        return dict(s.memo("legal", lambda: fe.legal_view(g.state, g.legal_actions(), g.text)))

    def _log(self, s: Session, start: int, stop: int | None = None) -> list[dict[str, Any]]:
        g = s.game
        out = []
        for i, e in enumerate(g.history[start:stop], start):
            entry: dict[str, Any] = {
                "n": i + 1,
                "actor": "chance" if e.actor == CHANCE else SIDES[e.actor],
                "action": g.text(e.action),
                "events": [{"kind": ev.kind, "text": ev.text, "data": ev.data} for ev in e.events],
            }
            note = s.notes.get(i + 1)
            if note is not None:
                entry["explanation"] = note[1]
            out.append(entry)
        return out

    def full_log(self, game_id: str) -> list[dict[str, Any]]:
        s = self.session(game_id)
        with s.lock:
            return self._log(s, 0)

    def legal(self, game_id: str) -> dict[str, Any]:
        s = self.session(game_id)
        with s.lock:
            out = self._legal(s)
            out["version"] = s.row.version
        return out

    def preview(self, game_id: str, target: str, attackers: Sequence[str]) -> dict[str, Any]:
        s = self.session(game_id)
        with s.lock:
            state = s.game.state
            fe = s.game.module.front_ends
        if fe.preview is None:
            raise ApiError(422, fe.no_preview)
        try:
            return fe.preview(state, target, list(attackers))
        except IllegalActionError as exc:
            raise ApiError(422, str(exc)) from None

    def overlays(self, game_id: str, side: str | None, step: int | None = None) -> dict[str, Any]:
        """The game's overlays for ``side`` (a side's name; default: the side to move, else the
        first) at ``step`` (default: now): layers a player switches on, and the victory status."""
        s = self.session(game_id)
        with s.lock:
            fe = s.game.module.front_ends
            state = self._at_step(s, step)[2] if step is not None else s.game.state
            sides = list(s.game.module.sides)
        if fe.overlays is None:
            raise ApiError(422, "this game offers no overlays")
        if side is None:
            who = state.current_player() if not state.is_terminal else 0
            sd = who if 0 <= who < len(sides) else 0
        elif side in sides:
            sd = sides.index(side)
        else:
            raise _bad(f"'side' must be one of {', '.join(sides)}")
        return {"side": sides[sd], **fe.overlays(state, sd)}

    def rules_reference(self, game_id: str) -> dict[str, Any]:
        """The rules reference of the edition in force, the current phase and turn marked."""
        s = self.session(game_id)
        with s.lock:
            fe = s.game.module.front_ends
            state = s.game.state
        if fe.rules_reference is None:
            raise ApiError(422, "this game offers no rules reference")
        return fe.rules_reference(state)

    def record_text(self, game_id: str) -> str:
        s = self.session(game_id)
        with s.lock:
            rec = Record.from_game(s.game)
            if not s.game.is_over:
                rec.seed = None  # the seed would tell a player the dice still to come
            return str(rec.to_text())

    def _at_step(self, s: Session, step: int | None) -> tuple[int, int, Any]:
        """(step, total, state after the first ``step`` actions), ``step`` clamped to the log
        (default: all of it). Under s.lock."""
        g = s.game
        total = len(g.history)
        step = total if step is None else max(0, min(step, total))
        return step, total, g.state_at(step)

    def replay_step(self, game_id: str, step: int | None, *, numbers: bool = False) -> dict[str, Any]:
        s = self.session(game_id)
        with s.lock:
            step, total, state = self._at_step(s, step)
            # Each entry knows the turn it was played in: no past state is rebuilt for this.
            played = [e.turn for e in s.game.history] + [int(s.game.state.turn)]
            entry = self._log(s, step - 1, step)[0] if step > 0 else None
            fe = s.game.module.front_ends
        turns: list[dict[str, Any]] = []
        for i, turn in enumerate(played):
            if not turns or turn != turns[-1]["turn"]:  # turns only go forward
                turns.append({"turn": turn, "step": i, "label": fe.turn_label(state.rules, turn)})
        return {
            "id": s.id,
            "step": step,
            "total": total,
            "turns": turns,
            "entry": entry,
            "state": fe.state_view(state),
            "svg": _render(fe, state, numbers),
        }

    def map_svg(self, game_id: str, step: int | None, *, numbers: bool = False) -> str:
        s = self.session(game_id)
        with s.lock:
            state = self._at_step(s, step)[2]
            fe = s.game.module.front_ends
        return _render(fe, state, numbers)

    def hex_info(self, game_id: str, hid: str) -> dict[str, Any]:
        """One hex in words (terrain, features, units), as the map's tooltip says it."""
        s = self.session(game_id)
        with s.lock:
            state = s.game.state
            fe = s.game.module.front_ends
        try:
            return fe.hex_view(state, hid)
        except KeyError:
            raise _bad(f"'{hid}' is not a hex of this map (CCRR)") from None

    # -- acting -----------------------------------------------------------------------------

    def act(
        self,
        game_id: str,
        token: str | None,
        texts: Sequence[str],
        seen: int,
        *,
        svg: bool = False,
        legal: bool = False,
    ) -> dict[str, Any]:
        if not texts:
            raise _bad("no action given")
        if len(texts) > MAX_BATCH:
            raise _bad(f"at most {MAX_BATCH} actions in one request")
        s = self.session(game_id)
        with s.lock:
            sides = self._check(s, token, seen, svg, legal)
            g = s.game.copy()
            first = len(g.history)
            for text in texts:
                who = g.current_player()
                if who == TERMINAL:
                    raise ApiError(422, "the game is over")
                if who not in sides:
                    raise ApiError(
                        403, _not_yours(s, who, sides), state=self._view(s, token, svg=svg, legal=legal)
                    )
                try:
                    action = g.module.action_from_text(text)
                    g.play(action)
                except NotationError as exc:
                    raise ApiError(422, f"cannot read the action: {exc}") from None
                except IllegalActionError as exc:
                    raise ApiError(422, f"illegal action '{text}': {exc}") from None
                g.roll_dice()
            self._commit(s, g, first)
            out = {"log": self._log(s, first), "state": self._view(s, token, svg=svg, legal=legal)}
        self.kick_ai(s)
        return out

    def post_message(self, game_id: str, token: str | None, text: Any) -> dict[str, Any]:
        """A player of a remote game leaves the opponent a short plain-text message (issue 15):
        stored with the game; the version moves on, so the opponent's next poll shows it."""
        if not isinstance(text, str):
            raise _bad("give the message as 'text' (a string)")
        text = text.strip()
        if not text:
            raise _bad("the message is empty")
        if len(text) > MAX_CHAT:
            raise _bad(f"a message has at most {MAX_CHAT} characters (this one has {len(text)})")
        if any(unicodedata.category(c) == "Cc" and c not in "\n\t" for c in text):
            raise _bad("a message is plain text: no control characters")
        s = self.session(game_id)
        with s.lock:
            if s.row.mode != "remote":
                raise ApiError(422, "messages are for remote games (two players, each with a secret link)")
            sides = self.sides_of(s, token)
            if len(sides) != 1:
                raise ApiError(403, "only a player's own secret link can send a message")
            if len(s.messages) >= MAX_CHATS:
                raise ApiError(422, f"this game already holds {MAX_CHATS} messages, the most it keeps")
            side = SIDES[next(iter(sides))]
            with self._stored("save the message"):
                version = self.store.add_message(s.id, side, text, expect_version=s.row.version)
            s.messages.append({"n": len(s.messages) + 1, "side": side, "text": text, "at": now()})
            s.row.version = version
            with self._lock:
                self._versions[s.id] = version
            return {"messages": s.messages[-50:], "version": version}

    def delete(self, game_id: str, token: str | None) -> dict[str, Any]:
        """Delete a saved game (issue 15: from the lobby). Only the link that made it may: the
        hot seat's link, the human player's link of a game against the computer, the creator's
        link of a remote game (the opponent's may not). 404 for no such game, 403 otherwise."""
        s = self.session(game_id)
        with s.lock:
            if not token:
                raise ApiError(403, "deleting a game needs its secret link (a spectator may not delete it)")
            mine = self._token_sides(s, token)
            if s.row.mode == "remote":
                with self._stored("read the game's creator"):
                    creator = self.store.creator(s.id)
                if creator is None:
                    raise ApiError(
                        403, "this remote game does not record who made it, so no link may delete it"
                    )
                allowed = SIDES.index(creator) in mine and len(mine) == 1
            else:
                allowed = bool(self.sides_of(s, token))
            if not allowed:
                raise ApiError(403, "only the secret link of the player who made this game may delete it")
            with self._stored("delete the game"):
                gone = self.store.delete(s.id)
            s.deleted = True
            with self._lock:
                self._sessions.pop(s.id, None)
                self._versions.pop(s.id, None)
        if not gone:
            raise ApiError(404, f"there is no game {game_id!r}")
        return {"deleted": game_id}

    def undo(
        self, game_id: str, token: str | None, seen: int, *, svg: bool = False, legal: bool = False
    ) -> dict[str, Any]:
        s = self.session(game_id)
        with s.lock:
            sides = self._check(s, token, seen, svg, legal)
            g = s.game.copy()
            if not g.can_undo():
                raise ApiError(422, "nothing to undo here: undo never crosses a die roll")
            last = g.history[-1].actor
            if last not in sides:
                raise ApiError(
                    403, f"the last decision was the {SIDES[last].capitalize()} player's, not yours"
                )
            if not g.can_undo(last, players=sides):
                raise ApiError(422, "nothing to undo here: the move has passed to the other player since")
            undone = g.text(g.undo(last, players=sides).action)
            progress = self._progress(s, g)
            with self._stored("save the undo"):
                self.store.truncate(s.id, len(g.history), progress, expect_version=s.row.version)
            self._apply_progress(s, g, progress)
            for n in [n for n in s.notes if n > len(g.history)]:
                del s.notes[n]
            return {"undone": undone, "state": self._view(s, token, svg=svg, legal=legal)}

    def _check(self, s: Session, token: str | None, seen: int, svg: bool, legal: bool) -> set[int]:
        sides = self.sides_of(s, token)
        if not sides:
            if self._token_sides(s, token):
                raise ApiError(403, "that side is played by the AI")
            raise ApiError(403, "this link cannot play in this game (missing or wrong token)")
        if seen != s.row.version:
            raise ApiError(
                409,
                f"the game has moved on: you saw position {seen}, it is now at {s.row.version}",
                state=self._view(s, token, svg=svg, legal=legal),
            )
        return sides

    def _progress(self, s: Session, g: Game) -> Progress:
        st = g.state
        return Progress(
            version=s.row.version + 1,
            n_actions=len(g.history),
            turn=int(st.turn),
            phase=str(st.phase_spec.key),
            result=g.result,
        )

    def _apply_progress(self, s: Session, g: Game, p: Progress) -> None:
        s.game = g
        s.row.version = p.version
        s.row.n_actions = p.n_actions
        s.row.turn = p.turn
        s.row.phase = p.phase
        s.row.result = p.result
        with self._lock:
            self._versions[s.id] = p.version

    def _commit(self, s: Session, g: Game, first: int, notes: Sequence[tuple[int, str, str]] = ()) -> None:
        """Write the actions after ``first`` and make ``g`` the live game (under s.lock)."""
        new = g.history[first:]
        actions = [(g.actor_letter(e.actor), g.text(e.action)) for e in new]
        progress = self._progress(s, g)
        with self._stored("save the actions"):
            self.store.append(s.id, first + 1, actions, progress, expect_version=s.row.version, notes=notes)
        self._apply_progress(s, g, progress)
        for n, sd, text in notes:
            s.notes[n] = (sd, text)

    # -- the AI -----------------------------------------------------------------------------

    def kick_ai(self, s: Session) -> None:
        """Queue the game for the AI workers if it is an AI side's decision."""
        with s.lock:
            if s.ai_running or self._closing or not self._ai_to_move(s):
                return
            s.ai_running = True
            s.ai_error = None
        self._enqueue(s, 0.0)

    def _enqueue(self, s: Session, delay: float) -> None:
        with self._cv:
            if self._closing:
                return
            s.ai_ready_at = time.monotonic() + delay
            self._queue.append(s)
            while len(self._threads) < self.ai_workers:  # started on first use
                t = threading.Thread(
                    target=self._worker, name=f"typhoon-ai-{len(self._threads)}", daemon=True
                )
                self._threads.append(t)
                t.start()
            self._cv.notify()

    def _next(self) -> Session | None:
        """The first game in the queue that may be served now (under self._cv): not waiting
        for its ai_delay, and not a search level while every heavy slot is taken."""
        now = time.monotonic()
        for i, s in enumerate(self._queue):
            if s.ai_ready_at <= now and (self._heavy_running < self.heavy_workers or not s.heavy):
                del self._queue[i]
                return s
        return None

    def _worker(self) -> None:
        while True:
            with self._cv:
                while True:
                    if self._closing:
                        return
                    s = self._next()
                    if s is not None:
                        break
                    soon = [q.ai_ready_at for q in self._queue]
                    self._cv.wait(max(0.005, min(soon) - time.monotonic()) if soon else None)
                heavy = s.heavy
                self._heavy_running += heavy
            try:
                again = self._ai_decide(s)
            finally:
                with self._cv:
                    self._heavy_running -= heavy
                    self._cv.notify_all()  # a heavy slot may be free again
            if again:
                self._enqueue(s, self.ai_delay)  # to the back of the queue: round-robin

    def _ai_to_move(self, s: Session) -> bool:
        who = s.game.current_player()
        return who >= 0 and SIDES[who] in s.row.ai

    def _player(self, s: Session, side: int) -> Any:
        p = s.players.get(side)
        if p is None:
            level = s.row.ai[SIDES[side]]
            if level not in player_names():  # never start a program (`cmd:`) named by the store
                raise OptionError(f"unknown AI level {level!r}")
            # Its own seed: one drawn from the dice seed would give the dice away.
            p = s.players[side] = make_player(level, seed=secrets.randbits(63))
            _limit_time(p, self.ai_time_limit)
        return p

    def _ai_decide(self, s: Session) -> bool:
        """One AI decision in this game, committed like a human one. Returns whether the game
        should be queued again (the AI may be to move again)."""
        try:
            with s.lock:
                if self._closing or s.deleted or not self._ai_to_move(s):
                    s.ai_running = False
                    return False
                who = s.game.current_player()
                state = s.game.state
                version = s.row.version
                actions = s.game.legal_actions()
                player = self._player(s, who)
            action = player.choose(state, actions)
            note = _explain(player)
            with s.lock:
                if self._closing or s.deleted:  # stopping (the store may be closed) or deleted
                    s.ai_running = False
                    return False
                if s.row.version != version:
                    return True  # something changed meanwhile: think again
                g = s.game.copy()
                first = len(g.history)
                g.play(action)
                g.roll_dice()
                self._commit(s, g, first, [(first + 1, SIDES[who], note)] if note else [])
            return True
        except Exception as exc:  # an AI bug must not take the server down
            log.exception("AI failed in game %s", s.id)
            with s.lock:
                s.ai_error = f"the AI failed: {exc.message if isinstance(exc, ApiError) else exc}"
                s.ai_running = False
            return False


def _render(fe: FrontEnds, state: Any, numbers: bool) -> str:
    """The game's map as one SVG document (drawn by the game's package)."""
    return fe.render_map(state, numbers)


def _edition_text(game: str, edition: str) -> str:
    """A stored game's edition as the lobby lists it (its own word if the game is no longer
    registered)."""
    try:
        return game_module(game).front_ends.edition_text(edition)
    except OptionError:
        return edition


def _is_search(level: str) -> bool:
    return level == "search" or level.startswith("search:")


def _limit_time(player: Any, limit: float | None) -> None:
    """Cut the player's searches at ``limit`` seconds per decision, if it searches (the search
    levels' ``config.time_limit``, checked between rounds of roll-outs)."""
    cfg = getattr(player, "config", None)
    if limit is None or cfg is None or not dataclasses.is_dataclass(cfg) or not hasattr(cfg, "time_limit"):
        return
    own = cfg.time_limit
    player.config = dataclasses.replace(cfg, time_limit=limit if own is None else min(own, limit))  # type: ignore[type-var]


def _explain(player: Any) -> str | None:
    fn: Callable[[], Any] | None = getattr(player, "explain", None)
    if fn is None:
        return None
    try:
        text = fn()
    except TypeError:
        return None
    return None if text is None else str(text)[:4000]


def _default_level(levels: Sequence[str]) -> str:
    for pref in ("heuristic", "search", "random"):
        if pref in levels:
            return pref
    return levels[0] if levels else "random"


def _opt_str(params: Mapping[str, Any], key: str) -> str | None:
    v = params.get(key)
    if v is None or v == "":
        return None
    if not isinstance(v, str):
        raise _bad(f"{key} must be a string")
    return v


def _mode_side_level(
    params: Mapping[str, Any], default_mode: str = "ai", game: str | None = None
) -> tuple[str, str, str]:
    mode = _opt_str(params, "mode") or default_mode
    if mode not in MODES:
        raise _bad(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    side = _opt_str(params, "side") or "german"
    if side not in SIDES:
        raise _bad(f"side must be german or soviet, not {side!r}")
    levels = player_names(game)
    level = _opt_str(params, "level") or _default_level(levels)
    if level not in levels:
        raise _bad(f"unknown AI level {level!r}; levels: {', '.join(levels)}")
    return mode, side, level


def _ai_sides(mode: str, side: str, level: str) -> dict[str, str]:
    if mode != "ai":
        return {}
    other = SIDES[1 - SIDES.index(side)]
    return {other: level}


def _not_yours(s: Session, who: int, sides: set[int]) -> str:
    if who == CHANCE:
        return "a die roll is due"
    name = SIDES[who].capitalize()
    if SIDES[who] in s.row.ai:
        return f"it is the {name} player's decision, and the AI plays that side"
    return f"it is the {name} player's decision, not yours"


def _result_text(g: Game) -> str | None:
    if not g.is_over:
        return None
    for e in reversed(g.history[-1].events if g.history else []):
        if e.kind == "game_over":
            return str(e.text)
    return f"Game over: {g.result}"


__all__ = ["MODES", "SIDES", "ApiError", "GameService", "Session"]
