"""One game in progress for the environments: the engine state, the seeded dice, and the
legal codes, mask and observations of the current state, each computed at most once.

Dice are drawn exactly as :meth:`typhoon.game.Game.roll` draws them (``random.Random(seed)``,
one ``randint(1, 6)`` per roll), so an episode can be turned back into a :class:`Game` (and a
record) with :meth:`Match.to_game`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from typhoon.env.actions import NUM_ACTIONS, ActionCodec, codec_for
from typhoon.env.observation import ObservationCodec, obs_codec_for
from typhoon.games.bfm.actions import ROLLS, Action
from typhoon.games.bfm.engine import apply_unchecked, new_game
from typhoon.games.bfm.rules import DEFAULT_EDITION, SIDE_NAMES, Rules, load_rules
from typhoon.games.bfm.state import State

RESULT_SCORE = {"german": (1.0, -1.0), "soviet": (-1.0, 1.0), "draw": (0.0, 0.0)}


class Match:
    """A game for an environment. ``play(code)`` applies a legal action code and then rolls
    every die that is due; the state is never left at a chance node."""

    def __init__(
        self,
        edition: str = DEFAULT_EDITION,
        options: Mapping[str, str] | None = None,
        *,
        rules: Rules | None = None,
    ):
        self.rules = rules if rules is not None else load_rules(edition, options)
        self.codec: ActionCodec = codec_for(self.rules)
        self.obs: ObservationCodec = obs_codec_for(self.rules)
        self.seed = 0
        self.rng = random.Random(0)
        self.rolls_drawn = 0
        self.state: State = new_game(rules=self.rules)
        self.history: list[Action] = []
        self._codes: npt.NDArray[np.int64] | None = None

    def reset(self, seed: int | None = None) -> None:
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
        self.rng = random.Random(self.seed)
        self.rolls_drawn = 0
        self.state = new_game(rules=self.rules)
        self.history = []
        self._changed()
        self._roll()

    # -- reading ------------------------------------------------------------------------------

    @property
    def to_act(self) -> int:
        """0 German, 1 Soviet, or -2 when the game is over (never -1: dice are rolled)."""
        return self.state.current_player()

    @property
    def over(self) -> bool:
        return self.state.result is not None

    def scores(self) -> tuple[float, float]:
        """(German, Soviet) result: +1 win, -1 loss, 0 draw or not over."""
        r = self.state.result
        return RESULT_SCORE[r] if r is not None else (0.0, 0.0)

    def legal_codes(self) -> npt.NDArray[np.int64]:
        if self._codes is None:
            self._codes = self.codec.legal_codes(self.state)
        return self._codes

    def mask(self) -> npt.NDArray[np.int8]:
        """The legal-action mask of the current state (a fresh array)."""
        m = np.zeros(NUM_ACTIONS, dtype=np.int8)
        m[self.legal_codes()] = 1
        return m

    def observe(self, observer: int) -> npt.NDArray[np.float32]:
        return self.obs.observe(self.state, observer)

    def action_of(self, code: int) -> Action:
        """The legal engine action with this code; EncodingError if it is not legal."""
        return self.codec.legal_action(self.state, code, self.legal_codes())

    def code_of(self, action: Action) -> int:
        return self.codec.encode(self.state, action)

    # -- playing ------------------------------------------------------------------------------

    def play(self, code: int) -> None:
        self.play_action(self.action_of(code))

    def play_action(self, action: Action) -> None:
        """Play an action taken from ``legal_actions(state)``."""
        self.state = apply_unchecked(self.state, action)
        self.history.append(action)
        self._changed()
        self._roll()

    def _roll(self) -> None:
        while self.state.is_chance:
            die = self.rng.randint(1, 6)
            self.rolls_drawn += 1
            self.state = apply_unchecked(self.state, ROLLS[die - 1])
            self.history.append(ROLLS[die - 1])
            self._changed()

    def _changed(self) -> None:
        self._codes = None

    def to_game(self):  # type: ignore[no-untyped-def]
        """This episode as a :class:`typhoon.game.Game` (same seed, same actions), for
        records: ``match.to_game().to_record().to_text()``."""
        from typhoon.game import Game

        g = Game(
            edition=self.rules.edition,
            options=self.rules.non_default_options(),
            seed=self.seed,
            players={name: "env" for name in SIDE_NAMES},
        )
        for a in self.history:
            g.play(a)
        g.rolls_drawn = self.rolls_drawn
        g.resync_dice()
        return g


__all__ = ["Match", "RESULT_SCORE"]
