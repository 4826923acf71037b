"""Facts about the map that the AI players use over and over: distances to Moscow, terrain
value for a defender, the combat results table as probabilities. Computed once per ruleset."""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from typing import Any, cast

from typhoon.games.bfm import native
from typhoon.games.bfm.rules import GERMAN, SOVIET, Rules
from typhoon.hexgrid import bits
from typhoon.mechanics.combat import result_probabilities

RESULTS = ("NE", "DR", "DRL", "AL", "DE", "EX")


@dataclass(frozen=True)
class Board:
    rules: Rules
    hexes: tuple[int, ...]
    nmask: tuple[int, ...]
    moscow: int  # the (first) Moscow hex
    moscow_mask: int
    mdist: tuple[int, ...]  # hex steps to Moscow
    mcost: tuple[int, ...]  # movement points to Moscow (forest costs 2)
    shift: tuple[tuple[int, ...], tuple[int, ...]]  # [side][hex] columns a defender there gains
    river: tuple[int, ...]  # [hex] neighbours across a river
    city_mask: int
    # column (0..6) -> probability of each result (every key of RESULTS, in that order; column
    # 0, below the table, all zero)
    probs: tuple[dict[str, float], ...]
    # [hex] the hex and its neighbours, in hex order (what bits(nmask[h] | 1 << h) yields);
    # [hex] the neighbours across a river, in hex order (bits(river[h])). Lists, not masks:
    # the scorers walk them thousands of times a plan.
    near1: tuple[tuple[int, ...], ...] = ()
    river_list: tuple[tuple[int, ...], ...] = ()
    # (hex, radius) -> the hexes within radius, in hex order (bits(grid.within(hex, radius))).
    _within: dict[tuple[int, int], tuple[int, ...]] = field(default_factory=dict, compare=False, hash=False)

    def within_mask(self, h: int, radius: int) -> int:
        """grid.within(h, radius): the hexes within ``radius`` of ``h``, as a mask."""
        return self.rules.map.grid.within(h, radius)

    def within_list(self, h: int, radius: int) -> tuple[int, ...]:
        got = self._within.get((h, radius))
        if got is None:
            got = self._within[(h, radius)] = tuple(bits(self.rules.map.grid.within(h, radius)))
        return got


_BOARDS: dict[int, Board] = {}


def board_of(rules: Rules) -> Board:
    """The Board of a ruleset (rules objects are shared and immutable, so keyed by identity)."""
    b = _BOARDS.get(id(rules))
    if b is None or b.rules is not rules:
        b = _BOARDS[id(rules)] = _build(rules)
    return b


def _build(rules: Rules) -> Board:
    m = rules.map
    grid = m.grid
    moscow = m.moscow[0]
    mdist = [99] * grid.size
    for h in grid.hexes:
        mdist[h] = min(grid.distance(h, x) for x in m.moscow)
    # Movement cost to Moscow: entering a forest hex costs 2 (Dijkstra from Moscow outwards,
    # charging the cost of the hex being left towards Moscow, i.e. the hex entered going in).
    cost = [10**6] * grid.size
    heap = []
    for x in m.moscow:
        cost[x] = 0
        heap.append((0, x))
    heapq.heapify(heap)
    while heap:
        c, h = heapq.heappop(heap)
        if c > cost[h]:
            continue
        step = 2 if m.is_forest(h) else 1
        for n in grid.neighbours[h]:
            if c + step < cost[n]:
                cost[n] = c + step
                heapq.heappush(heap, (c + step, n))
    probs = []
    for column in range(7):
        p = dict.fromkeys(RESULTS, 0.0)
        if column >= 1:
            p.update(result_probabilities(rules.crt, column))
        probs.append(p)
    return Board(
        rules=rules,
        hexes=grid.hexes,
        nmask=tuple(grid.neighbour_mask),
        moscow=moscow,
        moscow_mask=m.moscow_mask,
        mdist=tuple(mdist),
        mcost=tuple(cost),
        shift=rules.defender_shift,
        river=m.river_mask,
        city_mask=m.city_mask,
        probs=tuple(probs),
        near1=tuple(tuple(bits(grid.neighbour_mask[h] | (1 << h))) for h in range(grid.size)),
        river_list=tuple(tuple(bits(m.river_mask[h])) for h in range(grid.size)),
    )


# Board -> the native core's planner tables (boards live as long as their rules).
_TABLES: dict[int, tuple[Board, Any]] = {}


def planner_tables(b: Board) -> Any:
    """The native core's tables of the AI planner for a board (``_bfmcore.plan_tables``: see
    :mod:`typhoon.games.bfm.ai.native_plan`); only when ``native.available()``."""
    got = _TABLES.get(id(b))
    if got is not None and got[0] is b:
        return got[1]
    t = native.core_module().plan_tables(planner_input(b))
    _TABLES[id(b)] = (b, t)
    return t


def planner_input(b: Board) -> dict[str, Any]:
    """What :func:`planner_tables` hands the native core: the board's tables as plain values."""
    rules = b.rules
    grid = rules.map.grid
    size = grid.size
    for p in b.probs:
        if tuple(p) != RESULTS:
            raise ValueError("combat results outside the board's RESULTS")
    return {
        "size": size,
        "nmask": list(b.nmask),
        "within1": [grid.within(h, 1) if grid.ids[h] else 0 for h in range(size)],
        "within2": [grid.within(h, 2) if grid.ids[h] else 0 for h in range(size)],
        "river": list(b.river),
        "moscow": b.moscow_mask,
        "city": b.city_mask,
        "forest": rules.map.forest_mask,
        "shift_german": list(b.shift[GERMAN]),
        "shift_soviet": list(b.shift[SOVIET]),
        "mcost": list(b.mcost),
        "probs": [p[r] for p in b.probs for r in RESULTS],
    }


def approach_cost(rules: Rules, sources: int, blocked: int, limit: int = 40) -> list[int]:
    """Movement points from the nearest hex of ``sources`` to every hex, never entering a
    ``blocked`` hex (forest costs 2). Unreached hexes get ``limit``. From the native core
    where it is available (the same numbers: shortest costs are unique), else
    :func:`approach_cost_py`."""
    if native.available():
        return cast(
            list[int],
            native.core_module().approach_cost(planner_tables(board_of(rules)), sources, blocked, limit),
        )
    return approach_cost_py(rules, sources, blocked, limit)


def approach_cost_py(rules: Rules, sources: int, blocked: int, limit: int = 40) -> list[int]:
    """:func:`approach_cost` in Python."""
    m = rules.map
    grid = m.grid
    cost = [limit] * grid.size
    forest = m.forest_mask
    # Bucket queue over small integer costs.
    buckets: list[list[int]] = [[] for _ in range(limit + 2)]
    for h in bits(sources):
        cost[h] = 0
        buckets[0].append(h)
    nbrs = grid.neighbours
    for c in range(limit):
        for h in buckets[c]:
            if cost[h] != c:
                continue
            for n in nbrs[h]:
                if (blocked >> n) & 1:
                    continue
                nc = c + (2 if (forest >> n) & 1 else 1)
                if nc < cost[n]:
                    cost[n] = nc
                    if nc <= limit:
                        buckets[nc].append(n)
    return cost


__all__ = [
    "GERMAN",
    "SOVIET",
    "Board",
    "approach_cost",
    "approach_cost_py",
    "board_of",
    "planner_input",
    "planner_tables",
]
