"""The env contract: what the research environments need from a game (its *codec*).

A game offers research environments by naming, in its kit, an object that satisfies
:class:`EnvCodec` (``FrontEnds.env_codec = "typhoon.games.<key>.env.codec:CODEC"``). The
generic environments (PettingZoo :mod:`typhoon.env.aec`, Gymnasium :mod:`typhoon.env.gym_env`,
OpenSpiel :mod:`typhoon.env.openspiel_game`, :mod:`typhoon.env.bench`) load it with
:func:`env_codec` and read the engine itself through :class:`typhoon.games.GameModule`
(``new_game``, ``apply_unchecked``, ``legal_actions``, ``chance_outcomes``, notation), so they
name no game.

The codec has two halves, both per ruleset (``rules``: an edition or scenario with options):

- an :class:`ActionCodec`: one fixed integer action space, the same size for every ruleset of
  the game (:attr:`EnvCodec.num_actions`), in which the legal actions of any state have
  distinct codes (so the legal-action mask is exact: ``mask.sum() == len(legal_actions(s))``)
  and ``legal_action`` finds the legal action of a code (EncodingError if none is);
- an :class:`ObservationCodec`: ``observe(state, side)``, a float32 array of
  :attr:`EnvCodec.obs_shape` with every value in :attr:`EnvCodec.obs_bounds`.

Chance: the environments roll every die due (PettingZoo, Gymnasium) the way
:class:`typhoon.game.Game` rolls them (one ``randint(1, n)`` over the ``n`` outcomes of
``chance_outcomes``); OpenSpiel sees explicit chance nodes whose outcome ids are the indices
of ``chance_outcomes`` (at most :attr:`EnvCodec.max_chance_outcomes`). Rewards are terminal,
from :meth:`EnvCodec.scores` (zero sum, within :attr:`EnvCodec.utility`).

:class:`CodecBase` gives the usual defaults (win +1 / loss -1 / draw 0, no extra info); a game
usually subclasses it and writes ``actions``, ``observation``, ``num_actions``, ``obs_shape``
and ``max_game_length``. :class:`MaskedCodec` is a base for an action codec (mask and checked
lookup from ``legal_codes``); :class:`BlockLayout` a base for an action space cut in blocks.

Only numpy is needed here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from typhoon.errors import OptionError, TyphoonError
from typhoon.games import GameModule, game_keys, game_module


class EncodingError(TyphoonError):
    """An action or code that the action space cannot express here (never raised for a
    legal action of a supported ruleset)."""


@runtime_checkable
class ActionCodec(Protocol):
    """One ruleset's action space (shared by every state of those rules)."""

    size: int  # == EnvCodec.num_actions

    def legal_codes(self, s: Any, /) -> npt.NDArray[np.int64]:
        """The codes of ``legal_actions(s)``, in that order (distinct)."""

    def legal_action(self, s: Any, code: int, codes: npt.NDArray[np.int64] | None = None, /) -> Any:
        """The legal action of ``s`` with this code; EncodingError if none is. ``codes``:
        ``legal_codes(s)`` if already at hand."""

    def encode(self, s: Any, a: Any, /) -> int:
        """The code of a legal action of ``s``."""

    def text(self, s: Any, code: int, /) -> str:
        """The game's notation of the action with this code in ``s``."""


@runtime_checkable
class ObservationCodec(Protocol):
    """Optionally also ``observe_into(s, side, out, meta) -> (array, meta)``: the same values
    written into ``out``, an earlier array of the codec made from ``meta`` (only what differs;
    ``out`` None: a fresh array), for a codec with ``cache_observations`` whose arrays are
    large; the match then reuses arrays nobody holds any more (:meth:`Match.observe`)."""

    def observe(self, s: Any, side: int, /) -> npt.NDArray[np.float32]:
        """The observation of ``s`` for ``side`` (a fresh array unless the env codec's
        ``cache_observations`` says the match caches them read-only)."""


