"""The OpenSpiel game ``python_typhoon_bfm``: Battle for Moscow with explicit chance nodes.

    import pyspiel
    import typhoon.env.openspiel_game  # registers the game
    game = pyspiel.load_game("python_typhoon_bfm")              # GDW 1986
    game = pyspiel.load_game("python_typhoon_bfm(edition=vpg2009)")
    state = game.new_initial_state()

Player 0 is the German player, 1 the Soviet player. Actions are the codes of
:mod:`typhoon.env.actions`; a die roll is a chance node whose outcomes are the codes 0..5
(die 1..6, probability 1/6 each). Rewards are terminal: +1 / -1, or 0 for both (VPG draw).
Observation tensors are the planes of :mod:`typhoon.env.observation`. Parameters:
``edition`` (gdw1986, vpg2009) and ``options`` (engine options as ``name:value`` pairs
joined by ``;``, e.g. ``soviet_replacements:4;crt_4to1_die3:EX``).

The Moscow Campaign is ``python_typhoon_tmc`` (:class:`TmcGame`): parameters ``scenario``
("1".."24"), ``options``, ``reward`` ("win" or "level", see :mod:`typhoon.env.tmc_v0`) and
``max_moves`` (> 0: the game ends with returns 0, 0 after that many actions, chance included).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from typhoon.env.actions import NUM_ACTIONS, ActionCodec, EncodingError, codec_for
from typhoon.env.core import RESULT_SCORE
from typhoon.env.observation import OBS_SHAPE, ObservationCodec, obs_codec_for
from typhoon.games.bfm.actions import ROLLS
from typhoon.games.bfm.engine import apply_unchecked, legal_actions, new_game
from typhoon.games.bfm.notation import action_to_text, position_to_text
from typhoon.games.bfm.rules import DEFAULT_EDITION, Rules, load_rules
from typhoon.games.bfm.state import CHANCE, TERMINAL, State

GAME_NAME = "python_typhoon_bfm"

# A bound on the number of actions (chance included) of any game: set-up 1 + 38 places;
# per turn, replacements 3 + 7, movement phases (one action per unit, + end) 9 + 23 + 18 + 18,
# combat phases (declarations + end, then per battle resolve, roll, stand fast, retreat,
# advance, and at most one loss per attacking step) 23 + 17*5 + 44 and 18 + 22*5 + 34;
# seven turns: 7 * 392 + 39 = 2783.
MAX_GAME_LENGTH = 3000


def _game_type(short_name: str, long_name: str, params: dict[str, Any]) -> Any:
    """Both games' OpenSpiel type: sequential, explicit dice, perfect information, zero sum,
    terminal rewards, observation tensors and strings."""
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


def _game_info(num_actions: int, max_game_length: int) -> Any:
    return pyspiel.GameInfo(
        num_distinct_actions=num_actions,
        max_chance_outcomes=6,
        num_players=2,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0,
        max_game_length=max_game_length,
    )


_GAME_TYPE = _game_type(GAME_NAME, "Typhoon: Battle for Moscow", {"edition": DEFAULT_EDITION, "options": ""})


def _parse_options(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in text.split(";"):
        item = item.strip()
        if not item:
            continue
        if ":" not in item:
            raise ValueError(f"option {item!r} is not name:value")
        k, v = item.split(":", 1)
        out[k.strip()] = v.strip()
    return out


class _Ref:
    """An immutable engine state, the codecs of its rules and its legal codes (computed once),
    held by an OpenSpiel state. OpenSpiel clones Python states by deep-copying their
    attributes; engine states are immutable values, so a clone shares them instead of
    copying the rules tables."""

    __slots__ = ("state", "codec", "obs_codec", "_codes")

    def __init__(self, state: Any, codec: Any, obs_codec: Any):
        self.state = state
        self.codec = codec
        self.obs_codec = obs_codec
        self._codes: npt.NDArray[np.int64] | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Ref:
        return self

    def codes(self) -> npt.NDArray[np.int64]:
        if self._codes is None:
            self._codes = self.codec.legal_codes(self.state)
        return self._codes


class _GameBase(pyspiel.Game):  # type: ignore[misc]
    """What both games share: rules, codecs and the observer."""

    rules: Any
    codec: Any
    obs_codec: Any
    obs_shape: tuple[int, ...]

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return _Observer(self, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class _StateBase(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state over an immutable engine state (held in a :class:`_Ref`). A game's
    state names its engine's dice, apply, legal actions and notation."""

    _ref: _Ref

    @staticmethod
    def _rolls() -> Any:
        raise NotImplementedError

    @staticmethod
    def _apply(state: Any, action: Any, /) -> Any:
        raise NotImplementedError

    @staticmethod
    def _legal(state: Any, /) -> Any:
        raise NotImplementedError

    @staticmethod
    def _position_text(state: Any, /) -> str:
        raise NotImplementedError

    def _code_text(self, code: int) -> str:
        raise NotImplementedError

    def _cut(self) -> bool:
        """Whether the game was cut short (``max_moves``)."""
        return False

    def _moved(self) -> None:
        """Called after each action, chance included."""

    @property
    def engine_state(self) -> Any:
        """The engine state (immutable)."""
        return self._ref.state

    def current_player(self) -> int:
        if self._cut():
            return int(pyspiel.PlayerId.TERMINAL)
        p = self._ref.state.current_player()
        if p == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        if p == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(p)

    def _legal_actions(self, player: int) -> list[int]:
        s = self._ref.state
        if s.result is not None or self._cut() or player != s.current_player():
            return []
        return sorted(self._ref.codes().tolist())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(d, 1.0 / 6.0) for d in range(6)]

    def _apply_action(self, action: int) -> None:
        ref = self._ref
        s = ref.state
        a = self._rolls()[int(action)] if s.is_chance else ref.codec.legal_action(s, action, ref.codes())
        self._ref = _Ref(self._apply(s, a), ref.codec, ref.obs_codec)
        self._moved()

    def _action_to_string(self, player: int, action: int) -> str:
        s = self._ref.state
        if player == int(pyspiel.PlayerId.CHANCE) or s.is_chance:
            return f"roll {int(action) + 1}"
        try:
            return self._code_text(int(action))
        except EncodingError:  # a code that means nothing here (asked about another state)
            return f"action {int(action)}"

    def is_terminal(self) -> bool:
        return self._ref.state.result is not None or self._cut()

    def legal_engine_actions(self) -> list[Any]:
        return list(self._legal(self._ref.state))

    def __str__(self) -> str:
        return str(self._position_text(self._ref.state))


