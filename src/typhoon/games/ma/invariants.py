"""Checks on a Moscow Attacked! state, run by ``typhoon soak`` and the tests' random games."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .engine import _stack_ok, legal_actions
from .notation import action_from_text, action_to_text, position_from_text, position_to_text
from .state import DISPERSED, ELIM, OFF, PHASES, READY, SPENT, State


def problems(s: State, with_legal: bool = True) -> list[str]:
    out: list[str] = []
    r = s.rules
    n = len(r.terrain)
    for u, h in enumerate(s.loc):
        sp = r.units[u]
        if h not in (OFF, ELIM) and not 0 <= h < n:
            out.append(f"{sp.id} on no hex ({h})")
        if sp.is_air and h != OFF:
            out.append(f"air unit {sp.id} on the map")
        if s.status[u] not in (READY, SPENT, DISPERSED):
            out.append(f"{sp.id} has status {s.status[u]}")
    sides: dict[int, set[int]] = {}
    for u, h in enumerate(s.loc):
        if h >= 0:
            sides.setdefault(h, set()).add(r.units[u].side)
    for h, ss in sides.items():
        if len(ss) > 1:
            out.append(f"both sides on hex {h}")
        if s.battle is None and not _stack_ok(s, h, []):
            out.append(f"over-stacked hex {h}")
    if not 0 <= s.phase < len(PHASES):
        out.append(f"phase {s.phase} out of range")
    if s.repl < 0:
        out.append("negative replacement factors")
    if s.base != -1 and not (0 <= s.base < n and r.places >> s.base & 1):
        out.append(f"the Strategic Bombers' base {s.base} is not a city or town")
    if with_legal and s.result is None and not legal_actions(s):
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
