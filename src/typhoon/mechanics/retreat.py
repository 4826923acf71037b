"""Retreats: a unit moved away from its hex, never into forbidden hexes.

Two kinds: a retreat of several hexes along a path (:func:`retreat_paths`), and a retreat of
one hex, chosen among the hexes reachable across passable hexsides (:func:`one_hex_retreats`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence


def retreat_paths(
    origin: int,
    length: int,
    neighbours: Sequence[Sequence[int]],
    distance: Callable[[int, int], int],
    forbidden: int,
    occupied: int,
) -> list[tuple[int, ...]]:
    """Every retreat from ``origin`` whose i-th hex lies i hexes from the origin.

    The retreat is ``length`` hexes long; if it would end on an ``occupied`` hex it goes on by
    another ``length`` hexes, and so on, until it ends on an empty hex. No hex of the path may
    be ``forbidden`` (enemy units, enemy zones of control). Each returned path lists the hexes
    entered, in order, the last one being where the unit ends.
    """
    paths: list[tuple[int, ...]] = []

    def extend(path: tuple[int, ...], here: int) -> None:
        step = len(path)
        for n in neighbours[here]:
            if (forbidden >> n) & 1 or distance(origin, n) != step + 1:
                continue
            p = path + (n,)
            if len(p) % length == 0:
                if (occupied >> n) & 1:
                    extend(p, n)
                else:
                    paths.append(p)
            else:
                extend(p, n)

    extend((), origin)
    return paths


def one_hex_retreats(reachable: int, forbidden: int, full: int) -> list[int]:
    """The hexes a one-hex retreat may end in, in index order.

    ``reachable``: the hexes next to the unit across hexsides it may cross (for a unit bound to
    rail, its rail neighbours); ``forbidden``: hexes it may never enter (enemy units, enemy
    zones of control without a friendly unit); ``full``: hexes where it would break the
    stacking limit. An empty list means the unit cannot retreat."""
    out: list[int] = []
    m = reachable & ~forbidden & ~full
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out
