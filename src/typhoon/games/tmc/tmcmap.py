"""The Moscow Campaign's map: terrain, hexsides, rail, edges and start lines, from data/map.json.

map.json is a RECONSTRUCTION (the SPI map is lost) written by ``python -m
typhoon.games.tmc.mapgen`` from data/geography.json; docs/TMC_MAP.md explains every layer. The
game only loads the JSON: this module validates it (DataError naming the field and value) and
derives the bitsets the rules use. Hex sets are Python-int bitsets over ``grid`` indices.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from typhoon.errors import DataError
from typhoon.hexgrid import HexGrid, bits
from typhoon.mapdata import (
    MapBase,
    parse_chain,
    parse_hex,
    parse_hexes,
    parse_pairs,
    side_masks,
)

MAP_JSON = Path(__file__).resolve().parent / "data" / "map.json"
EDGES = ("north", "south", "east", "west")
START_LINES = ("september", "november", "december")


class DefenceLine(NamedTuple):
    """One defence line (rules_en.md §19). ``sides`` are (outer_hex, inner_hex): a German unit
    moving or attacking from outer to inner crosses the line's front hexside."""

    name: str
    sides: tuple[tuple[int, int], ...]
    key: str = ""
    optional: bool = False


def xy_to_cr(x: float, y: float, side: float) -> tuple[int, int]:
    """0-based column and row of the flat-topped hex (side length ``side``, odd 0-based columns
    shifted down) that contains the point (x east, y south, km): cube rounding."""
    qf = (2.0 / 3.0 * x) / side
    rf = (-x / 3.0 + math.sqrt(3) / 3.0 * y) / side
    sf = -qf - rf
    q, r, s = round(qf), round(rf), round(sf)
    dq, dr, ds = abs(q - qf), abs(r - rf), abs(s - sf)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return q, r + (q - (q & 1)) // 2


