"""Hex geometry for maps numbered CCRR with flat-topped hexes in vertical columns.

Columns are counted west to east from 01, rows north to south from 01. One column parity
is drawn half a hex lower than the other ("shifted down"); with the even columns lower this
is Red Blob Games' "odd-q" layout with 0-based columns. Columns may have different lengths by
parity (a map may have one row more in its odd columns).

Hexes get integer indices laid out column by column with one spare slot after each column:
index = (column - 1) * stride + (row - 1), stride = longest column + 1. The spare slots are
never hexes, which lets a whole set of hexes (a Python-int bitset) be grown by one hex in
every direction with eight shifts (:meth:`HexGrid.expand`), as python-chess does for squares.
Lists indexed by hex have ``size`` slots; only the indices in ``hexes`` are real hexes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from typhoon.errors import DataError

# Direction order used by every neighbour table: N, NE, SE, S, SW, NW (clockwise from north).
DIRECTIONS = ("N", "NE", "SE", "S", "SW", "NW")

# (dc, dr) offsets for a column that is "high" and one that is shifted down.
_HIGH = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1))
_LOW = ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0))


def hex_id(col: int, row: int) -> str:
    """The CCRR id of column ``col`` and row ``row`` (both 1-based)."""
    return f"{col:02d}{row:02d}"


def parse_hex_id(text: str) -> tuple[int, int]:
    """Column and row of a CCRR id. Raises ValueError for anything that is not four digits."""
    if len(text) != 4 or not text.isdigit():
        raise ValueError(f"not a CCRR hex id: {text!r}")
    return int(text[:2]), int(text[2:])


class HexGrid:
    """Geometry of one map's grid: ids, indices, neighbours, directions and distances."""

    def __init__(self, columns: int, rows_odd: int, rows_even: int, shifted_down: str = "even"):
        if columns < 1 or rows_odd < 1 or rows_even < 1:
            raise DataError("a grid needs at least one column and one row")
        if shifted_down not in ("even", "odd"):
            raise DataError(f"shifted_down must be 'even' or 'odd', not {shifted_down!r}")
        self.columns = columns
        self.rows_odd = rows_odd
        self.rows_even = rows_even
        self.shifted_down = shifted_down
        self.stride = max(rows_odd, rows_even) + 1
        self.size = columns * self.stride  # slots; not all are hexes
        self.ids: list[str] = [""] * self.size
        self.coords: list[tuple[int, int]] = [(0, 0)] * self.size
        hexes = []
        low_cols = 0
        for c in range(1, columns + 1):
            for r in range(1, self.rows_in_column(c) + 1):
                i = (c - 1) * self.stride + (r - 1)
                self.ids[i] = hex_id(c, r)
                self.coords[i] = (c, r)
                hexes.append(i)
            if self._is_low(c):
                for r in range(self.stride):
                    low_cols |= 1 << ((c - 1) * self.stride + r)
        self.hexes: tuple[int, ...] = tuple(hexes)
        self.count = len(hexes)
        self.index: dict[str, int] = {self.ids[i]: i for i in hexes}
        self.valid = 0
        for i in hexes:
            self.valid |= 1 << i
        self.all_mask = self.valid
        self._low = low_cols & self.valid
        self._high = self.valid & ~low_cols
        # neighbours_by_dir[i][d] is the neighbour of hex i in direction d, or -1 off the map.
        self.neighbours_by_dir: list[tuple[int, ...]] = [()] * self.size
        self.neighbours: list[tuple[int, ...]] = [()] * self.size
        self.neighbour_mask: list[int] = [0] * self.size
        for i in hexes:
            c, r = self.coords[i]
            by_dir = []
            for dc, dr in self._offsets(c):
                j = self.index.get(hex_id(c + dc, r + dr), -1) if c + dc >= 1 and r + dr >= 1 else -1
                by_dir.append(j)
            self.neighbours_by_dir[i] = tuple(by_dir)
            ns = tuple(j for j in by_dir if j >= 0)
            self.neighbours[i] = ns
            self.neighbour_mask[i] = self.mask(ns)
        self._cube = [self._to_cube(*self.coords[i]) if self.ids[i] else (0, 0, 0) for i in range(self.size)]
        self._within: dict[tuple[int, int], int] = {}
        for i in hexes:  # the shift arithmetic must agree with the neighbour tables
            if self.expand(1 << i) != self.neighbour_mask[i]:
                raise AssertionError(f"grid shift table wrong at {self.ids[i]}")  # pragma: no cover

    def rows_in_column(self, col: int) -> int:
        return self.rows_odd if col % 2 == 1 else self.rows_even

    def _is_low(self, col: int) -> bool:
        return (col % 2 == 0) == (self.shifted_down == "even")

    def _offsets(self, col: int) -> tuple[tuple[int, int], ...]:
        return _LOW if self._is_low(col) else _HIGH

    def _to_cube(self, col: int, row: int) -> tuple[int, int, int]:
        # Red Blob Games offset -> cube conversion on 0-based coordinates: "odd-q" when the
        # 1-based even columns are low, "even-q" when the 1-based odd columns are.
        q, r = col - 1, row - 1
        if self.shifted_down == "even":
            z = r - (q - (q & 1)) // 2
        else:
            z = r - (q + (q & 1)) // 2
        return q, -q - z, z

    def __contains__(self, hid: object) -> bool:
        return hid in self.index

    def __len__(self) -> int:
        return self.count

    def idx(self, hid: str) -> int:
        """Index of a hex id; raises KeyError naming the id if it is not on this grid."""
        try:
            return self.index[hid]
        except KeyError:
            raise KeyError(f"hex {hid} is not on this map") from None

    def expand(self, mask: int) -> int:
        """Every hex adjacent to a hex of ``mask`` (a bitset), by shifts."""
        st = self.stride
        hi = mask & self._high
        lo = mask & self._low
        out = (
            (mask >> 1)
            | (mask << 1)
            | (mask << st)
            | (mask >> st)
            | (hi << (st - 1))
            | (hi >> (st + 1))
            | (lo << (st + 1))
            | (lo >> (st - 1))
        )
        return out & self.valid

    def distance(self, a: int, b: int) -> int:
        """Number of hex steps between two hexes (indices)."""
        ax, ay, az = self._cube[a]
        bx, by, bz = self._cube[b]
        return max(abs(ax - bx), abs(ay - by), abs(az - bz))

    def within(self, h: int, radius: int) -> int:
        """Bitset of the hexes at most ``radius`` steps from ``h`` (memoised)."""
        key = (h, radius)
        m = self._within.get(key)
        if m is None:
            m = 1 << h
            for _ in range(radius):
                m |= self.expand(m)
            self._within[key] = m
        return m

    def direction(self, a: int, b: int) -> str:
        """Compass direction from hex a to its neighbour b."""
        return DIRECTIONS[self.neighbours_by_dir[a].index(b)]

    def adjacent(self, a: int, b: int) -> bool:
        return (self.neighbour_mask[a] >> b) & 1 == 1

    def mask(self, hexes: Iterable[int]) -> int:
        m = 0
        for h in hexes:
            m |= 1 << h
        return m

    def ids_of(self, mask: int) -> list[str]:
        return [self.ids[h] for h in bits(mask)]


def bits(mask: int) -> Iterator[int]:
    """Indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


# Bit positions of every byte value, for :func:`bit_list`.
_BYTE_BITS = tuple(tuple(i for i in range(8) if (b >> i) & 1) for b in range(256))


def bit_list(mask: int) -> list[int]:
    """Indices of the set bits of ``mask`` in ascending order (a byte table: faster than
    :func:`bits` on sparse masks of a few hundred bits)."""
    out: list[int] = []
    if not mask:
        return out
    table = _BYTE_BITS
    for i, b in enumerate(mask.to_bytes((mask.bit_length() + 7) // 8, "little")):
        if b:
            base = i * 8
            out.extend([base + j for j in table[b]])
    return out
