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

from pettingzoo import AECEnv

from typhoon.env.aec import AGENTS, MatchEnv, wrap
from typhoon.env.core import Match
from typhoon.env.observation import OBS_SHAPE
from typhoon.games.bfm.rules import DEFAULT_EDITION


def env(**kwargs: Any) -> AECEnv:  # type: ignore[type-arg]
    """The environment with PettingZoo's standard wrappers for board games."""
    return wrap(raw_env(**kwargs))


class raw_env(MatchEnv):  # noqa: N801 - PettingZoo's naming convention
    metadata: dict[str, Any] = {
        "name": "typhoon_bfm_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }
    match: Match

    def __init__(
        self,
        edition: str = DEFAULT_EDITION,
        options: Mapping[str, str] | None = None,
        render_mode: str | None = None,
    ):
        super().__init__(Match(edition, options), OBS_SHAPE, render_mode)

    def _position_text(self) -> str:
        from typhoon.games.bfm.notation import position_to_text

        return position_to_text(self.match.state)


__all__ = ["AGENTS", "env", "raw_env"]
