"""A game map: terrain per hex, hexside features, rail links, cities and edges.

Loaded from a JSON data file and validated on load; immutable afterwards. Hex sets are kept
both as sorted index tuples (for iteration) and as Python-int bitsets (for the hot path).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from typhoon.errors import DataError
from typhoon.hexgrid import HexGrid
from typhoon.mapdata import MapBase, parse_hex, parse_hexes, parse_pairs, side_masks

SIDES = ("german", "soviet")


@dataclass(frozen=True)
class City:
    hex: int
    name: str
    initial_control: str


class HexMap(MapBase):
    """One edition's map. Build with :meth:`load` or :meth:`from_dict`."""

    # -- construction and validation -------------------------------------------------------

    def _hexes(self, field: str, values: Any) -> tuple[int, ...]:
        return parse_hexes(self.grid, field, values)

    def _hex(self, field: str, value: Any) -> int:
        return parse_hex(self.grid, field, value)

    def _pairs(self, field: str, values: Any) -> tuple[tuple[int, int], ...]:
        return parse_pairs(self.grid, field, values)

    def _build(self, data: Mapping[str, Any]) -> None:
        g = data["grid"]
        self.grid = HexGrid(
            int(g["columns"]),
            int(g["rows_odd_columns"]),
            int(g["rows_even_columns"]),
            str(g.get("shifted_down", "even")),
        )
        grid = self.grid
        self.source: str = str(data.get("source", ""))
        self.edition: str = str(data.get("edition", ""))
        self.forest = self._hexes("forest", data["forest"])
        self.fortification = self._hexes("fortification", data["fortification"])
        both = set(self.forest) & set(self.fortification)
        if both:
            raise DataError(f"hex {grid.ids[min(both)]} is both forest and fortification")
        cities = data["cities"]
        if not isinstance(cities, dict):
            raise DataError("'cities' must map hex ids to city entries")
        self.cities: tuple[City, ...] = tuple(
            City(self._hex("cities", h), str(v["name"]), self._side("cities", v["control"]))
            for h, v in sorted(cities.items())
        )
        names = [c.name for c in self.cities]
        if len(set(names)) != len(names):
            raise DataError("two cities share a name")
        self.city_at: dict[int, int] = {c.hex: i for i, c in enumerate(self.cities)}
        self.moscow = self._hexes("moscow", data["moscow"])
        if not self.moscow:
            raise DataError("the map needs a Moscow hex")
        for h in self.moscow:
            if h not in self.city_at:
                raise DataError(f"Moscow hex {grid.ids[h]} is not a city")
        self.major_cities = self._hexes("major_cities", data.get("major_cities", []))
        for h in self.major_cities:
            if h not in self.city_at:
                raise DataError(f"major city hex {grid.ids[h]} is not a city")
        self.rivers = self._pairs("rivers", data["rivers"])
        self.rail = self._pairs("rail", data["rail"])
        exits = data.get("rail_exits", [])
        self.rail_exits: tuple[tuple[int, str], ...] = tuple(
            (self._hex("rail_exits", e[0]), str(e[1])) for e in exits
        )
        setup = data["setup"]
        self.setup: dict[str, tuple[int, ...]] = {
            side: self._hexes(f"setup.{side}", setup[side]) for side in SIDES
        }
        if set(self.setup["german"]) & set(self.setup["soviet"]):
            raise DataError("a hex is a set-up hex of both sides")
        edges = data["edges"]
        self.edges: dict[str, tuple[int, ...]] = {
            side: self._hexes(f"edges.{side}", edges[side]) for side in SIDES
        }
        for side in SIDES:
            for h in self.edges[side]:
                c, r = grid.coords[h]
                on_border = len(grid.neighbours[h]) < 6
                if not on_border:
                    raise DataError(f"{side} edge hex {grid.ids[h]} is not on the map border")
        # Derived tables for the hot path.
        self.forest_mask = grid.mask(self.forest)
        self.fortification_mask = grid.mask(self.fortification)
        self.city_mask = grid.mask(c.hex for c in self.cities)
        self.moscow_mask = grid.mask(self.moscow)
        self.major_city_mask = grid.mask(self.major_cities)
        self.edge_mask = {side: grid.mask(self.edges[side]) for side in SIDES}
        self.setup_mask = {side: grid.mask(self.setup[side]) for side in SIDES}
        # river_mask[h]: neighbours of h across a river hexside.
        self.river_mask: tuple[int, ...] = side_masks(grid, self.rivers)
        rail_adj: list[list[int]] = [[] for _ in range(grid.size)]
        for a, b in self.rail:
            rail_adj[a].append(b)
            rail_adj[b].append(a)
        self.rail_neighbours: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(x)) for x in rail_adj)
        self.rail_mask = grid.mask(h for h in range(grid.size) if rail_adj[h])
        # Movement cost of entering each hex in a normal movement phase, and by rail.
        self.move_cost: tuple[int, ...] = tuple(
            2 if (self.forest_mask >> h) & 1 else 1 for h in range(grid.size)
        )
        self.rail_cost: tuple[int, ...] = (1,) * grid.size

    @staticmethod
    def _side(field: str, value: Any) -> str:
        if value not in SIDES:
            raise DataError(f"'{field}': side must be one of {SIDES}, not {value!r}")
        return str(value)

    # -- queries ---------------------------------------------------------------------------

    def is_fortification(self, h: int) -> bool:
        return (self.fortification_mask >> h) & 1 == 1

    def river_between(self, a: int, b: int) -> bool:
        return (self.river_mask[a] >> b) & 1 == 1

    def city_name(self, h: int) -> str | None:
        i = self.city_at.get(h)
        return None if i is None else self.cities[i].name

    def terrain_name(self, h: int) -> str:
        """Short words for a hex: 'forest', 'clear, fortification, city Tula'."""
        parts = ["forest" if self.is_forest(h) else "clear"]
        if self.is_fortification(h):
            parts.append("fortification")
        name = self.city_name(h)
        if name is not None:
            parts.append(f"city {name}")
        if self.is_rail(h):
            parts.append("rail")
        return ", ".join(parts)
