"""Build The Moscow Campaign's map (data/map.json) from data/geography.json, deterministically.

The SPI map is lost, so the game map is a RECONSTRUCTION: real 1941 geography rasterised onto
the 78 x 63 grid of geography.md §2-§3 (9.6 km hexes, flat-topped, 1-based even columns low).
Rasterising follows geography.md §4; every choice and every layer's provenance is written into
the output and into docs/TMC_MAP.md. The game never imports this module: it loads map.json.

    python -m typhoon.games.tmc.mapgen [--out PATH] [--svg PATH] [--geography PATH]

Pure Python (no numpy), so the output is the same on every machine; tests/tmc/test_mapgen.py
rebuilds map.json in-process and compares it byte for byte with the committed file.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
from collections import deque
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from typhoon.games.tmc import tmcmap
from typhoon.hexgrid import HexGrid

DATA = Path(__file__).resolve().parent / "data"
GEOGRAPHY = DATA / "geography.json"
COMMAND = "python -m typhoon.games.tmc.mapgen"

# Extent and projection of geography.md §2-§3 (equirectangular at 54.95 N, y grows southward).
WEST, EAST, SOUTH, NORTH = 30.40, 40.50, 52.25, 57.65
KM_PER_DEG_LON = 63.93
KM_PER_DEG_LAT = 111.25
COLUMNS, ROWS = 78, 63
D = 9.6  # km between hex centres
SIDE = D / math.sqrt(3)  # hex side (and circumradius)
COL_W = 1.5 * SIDE

Point = tuple[float, float]  # (x_km east, y_km south)

# -- projection and grid geometry ---------------------------------------------------------


def project(lat: float, lon: float) -> Point:
    return (lon - WEST) * KM_PER_DEG_LON, (NORTH - lat) * KM_PER_DEG_LAT


def xy_to_cr(x: float, y: float) -> tuple[int, int]:
    """0-based column and row of the hex containing (x, y) (geography.md §3; may be off the grid)."""
    return tmcmap.xy_to_cr(x, y, SIDE)


def on_grid(c: int, r: int) -> bool:
    return 0 <= c < COLUMNS and 0 <= r < ROWS


def cr_centre(c: int, r: int) -> Point:
    return c * COL_W, r * D + (D / 2 if c & 1 else 0.0)


class Geo:
    """The grid plus point -> hex lookups on it."""

    def __init__(self) -> None:
        self.grid = HexGrid(COLUMNS, ROWS, ROWS, "even")
        g = self.grid
        self.centre: dict[int, Point] = {
            h: cr_centre(g.coords[h][0] - 1, g.coords[h][1] - 1) for h in g.hexes
        }
        self.samples = _hex_samples()

    def idx(self, c: int, r: int) -> int:
        return c * self.grid.stride + r

    def hex_at_xy(self, p: Point) -> int:
        c, r = xy_to_cr(*p)
        return self.idx(c, r) if on_grid(c, r) else -1

    def hex_at(self, lat: float, lon: float) -> int:
        return self.hex_at_xy(project(lat, lon))

    def hid(self, h: int) -> str:
        return self.grid.ids[h]

    def ids(self, hexes: Iterable[int]) -> list[str]:
        return [self.grid.ids[h] for h in sorted(hexes)]


def _hex_samples(step: float = 1.0) -> tuple[Point, ...]:
    """Offsets of a 1-km square lattice that fall inside one hex (about 80 points)."""
    c0, r0 = 40, 30
    cx, cy = cr_centre(c0, r0)
    out = []
    n = int(SIDE / step) + 1
    for i in range(-n, n + 1):
        for j in range(-n, n + 1):
            dx, dy = (i + 0.5) * step, (j + 0.5) * step
            if xy_to_cr(cx + dx, cy + dy) == (c0, r0):
                out.append((dx, dy))
    return tuple(out)


# -- plane geometry -----------------------------------------------------------------------


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def segments_cross(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    """True if the open segments p1-p2 and q1-q2 cross (touching at an end counts once, by sign)."""
    d1, d2 = _cross(q1, q2, p1), _cross(q1, q2, p2)
    d3, d4 = _cross(p1, p2, q1), _cross(p1, p2, q2)
    return ((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0))


def inside(poly: Sequence[Point], p: Point) -> bool:
    x, y = p
    res = False
    j = len(poly) - 1
    for i in range(len(poly)):
        xi, yi = poly[i]
        xj, yj = poly[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            res = not res
        j = i
    return res


def _densify(pts: Sequence[Point], step: float = 0.5) -> list[Point]:
    out: list[Point] = [pts[0]]
    for a, b in zip(pts, pts[1:], strict=False):
        n = max(1, int(math.dist(a, b) / step))
        for k in range(1, n + 1):
            t = k / n
            out.append((a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t))
    return out


def _seg_dist(p: Point, a: Point, b: Point) -> float:
    ax, ay = b[0] - a[0], b[1] - a[1]
    L = ax * ax + ay * ay
    t = 0.0 if L == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * ax + (p[1] - a[1]) * ay) / L))
    return math.dist(p, (a[0] + ax * t, a[1] + ay * t))


def _unit_hash(*parts: str) -> float:
    """A deterministic number in [0, 1) from text (for scattering the forest mosaic)."""
    return int.from_bytes(hashlib.sha256("|".join(parts).encode()).digest()[:4], "big") / 2**32


# -- rasterising --------------------------------------------------------------------------


def coverage(geo: Geo, poly: Sequence[Point]) -> dict[int, float]:
    """Fraction of each hex's sample points inside the polygon (hexes near the polygon only)."""
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    x0, x1, y0, y1 = min(xs) - SIDE, max(xs) + SIDE, min(ys) - SIDE, max(ys) + SIDE
    out: dict[int, float] = {}
    for h in geo.grid.hexes:
        cx, cy = geo.centre[h]
        if not (x0 <= cx <= x1 and y0 <= cy <= y1):
            continue
        n = sum(1 for dx, dy in geo.samples if inside(poly, (cx + dx, cy + dy)))
        if n:
            out[h] = n / len(geo.samples)
    return out


