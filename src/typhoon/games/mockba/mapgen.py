"""Build MOCKBA's map (data/map.json) from the project's copy of the 1941 geography, deterministically.

The International Team map is lost, so the game map is a RECONSTRUCTION (reference pack gaps.md
MO-M1, MO-F1, MO-S1): The Moscow Campaign's geography (src/typhoon/games/tmc/data/geography.json,
the project's copy of the reference pack's geography.json) rasterised onto 16-km flat-topped hexes
in columns (CCRR ids, 1-based, odd-q: 0-based odd columns half a hex lower), extent 31.6-38.6 E x
51.6-57.4 N. Kursk (south of that geography's extent) is added by hand, as the pack asks. The set-up
(the seed's procedure: Soviet front armies within 6 hexes east of the front line, at least 3 units
on it, reserve armies on or next to their army hex; German armies west of the line, stacking kept)
is laid out here too, army by army from north to south. The game never imports this module.

    python -m typhoon.games.mockba.mapgen [--out PATH] [--svg PATH]

Pure Python, so the output is the same on every machine; tests/mockba/test_mockba_map.py rebuilds
map.json in-process and compares it with the committed file.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
from collections import deque
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
GEOGRAPHY = HERE.parent / "tmc" / "data" / "geography.json"
UNITS = DATA / "units.json"
COMMAND = "python -m typhoon.games.mockba.mapgen"

WEST, EAST, SOUTH, NORTH = 31.6, 38.6, 51.6, 57.4  # gaps.md MO-M1
LAT0 = 54.5
KM_PER_DEG_LAT = 111.25
KM_PER_DEG_LON = round(111.32 * math.cos(math.radians(LAT0)), 2)
D = 16.0  # km between hex centres (SRC esagoniedadi: about 16 km a hex)
SIDE = D / math.sqrt(3)
COL_W = 1.5 * SIDE
COLUMNS = int(((EAST - WEST) * KM_PER_DEG_LON) / COL_W) + 1
ROWS = int(((NORTH - SOUTH) * KM_PER_DEG_LAT) / D)

Point = tuple[float, float]

# The victory cities of gaps.md MO-V1 plus Moscow: the map's 11 major cities (seed "11 major cities").
MAJOR_CITIES = (
    "Moscow",
    "Orel",
    "Bryansk",
    "Vyazma",
    "Kaluga",
    "Kalinin",
    "Rzhev",
    "Mozhaisk",
    "Kursk",
    "Tula",
    "Serpukhov",
)
EXTRA_PLACES = {"Kursk": (51.730, 36.193)}  # outside the geography's extent (gaps.md MO-M1)
# Off-map continuation of the Kursk line (to Belgorod/Kharkov): approximate, reconstruction.
RAIL_EXTRA = (("Kursk-Belgorod (to Kharkov), off-map continuation", ((51.730, 36.193), (51.20, 36.45))),)
RIVERS = (
    "Volga",
    "Vazuza",
    "Dnieper",
    "Desna",
    "Bolva",
    "Ugra",
    "Oka",
    "Zhizdra",
    "Upa",
    "Nara",
    "Protva",
    "Ruza",
    "Lama",
    "Moskva",
    "Vop",
)
FORT_LINES = ("Rzhev-Vyazma line, forward belt", "Rzhev-Vyazma line, rear belt", "Mozhaisk line")
HIGHWAY = "Minsk-Moscow highway"
NORTH_SOURCE_RAIL = "Moscow-Klin-Kalinin"  # seed: Soviet supply from the north edge east of this railway
SELIGER = "Lake Seliger"
# gaps.md MO-S1: the reserve armies' printed army hexes (approximate places).
RESERVE_HEXES = {"31A": (55.95, 34.05), "32A": (55.25, 34.0), "49A": (55.6, 34.7)}
# Armies along the 30 Sep front, north to south (gaps.md MO-O1, MO-S1).
GERMAN_ORDER = ("G9A", "G3P", "G4A", "G4P", "G2A", "G2P")
SOVIET_ORDER = ("22A", "29A", "30A", "19A", "16A", "20A", "24A", "43A", "50A", "3A", "13A")


def project(lat: float, lon: float) -> Point:
    return (lon - WEST) * KM_PER_DEG_LON, (NORTH - lat) * KM_PER_DEG_LAT


def xy_to_cr(x: float, y: float) -> tuple[int, int]:
    q = (2 / 3 * x) / SIDE
    r = (-1 / 3 * x + math.sqrt(3) / 3 * y) / SIDE
    cx, cz = q, r
    cy = -cx - cz
    rx, ry, rz = round(cx), round(cy), round(cz)
    dx, dy, dz = abs(rx - cx), abs(ry - cy), abs(rz - cz)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy <= dz:
        rz = -rx - ry
    col = rx
    row = rz + (rx - (rx & 1)) // 2
    return col, row


def centre(c: int, r: int) -> Point:
    return c * COL_W, r * D + (D / 2 if c & 1 else 0.0)


def hid(c: int, r: int) -> str:
    return f"{c + 1:02d}{r + 1:02d}"


def neighbours(c: int, r: int) -> list[tuple[int, int]]:
    offs = (
        ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0))
        if c & 1
        else ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1))
    )
    return [(c + dc, r + dr) for dc, dr in offs if 0 <= c + dc < COLUMNS and 0 <= r + dr < ROWS]


def on_map(c: int, r: int) -> bool:
    return 0 <= c < COLUMNS and 0 <= r < ROWS


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def segments_cross(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    d1, d2 = _cross(q1, q2, p1), _cross(q1, q2, p2)
    d3, d4 = _cross(p1, p2, q1), _cross(p1, p2, q2)
    return ((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0))


def inside(poly: Sequence[Point], p: Point) -> bool:
    x, y = p
    out = False
    j = len(poly) - 1
    for i in range(len(poly)):
        xi, yi = poly[i]
        xj, yj = poly[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            out = not out
        j = i
    return out


def densify(pts: Sequence[Point], step: float = 1.0) -> list[Point]:
    out: list[Point] = []
    for a, b in zip(pts, pts[1:], strict=False):
        n = max(1, int(math.dist(a, b) / step))
        out += [(a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n) for i in range(n)]
    out.append(pts[-1])
    return out


Hex = tuple[int, int]


def coverage(poly: Sequence[Point]) -> dict[Hex, float]:
    """Share of a 2-km lattice of points in each hex that lies inside the polygon."""
    xs, ys = [p[0] for p in poly], [p[1] for p in poly]
    out: dict[Hex, float] = {}
    for c in range(COLUMNS):
        for r in range(ROWS):
            cx, cy = centre(c, r)
            if not (min(xs) - D <= cx <= max(xs) + D and min(ys) - D <= cy <= max(ys) + D):
                continue
            pts = [(cx + i * 2.0, cy + j * 2.0) for i in range(-4, 5) for j in range(-4, 5)]
            pts = [p for p in pts if xy_to_cr(*p) == (c, r)]
            n = sum(1 for p in pts if inside(poly, p))
            if n:
                out[(c, r)] = n / len(pts)
    return out


def walk(line: Sequence[Point]) -> tuple[list[list[Hex]], list[tuple[Hex, str]]]:
    """Chains of adjacent hexes a polyline passes through, and (hex, edge) where it leaves the map."""
    pieces: list[list[Hex]] = []
    exits: list[tuple[Hex, str]] = []
    cur: list[Hex] = []
    for p in densify(line, 0.5):
        h = xy_to_cr(*p)
        if not on_map(*h):
            if cur:
                c, r = h
                edge = "west" if c < 0 else "east" if c >= COLUMNS else "north" if r < 0 else "south"
                exits.append((cur[-1], edge))
                pieces.append(cur)
                cur = []
            continue
        if cur and h == cur[-1]:
            continue
        if cur and h not in neighbours(*cur[-1]):
            common = sorted(set(neighbours(*cur[-1])) & set(neighbours(*h)))
            if common:
                cur.append(min(common, key=lambda n: math.dist(centre(*n), p)))
        if pieces == [] and not cur and exits == [] and p != densify(line, 0.5)[0]:
            pass
        cur.append(h)
    if cur:
        pieces.append(cur)
    return pieces, exits


def crossed(line: Sequence[Point]) -> set[tuple[Hex, Hex]]:
    """Hexsides whose centre-to-centre segment the polyline crosses an odd number of times."""
    out: set[tuple[Hex, Hex]] = set()
    for a, b in zip(line, line[1:], strict=False):
        near = {xy_to_cr(*p) for p in densify([a, b], 1.0)}
        pairs = sorted({(min(h, n), max(h, n)) for h in near if on_map(*h) for n in neighbours(*h)})
        for x, y in pairs:
            if segments_cross(centre(*x), centre(*y), a, b):
                out ^= {(x, y)}
    return out


def flood(start: set[Hex], allowed: set[Hex]) -> set[Hex]:
    seen = set(start) & allowed
    todo = deque(sorted(seen))
    while todo:
        h = todo.popleft()
        for n in neighbours(*h):
            if n in allowed and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def _units() -> dict[str, list[tuple[str, str]]]:
    """army -> [(unit id, size)] in the order rules.py expands units.json."""
    data = json.loads(UNITS.read_text(encoding="utf-8"))
    out: dict[str, list[tuple[str, str]]] = {}
    for a in data["armies"]:
        if a["turn"]:
            continue
        lst = out.setdefault(a["army"], [])
        for t, n in a["units"].items():
            for i in range(1, n + 1):
                lst.append((f"{a['army']}.{t}{i}", data["types"][t]["size"]))
    return out


def _halves(size: str) -> int:
    return 2 if size == "division" else 1


def build(geography_path: Path = GEOGRAPHY) -> dict[str, Any]:
    raw = geography_path.read_bytes()
    geo = json.loads(raw)
    allhex = {(c, r) for c in range(COLUMNS) for r in range(ROWS)}
    coords = {c["name"]: (c["lat"], c["lon"]) for c in geo["cities"]}
    coords.update(EXTRA_PLACES)

    cities = {}
    for name in MAJOR_CITIES:
        h = xy_to_cr(*project(*coords[name]))
        assert on_map(*h), name
        cities[name] = h
    lake: set[Hex] = set()
    seliger: set[Hex] = set()
    for lk in geo["lakes"]:
        poly = [project(*p) for p in lk["polygon"]]
        cov = coverage(poly)
        wet = {h for h, f in cov.items() if f > 0.5}
        if lk["name"] == SELIGER:
            # A lake too narrow to cover half a hex still needs a hex: the one most covered.
            wet |= {max(sorted(cov), key=lambda h: cov[h])} if cov else set()
            seliger = wet
        lake |= wet
    lake -= set(cities.values())
    rough: set[Hex] = set()
    for fo in geo["forest_swamp_areas"]:
        poly = [project(*p) for p in fo["polygon"]]
        rough |= {h for h, f in coverage(poly).items() if f > 0.5}
    rough -= lake

    rivers: dict[tuple[Hex, Hex], str] = {}
    for rv in geo["rivers"]:
        name = rv["name"]
        if name not in RIVERS:
            continue
        for side in sorted(crossed([project(*p) for p in rv["points"]])):
            if side[0] not in lake and side[1] not in lake:
                rivers.setdefault(side, name)

    rails: list[dict[str, Any]] = []
    exits: dict[str, set[Hex]] = {"north": set(), "east": set(), "south": set(), "west": set()}
    lines = [(r["name"], [coords[s] for s in r["stations"] if s in coords]) for r in geo["railways"]]
    lines += [(n, list(p)) for n, p in RAIL_EXTRA]
    north_col = COLUMNS
    for name, pts in lines:
        pieces, ex = walk([project(*p) for p in pts])
        for h, e in ex:
            exits[e].add(h)
            if name.startswith(NORTH_SOURCE_RAIL) and e == "north":
                north_col = min(north_col, h[0])
        for piece in pieces:
            piece = [h for h in piece if h not in lake]
            if len(piece) >= 2:
                rails.append({"name": name, "hexes": [hid(*h) for h in piece]})
    hw_pts = [coords[s] for s in next(r for r in geo["roads"] if r["name"].startswith(HIGHWAY))["via"]]
    hw_pieces, _ = walk([project(*p) for p in hw_pts if p in coords.values()])
    highway = [hid(*h) for piece in hw_pieces for h in piece]

    front_pts = [project(*p) for p in geo["front_lines"][0]["points"]]
    # Run the 30 Sep line off the north and south edges so that it splits the map in two.
    front_pts = [(front_pts[0][0], -D)] + front_pts + [(front_pts[-1][0], ROWS * D + D)]
    fpieces, _ = walk(front_pts)
    chain = [h for piece in fpieces for h in piece if h not in lake]
    chain_set = set(chain)
    west_edge = {(0, r) for r in range(ROWS)}
    german = flood(west_edge - chain_set, allhex - chain_set - lake)
    soviet = allhex - german - lake

    moscow = cities["Moscow"]
    forts: dict[Hex, set[Hex]] = {}
    for dl in geo["defence_lines_oct1941"]:
        if not dl["name"].startswith(FORT_LINES):
            continue
        for a, b in sorted(crossed([project(*p) for p in dl["points"]])):
            if a in lake or b in lake:
                continue
            da, db = math.dist(centre(*a), centre(*moscow)), math.dist(centre(*b), centre(*moscow))
            fort, front = (a, b) if da < db else (b, a)
            if fort in soviet:
                forts.setdefault(fort, set()).add(front)

    setup = _setup(chain, german, soviet, lake, cities)
    reserve = {k: hid(*xy_to_cr(*project(*p))) for k, p in RESERVE_HEXES.items()}
    for k, (lat, lon) in RESERVE_HEXES.items():
        h = xy_to_cr(*project(lat, lon))
        ring = [h] + [n for n in neighbours(*h) if n in soviet and n not in chain_set]
        _place(setup, _units()[k], ring, 8)

    def ids(hs: set[Hex]) -> list[str]:
        return [hid(*h) for h in sorted(hs)]

    return {
        "source": "RECONSTRUCTION of the lost International Team map (reference pack gaps.md MO-M1, MO-F1, "
        "MO-S1) from src/typhoon/games/tmc/data/geography.json (the project's copy of "
        "shared/reference/the_moscow_campaign/geography.json), rasterised by " + COMMAND,
        "provenance": "reconstruction",
        "source_sha256": hashlib.sha256(raw).hexdigest(),
        "grid": {
            "columns": COLUMNS,
            "rows": ROWS,
            "km_per_hex": D,
            "layout": "flat-topped columns, CCRR 1-based, 0-based odd columns half a hex lower",
            "extent": {"west": WEST, "east": EAST, "south": SOUTH, "north": NORTH},
            "projection": f"x = (lon - {WEST}) * {KM_PER_DEG_LON} km, y = ({NORTH} - lat) * {KM_PER_DEG_LAT} km",
        },
        "layers": {
            "rough": "forest/swamp polygons of geography.json; a hex is rough if more than half inside",
            "lake": "lake polygons; a hex is lake if more than half covered (Lake Seliger: its most covered hex)",
            "rivers": "hexsides crossed by the courses of " + ", ".join(RIVERS),
            "rails": "railways walked station to station (straight segments); exits where a line leaves the map",
            "highway": "the Minsk-Moscow highway walked city to city (the seed's only 'main road')",
            "forts": "hexsides crossed by " + ", ".join(FORT_LINES) + "; the fort hex is the one nearer "
            "Moscow, the front hexes are across the crossed hexsides (the Desna line is not in the geography)",
            "front": "the 30 Sep 1941 front line walked hex by hex: the Soviet front-line hexes; german = the "
            "hexes west of it",
            "setup": "each army a sector of the front from north to south in proportion to its units",
        },
        "cities": {name: hid(*h) for name, h in cities.items()},
        "rough": ids(rough),
        "lake": ids(lake),
        "seliger": ids(seliger),
        "rivers": [[hid(*a), hid(*b), n] for (a, b), n in sorted(rivers.items())],
        "rails": rails,
        "rail_exits": {e: ids(hs) for e, hs in exits.items()},
        "north_source_from_column": north_col + 1,
        "highway": highway,
        "forts": {hid(*f): ids(fr) for f, fr in sorted(forts.items())},
        "front": [hid(*h) for h in chain],
        "german": ids(german),
        "reserve_hexes": reserve,
        "setup": dict(sorted(setup.items())),
    }


def _place(setup: dict[str, str], units: list[tuple[str, str]], hexes: list[Hex], cap: int) -> None:
    """Fill hexes in order, at most ``cap`` half-divisions each."""
    load = {h: 0 for h in hexes}
    for hx in setup.values():
        c, r = int(hx[:2]) - 1, int(hx[2:]) - 1
        if (c, r) in load:
            load[(c, r)] = cap  # a hex already used by another army is left alone
    i = 0
    for uid, size in units:
        while load[hexes[i % len(hexes)]] + _halves(size) > cap:
            i += 1
            if i > 4 * len(hexes):
                raise AssertionError(f"no room for {uid}")
        h = hexes[i % len(hexes)]
        load[h] += _halves(size)
        setup[uid] = hid(*h)
        i += 1


def _sectors(
    order: Sequence[str], hexes: list[Hex], units: dict[str, list[tuple[str, str]]]
) -> dict[str, list[Hex]]:
    total = sum(len(units[a]) for a in order)
    out: dict[str, list[Hex]] = {}
    start = 0
    for k, a in enumerate(order):
        end = len(hexes) if k == len(order) - 1 else start + max(1, round(len(hexes) * len(units[a]) / total))
        out[a] = hexes[start:end] or hexes[-1:]
        start = end
    return out


def _setup(
    chain: list[Hex], german: set[Hex], soviet: set[Hex], lake: set[Hex], cities: dict[str, Hex]
) -> dict[str, str]:
    units = _units()
    setup: dict[str, str] = {}
    front = [h for h in chain if h in soviet]
    # German hexes next to the front, ordered by the front hex they touch (north to south).
    gfront: list[Hex] = []
    for h in front:
        for n in neighbours(*h):
            if n in german and n not in gfront:
                gfront.append(n)
    for a, hs in _sectors(GERMAN_ORDER, gfront, units).items():
        second = []
        for h in hs:
            second += [n for n in neighbours(*h) if n in german and n not in gfront and n not in second]
        _place(setup, units[a], hs + second, 6)
    for a, hs in _sectors(SOVIET_ORDER, front, units).items():
        behind = []
        for h in hs:
            behind += [n for n in neighbours(*h) if n in soviet and n not in front and n not in behind]
        _place(setup, units[a], hs + behind, 4)  # two divisions a hex on the line
    return setup


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=1, sort_keys=False) + "\n"


def svg(data: dict[str, Any]) -> str:
    """An inspection image of the map (terrain, rivers, rails, forts, cities, front)."""
    size = 10.0
    w = math.sqrt(3) * size

    def xy(h: str) -> Point:
        c, r = int(h[:2]) - 1, int(h[2:]) - 1
        return 1.5 * size * c + size, w * (r + 0.5 * (c & 1)) + w

    rough, lakes = set(data["rough"]), set(data["lake"])
    front, ger = set(data["front"]), set(data["german"])
    parts = []
    for c in range(COLUMNS):
        for r in range(ROWS):
            h = hid(c, r)
            x, y = xy(h)
            fill = "#9cc3e6" if h in lakes else "#a9c98f" if h in rough else "#f2efe0"
            if h in ger and fill == "#f2efe0":
                fill = "#e4e0d0"
            pts = " ".join(
                f"{x + size * math.cos(math.radians(60 * i)):.1f},{y + size * math.sin(math.radians(60 * i)):.1f}"
                for i in range(6)
            )
            stroke = (
                ' stroke="#b33" stroke-width="1.2"' if h in front else ' stroke="#bbb" stroke-width="0.4"'
            )
            parts.append(f'<polygon points="{pts}" fill="{fill}"{stroke}/>')
    for a, b, _ in data["rivers"]:
        (ax, ay), (bx, by) = xy(a), xy(b)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        dx, dy = (by - ay) / 3.4, -(bx - ax) / 3.4
        parts.append(
            f'<line x1="{mx - dx:.1f}" y1="{my - dy:.1f}" x2="{mx + dx:.1f}" y2="{my + dy:.1f}" stroke="#2a6fd0" stroke-width="2"/>'
        )
    for f, fronts in data["forts"].items():
        for g in fronts:
            (ax, ay), (bx, by) = xy(f), xy(g)
            mx, my = (ax * 0.6 + bx * 0.4), (ay * 0.6 + by * 0.4)
            parts.append(f'<circle cx="{mx:.1f}" cy="{my:.1f}" r="2" fill="#12246b"/>')
    for line in data["rails"]:
        pts = " ".join(f"{xy(h)[0]:.1f},{xy(h)[1]:.1f}" for h in line["hexes"])
        parts.append(
            f'<polyline points="{pts}" fill="none" stroke="#222" stroke-width="1" stroke-dasharray="3,2"/>'
        )
    pts = " ".join(f"{xy(h)[0]:.1f},{xy(h)[1]:.1f}" for h in data["highway"])
    parts.append(f'<polyline points="{pts}" fill="none" stroke="#000" stroke-width="2"/>')
    for name, h in data["cities"].items():
        x, y = xy(h)
        parts.append(f'<rect x="{x - 3:.1f}" y="{y - 3:.1f}" width="6" height="6" fill="#c00"/>')
        parts.append(f'<text x="{x + 5:.1f}" y="{y + 3:.1f}" font-size="8">{name}</text>')
    width, height = 1.5 * size * COLUMNS + 2 * size, w * (ROWS + 1.5) + 20
    note = "MOCKBA map: RECONSTRUCTION from 1941 geography (16 km hexes), not the International Team map"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" width="{2 * width:.0f}">'
        f'<rect width="100%" height="100%" fill="white"/>{"".join(parts)}'
        f'<text x="4" y="{height - 6:.0f}" font-size="8">{note}</text></svg>'
    )


BRIDGE_RIVERS = ("Dnieper", "Vop", "Vazuza", "Ugra", "Oka", "Desna", "Volga")


def bridges(data: dict[str, Any]) -> dict[str, Any]:
    """Optional rule 3's bridges (data/bridges.json), derived from the map: gaps.md MO-M1 "at the
    Minsk highway and the main rail lines over the Dnieper, Vop, Vazuza, Ugra, Oka, Desna and
    Volga" = every hexside of those rivers crossed by the highway or a railway (every line of the
    reconstructed map counts as a main line)."""
    crossings: dict[tuple[str, str], list[str]] = {}
    hw = data["highway"]
    for a, b in zip(hw, hw[1:], strict=False):
        crossings.setdefault((min(a, b), max(a, b)), []).append("Minsk-Moscow highway")
    for line in data["rails"]:
        hs = line["hexes"]
        for a, b in zip(hs, hs[1:], strict=False):
            if a != b:
                crossings.setdefault((min(a, b), max(a, b)), []).append(line["name"])
    out = []
    for a, b, river in data["rivers"]:
        key = (min(a, b), max(a, b))
        if river in BRIDGE_RIVERS and key in crossings:
            out.append({"hexes": list(key), "river": river, "crossing": sorted(set(crossings[key]))})
    return {
        "source": "RECONSTRUCTION: the seed says only 'bridges are marked on the map' (optional rule 3); "
        "reference pack gaps.md MO-M1 places them at the Minsk highway and the main rail lines over the "
        "Dnieper, Vop, Vazuza, Ugra, Oka, Desna and Volga; derived from map.json by mapgen.bridges",
        "provenance": "reconstruction",
        "bridges": sorted(out, key=lambda x: x["hexes"]),
    }


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DATA / "map.json")
    ap.add_argument("--svg", type=Path, default=None)
    args = ap.parse_args(argv)
    data = build()
    args.out.write_text(dumps(data), encoding="utf-8")
    (args.out.parent / "bridges.json").write_text(dumps(bridges(data)), encoding="utf-8")
    if args.svg:
        args.svg.write_text(svg(data), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
