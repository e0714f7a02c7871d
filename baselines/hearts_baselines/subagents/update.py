"""Minibatch SGD on the mean squared error for states given as index rows (the positions of their ones).

:meth:`~.net.ValueNet.sgd_step` is the dense reference: ``x @ W1`` over a 0/1 matrix. The states
are sparse (52 ones in 260 slots, 16 in 104), so :func:`sgd_rows` computes the same minibatch
steps from the rows directly — forward passes of the whole minibatch with the old weights, then
one update — written for Numba (:func:`compiled`, the ``search`` extra) and held by a test to the
dense reference. Without Numba the dense reference runs.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np

from hearts_baselines.jit import njit_or
from hearts_baselines.subagents.features import dense
from hearts_baselines.subagents.net import ValueNet


def sgd_rows(W1, b1, w2, b2, rows, y, lr, minibatch):
    """Consecutive minibatches of ``minibatch`` samples (``rows`` (n, k) indices of the ones, ``y``
    (n,) targets), one SGD step each, weights updated in place; returns the sum over steps of each
    step's MSE before it."""
    n, k = rows.shape
    hidden = W1.shape[1]
    h = np.zeros((minibatch, hidden), W1.dtype)  # the weights' precision: float32 arithmetic vectorizes
    dh = np.zeros((minibatch, hidden), W1.dtype)
    d_out = np.zeros(minibatch)
    total = 0.0
    for start in range(0, n, minibatch):
        m = min(minibatch, n - start)
        loss = 0.0
        for i in range(m):
            r = start + i
            for u in range(hidden):
                h[i, u] = b1[u]
            for j in range(k):
                row = W1[rows[r, j]]
                for u in range(hidden):
                    h[i, u] += row[u]
            z = b2[0]
            for u in range(hidden):
                h[i, u] = 1.0 / (1.0 + np.exp(-min(30.0, max(-30.0, h[i, u]))))
                z += h[i, u] * w2[u]
            out = 1.0 / (1.0 + np.exp(-min(30.0, max(-30.0, z))))
            err = out - y[r]
            loss += err * err
            d_out[i] = (2.0 / m) * err * out * (1.0 - out)
            for u in range(hidden):
                dh[i, u] = d_out[i] * w2[u] * h[i, u] * (1.0 - h[i, u])
        total += loss / m
        for i in range(m):
            r = start + i
            b2[0] -= lr * d_out[i]
            for u in range(hidden):
                w2[u] -= lr * h[i, u] * d_out[i]
                b1[u] -= lr * dh[i, u]
            for j in range(k):
                row = W1[rows[r, j]]
                for u in range(hidden):
                    row[u] -= lr * dh[i, u]
    return total


def sgd_rows_reference(W1, b1, w2, b2, rows, y, lr, minibatch):
    """:func:`sgd_rows` by :meth:`ValueNet.sgd_step` on dense minibatches (the same steps up to rounding)."""
    net = ValueNet.from_arrays({"W1": W1, "b1": b1, "w2": w2, "b2": b2})
    total = 0.0
    for start in range(0, len(y), minibatch):
        total += net.sgd_step(dense(rows[start:start + minibatch], W1.shape[0]), y[start:start + minibatch], lr)
    W1[...], b1[...], w2[...], b2[...] = net.W1, net.b1, net.w2, net.b2
    return total


@functools.cache
def compiled() -> Callable[..., float]:
    """:func:`sgd_rows` compiled by Numba (cached on disk), or :func:`sgd_rows_reference` without Numba."""
    return njit_or(sgd_rows, sgd_rows_reference)


def train_rows(net: ValueNet, rows: np.ndarray, y: np.ndarray, lr: float, minibatch: int) -> float:
    """SGD over consecutive minibatches of (``rows``, ``y``) in place; the mean of the steps' MSEs."""
    if not len(y):
        return float("nan")
    total = compiled()(net.W1, net.b1, net.w2, net.b2, np.ascontiguousarray(rows, dtype=np.int64),
                       np.asarray(y, dtype=np.float64), float(lr), int(minibatch))
    net.weights_changed()
    return float(total) / -(-len(y) // minibatch)
