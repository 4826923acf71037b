"""One game in progress for the environments: the engine state, the seeded dice, and the
legal codes, mask and observations of the current state, each computed at most once (the
shared part is :class:`typhoon.env.match.MatchBase`).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from typhoon.env.actions import NUM_ACTIONS, ActionCodec, codec_for
from typhoon.env.match import RESULT_SCORE, MatchBase
from typhoon.env.observation import ObservationCodec, obs_codec_for
from typhoon.games.bfm.actions import ROLLS, Action
from typhoon.games.bfm.engine import apply_unchecked, new_game
from typhoon.games.bfm.rules import DEFAULT_EDITION, Rules, load_rules
from typhoon.games.bfm.state import State


class Match(MatchBase):
    """A Battle for Moscow game for an environment. ``play(code)`` applies a legal action code
    and then rolls every die that is due; the state is never left at a chance node."""

    GAME = "bfm"
    ROLLS = ROLLS
    _new_game = staticmethod(new_game)
    _apply = staticmethod(apply_unchecked)

    state: State
    history: list[Action]

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
        self.num_actions = NUM_ACTIONS
        self._start()

    def scores(self) -> tuple[float, float]:
        """(German, Soviet) result: +1 win, -1 loss, 0 draw or not over."""
        r = self.state.result
        return RESULT_SCORE[r] if r is not None else (0.0, 0.0)

    def observe(self, observer: int) -> npt.NDArray[np.float32]:
        return self.obs.observe(self.state, observer)


__all__ = ["Match", "RESULT_SCORE"]
