"""Zones of control and communication paths, as bitsets over hex indices."""

from __future__ import annotations

from collections.abc import Callable


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


def communication_mask(edge: int, blocked: int, expand: Callable[[int], int], all_hexes: int) -> int:
    """Hexes from which a path of any length reaches ``edge`` without entering a ``blocked``
    hex (enemy units and enemy zones of control). The hex a path starts from is not entered,
    so a unit standing in an enemy zone of control can still trace from it, and an edge hex
    is in communication by itself."""
    region = flood(edge, all_hexes & ~blocked, expand)
    return region | expand(region) | edge
