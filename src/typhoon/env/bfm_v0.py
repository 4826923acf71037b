"""PettingZoo AEC environment: Battle for Moscow, two agents ("german", "soviet").

    from typhoon.env import bfm_v0
    env = bfm_v0.env(edition="gdw1986")
    env.reset(seed=42)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        if termination or truncation:
            action = None
        else:
            action = env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

Observations are dicts: ``"observation"`` the float32 tensor of
:mod:`typhoon.env.observation` (shape ``(88, 14, 11)``), ``"action_mask"`` an int8 vector over
the :mod:`typhoon.env.actions` space (all zeros for the agent not to act). The side to act
may act many times in a row (a movement phase is one action per unit). Dice are rolled
inside the environment from a generator seeded by ``reset(seed=...)``, the way
:class:`typhoon.game.Game` rolls them. Rewards are terminal: +1 win, -1 loss, 0 draw.

``env()`` adds PettingZoo's usual wrappers (an illegal action ends the game with -1 for the
player who made it); ``raw_env`` is the bare environment (an illegal action raises).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from typhoon.env.actions import NUM_ACTIONS
from typhoon.env.core import Match
from typhoon.env.observation import OBS_SHAPE
from typhoon.games.bfm.rules import DEFAULT_EDITION, SIDE_NAMES

AGENTS = list(SIDE_NAMES)  # ["german", "soviet"]


def env(**kwargs: Any) -> AECEnv:  # type: ignore[type-arg]
    """The environment with PettingZoo's standard wrappers for board games."""
    e: AECEnv = raw_env(**kwargs)  # type: ignore[type-arg]
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(AECEnv):  # type: ignore[type-arg]  # noqa: N801 - PettingZoo's naming convention
    metadata: dict[str, Any] = {
        "name": "typhoon_bfm_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        edition: str = DEFAULT_EDITION,
        options: Mapping[str, str] | None = None,
        render_mode: str | None = None,
    ):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.match = Match(edition, options)
        self.possible_agents = list(AGENTS)
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, OBS_SHAPE, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._zero_mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        self.agents: list[str] = []
        self._reset_dicts()

    def observation_space(self, agent: str) -> spaces.Space:  # type: ignore[type-arg]
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:  # type: ignore[type-arg]
        return self.action_spaces[agent]

    def _reset_dicts(self) -> None:
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game. ``seed`` fixes the dice (None: a fresh random seed). ``options``
        is accepted for the API and ignored (choose the edition and rules options when
        building the environment)."""
        self.agents = list(self.possible_agents)
        self._reset_dicts()
        self.match.reset(seed)
        self.agent_selection = self.agents[self.match.to_act]

    def observe(self, agent: str) -> dict[str, Any]:
        side = AGENTS.index(agent)
        m = self.match
        acting = not m.over and agent == self.agent_selection
        return {
            "observation": m.observe(side),
            "action_mask": m.mask() if acting else self._zero_mask.copy(),
        }

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        m = self.match
        m.play(int(action))
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        if m.over:
            scores = m.scores()
            for a in self.agents:
                self.terminations[a] = True
                self.rewards[a] = scores[AGENTS.index(a)]
                self.infos[a] = {"result": m.state.result}
        else:
            self.agent_selection = AGENTS[m.to_act]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        from typhoon.games.bfm.notation import position_to_text

        return position_to_text(self.match.state)

    def close(self) -> None:
        pass

    # -- conveniences -------------------------------------------------------------------------

    def action_text(self, action: int) -> str:
        """The engine notation of an action code in the current state."""
        return self.match.codec.text(self.match.state, int(action))


__all__ = ["AGENTS", "env", "raw_env"]