def water_crossings(geo: Geo, poly: Sequence[Point], near: set[int]) -> set[tuple[int, int]]:
    """Hexsides near a lake whose centre-to-centre segment runs through water for at least
    LAKE_SIDE_WATER of its length (sampled at 24 points)."""
    out: set[tuple[int, int]] = set()
    for a in sorted(near):
        for b in geo.grid.neighbours[a]:
            if b < a and b in near:
                continue
            (ax, ay), (bx, by) = geo.centre[a], geo.centre[b]
            wet = sum(
                1
                for i in range(24)
                if inside(poly, (ax + (bx - ax) * (i + 0.5) / 24, ay + (by - ay) * (i + 0.5) / 24))
            )
            if wet / 24 >= LAKE_SIDE_WATER:
                out.add((min(a, b), max(a, b)))
    return out


def crossed_hexsides(geo: Geo, line: Sequence[Point]) -> dict[tuple[int, int], int]:
    """Hexsides whose centre-to-centre segment the polyline crosses an odd number of times
    (geography.md §4), each with the index of the polyline segment that crossed it last."""
    crossed: dict[tuple[int, int], int] = {}
    grid = geo.grid
    for k, (a, b) in enumerate(zip(line, line[1:], strict=False)):
        near: set[int] = set()
        for p in _densify([a, b], 1.0):
            h = geo.hex_at_xy(p)
            if h >= 0:
                near.add(h)
        pairs = {(min(h, n), max(h, n)) for h in near for n in grid.neighbours[h]}
        for pair in sorted(pairs):
            if segments_cross(geo.centre[pair[0]], geo.centre[pair[1]], a, b):
                if pair in crossed:
                    del crossed[pair]
                else:
                    crossed[pair] = k
    return crossed


def hex_walk(geo: Geo, line: Sequence[Point]) -> list[list[int]]:
    """The hexes a polyline passes through, as chains of adjacent hexes (one per stretch on
    the map). A step that cuts a hex corner gets the common neighbour nearest the line."""
    grid = geo.grid
    pieces: list[list[int]] = []
    cur: list[int] = []
    dense = _densify(line, 0.4)
    for i, p in enumerate(dense):
        h = geo.hex_at_xy(p)
        if h < 0:
            if cur:
                pieces.append(cur)
                cur = []
            continue
        if cur and h == cur[-1]:
            continue
        if cur and not grid.adjacent(cur[-1], h):
            common = set(grid.neighbours[cur[-1]]) & set(grid.neighbours[h])
            if common:
                a = dense[i - 1]
                cur.append(min(sorted(common), key=lambda n: _seg_dist(geo.centre[n], a, p)))
        cur.append(h)
    if cur:
        pieces.append(cur)
    return [_drop_loops(c) for c in pieces]


def _drop_loops(chain: list[int]) -> list[int]:
    out: list[int] = []
    pos: dict[int, int] = {}
    for h in chain:
        if h in pos:
            for g in out[pos[h] + 1 :]:
                del pos[g]
            del out[pos[h] + 1 :]
            continue
        pos[h] = len(out)
        out.append(h)
    return out


def _smooth(geo: Geo, chain: list[int]) -> list[int]:
    """Drop a hex whose neighbours in the chain are adjacent to each other (a corner detour)."""
    out: list[int] = []
    for h in chain:
        if len(out) >= 2 and geo.grid.adjacent(out[-2], h):
            out.pop()
        out.append(h)
    return out


