"""Flat-topped hex geometry for SVG drawings of a hex map (a game's board for the browser, an
inspection map): each drawing has its own scale, so these take a hex's centre and
circumradius in drawing units."""

from __future__ import annotations

import math

Point = tuple[float, float]


def corner(cx: float, cy: float, radius: float, k: int) -> Point:
    """Corner ``k`` (0..5, clockwise from east in SVG's y-down frame) of the hex at (cx, cy)."""
    a = math.radians(60 * k)
    return cx + radius * math.cos(a), cy + radius * math.sin(a)


def side_towards(cx: float, cy: float, radius: float, bx: float, by: float) -> tuple[Point, Point]:
    """The ends of the hexside of the hex at (cx, cy) that faces the neighbour centred at
    (bx, by): its two corners nearest that centre."""
    cs = sorted(
        (corner(cx, cy, radius, k) for k in range(6)), key=lambda p: (p[0] - bx) ** 2 + (p[1] - by) ** 2
    )
    return cs[0], cs[1]


__all__ = ["Point", "corner", "side_towards"]
