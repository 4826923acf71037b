"""oobgen: projection of the set-up anchors and the placement rules (§25) it applies."""

from __future__ import annotations

from collections import Counter

import pytest

from typhoon.games.tmc.oob import load_units
from typhoon.games.tmc.oobgen import DEFAULT_PROJECTION, Geometry, Placer
from typhoon.hexgrid import HexGrid

GRID = HexGrid(78, 63, 63, "even")
GEO = Geometry(GRID, DEFAULT_PROJECTION)


def _centre_latlon(hid: str) -> list[float]:
    """WGS84 point of a hex centre (inverse of geography.md §3)."""
    x, y = GEO.centre[GRID.index[hid]]
    p = DEFAULT_PROJECTION
    return [p["north"] - y / p["km_per_deg_lat"], p["west"] + x / p["km_per_deg_lon"]]


@pytest.mark.parametrize(
    ("place", "lat", "lon", "hid"),
    [
        ("Moscow", 55.752, 37.616, "5723"),
        ("Kalinin", 56.858, 35.901, "4310"),
        ("Orel", 52.965, 36.078, "4555"),
        ("Smolensk", 54.782, 32.04, "1434"),
        ("Orsha", 54.508, 30.417, "0137"),
    ],
)
def test_projection_matches_geography_md_sample_hexes(place, lat, lon, hid):
    """geography.md §3 sample table: the anchors are projected with the map's own formula."""
    assert GRID.ids[GEO.nearest(lat, lon)] == hid, place


def test_projection_agrees_with_the_map():
    """The same point lands in the same hex through TmcMap.hex_at (the map's projection)."""
    from typhoon.games.tmc.tmcmap import load_map

    m = load_map()
    geo = Geometry(m.grid, m.projection, m.km_per_hex)
    for lat, lon in ((55.21, 34.295), (54.196, 37.618), (56.262, 34.328), (53.252, 34.372)):
        assert geo.nearest(lat, lon) == m.hex_at(lat, lon)


def test_off_map_anchor_clamps_to_the_edge():
    """Guderian's real start area (Glukhov, 51.68 N) is south of the map: the nearest hex is on
    the south edge (row 63 or 62, depending on the column's shift)."""
    h = GEO.nearest(51.68, 33.92)
    assert GRID.coords[h][1] >= 62


def test_placer_without_map_stacks_three_then_spreads():
    """§10.1/§25.3: five units anchored on the centre of 5723: three share it (a stacked unit costs
    4 km, so the third pays 8 km, less than the 9.6 km to a neighbour), the fourth and fifth go to
    two different neighbours (a neighbour with one unit would cost 13.6 km)."""
    units = ["G35Inf", "G5Inf", "G6Inf", "G8Inf", "G26Inf"]
    setup = {
        "side": "german",
        "start_line": "september",
        "title": "test",
        "groups": [
            {
                "name": "g",
                "role": "front",
                "units": [{"unit": u, "at": _centre_latlon("5723")} for u in units],
            }
        ],
    }
    placed = Placer(None, GEO, load_units()).place(setup, [])
    count = Counter(h for _, h in placed)
    assert count["5723"] == 3
    assert sorted(count.values()) == [1, 1, 3]
    for hid in count:
        if hid != "5723":
            assert GRID.adjacent(GRID.index[hid], GRID.index["5723"])


def test_placer_keeps_fixed_placements():
    """Derived OOBs (B, C, E, §27.2) keep their base's hexes: a fixed unit counts for stacking."""
    fixed = [("G35Inf", "5723"), ("G5Inf", "5723"), ("G6Inf", "5723")]
    setup = {
        "side": "german",
        "start_line": "september",
        "title": "test",
        "groups": [
            {"name": "g", "role": "reserve", "units": [{"unit": "G8Inf", "at": _centre_latlon("5723")}]}
        ],
    }
    placed = Placer(None, GEO, load_units()).place(setup, fixed)
    assert placed[:3] == fixed
    assert placed[3][0] == "G8Inf" and placed[3][1] != "5723"
