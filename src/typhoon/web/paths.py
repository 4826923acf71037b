"""The path a legal move takes, for drawing it on the map.

The engine decides which moves are legal (and which enemy-held cities each one passes
through); it does not keep the path. This module finds a cheapest path that agrees with a
legal move, so the browser can show it: same terrain costs, no enemy-held hex, no leaving an
enemy zone of control once entered, rail lines only in a rail phase, one hex in mud, passing
through exactly the cities the move names. It is display help, never a legality check.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from typing import Any

from typhoon.games.bfm.actions import Move


def move_paths(state: Any, moves: Iterable[Move]) -> dict[Move, list[str]]:
    """A path (hex ids, start and end included) for each of ``moves``; moves for which no
    path is found (which should not happen) are left out."""
    by_unit: dict[str, list[Move]] = {}
    for m in moves:
        by_unit.setdefault(m.unit, []).append(m)
    out: dict[Move, list[str]] = {}
    for uid, ms in by_unit.items():
        out.update(_unit_paths(state, uid, ms))
    return out


def _unit_paths(state: Any, uid: str, moves: list[Move]) -> dict[Move, list[str]]:
    rules = state.rules
    m = rules.map
    grid = m.grid
    u = rules.unit_index[uid]
    start = state.loc[u]
    if start < 0:
        return {}
    spec = rules.phases[state.phase]
    side = spec.side
    enemy = 1 - side
    rail = spec.movers == "rail"
    mud = state.is_mud() and not rail
    if mud:
        return {mv: [mv.src, mv.dst] for mv in moves}
    blocked = state.occ[enemy]
    stop = state.zoc(enemy)
    notable = state.controlled_city_mask(enemy) & ~blocked
    neighbours = m.rail_neighbours if rail else grid.neighbours
    allowance = rules.units[u].move
    # Dijkstra over (hex, notable cities entered so far): cheapest cost, then parent.
    best: dict[tuple[int, int], int] = {(start, 0): 0}
    parent: dict[tuple[int, int], tuple[int, int] | None] = {(start, 0): None}
    heap: list[tuple[int, int, int]] = [(0, start, 0)]
    while heap:
        cost, h, seen = heapq.heappop(heap)
        if best.get((h, seen), 1 << 30) < cost:
            continue
        if h != start and (stop >> h) & 1:
            continue  # entering an enemy zone of control ends the move
        for n in neighbours[h]:
            if (blocked >> n) & 1:
                continue
            c = cost + (1 if rail else m.move_cost[n])
            if c > allowance:
                continue
            key = (n, seen | (notable & (1 << n)))
            if c < best.get(key, 1 << 30):
                best[key] = c
                parent[key] = (h, seen)
                heapq.heappush(heap, (c, n, key[1]))
    out: dict[Move, list[str]] = {}
    for mv in moves:
        dst = grid.index.get(mv.dst, -1)
        if dst < 0:
            continue
        want = 0
        for hid in mv.via:
            want |= 1 << grid.index[hid]
        want |= notable & (1 << dst)
        key = (dst, want)
        if key not in parent:
            continue
        path: list[str] = []
        k: tuple[int, int] | None = key
        while k is not None:
            path.append(grid.ids[k[0]])
            k = parent[k]
        out[mv] = path[::-1]
    return out
