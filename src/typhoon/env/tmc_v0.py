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

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from typhoon.env.tmc_actions import TmcActionCodec, tmc_codec_for
from typhoon.env.tmc_observation import OBS_SHAPE, TmcObservationCodec, tmc_obs_codec_for
from typhoon.games.tmc.actions import ROLLS, Action
from typhoon.games.tmc.engine import apply_unchecked, legal_actions, new_game
from typhoon.games.tmc.rules import DEFAULT_EDITION, SIDE_NAMES, Rules, load_rules
from typhoon.games.tmc.state import State

AGENTS = list(SIDE_NAMES)  # ["german", "soviet"]
RESULT_SCORE = {"german": (1.0, -1.0), "soviet": (-1.0, 1.0), "draw": (0.0, 0.0)}
LEVEL_SCORE = {  # German's score; the Soviet score is its negative
    "german_decisive": 1.0,
    "german_substantial": 2.0 / 3.0,
    "german_marginal": 1.0 / 3.0,
    "soviet_marginal": -1.0 / 3.0,
    "soviet_substantial": -2.0 / 3.0,
    "soviet_decisive": -1.0,
}
REWARD_SCHEMES = ("win", "level")


class TmcMatch:
    """A Moscow Campaign game for an environment: the engine state, the seeded dice, and the
    legal codes, mask and observations of the current state, each computed at most once.
    ``play(code)`` applies a legal action code and then rolls every die that is due."""

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
        self.seed = 0
        self.rng = random.Random(0)
        self.rolls_drawn = 0
        self.state: State = new_game(rules=self.rules)
        self.history: list[Action] = []
        self._codes: npt.NDArray[np.int64] | None = None
        self._obs: dict[int, npt.NDArray[np.float32]] = {}

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
        """(German, Soviet) terminal rewards under the reward scheme; (0, 0) before the end."""
        s = self.state
        if s.result is None:
            return (0.0, 0.0)
        if self.reward == "level" and s.level in LEVEL_SCORE:
            g = LEVEL_SCORE[s.level]
            return (g, -g)
        return RESULT_SCORE[s.result]

    def legal_codes(self) -> npt.NDArray[np.int64]:
        if self._codes is None:
            self._codes = self.codec.legal_codes(self.state)
        return self._codes

    def mask(self) -> npt.NDArray[np.int8]:
        """The legal-action mask of the current state (a fresh array)."""
        m = np.zeros(self.num_actions, dtype=np.int8)
        m[self.legal_codes()] = 1
        return m

    def observe(self, observer: int) -> npt.NDArray[np.float32]:
        """The observation for ``observer``, built once per state and observer and returned
        read-only (copy it to change it: a 2.3 MB copy per call would cost more than the
        observation itself)."""
        got = self._obs.get(observer)
        if got is None:
            got = self._obs[observer] = self.obs.observe(self.state, observer)
            got.flags.writeable = False
        return got

    def action_of(self, code: int) -> Action:
        """The legal engine action with this code; EncodingError if it is not legal."""
        return self.codec.legal_action(self.state, code, self.legal_codes())

    def code_of(self, action: Action) -> int:
        return self.codec.encode(self.state, action)

    def text(self, code: int) -> str:
        return self.codec.text(self.state, int(code))

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
        self._obs = {}

    def legal_actions(self) -> list[Action]:
        return list(legal_actions(self.state))

    def to_game(self):  # type: ignore[no-untyped-def]
        """This episode as a :class:`typhoon.game.Game` (same seed, same actions)."""
        from typhoon.game import Game

        g = Game(
            "tmc",
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


# -- PettingZoo ------------------------------------------------------------------------------

try:  # the environment needs the rl extra; TmcMatch does not
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError:  # pragma: no cover - without typhoon[rl]
    AECEnv = object  # type: ignore[assignment,misc]


def env(**kwargs: Any) -> Any:
    """The environment with PettingZoo's standard wrappers for board games."""
    e: Any = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(AECEnv):  # type: ignore[misc,valid-type]  # noqa: N801 - PettingZoo's naming convention
    metadata: dict[str, Any] = {
        "name": "typhoon_tmc_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        scenario: str = DEFAULT_EDITION,
        options: Mapping[str, str] | None = None,
        render_mode: str | None = None,
        reward: str = "win",
        max_steps: int | None = None,
    ):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.match = TmcMatch(str(scenario), options, reward=reward)
        self.max_steps = max_steps
        self.steps = 0
        n = self.match.num_actions
        self.possible_agents = list(AGENTS)
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, OBS_SHAPE, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (n,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._zero_mask = np.zeros(n, dtype=np.int8)
        self.agents: list[str] = []
        self._reset_dicts()

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def _reset_dicts(self) -> None:
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game. ``seed`` fixes the dice (None: a fresh random seed). ``options``
        is accepted for the API and ignored (choose the scenario and rules options when
        building the environment)."""
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
            for a in self.agents:
                self.terminations[a] = True
                self.rewards[a] = scores[AGENTS.index(a)]
                self.infos[a] = {"result": m.state.result, "level": m.state.level}
        elif self.max_steps is not None and self.steps >= self.max_steps:
            for a in self.agents:
                self.truncations[a] = True
        else:
            self.agent_selection = AGENTS[m.to_act]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        from typhoon.games.tmc.notation import position_to_text

        return position_to_text(self.match.state)

    def close(self) -> None:
        pass

    def action_text(self, action: int) -> str:
        """The engine notation of an action code in the current state."""
        return self.match.text(int(action))


__all__ = ["AGENTS", "LEVEL_SCORE", "RESULT_SCORE", "TmcMatch", "env", "raw_env"]
