"""Fast int-bitmask → vector unpacking shared by the built-in encoders.

An encoder packs its binary slots into one Python ``int`` (bit ``i`` = slot ``start + i``) and
calls :meth:`Region.unpack`, which costs one ``int.to_bytes``, one ``bytearray`` copy and one
``ndarray.take`` over a 256-entry lookup table of bytes → 8 slots (about 1 µs on the reference
machine, nearly independent of the vector size up to a few hundred bytes). At these sizes
NumPy's per-call overhead dominates, so the number of NumPy calls is what matters.

A region covers whole bytes, so it also writes zeros to the slots up to the next multiple of
8 past its end; :class:`BitBuffer` pads its array so that the last region never runs off it.
"""

from __future__ import annotations

import numpy as np

_LUTS: dict[str, np.ndarray] = {}


def _lut(dtype: np.dtype) -> np.ndarray:
    key = dtype.str
    lut = _LUTS.get(key)
    if lut is None:
        bits = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1, bitorder="little")
        lut = np.ascontiguousarray(bits.astype(dtype)).view(f"V{8 * dtype.itemsize}").reshape(256)
        _LUTS[key] = lut
    return lut


class Region:
    """``nbits`` slots of a :class:`BitBuffer` starting at ``start``."""

    __slots__ = ("nbytes", "_raw", "_raw_np", "_wide", "_lut")

    def __init__(self, full: np.ndarray, start: int, nbits: int):
        self.nbytes = (nbits + 7) // 8
        self._raw = bytearray(self.nbytes)
        self._raw_np = np.frombuffer(self._raw, dtype=np.uint8)
        self._lut = _lut(full.dtype)
        self._wide = full[start:start + 8 * self.nbytes].view(self._lut.dtype)

    def unpack(self, bits: int) -> None:
        """Slot ``start + i`` = bit ``i`` of ``bits`` (0 or 1), for the whole region."""
        self._raw[:] = bits.to_bytes(self.nbytes, "little")
        self._lut.take(self._raw_np, 0, self._wide, "clip")


class BitBuffer:
    """A reusable output vector: ``buffer`` (``size`` slots of ``dtype``) over a padded array."""

    __slots__ = ("full", "buffer", "bytes_view")

    def __init__(self, size: int, dtype: type | np.dtype):
        self.full = np.zeros(size + 64, dtype=np.dtype(dtype))
        self.buffer = self.full[:size]
        self.bytes_view = self.full.data.cast("B")
        """Writable bytes of ``full`` (for ``struct.pack_into`` of non-binary slots)."""

    def region(self, start: int, nbits: int) -> Region:
        return Region(self.full, start, nbits)
