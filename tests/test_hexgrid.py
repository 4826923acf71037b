"""Hex geometry (DESIGN.md layer 1; reference bfm_data.md §1: flat-topped, even columns low)."""

import collections

import pytest
from hypothesis import given
from hypothesis import strategies as st

from typhoon.errors import DataError
from typhoon.hexgrid import HexGrid, bits, hex_id, parse_hex_id

GDW = HexGrid(14, 10, 10)
VPG = HexGrid(14, 11, 10)


def names(g: HexGrid, hid: str) -> set[str]:
    return {g.ids[j] for j in g.neighbours[g.idx(hid)]}


def test_counts() -> None:
    assert GDW.count == 140
    assert VPG.count == 147
    assert "0111" in VPG and "0111" not in GDW and "0211" not in VPG


def test_neighbours_follow_the_reference_tables() -> None:
    # bfm_data.md §1: 0201 touches 0101 (its NW) and 0102 (its SW).
    assert names(GDW, "0201") == {"0101", "0102", "0202", "0301", "0302"}
    # Odd column (high): N, NE (c+1, r-1), SE (c+1, r), S, SW (c-1, r), NW (c-1, r-1).
    assert names(GDW, "0305") == {"0304", "0404", "0405", "0306", "0205", "0204"}
    # Even column (low): N, NE (c+1, r), SE (c+1, r+1), S, SW (c-1, r+1), NW (c-1, r).
    assert names(GDW, "0404") == {"0403", "0504", "0505", "0405", "0305", "0304"}
    assert GDW.direction(GDW.idx("0404"), GDW.idx("0505")) == "SE"
    assert names(VPG, "0111") == {"0110", "0210"}


@pytest.mark.parametrize("grid", [GDW, VPG])
def test_expand_agrees_with_neighbour_lists_and_distance_with_bfs(grid: HexGrid) -> None:
    for a in grid.hexes:
        assert grid.expand(1 << a) == grid.neighbour_mask[a]
        dist = {a: 0}
        todo = collections.deque([a])
        while todo:
            x = todo.popleft()
            for y in grid.neighbours[x]:
                if y not in dist:
                    dist[y] = dist[x] + 1
                    todo.append(y)
        assert all(grid.distance(a, b) == dist[b] for b in grid.hexes)
        assert set(bits(grid.within(a, 2))) == {b for b in grid.hexes if dist[b] <= 2}


@given(st.integers(1, 99), st.integers(1, 99))
def test_hex_id_round_trip(c: int, r: int) -> None:
    assert parse_hex_id(hex_id(c, r)) == (c, r)


def test_bad_grids_and_ids() -> None:
    with pytest.raises(DataError):
        HexGrid(0, 10, 10)
    with pytest.raises(DataError):
        HexGrid(14, 10, 10, "diagonal")
    with pytest.raises(ValueError):
        parse_hex_id("12a4")
    with pytest.raises(KeyError, match="1511"):
        GDW.idx("1511")
