"""A game in progress: the current state, the dice, the history and undo (its record: typhoon.record).

    game = Game(seed=1)                      # the default game, its default edition
    game.play_text("setup standard")         # Soviet set-up
    game.play(game.legal_actions()[0])
    game.roll_dice()                         # settles any die roll that is due
    game.undo()                              # never across a die roll
    text = Record.from_game(game).to_text()  # typhoon.record: records sit above games

The state objects are immutable values (see the game module); a Game holds the current one and
the history of actions. To keep a long game's memory bounded (issue 10 point 5) the history
keeps the state an action was played in only every ``SNAPSHOT_EVERY`` actions (and for the
last action, for undo); :attr:`Entry.before` and :meth:`Game.state_at` replay the others from
the nearest snapshot.

Dice (docs/API.md, "Dice"): a game whose seed nobody chose draws a secret 256-bit seed and
rolls die ``i`` from SHA-256 of (seed, i) (``dice == "sha256"``); a chosen seed keeps the
legacy ``random.Random(seed)`` sequence (``dice == "mt"``), so fixed-seed games and records
stay exactly as they were.
"""

from __future__ import annotations

import datetime
import hashlib
import random
import secrets
import threading
import weakref
from collections.abc import Callable, Collection, Mapping
from typing import Any

from typhoon.errors import IllegalActionError, NotationError, OptionError
from typhoon.events import Event
from typhoon.games import DEFAULT_GAME, GameModule, game_module

CHANCE = -1
TERMINAL = -2
SEED_BITS = 256  # a secret seed: far beyond any search over seeds
DICE_KINDS = ("mt", "sha256")
SNAPSHOT_EVERY = 50  # a state is kept every this many actions (~10 kB bare); the others are replayed

_CACHE_SIZE = 8  # recently recomputed states, so that walking a history in order is linear
_cache: list[tuple[weakref.ref[Entry], Any]] = []  # weak: a dropped game's history is freed
_cache_lock = threading.Lock()


def _bare(state: Any) -> Any:
    """A copy of ``state`` without its caches (legal list, phase facts): what a snapshot keeps."""
    snap = state.copy()
    if hasattr(snap, "_cache"):
        snap._cache = {}
    return snap


class Entry:
    """One action of a history: what was played, by whom, what happened, and the turn and
    phase of the state it was played in. ``before`` (that state) is kept for snapshots and the
    last action only, and replayed from the nearest earlier snapshot otherwise; entries link to
    their predecessor, so a history shared by copies of a game stays correct whatever each
    copy plays or undoes next."""

    __slots__ = (
        "action",
        "actor",
        "events",
        "turn",
        "phase",
        "prev",
        "index",
        "_before",
        "_settled",
        "_apply",
        "__weakref__",
    )

    def __init__(
        self,
        action: Any,
        actor: int,
        before: Any,
        events: list[Event],
        *,
        prev: Entry | None,
        apply: Callable[[Any, Any], Any],
    ) -> None:
        self.action: Any = action
        self.actor: int = actor  # side index, or CHANCE for a die roll
        self.events: list[Event] = events
        self.turn: int = int(before.turn)
        self.phase: Any = before.phase
        self.prev: Entry | None = prev
        self.index: int = 0 if prev is None else prev.index + 1
        self._before: Any = before
        self._settled = False
        self._apply = apply

    @property
    def before(self) -> Any:
        """The state the action was played in (do not modify it)."""
        got = self._before
        if got is not None:
            return got
        path: list[Any] = []  # actions to re-apply, latest first
        e: Entry = self
        while True:
            base = e._before  # read once: another thread may settle it meanwhile
            if base is None:
                with _cache_lock:
                    base = next((cs for ref, cs in _cache if ref() is e), None)
            if base is not None:
                break
            assert e.prev is not None  # the first entry always keeps its state
            e = e.prev
            path.append(e.action)
        state = base
        for action in reversed(path):
            state = self._apply(state, action)
        with _cache_lock:
            _cache.insert(0, (weakref.ref(self), state))
            del _cache[_CACHE_SIZE:]
        return state

    def _settle(self) -> None:
        """Called when a later action is played: keep a bare snapshot every SNAPSHOT_EVERY
        actions, drop the state otherwise."""
        if not self._settled:
            self._settled = True
            self._before = _bare(self._before) if self.index % SNAPSHOT_EVERY == 0 else None

    def __repr__(self) -> str:
        return f"Entry({self.index}: actor {self.actor}, {self.action!r})"


