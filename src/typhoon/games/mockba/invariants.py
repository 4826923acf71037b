"""Checks on a MOCKBA state, run by the tests' random games (and ``typhoon soak``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .engine import _fits, legal_actions
from .notation import action_from_text, action_to_text, position_from_text, position_to_text
from .state import ELIM, OFF, PHASES, State


def problems(s: State) -> list[str]:
    out: list[str] = []
    r = s.rules
    n = len(r.terrain)
    sides: dict[int, set[int]] = {}
    for u, h in enumerate(s.loc):
        sp = r.units[u]
        if h not in (OFF, ELIM) and not 0 <= h < n:
            out.append(f"{sp.id} on no hex ({h})")
            continue
        if h >= 0:
            sides.setdefault(h, set()).add(sp.side)
            if r.terrain[h] == "lake":
                out.append(f"{sp.id} on a lake")
        if s.dug >> u & 1 and not (sp.can_dig and h >= 0):
            out.append(f"{sp.id} dug in but cannot be")
        if s.red >> u & 1 and (sp.reduced == 0 or h < 0):
            out.append(f"{sp.id} reduced but has no reduced side or is off the map")
        if h == OFF and sp.turn == 0:
            out.append(f"{sp.id} set up but off the map")
    for h, ss in sides.items():
        if len(ss) > 1:
            out.append(f"both sides on hex {h}")
        if s.battle is None and not _fits(s, s.units_at(h)):
            out.append(f"over-stacked hex {h}")
    if not 0 <= s.phase < len(PHASES):
        out.append(f"phase {s.phase} out of range")
    if min(s.air_g, s.air_s, s.rail_left) < 0:
        out.append("negative air points or rail capacity")
    if s.rebuilt_armour > int(r.tables["rebuild"]["armour_max"]):
        out.append("more than 2 armoured units rebuilt")
    if s.cut & ~r.rail_hexes:
        out.append("an interruption off the railway")
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