def edge_sets(geo: Geo) -> dict[str, set[int]]:
    g = geo.grid
    return {
        "north": {h for h in g.hexes if g.coords[h][1] == 1},
        "south": {h for h in g.hexes if g.coords[h][1] == ROWS},
        "west": {h for h in g.hexes if g.coords[h][0] == 1},
        "east": {h for h in g.hexes if g.coords[h][0] == COLUMNS},
    }


def flood(geo: Geo, start: set[int], allowed: set[int]) -> set[int]:
    seen = set(start) & allowed
    todo = deque(sorted(seen))
    while todo:
        h = todo.popleft()
        for n in geo.grid.neighbours[h]:
            if n in allowed and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


# -- reconstruction choices (documented in docs/TMC_MAP.md) --------------------------------

# Town-bank facts of geography.md §1: the town's hex must lie on this bank of the river.
TOWN_BANKS = (
    ("Kaluga", "Oka", "north"),
    ("Serpukhov", "Oka", "north"),
    ("Kashira", "Oka", "south"),
    ("Ryazan", "Oka", "south"),
)

MOSCOW_RADIUS_KM = 7.0

# A hexside between two land hexes whose centre-to-centre segment runs through at least this
# share of water is a lake hexside (narrow lakes and reservoir arms still make a barrier).
LAKE_SIDE_WATER = 1 / 3

# The forest "mosaic" of geography.md §4: inside these polygons only about half the qualifying
# hexes are forest, chosen by a hash of the hex id (deterministic scatter).
MOSAIC_FORESTS = {"Forest belt W and NW of Moscow (Istra-Ruza-Zvenigorod-Naro-Fominsk)": 0.5}

# Off-map continuations of rail lines that end inside the map but ran on in 1941, so that each
# reaches the edge where its traffic came from. Waypoints: a station of geography.json, then
# approximate [lat, lon] of real places (reconstruction, medium confidence). Orsha and Vladimir
# (Gorky line) already lie in an edge column.
RAIL_CONTINUATIONS: tuple[tuple[str, str, tuple[tuple[float, float], ...]], ...] = (
    ("Velikiye Luki-Novosokolniki (to Riga), off-map continuation", "Velikiye Luki", ((56.34, 30.15),)),
    ("Unecha-Gomel-Kalinkovichi, off-map continuation", "Unecha", ((52.44, 31.00), (52.13, 29.33))),
    ("Krichev-Mogilev, off-map continuation", "Krichev", ((53.90, 30.33),)),
    ("Lokot-Lgov, off-map continuation", "Lokot", ((51.68, 35.27),)),
    (
        "Navlya-Suzemka-Khutor-Mikhailovsky (to Kiev), off-map continuation",
        "Navlya",
        ((52.32, 34.08), (51.82, 33.49)),
    ),
    ("Kashin-Sonkovo, off-map continuation", "Kashin", ((57.78, 37.15),)),
    (
        "Aleksandrov-Rostov-Yaroslavl (to Vologda), off-map continuation",
        "Aleksandrov",
        ((57.19, 39.42), (57.63, 39.87), (58.20, 39.90)),
    ),
    ("Shatura-Murom, off-map continuation", "Shatura", ((55.57, 42.05),)),
    ("Ryazan-Shilovo (Kazan line), off-map continuation", "Ryazan", ((54.31, 40.89),)),
    ("Ryazhsk-Michurinsk-Tambov, off-map continuation", "Ryazhsk", ((52.89, 40.49), (52.72, 41.43))),
    ("Yelets-Kastornoye, off-map continuation", "Yelets", ((51.82, 38.13),)),
)

# The five defence lines of rules_en.md §19 (geography.md §4 hypothesis) and the optional sixth.
DEFENCE_LINES = (
    ("rzhev_vyazma_forward", "Rzhev-Vyazma line, forward belt", False),
    ("rzhev_vyazma_rear", "Rzhev-Vyazma line, rear belt", False),
    ("mozhaisk", "Mozhaisk line", False),
    ("moscow_zone", "Moscow Defence Zone main belt", False),
    ("moscow_city", "Moscow city line", False),
    ("oka", "Oka line", True),
)

START_LINES = (("september", "30 Sep"), ("november", "Nov"), ("december", "5 Dec"))

# Hand corrections of a snapped start line, within the data's +-1-2 hex tolerance: the hex path
# replaces the stretch of the walked chain between its first and last hex. December: the walk
# cut through Tula and the Revyakino corridor; Tula stays a Soviet pocket open to the north
# (Tula, 5740, 5739 Revyakino, 5839, 5840 Soviet; Yasnaya Polyana, Shchekino, Dedilovo German).
START_LINE_OVERRIDES: dict[str, tuple[tuple[str, ...], ...]] = {
    "december": (("5641", "5742", "5842", "5841", "5941", "5940", "5939", "5938", "6037"),),
}

