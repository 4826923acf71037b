"""Supply lines (rules_en.md §11.1, §11.2, §11.4; readings [Q23]-[Q27], [Q40]-[Q42]).

Hand-worked positions on a 20 x 12 grid (even columns shifted down, as on the TMC map) with a
rail line along row 6: 0106-0206-...-2006, every hex linked to its row-6 neighbours. Hex
distances used below were checked with HexGrid.distance: 0506-1706 = 12, 0506-1806 = 13,
0206-1506 = 13, 1206-0806 = 4, 1606-0806 = 8, 1006-0306 = 7.
"""

from __future__ import annotations

import time

from typhoon.games.tmc.supply import german_supply, soviet_supply
from typhoon.hexgrid import HexGrid
from typhoon.mechanics.zoc import flood_within, graph_flood, trace_within

G = HexGrid(20, 12, 12, "even")


def h(hid: str) -> int:
    return G.idx(hid)


def m(*hids: str) -> int:
    return G.mask(G.idx(x) for x in hids)


def row6(first: int, last: int) -> int:
    return m(*(f"{c:02d}06" for c in range(first, last + 1)))


def links(*chains: tuple[str, ...]) -> list[tuple[int, ...]]:
    out: list[list[int]] = [[] for _ in range(G.size)]
    for chain in chains:
        for a, b in zip(chain, chain[1:]):
            out[h(a)].append(h(b))
            out[h(b)].append(h(a))
    return [tuple(x) for x in out]


ROW6 = tuple(f"{c:02d}06" for c in range(1, 21))
RAIL = links(ROW6)
WEST_EDGE_RAIL = m("0106")
EAST_EDGE_RAIL = m("2006")


def ger(repaired: int, soviet_occ: int = 0, cut: int = 0, rail_links=RAIL):  # type: ignore[no-untyped-def]
    return german_supply(G.expand, G.all_mask, rail_links, WEST_EDGE_RAIL, repaired, cut, soviet_occ)


def sov(  # type: ignore[no-untyped-def]
    normal: int,
    *,
    repaired: int = 0,
    german_occ: int = 0,
    german_zoc_units: int | None = None,
    soviet_occ: int = 0,
    cut: int = 0,
    destroyed: int = 0,
    allowed: int | None = None,
):
    zoc_units = german_occ if german_zoc_units is None else german_zoc_units
    return soviet_supply(
        G.expand,
        G.all_mask,
        RAIL,
        EAST_EDGE_RAIL,
        normal,
        repaired,
        cut,
        destroyed,
        german_occ,
        G.expand(zoc_units),
        soviet_occ,
        allowed,
    )


# --- German supply -------------------------------------------------------------------------------


def test_german_twelve_hexes_in_thirteen_out() -> None:
    """§11.1, [Q23]: within 12 hexes of repaired rail connected to the west edge, counting the rail
    hex and not the unit's hex: railhead 0506, a unit at 1706 (12) is in supply, 1806 (13) is not."""
    s = ger(row6(1, 5))
    assert s.rail == row6(1, 5)
    assert s.has(h("1706"))
    assert not s.has(h("1806"))


def test_german_unit_on_the_rail_is_at_distance_zero() -> None:
    """[Q27]: a unit on a qualifying rail hex (here the west-edge hex itself) is in supply."""
    s = ger(row6(1, 5), soviet_occ=m("0205", "0207", "0105", "0107", "0206"))
    assert s.has(h("0106"))  # boxed in by Soviet units, but the rail hex is its own hex


def test_german_rail_cut_by_a_soviet_unit_on_it() -> None:
    """§11.4.2, [Q26]: a Soviet unit on the repaired line at 0306 cuts it: only 0106-0206 still
    reach the west edge; 1406 (12 from 0206) stays in supply, 1506 (13) does not, though both are
    within 12 of the railhead 0506."""
    free = ger(row6(1, 5))
    assert free.has(h("1506"))
    s = ger(row6(1, 5), soviet_occ=m("0306"))
    assert s.rail == row6(1, 2)
    assert s.has(h("1406"))
    assert not s.has(h("1506"))


def test_german_rail_through_a_cut_hex_is_broken() -> None:
    """§16.2.2: no supply line through a cut hex (0306 cut, no unit on it)."""
    s = ger(row6(1, 5), cut=m("0306"))
    assert s.rail == row6(1, 2)
    assert not s.has(h("1506"))


