"""Zones of control, floods and communication paths, as bitsets over hex indices.

For the games' communication paths to a map edge, supply lines of limited length, rail
networks and continuous fronts. Hex sets are Python ints, one
bit per hex index (typhoon.hexgrid); ``expand`` grows a set by one hex in every direction.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from typhoon.hexgrid import bit_list


def zoc_mask(occupied: int, expand: Callable[[int], int]) -> int:
    """Hexes in the zone of control of the units on ``occupied``: the six hexes around each,
    including hexes that hold units of either side."""
    return expand(occupied)


def flood(sources: int, passable: int, expand: Callable[[int], int]) -> int:
    """All hexes of ``passable`` connected to a passable hex of ``sources`` through passable hexes."""
    region = sources & passable
    frontier = region
    while frontier:
        frontier = expand(frontier) & passable & ~region
        region |= frontier
    return region


def flood_within(sources: int, passable: int, expand: Callable[[int], int], steps: int) -> int:
    """Hexes of ``passable`` reachable from a passable hex of ``sources`` in at most ``steps``
    steps, every hex on the way passable (breadth-first layers: one expand per step)."""
    region = sources & passable
    frontier = region
    for _ in range(steps):
        if not frontier:
            break
        frontier = expand(frontier) & passable & ~region
        region |= frontier
    return region


def graph_flood(sources: int, links: Sequence[Sequence[int]], passable: int) -> int:
    """Hexes of ``passable`` connected to a passable hex of ``sources`` along ``links``
    (``links[h]`` = the hexes joined to h, e.g. by a rail line) through passable hexes only.
    Unlike :func:`flood`, two hexes are joined only where a link says so, not by adjacency."""
    region = sources & passable
    stack = bit_list(region)
    while stack:
        h = stack.pop()
        for n in links[h]:
            bit = 1 << n
            if passable & bit and not region & bit:
                region |= bit
                stack.append(n)
    return region


def communication_mask(edge: int, blocked: int, expand: Callable[[int], int], all_hexes: int) -> int:
    """Hexes from which a path of any length reaches ``edge`` without entering a ``blocked``
    hex (enemy units and enemy zones of control). The hex a path starts from is not entered,
    so a unit standing in an enemy zone of control can still trace from it, and an edge hex
    is in communication by itself."""
    region = flood(edge, all_hexes & ~blocked, expand)
    return region | expand(region) | edge


def trace_within(
    targets: int, blocked: int, expand: Callable[[int], int], all_hexes: int, length: int
) -> int:
    """Hexes from which a path of at most ``length`` hexes reaches a hex of ``targets``,
    counting the target hex but not the starting hex, and entering no ``blocked`` hex (the
    target included). The starting hex is not entered, so it may itself be blocked for
    others (a unit's own hex); a passable target is reached by a path of length 0."""
    passable = all_hexes & ~blocked
    if length <= 0:
        return targets & passable
    near = flood_within(targets, passable, expand, length - 1)
    return near | expand(near)