# German-repaired rail at each scenario start (rules_en.md §11.1, §16.1): routes from a W/S edge
# rail exit through named stations to a railhead. A route stops RAILHEAD_GAP hexes short of the
# start line if it would come closer. Reconstruction from the general history of the Wehrmacht's
# gauge conversion (Orsha-Smolensk by Aug, Vyazma late Oct, Gzhatsk Nov, Mozhaisk Dec; Roslavl,
# Bryansk, Orel and Mtsensk for 2nd Panzer Army; Velikiye Luki-Rzhev-Staritsa for 9th Army;
# Vyazma-Kaluga for 4th Army's southern wing from November): low confidence. The November and
# December routes were lengthened (Kaluga, Staritsa, Mtsensk) after the first set-up check left
# half the German front out of supply at those scenarios' start; the front units at Kalinin and
# Tula stay out of rail range, as the historical supply crisis of those weeks suggests.
RAILHEAD_GAP = 2
EXIT = "exit:"
REPAIRED_ROUTES: dict[str, tuple[tuple[str, ...], ...]] = {
    "september": (
        (EXIT + "Orsha", "Smolensk", "Yartsevo"),
        (EXIT + "Vitebsk", "Rudnya", "Smolensk"),
        (EXIT + "Mogilev", "Krichev", "Roslavl"),
        ("Smolensk", "Pochinok", "Roslavl"),
        (EXIT + "Gomel", "Unecha", "Pochep"),
        (EXIT + "Novosokolniki", "Velikiye Luki", "Nelidovo"),
    ),
    "november": (
        (EXIT + "Orsha", "Smolensk", "Vyazma", "Gzhatsk"),
        ("Vyazma", "Temkino", "Myatlevo", "Tikhonova Pustyn", "Kaluga"),
        (EXIT + "Novosokolniki", "Velikiye Luki", "Nelidovo", "Rzhev", "Staritsa"),
        (EXIT + "Mogilev", "Krichev", "Roslavl", "Bryansk", "Orel", "Mtsensk"),
        (EXIT + "Gomel", "Unecha", "Bryansk"),
    ),
    "december": (
        (EXIT + "Orsha", "Smolensk", "Vyazma", "Gzhatsk", "Mozhaisk"),
        ("Vyazma", "Temkino", "Myatlevo", "Tikhonova Pustyn", "Kaluga"),
        (EXIT + "Novosokolniki", "Velikiye Luki", "Nelidovo", "Rzhev", "Staritsa"),
        (EXIT + "Mogilev", "Krichev", "Roslavl", "Bryansk", "Orel", "Mtsensk"),
        (EXIT + "Gomel", "Unecha", "Bryansk"),
    ),
}
# Names used in REPAIRED_ROUTES for the edge exit hexes (the line whose chain reaches the edge).
EXIT_LINES = {
    "Orsha": "Moscow-Mozhaisk-Vyazma-Smolensk-Orsha (Minsk main line, double track)",
    "Vitebsk": "Smolensk-Rudnya-Vitebsk",
    "Mogilev": "Krichev-Mogilev, off-map continuation",
    "Gomel": "Unecha-Gomel-Kalinkovichi, off-map continuation",
    "Novosokolniki": "Velikiye Luki-Novosokolniki (to Riga), off-map continuation",
}


# -- the build ----------------------------------------------------------------------------


class MapBuildError(Exception):
    """The geography cannot be rasterised as documented (a fact would be violated)."""


