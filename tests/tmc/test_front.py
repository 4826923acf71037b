"""Continuous front line (rules_en.md §15; readings [Q38], [Q39]).

A 10 x 8 grid (even columns shifted down). Hand-worked covers, all in column 05 (odd, "high"):
a unit at 05rr covers 05(rr-1), 05(rr+1) and two hexes in each of columns 04 and 06 (rows rr-1
and rr for the odd column's neighbours). Row 8 is the south edge, row 1 the north edge.
"""

from __future__ import annotations

import time

import pytest

from typhoon.games.tmc.front import (
    covered_hexes,
    edge_rows,
    front_gaps,
    gap_hexes,
    path_gaps,
    row_gaps,
    row_masks,
)
from typhoon.hexgrid import HexGrid

G = HexGrid(10, 8, 8, "even")


def m(*hids: str) -> int:
    return G.mask(G.idx(x) for x in hids)


def gaps(units: int, zoc_units: int | None = None, method: str = "path") -> int:
    return front_gaps(G, units, units if zoc_units is None else zoc_units, method=method)


def test_no_gap() -> None:
    """§15.1: units on 0501 0503 0505 0507 and their ZOC cover column 05 from edge to edge."""
    line = m("0501", "0503", "0505", "0507")
    assert gaps(line) == 0
    assert gaps(line, method="rows") == 0


def test_one_gap() -> None:
    """§15.3, [Q38]: units on 0501 0503 0506 cover 0501-0507; 0508 is the one gap hex."""
    line = m("0501", "0503", "0506")
    assert gaps(line) == 1
    assert gaps(line, method="rows") == 1
    n, s = edge_rows(G)
    assert gap_hexes(G, covered_hexes(G.expand, line, line), n, s) == (G.idx("0508"),)


def test_three_gaps() -> None:
    """[Q38]: units on 0501 0503 0504 cover down to 0505 (and 0405/0605, lower in their even
    columns); every way on to row 8 crosses 3 uncovered hexes (e.g. 0506 0507 0508)."""
    line = m("0501", "0503", "0504")
    assert gaps(line) == 3
    assert gaps(line, method="rows") == 3
    n, s = edge_rows(G)
    assert len(gap_hexes(G, covered_hexes(G.expand, line, line), n, s)) == 3


def test_no_units_every_row_is_a_gap() -> None:
    assert gaps(0) == 8
    assert gaps(0, method="rows") == 8


def test_disconnected_pieces_path_vs_rows_q38() -> None:
    """[Q38]: a "line" of two pieces far apart (column 01 rows 1-4, column 10 rows 5-8) leaves no
    row uncovered (rows reading: 0 gaps) but is no continuous chain (path reading: gaps remain)."""
    pieces = m("0101", "0103", "1006", "1008")
    assert gaps(pieces, method="rows") == 0
    assert gaps(pieces) > 0


def test_eb_units_count_as_units_but_have_no_zoc_q39() -> None:
    """§13.1, [Q39]: an EB unit covers its own hex only: units 0501 0503 0505 with an EB unit on
    0507 leave 0508 uncovered (1 gap); were 0507 an ordinary unit, none."""
    zoc = m("0501", "0503", "0505")
    assert gaps(zoc | m("0507"), zoc) == 1
    assert gaps(zoc | m("0507")) == 0
    assert gaps(zoc) == 2  # without the EB unit: 0507 and 0508


def test_zoc_reaches_enemy_occupied_hexes_for_the_front() -> None:
    """§15.2: ZOC extends into enemy-occupied hexes for this rule: the cover is the plain six-hex
    ZOC whatever stands there, so an enemy unit on 0504 (between 0503 and 0505) leaves no gap."""
    own = m("0501", "0503", "0505", "0507")
    covered = covered_hexes(G.expand, own, own)
    assert covered >> G.idx("0504") & 1  # the enemy-held hex counts as covered
    assert gaps(own) == 0


def test_unknown_method_is_refused() -> None:
    with pytest.raises(ValueError):
        gaps(0, method="columns")


def test_row_masks_partition_the_grid() -> None:
    rows = row_masks(G)
    assert len(rows) == 8 and sum(r.bit_count() for r in rows) == G.count
    assert row_gaps(m("0301"), rows) == 7


def test_timing_on_a_full_size_grid() -> None:
    """Speed of the path count on 78 x 63 (printed, not asserted): a line covering rows 1-52 (11 gaps), and none."""
    big = HexGrid(78, 63, 63, "even")
    north, south = edge_rows(big)
    units = big.mask(big.idx(f"40{r:02d}") for r in range(1, 53, 2))
    covered = covered_hexes(big.expand, units, units)
    n = 20
    t0 = time.perf_counter()
    for _ in range(n):
        k = path_gaps(big.expand, big.all_mask, north, south, covered)
    t1 = time.perf_counter()
    for _ in range(n):
        k0 = path_gaps(big.expand, big.all_mask, north, south, big.all_mask)
    t2 = time.perf_counter()
    nl = len(gap_hexes(big, covered, north, south))
    t3 = time.perf_counter()
    print(
        f"\nfront on 4,914 hexes: {k} gaps in {1000 * (t1 - t0) / n:.2f} ms, 0 gaps in "
        f"{1000 * (t2 - t1) / n:.2f} ms; gap_hexes (0-1 BFS) {1000 * (t3 - t2):.1f} ms"
    )
    assert k == nl and k0 == 0