def test_german_rail_follows_rail_links_not_adjacency() -> None:
    """[Q26]: the rail portion runs along rail lines. A second repaired line 0605..1205 touches the
    end of the first (0605 is adjacent to 0506) but is not linked to it: it carries no supply."""
    spur = tuple(f"{c:02d}05" for c in range(6, 13))
    repaired = row6(1, 5) | m(*spur)
    s = ger(repaired, rail_links=links(ROW6, spur))
    assert s.rail == row6(1, 5)
    assert not s.has(h("1805"))  # 6 from 1205, 13 from 0506
    joined = ger(repaired, rail_links=links(ROW6[:5] + spur))
    assert joined.rail == repaired and joined.has(h("1805"))


def test_german_normal_rail_does_not_supply() -> None:
    """[Q26]: only German-repaired rail carries German supply: normal rail east of the railhead adds nothing."""
    s = ger(row6(1, 5))  # the rest of row 6 is rail too (RAIL links it), but not repaired
    assert s.rail == row6(1, 5)


def test_german_overland_path_blocked_by_soviet_units_not_by_soviet_zoc() -> None:
    """§11.4.2, §11.4.4: Soviet units block the overland path, Soviet ZOC does not. A German unit at
    0910, 4 hexes from the rail: a ring of six Soviet units around it cuts it off; Soviet units two
    hexes away, all round but for 0908, put every hex around it in Soviet ZOC and do not."""
    unit = h("0910")
    ring = G.neighbour_mask[unit]
    cut_off = ger(row6(1, 20), soviet_occ=ring)
    assert not cut_off.has(unit)
    second_ring = G.within(unit, 2) & ~G.within(unit, 1) & ~m("0908")
    zoc_only = ger(row6(1, 20), soviet_occ=second_ring)
    assert G.expand(second_ring) & ring == ring  # every neighbour is in Soviet ZOC
    assert zoc_only.has(unit)
    assert not ger(row6(1, 20), soviet_occ=second_ring | m("0908")).has(unit)


def test_german_path_detours_around_soviet_units() -> None:
    """[Q23]: the overland path is a path (not a radius): a Soviet wall across column 10 except 1001
    forces a detour; 1706 is 12 from 0506 in a straight line but the detour is longer."""
    wall = m(*(f"10{r:02d}" for r in range(2, 13)))
    s = ger(row6(1, 5), soviet_occ=wall)
    assert not s.has(h("1706"))
    assert s.has(h("1101"))  # 0506 -> 1001 -> 1101 is within 12
    assert not s.has(h("1006"))  # a Soviet-occupied hex is never a German supply hex


# --- Soviet supply -------------------------------------------------------------------------------


def test_soviet_six_hexes_in_seven_out() -> None:
    """§11.2, [Q23]: within 6 hexes of normal rail connected to the east edge: railhead 1206."""
    s = sov(row6(12, 20))
    assert s.has(h("0606")) and G.distance(h("0606"), h("1206")) == 6
    assert not s.has(h("0506"))


def test_soviet_supply_blocked_by_german_zoc_without_a_soviet_unit() -> None:
    """§11.4.3: a German unit at 1505 puts the rail hex 1506 in its ZOC; with no Soviet unit there
    the line is cut: the rail west of it no longer reaches the east edge and 0806 (4 from 1206,
    8 from 1606) is out of supply. A Soviet unit on 1506 keeps the line open."""
    assert sov(row6(12, 20)).has(h("0806"))
    cut = sov(row6(12, 20), german_occ=m("1505"))
    assert cut.rail == row6(16, 20)
    assert not cut.has(h("0806"))
    held = sov(row6(12, 20), german_occ=m("1505"), soviet_occ=m("1506"))
    assert held.rail == row6(12, 20)
    assert held.has(h("0806"))


def test_german_eb_unit_exerts_no_zoc_but_blocks_its_hex() -> None:
    """§13.1, §4.1: a German EB unit at 1505 has no ZOC, so 1506 stays open; its own hex blocks."""
    s = sov(row6(12, 20), german_occ=m("1505"), german_zoc_units=0)
    assert s.rail == row6(12, 20)
    assert s.has(h("0806"))
    assert not s.has(h("1505"))
    on_rail = sov(row6(12, 20), german_occ=m("1506"), german_zoc_units=0)
    assert on_rail.rail == row6(16, 20)  # an EB on the rail hex itself still cuts it (§11.4.2)


def test_soviet_unit_in_german_zoc_traces_from_its_own_hex() -> None:
    """[Q23]: the unit's own hex is not entered: a Soviet unit next to a German unit, in its ZOC, is
    in supply when a free path leads away from it (1004 next to German 1104; 1004-1005-1106-1206)."""
    s = sov(row6(12, 20), german_occ=m("1104"), soviet_occ=m("1004"))
    assert G.adjacent(h("1004"), h("1104"))
    assert s.has(h("1004"))
    boxed = sov(row6(12, 20), german_occ=m("1104", "0905"), soviet_occ=m("1004"))
    assert not boxed.has(h("1004"))  # 1104 and 0905: every neighbour German or in German ZOC