def _sha256_die(seed: int, index: int, sides: int) -> int:
    """Die ``index`` (0-based) of a sha256 game: 1..sides, unbiased (rejection sampling)."""
    limit = (1 << 64) - (1 << 64) % sides
    attempt = 0
    while True:
        h = hashlib.sha256(f"typhoon-dice:{seed}:{index}:{attempt}".encode()).digest()
        v = int.from_bytes(h[:8], "big")
        if v < limit:
            return v % sides + 1
        attempt += 1  # pragma: no cover - probability below 2**-61


class Game:
    def __init__(
        self,
        game: str = DEFAULT_GAME,
        edition: str | None = None,
        options: Mapping[str, str] | None = None,
        *,
        seed: int | None = None,
        players: Mapping[str, str] | None = None,
        date: str | None = None,
        dice: str | None = None,
    ):
        self.module: GameModule = game_module(game)
        if dice is not None and dice not in DICE_KINDS:
            raise OptionError(f"unknown dice {dice!r}; dice: {', '.join(DICE_KINDS)}")
        self.seed: int = seed if seed is not None else secrets.randbits(SEED_BITS)
        self.dice: str = dice or ("mt" if seed is not None else "sha256")
        self.dice_from = 0  # rolls at the start of the history not drawn from this seed
        self.dice_verified = True  # False: replayed from a record whose dice no seed explains
        self.rolls_drawn = 0  # die rolls in the history
        self.rng = random.Random(self.seed)  # the "mt" sequence; one draw per roll
        self._pending: tuple[int, int] | None = None  # (roll index, die) drawn ahead by roll()
        self.edition = edition or self.module.default_edition
        self.state: Any = self.module.new_game(self.edition, dict(options or {}))
        self.options: dict[str, str] = dict(self.state.rules.options)
        self.players: dict[str, str] = dict(players or {})
        self.date = date or datetime.date.today().isoformat()
        self.history: list[Entry] = []
        self.initial = self.state

    # -- reading ----------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return bool(self.state.is_terminal)

    @property
    def result(self) -> str | None:
        return self.state.result  # type: ignore[no-any-return]

    def current_player(self) -> int:
        return int(self.state.current_player())

    def legal_actions(self) -> list[Any]:
        return self.module.legal_actions(self.state)

    def text(self, action: Any) -> str:
        return self.module.action_to_text(action)

    def position(self) -> str:
        return self.module.position_to_text(self.state)

    def state_at(self, n: int) -> Any:
        """The state after the first ``n`` actions (0: the start), replayed from the nearest
        snapshot. Raises IndexError outside 0..len(history)."""
        if not 0 <= n <= len(self.history):
            raise IndexError(f"step {n} is outside 0..{len(self.history)}")
        return self.state if n == len(self.history) else self.history[n].before

    # -- dice -------------------------------------------------------------------------------

    def _seeded_die(self, sides: int) -> int:
        """The die this game's seed gives the next roll (index ``rolls_drawn``). The "mt"
        sequence draws once per roll, whoever rolls, so that it stays aligned by index."""
        i = self.rolls_drawn
        if self.dice == "sha256":
            return _sha256_die(self.seed, i, sides)
        if self._pending is None or self._pending[0] != i:
            self._pending = (i, self.rng.randint(1, sides))
        return self._pending[1]

    def reseed_secret(self) -> None:
        """From now on draw the dice from a fresh secret seed (sha256); the rolls so far are
        not from it (e.g. an uploaded record's)."""
        self.seed = secrets.randbits(SEED_BITS)
        self.dice = "sha256"
        self.dice_from = self.rolls_drawn
        self.rng = random.Random(self.seed)
        self._pending = None

    def resync_dice(self) -> None:
        """Kept for callers of the old interface: the dice follow the history by roll index, so
        there is nothing to resynchronise."""

    # -- playing ----------------------------------------------------------------------------

    def play(self, action: Any) -> list[Event]:
        """Play one action (a die roll included). Raises IllegalActionError, changing nothing."""
        actor = self.current_player()
        if actor == TERMINAL:
            raise IllegalActionError("the game is over")
        new, events = self.module.apply(self.state, action)
        if actor == CHANCE:
            outcomes = self.module.chance_outcomes(self.state)
            due = self._seeded_die(len(outcomes))
            self._pending = None
            if self.rolls_drawn >= self.dice_from and outcomes[due - 1][0] != action:
                self.dice_from = self.rolls_drawn + 1  # a die set by hand: the seed no longer explains it
            self.rolls_drawn += 1
        prev = self.history[-1] if self.history else None
        self.history.append(
            Entry(action, actor, self.state, events, prev=prev, apply=self.module.apply_unchecked)
        )
        if prev is not None:
            prev._settle()
        self.state = new
        return events

    def play_text(self, text: str) -> list[Event]:
        """Play an action written in the game's notation. Raises NotationError or
        IllegalActionError, changing nothing."""
        return self.play(self.module.action_from_text(text))

    def roll(self) -> list[Event]:
        """Roll the die that is due, from this game's seed."""
        if self.current_player() != CHANCE:
            raise IllegalActionError("no die roll is due")
        outcomes = self.module.chance_outcomes(self.state)
        die = self._seeded_die(len(outcomes))
        return self.play(outcomes[die - 1][0])

    def roll_dice(self) -> list[Event]:
        """Roll every die due now (none if a player is to decide)."""
        events: list[Event] = []
        while self.current_player() == CHANCE:
            events.extend(self.roll())
        return events

    # -- undo -------------------------------------------------------------------------------

    def can_undo(self, side: int | None = None, *, players: Collection[int] | None = None) -> bool:
        """Undo takes back the last decision as long as no die has been rolled since; with
        ``side``, only if that side made it. It reaches back across a phase end too, unless the
        move has passed since to a player outside ``players`` (by default ``side``; any player
        when neither is given): a remote opponent who has the move keeps it."""
        if not self.history:
            return False
        last = self.history[-1]
        if last.actor == CHANCE or (side is not None and last.actor != side):
            return False
        now = self.state
        if now.is_terminal:
            return False
        if last.turn == now.turn and last.phase == now.phase:
            return True
        allowed = players if players is not None else (None if side is None else (side,))
        to_move = self.current_player()
        return allowed is None or to_move == CHANCE or to_move in allowed

    def undo(self, side: int | None = None, *, players: Collection[int] | None = None) -> Entry:
        if not self.can_undo(side, players=players):
            raise IllegalActionError(
                "nothing to undo (undo never crosses a die roll, nor a point where the move "
                "passed to the other player)"
            )
        entry = self.history[-1]
        self.state = entry.before
        self.history.pop()
        return entry

    # -- records ----------------------------------------------------------------------------

    def actor_letter(self, actor: int) -> str:
        if actor == CHANCE:
            return "*"
        return self.module.sides[actor][0].upper()

    def copy(self) -> Game:
        g = Game.__new__(Game)
        g.module = self.module
        g.seed = self.seed
        g.dice = self.dice
        g.dice_from = self.dice_from
        g.dice_verified = self.dice_verified
        g.rng = random.Random()
        g.rng.setstate(self.rng.getstate())
        g._pending = self._pending
        g.rolls_drawn = self.rolls_drawn
        g.edition = self.edition
        g.state = self.state
        g.options = dict(self.options)
        g.players = dict(self.players)
        g.date = self.date
        g.history = list(self.history)  # entries are shared: they never change what they mean
        g.initial = self.initial
        return g


def parse_options(text: str) -> dict[str, str]:
    """'a=1,b=2' (or 'a=1 b=2') -> {'a': '1', 'b': '2'}."""
    out: dict[str, str] = {}
    for item in text.replace(",", " ").split():
        if "=" not in item:
            raise NotationError(f"option '{item}' is not name=value")
        k, v = item.split("=", 1)
        out[k.strip()] = v.strip()
    return out
