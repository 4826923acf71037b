"""What both games' environment matches share: the engine state, the seeded dice, the action
history and the legal codes of the current state (computed at most once per state).

Dice are drawn exactly as :meth:`typhoon.game.Game.roll` draws them (``random.Random(seed)``,
one ``randint(1, 6)`` per roll), so an episode can be turned back into a :class:`Game` (and a
record) with :meth:`MatchBase.to_game`. A game's match names its engine in class attributes
(``GAME``, ``ROLLS``, ``_new_game``, ``_apply``) and builds its codecs.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

RESULT_SCORE = {"german": (1.0, -1.0), "soviet": (-1.0, 1.0), "draw": (0.0, 0.0)}


class MatchBase:
    """A game for an environment. ``play(code)`` applies a legal action code and then rolls
    every die that is due; the state is never left at a chance node."""

    GAME: ClassVar[str]
    ROLLS: ClassVar[Sequence[Any]]

    @staticmethod
    def _new_game(*, rules: Any) -> Any:
        raise NotImplementedError

    @staticmethod
    def _apply(state: Any, action: Any, /) -> Any:
        raise NotImplementedError

    rules: Any
    codec: Any
    state: Any
    num_actions: int

    def _start(self) -> None:
        """Fields of a fresh match (call after ``rules`` and the codecs are set)."""
        self.seed = 0
        self.rng = random.Random(0)
        self.rolls_drawn = 0
        self.state = self._new_game(rules=self.rules)
        self.history: list[Any] = []
        self._codes: npt.NDArray[np.int64] | None = None

    def reset(self, seed: int | None = None) -> None:
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
        self.rng = random.Random(self.seed)
        self.rolls_drawn = 0
        self.state = self._new_game(rules=self.rules)
        self.history = []
        self._changed()
        self._roll()

    # -- reading ------------------------------------------------------------------------------

    @property
    def to_act(self) -> int:
        """0 German, 1 Soviet, or -2 when the game is over (never -1: dice are rolled)."""
        return int(self.state.current_player())

    @property
    def over(self) -> bool:
        return self.state.result is not None

    def scores(self) -> tuple[float, float]:
        """(German, Soviet) terminal rewards; (0, 0) before the end."""
        raise NotImplementedError

    def observe(self, observer: int) -> npt.NDArray[np.float32]:
        raise NotImplementedError

    def legal_codes(self) -> npt.NDArray[np.int64]:
        if self._codes is None:
            self._codes = self.codec.legal_codes(self.state)
        return self._codes

    def mask(self) -> npt.NDArray[np.int8]:
        """The legal-action mask of the current state (a fresh array)."""
        m = np.zeros(self.num_actions, dtype=np.int8)
        m[self.legal_codes()] = 1
        return m

    def action_of(self, code: int) -> Any:
        """The legal engine action with this code; EncodingError if it is not legal."""
        return self.codec.legal_action(self.state, code, self.legal_codes())

    def code_of(self, action: Any) -> int:
        return int(self.codec.encode(self.state, action))

    # -- playing ------------------------------------------------------------------------------

    def play(self, code: int) -> None:
        self.play_action(self.action_of(code))

    def play_action(self, action: Any) -> None:
        """Play an action taken from ``legal_actions(state)``."""
        self.state = self._apply(self.state, action)
        self.history.append(action)
        self._changed()
        self._roll()

    def _roll(self) -> None:
        while self.state.is_chance:
            die = self.rng.randint(1, 6)
            self.rolls_drawn += 1
            roll = self.ROLLS[die - 1]
            self.state = self._apply(self.state, roll)
            self.history.append(roll)
            self._changed()

    def _changed(self) -> None:
        self._codes = None

    def to_game(self):  # type: ignore[no-untyped-def]
        """This episode as a :class:`typhoon.game.Game` (same seed, same actions), for
        records: ``Record.from_game(match.to_game()).to_text()``."""
        from typhoon.game import Game

        g = Game(
            self.GAME,
            edition=self.rules.edition,
            options=self.rules.non_default_options(),
            seed=self.seed,
            players={name: "env" for name in ("german", "soviet")},
        )
        for a in self.history:
            g.play(a)
        g.rolls_drawn = self.rolls_drawn
        g.resync_dice()
        return g


__all__ = ["RESULT_SCORE", "MatchBase"]