def build(geography_path: Path = GEOGRAPHY) -> dict[str, Any]:
    raw = geography_path.read_bytes()
    geo_data = json.loads(raw)
    geo = Geo()
    grid = geo.grid
    edges = edge_sets(geo)
    layers: dict[str, Any] = {}

    # Places: every city of geography.json in the hex its coordinates project to.
    places: list[list[str]] = []
    off_map: list[str] = []
    place_hex: dict[str, int] = {}
    city_names: dict[int, list[str]] = {}
    for c in geo_data["cities"]:
        h = geo.hex_at(c["lat"], c["lon"])
        if h < 0:
            off_map.append(c["name"])
            continue
        place_hex[c["name"]] = h
        city_names.setdefault(h, []).append(c["name"])
        places.append([c["name"], geo.hid(h), c["kind"], c["confidence"]])
    layers["places"] = _prov(
        "GeoNames/estimated coordinates of geography.json cities, projected",
        "high",
        len(places),
        f"{len(off_map)} places project off the map and are listed in off_map",
    )

    # Moscow: the hexes whose centre lies within 7 km of the Kremlin (geography.md §1: the 1941
    # city inside the circle railway, about 17 km across); rules_en.md §23 makes it multi-hex.
    kremlin = project(*_station(geo_data, "Moscow"))
    moscow = {h for h in grid.hexes if math.dist(geo.centre[h], kremlin) <= MOSCOW_RADIUS_KM}
    for h in moscow:
        names = city_names.setdefault(h, [])
        if "Moscow" not in names:
            names.insert(0, "Moscow")
    layers["moscow"] = _prov(
        f"hexes with centre within {MOSCOW_RADIUS_KM} km of the Kremlin",
        "medium",
        len(moscow),
        "geography.md §1 proposes 5723 5622 5623",
    )

    # Rail lines first: rail and town hexes stay land when lakes are painted.
    rail_lines: dict[str, list[int]] = {}
    exits: list[dict[str, str]] = []
    rail_src = [
        (r["name"], [project(*_station(geo_data, s)) for s in r["stations"]], r["confidence"])
        for r in geo_data["railways"]
    ]
    for name, start, waypoints in RAIL_CONTINUATIONS:
        rail_src.append(
            (name, [project(*_station(geo_data, start))] + [project(*w) for w in waypoints], "medium")
        )
    rail_conf: dict[str, str] = {}
    for name, pts, conf in rail_src:
        pieces = [p for p in hex_walk(geo, pts) if len(p) > 1]
        for i, chain in enumerate(pieces):
            key = name if i == 0 else f"{name} (part {i + 1})"
            rail_lines[key] = chain
            rail_conf[key] = conf
            for end in (chain[0], chain[-1]):
                for edge in ("north", "south", "west", "east"):
                    if end in edges[edge] and {"line": key, "hex": geo.hid(end), "edge": edge} not in exits:
                        exits.append({"line": key, "hex": geo.hid(end), "edge": edge})
    links = {(min(a, b), max(a, b)) for ch in rail_lines.values() for a, b in zip(ch, ch[1:], strict=False)}
    rail_hexes = {h for ch in rail_lines.values() for h in ch}
    layers["rail"] = _prov(
        "geography.json railways walked station to station (straight segments), plus "
        f"{len(RAIL_CONTINUATIONS)} off-map continuations to the edge",
        "medium",
        len(rail_hexes),
        f"{len(links)} links; line confidences in rail_confidence",
    )

    # Lakes: a hex more than half covered is water (town and rail hexes excepted); lake
    # hexsides are those between water and land, plus land-land hexsides whose centre-to-centre
    # segment runs through water for LAKE_SIDE_WATER of its length. A lake too small to fill a
    # hex gives river hexsides instead (geography.md §4), or nothing.
    lakes: dict[str, list[str]] = {}
    small_lake_sides: dict[str, set[tuple[int, int]]] = {}
    ignored_lakes: list[str] = []
    lake_hexes: set[int] = set()
    land_lake_sides: set[tuple[int, int]] = set()
    for lake in geo_data["lakes"]:
        poly = [project(*p) for p in lake["polygon"]]
        cov = coverage(geo, poly)
        hs = {h for h, f in cov.items() if f > 0.5 and h not in city_names and h not in rail_hexes}
        wet = water_crossings(geo, poly, set(cov))
        if hs:
            lakes[lake["name"]] = geo.ids(hs)
            lake_hexes |= hs
            land_lake_sides |= wet
        elif wet:
            small_lake_sides[lake["name"]] = wet
        else:
            ignored_lakes.append(lake["name"])
    lake_sides = {
        (min(a, b), max(a, b)) for a in lake_hexes for b in grid.neighbours[a] if b not in lake_hexes
    }
    lake_sides |= {s for s in land_lake_sides if s[0] not in lake_hexes and s[1] not in lake_hexes}
    layers["lakes"] = _prov(
        "GSHHS / hand polygons of geography.json; hex water if > 1/2 covered",
        "medium",
        len(lake_hexes),
        f"{len(lake_sides)} lake hexsides (water-land, and land-land across "
        f">= {LAKE_SIDE_WATER:.2f} water); smaller lakes give river hexsides",
    )

    # Forest/swamp: a hex more than half inside a polygon; the mosaic west of Moscow scattered.
    forest: set[int] = set()
    for area in geo_data["forest_swamp_areas"]:
        cov = coverage(geo, [project(*p) for p in area["polygon"]])
        keep = MOSAIC_FORESTS.get(area["name"], 1.0)
        for h, f in cov.items():
            if (
                f > 0.5
                and h not in lake_hexes
                and h not in moscow
                and _unit_hash(area["name"], geo.hid(h)) < keep
            ):
                forest.add(h)
    layers["forest"] = _prov(
        "schematic polygons of geography.json; hex forest if > 1/2 inside",
        "low",
        len(forest),
        "mosaic W of Moscow scattered to 1/2 by a hash of the hex id",
    )

    # Rivers and canal: hexsides crossed by the course; town-bank facts enforced.
    rivers: dict[str, list[list[str]]] = {}
    river_conf: dict[str, str] = {}
    bent: list[str] = []
    for r in geo_data["rivers"]:
        pts = [project(*p) for p in r["points"]]
        sides = set(crossed_hexsides(geo, pts))
        for town, river, bank in TOWN_BANKS:
            if river != r["name"]:
                continue
            if not _on_bank(geo, sides, place_hex[town], bank):
                pts = _bend(pts, geo.centre[place_hex[town]], bank)
                bent.append(f"{town} ({river}, {bank} bank)")
                sides = set(crossed_hexsides(geo, pts))
                if not _on_bank(geo, sides, place_hex[town], bank):
                    raise MapBuildError(f"cannot put {town} on the {bank} bank of the {river}")
        sides = {s for s in sides if not (s[0] in lake_hexes or s[1] in lake_hexes) and s not in lake_sides}
        if sides:
            rivers[r["name"]] = [[geo.hid(a), geo.hid(b)] for a, b in sorted(sides)]
            river_conf[r["name"]] = r["confidence"]
    for name, sides in small_lake_sides.items():
        sides = {s for s in sides if s not in lake_sides}
        if sides:
            rivers[name] = [[geo.hid(a), geo.hid(b)] for a, b in sorted(sides)]
            river_conf[name] = next(x["confidence"] for x in geo_data["lakes"] if x["name"] == name)
    all_river = {tuple(p) for v in rivers.values() for p in v}
    layers["rivers"] = _prov(
        "geography.json river courses (WDB II / hand waypoints); a hexside is a river "
        "hexside if the course crosses its centre-to-centre segment an odd number of times",
        "medium",
        len(all_river),
        "sides touching a lake hex are lake hexsides instead; "
        "course bent 0.4 hex off the town centre to honour the town-bank facts of "
        f"geography.md §1 for: {', '.join(bent) or 'none'}",
    )

    # Defence lines: the same hexside rule; the outer (German) side is the right of the line as
    # drawn (every open line runs with the west/south on its right), outside for the city ring.
    defence: list[dict[str, Any]] = []
    default_sides: set[tuple[int, int]] = set()
    for key, short, optional in DEFENCE_LINES:
        d = next(x for x in geo_data["defence_lines_oct1941"] if x["name"].startswith(short))
        pts = [project(*p) for p in d["points"]]
        closed = d["points"][0] == d["points"][-1]
        out: list[list[str]] = []
        if closed:  # the city ring is drawn round the Moscow hexes
            sides_k = {
                (min(a, b), max(a, b)): 0 for a in moscow for b in grid.neighbours[a] if b not in moscow
            }
        else:
            sides_k = crossed_hexsides(geo, pts)
        for (a, b), k in sorted(sides_k.items()):
            if a in lake_hexes and b in lake_hexes or (optional and (a, b) in default_sides):
                continue
            if not optional:
                default_sides.add((a, b))
            if closed:
                a_out = a not in moscow
            else:
                a_out = _cross(pts[k], pts[k + 1], geo.centre[a]) > 0
            outer, inner = (a, b) if a_out else (b, a)
            out.append([geo.hid(outer), geo.hid(inner)])
        defence.append(
            {"key": key, "name": d["name"], "optional": optional, "confidence": d["confidence"], "sides": out}
        )
    layers["defence_lines"] = _prov(
        "geography.json defence_lines_oct1941 polylines turned into hexsides; "
        "outer side = west/south (German) side",
        "low",
        sum(len(d["sides"]) for d in defence if not d["optional"]),
        "five lines per geography.md §4 hypothesis; the Oka line is optional, off by "
        "default, and leaves the hexsides it shares with the Moscow zone belt to that line",
    )

    # Start lines: front_lines walked hex by hex, extended due north and south to the map edges.
    start_lines: dict[str, Any] = {}
    for (key, _date), f in zip(START_LINES, geo_data["front_lines"], strict=True):
        # Ends inside the map run on due north (south) from the centre of the end hex, so the
        # extension climbs one column instead of zigzagging between two.
        xy = [project(*p) for p in f["points"]]
        if f["points"][0][0] < NORTH:
            xy.insert(0, (geo.centre[geo.hex_at_xy(xy[0])][0], -2 * D))
        if f["points"][-1][0] > SOUTH:
            xy.append((geo.centre[geo.hex_at_xy(xy[-1])][0], (ROWS + 2) * D))
        chain = _edge_to_edge(geo, hex_walk(geo, xy), edges, key)
        for path in START_LINE_OVERRIDES.get(key, ()):
            via = [grid.index[h] for h in path]
            i, j = chain.index(via[0]), chain.index(via[-1])
            chain = _drop_loops(chain[:i] + via + chain[j + 1 :])
        chain = _smooth(geo, chain)
        west = _west_side(geo, chain, edges, xy)
        routes, railheads, repaired = _repaired_rail(geo, key, chain, west, rail_lines, links, place_hex)
        start_lines[key] = {
            "name": f["name"],
            "confidence": f["confidence"],
            "hexes": [geo.hid(h) for h in chain],
            "west_of": geo.ids(west),
            "railheads": railheads,
            "repaired_routes": routes,
            "repaired_rail": geo.ids(repaired),
        }
    layers["start_lines"] = _prov(
        "geography.json front_lines (30 Sep, ~15-18 Nov, ~5 Dec 1941), walked hex by "
        "hex and extended due N/S to the map edges",
        "low",
        3,
        "about +-1-2 hexes",
    )
    layers["repaired_rail"] = _prov(
        "routes from W/S edge rail exits to dated railheads (mapgen.REPAIRED_ROUTES), "
        f"stopped {RAILHEAD_GAP} hexes short of the start line",
        "low",
        3,
        "history of German gauge conversion; the SPI bold lines are unknown",
    )

    # Entry areas (rules_en.md §22): German = west edge north of the Minsk highway's entry at
    # Orsha (stands in for "north of the CRT printed on the map"); Soviet = east-edge rail exits.
    orsha_row = grid.coords[place_hex["Orsha"]][1]
    german_entry = {h for h in edges["west"] if grid.coords[h][1] <= orsha_row and h not in lake_hexes}
    soviet_entry = sorted({grid.index[e["hex"]] for e in exits if e["edge"] == "east"})
    layers["german_entry"] = _prov(
        "west-edge hexes from the north corner to Orsha (Minsk highway)",
        "low",
        len(german_entry),
        "SPI printed the CRT on the map; its position is unknown",
    )
    layers["soviet_entry"] = _prov(
        "rail hexes where a line leaves by the east edge", "medium", len(soviet_entry), "rules_en.md §22.3"
    )

    sha = hashlib.sha256(raw).hexdigest()
    return {
        "format": "typhoon-tmc-map/1",
        "status": "reconstruction",
        "provenance": {
            "note": "RECONSTRUCTION of the lost SPI 1972 map from real 1941 geography; not the SPI map",
            "generator": COMMAND,
            "source_file": "src/typhoon/games/tmc/data/geography.json "
            "(copy of shared/reference/the_moscow_campaign/geography.json)",
            "source_sha256": sha,
            "extent": {"west": WEST, "east": EAST, "south": SOUTH, "north": NORTH},
            "projection": f"equirectangular at 54.95 N: x = (lon - {WEST}) * {KM_PER_DEG_LON} km, "
            f"y = ({NORTH} - lat) * {KM_PER_DEG_LAT} km; point to hex by cube rounding (geography.md §3)",
            "layers": layers,
        },
        "projection": {
            "west": WEST,
            "north": NORTH,
            "km_per_deg_lon": KM_PER_DEG_LON,
            "km_per_deg_lat": KM_PER_DEG_LAT,
        },
        "grid": {
            "columns": COLUMNS,
            "rows_odd_columns": ROWS,
            "rows_even_columns": ROWS,
            "shifted_down": "even",
            "km_per_hex": D,
        },
        "cities": {geo.hid(h): "/".join(names) for h, names in sorted(city_names.items())},
        "places": places,
        "off_map": off_map,
        "moscow": geo.ids(moscow),
        "forest": geo.ids(forest),
        "lakes": lakes,
        "lake_hexsides": [[geo.hid(a), geo.hid(b)] for a, b in sorted(lake_sides)],
        "ignored_lakes": ignored_lakes,
        "rivers": rivers,
        "river_confidence": river_conf,
        "rail_lines": {k: [geo.hid(h) for h in v] for k, v in rail_lines.items()},
        "rail_confidence": rail_conf,
        "rail_exits": exits,
        "defence_lines": defence,
        "german_entry": geo.ids(german_entry),
        "soviet_entry": [geo.hid(h) for h in soviet_entry],
        "start_lines": start_lines,
    }


