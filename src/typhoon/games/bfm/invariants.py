"""Consistency checks on a Battle for Moscow state, for tests and soak runs.

Each returns a list of problems (empty when the state is sound)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from typhoon.games.bfm.state import OFF, State


def problems(s: State) -> list[str]:
    rules = s.rules
    ids = rules.map.grid.ids
    out: list[str] = []
    seen: dict[int, int] = {}
    occ = [0, 0]
    for u, spec in enumerate(rules.units):
        h, st = s.loc[u], s.steps[u]
        if h == OFF:
            if st != 0:
                out.append(f"{spec.id} is off the map with {st} steps")
            continue
        if st not in (1, 2):
            out.append(f"{spec.id} is on the map with {st} steps")
        if not (rules.map.grid.valid >> h) & 1:
            out.append(f"{spec.id} is on a slot that is not a hex")
            continue
        occ[spec.side] |= 1 << h
        if h in seen and u != s.stack and seen[h] != s.stack:
            out.append(f"{spec.id} and {rules.units[seen[h]].id} share {ids[h]}")
        seen[h] = u
    if occ[0] & occ[1]:
        out.append("a German and a Soviet unit share a hex")
    if occ != s.occ:
        out.append("occupancy bitsets disagree with unit locations")
    for h in rules.map.grid.hexes:
        u = s.at[h]
        if u >= 0 and s.loc[u] != h:
            out.append(f"hex {ids[h]} names {rules.units[u].id}, which is elsewhere")
        if u < 0 and h in seen:
            out.append(f"hex {ids[h]} is marked empty but holds {rules.units[seen[h]].id}")
    if s.stack >= 0 and rules.phases[s.phase].kind != "movement":
        out.append("a unit waits to move off a shared hex outside a movement phase")
    if s.is_terminal and s.stack >= 0:
        out.append("the game ended with two units in one hex")
    return out


def legal_problems(s: State, legal: Sequence[Any]) -> list[str]:
    """What the legal list of a live position must not offer (``typhoon soak`` checks it at
    every decision): ending a phase while a unit still has to move off a shared hex."""
    if s.stack >= 0 and any(type(a).__name__ == "End" for a in legal):
        return ["a phase could end with two units in one hex"]
    return []
