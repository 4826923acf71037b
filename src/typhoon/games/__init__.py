"""Game modules. Each game module offers the same functions, collected in a GameModule.

Front ends, players, records and research adapters only use this interface, so a new game
(The Moscow Campaign, ...) plugs in by registering its module here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from typhoon.errors import OptionError


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


def _from_package(key: str, title: str) -> GameModule:
    """The GameModule of ``typhoon.games.<key>``, whose ``engine``, ``notation`` and ``rules``
    modules offer the functions of the interface under their usual names."""
    engine = importlib.import_module(f"typhoon.games.{key}.engine")
    notation = importlib.import_module(f"typhoon.games.{key}.notation")
    rules = importlib.import_module(f"typhoon.games.{key}.rules")
    return GameModule(
        key=key,
        title=title,
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
    )


# Game key -> title; each game's module is imported on first use.
_REGISTRY: dict[str, str] = {"bfm": "Battle for Moscow", "tmc": "The Moscow Campaign"}
_LOADED: dict[str, GameModule] = {}


def game_module(key: str = "bfm") -> GameModule:
    if key not in _REGISTRY:
        raise OptionError(f"unknown game {key!r}; games: {', '.join(sorted(_REGISTRY))}")
    if key not in _LOADED:
        _LOADED[key] = _from_package(key, _REGISTRY[key])
    return _LOADED[key]


def game_keys() -> list[str]:
    return sorted(_REGISTRY)
