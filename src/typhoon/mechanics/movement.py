"""Movement range on a hex graph: terrain costs, blocked hexes, stop on entering a zone of control.

Generic over the game: the caller supplies the graph (all neighbours, or rail links only), the
cost of entering each hex, the hexes that may not be entered, the hexes that end movement when
entered, and the hexes whose entry the mover wants reported (cities it would take on the way).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from typhoon.hexgrid import bits


def reach(
    start: int,
    allowance: int,
    neighbours: Sequence[Sequence[int]],
    cost: Sequence[int],
    blocked: int,
    stop: int,
    notable: int = 0,
) -> dict[tuple[int, int], int]:
    """Every (hex, notable hexes entered on the way) a mover can end on, with the most
    movement points it can have left there.

    ``blocked``, ``stop`` and ``notable`` are bitsets of hex indices. A hex in ``stop`` may be
    entered but ends the move (an enemy zone of control). Entering a hex costs ``cost[hex]``
    and is allowed only with that many points left. The start hex itself is not a result
    unless the mover can leave and come back having entered a notable hex.
    """
    if not notable:
        return {
            (h, 0): left
            for h, left in _reach_plain(start, allowance, neighbours, cost, blocked, stop).items()
        }
    best: dict[tuple[int, int], int] = {(start, 0): allowance}
    todo = [(start, 0, allowance)]
    pop = todo.pop
    push = todo.append
    while todo:
        h, seen, left = pop()
        if best[(h, seen)] > left:
            continue  # a better label for this (hex, notables) was found since this was queued
        for n in neighbours[h]:
            bit = 1 << n
            if blocked & bit:
                continue
            c = cost[n]
            if c > left:
                continue
            rest = 0 if stop & bit else left - c
            key = (n, seen | (notable & bit))
            old = best.get(key)
            if old is None or rest > old:
                best[key] = rest
                if rest > 0:
                    push((n, key[1], rest))
    del best[(start, 0)]
    return best


def adjacent_moves(
    start: int, neighbours: Sequence[Sequence[int]], blocked: int, notable: int = 0
) -> dict[tuple[int, int], int]:
    """Moves of exactly one hex whatever the terrain (the mud rule), in the shape of :func:`reach`."""
    return {(n, notable & (1 << n)): 0 for n in neighbours[start] if not (blocked >> n) & 1}


def _reach_plain(
    start: int,
    allowance: int,
    neighbours: Sequence[Sequence[int]],
    cost: Sequence[int],
    blocked: int,
    stop: int,
) -> dict[int, int]:
    """:func:`reach` without notable hexes: hex -> most points left, start excluded. Hexes are
    settled in order of points left (a bucket queue), so each is expanded once."""
    best = {start: allowance}
    buckets: list[list[int]] = [[] for _ in range(allowance + 1)]
    buckets[allowance].append(start)
    for left in range(allowance, 0, -1):
        for h in buckets[left]:
            if best[h] != left:
                continue
            for n in neighbours[h]:
                if (blocked >> n) & 1:
                    continue
                c = cost[n]
                if c > left:
                    continue
                rest = 0 if (stop >> n) & 1 else left - c
                if best.get(n, -1) < rest:
                    best[n] = rest
                    if rest:
                        buckets[rest].append(n)
    del best[start]
    return best


def reach_on_grid(
    start: int,
    allowance: int,
    expand: Callable[[int], int],
    forest: int,
    blocked: int,
    stop: int,
    notable: int = 0,
) -> dict[int, int]:
    """:func:`reach` on a hex grid whose hexes cost 1, or 2 when in ``forest``, computed with
    bitsets: notable hexes passed through (a bitset) -> bitset of hexes the mover can end on.

    Only notable hexes entered *before* the last hex count as passed through; a notable hex
    the move merely ends on is an ordinary destination. A destination may itself be in the
    passed set (a move out through it and back), so callers compare ``passed & ~dest``.
    ``expand`` grows a bitset by one hex in every direction (:meth:`HexGrid.expand`).
    """
    plain = _layers(start, allowance, expand, forest, blocked, stop, 0, 0, [])
    passing = notable & plain[0][1]  # notable hexes a move can enter and go on from
    passing &= ~(1 << start)
    if not passing:
        dest = _dest(plain[1], forest, blocked) & ~(1 << start)
        return {0: dest} if dest else {}
    nb = [1 << h for h in bits(passing)]
    subsets = [0]
    for b in nb:
        subsets += [x | b for x in subsets]
    subsets.sort(key=lambda x: x.bit_count())
    grown: dict[int, list[int]] = {}
    out: dict[int, int] = {}
    for sub in subsets:
        feeders = [(b, grown[sub & ~b]) for b in nb if sub & b]
        _, ex = _layers(start, allowance, expand, forest, blocked, stop, passing, sub, feeders)
        dest = _dest(ex, forest, blocked)
        if sub == 0:
            dest &= ~(1 << start)
        grown[sub] = ex
        if dest:
            out[sub] = dest
    return out


def _layers(
    start: int,
    allowance: int,
    expand: Callable[[int], int],
    forest: int,
    blocked: int,
    stop: int,
    notable: int,
    sub: int,
    feeders: list[tuple[int, list[int]]],
) -> tuple[list[int], list[int]]:
    """layer[k]: hexes reachable with at least k points left from which the move can go on,
    having passed exactly the notable hexes ``sub``; ex[k] = expand(layer[k])."""
    free = ~blocked
    allowed = ~(notable & ~sub)
    go_on = ~stop
    c_ok = free & ~forest & go_on
    f_ok = free & forest & go_on
    top = allowance + 2
    layer = [0] * top
    ex = [0] * top
    for k in range(allowance, 0, -1):
        m = layer[k + 1] if k + 1 < top else 0
        if k == allowance and sub == 0:
            m = 1 << start
        m |= ex[k + 1] & c_ok & allowed
        if k + 2 < top:
            m |= ex[k + 2] & f_ok & allowed
        for b, fex in feeders:
            m |= fex[k + 1] & c_ok & b
            if k + 2 < top:
                m |= fex[k + 2] & f_ok & b
        layer[k] = m
        ex[k] = expand(m)
    return layer, ex


def _dest(ex: list[int], forest: int, blocked: int) -> int:
    """Hexes a move can end on from a layer: any hex (notable or not) entered as the last step."""
    free = ~blocked
    two = ex[2] if len(ex) > 2 else 0
    return (ex[1] & free & ~forest) | (two & free & forest)
