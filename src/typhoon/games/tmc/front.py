"""The continuous front line (rules_en.md §15; readings [Q38], [Q39]).

At the end of his own player turn a side needs a line of its units and/or ZOC from the north map
edge to the south map edge; for each gap hex the opponent scores 1 VP (every player turn, [Q39]).
Covered hexes = hexes holding a unit of the side (EB units included: they are units) plus the
six neighbours of every unit that exerts a ZOC (not EB units). For this rule ZOC extends into
enemy-occupied hexes (§15.2) and across lake hexsides ([Q39]), so the cover is a plain expand.

Gap count, option ``front_gap_count``:
- "path" (default, [Q38]): the least number of uncovered hexes on any chain of adjacent hexes from
  a north-edge hex to a south-edge hex (covered hexes cost 0, others 1: a 0-1 shortest path,
  done here as bitset floods, one per unit of cost).
- "rows": the number of map rows (CCRR row numbers) holding no covered hex.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from functools import lru_cache

from typhoon.hexgrid import HexGrid
from typhoon.mechanics.zoc import flood

FRONT_GAP_COUNT = ("path", "rows")


def covered_hexes(expand: Callable[[int], int], unit_hexes: int, zoc_unit_hexes: int) -> int:
    """Hexes covered for the front: own units' hexes plus the ZOC of those that exert one (§15)."""
    return unit_hexes | expand(zoc_unit_hexes)


@lru_cache(maxsize=8)
def edge_rows(grid: HexGrid) -> tuple[int, int]:
    """(north edge, south edge) of a grid: the first and the last hex of every column."""
    north = south = 0
    for h in grid.hexes:
        c, r = grid.coords[h]
        if r == 1:
            north |= 1 << h
        if r == grid.rows_in_column(c):
            south |= 1 << h
    return north, south


@lru_cache(maxsize=8)
def row_masks(grid: HexGrid) -> tuple[int, ...]:
    """Bitset of each map row (CCRR row 1, 2, ...), for the "rows" gap count."""
    rows = [0] * max(grid.rows_odd, grid.rows_even)
    for h in grid.hexes:
        rows[grid.coords[h][1] - 1] |= 1 << h
    return tuple(rows)


def path_gaps(expand: Callable[[int], int], all_hexes: int, north: int, south: int, covered: int) -> int:
    """Least number of uncovered hexes on a chain of adjacent hexes from ``north`` to ``south`` ([Q38]).

    reach_k = hexes reachable from the north edge with at most k uncovered hexes on the way: reach_0
    floods the covered north-edge hexes through covered hexes; reach_(k+1) seeds every hex of
    reach_k, its neighbours and the north edge, then floods through covered hexes."""
    covered &= all_hexes
    reach = flood(north, covered, expand)
    k = 0
    while not reach & south:
        seeds = reach | expand(reach) | north
        reach = flood(seeds, covered | seeds, expand)
        k += 1
    return k


def row_gaps(covered: int, rows: Sequence[int]) -> int:
    """Number of map rows with no covered hex (the "rows" reading of [Q38])."""
    return sum(1 for row in rows if not row & covered)


def front_gaps(
    grid: HexGrid,
    unit_hexes: int,
    zoc_unit_hexes: int,
    *,
    north: int | None = None,
    south: int | None = None,
    method: str = "path",
) -> int:
    """Gap hexes in one side's front (§15): ``unit_hexes`` = hexes holding any unit of the side,
    ``zoc_unit_hexes`` = hexes holding a unit of the side that exerts a ZOC. ``north``/``south``
    default to the grid's first/last rows (pass TmcMap.edges to use the map's own)."""
    covered = covered_hexes(grid.expand, unit_hexes, zoc_unit_hexes)
    if method == "rows":
        return row_gaps(covered, row_masks(grid))
    if method != "path":
        raise ValueError(f"front_gap_count must be one of {FRONT_GAP_COUNT}")
    if north is None or south is None:
        n, s = edge_rows(grid)
        north = n if north is None else north
        south = s if south is None else south
    return path_gaps(grid.expand, grid.all_mask, north, south, covered)


def gap_hexes(grid: HexGrid, covered: int, north: int, south: int) -> tuple[int, ...]:
    """The uncovered hexes of one cheapest north-south chain (for display and the AI), found by an
    explicit 0-1 breadth-first search; ``len`` equals :func:`path_gaps`. Ties go to the lowest index."""
    inf = grid.size + 1
    cost = [inf] * grid.size
    parent = [-1] * grid.size
    queue: deque[int] = deque()
    for h in sorted(grid.hexes):
        if (north >> h) & 1:
            cost[h] = 0 if (covered >> h) & 1 else 1
            if cost[h] == 0:
                queue.appendleft(h)
            else:
                queue.append(h)
    while queue:
        h = queue.popleft()
        for n in grid.neighbours[h]:
            step = 0 if (covered >> n) & 1 else 1
            if cost[h] + step < cost[n]:
                cost[n] = cost[h] + step
                parent[n] = h
                if step == 0:
                    queue.appendleft(n)
                else:
                    queue.append(n)
    ends = [h for h in grid.hexes if (south >> h) & 1]
    out = []
    h = min(ends, key=lambda e: (cost[e], e)) if ends else -1
    while h >= 0:
        if not (covered >> h) & 1:
            out.append(h)
        h = parent[h]
    return tuple(reversed(out))
