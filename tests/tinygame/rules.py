"""The tiny game's rules data: sides, editions, (no) options, the map and the set-up."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from typhoon.errors import OptionError

SIDE_NAMES = ("german", "soviet")
DEFAULT_EDITION = "standard"
_TURNS = {"standard": 3, "long": 5}
HEXES = ("0101", "0102", "0103", "0104", "0105")
UNITS = ("G1", "G2", "S1", "S2")
SIDE_OF = (0, 0, 1, 1)
START = (0, 1, 3, 4)  # hex index of each unit


def editions() -> dict[str, str]:
    return {"standard": "Tiny, three turns", "long": "Tiny, five turns"}


def option_specs(edition: str) -> Mapping[str, Any]:
    return {}


@dataclass(frozen=True)
class Rules:
    edition: str
    last_turn: int
    options: dict[str, str] = field(default_factory=dict)


def load_rules(edition: str | None, options: Mapping[str, str] | None = None) -> Rules:
    ed = edition or DEFAULT_EDITION
    if ed not in _TURNS:
        raise OptionError(f"unknown edition {ed!r}; choose one of {list(_TURNS)}")
    if options:
        raise OptionError(f"the tiny game has no options, not {sorted(options)}")
    return Rules(ed, _TURNS[ed], {})