class TmcMap(MapBase):
    """The validated map. Build with :meth:`load`, :meth:`from_dict` or :func:`load_map`."""

    MALFORMED = (KeyError, TypeError, ValueError, AttributeError)

    # -- construction and validation -------------------------------------------------------

    def _build(self, data: Mapping[str, Any]) -> None:
        g = data["grid"]
        self.grid = grid = HexGrid(
            int(g["columns"]), int(g["rows_odd_columns"]), int(g["rows_even_columns"]), str(g["shifted_down"])
        )
        self.km_per_hex = float(g.get("km_per_hex", 9.6))
        self.status: str = str(data.get("status", "reconstruction"))
        self.provenance: dict[str, Any] = dict(data.get("provenance", {}))
        self.projection: dict[str, float] = {k: float(v) for k, v in data.get("projection", {}).items()}
        self.edges = self._edges()
        edge_hexes = {e: set(bits(m)) for e, m in self.edges.items()}

        # Cities: hex -> "Name" or "Name/Other" (several places may share a hex).
        cities = data["cities"]
        if not isinstance(cities, dict):
            raise DataError("'cities' must map hex ids to names")
        self.cities: dict[int, str] = {}
        for hid, name in sorted(cities.items()):
            if not isinstance(name, str) or not name:
                raise DataError(f"'cities': hex {hid} needs a name")
            self.cities[parse_hex(grid, "cities", hid)] = name
        self.city_mask = grid.mask(self.cities)
        self.places: dict[str, int] = {}
        for entry in data.get("places", []):
            name, h = str(entry[0]), parse_hex(grid, "places", entry[1])
            if name in self.places:
                raise DataError(f"'places': {name} is listed twice")
            if h not in self.cities or name not in self.cities[h].split("/"):
                raise DataError(f"'places': {name} in {entry[1]} is not named in 'cities' there")
            self.places[name] = h
        self.moscow = parse_hexes(grid, "moscow", data["moscow"])
        if not self.moscow:
            raise DataError("the map needs Moscow hexes")
        for h in self.moscow:
            if "Moscow" not in self.cities.get(h, "").split("/"):
                raise DataError(f"Moscow hex {grid.ids[h]} is not a city named Moscow")
        self.moscow_mask = grid.mask(self.moscow)
        reach = self.moscow_mask & -self.moscow_mask
        for _ in self.moscow:
            reach |= grid.expand(reach) & self.moscow_mask
        if reach != self.moscow_mask:
            raise DataError("the Moscow hexes are not connected to each other")

        self.forest = parse_hexes(grid, "forest", data.get("forest", []))
        self.forest_mask = grid.mask(self.forest)

        # Lakes: water hexes and lake hexsides (water-land, or land-land across water).
        lakes = data.get("lakes", {})
        water: set[int] = set()
        for name, hexes in lakes.items():
            hs = set(parse_hexes(grid, f"lakes.{name}", hexes))
            if hs & water:
                raise DataError(f"'lakes.{name}' shares a hex with another lake")
            water |= hs
        self.lake_hexes = grid.mask(water)
        self.lake_sides = parse_pairs(grid, "lake_hexsides", data.get("lake_hexsides", []))
        lake_set = set(self.lake_sides)
        for a, b in self.lake_sides:
            if a in water and b in water:
                raise DataError(f"'lake_hexsides': {grid.ids[a]}|{grid.ids[b]} lies between two lake hexes")
        for a in water:
            for b in grid.neighbours[a]:
                if b not in water and (min(a, b), max(a, b)) not in lake_set:
                    raise DataError(
                        f"lake hex {grid.ids[a]} meets land hex {grid.ids[b]} without a lake hexside"
                    )
        self.lake_mask = side_masks(grid, self.lake_sides)
        if self.forest_mask & self.lake_hexes:
            raise DataError(
                f"hex {grid.ids[min(bits(self.forest_mask & self.lake_hexes))]} is both forest and lake"
            )

        # Rivers and canals: per river a set of hexsides; the rules use their union.
        self.rivers: dict[str, tuple[tuple[int, int], ...]] = {
            name: parse_pairs(grid, f"rivers.{name}", pairs) for name, pairs in data.get("rivers", {}).items()
        }
        self.river_sides = tuple(sorted({s for v in self.rivers.values() for s in v}))
        self.river_mask = side_masks(grid, self.river_sides)

        # Rail: each line a chain of adjacent hexes; junctions are shared hexes.
        self.rail_lines: dict[str, tuple[int, ...]] = {
            name: parse_chain(grid, f"rail_lines.{name}", chain)
            for name, chain in data.get("rail_lines", {}).items()
        }
        links = {
            (min(a, b), max(a, b))
            for ch in self.rail_lines.values()
            for a, b in zip(ch, ch[1:], strict=False)
        }
        self.rail_links = tuple(sorted(links))
        adj: list[set[int]] = [set() for _ in range(grid.size)]
        for a, b in self.rail_links:
            adj[a].add(b)
            adj[b].add(a)
        self.rail_neighbours: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(x)) for x in adj)
        self.rail_mask = grid.mask(h for ch in self.rail_lines.values() for h in ch)
        self.rail_exits: tuple[tuple[str, int, str], ...] = tuple(
            self._rail_exit(e, edge_hexes) for e in data.get("rail_exits", [])
        )
        self.rail_edge: dict[str, int] = {e: 0 for e in EDGES}
        for _line, h, edge in self.rail_exits:
            self.rail_edge[edge] |= 1 << h

        # Defence lines (§19): five by default; optional ones (the Oka line) kept apart.
        lines: list[DefenceLine] = []
        optional: list[DefenceLine] = []
        for i, d in enumerate(data.get("defence_lines", [])):
            name = str(d["name"])
            sides = parse_pairs(grid, f"defence_lines[{i}] ({name})", d["sides"], ordered=True)
            line = DefenceLine(name, sides, str(d.get("key", "")), bool(d.get("optional", False)))
            (optional if line.optional else lines).append(line)
        self.defence_lines = tuple(lines)
        self.optional_defence_lines = tuple(optional)
        self.defence_front = self.front_masks(self.defence_lines)

        # Entry areas (§22).
        self.german_entry = grid.mask(parse_hexes(grid, "german_entry", data.get("german_entry", [])))
        if self.german_entry & ~self.edges["west"]:
            raise DataError("a German entry hex is not on the west edge")
        self.soviet_entry = tuple(parse_hex(grid, "soviet_entry", h) for h in data.get("soviet_entry", []))
        for h in self.soviet_entry:
            if not (self.edges["east"] >> h) & 1 or not (self.rail_mask >> h) & 1:
                raise DataError(f"Soviet entry hex {grid.ids[h]} is not a rail hex on the east edge")

        # Start lines (§25) with their German and Soviet sides and the German-repaired rail.
        self.start_lines: dict[str, tuple[int, ...]] = {}
        self.west_of: dict[str, int] = {}
        self.east_of: dict[str, int] = {}
        self.repaired_rail: dict[str, int] = {}
        self.railheads: dict[str, tuple[int, ...]] = {}
        # Synthetic test maps may carry only some of the three lines; load_map() needs all.
        given = data.get("start_lines", {})
        for key in given:
            if key not in START_LINES:
                raise DataError(
                    f"'start_lines': unknown start line {key!r} (known: {', '.join(START_LINES)})"
                )
        for key in START_LINES:
            if key in given:
                self._start_line(key, given[key], edge_hexes)

    def _edges(self) -> dict[str, int]:
        grid = self.grid
        rows = {c: grid.rows_in_column(c) for c in range(1, grid.columns + 1)}
        out = {e: 0 for e in EDGES}
        for h in grid.hexes:
            c, r = grid.coords[h]
            out["north"] |= (r == 1) << h
            out["south"] |= (r == rows[c]) << h
            out["west"] |= (c == 1) << h
            out["east"] |= (c == grid.columns) << h
        return out

    def _rail_exit(self, e: Mapping[str, Any], edge_hexes: dict[str, set[int]]) -> tuple[str, int, str]:
        line, edge = str(e["line"]), str(e["edge"])
        h = parse_hex(self.grid, "rail_exits", e["hex"])
        if edge not in EDGES or h not in edge_hexes[edge]:
            raise DataError(f"'rail_exits': {e['hex']} is not on the {edge} edge")
        chain = self.rail_lines.get(line)
        if chain is None or h not in (chain[0], chain[-1]):
            raise DataError(f"'rail_exits': {e['hex']} is not an end of rail line {line!r}")
        return line, h, edge

    def _start_line(self, key: str, d: Mapping[str, Any], edge_hexes: dict[str, set[int]]) -> None:
        grid = self.grid
        chain = parse_chain(grid, f"start_lines.{key}.hexes", d["hexes"])
        if chain[0] not in edge_hexes["north"] or chain[-1] not in edge_hexes["south"]:
            raise DataError(
                f"start line {key} is not connected north to south: it runs {grid.ids[chain[0]]}..{grid.ids[chain[-1]]}"
            )
        line = grid.mask(chain)
        west = grid.mask(parse_hexes(grid, f"start_lines.{key}.west_of", d["west_of"]))
        if west & line:
            raise DataError(f"start line {key}: a west_of hex lies on the line")
        east = grid.all_mask & ~west & ~line
        if grid.expand(west) & east:
            raise DataError(f"start line {key} does not separate west_of from the rest of the map")
        if self.moscow_mask & ~east:
            raise DataError(f"start line {key}: Moscow is not east of the line")
        repaired = grid.mask(parse_hexes(grid, f"start_lines.{key}.repaired_rail", d["repaired_rail"]))
        if repaired & ~(self.rail_mask & west):
            raise DataError(f"start line {key}: repaired rail must be rail hexes west of the line")
        heads = tuple(parse_hex(grid, f"start_lines.{key}.railheads", h) for h in d["railheads"])
        for h in heads:
            if not (repaired >> h) & 1:
                raise DataError(f"start line {key}: railhead {grid.ids[h]} is not repaired rail")
        self.start_lines[key] = chain
        self.west_of[key] = west
        self.east_of[key] = east
        self.repaired_rail[key] = repaired
        self.railheads[key] = heads

    # -- queries ---------------------------------------------------------------------------

    def front_masks(self, lines: tuple[DefenceLine, ...]) -> tuple[int, ...]:
        """Per hex h, the neighbours n such that h -> n crosses a front hexside of ``lines``."""
        m = [0] * self.grid.size
        for line in lines:
            for outer, inner in line.sides:
                m[outer] |= 1 << inner
        return tuple(m)

    def is_lake(self, h: int) -> bool:
        return (self.lake_hexes >> h) & 1 == 1

    def hex_at(self, lat: float, lon: float) -> int:
        """Index of the hex holding a WGS84 point (projection of geography.md §3), or -1."""
        p = self.projection
        if not p:
            return -1
        x = (lon - p["west"]) * p["km_per_deg_lon"]
        y = (p["north"] - lat) * p["km_per_deg_lat"]
        c, r = xy_to_cr(x, y, self.km_per_hex / math.sqrt(3))
        hid = f"{c + 1:02d}{r + 1:02d}"
        if c < 0 or r < 0 or hid not in self.grid:
            return -1
        return self.grid.index[hid]


@lru_cache(maxsize=1)
def load_map() -> TmcMap:
    """The game's map (data/map.json), loaded once."""
    m = TmcMap.load(MAP_JSON)
    missing = [k for k in START_LINES if k not in m.start_lines]
    if missing:
        raise DataError(f"{MAP_JSON.name}: start line(s) {', '.join(missing)} missing")
    return m
