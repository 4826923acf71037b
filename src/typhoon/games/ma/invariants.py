"""Checks on a Moscow Attacked! state, run by ``typhoon soak`` and the tests' random games."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .engine import legal_actions
from .notation import action_from_text, action_to_text, position_from_text, position_to_text
from .state import State
from .structure import structural_problems


def problems(s: State) -> list[str]:
    out = structural_problems(s)
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
