"""The Moscow Campaign's :class:`typhoon.env.codec.EnvCodec`: the action space of
:mod:`typhoon.games.tmc.env.actions` (134,391 codes), the planes of
:mod:`typhoon.games.tmc.env.observation` (cached read-only by the match: 2.3 MB each), and
two reward schemes. ``reward="win"`` (default): the side whose victory level it is (§24:
``german_*`` or ``soviet_*``) gets +1 and the other -1. ``reward="level"``: decisive +-1,
substantial +-2/3, marginal +-1/3 from the winner's side (zero sum)."""

from __future__ import annotations

from typing import Any

from typhoon.env.codec import CodecBase
from typhoon.games.tmc.env.actions import TmcActionCodec, layout, tmc_codec_for
from typhoon.games.tmc.env.observation import OBS_SHAPE, TmcObservationCodec, tmc_obs_codec_for
from typhoon.games.tmc.rules import SIDE_NAMES, Rules
from typhoon.games.tmc.state import State

LEVEL_SCORE = {  # German's score; the Soviet score is its negative
    "german_decisive": 1.0,
    "german_substantial": 2.0 / 3.0,
    "german_marginal": 1.0 / 3.0,
    "soviet_marginal": -1.0 / 3.0,
    "soviet_substantial": -2.0 / 3.0,
    "soviet_decisive": -1.0,
}
REWARD_SCHEMES = ("win", "level")


def tmc_max_game_length(rules: Any) -> int:
    """A loose upper bound on the actions (chance included) of a TMC game: set-up one per
    unit; per game turn and unit, at most 300 legs in each of three movement phases (a rail
    leg may cost as little as 1/30 MP of a 10-MP allowance), entraining, detraining, a few
    overrun and combat decisions, and 12 die rolls."""
    turns = rules.last_turn - rules.first_turn + 1
    n = len(rules.units)
    return 2 + n + turns * n * (3 * 300 + 40)


class TmcCodec(CodecBase):
    obs_shape = OBS_SHAPE
    reward_schemes = REWARD_SCHEMES
    cache_observations = True  # an observation is 2.3 MB: built once per state and side

    @property
    def num_actions(self) -> int:
        return layout().size

    def actions(self, rules: Rules, /) -> TmcActionCodec:
        return tmc_codec_for(rules)

    def observation(self, rules: Rules, /) -> TmcObservationCodec:
        return tmc_obs_codec_for(rules)

    def max_game_length(self, rules: Rules, /) -> int:
        return tmc_max_game_length(rules)

    def scores(self, s: State, reward: str, /) -> tuple[float, ...]:
        if s.result is None:
            return (0.0, 0.0)
        if reward == "level" and s.level in LEVEL_SCORE:
            g = LEVEL_SCORE[s.level]
            return (g, -g)
        return super().scores(s, reward)

    def final_info(self, s: State, /) -> dict[str, Any]:
        return {"result": s.result, "level": s.level}


CODEC = TmcCodec(SIDE_NAMES)

__all__ = ["CODEC", "LEVEL_SCORE", "REWARD_SCHEMES", "TmcCodec", "tmc_max_game_length"]
