"""Checks on a MOCKBA state, run by the tests' random games (and ``typhoon soak``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .engine import _fits, legal_actions
from .notation import action_from_text, action_to_text, position_from_text, position_to_text
from .state import State
from .structure import structural_problems


def problems(s: State) -> list[str]:
    out = structural_problems(s)
    hexes = {h for h in s.loc if h >= 0}
    if s.battle is None:
        out += [f"over-stacked hex {h}" for h in sorted(hexes) if not _fits(s, s.units_at(h))]
    if min(s.air_g, s.air_s, s.rail_left) < 0:
        out.append("negative air points or rail capacity")
    if s.result is None and not legal_actions(s):
        out.append("no legal action in a live position")
    return out


def phase_problems(s: State) -> list[str]:
    """Once a phase (slower): the position text reads back exactly."""
    return [] if position_from_text(position_to_text(s)) == s else ["position text does not read back"]


def legal_problems(s: State, legal: Sequence[Any]) -> list[str]:
    out = []
    for a in legal:
        if action_from_text(action_to_text(a)) != a:
            out.append(f"action {a!r} does not read back")
    if len(set(legal)) != len(legal):
        out.append("duplicate legal actions")
    return out
