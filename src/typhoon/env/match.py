"""One game in progress for the environments: the engine state, the seeded dice, the action
history, and the legal codes, mask and observations of the current state, each computed at
most once per state. Any registered game with a research codec (:mod:`typhoon.env.codec`).

Dice are drawn exactly as :meth:`typhoon.game.Game.roll` draws them (``random.Random(seed)``,
one ``randint(1, n)`` per roll over the ``n`` outcomes of ``chance_outcomes``), so an episode
can be turned back into a :class:`Game` (and a record) with :meth:`Match.to_game`.

A game's codec may offer a *native stepper* (``env_codec.native_stepper(rules)``: a compiled
core of the engine; None when it is not built): the match then steps the stepper by codes and
reads its mask and observations, with the same values; ``state`` (a Python engine state) is
built from it only when asked, and ``history`` is worked out from the codes played when read.
"""

from __future__ import annotations

import functools
import inspect
import random
import sys
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from typhoon.env.codec import ActionCodec, EnvCodec, ObservationCodec, edition_arg, env_codec
from typhoon.games import DEFAULT_GAME, GameModule, game_module

CHANCE = -1  # current_player() of a state where a die is due (typhoon.game.CHANCE)
_POOL = 4  # observation arrays a match keeps for reuse (see Match.observe)