class _Observer:
    """Observer (OpenSpiel's PyObserver interface): the game's observation tensor and the
    engine's position text."""

    def __init__(self, game: _GameBase, params: Any):
        if params:
            raise ValueError(f"observation parameters not supported: {params}")
        self._codec = game.obs_codec
        shape = game.obs_shape
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: _StateBase, player: int) -> None:
        self.tensor[:] = self._codec.observe(state.engine_state, player).reshape(-1)

    def string_from(self, state: _StateBase, player: int) -> str:
        return f"p{player} " + state._position_text(state.engine_state)


class BfmGame(_GameBase):
    def __init__(self, params: dict[str, Any] | None = None):
        params = dict(params or {})
        edition = str(params.get("edition", DEFAULT_EDITION))
        options = _parse_options(str(params.get("options", "")))
        self.rules: Rules = load_rules(edition, options)
        self.codec: ActionCodec = codec_for(self.rules)
        self.obs_codec: ObservationCodec = obs_codec_for(self.rules)
        self.obs_shape = OBS_SHAPE
        info = _game_info(NUM_ACTIONS, MAX_GAME_LENGTH)
        super().__init__(_GAME_TYPE, info, {"edition": edition, "options": str(params.get("options", ""))})

    def new_initial_state(self) -> BfmState:
        return BfmState(self)


class BfmState(_StateBase):
    _rolls = staticmethod(lambda: ROLLS)
    _apply = staticmethod(apply_unchecked)
    _legal = staticmethod(legal_actions)
    _position_text = staticmethod(position_to_text)

    def __init__(self, game: BfmGame, engine_state: State | None = None):
        super().__init__(game)
        s = engine_state if engine_state is not None else new_game(rules=game.rules)
        self._ref = _Ref(s, game.codec, game.obs_codec)

    @property
    def engine_state(self) -> State:
        """The engine state (immutable)."""
        return self._ref.state  # type: ignore[no-any-return]

    def _code_text(self, code: int) -> str:
        return action_to_text(self._ref.codec.decode(self._ref.state, code))

    def returns(self) -> list[float]:
        r = self._ref.state.result
        return list(RESULT_SCORE[r]) if r is not None else [0.0, 0.0]


BfmObserver = _Observer


# -- The Moscow Campaign ------------------------------------------------------------------------

TMC_GAME_NAME = "python_typhoon_tmc"

_TMC_GAME_TYPE = _game_type(
    TMC_GAME_NAME,
    "Typhoon: The Moscow Campaign",
    {"scenario": 1, "options": "", "reward": "win", "max_moves": 0},
)


