"""An independent check of supply (rules_en.md §11) for soak runs and tests.

``supply_problems(s)`` recomputes, for every unit on the map, whether it is in supply now by a
plain per-unit search written from the rule text — rail hexes joined to the side's supply
edges along rail links, then a breadth-first overland search of at most 12 (German) or 6
(Soviet) hexes that never enters a blocking hex ([Q23]–[Q27]) — and compares it with the fast
bitset computation of :mod:`typhoon.games.tmc.supply` that the engine uses. It is slow (one
search per unit), so soak runs call it once per phase, not after every action.
"""

from __future__ import annotations

from typhoon.games.tmc.rules import GERMAN, SOVIET
from typhoon.games.tmc.state import OFF, State
from typhoon.games.tmc.supply import GERMAN_EDGES, SOVIET_EDGES, edge_rail, supply_now

REACH = {GERMAN: 12, SOVIET: 6}  # §11.1, §11.2


def _standing(s: State, side: int) -> int:
    """Hexes holding a unit of ``side`` that is not flipped by a pending overrun ([Q34])."""
    out = 0
    for u in s.rules.side_units[side]:
        h = s.loc[u]
        if h != OFF and not (s.flipped >> u) & 1:
            out |= 1 << h
    return out


def _in_supply(s: State, edge: int, usable: int, blocked: int, reach: int, start: int) -> bool:
    g = s.rules.grid
    links = s.rules.map.rail_neighbours
    rail: set[int] = set()
    todo = [h for h in g.hexes if (edge & usable) >> h & 1]
    while todo:
        h = todo.pop()
        if h not in rail:
            rail.add(h)
            todo += [n for n in links[h] if usable >> n & 1 and n not in rail]
    dist = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for h in frontier:
            if h in rail:
                return True
            if dist[h] < reach:
                for n in g.neighbours[h]:
                    if n not in dist and not blocked >> n & 1:
                        dist[n] = dist[h] + 1
                        nxt.append(n)
        frontier = nxt
    return False


def supply_problems(s: State) -> list[str]:
    rules = s.rules
    g = rules.grid
    tmap = rules.map
    ger, sov = _standing(s, GERMAN), _standing(s, SOVIET)
    # German supply (§11.1, [Q26]): German-repaired, uncut rail; Soviet units block; Soviet ZOC not.
    ger_usable = s.rail_german & ~s.rail_cut & ~sov
    # Soviet supply (§11.2, §11.4, [Q25]): normal or Soviet-repaired, uncut rail; German units and
    # German ZOC (of units other than EB, §13.1) without a Soviet unit block.
    if rules.opt("zoc_across_lakes") == "yes":
        zoc_src = 0
        for u in rules.side_units[GERMAN]:
            h = s.loc[u]
            if h != OFF and not rules.units[u].eb and not (s.flipped >> u) & 1:
                zoc_src |= 1 << h
        ger_zoc = g.expand(zoc_src)
    else:
        ger_zoc = s.zoc(GERMAN)
    sov_blocked = ger | (ger_zoc & ~s.occ[SOVIET])
    sov_usable = (s.rail_normal | s.rail_soviet) & ~s.rail_cut & ~sov_blocked
    if not rules.flag("soviet_supply_west_of_start_line"):
        sov_usable &= ~rules.west_mask  # [Q24], strict reading
    setups = {
        GERMAN: (edge_rail(tmap, GERMAN_EDGES), ger_usable, sov),
        SOVIET: (edge_rail(tmap, SOVIET_EDGES), sov_usable, sov_blocked),
    }
    out = []
    for side in (GERMAN, SOVIET):
        fast = supply_now(s, side)
        edge, usable, blocked = setups[side]
        for u in rules.side_units[side]:
            h = s.loc[u]
            if h == OFF or (s.flipped >> u) & 1:
                continue
            want = _in_supply(s, edge, usable, blocked, REACH[side], h)
            if fast.has(h) != want:
                out.append(
                    f"supply of {rules.units[u].id} at {g.ids[h]}: engine says "
                    f"{'in' if fast.has(h) else 'out of'} supply, the plain search "
                    f"{'in' if want else 'out of'}"
                )
    return out