def _prov(basis: str, confidence: str, count: int, note: str) -> dict[str, Any]:
    return {
        "status": "reconstruction",
        "confidence": confidence,
        "count": count,
        "basis": basis,
        "note": note,
    }


def _station(geo_data: dict[str, Any], name: str) -> tuple[float, float]:
    for c in geo_data["cities"]:
        if c["name"] == name:
            return c["lat"], c["lon"]
    raise MapBuildError(f"rail station {name!r} is not a city of geography.json")


def _on_bank(geo: Geo, sides: set[tuple[int, int]], town: int, bank: str) -> bool:
    """The river hexside lies between the town and its neighbour across the river: to the south
    for a north-bank town, to the north for a south-bank one."""
    d = 3 if bank == "north" else 0  # direction index: S or N
    n = geo.grid.neighbours_by_dir[town][d]
    return n >= 0 and (min(town, n), max(town, n)) in sides


def _bend(pts: list[Point], centre: Point, bank: str) -> list[Point]:
    """Insert a waypoint 0.4 hex south (north) of a town's hex centre into the river course."""
    dy = 0.4 * D if bank == "north" else -0.4 * D
    p = (centre[0], centre[1] + dy)
    k = min(range(len(pts) - 1), key=lambda i: _seg_dist(p, pts[i], pts[i + 1]))
    return pts[: k + 1] + [p] + pts[k + 1 :]