@runtime_checkable
class EnvCodec(Protocol):
    """What a game gives the research environments (see the module docstring)."""

    @property
    def num_actions(self) -> int:
        """The size of the action space (the same for every ruleset of the game)."""

    @property
    def obs_shape(self) -> tuple[int, ...]:
        """The shape of every observation (float32)."""

    obs_bounds: tuple[float, float]  # every observation value lies in [low, high]
    utility: tuple[float, float]  # (min, max) of a side's terminal reward; zero sum
    max_chance_outcomes: int  # the most outcomes of one chance node (a die: 6)
    reward_schemes: tuple[str, ...]  # the ``reward=`` names :meth:`scores` knows; first default
    cache_observations: bool  # the match keeps one read-only observation per state and side

    def actions(self, rules: Any, /) -> ActionCodec:
        """The action codec of a ruleset (cheap to call again: cache it)."""

    def observation(self, rules: Any, /) -> ObservationCodec:
        """The observation codec of a ruleset (cheap to call again: cache it)."""

    def max_game_length(self, rules: Any, /) -> int:
        """A bound on the actions (chance included) of any game of these rules (OpenSpiel)."""

    def scores(self, s: Any, reward: str, /) -> tuple[float, ...]:
        """Each side's terminal reward under the scheme ``reward``; zeros before the end."""

    def final_info(self, s: Any, /) -> dict[str, Any]:
        """Each agent's info when the game ends (e.g. ``{"result": ...}``)."""

    def info(self, s: Any, /) -> dict[str, Any]:
        """The info of a Gymnasium step (e.g. turn and phase)."""


def win_scores(sides: Sequence[str], result: str | None) -> tuple[float, ...]:
    """+1 for the side named by ``result``, -1 for the others; zeros for a draw or before the
    end (any other result)."""
    if result not in sides:
        return tuple(0.0 for _ in sides)
    return tuple(1.0 if side == result else -1.0 for side in sides)


class CodecBase:
    """Defaults of :class:`EnvCodec` for a two-sided game with win/loss/draw results read from
    ``state.result`` (a side's name or "draw"), observations in [0, 1], a six-sided die."""

    obs_bounds: tuple[float, float] = (0.0, 1.0)
    utility: tuple[float, float] = (-1.0, 1.0)
    max_chance_outcomes = 6
    reward_schemes: tuple[str, ...] = ("win",)
    cache_observations = False

    def __init__(self, sides: Sequence[str]):
        self.sides = tuple(sides)

    def scores(self, s: Any, reward: str, /) -> tuple[float, ...]:
        return win_scores(self.sides, s.result)

    def final_info(self, s: Any, /) -> dict[str, Any]:
        return {"result": s.result}

    def info(self, s: Any, /) -> dict[str, Any]:
        return {"turn": s.turn, "phase": s.phase_spec.key}


class MaskedCodec:
    """A base for action codecs: the mask and the checked lookup of a legal code. A codec
    sets ``size``, ``legal_codes`` and its engine's ``_legal_actions``."""

    size: int

    @staticmethod
    def _legal_actions(s: Any, /) -> Sequence[Any]:
        raise NotImplementedError

    def legal_codes(self, s: Any) -> npt.NDArray[np.int64]:
        raise NotImplementedError

    def mask(self, s: Any) -> npt.NDArray[np.int8]:
        """The legal-action mask (int8, 1 = legal) of state ``s``."""
        m = np.zeros(self.size, dtype=np.int8)
        m[self.legal_codes(s)] = 1
        return m

    def legal_action(self, s: Any, code: int, codes: npt.NDArray[np.int64] | None = None) -> Any:
        """The legal action of ``s`` with this code; EncodingError if none is. ``codes``:
        ``legal_codes(s)``, if already at hand."""
        code = int(code)
        if 0 <= code < self.size:
            if codes is None:
                codes = self.legal_codes(s)
            hit = np.flatnonzero(codes == code)
            if len(hit):
                return self._legal_actions(s)[int(hit[0])]
        raise EncodingError(f"action code {code} is not legal here")


