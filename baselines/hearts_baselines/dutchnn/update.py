"""Paper 003's learning step: plain SGD, one sample at a time, on the played card's output only.

For each sample (observation ``x``, trick ``t``, card ``a``, return ``G``), in order, the net of
trick ``t`` takes one step of ``lr`` down the gradient of ½(out_a − G)²; the other 31 outputs are
untouched (their target is their own value). :func:`sgd` is written for Numba (:func:`compiled`,
the ``search`` extra); :func:`sgd_reference` is the same step in whole-array NumPy, which the
tests hold the compiled one to and which runs when Numba is absent.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np

from hearts_baselines.jit import njit_or


def sgd(w1, b1, w2, b2, x, tricks, actions, targets, lr):
    """Update the weights in place, sample by sample; returns the sum of squared errors, each
    measured before its own update. ``x`` (N, 107) float32/64, ``tricks`` (N,) 0–7, ``actions``
    (N,) card ids, ``targets`` (N,) float64."""
    inputs, hidden = w1.shape[1], w1.shape[2]
    h = np.zeros(hidden)
    d = np.zeros(hidden)
    loss = 0.0
    for i in range(x.shape[0]):
        t, a = tricks[i], actions[i]
        for k in range(hidden):
            h[k] = b1[t, k]
        for j in range(inputs):  # x is sparse: most slots are 0
            xj = x[i, j]
            if xj != 0.0:
                for k in range(hidden):
                    h[k] += xj * w1[t, j, k]
        out = b2[t, a]
        for k in range(hidden):
            if h[k] > 0.0:
                out += h[k] * w2[t, k, a]
            else:
                h[k] = 0.0
        err = out - targets[i]
        loss += err * err
        g = lr * err
        for k in range(hidden):
            d[k] = g * w2[t, k, a] if h[k] > 0.0 else 0.0  # through the old output weights
            w2[t, k, a] -= g * h[k]
            b1[t, k] -= d[k]
        b2[t, a] -= g
        for j in range(inputs):
            xj = x[i, j]
            if xj != 0.0:
                for k in range(hidden):
                    w1[t, j, k] -= d[k] * xj
    return loss


def sgd_reference(w1, b1, w2, b2, x, tricks, actions, targets, lr):
    """:func:`sgd` in whole-array NumPy (the same arithmetic up to rounding)."""
    loss = 0.0
    for i in range(len(x)):
        t, a = int(tricks[i]), int(actions[i])
        xi = np.asarray(x[i], dtype=np.float64)
        pre = xi @ w1[t] + b1[t]
        h = np.maximum(pre, 0.0)
        err = float(h @ w2[t, :, a] + b2[t, a] - targets[i])
        loss += err * err
        dh = lr * err * w2[t, :, a] * (pre > 0)
        w2[t, :, a] -= lr * err * h
        b2[t, a] -= lr * err
        w1[t] -= np.outer(xi, dh)
        b1[t] -= dh
    return loss


@functools.cache
def compiled() -> Callable[..., float]:
    """:func:`sgd` compiled by Numba (cached on disk), or :func:`sgd_reference` without Numba."""
    return njit_or(sgd, sgd_reference)
