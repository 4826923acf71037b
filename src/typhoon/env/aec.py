"""The PettingZoo AEC environment both games share: two agents ("german", "soviet") playing
one :class:`typhoon.env.match.MatchBase`, dict observations (``"observation"``,
``"action_mask"``; the mask is all zeros for the agent not to act), terminal rewards from
``match.scores()``, and an optional ``max_steps`` truncation. A game's module subclasses
:class:`MatchEnv` with its match, observation shape, metadata and notation.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from typhoon.env.match import MatchBase

AGENTS = ["german", "soviet"]


def wrap(e: AECEnv) -> AECEnv:  # type: ignore[type-arg]
    """``e`` with PettingZoo's standard wrappers for board games (an illegal action ends the
    game with -1 for the player who made it)."""
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class MatchEnv(AECEnv):  # type: ignore[type-arg]
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        match: MatchBase,
        obs_shape: tuple[int, ...],
        render_mode: str | None = None,
        max_steps: int | None = None,
    ):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.match = match
        self.max_steps = max_steps
        self.steps = 0
        n = match.num_actions
        self.possible_agents = list(AGENTS)
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, obs_shape, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (n,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._zero_mask = np.zeros(n, dtype=np.int8)
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
        is accepted for the API and ignored (choose the game's edition or scenario and rules
        options when building the environment)."""
        self.agents = list(self.possible_agents)
        self._reset_dicts()
        self.steps = 0
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
        self.steps += 1
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        if m.over:
            scores = m.scores()
            info = self._final_info()
            for a in self.agents:
                self.terminations[a] = True
                self.rewards[a] = scores[AGENTS.index(a)]
                self.infos[a] = dict(info)
        elif self.max_steps is not None and self.steps >= self.max_steps:
            for a in self.agents:
                self.truncations[a] = True
        else:
            self.agent_selection = AGENTS[m.to_act]
        self._accumulate_rewards()

    def _final_info(self) -> dict[str, Any]:
        """Each agent's info at the end of the game."""
        return {"result": self.match.state.result}

    def _position_text(self) -> str:
        raise NotImplementedError

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return self._position_text()

    def close(self) -> None:
        pass

    # -- conveniences -------------------------------------------------------------------------

    def action_text(self, action: int) -> str:
        """The engine notation of an action code in the current state."""
        return str(self.match.codec.text(self.match.state, int(action)))


__all__ = ["AGENTS", "MatchEnv", "wrap"]
