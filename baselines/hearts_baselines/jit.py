"""Numba kernels with a NumPy fallback: one rule for every learner that ships a compiled update."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def njit_or(kernel: Callable[..., Any], reference: Callable[..., Any]) -> Callable[..., Any]:
    """``kernel`` compiled by Numba (cached on disk; the ``search`` extra), or ``reference`` — the same
    computation in whole-array NumPy — when Numba is not installed."""
    try:
        import numba
    except ImportError:
        return reference
    return numba.njit(cache=True)(kernel)
