"""The OpenSpiel games ``python_typhoon_<key>``: every registered game with a research codec,
with explicit chance nodes.

    import pyspiel
    import typhoon.env.openspiel_game  # registers the games (register() again after a new one)
    game = pyspiel.load_game(game_name(key))                       # the default edition
    game = pyspiel.load_game(f"{game_name(key)}(edition=...)")     # or the game's word: scenario=
    state = game.new_initial_state()

Player ``i`` is the game's side ``i``. Actions are the codes of the game's codec
(:mod:`typhoon.env.codec`); a die roll is a chance node whose outcomes are the indices of the
engine's ``chance_outcomes`` (a die: 0..5 for 1..6, probability 1/6 each). Rewards are
terminal (the codec's scores). Observation tensors are the codec's observations.
Parameters: the edition (named by the game's edition word; an edition key of digits only is
an integer parameter), ``options`` (engine options as ``name:value`` pairs joined by ``;``,
e.g. ``soviet_replacements:4;crt_4to1_die3:EX``), ``reward`` (one of the codec's reward
schemes) and ``max_moves`` (> 0: the game ends with returns 0 after that many actions,
chance included: for tests and short rollouts).
"""

from __future__ import annotations

import functools
import inspect
import re
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from typhoon.env.codec import EncodingError, EnvCodec, env_codec, env_games
from typhoon.games import DEFAULT_GAME, GameModule, game_module

CHANCE, TERMINAL = -1, -2  # current_player() of the engine states (typhoon.game)


def game_name(key: str) -> str:
    """The game's OpenSpiel short name: ``python_typhoon_<key>``."""
    return f"python_typhoon_{key}"


def _game_type(short_name: str, long_name: str, params: dict[str, Any]) -> Any:
    """The games' OpenSpiel type: sequential, explicit dice, perfect information, zero sum,
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


def _game_info(codec: EnvCodec, players: int, max_game_length: int) -> Any:
    low, high = codec.utility
    return pyspiel.GameInfo(
        num_distinct_actions=codec.num_actions,
        max_chance_outcomes=codec.max_chance_outcomes,
        num_players=players,
        min_utility=low,
        max_utility=high,
        utility_sum=0.0,
        max_game_length=max_game_length,
    )


def _param(edition: str) -> str | int:
    """An edition as an OpenSpiel parameter (pyspiel reads ``scenario=11`` as an integer)."""
    return int(edition) if edition.isdigit() else edition


def _params(module: GameModule, codec: EnvCodec) -> dict[str, Any]:
    return {
        module.edition_word: _param(module.default_edition),
        "options": "",
        "reward": codec.reward_schemes[0],
        "max_moves": 0,
    }


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


class TyphoonGame(pyspiel.Game):  # type: ignore[misc]
    """``python_typhoon_<key>(<edition word>=...,options=...,reward=...,max_moves=0)``: the
    game's rules, codecs and observer. Each game has a subclass binding ``GAME``
    (:func:`bound_game`, ``<Key>Game``)."""

    GAME: ClassVar[str] = DEFAULT_GAME

    def __init__(self, params: dict[str, Any] | None = None):
        module = game_module(self.GAME)
        codec = env_codec(self.GAME)
        self.module = module
        self.env_codec = codec
        params = dict(params or {})
        word = module.edition_word
        edition = str(params.get(word, module.default_edition))
        options = _parse_options(str(params.get("options", "")))
        self.reward = str(params.get("reward", codec.reward_schemes[0]))
        if self.reward not in codec.reward_schemes:
            raise ValueError(f"reward must be one of {codec.reward_schemes}")
        self.max_moves = int(params.get("max_moves", 0))
        self.start = module.new_game(edition, options)
        self.rules = self.start.rules
        self.codec = codec.actions(self.rules)
        self.obs_codec = codec.observation(self.rules)
        self.obs_shape = codec.obs_shape
        length = codec.max_game_length(self.rules)
        if self.max_moves > 0:
            length = min(length, self.max_moves)
        super().__init__(
            _game_type(game_name(module.key), f"Typhoon: {module.title}", _params(module, codec)),
            _game_info(codec, len(module.sides), length),
            {
                word: _param(edition),
                "options": str(params.get("options", "")),
                "reward": self.reward,
                "max_moves": self.max_moves,
            },
        )

    @functools.cached_property
    def shared(self) -> _Shared:
        return _Shared(self)

    def new_initial_state(self) -> TyphoonState:
        return TyphoonState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return _Observer(self, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class _Shared:
    """What every state of one game shares (the game's interface and codec); a clone shares
    it too instead of deep-copying it."""

    __slots__ = ("module", "env_codec", "reward", "max_moves", "takes_rules")

    def __init__(self, game: TyphoonGame):
        self.module: GameModule = game.module
        self.env_codec: EnvCodec = game.env_codec
        self.reward: str = game.reward
        self.max_moves: int = game.max_moves
        self.takes_rules = "rules" in inspect.signature(game.module.new_game).parameters

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


class TyphoonState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state over an immutable engine state (held in a :class:`_Ref`);
    ``engine_state``: start from this engine state rather than the game's start."""

    _ref: _Ref

    def __init__(self, game: TyphoonGame, engine_state: Any = None):
        super().__init__(game)
        shared = self._shared = game.shared
        if engine_state is None:  # a fresh start (the engine may cache on its states)
            if shared.takes_rules:
                engine_state = shared.module.new_game(game.rules.edition, rules=game.rules)
            else:
                engine_state = game.start
        self._ref = _Ref(engine_state, game.codec, game.obs_codec)
        self._moves = 0

    def _position_text(self, state: Any) -> str:
        return str(self._shared.module.position_to_text(state))

    def _code_text(self, code: int) -> str:
        return str(self._ref.codec.text(self._ref.state, code))

    def _cut(self) -> bool:
        """Whether the game was cut short (``max_moves``)."""
        return 0 < self._shared.max_moves <= self._moves

    def returns(self) -> list[float]:
        return [float(x) for x in self._shared.env_codec.scores(self._ref.state, self._shared.reward)]

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
        return [
            (i, float(p)) for i, (_, p) in enumerate(self._shared.module.chance_outcomes(self._ref.state))
        ]

    def _apply_action(self, action: int) -> None:
        ref = self._ref
        s = ref.state
        if s.current_player() == CHANCE:
            a = self._shared.module.chance_outcomes(s)[int(action)][0]
        else:
            a = ref.codec.legal_action(s, action, ref.codes())
        self._ref = _Ref(self._shared.module.apply_unchecked(s, a), ref.codec, ref.obs_codec)
        self._moves += 1

    def _action_to_string(self, player: int, action: int) -> str:
        s = self._ref.state
        if player == int(pyspiel.PlayerId.CHANCE) or s.current_player() == CHANCE:
            outcomes = self._shared.module.chance_outcomes(s)
            if 0 <= int(action) < len(outcomes):
                return str(self._shared.module.action_to_text(outcomes[int(action)][0]))
            return f"chance outcome {int(action)}"
        try:
            return self._code_text(int(action))
        except EncodingError:  # a code that means nothing here (asked about another state)
            return f"action {int(action)}"

    def is_terminal(self) -> bool:
        return self._ref.state.result is not None or self._cut()

    def legal_engine_actions(self) -> list[Any]:
        return list(self._shared.module.legal_actions(self._ref.state))

    def __str__(self) -> str:
        return str(self._position_text(self._ref.state))


class _Observer:
    """Observer (OpenSpiel's PyObserver interface): the game's observation tensor and the
    engine's position text."""

    def __init__(self, game: TyphoonGame, params: Any):
        if params:
            raise ValueError(f"observation parameters not supported: {params}")
        self._codec = game.obs_codec
        shape = game.obs_shape
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: TyphoonState, player: int) -> None:
        self.tensor[:] = self._codec.observe(state.engine_state, player).reshape(-1)

    def string_from(self, state: TyphoonState, player: int) -> str:
        return f"p{player} " + state._position_text(state.engine_state)


