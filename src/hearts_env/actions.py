"""Actions at the environments' boundary: card ids as integers, never truncated or reinterpreted.

An action is a card id: a Python or NumPy integer, or a one-element integer array. A float
(``3.5``, even ``3.0``), a bool or a bool array is refused, not rounded or read as 0/1.

>>> import numpy as np
>>> integer_action(np.int64(7)), integer_action(np.array([7])), integer_action(7.0), integer_action(True)
(7, 7, None, None)
>>> integer_actions(np.array([1, 2]), 2).tolist()
[1, 2]
"""

from __future__ import annotations

from typing import Any

import numpy as np


def integer_action(action: Any) -> int | None:
    """The card id ``action`` names, or None when it is not an integer (floats and bools are not)."""
    if isinstance(action, bool | np.bool_):
        return None
    if isinstance(action, int | np.integer):
        return int(action)
    if isinstance(action, np.ndarray) and action.size == 1 and action.dtype.kind in "iu":
        return int(action.reshape(()))
    return None


def integer_actions(actions: Any, size: int) -> np.ndarray:
    """``size`` card ids as int64, one per table; raises ValueError for another shape or a
    non-integer dtype (float or bool arrays are refused, not cast)."""
    array = np.asarray(actions)
    if array.dtype.kind not in "iu":
        raise ValueError(f"actions must be integer card ids (an int array of shape ({size},)), "
                         f"got dtype {array.dtype}")
    if array.size != size:
        raise ValueError(f"actions needs one card id per env: {size} values, got shape {array.shape}")
    return array.astype(np.int64).reshape(size)