class PartCodes:
    """The code arrays of the stable parts of legal lists, kept by each part's identity.

    An engine may hand out its legal list as a :class:`typhoon.games.driver.LegalList`: its
    ``parts`` are list objects (one unit's moves, say) that the engine keeps unchanged while
    they live and that mean the same in every state listing them, and whose concatenation is
    the head of the list. A codec whose codes of such actions depend on the actions alone
    encodes each part once, when first seen, and after that reads the part's array: a mask
    costs the parts that changed since the last state, not the whole list. The memo holds
    each part it keys (so an id is never reused while its entry lives) and is bounded."""

    def __init__(self, limit: int = 20_000):
        self.limit = limit
        self._memo: dict[int, tuple[list[Any], npt.NDArray[np.int64]]] = {}

    def clear(self) -> None:
        self._memo.clear()

    def codes(
        self,
        acts: Sequence[Any],
        encode_part: Callable[[list[Any]], list[int]],
        encode_rest: Callable[[Sequence[Any]], list[int]],
    ) -> npt.NDArray[np.int64] | None:
        """The codes of ``acts`` (a legal list) in order, or None if it has no parts.
        ``encode_part``: the codes of one part (by value); ``encode_rest``: the codes of the
        actions after the parts (may depend on the state)."""
        parts = getattr(acts, "parts", None)
        if not parts:
            return None
        memo = self._memo
        if len(memo) > self.limit:
            memo.clear()
        arrays = []
        n = 0
        for p in parts:
            got = memo.get(id(p))
            if got is None or got[0] is not p:
                got = memo[id(p)] = (p, np.array(encode_part(p), dtype=np.int64))
            arrays.append(got[1])
            n += len(p)
        if n < len(acts):
            arrays.append(np.array(encode_rest(acts[n:]), dtype=np.int64))
        return np.concatenate(arrays) if len(arrays) > 1 else arrays[0].copy()


class BlockLayout:
    """A base for action layouts: the integer space is cut into named blocks."""

    blocks: dict[str, tuple[int, int]]  # name -> (first code, number of codes)
    size: int

    def block_of(self, code: int) -> str:
        for name, (start, n) in self.blocks.items():
            if start <= code < start + n:
                return name
        raise EncodingError(f"action code {code} is outside 0..{self.size - 1}")


# -- finding a game's codec --------------------------------------------------------------------

_CODECS: dict[str, EnvCodec] = {}


def env_codec(key: str) -> EnvCodec:
    """The codec of the registered game ``key`` (its kit's ``env_codec``, "module:attribute",
    imported on first use). OptionError if the game is unknown or has no research codec."""
    module = game_module(key)
    ref = module.front_ends.env_codec
    if ref is None:
        raise OptionError(f"the game {key!r} has no research environments")
    got = _CODECS.get(f"{module.package}:{ref}")
    if got is None:
        mod_name, _, attr = ref.partition(":")
        got = getattr(importlib.import_module(mod_name), attr)
        if not isinstance(got, EnvCodec):
            raise TypeError(f"{ref} is not an env codec (typhoon.env.codec.EnvCodec)")
        _CODECS[f"{module.package}:{ref}"] = got
    return got


def env_games() -> list[str]:
    """The keys of the registered games that have research environments."""
    return [k for k in game_keys() if game_module(k).front_ends.env_codec is not None]


def edition_arg(module: GameModule, edition: str | None, kwargs: dict[str, Any]) -> str:
    """The edition asked for: ``edition`` or the game's word for it in ``kwargs`` (e.g.
    ``scenario=``, taken out of ``kwargs``), else the game's default. TypeError for any other
    keyword left in ``kwargs``."""
    word = module.edition_word
    if word != "edition" and word in kwargs:
        alias = kwargs.pop(word)
        if edition is not None and str(alias) != str(edition):
            raise TypeError(f"give edition= or {word}=, not both")
        edition = alias
    if kwargs:
        raise TypeError(f"unexpected keyword arguments: {', '.join(sorted(kwargs))}")
    return str(edition) if edition is not None else module.default_edition


__all__ = [
    "ActionCodec",
    "BlockLayout",
    "CodecBase",
    "EncodingError",
    "EnvCodec",
    "MaskedCodec",
    "PartCodes",
    "ObservationCodec",
    "edition_arg",
    "env_codec",
    "env_games",
    "win_scores",
]
