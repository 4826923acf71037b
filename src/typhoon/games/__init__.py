"""Game modules. Each game module offers the same functions, collected in a GameModule.

Front ends, players, records and research adapters only use this interface, so a new game
plugs in by registering its package here (:data:`_REGISTRY`, the one
place that lists the games) or, for a game outside this package (the tests' tiny game), with
:func:`register_game`. A game package ``P`` provides ``P.engine``, ``P.notation`` and ``P.rules``
(the engine interface below) and ``P.kit.FRONT_ENDS`` (:class:`~typhoon.games.frontends.FrontEnds`,
what the browser, the terminal and the lobby show); docs/ENGINE.md, "How to add a game".
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from typhoon.errors import OptionError
from typhoon.games.frontends import FrontEnds


@dataclass(frozen=True)
class GameModule:
    key: str
    title: str
    sides: tuple[str, ...]
    editions: Callable[[], dict[str, str]]
    default_edition: str
    option_specs: Callable[[str], Mapping[str, Any]]
    new_game: Callable[..., Any]
    legal_actions: Callable[[Any], list[Any]]
    apply: Callable[[Any, Any], tuple[Any, list[Any]]]
    apply_unchecked: Callable[[Any, Any], Any]
    chance_outcomes: Callable[[Any], list[tuple[Any, float]]]
    action_to_text: Callable[[Any], str]
    action_from_text: Callable[[str], Any]
    position_to_text: Callable[[Any], str]
    position_from_text: Callable[[str], Any]
    package: str = ""  # the game's package, e.g. "typhoon.games.<key>"
    # How well the first side did in a finished game, larger better for it and consistent with
    # the result (a VP ratio, a point score), for games whose rules grade a result; None where
    # the result is all there is. ``engine.result_margin`` when the game defines it.
    result_margin: Callable[[Any], float] | None = None
    # The word for an edition in this game ("edition", "scenario"): the lobby's label, and
    # every command's --edition has it as an alias (--scenario).
    edition_word: str = "edition"

    @cached_property
    def front_ends(self) -> FrontEnds:
        """The game's front-end adapters (``<package>.kit.FRONT_ENDS``), imported on first use
        so that engine-only users (AI rollouts, research runs) never load them."""
        fe = importlib.import_module(f"{self.package}.kit").FRONT_ENDS
        if not isinstance(fe, FrontEnds):
            raise TypeError(f"{self.package}.kit.FRONT_ENDS is not a FrontEnds")
        return fe


@dataclass(frozen=True)
class _Entry:
    title: str
    package: str
    edition_word: str = "edition"
    # Level names the game's AI module offers beyond the framework's (its LEVELS has each):
    # listed here so every command knows them without importing any game.
    own_levels: tuple[str, ...] = ()


def _from_package(key: str, entry: _Entry) -> GameModule:
    """The GameModule of the package ``entry.package``, whose ``engine``, ``notation`` and
    ``rules`` modules offer the functions of the interface under their usual names."""
    engine = importlib.import_module(f"{entry.package}.engine")
    notation = importlib.import_module(f"{entry.package}.notation")
    rules = importlib.import_module(f"{entry.package}.rules")
    return GameModule(
        key=key,
        title=entry.title,
        sides=rules.SIDE_NAMES,
        editions=rules.editions,
        default_edition=rules.DEFAULT_EDITION,
        option_specs=rules.option_specs,
        new_game=engine.new_game,
        legal_actions=engine.legal_actions,
        apply=engine.apply,
        apply_unchecked=engine.apply_unchecked,
        chance_outcomes=engine.chance_outcomes,
        action_to_text=notation.action_to_text,
        action_from_text=notation.action_from_text,
        position_to_text=notation.position_to_text,
        position_from_text=notation.position_from_text,
        package=entry.package,
        edition_word=entry.edition_word,
        result_margin=getattr(engine, "result_margin", None),
    )


# The games: key -> title, package, edition word. Each game's package is imported on first
# use; nothing else in typhoon lists the games. The first is the default game.
_REGISTRY: dict[str, _Entry] = {
    "bfm": _Entry("Battle for Moscow", "typhoon.games.bfm"),
    "tmc": _Entry(
        "The Moscow Campaign", "typhoon.games.tmc", edition_word="scenario", own_levels=("operational",)
    ),
    "ma": _Entry("Moscow Attacked!", "typhoon.games.ma"),
    "mockba": _Entry("MOCKBA", "typhoon.games.mockba"),
}
DEFAULT_GAME = "bfm"
_LOADED: dict[str, GameModule] = {}


def register_game(key: str, title: str, package: str, *, edition_word: str = "edition") -> None:
    """Add a game whose package lives outside typhoon.games (the tests' tiny game)."""
    _REGISTRY[key] = _Entry(title, package, edition_word)
    _LOADED.pop(key, None)


def unregister_game(key: str) -> None:
    if key != DEFAULT_GAME:
        _REGISTRY.pop(key, None)
        _LOADED.pop(key, None)


def game_module(key: str = DEFAULT_GAME) -> GameModule:
    if key not in _REGISTRY:
        raise OptionError(f"unknown game {key!r}; games: {', '.join(sorted(_REGISTRY))}")
    if key not in _LOADED:
        _LOADED[key] = _from_package(key, _REGISTRY[key])
    return _LOADED[key]


def module_of_state(state: Any) -> GameModule:
    """The registered game whose package defines ``state``'s class (how a framework that is
    handed a bare state, an AI level or an environment, finds the game's adapters)."""
    mod = type(state).__module__
    for key, entry in _REGISTRY.items():
        if mod == entry.package or mod.startswith(entry.package + "."):
            return game_module(key)
    raise OptionError(f"no registered game defines {type(state).__qualname__} ({mod})")


def game_keys() -> list[str]:
    return sorted(_REGISTRY)


def edition_words() -> list[str]:
    """The edition words of the registered games, other than "edition" (read without loading
    any game: the command line offers each as an alias of --edition)."""
    return sorted({e.edition_word for e in _REGISTRY.values()} - {"edition"})


def own_levels() -> dict[str, list[str]]:
    """Each game-own AI level name -> the keys of the games that offer it (read without loading
    any game)."""
    out: dict[str, list[str]] = {}
    for key, e in sorted(_REGISTRY.items()):
        for level in e.own_levels:
            out.setdefault(level, []).append(key)
    return out
