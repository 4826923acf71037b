"""The path a legal move takes, for drawing it on the map.

The engine decides which moves are legal (and which enemy-held cities each one passes
through); it does not keep the path. This module asks the engine's movement mechanics
(:func:`typhoon.mechanics.movement.reach`, with the same graph, costs, blocked hexes and
zones of control as the movement phase) how many points a unit can have left on each hex,
and walks back from the move's destination along those labels: a path that agrees with the
move, cities passed through included. One hex in mud. It is display help, never a legality
check.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from typhoon.games.bfm.actions import Move
from typhoon.mechanics.movement import reach

Label = tuple[int, int]  # (hex, notable hexes entered so far)


def move_paths(state: Any, moves: Iterable[Move]) -> dict[Move, list[str]]:
    """A path (hex ids, start and end included) for each of ``moves``; moves for which no
    path is found (which should not happen) are left out."""
    rules = state.rules
    m = rules.map
    grid = m.grid
    spec = state.phase_spec
    rail = spec.movers == "rail"
    if state.is_mud() and not rail:
        return {mv: [mv.src, mv.dst] for mv in moves}
    by_unit: dict[str, list[Move]] = {}
    for mv in moves:
        by_unit.setdefault(mv.unit, []).append(mv)
    enemy = 1 - spec.side
    neighbours = m.rail_neighbours if rail else grid.neighbours
    cost = m.rail_cost if rail else m.move_cost
    blocked = state.occ[enemy]
    stop = state.zoc(enemy)
    notable = state.controlled_city_mask(enemy) & ~blocked  # cities a move takes on its way
    out: dict[Move, list[str]] = {}
    for uid, ms in by_unit.items():
        u = rules.unit_index[uid]
        start = state.loc[u]
        allowance = rules.units[u].move
        left = reach(start, allowance, neighbours, cost, blocked, stop, notable)
        left[(start, 0)] = allowance
        back = _Back(left, neighbours, cost, stop, notable)
        for mv in ms:
            dst = grid.index[mv.dst]
            want = notable & (1 << dst)
            for hid in mv.via:
                want |= 1 << grid.index[hid]
            path = back.path((dst, want), (start, 0))
            if path is not None:
                out[mv] = [grid.ids[h] for h in path]
    return out


class _Back:
    """Walks back from a label of :func:`reach` to the start, a cheapest way: from each label
    to the neighbour with the most points left from which entering gives this label's points.
    Points left grow at every step back, so a walk ends. Steps are remembered (moves of one
    unit share most of their paths)."""

    def __init__(
        self,
        left: dict[Label, int],
        neighbours: Sequence[Sequence[int]],
        cost: Sequence[int],
        stop: int,
        notable: int,
    ):
        self.left = left
        self.neighbours = neighbours
        self.cost = cost
        self.stop = stop
        self.notable = notable
        self.steps: dict[Label, Label | None] = {}

    def step(self, label: Label) -> Label | None:
        if label in self.steps:
            return self.steps[label]
        h, seen = label
        here = self.left[label]
        c = self.cost[h]
        bit = 1 << h
        need = None if self.stop & bit else here + c  # entering a zone of control leaves 0
        # The notable hexes entered before h: without h itself if h is notable.
        before = (seen, seen & ~bit) if self.notable & bit else (seen,)
        best, found = -1, None
        for p in self.neighbours[h]:
            for s in before:
                lp = self.left.get((p, s), -1)
                if (lp == need or (need is None and lp >= c)) and lp > best:
                    best, found = lp, (p, s)
        self.steps[label] = found
        return found

    def path(self, end: Label, start: Label) -> list[int] | None:
        if end not in self.left:
            return None
        out = [end[0]]
        label = end
        while label != start:
            prev = self.step(label)
            if prev is None:  # pragma: no cover - reach's labels always lead back to the start
                return None
            label = prev
            out.append(label[0])
        return out[::-1]