def _edge_to_edge(geo: Geo, pieces: list[list[int]], edges: dict[str, set[int]], key: str) -> list[int]:
    chain = max(pieces, key=len)
    if chain[0] not in edges["north"] or chain[-1] not in edges["south"]:
        raise MapBuildError(f"start line {key} does not run from the north edge to the south edge")
    return chain


def _west_side(geo: Geo, chain: list[int], edges: dict[str, set[int]], pts: list[Point]) -> set[int]:
    """Hexes west of the line: flood from the west edge, not crossing line hexes. Any pocket the
    flood cannot reach is given to the side its centre lies on (polygon test)."""
    grid = geo.grid
    line = set(chain)
    free = set(grid.hexes) - line
    west = flood(geo, edges["west"] - line, free)
    # Polygon: the line plus a loop round the west side of the map.
    poly = list(pts) + [(-100.0, pts[-1][1]), (-100.0, pts[0][1])]
    rest = free - west
    while rest:
        comp = flood(geo, {min(rest)}, rest)
        rest -= comp
        votes = sum(1 if inside(poly, geo.centre[h]) else -1 for h in comp)
        if votes > 0:
            west |= comp
    return west


def _repaired_rail(
    geo: Geo,
    key: str,
    chain: list[int],
    west: set[int],
    rail_lines: dict[str, list[int]],
    links: set[tuple[int, int]],
    place_hex: dict[str, int],
) -> tuple[list[list[str]], list[str], set[int]]:
    adj: dict[int, list[int]] = {}
    for a, b in sorted(links):
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    line = set(chain)
    dist = {h: min(geo.grid.distance(h, s) for s in line) for h in west}
    routes: list[list[str]] = []
    railheads: list[str] = []
    repaired: set[int] = set()
    for spec in REPAIRED_ROUTES[key]:
        stops: list[int] = []
        for s in spec:
            if s.startswith(EXIT):
                ch = rail_lines[EXIT_LINES[s[len(EXIT) :]]]
                stops.append(ch[-1])
            else:
                stops.append(place_hex[s])
        path: list[int] = [stops[0]]
        for a, b in zip(stops, stops[1:], strict=False):
            leg = _shortest(adj, a, b)
            if leg is None:
                break
            path += leg[1:]
        kept: list[int] = []
        for h in path:
            if h not in west or dist[h] < RAILHEAD_GAP:
                break
            kept.append(h)
        if len(kept) < 2:
            raise MapBuildError(f"repaired route {spec} of the {key} start line is empty")
        routes.append([geo.hid(h) for h in kept])
        repaired |= set(kept)
    # A railhead is a route's tip that no other route runs through (Smolensk is not one in
    # September: the Orsha route goes on to Kardymovo).
    inner = {h for r in routes for h in r[:-1]}
    for r in routes:
        if r[-1] not in inner and r[-1] not in railheads:
            railheads.append(r[-1])
    return routes, railheads, repaired


