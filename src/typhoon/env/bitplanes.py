"""Hex bitsets (Python ints over a grid's padded indices) as 0/1 numpy planes, for both
games' observation codecs: one ``to_bytes`` and ``unpackbits`` per call, then a gather of the
slots the observation keeps. Where the kept slots are the first ``k`` of every run of
``stride`` (a column-major grid with spare slots per column), the gather is a strided view
instead of an index array: :meth:`BitPlanes.write_planes` writes straight into the planes."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt


class BitPlanes:
    """Mixin: needs ``nbytes`` (bytes of a hex bitset) and ``gather`` (the bit positions an
    observation keeps, in plane order)."""

    nbytes: int
    gather: npt.NDArray[np.int64]
    _stripes_memo: tuple[int, int, int] | None | bool = False  # see _stripes

    def bits(self, mask: int) -> npt.NDArray[np.uint8]:
        """A hex bitset as a 0/1 vector over the gathered slots."""
        raw = np.unpackbits(
            np.frombuffer(mask.to_bytes(self.nbytes, "little"), dtype=np.uint8), bitorder="little"
        )
        return raw[self.gather]

    def _stripes(self) -> tuple[int, int, int] | None:
        """(runs, stride, kept) if ``gather`` is ``run * stride + j`` for every run and
        ``j < kept`` in order (worked out once), else None."""
        got = self._stripes_memo
        if got is False:
            got = None
            g = self.gather
            n = len(g)
            steps = np.flatnonzero(np.diff(g) != 1)
            if n and g[0] == 0 and len(steps):
                kept = int(steps[0]) + 1
                stride = int(g[kept])
                if n % kept == 0 and stride >= kept:
                    runs = n // kept
                    want = (np.arange(runs)[:, None] * stride + np.arange(kept)[None, :]).ravel()
                    if np.array_equal(want, g) and runs * stride <= self.nbytes * 8:
                        got = (runs, stride, kept)
            self._stripes_memo = got
        return got  # type: ignore[return-value]

    def write_planes(self, dest: npt.NDArray[np.float32], masks: list[int]) -> None:
        """Write the bitsets ``masks`` as 0/1 rows into ``dest`` (shape (len(masks), number of
        gathered slots), any dtype): the same values as ``_hex_planes``, in one pass."""
        stripes = self._stripes()
        if stripes is None or not dest.flags.c_contiguous:
            dest[...] = self._hex_planes(masks)
            return
        runs, stride, kept = stripes
        nb = self.nbytes
        data = b"".join([m.to_bytes(nb, "little") for m in masks])
        raw = np.unpackbits(np.frombuffer(data, dtype=np.uint8), bitorder="little").reshape(
            len(masks), nb * 8
        )
        src = raw[:, : runs * stride].reshape(len(masks), runs, stride)[:, :, :kept]
        dest.reshape(len(masks), runs, kept)[...] = src

    def _hex_planes(self, masks: list[int]) -> npt.NDArray[np.uint8]:
        """Several hex bitsets at once, as rows of 0/1 over the gathered slots."""
        nb = self.nbytes
        shift = nb * 8
        big = 0
        for i, m in enumerate(masks):
            big |= m << (i * shift)
        raw = np.unpackbits(
            np.frombuffer(big.to_bytes(nb * len(masks), "little"), dtype=np.uint8), bitorder="little"
        )
        return raw.reshape(len(masks), shift)[:, self.gather]
