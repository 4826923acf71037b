"""Game modules. Each game module offers the same functions, collected in a GameModule.

Front ends, players, records and research adapters only use this interface, so a new game
(The Moscow Campaign, ...) plugs in by registering its module here.
"""

from __future__ import annotations

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


def _bfm() -> GameModule:
    from typhoon.games.bfm import engine, notation, rules

    return GameModule(
        key="bfm",
        title="Battle for Moscow",
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


def _tmc() -> GameModule:
    from typhoon.games.tmc import engine, notation, rules

    return GameModule(
        key="tmc",
        title="The Moscow Campaign",
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


_REGISTRY: dict[str, Callable[[], GameModule]] = {"bfm": _bfm, "tmc": _tmc}
_LOADED: dict[str, GameModule] = {}


def game_module(key: str = "bfm") -> GameModule:
    if key not in _REGISTRY:
        raise OptionError(f"unknown game {key!r}; games: {', '.join(sorted(_REGISTRY))}")
    if key not in _LOADED:
        _LOADED[key] = _REGISTRY[key]()
    return _LOADED[key]


def game_keys() -> list[str]:
    return sorted(_REGISTRY)