def tmc_max_game_length(rules: Any) -> int:
    """A loose upper bound on the actions (chance included) of a TMC game: set-up one per
    unit; per game turn and unit, at most 300 legs in each of three movement phases (a rail
    leg may cost as little as 1/30 MP of a 10-MP allowance), entraining, detraining, a few
    overrun and combat decisions, and 12 die rolls."""
    turns = rules.last_turn - rules.first_turn + 1
    n = len(rules.units)
    return 2 + n + turns * n * (3 * 300 + 40)


class TmcGame(_GameBase):
    """``python_typhoon_tmc(scenario=1,options=...,reward=win|level,max_moves=0)``.
    ``max_moves`` > 0 ends the game (returns 0, 0) after that many actions, chance included:
    for tests and short rollouts."""

    def __init__(self, params: dict[str, Any] | None = None):
        from typhoon.env.tmc_actions import tmc_codec_for
        from typhoon.env.tmc_observation import OBS_SHAPE as TMC_OBS_SHAPE
        from typhoon.env.tmc_observation import tmc_obs_codec_for
        from typhoon.env.tmc_v0 import REWARD_SCHEMES
        from typhoon.games.tmc.rules import load_rules as tmc_load_rules

        params = dict(params or {})
        scenario = str(params.get("scenario", 1))
        options = _parse_options(str(params.get("options", "")))
        self.reward = str(params.get("reward", "win"))
        if self.reward not in REWARD_SCHEMES:
            raise ValueError(f"reward must be one of {REWARD_SCHEMES}")
        self.max_moves = int(params.get("max_moves", 0))
        self.rules = tmc_load_rules(scenario, options)
        self.codec = tmc_codec_for(self.rules)
        self.obs_codec = tmc_obs_codec_for(self.rules)
        self.obs_shape = TMC_OBS_SHAPE
        length = tmc_max_game_length(self.rules)
        if self.max_moves > 0:
            length = min(length, self.max_moves)
        super().__init__(
            _TMC_GAME_TYPE,
            _game_info(self.codec.size, length),
            {
                "scenario": int(scenario),
                "options": str(params.get("options", "")),
                "reward": self.reward,
                "max_moves": self.max_moves,
            },
        )

    def new_initial_state(self) -> TmcState:
        return TmcState(self)


def _tmc_rolls() -> Any:
    from typhoon.games.tmc.actions import ROLLS as TMC_ROLLS

    return TMC_ROLLS


def _tmc_apply(state: Any, action: Any) -> Any:
    from typhoon.games.tmc.engine import apply_unchecked as tmc_apply

    return tmc_apply(state, action)


def _tmc_legal(state: Any) -> Any:
    from typhoon.games.tmc.engine import legal_actions as tmc_legal_actions

    return tmc_legal_actions(state)


def _tmc_position_text(state: Any) -> str:
    from typhoon.games.tmc.notation import position_to_text as tmc_position_to_text

    return str(tmc_position_to_text(state))


class TmcState(_StateBase):
    _rolls = staticmethod(_tmc_rolls)
    _apply = staticmethod(_tmc_apply)
    _legal = staticmethod(_tmc_legal)
    _position_text = staticmethod(_tmc_position_text)

    def __init__(self, game: TmcGame):
        from typhoon.games.tmc.engine import new_game as tmc_new_game

        super().__init__(game)
        self._ref = _Ref(tmc_new_game(rules=game.rules), game.codec, game.obs_codec)
        self._reward = game.reward
        self._max_moves = game.max_moves
        self._moves = 0

    def _cut(self) -> bool:
        return 0 < self._max_moves <= self._moves

    def _moved(self) -> None:
        self._moves += 1

    def _code_text(self, code: int) -> str:
        return str(self._ref.codec.text(self._ref.state, code))

    def returns(self) -> list[float]:
        from typhoon.env.tmc_v0 import LEVEL_SCORE

        s = self._ref.state
        if s.result is None:
            return [0.0, 0.0]
        if self._reward == "level" and s.level in LEVEL_SCORE:
            g = LEVEL_SCORE[s.level]
            return [g, -g]
        return list(RESULT_SCORE[s.result])


TmcObserver = _Observer


def register() -> None:
    """Register the games with pyspiel (done on import; safe to call again)."""
    if GAME_NAME not in pyspiel.registered_names():
        pyspiel.register_game(_GAME_TYPE, BfmGame)
    if TMC_GAME_NAME not in pyspiel.registered_names():
        pyspiel.register_game(_TMC_GAME_TYPE, TmcGame)


register()

__all__ = [
    "GAME_NAME",
    "MAX_GAME_LENGTH",
    "TMC_GAME_NAME",
    "BfmGame",
    "BfmObserver",
    "BfmState",
    "TmcGame",
    "TmcObserver",
    "TmcState",
    "register",
    "tmc_max_game_length",
]
