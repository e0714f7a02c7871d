"""The one-hidden-layer sigmoid network of paper 000 §4 (Figure 2), in NumPy, trained by SGD on MSE."""

from __future__ import annotations

import numpy as np


def sigmoid(x: np.ndarray) -> np.ndarray:
    """``1 / (1 + exp(-clip(x, -30, 30)))``, computed in place on one temporary (the batched play's hot loop)."""
    y = np.clip(x, -30.0, 30.0)
    np.negative(y, out=y)
    np.exp(y, out=y)
    y += 1.0
    np.reciprocal(y, out=y)
    return y


class ValueNet:
    """``y = σ(w2 · σ(W1ᵀ x + b1) + b2)``: every node sigmoid, output in (0, 1)."""

    def __init__(self, n_in: int, n_hidden: int, rng: np.random.Generator | None = None):
        rng = rng if rng is not None else np.random.default_rng(0)
        self.W1 = (rng.standard_normal((n_in, n_hidden)) / np.sqrt(n_in)).astype(np.float32)
        self.b1 = np.zeros(n_hidden, dtype=np.float32)
        self.w2 = (rng.standard_normal(n_hidden) / np.sqrt(n_hidden)).astype(np.float32)
        self.b2 = np.zeros(1, dtype=np.float32)
        self._cache: tuple[np.ndarray, np.ndarray, np.ndarray, float] | None = None

    @property
    def n_in(self) -> int:
        return self.W1.shape[0]

    def arrays(self) -> dict[str, np.ndarray]:
        return {"W1": self.W1, "b1": self.b1, "w2": self.w2, "b2": self.b2}

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray]) -> ValueNet:
        net = cls.__new__(cls)
        net.W1, net.b1, net.w2, net.b2 = (np.asarray(arrays[k], dtype=np.float32).copy()
                                          for k in ("W1", "b1", "w2", "b2"))
        net._cache = None
        return net

    def copy(self) -> ValueNet:
        return ValueNet.from_arrays(self.arrays())

    # Inference ------------------------------------------------------------------------------
    # Decisions are computed in float64 from the float32 weights: one arithmetic for one state and
    # for thousands of tables (the scalar agent and the batched trainer choose the same cards; in
    # float32 a matrix product's rounding depends on the batch size).
    def _f64(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
        if self._cache is None:
            self._cache = (self.W1.astype(np.float64), self.b1.astype(np.float64), self.w2.astype(np.float64),
                           float(self.b2[0]))
        return self._cache

    def weights_changed(self) -> None:
        """Forget the float64 copy of the weights (call after updating them in place)."""
        self._cache = None

    def hidden_pre(self, x: np.ndarray) -> np.ndarray:
        """Hidden pre-activations (float64) of a dense batch ``(B, n_in)`` of 0/1 states."""
        W1, b1, _, _ = self._f64()
        return x.astype(np.float64) @ W1 + b1

    def hidden_pre_of_rows(self, rows: np.ndarray) -> np.ndarray:
        """:meth:`hidden_pre` of a batch of index rows (the positions of the ones)."""
        x = np.zeros((len(rows), self.n_in))
        x[np.arange(len(rows))[:, None], rows] = 1.0
        return self.hidden_pre(x)

    def input_rows(self, index: np.ndarray) -> np.ndarray:
        """Rows ``index`` of W1 in float64 (what one input set to 1 adds to the hidden pre-activation)."""
        return self._f64()[0][index]

    def logits(self, pre: np.ndarray) -> np.ndarray:
        """Output pre-activations (monotone in the value) of hidden pre-activations ``(..., H)``."""
        _, _, w2, b2 = self._f64()
        return sigmoid(pre) @ w2 + b2

    def values_of_rows(self, rows: np.ndarray) -> np.ndarray:
        """Values of a batch of index rows."""
        return sigmoid(self.logits(self.hidden_pre_of_rows(rows)))

    def predict(self, x: np.ndarray) -> np.ndarray:
        """Values of a dense batch ``(B, n_in)``."""
        return sigmoid(self.logits(self.hidden_pre(x)))

    # Training -------------------------------------------------------------------------------
    def sgd_step(self, x: np.ndarray, y: np.ndarray, lr: float) -> float:
        """One SGD step on the mean squared error of a dense batch; returns the MSE before the step."""
        self.weights_changed()
        h = sigmoid(x @ self.W1 + self.b1)
        out = sigmoid(h @ self.w2 + self.b2[0])
        err = out - y
        d_out = (2.0 / len(y)) * err * out * (1.0 - out)
        d_h = np.outer(d_out, self.w2) * h * (1.0 - h)
        self.w2 -= lr * (h.T @ d_out)
        self.b2 -= lr * d_out.sum()
        self.W1 -= lr * (x.T @ d_h)
        self.b1 -= lr * d_h.sum(axis=0)
        return float(np.mean(err * err))
