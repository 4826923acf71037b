"""Hex bitsets (Python ints over a grid's padded indices) as 0/1 numpy planes, for both
games' observation codecs: one ``to_bytes`` and ``unpackbits`` per call, then a gather of the
slots the observation keeps."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt


class BitPlanes:
    """Mixin: needs ``nbytes`` (bytes of a hex bitset) and ``gather`` (the bit positions an
    observation keeps, in plane order)."""

    nbytes: int
    gather: npt.NDArray[np.int64]

    def bits(self, mask: int) -> npt.NDArray[np.uint8]:
        """A hex bitset as a 0/1 vector over the gathered slots."""
        raw = np.unpackbits(
            np.frombuffer(mask.to_bytes(self.nbytes, "little"), dtype=np.uint8), bitorder="little"
        )
        return raw[self.gather]

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
