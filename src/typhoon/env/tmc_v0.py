"""PettingZoo AEC environment: The Moscow Campaign, two agents ("german", "soviet").

    from typhoon.env import tmc_v0
    env = tmc_v0.env(scenario="1")            # any of the 24 scenarios, "1".."24"
    env.reset(seed=42)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        if termination or truncation:
            action = None
        else:
            action = env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

Observations are dicts: ``"observation"`` the float32 planes of
:mod:`typhoon.env.tmc_observation` (shape ``(117, 78, 63)``), ``"action_mask"`` an int8 vector
over the :mod:`typhoon.env.tmc_actions` space (134,391 codes; all zeros for the agent not to
act). The side to act may act many times in a row (a movement phase is one action per leg).
Dice are rolled inside the environment from a generator seeded by ``reset(seed=...)``, the
way :class:`typhoon.game.Game` rolls them, so an episode can be replayed as a record
(:meth:`TmcMatch.to_game`).

Rewards are terminal. ``reward="win"`` (default): the side whose victory level it is (§24:
``german_*`` or ``soviet_*``) gets +1 and the other -1 (0 for both in a draw, which the rules
never produce). ``reward="level"``: decisive +-1, substantial +-2/3, marginal +-1/3 from the
winner's side (zero sum). ``max_steps`` (default None) truncates an episode after that many
agent decisions (both agents get truncation=True and reward 0).

Observation arrays are read-only (cached per state and observer).

``env()`` adds PettingZoo's usual wrappers (an illegal action ends the game with -1 for the
player who made it); ``raw_env`` is the bare environment (an illegal action raises
EncodingError).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from typhoon.env.match import RESULT_SCORE, MatchBase
from typhoon.env.tmc_actions import TmcActionCodec, tmc_codec_for
from typhoon.env.tmc_observation import OBS_SHAPE, TmcObservationCodec, tmc_obs_codec_for
from typhoon.games.tmc.actions import ROLLS, Action
from typhoon.games.tmc.engine import apply_unchecked, legal_actions, new_game
from typhoon.games.tmc.rules import DEFAULT_EDITION, SIDE_NAMES, Rules, load_rules
from typhoon.games.tmc.state import State

AGENTS = list(SIDE_NAMES)  # ["german", "soviet"]
LEVEL_SCORE = {  # German's score; the Soviet score is its negative
    "german_decisive": 1.0,
    "german_substantial": 2.0 / 3.0,
    "german_marginal": 1.0 / 3.0,
    "soviet_marginal": -1.0 / 3.0,
    "soviet_substantial": -2.0 / 3.0,
    "soviet_decisive": -1.0,
}
REWARD_SCHEMES = ("win", "level")


class TmcMatch(MatchBase):
    """A Moscow Campaign game for an environment: the engine state, the seeded dice, and the
    legal codes, mask and observations of the current state, each computed at most once.
    ``play(code)`` applies a legal action code and then rolls every die that is due."""

    GAME = "tmc"
    ROLLS = ROLLS
    _new_game = staticmethod(new_game)
    _apply = staticmethod(apply_unchecked)

    state: State
    history: list[Action]

    def __init__(
        self,
        scenario: str = DEFAULT_EDITION,
        options: Mapping[str, str] | None = None,
        *,
        rules: Rules | None = None,
        reward: str = "win",
    ):
        if reward not in REWARD_SCHEMES:
            raise ValueError(f"reward must be one of {REWARD_SCHEMES}, not {reward!r}")
        self.rules = rules if rules is not None else load_rules(str(scenario), options)
        self.codec: TmcActionCodec = tmc_codec_for(self.rules)
        self.obs: TmcObservationCodec = tmc_obs_codec_for(self.rules)
        self.num_actions = self.codec.size
        self.reward = reward
        self._obs: dict[int, npt.NDArray[np.float32]] = {}
        self._start()

    def scores(self) -> tuple[float, float]:
        """(German, Soviet) terminal rewards under the reward scheme; (0, 0) before the end."""
        s = self.state
        if s.result is None:
            return (0.0, 0.0)
        if self.reward == "level" and s.level in LEVEL_SCORE:
            g = LEVEL_SCORE[s.level]
            return (g, -g)
        return RESULT_SCORE[s.result]

    def observe(self, observer: int) -> npt.NDArray[np.float32]:
        """The observation for ``observer``, built once per state and observer and returned
        read-only (copy it to change it: a 2.3 MB copy per call would cost more than the
        observation itself)."""
        got = self._obs.get(observer)
        if got is None:
            got = self._obs[observer] = self.obs.observe(self.state, observer)
            got.flags.writeable = False
        return got

    def text(self, code: int) -> str:
        return self.codec.text(self.state, int(code))

    def _changed(self) -> None:
        self._codes = None
        self._obs = {}

    def legal_actions(self) -> list[Action]:
        return list(legal_actions(self.state))


# -- PettingZoo ------------------------------------------------------------------------------

try:  # the environment needs the rl extra; TmcMatch does not
    from typhoon.env.aec import MatchEnv, wrap
except ImportError:  # pragma: no cover - without typhoon[rl]
    MatchEnv = object  # type: ignore[assignment,misc]


def env(**kwargs: Any) -> Any:
    """The environment with PettingZoo's standard wrappers for board games."""
    return wrap(raw_env(**kwargs))


class raw_env(MatchEnv):  # type: ignore[misc,valid-type]  # noqa: N801 - PettingZoo's naming convention
    metadata: dict[str, Any] = {
        "name": "typhoon_tmc_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }
    match: TmcMatch

    def __init__(
        self,
        scenario: str = DEFAULT_EDITION,
        options: Mapping[str, str] | None = None,
        render_mode: str | None = None,
        reward: str = "win",
        max_steps: int | None = None,
    ):
        super().__init__(TmcMatch(str(scenario), options, reward=reward), OBS_SHAPE, render_mode, max_steps)

    def _final_info(self) -> dict[str, Any]:
        return {"result": self.match.state.result, "level": self.match.state.level}

    def _position_text(self) -> str:
        from typhoon.games.tmc.notation import position_to_text

        return position_to_text(self.match.state)


__all__ = ["AGENTS", "LEVEL_SCORE", "RESULT_SCORE", "TmcMatch", "env", "raw_env"]
