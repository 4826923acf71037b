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
from typhoon.games.bfm.actions import ROLLS, Action
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

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Typhoon: Battle for Moscow",
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
    parameter_specification={"edition": DEFAULT_EDITION, "options": ""},
)


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

    def __init__(self, state: State, codec: ActionCodec, obs_codec: ObservationCodec):
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


class BfmGame(pyspiel.Game):  # type: ignore[misc]
    def __init__(self, params: dict[str, Any] | None = None):
        params = dict(params or {})
        edition = str(params.get("edition", DEFAULT_EDITION))
        options = _parse_options(str(params.get("options", "")))
        self.rules: Rules = load_rules(edition, options)
        self.codec: ActionCodec = codec_for(self.rules)
        self.obs_codec: ObservationCodec = obs_codec_for(self.rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=6,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_GAME_TYPE, info, {"edition": edition, "options": str(params.get("options", ""))})

    def new_initial_state(self) -> BfmState:
        return BfmState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return BfmObserver(self, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class BfmState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: BfmGame, engine_state: State | None = None):
        super().__init__(game)
        s = engine_state if engine_state is not None else new_game(rules=game.rules)
        self._ref = _Ref(s, game.codec, game.obs_codec)

    @property
    def engine_state(self) -> State:
        """The engine state (immutable)."""
        return self._ref.state

    def current_player(self) -> int:
        p = self._ref.state.current_player()
        if p == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        if p == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(p)

    def _legal_actions(self, player: int) -> list[int]:
        s = self._ref.state
        if s.result is not None or player != s.current_player():
            return []
        return sorted(self._ref.codes().tolist())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(d, 1.0 / 6.0) for d in range(6)]

    def _apply_action(self, action: int) -> None:
        ref = self._ref
        s = ref.state
        a: Action = ROLLS[int(action)] if s.is_chance else ref.codec.legal_action(s, action, ref.codes())
        self._ref = _Ref(apply_unchecked(s, a), ref.codec, ref.obs_codec)

    def _action_to_string(self, player: int, action: int) -> str:
        s = self._ref.state
        if player == int(pyspiel.PlayerId.CHANCE) or s.is_chance:
            return f"roll {int(action) + 1}"
        try:
            return action_to_text(self._ref.codec.decode(s, int(action)))
        except EncodingError:  # a code that means nothing here (asked about another state)
            return f"action {int(action)}"

    def is_terminal(self) -> bool:
        return self._ref.state.result is not None

    def returns(self) -> list[float]:
        r = self._ref.state.result
        return list(RESULT_SCORE[r]) if r is not None else [0.0, 0.0]

    def legal_engine_actions(self) -> list[Any]:
        return list(legal_actions(self._ref.state))

    def __str__(self) -> str:
        return position_to_text(self._ref.state)


class BfmObserver:
    """Observer (OpenSpiel's PyObserver interface): the observation tensor of
    :mod:`typhoon.env.observation` and the engine's position text."""

    def __init__(self, game: BfmGame, params: Any):
        if params:
            raise ValueError(f"observation parameters not supported: {params}")
        self._codec = game.obs_codec
        self.tensor = np.zeros(int(np.prod(OBS_SHAPE)), np.float32)
        self.dict = {"observation": self.tensor.reshape(OBS_SHAPE)}

    def set_from(self, state: BfmState, player: int) -> None:
        self.tensor[:] = self._codec.observe(state.engine_state, player).reshape(-1)

    def string_from(self, state: BfmState, player: int) -> str:
        return f"p{player} " + position_to_text(state.engine_state)


def register() -> None:
    """Register the game with pyspiel (done on import; safe to call again)."""
    if GAME_NAME not in pyspiel.registered_names():
        pyspiel.register_game(_GAME_TYPE, BfmGame)


register()

__all__ = ["GAME_NAME", "MAX_GAME_LENGTH", "BfmGame", "BfmObserver", "BfmState", "register"]
