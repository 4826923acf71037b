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

AI sides play in a worker thread as soon as it is their decision, one action at a time,
each committed like a human one, so the server stays responsive and a crash loses nothing.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from typhoon.errors import IllegalActionError, NotationError, RecordError, TyphoonError
from typhoon.game import CHANCE, TERMINAL, Game
from typhoon.games import game_keys, game_module
from typhoon.games.bfm.preview import preview
from typhoon.players import make_player, player_names
from typhoon.record import Record
from typhoon.web import tmc_svg, tmc_views
from typhoon.web.storage import GameRow, Progress, Store
from typhoon.web.svg import render_map
from typhoon.web.views import hex_words, legal_view, state_view

log = logging.getLogger("typhoon.web")

MODES = ("ai", "hotseat", "remote")
SIDES = ("german", "soviet")
LOG_ENTRIES = 120  # log entries sent with every view
MAX_SESSIONS = 256  # live games kept in memory (the rest are rebuilt on demand)
MAX_BATCH = 64  # actions in one request
MAX_MESSAGE = 2000  # characters of an error message (a record's bad line is quoted in it)
SEEDS = range(-(2**63), 2**63)  # seeds are stored as SQLite integers


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
    lock: threading.RLock = field(default_factory=threading.RLock)
    players: dict[int, Any] = field(default_factory=dict)  # side -> AI player object
    ai_running: bool = False
    ai_error: str | None = None
    # What every viewer of the current position is shown (views, map, legal actions), made
    # once per version: the long poll wakes every watcher of a game at the same change.
    _memo: dict[Any, Any] = field(default_factory=dict)
    _memo_version: int = -1

    @property
    def id(self) -> str:
        return self.row.id

    def memo(self, key: Any, make: Callable[[], Any]) -> Any:
        """``make()``, computed once per version of the game (call it under ``self.lock``)."""
        if self._memo_version != self.row.version:
            self._memo = {}
            self._memo_version = self.row.version
        if key not in self._memo:
            self._memo[key] = make()
        return self._memo[key]


