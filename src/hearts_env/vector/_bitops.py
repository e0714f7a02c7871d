"""Bit operations on uint64 card masks and the points of a set of cards, for the Numba kernels.

Plain Python functions that :func:`hearts_env.vector._kernels.compiled` compiles with Numba,
together with the rules kernel (:mod:`._kernels`) and the strategy kernels (:mod:`._strategies`)
that call them. Every mask and every constant mixed with one is ``uint64``: Numba turns
``uint64 op int64`` into a float.
"""

from __future__ import annotations

import numpy as np

from hearts_env.tables import (
    FLAG_JD_BONUS,
    K_FLAGS,
    K_HEARTS,
    K_JD_BIT,
    K_POINT_CARD,
    N_POINT_CARDS,
    P_HEART,
    P_JD,
    P_POINT_CARD,
)

_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)

JITTED = ("_popcount", "_lowest_card", "_highest_card", "_kth_card", "_penalty_points", "_points")
"""The functions :func:`~hearts_env.vector._kernels.compiled` compiles."""


def _popcount(x):
    """Set bits of a uint64, branch-free (LLVM turns this into one popcnt where the CPU has it)."""
    x = x - ((x >> _ONE) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return np.int64((x * _H01) >> np.uint64(56))


def _lowest_card(x):
    """Index of the lowest set bit (x != 0)."""
    return _popcount((x & (~x + _ONE)) - _ONE)


def _highest_card(x):
    """Index of the highest set bit (x != 0)."""
    for k in (1, 2, 4, 8, 16, 32):
        x |= x >> np.uint64(k)
    return _popcount(x) - 1


def _kth_card(mask, u):
    """The ``floor(u * popcount)``-th lowest card of ``mask`` (mask != 0, 0 <= u < 1), found by a
    branch-free binary search on popcounts (a data-dependent loop mispredicts on every row)."""
    k = np.int64(u * _popcount(mask))
    pos = np.int64(0)
    for width in (32, 16, 8, 4, 2, 1):
        w = np.uint64(width)
        low = mask & ((_ONE << w) - _ONE)
        c = _popcount(low)
        take = np.int64(k >= c)
        k -= c * take
        pos += width * take
        mask = (mask >> (w * np.uint64(take))) & ((_ONE << w) - _ONE)
    return pos


def _penalty_points(mask, K, P):
    """Penalty points of a set of cards, as ``RuleTables.penalty_points_of`` (a card worth 0 adds 0)."""
    pts = _popcount(mask & K[K_HEARTS]) * P[P_HEART]
    for j in range(N_POINT_CARDS):
        if mask & K[K_POINT_CARD + j]:
            pts += P[P_POINT_CARD + j]
    return pts


def _points(mask, K, P):
    """Points of a set of cards (penalties minus the J♦ bonus), as ``hearts_env.engine.mask_points``."""
    pts = _penalty_points(mask, K, P)
    if K[K_FLAGS] & np.uint64(FLAG_JD_BONUS) and mask & K[K_JD_BIT]:
        pts -= P[P_JD]
    return pts
