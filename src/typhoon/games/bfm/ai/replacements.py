"""Replacements and reinforcements for the AI players.

Soviet: strengthen the units that the Germans can strike (a restored army doubles for one
replacement), keep Moscow full, and rebuild armies when the line is short of units (near
Moscow, or on the edge nearest the front). German: the single replacement restores the
strongest reduced panzer corps that can trace communication.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from typhoon.games.bfm.actions import Action, End, Rebuild, Reinforce, Restore
from typhoon.games.bfm.ai.board import board_of
from typhoon.games.bfm.rules import GERMAN, SOVIET
from typhoon.games.bfm.state import State


def replacement_value(s: State, a: Action, on_map: int | None = None) -> float:
    """How much the phasing side gains by this replacement action (0 for End). ``on_map``:
    the side's units on the map (counted here if not given)."""
    if on_map is None:
        on_map = len(s.on_map(s.side))
    return _valuer(s, on_map)(a)


def _valuer(s: State, on_map: int) -> Callable[[Action], float]:
    """:func:`replacement_value` of ``s`` as a function of the action: what every action of
    one listing shares (tables, German units near a hex) looked up once. ``on_map``: the
    side's units on the map."""
    rules = s.rules
    b = board_of(rules)
    grid = rules.map.grid
    side = s.side
    occ_german = s.occ[GERMAN]
    within = grid.within
    unit_index = rules.unit_index
    units = rules.units
    index = grid.index
    near: dict[tuple[int, int], int] = {}
    # Per unit and action kind, the start of a Rebuild or Reinforce value (its unit's
    # strength and movement), computed as the value computes it.
    base: dict[tuple[str, bool], float] = {}
    bodies = 0.6 * max(0, 14 - on_map)  # Soviet: bodies for the line
    rebuild_kinds = (Rebuild, Reinforce)

    def german_near(h: int, radius: int) -> int:
        n = near.get((h, radius))
        if n is None:
            n = near[(h, radius)] = (within(h, radius) & occ_german).bit_count()
        return n

    def value(a: Action) -> float:
        if isinstance(a, End):
            return 0.0
        if isinstance(a, Restore):
            u = unit_index[a.unit]
            spec = units[u]
            h = s.loc[u]
            gain = float(spec.full - spec.half)
            if side == SOVIET:
                gain += 1.5 * min(german_near(h, 2), 3) + 2.0 * b.shift[SOVIET][h] * (german_near(h, 3) > 0)
                if (b.moscow_mask >> h) & 1:
                    gain += 2.0 + 0.5 * s.turn
                elif grid.neighbour_mask[h] & b.moscow_mask:
                    gain += 0.2 * s.turn
            else:
                gain *= 1.5 if spec.panzer else 1.0
                gain += 0.5 * min(german_near(h, 1), 1)
            return gain
        if isinstance(a, rebuild_kinds):
            rebuild = isinstance(a, Rebuild)
            start = base.get((a.unit, rebuild))
            if start is None:
                spec = units[unit_index[a.unit]]
                start = base[(a.unit, rebuild)] = float(spec.half if rebuild else spec.full) + 0.2 * spec.move
            gain = start
            h = index[a.hex]
            if side == SOVIET:
                gain += bodies  # bodies for the line
                if (b.moscow_mask >> h) & 1:
                    gain += 2.5
                gain -= 0.15 * b.mcost[h]
                if german_near(h, 1):
                    gain -= 3.0  # a half-strength army born next to the enemy dies at once
            else:
                gain *= 1.3 if units[unit_index[a.unit]].panzer else 0.8
                gain -= 0.1 * b.mcost[h]
            if isinstance(a, Reinforce):
                gain += 100.0  # must be placed anyway; the hex is what is chosen
            return gain
        return -1.0

    return value


def choose_replacement(s: State, actions: Sequence[Action]) -> tuple[Action, str]:
    on_map = len(s.on_map(s.side))
    a = max(actions, key=_valuer(s, on_map))
    if isinstance(a, Restore):
        why = f"restore {a.unit} to full strength (it faces the enemy or holds a key hex)"
    elif isinstance(a, Rebuild):
        why = f"rebuild {a.unit} in {a.hex}: the line needs more units"
    elif isinstance(a, Reinforce):
        why = f"{a.unit} arrives in {a.hex}, nearest the front it can"
    else:
        why = "no replacement worth taking"
    return a, why


__all__ = ["choose_replacement", "replacement_value"]