def test_soviet_rail_states_q25() -> None:
    """[Q25]: normal and Soviet-repaired rail carry Soviet supply; destroyed, cut or German-repaired
    rail does not."""
    repaired = sov(row6(16, 20), repaired=row6(12, 15))
    assert repaired.rail == row6(12, 20)
    destroyed = sov(row6(12, 20) & ~m("1506"), destroyed=m("1506"))
    assert destroyed.rail == row6(16, 20)
    cut = sov(row6(12, 20), cut=m("1506"))
    assert cut.rail == row6(16, 20)


def test_soviet_west_of_start_line_strict_vs_descriptive_q24() -> None:
    """[Q24]: start line = column 10 (west of it: columns 1-9). Soviet EB units repaired 0506-0906.
    Descriptive (default): that rail carries supply, so 0306 (2 from 0506) is in supply. Strict:
    only rail not west of the line counts (1006-2006); 0306 is 7 from 1006 and out of supply."""
    not_west = G.all_mask & ~m(*(f"{c:02d}{r:02d}" for c in range(1, 10) for r in range(1, 13)))
    normal, repaired = row6(10, 20), row6(5, 9)
    descriptive = sov(normal, repaired=repaired)
    assert descriptive.has(h("0306"))
    strict = sov(normal, repaired=repaired, allowed=not_west)
    assert strict.rail == row6(10, 20)
    assert G.distance(h("0306"), h("1006")) == 7
    assert not strict.has(h("0306"))
    assert strict.has(h("0406"))  # 6 from 1006


# --- shared flood helpers (mechanics/zoc.py) -----------------------------------------------------


def test_flood_within_counts_steps() -> None:
    """flood_within: k expands from the sources through passable hexes."""
    src = m("1006")
    assert flood_within(src, G.all_mask, G.expand, 0) == src
    assert flood_within(src, G.all_mask, G.expand, 2) == G.within(h("1006"), 2)
    assert flood_within(src, G.all_mask & ~src, G.expand, 3) == 0  # a blocked source floods nothing


def test_trace_within_length_zero_and_blocked_target() -> None:
    assert trace_within(m("1006"), 0, G.expand, G.all_mask, 0) == m("1006")
    assert trace_within(m("1006"), m("1006"), G.expand, G.all_mask, 3) == 0
    assert trace_within(m("1006"), 0, G.expand, G.all_mask, 1) == G.within(h("1006"), 1)


def test_graph_flood_only_along_links() -> None:
    lk = links(("0101", "0102"), ("0301", "0302"))
    assert graph_flood(m("0101"), lk, G.all_mask) == m("0101", "0102")


def test_timing_on_a_full_size_grid() -> None:
    """Speed on a 78 x 63 grid (4,914 hexes) with 12 rail lines of 78 hexes; printed, not asserted."""
    big = HexGrid(78, 63, 63, "even")
    lk: list[list[int]] = [[] for _ in range(big.size)]
    rail = 0
    for r in range(3, 63, 5):
        chain = [big.idx(f"{c:02d}{r:02d}") for c in range(1, 79)]
        for a, b in zip(chain, chain[1:]):
            lk[a].append(b)
            lk[b].append(a)
        rail |= big.mask(chain)
    tl = [tuple(x) for x in lk]
    west = big.mask(big.idx(f"01{r:02d}") for r in range(3, 63, 5))
    east = big.mask(big.idx(f"78{r:02d}") for r in range(3, 63, 5))
    soviet = big.mask(big.idx(f"{c:02d}{r:02d}") for c in range(50, 78, 3) for r in range(1, 64, 2))
    german = big.mask(big.idx(f"{c:02d}{r:02d}") for c in range(30, 46, 3) for r in range(1, 64, 2))
    n = 50
    t0 = time.perf_counter()
    for _ in range(n):
        g = german_supply(big.expand, big.all_mask, tl, west, rail, 0, soviet)
    t1 = time.perf_counter()
    for _ in range(n):
        s = soviet_supply(
            big.expand, big.all_mask, tl, east, rail, 0, 0, 0, german, big.expand(german), soviet
        )
    t2 = time.perf_counter()
    print(
        f"\nsupply on 4,914 hexes: German {1000 * (t1 - t0) / n:.3f} ms ({g.in_supply.bit_count()} hexes),"
        f" Soviet {1000 * (t2 - t1) / n:.3f} ms ({s.in_supply.bit_count()} hexes)"
    )
    assert g.in_supply and s.in_supply