class GameService:
    def __init__(self, store: Store, *, ai_workers: int = 2, ai_delay: float = 0.0):
        self.store = store
        self.ai_delay = ai_delay
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=ai_workers, thread_name_prefix="typhoon-ai")
        self._closing = False

    # -- lifecycle --------------------------------------------------------------------------

    def resume(self) -> int:
        """After a restart: rebuild every unfinished game with an AI side and let the AI move
        where it is its decision. (Other games are rebuilt when first asked for.) Returns the
        number of games resumed."""
        n = 0
        for gid in self.store.unfinished_ids(ai_only=True):
            try:
                s = self.session(gid)
            except ApiError as exc:
                log.error("cannot resume game %s: %s", gid, exc.message)
                continue
            self.kick_ai(s)
            n += 1
        return n

    def close(self) -> None:
        self._closing = True
        self._pool.shutdown(wait=True, cancel_futures=True)

    # -- catalogue --------------------------------------------------------------------------

    def meta(self) -> dict[str, Any]:
        games = []
        for key in game_keys():
            mod = game_module(key)
            eds = mod.editions()
            games.append(
                {
                    "key": key,
                    "title": mod.title,
                    "sides": list(mod.sides),
                    "default_edition": mod.default_edition,
                    "reconstruction": tmc_views.words.RECONSTRUCTION if key == "tmc" else None,
                    "editions": [
                        {
                            "key": ed,
                            "title": tmc_views.edition_title(ed, title) if key == "tmc" else title,
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
            "levels": levels,
            "default_level": _default_level(levels),
            "modes": list(MODES),
        }

    def list_games(self, limit: int = 50) -> list[dict[str, Any]]:
        return [r.summary() for r in self.store.recent(limit)]

    # -- creating ---------------------------------------------------------------------------

    def create(self, params: Mapping[str, Any]) -> dict[str, Any]:
        mode, side, level = _mode_side_level(params)
        key = _opt_str(params, "game") or "bfm"
        if key not in game_keys():
            raise _bad(f"unknown game {key!r}; games: {', '.join(game_keys())}")
        edition = _opt_str(params, "edition")
        options = params.get("options") or {}
        if not isinstance(options, dict) or not all(isinstance(v, str | int) for v in options.values()):
            raise _bad("options must be an object of name: value strings")
        seed = params.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed not in SEEDS):
            raise _bad("seed must be an integer of at most 64 bits")
        ai = _ai_sides(mode, side, level)
        try:
            game = Game(
                key,
                edition,
                {str(k): str(v) for k, v in options.items()},
                seed=seed,
                players={sd: ai.get(sd, "human") for sd in SIDES},
            )
        except TyphoonError as exc:
            raise _bad(str(exc)) from None
        return self._store_new(game, mode, side, ai, notes=())

    def upload(self, text: str, params: Mapping[str, Any]) -> dict[str, Any]:
        """A new game from an uploaded record (validated by replaying every action)."""
        mode, side, level = _mode_side_level(params, default_mode="hotseat")
        try:
            record = Record.from_text(text)
            if record.seed is not None and record.seed not in SEEDS:
                raise RecordError("the seed is more than a 64-bit integer")
            game = record.replay()
        except TyphoonError as exc:  # a RecordError naming the line at fault
            raise _bad(f"this record cannot be loaded: {exc}") from None
        if record.seed is None:
            game.seed = secrets.randbelow(2**31)
            game.resync_dice()
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
        self.store.create(row, actions, notes)
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

    # -- sessions ---------------------------------------------------------------------------

    def _remember(self, s: Session) -> None:
        with self._lock:
            self._sessions[s.id] = s
            self._sessions.move_to_end(s.id)
            while len(self._sessions) > MAX_SESSIONS:
                old_id, old = next(iter(self._sessions.items()))
                if old.ai_running:
                    self._sessions.move_to_end(old_id)
                    break
                del self._sessions[old_id]

    def session(self, game_id: str) -> Session:
        with self._lock:
            s = self._sessions.get(game_id)
            if s is not None:
                self._sessions.move_to_end(game_id)
                return s
        row = self.store.get(game_id)
        if row is None:
            raise ApiError(404, f"there is no game {game_id!r}")
        record = Record(
            game=row.game,
            edition=row.edition,
            options=dict(row.options),
            seed=row.seed,
            players={sd: row.ai.get(sd, "human") for sd in SIDES},
            date=row.date,
            actions=self.store.actions(game_id),
        )
        try:
            game = record.replay(check_result=False)
        except RecordError as exc:
            raise ApiError(500, f"game {game_id} cannot be rebuilt from its record: {exc}") from None
        s = Session(row=row, game=game, notes={n: (sd, t) for n, sd, t in self.store.notes(game_id)})
        with self._lock:
            existing = self._sessions.get(game_id)
            if existing is not None:
                return existing
        self._remember(s)
        return s

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
                "can_undo": any(g.can_undo(sd) for sd in you),
                "ai_thinking": s.ai_running,
                "ai_error": s.ai_error,
            }
        )
        if svg:
            v["svg"] = s.memo(("svg", numbers), lambda: _render(g.state, numbers))
        if legal and player in you:
            v["legal"] = self._legal(s)["actions"]
        return v

    def _shared_view(self, s: Session) -> dict[str, Any]:
        """The part of the view that is the same for every token."""
        g = s.game
        v = tmc_views.state_view(g.state) if _is_tmc(g.state) else state_view(g.state)
        v["game"] = g.module.key
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
        if _is_tmc(g.state):
            return dict(s.memo("legal", lambda: tmc_views.legal_view(g.state, g.legal_actions(), g.text)))
        return dict(s.memo("legal", lambda: legal_view(g.state, g.legal_actions())))

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
        if _is_tmc(state):
            raise ApiError(
                422, "The Moscow Campaign has no odds preview: the odds are chosen when an attack is resolved"
            )
        try:
            p = preview(state, target, list(attackers))
        except IllegalActionError as exc:
            raise ApiError(422, str(exc)) from None
        d = p.as_dict()
        d["text"] = p.text()
        return d

    def record_text(self, game_id: str) -> str:
        s = self.session(game_id)
        with s.lock:
            rec = s.game.to_record()
            if not s.game.is_over:
                rec.seed = None  # the seed would tell a player the dice still to come
            return str(rec.to_text())

    def _at_step(self, s: Session, step: int | None) -> tuple[int, int, Any]:
        """(step, total, state after the first ``step`` actions), ``step`` clamped to the log
        (default: all of it). Under s.lock."""
        g = s.game
        total = len(g.history)
        step = total if step is None else max(0, min(step, total))
        return step, total, g.history[step].before if step < total else g.state

    def replay_step(self, game_id: str, step: int | None, *, numbers: bool = False) -> dict[str, Any]:
        s = self.session(game_id)
        with s.lock:
            step, total, state = self._at_step(s, step)
            states = [e.before for e in s.game.history] + [s.game.state]
            entry = self._log(s, step - 1, step)[0] if step > 0 else None
        tmc = _is_tmc(state)
        labels = {} if tmc else state.rules.turn_labels
        turns: list[dict[str, Any]] = []
        for i, st in enumerate(states):
            if not turns or st.turn != turns[-1]["turn"]:  # turns only go forward
                label = tmc_views.turn_label(st) if tmc else labels.get(st.turn, "set-up")
                turns.append({"turn": st.turn, "step": i, "label": label})
        return {
            "id": s.id,
            "step": step,
            "total": total,
            "turns": turns,
            "entry": entry,
            "state": tmc_views.state_view(state) if tmc else state_view(state),
            "svg": _render(state, numbers),
        }

    def map_svg(self, game_id: str, step: int | None, *, numbers: bool = False) -> str:
        s = self.session(game_id)
        with s.lock:
            state = self._at_step(s, step)[2]
        return _render(state, numbers)

    def hex_info(self, game_id: str, hid: str) -> dict[str, Any]:
        """One hex in words (terrain, features, units), as the map's tooltip says it."""
        s = self.session(game_id)
        with s.lock:
            state = s.game.state
        grid = state.rules.map.grid if not _is_tmc(state) else state.rules.grid
        if hid not in grid.index:
            raise _bad(f"'{hid}' is not a hex of this map (CCRR)")
        if _is_tmc(state):
            return tmc_views.hex_view(state, hid)
        h = grid.index[hid]
        return {
            "hex": hid,
            "words": hex_words(state, h),
            "units": [state.rules.units[u].id for u in state.units_at(h)],
        }

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

    def undo(
        self, game_id: str, token: str | None, seen: int, *, svg: bool = False, legal: bool = False
    ) -> dict[str, Any]:
        s = self.session(game_id)
        with s.lock:
            sides = self._check(s, token, seen, svg, legal)
            g = s.game.copy()
            if not g.can_undo():
                raise ApiError(
                    422, "nothing to undo here: undo stays within a phase and never crosses a die roll"
                )
            last = g.history[-1].actor
            if last not in sides:
                raise ApiError(
                    403, f"the last decision was the {SIDES[last].capitalize()} player's, not yours"
                )
            undone = g.text(g.undo(last).action)
            progress = self._progress(s, g)
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

    def _commit(self, s: Session, g: Game, first: int, notes: Sequence[tuple[int, str, str]] = ()) -> None:
        """Write the actions after ``first`` and make ``g`` the live game (under s.lock)."""
        new = g.history[first:]
        actions = [(g.actor_letter(e.actor), g.text(e.action)) for e in new]
        progress = self._progress(s, g)
        self.store.append(s.id, first + 1, actions, progress, expect_version=s.row.version, notes=notes)
        self._apply_progress(s, g, progress)
        for n, sd, text in notes:
            s.notes[n] = (sd, text)

    # -- the AI -----------------------------------------------------------------------------

    def kick_ai(self, s: Session) -> None:
        """Start the AI worker if it is an AI side's decision."""
        with s.lock:
            if s.ai_running or self._closing or not self._ai_to_move(s):
                return
            s.ai_running = True
            s.ai_error = None
        try:
            self._pool.submit(self._ai_loop, s)
        except RuntimeError:  # the pool is shut down
            with s.lock:
                s.ai_running = False

    def _ai_to_move(self, s: Session) -> bool:
        who = s.game.current_player()
        return who >= 0 and SIDES[who] in s.row.ai

    def _player(self, s: Session, side: int) -> Any:
        p = s.players.get(side)
        if p is None:
            p = s.players[side] = make_player(
                s.row.ai[SIDES[side]], seed=s.row.seed * 2 + side + len(s.game.history)
            )
        return p

    def _ai_loop(self, s: Session) -> None:
        try:
            while True:
                with s.lock:
                    if self._closing or not self._ai_to_move(s):
                        s.ai_running = False
                        return
                    who = s.game.current_player()
                    state = s.game.state
                    version = s.row.version
                    actions = s.game.legal_actions()
                    player = self._player(s, who)
                action = player.choose(state, actions)
                note = _explain(player)
                if self.ai_delay:
                    time.sleep(self.ai_delay)
                with s.lock:
                    if s.row.version != version:
                        continue  # something changed meanwhile: think again
                    g = s.game.copy()
                    first = len(g.history)
                    g.play(action)
                    g.roll_dice()
                    self._commit(s, g, first, [(first + 1, SIDES[who], note)] if note else [])
        except Exception as exc:  # an AI bug must not take the server down
            log.exception("AI failed in game %s", s.id)
            with s.lock:
                s.ai_error = f"the AI failed: {exc}"
                s.ai_running = False


def _is_tmc(state: Any) -> bool:
    return type(state).__module__ == "typhoon.games.tmc.state"


def _render(state: Any, numbers: bool) -> str:
    """The map of either game as one SVG document."""
    if _is_tmc(state):
        return tmc_svg.render_map(state, numbers=numbers)
    return render_map(state, numbers=numbers)


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


def _mode_side_level(params: Mapping[str, Any], default_mode: str = "ai") -> tuple[str, str, str]:
    mode = _opt_str(params, "mode") or default_mode
    if mode not in MODES:
        raise _bad(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    side = _opt_str(params, "side") or "german"
    if side not in SIDES:
        raise _bad(f"side must be german or soviet, not {side!r}")
    levels = player_names()
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
