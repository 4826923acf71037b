"""Gymnasium single-agent environment: play one side of any game with a research codec
against a bundled player.

    import gymnasium as gym
    import typhoon.env.gym_env  # registers "typhoon/<Title>-v0" for each game
    env = gym.make(gym_id(key), side="german", opponent="random")
    obs, info = env.reset(seed=1)
    mask = env.unwrapped.action_masks()        # bool, one per action code

or build :class:`GameGymEnv` directly (``GameGymEnv(game=key, ...)``; ``<Key>GymEnv`` is the
class bound to one game). The id is derived from the game's title
(:func:`gym_id`). The opponent is any level that :func:`typhoon.players.make_player` knows
("random", "heuristic", ...); it is seeded from the ``reset`` seed, as are the dice, so an
episode is reproducible. Observations and actions are those of the game's codec
(:mod:`typhoon.env.codec`); ``action_masks()`` gives the legal ones (the method masked
learners such as sb3-contrib's MaskablePPO call). The reward is the codec's terminal score
(+1 / -1 / 0 with the default ``reward``), 0 before the end.

An action that is not legal is handled as ``illegal_action`` says: "random" (default: a
uniformly random legal action is played instead and ``info["illegal_action"]`` is True),
"lose" (the episode ends with reward -1) or "raise" (EncodingError).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar, SupportsFloat

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from typhoon.env.codec import EncodingError, env_games
from typhoon.env.match import Match
from typhoon.errors import OptionError
from typhoon.games import DEFAULT_GAME, game_module
from typhoon.players import Player, make_player
from typhoon.players.levels import player_names

ILLEGAL_MODES = ("random", "lose", "raise")


def gym_id(key: str) -> str:
    """The game's Gymnasium id: ``typhoon/<title in CamelCase, a leading "The" left out>-v0``."""
    words = re.findall(r"[A-Za-z0-9]+", game_module(key).title)
    if len(words) > 1 and words[0].lower() == "the":
        words = words[1:]
    return "typhoon/" + "".join(w[:1].upper() + w[1:] for w in words) + "-v0"


class GameGymEnv(gym.Env[npt.NDArray[np.float32], np.int64]):
    """``GameGymEnv(side, opponent, edition, options, illegal_action, mask_in_info,
    render_mode, reward, *, game)``; ``edition`` may be given by the game's word for it
    (``scenario=``). ``side`` defaults to the game's first side."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}
    GAME: ClassVar[str] = DEFAULT_GAME

    def __init__(
        self,
        side: str | None = None,
        opponent: str = "random",
        edition: str | None = None,
        options: Mapping[str, str] | None = None,
        illegal_action: str = "random",
        mask_in_info: bool = False,
        render_mode: str | None = None,
        reward: str | None = None,
        *,
        game: str | None = None,
        **kwargs: Any,
    ):
        module = game_module(game or self.GAME)
        sides = list(module.sides)
        side = side if side is not None else sides[0]
        if side not in sides:
            raise ValueError(f"side must be one of {sides}, not {side!r}")
        if illegal_action not in ILLEGAL_MODES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_MODES}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.side = sides.index(side)
        self.opponent_name = opponent
        if opponent in player_names() and opponent not in player_names(module.key):
            raise OptionError(f"{module.title} has no AI level {opponent!r}")  # another game's own level
        self.opponent: Player = make_player(opponent, 0)  # fails early on an unknown level
        self.illegal_action = illegal_action
        self.mask_in_info = mask_in_info
        self.render_mode = render_mode
        self.match = Match(edition, options, reward=reward, game=module.key, **kwargs)
        low, high = self.match.env_codec.obs_bounds
        self.observation_space = spaces.Box(low, high, self.match.env_codec.obs_shape, dtype=np.float32)
        n = self.match.num_actions
        self.action_space = spaces.Discrete(n)
        self._over_mask = np.zeros(n, dtype=bool)
        self._legal = module.legal_actions
        self._render_text = lambda: module.position_to_text(self.match.state)

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
            legal = list(self._legal(m.state))
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
            m.play_action(self.opponent.choose(s, list(self._legal(s))))

    def _info(self) -> dict[str, Any]:
        m = self.match
        info = m.env_codec.info(m.state)
        if m.over:
            info["result"] = m.state.result
        if self.mask_in_info:
            info["action_mask"] = self.action_masks()
        return info


_BOUND: dict[str, type[GameGymEnv]] = {}


def bound_env(key: str) -> type[GameGymEnv]:
    """The :class:`GameGymEnv` of the game ``key`` (``<Key>GymEnv``)."""
    cls = _BOUND.get(key)
    if cls is None:
        game_module(key)  # OptionError for an unknown game
        name = f"{key.capitalize()}GymEnv"
        cls = _BOUND[key] = type(
            name, (GameGymEnv,), {"GAME": key, "__module__": __name__, "__qualname__": name}
        )
    return cls


def register() -> None:
    """Register :func:`gym_id` of every registered game with a research codec with gymnasium
    (done on import; call again after registering a game; safe to call again)."""
    for key in env_games():
        if gym_id(key) not in gym.registry:
            gym.register(id=gym_id(key), entry_point=f"{__name__}:GameGymEnv", kwargs={"game": key})


_NAMED = re.compile(r"^(?:(\w+)_)?ENV_ID$|^([A-Z][a-z0-9]*)GymEnv$")


def __getattr__(name: str) -> Any:
    """Old names derived from the registry: ``ENV_ID`` (the default game's id), ``<KEY>_ENV_ID``
    and ``<Key>GymEnv``."""
    m = _NAMED.match(name)
    if m and m.group(2):
        key = m.group(2).lower()
        if key in env_games():
            return bound_env(key)
    elif m:
        key = (m.group(1) or DEFAULT_GAME).lower()
        if key in env_games():
            return gym_id(key)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


register()

__all__ = ["GameGymEnv", "bound_env", "gym_id", "register"]