class Match:
    """A game for an environment. ``play(code)`` applies a legal action code and then rolls
    every die that is due; the state is never left at a chance node.

    ``Match(edition, options, *, rules=None, reward=None, game=...)``: ``edition`` (or the
    game's word for it, e.g. ``scenario=``) and engine ``options``, or ready ``rules``;
    ``reward`` one of the codec's ``reward_schemes`` (default the first)."""

    GAME: ClassVar[str] = DEFAULT_GAME  # a game's bound subclass sets its key

    def __init__(
        self,
        edition: str | None = None,
        options: Mapping[str, str] | None = None,
        *,
        rules: Any = None,
        reward: str | None = None,
        game: str | None = None,
        **kwargs: Any,
    ):
        self.game = game if game is not None else self.GAME
        self.module: GameModule = game_module(self.game)
        self.env_codec: EnvCodec = env_codec(self.game)
        schemes = self.env_codec.reward_schemes
        reward = reward if reward is not None else schemes[0]
        if reward not in schemes:
            raise ValueError(f"reward must be one of {schemes}, not {reward!r}")
        self.reward = reward
        ed = edition_arg(self.module, edition, kwargs)
        new_game = self.module.new_game
        if "rules" in inspect.signature(new_game).parameters:  # build the rules once
            if rules is None:
                rules = new_game(ed, options).rules
            self._fresh: Callable[[], Any] = functools.partial(new_game, rules.edition, rules=rules)
        else:
            self._fresh = functools.partial(new_game, ed, dict(options or {}))
            rules = rules if rules is not None else self._fresh().rules
        self.rules = rules
        self._options = dict(options or {})
        self.codec: ActionCodec = self.env_codec.actions(self.rules)
        self.obs: ObservationCodec = self.env_codec.observation(self.rules)
        self.num_actions = self.codec.size
        self._cache_obs = self.env_codec.cache_observations
        self._apply = self.module.apply_unchecked
        self._chance = self.module.chance_outcomes
        self.seed = 0
        self.rng = random.Random(0)
        self.rolls_drawn = 0
        make_native = getattr(self.env_codec, "native_stepper", None)
        self._native: Any = make_native(self.rules) if make_native is not None else None
        self._stale = False  # the native stepper is ahead of self._state
        self._state: Any = None
        self._history: list[Any] = []
        self._pending: list[int] = []  # codes played natively, not yet in _history
        self._history_state: Any = None  # the state from which the pending codes were played
        self.state = self._fresh()
        self.history = []
        self._codes: npt.NDArray[np.int64] | None = None
        self._obs: dict[int, npt.NDArray[np.float32]] = {}
        self._pool: list[list[Any]] = []  # [observation, what it was made from], see observe

    def reset(self, seed: int | None = None) -> None:
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
        self.rng = random.Random(self.seed)
        self.rolls_drawn = 0
        self._pending = []  # the old history goes: nothing to work out
        self.state = self._fresh()
        self.history = []
        self._changed()
        self._roll()

    # -- the state and the history (kept by a native stepper when there is one) ---------------

    @property
    def state(self) -> Any:
        """The engine state of the game in progress."""
        if self._stale:
            self._state = self._native.state()
            self._stale = False
        return self._state

    @state.setter
    def state(self, s: Any) -> None:
        if self._pending:
            self._flush_history()
        self._state = s
        self._stale = False
        if self._native is not None:
            self._native.load(s)
            self._history_state = s

    @property
    def history(self) -> list[Any]:
        """The actions played, dice included (engine actions)."""
        if self._pending:
            self._flush_history()
        return self._history

    @history.setter
    def history(self, actions: list[Any]) -> None:
        self._history = actions
        self._pending = []
        self._history_state = self.state if self._native is not None else None

    def _flush_history(self) -> None:
        """Turn the codes played natively into engine actions, replaying them on the Python
        engine from the state they were played from."""
        s = self._history_state
        for code in self._pending:
            a = self.codec.legal_action(s, code)
            self._history.append(a)
            s = self._apply(s, a)
        self._pending = []
        self._history_state = s

    # -- reading ------------------------------------------------------------------------------

    @property
    def to_act(self) -> int:
        """The side to decide (0, 1, ...), or -2 when the game is over (never -1: dice are
        rolled)."""
        if self._native is not None:
            return self._native.current_player()  # type: ignore[no-any-return]
        return int(self.state.current_player())

    @property
    def over(self) -> bool:
        if self._native is not None:
            return bool(self._native.over)
        return self.state.result is not None

    def scores(self) -> tuple[float, ...]:
        """Each side's terminal reward under the reward scheme; zeros before the end."""
        return tuple(self.env_codec.scores(self.state, self.reward))

    def observe(self, observer: int) -> npt.NDArray[np.float32]:
        """The observation for ``observer``. A codec with ``cache_observations`` builds it
        once per state and observer and returns it read-only (copy it to change it)."""
        native = self._native
        if not self._cache_obs:
            if native is not None:
                return native.observe(observer)  # type: ignore[no-any-return]
            return self.obs.observe(self.state, observer)
        got = self._obs.get(observer)
        if got is None:
            into = getattr(self.obs, "observe_into", None)
            if native is not None:
                got = native.observe(observer)
            elif into is None:
                got = self.obs.observe(self.state, observer)
            else:
                got = self._observe_pooled(into, observer)
            got.flags.writeable = False
            self._obs[observer] = got
        return got

    def _observe_pooled(self, into: Callable[..., Any], observer: int) -> npt.NDArray[np.float32]:
        """A codec with ``observe_into(state, observer, out, meta) -> (array, meta)`` rewrites
        an earlier observation of the pool in place, only where it differs, instead of
        building a fresh one (an observation can be megabytes). Only an array nobody else
        holds any more is reused (its reference count: the pool's own, and the argument's);
        one that a caller, a wrapper or a view still holds is never changed."""
        pool = self._pool
        for entry in pool:
            if sys.getrefcount(entry[0]) <= 2:  # the pool's reference and getrefcount's argument
                arr = entry[0]
                arr.flags.writeable = True
                entry[0], entry[1] = into(self.state, observer, arr, entry[1])
                return entry[0]  # type: ignore[no-any-return]
        arr, meta = into(self.state, observer, None, None)
        if len(pool) < _POOL:
            pool.append([arr, meta])
        return arr  # type: ignore[no-any-return]

    def legal_codes(self) -> npt.NDArray[np.int64]:
        """The codes of ``legal_actions(state)``, in that order (worked out from the engine
        state even with a native stepper, whose mask gives the same set)."""
        if self._codes is None:
            self._codes = self.codec.legal_codes(self.state)
        return self._codes

    def mask(self) -> npt.NDArray[np.int8]:
        """The legal-action mask of the current state (a fresh array)."""
        if self._native is not None:
            return self._native.mask()  # type: ignore[no-any-return]
        m = np.zeros(self.num_actions, dtype=np.int8)
        m[self.legal_codes()] = 1
        return m

    def action_of(self, code: int) -> Any:
        """The legal engine action with this code; EncodingError if it is not legal."""
        return self.codec.legal_action(self.state, code, self.legal_codes())

    def code_of(self, action: Any) -> int:
        return int(self.codec.encode(self.state, action))

    def text(self, code: int) -> str:
        return str(self.codec.text(self.state, int(code)))

    def legal_actions(self) -> list[Any]:
        return list(self.module.legal_actions(self.state))

    # -- playing ------------------------------------------------------------------------------

    def play(self, code: int) -> None:
        if self._native is not None:
            self._play_native(int(code))
            return
        self.play_action(self.action_of(code))

    def play_action(self, action: Any) -> None:
        """Play an action taken from ``legal_actions(state)``."""
        if self._native is not None:
            self._play_native(int(self.codec.encode(self.state, action)))
            return
        self.state = self._apply(self.state, action)
        self.history.append(action)
        self._changed()
        self._roll()

    def _play_native(self, code: int) -> None:
        """A legal code on the native stepper (EncodingError otherwise), then the dice."""
        self._native.apply(code)
        self._pending.append(code)
        self._stale = True
        self._changed()
        self._roll()

    def _roll(self) -> None:
        native = self._native
        if native is not None:
            while native.current_player() == CHANCE:
                die = self.rng.randint(1, native.chance_count())
                self.rolls_drawn += 1
                self._pending.append(native.roll(die - 1))
                self._stale = True
                self._changed()
            return
        while self.state.current_player() == CHANCE:
            outcomes = self._chance(self.state)
            die = self.rng.randint(1, len(outcomes))
            self.rolls_drawn += 1
            roll = outcomes[die - 1][0]
            self.state = self._apply(self.state, roll)
            self.history.append(roll)
            self._changed()

    def _changed(self) -> None:
        self._codes = None
        if self._obs:
            self._obs = {}

    def _record_options(self) -> dict[str, str]:
        """The options as a record writes them: the rules' own account of those that differ
        from the defaults where they give one, else the options asked for."""
        own = getattr(self.rules, "non_default_options", None)
        return dict(own()) if callable(own) else dict(self._options)

    def to_game(self):  # type: ignore[no-untyped-def]
        """This episode as a :class:`typhoon.game.Game` (same seed, same actions), for
        records: ``Record.from_game(match.to_game()).to_text()``."""
        from typhoon.game import Game

        g = Game(
            self.game,
            edition=self.rules.edition,
            options=self._record_options(),
            seed=self.seed,
            players={name: "env" for name in self.module.sides},
        )
        for a in self.history:
            g.play(a)
        g.rolls_drawn = self.rolls_drawn
        g.resync_dice()
        return g


def bound_match(key: str) -> type[Match]:
    """The :class:`Match` of the game ``key`` (``<Key>Match`` in ``typhoon.env.<key>_v0``)."""
    cls = _BOUND.get(key)
    if cls is None:
        game_module(key)  # OptionError for an unknown game
        cls = _BOUND[key] = type(f"{key.capitalize()}Match", (Match,), {"GAME": key, "__module__": __name__})
    return cls


_BOUND: dict[str, type[Match]] = {}

__all__ = ["Match", "bound_match"]