_BOUND: dict[str, type[TyphoonGame]] = {}


def bound_game(key: str) -> type[TyphoonGame]:
    """The :class:`TyphoonGame` of the game ``key`` (``<Key>Game``)."""
    cls = _BOUND.get(key)
    if cls is None:
        game_module(key)  # OptionError for an unknown game
        name = f"{key.capitalize()}Game"
        cls = _BOUND[key] = type(
            name, (TyphoonGame,), {"GAME": key, "__module__": __name__, "__qualname__": name}
        )
    return cls


def register() -> None:
    """Register every registered game with a research codec with pyspiel (done on import;
    call again after registering a game; safe to call again)."""
    names = set(pyspiel.registered_names())
    for key in env_games():
        if game_name(key) not in names:
            module, codec = game_module(key), env_codec(key)
            game_type = _game_type(game_name(key), f"Typhoon: {module.title}", _params(module, codec))
            pyspiel.register_game(game_type, bound_game(key))


_NAMED = re.compile(r"^(?:(\w+)_)?GAME_NAME$|^([A-Z][a-z0-9]*)(Game|State|Observer)$")


def __getattr__(name: str) -> Any:
    """Old names derived from the registry: ``GAME_NAME`` (the default game's), ``<KEY>_GAME_NAME``,
    ``<Key>Game`` (the bound game class), ``<Key>State`` and ``<Key>Observer``."""
    m = _NAMED.match(name)
    if m and m.group(2):
        key = m.group(2).lower()
        if key in env_games():
            return {"Game": bound_game(key), "State": TyphoonState, "Observer": _Observer}[m.group(3)]
    elif m:
        key = (m.group(1) or DEFAULT_GAME).lower()
        if key in env_games():
            return game_name(key)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


register()

__all__ = ["TyphoonGame", "TyphoonState", "bound_game", "game_name", "register"]
