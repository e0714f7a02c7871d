"""Small helpers shared by the built-in encoders (not public API)."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from gymnasium import spaces


def box(size: int, dtype: type, scalar_slots: Iterable[int] = ()) -> spaces.Box:
    """The space of an encoding whose slots are 0/1 except ``scalar_slots``, which hold values in
    [0, 1] as ``float32`` and ``round(255 * x)`` as ``uint8`` (the project-wide convention)."""
    if np.dtype(dtype) != np.uint8:
        return spaces.Box(low=0.0, high=1.0, shape=(size,), dtype=dtype)
    high = np.ones(size, dtype=np.uint8)
    high[list(scalar_slots)] = 255
    return spaces.Box(low=np.zeros(size, dtype=np.uint8), high=high, dtype=np.uint8)