def _shortest(adj: dict[int, list[int]], a: int, b: int) -> list[int] | None:
    prev: dict[int, int] = {a: a}
    todo = deque([a])
    while todo:
        h = todo.popleft()
        if h == b:
            out = [b]
            while out[-1] != a:
                out.append(prev[out[-1]])
            return out[::-1]
        for n in adj.get(h, ()):
            if n not in prev:
                prev[n] = h
                todo.append(n)
    return None


# -- output -------------------------------------------------------------------------------


def dumps(data: dict[str, Any]) -> str:
    """Compact, stable JSON: one top-level key per line."""
    parts = [
        f"{json.dumps(k)}:{json.dumps(v, separators=(',', ':'), ensure_ascii=False)}" for k, v in data.items()
    ]
    return "{\n" + ",\n".join(parts) + "\n}\n"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--geography", type=Path, default=GEOGRAPHY)
    ap.add_argument("--out", type=Path, default=DATA / "map.json")
    ap.add_argument("--svg", type=Path, default=None, help="also draw the map as SVG here")
    args = ap.parse_args(argv)
    data = build(args.geography)
    args.out.write_text(dumps(data), encoding="utf-8")
    print(f"wrote {args.out}")
    if args.svg is not None:
        from typhoon.games.tmc.mapsvg import render

        args.svg.write_text(render(data), encoding="utf-8")
        print(f"wrote {args.svg}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
