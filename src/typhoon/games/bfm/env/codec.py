"""Battle for Moscow's :class:`typhoon.env.codec.EnvCodec`: the action space of
:mod:`typhoon.games.bfm.env.actions`, the tensor of :mod:`typhoon.games.bfm.env.observation`,
terminal rewards +1 / -1, or 0 for both (VPG draw)."""

from __future__ import annotations

from typhoon.env.codec import CodecBase
from typhoon.games.bfm.env.actions import NUM_ACTIONS, ActionCodec, codec_for
from typhoon.games.bfm.env.native import NativeStepper, stepper_for
from typhoon.games.bfm.env.observation import OBS_SHAPE, ObservationCodec, obs_codec_for
from typhoon.games.bfm.rules import SIDE_NAMES, Rules

# A bound on the number of actions (chance included) of any game: set-up 1 + 38 places;
# per turn, replacements 3 + 7, movement phases (one action per unit, + end) 9 + 23 + 18 + 18,
# combat phases (declarations + end, then per battle resolve, roll, stand fast, retreat,
# advance, and at most one loss per attacking step) 23 + 17*5 + 44 and 18 + 22*5 + 34;
# seven turns: 7 * 392 + 39 = 2783.
MAX_GAME_LENGTH = 3000


class BfmCodec(CodecBase):
    num_actions = NUM_ACTIONS
    obs_shape = OBS_SHAPE

    def actions(self, rules: Rules, /) -> ActionCodec:
        return codec_for(rules)

    def observation(self, rules: Rules, /) -> ObservationCodec:
        return obs_codec_for(rules)

    def max_game_length(self, rules: Rules, /) -> int:
        return MAX_GAME_LENGTH

    def native_stepper(self, rules: Rules, /) -> NativeStepper | None:
        """The native core's stepper for the matches of these rules (None: not built, or
        ``TYPHOON_NO_NATIVE=1``); see :mod:`typhoon.games.bfm.env.native`."""
        return stepper_for(rules)


CODEC = BfmCodec(SIDE_NAMES)

__all__ = ["CODEC", "MAX_GAME_LENGTH", "BfmCodec"]
