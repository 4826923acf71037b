"""Validation helpers shared by the map loaders (typhoon.hexmap and the games' own loaders).

Each helper turns one field of a JSON map file into hex indices on a grid, raising DataError
with the field's name and the offending value, so every map format reports errors alike.
:class:`MapBase` is the frame both map classes build on.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Self

from typhoon.errors import DataError
from typhoon.hexgrid import HexGrid, bits, parse_hex_id


def load_json_object(path: str | Path) -> dict[str, Any]:
    """The one JSON object a data file holds; DataError if unreadable or not an object."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise DataError(f"cannot read map file {p}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise DataError(f"{p}: not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise DataError(f"{p}: a map file holds one JSON object")
    return data


def parse_hex(grid: HexGrid, field: str, value: Any) -> int:
    """Index of one CCRR hex id on the grid."""
    if not isinstance(value, str):
        raise DataError(f"'{field}': hex id must be a string, not {value!r}")
    try:
        parse_hex_id(value)
    except ValueError:
        raise DataError(f"'{field}': {value!r} is not a CCRR hex id") from None
    if value not in grid:
        raise DataError(f"'{field}': hex {value} is not on the {grid.count}-hex grid")
    return grid.index[value]


def parse_hexes(grid: HexGrid, field: str, values: Any) -> tuple[int, ...]:
    """A list of distinct hex ids, as sorted indices."""
    if not isinstance(values, list):
        raise DataError(f"'{field}' must be a list of hex ids")
    out = [parse_hex(grid, field, v) for v in values]
    if len(set(out)) != len(out):
        raise DataError(f"'{field}' lists a hex twice")
    return tuple(sorted(out))


def parse_pairs(
    grid: HexGrid, field: str, values: Any, *, ordered: bool = False
) -> tuple[tuple[int, int], ...]:
    """A list of hexsides given as pairs of adjacent hex ids; each hexside at most once.
    Unordered pairs come back as sorted (low, high) tuples in sorted order; ``ordered`` keeps
    each pair's order and the list's order (e.g. outer -> inner side of a defence line)."""
    if not isinstance(values, list):
        raise DataError(f"'{field}' must be a list of hex pairs")
    seen: set[tuple[int, int]] = set()
    out: list[tuple[int, int]] = []
    for pair in values:
        if not isinstance(pair, list) or len(pair) != 2:
            raise DataError(f"'{field}': {pair!r} is not a pair of hex ids")
        a, b = parse_hex(grid, field, pair[0]), parse_hex(grid, field, pair[1])
        if not grid.adjacent(a, b):
            raise DataError(f"'{field}': {pair[0]} and {pair[1]} are not adjacent")
        key = (min(a, b), max(a, b))
        if key in seen:
            raise DataError(f"'{field}': hexside {pair[0]}|{pair[1]} is listed twice")
        seen.add(key)
        out.append((a, b) if ordered else key)
    return tuple(out) if ordered else tuple(sorted(out))


def parse_chain(grid: HexGrid, field: str, values: Any) -> tuple[int, ...]:
    """A path of hexes in order: every hex adjacent to the one before, none repeated."""
    if not isinstance(values, list) or len(values) < 2:
        raise DataError(f"'{field}' must be a list of at least two hex ids")
    out = tuple(parse_hex(grid, field, v) for v in values)
    for a, b in zip(out, out[1:], strict=False):
        if not grid.adjacent(a, b):
            raise DataError(
                f"'{field}': {grid.ids[a]} and {grid.ids[b]} follow each other but are not adjacent"
            )
    if len(set(out)) != len(out):
        raise DataError(f"'{field}' passes through a hex twice")
    return out


def side_masks(grid: HexGrid, pairs: Any) -> tuple[int, ...]:
    """Per hex, the bitset of neighbours across one of these hexsides (both directions)."""
    m = [0] * grid.size
    for a, b in pairs:
        m[a] |= 1 << b
        m[b] |= 1 << a
    return tuple(m)


class MapBase:
    """What both games' map classes share: construction from one JSON object (any malformation
    a DataError naming the file) and the queries on the layers every map has. A subclass
    builds ``grid``, ``forest_mask``, ``moscow_mask``, ``rail_mask`` and ``rail_neighbours``
    in ``_build``."""

    # Errors of a malformed file that ``_build`` lets through (reported as DataError).
    MALFORMED: tuple[type[Exception], ...] = (KeyError, TypeError, ValueError)

    grid: HexGrid
    forest_mask: int
    moscow_mask: int
    rail_mask: int
    rail_neighbours: tuple[tuple[int, ...], ...]

    def __init__(self, data: Mapping[str, Any], *, origin: str = "<data>"):
        self.origin = origin
        try:
            self._build(data)
        except DataError as exc:
            raise DataError(f"{origin}: {exc}") from None
        except self.MALFORMED as exc:
            raise DataError(f"{origin}: malformed map data ({type(exc).__name__}: {exc})") from None

    def _build(self, data: Mapping[str, Any]) -> None:
        raise NotImplementedError

    @classmethod
    def load(cls, path: str | Path) -> Self:
        return cls(load_json_object(path), origin=Path(path).name)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        return cls(data)

    def idx(self, hid: str) -> int:
        return self.grid.idx(hid)

    def hid(self, index: int) -> str:
        return self.grid.ids[index]

    def is_forest(self, h: int) -> bool:
        return (self.forest_mask >> h) & 1 == 1

    def is_moscow(self, h: int) -> bool:
        return (self.moscow_mask >> h) & 1 == 1

    def is_rail(self, h: int) -> bool:
        return (self.rail_mask >> h) & 1 == 1

    def rail_components(self) -> list[set[int]]:
        """Connected pieces of the rail network (as sets of hex indices), by lowest hex."""
        seen: set[int] = set()
        comps: list[set[int]] = []
        for start in bits(self.rail_mask):
            if start in seen:
                continue
            comp = {start}
            todo = [start]
            while todo:
                for n in self.rail_neighbours[todo.pop()]:
                    if n not in comp:
                        comp.add(n)
                        todo.append(n)
            seen |= comp
            comps.append(comp)
        return comps
