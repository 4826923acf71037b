"""Gymnasium single-agent environment: play one side against a bundled player.

    import gymnasium as gym
    import typhoon.env.gym_env  # registers "typhoon/BattleForMoscow-v0"
    env = gym.make("typhoon/BattleForMoscow-v0", side="german", opponent="random")
    obs, info = env.reset(seed=1)
    mask = env.unwrapped.action_masks()        # bool, one per action code

or build :class:`BfmGymEnv` directly. The Moscow Campaign: :class:`TmcGymEnv`
(``gym.make("typhoon/MoscowCampaign-v0", side="soviet", scenario="1")``), with the action space
and observation of :mod:`typhoon.env.tmc_actions` and :mod:`typhoon.env.tmc_observation`. The opponent is any level that
:func:`typhoon.players.make_player` knows ("random", "heuristic", ...); it is seeded from the
``reset`` seed, as are the dice, so an episode is reproducible. Observations are the tensor
of :mod:`typhoon.env.observation`; actions are codes of :mod:`typhoon.env.actions`;
``action_masks()`` gives the legal ones (the method masked learners such as sb3-contrib's
MaskablePPO call). The reward is +1 / -1 / 0 when the game ends, 0 before.

An action that is not legal is handled as ``illegal_action`` says: "random" (default: a
uniformly random legal action is played instead and ``info["illegal_action"]`` is True),
"lose" (the episode ends with reward -1) or "raise" (EncodingError).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from typhoon.env.actions import NUM_ACTIONS, EncodingError
from typhoon.env.core import Match
from typhoon.env.observation import OBS_SHAPE
from typhoon.games.bfm.engine import legal_actions
from typhoon.games.bfm.rules import DEFAULT_EDITION, SIDE_INDEX
from typhoon.players import Player, make_player

ENV_ID = "typhoon/BattleForMoscow-v0"
ILLEGAL_MODES = ("random", "lose", "raise")


class BfmGymEnv(gym.Env[npt.NDArray[np.float32], np.int64]):
    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        side: str = "german",
        opponent: str = "random",
        edition: str = DEFAULT_EDITION,
        options: Mapping[str, str] | None = None,
        illegal_action: str = "random",
        mask_in_info: bool = False,
        render_mode: str | None = None,
    ):
        if side not in SIDE_INDEX:
            raise ValueError(f"side must be 'german' or 'soviet', not {side!r}")
        if illegal_action not in ILLEGAL_MODES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_MODES}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.side = SIDE_INDEX[side]
        self.opponent_name = opponent
        self.opponent: Player = make_player(opponent, 0)  # fails early on an unknown level
        self.illegal_action = illegal_action
        self.mask_in_info = mask_in_info
        self.render_mode = render_mode
        self.match: Any = self._make_match(edition, options)
        self.observation_space = spaces.Box(0.0, 1.0, self._obs_shape(), dtype=np.float32)
        n = self._num_actions()
        self.action_space = spaces.Discrete(n)
        self._over_mask = np.zeros(n, dtype=bool)

    # -- the game (TmcGymEnv overrides these) ----------------------------------------------------

    def _make_match(self, edition: str, options: Mapping[str, str] | None) -> Any:
        return Match(edition, options)

    def _obs_shape(self) -> tuple[int, ...]:
        return OBS_SHAPE

    def _num_actions(self) -> int:
        return NUM_ACTIONS

    def _legal(self, state: Any) -> list[Any]:
        return list(legal_actions(state))

    def _render_text(self) -> str:
        from typhoon.games.bfm.notation import position_to_text

        return position_to_text(self.match.state)

    # -- gymnasium API ------------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        super().reset(seed=seed)
        dice_seed = int(self.np_random.integers(2**31))
        self.opponent = make_player(self.opponent_name, int(self.np_random.integers(2**31)))
        self.match.reset(dice_seed)
        self._opponent_turns()
        return self.match.observe(self.side), self._info()

    def step(self, action: Any) -> tuple[npt.NDArray[np.float32], SupportsFloat, bool, bool, dict[str, Any]]:
        m = self.match
        if m.over:
            raise RuntimeError("the episode is over: call reset()")
        try:
            played = m.action_of(int(action))
            illegal = False
        except EncodingError:
            if self.illegal_action == "raise":
                raise
            illegal = True
            if self.illegal_action == "lose":
                info = self._info()
                info["illegal_action"] = True
                return m.observe(self.side), -1.0, True, False, info
            legal = self._legal(m.state)
            played = legal[int(self.np_random.integers(len(legal)))]
        m.play_action(played)
        self._opponent_turns()
        terminated = m.over
        reward = m.scores()[self.side] if terminated else 0.0
        info = self._info()
        if illegal:
            info["illegal_action"] = True
        return m.observe(self.side), reward, terminated, False, info

    def render(self) -> str | None:  # type: ignore[override]
        if self.render_mode is None:
            return None
        return self._render_text()

    # -- masks and helpers --------------------------------------------------------------------

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """True for each legal action code (all False once the game is over)."""
        if self.match.over:
            return self._over_mask.copy()
        return self.match.mask().astype(bool)

    def action_text(self, action: int) -> str:
        return self.match.codec.text(self.match.state, int(action))

    def _opponent_turns(self) -> None:
        m = self.match
        while not m.over and m.to_act != self.side:
            s = m.state
            m.play_action(self.opponent.choose(s, self._legal(s)))

    def _info(self) -> dict[str, Any]:
        m = self.match
        info: dict[str, Any] = {"turn": m.state.turn, "phase": m.state.phase_spec.key}
        if m.over:
            info["result"] = m.state.result
        if self.mask_in_info:
            info["action_mask"] = self.action_masks()
        return info


class TmcGymEnv(BfmGymEnv):
    """The Moscow Campaign against a bundled player: ``scenario`` "1".."24" (default "1");
    observations and actions of :mod:`typhoon.env.tmc_observation` and
    :mod:`typhoon.env.tmc_actions`; ``reward`` "win" or "level" (see :mod:`typhoon.env.tmc_v0`).
    Registered as ``typhoon/MoscowCampaign-v0``. The opponent is any player level that accepts
    TMC states ("random" always does)."""

    def __init__(
        self,
        side: str = "german",
        opponent: str = "random",
        scenario: str = "1",
        options: Mapping[str, str] | None = None,
        illegal_action: str = "random",
        mask_in_info: bool = False,
        render_mode: str | None = None,
        reward: str = "win",
    ):
        self._reward_scheme = reward
        super().__init__(side, opponent, str(scenario), options, illegal_action, mask_in_info, render_mode)

    def _make_match(self, edition: str, options: Mapping[str, str] | None) -> Any:
        from typhoon.env.tmc_v0 import TmcMatch

        return TmcMatch(edition, options, reward=self._reward_scheme)

    def _obs_shape(self) -> tuple[int, ...]:
        from typhoon.env.tmc_observation import OBS_SHAPE as TMC_OBS_SHAPE

        return TMC_OBS_SHAPE

    def _num_actions(self) -> int:
        return int(self.match.num_actions)

    def _legal(self, state: Any) -> list[Any]:
        from typhoon.games.tmc.engine import legal_actions as tmc_legal_actions

        return list(tmc_legal_actions(state))

    def _render_text(self) -> str:
        from typhoon.games.tmc.notation import position_to_text

        return position_to_text(self.match.state)


TMC_ENV_ID = "typhoon/MoscowCampaign-v0"


def register() -> None:
    """Register :data:`ENV_ID` and :data:`TMC_ENV_ID` with gymnasium (done on import; safe to
    call again)."""
    if ENV_ID not in gym.registry:
        gym.register(id=ENV_ID, entry_point="typhoon.env.gym_env:BfmGymEnv")
    if TMC_ENV_ID not in gym.registry:
        gym.register(id=TMC_ENV_ID, entry_point="typhoon.env.gym_env:TmcGymEnv")


register()

__all__ = ["ENV_ID", "TMC_ENV_ID", "BfmGymEnv", "TmcGymEnv", "register"]
