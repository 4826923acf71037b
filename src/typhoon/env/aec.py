"""The PettingZoo AEC environment of any game with a research codec: one agent per side
(the game's side names, e.g. "german", "soviet") playing one :class:`typhoon.env.match.Match`,
dict observations (``"observation"``, ``"action_mask"``; the mask is all zeros for the agent
not to act), terminal rewards from ``match.scores()``, and an optional ``max_steps``
truncation.

    from typhoon.env.aec import env_module    # or: from typhoon.env import <key>_v0
    env = env_module(key).env(edition=...)    # or env_for(key, ...); scenario= where the
    env.reset(seed=42)                        # game's editions are scenarios
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

The side to act may act many times in a row (a movement phase is one action per unit). Dice
are rolled inside the environment from a generator seeded by ``reset(seed=...)``, the way
:class:`typhoon.game.Game` rolls them, so an episode replays as a record
(``env.match.to_game()``). ``reward`` chooses one of the codec's reward schemes.

``env()`` adds PettingZoo's usual wrappers (an illegal action ends the game with -1 for the
player who made it); ``raw_env`` is the bare environment (an illegal action raises
EncodingError). Observation arrays of a codec that caches them are read-only.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from typhoon.env.match import Match, bound_match
from typhoon.games import DEFAULT_GAME, game_module

AGENTS = list(game_module(DEFAULT_GAME).sides)  # the default game's agents (kept for old callers)


def wrap(e: AECEnv) -> AECEnv:  # type: ignore[type-arg]
    """``e`` with PettingZoo's standard wrappers for board games (an illegal action ends the
    game with -1 for the player who made it)."""
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class MatchEnv(AECEnv):  # type: ignore[type-arg]
    """``MatchEnv(edition=None, options=None, render_mode=None, reward=None, max_steps=None,
    *, game=...)``; a game's ``raw_env`` (:func:`env_module`) binds ``game``."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "is_parallelizable": False}
    GAME: str = DEFAULT_GAME

    def __init__(
        self,
        edition: str | None = None,
        options: Mapping[str, str] | None = None,
        render_mode: str | None = None,
        reward: str | None = None,
        max_steps: int | None = None,
        *,
        game: str | None = None,
        **kwargs: Any,
    ):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        match = Match(edition, options, reward=reward, game=game or self.GAME, **kwargs)
        self.match = match
        self.max_steps = max_steps
        self.steps = 0
        n = match.num_actions
        self._agents = list(match.module.sides)
        self.possible_agents = list(self._agents)
        low, high = match.env_codec.obs_bounds
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(low, high, match.env_codec.obs_shape, dtype=np.float32),
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
        self.agent_selection = self._agents[self.match.to_act]

    def observe(self, agent: str) -> dict[str, Any]:
        side = self._agents.index(agent)
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
                self.rewards[a] = scores[self._agents.index(a)]
                self.infos[a] = dict(info)
        elif self.max_steps is not None and self.steps >= self.max_steps:
            for a in self.agents:
                self.truncations[a] = True
        else:
            self.agent_selection = self._agents[m.to_act]
        self._accumulate_rewards()

    def _final_info(self) -> dict[str, Any]:
        """Each agent's info at the end of the game."""
        return self.match.env_codec.final_info(self.match.state)

    def _position_text(self) -> str:
        return self.match.module.position_to_text(self.match.state)

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


def env_for(game: str, **kwargs: Any) -> AECEnv:  # type: ignore[type-arg]
    """The environment of the game ``game`` with PettingZoo's standard wrappers."""
    return wrap(env_module(game).raw_env(**kwargs))


def env_name(key: str) -> str:
    """The environment's PettingZoo name (``metadata["name"]``): ``typhoon_<key>_v0``."""
    return f"typhoon_{key}_v0"


_MODULES: dict[str, types.ModuleType] = {}


def env_module(key: str) -> types.ModuleType:
    """``typhoon.env.<key>_v0``, the game's environment module in PettingZoo's style: ``env()``,
    ``raw_env`` (the game's :class:`MatchEnv`), ``AGENTS``, ``Match`` and ``<Key>Match`` (its
    :class:`Match`); other names are looked up in the game's codec module (e.g. the reward
    tables). Made on first use (``from typhoon.env import <key>_v0``)."""
    got = _MODULES.get(key)
    if got is not None:
        return got
    match_cls = bound_match(key)
    module = game_module(key)
    name = f"typhoon.env.{key}_v0"
    raw = type(
        "raw_env",
        (MatchEnv,),
        {
            "GAME": key,
            "metadata": {**MatchEnv.metadata, "name": env_name(key)},
            "__module__": name,
            "__qualname__": "raw_env",
            "__doc__": f"The bare PettingZoo AEC environment of {module.title} (see typhoon.env.aec).",
        },
    )
    mod = types.ModuleType(name, f"PettingZoo AEC environment: {module.title} (see typhoon.env.aec).")
    codec_module = (module.front_ends.env_codec or "").partition(":")[0]

    def env(**kwargs: Any) -> AECEnv:  # type: ignore[type-arg]
        """The environment with PettingZoo's standard wrappers for board games."""
        return wrap(raw(**kwargs))

    def fallback(attr: str) -> Any:
        import importlib

        if codec_module and not attr.startswith("__"):
            found = getattr(importlib.import_module(codec_module), attr, None)
            if found is not None:
                return found
        raise AttributeError(f"module {name!r} has no attribute {attr!r}")

    mod.__dict__.update(
        env=env,
        raw_env=raw,
        AGENTS=list(module.sides),
        Match=match_cls,
        __getattr__=fallback,
        __all__=["AGENTS", "Match", match_cls.__name__, "env", "raw_env"],
    )
    setattr(mod, match_cls.__name__, match_cls)
    env.__module__ = name
    _MODULES[key] = mod
    sys.modules[name] = mod
    return mod


__all__ = ["AGENTS", "MatchEnv", "env_for", "env_module", "env_name", "wrap"]
