"""Fast int-bitmask → vector unpacking shared by the built-in encoders.

An encoder packs all its binary slots into one Python ``int`` (bit ``i`` = slot ``i``) and
calls :meth:`BitUnpacker.unpack`, which costs one ``int.to_bytes``, one ``bytearray`` copy and
one ``ndarray.take`` over a 256-entry lookup table of bytes → 8 slots (about 1 µs on the
reference machine, independent of the vector size up to a few hundred bytes). NumPy's
per-call overhead dominates at these sizes, so the number of NumPy calls is what matters.
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


class BitUnpacker:
    """Unpacks an ``nbits``-bit int into ``buffer`` (a view of ``size`` slots of dtype ``dtype``).

    ``buffer`` is the first ``size`` slots of an internal array rounded up to whole bytes; the
    caller writes its non-binary slots into ``buffer`` after :meth:`unpack`.
    """

    __slots__ = ("nbytes", "_raw", "_raw_np", "wide", "buffer", "_lut")

    def __init__(self, size: int, dtype: type | np.dtype):
        dt = np.dtype(dtype)
        self.nbytes = (size + 7) // 8
        self._raw = bytearray(self.nbytes)
        self._raw_np = np.frombuffer(self._raw, dtype=np.uint8)
        self._lut = _lut(dt)
        self.wide = np.zeros(self.nbytes, dtype=self._lut.dtype)
        self.buffer = self.wide.view(dt)[:size]

    def unpack(self, bits: int) -> np.ndarray:
        """Write bit ``i`` of ``bits`` to ``buffer[i]`` (0 or 1) for every slot; returns ``buffer``."""
        self._raw[:] = bits.to_bytes(self.nbytes, "little")
        self._lut.take(self._raw_np, 0, self.wide, "clip")
        return self.buffer
