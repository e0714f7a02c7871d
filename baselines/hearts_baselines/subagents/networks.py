"""The subagents' networks: the one-hidden-layer sigmoid MLP of paper 000 §4 (Figure 2), its SGD on the
mean squared error, and the set of seven networks with its weights file.

- :class:`ValueNet`: ``y = σ(w2 · σ(W1ᵀ x + b1) + b2)`` in NumPy; decisions in float64, dense SGD
  (:meth:`ValueNet.sgd_step`, the reference).
- :func:`train_rows`: minibatch SGD from index rows (the states are sparse: 52 ones in 260 slots, 16
  in 104) — forward passes of a whole minibatch with the old weights, then one update — by a Numba
  kernel (:func:`compiled`, the ``search`` extra), held by a test to the dense reference; without
  Numba the dense reference runs.
- :class:`NetSet`, :func:`save`, :func:`load`: the seven networks and two decision thresholds in one
  ``.npz`` whose metadata (JSON in the array ``meta``) holds the format version, the hearts-env
  version that trained them, the thresholds, provenance and a SHA-256 of every array, so a file from
  another format or another major.minor hearts-env version, or a corrupted file, is refused with a
  clear :class:`WeightsError` instead of playing nonsense.
"""

from __future__ import annotations

import functools
import hashlib
import json
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import hearts_env
from hearts_baselines.jit import njit_or
from hearts_baselines.subagents.samples import PASS_SIZE, PLAY_SIZE, dense


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
    # for thousands of rows (the scalar agent and the batched trainer choose the same cards; in
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


# Minibatch SGD from index rows ---------------------------------------------------------------
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


# The network set and its file -----------------------------------------------------------------
FORMAT = 1
NET_INPUTS = {"play_normal": PLAY_SIZE, "play_moon": PLAY_SIZE, "play_breaker": PLAY_SIZE,
              "pass_normal": PASS_SIZE, "pass_moon": PASS_SIZE,
              "decide_moon": PLAY_SIZE, "decide_breaker": PLAY_SIZE}
BUNDLED = Path(__file__).resolve().parent.parent / "weights" / "subagents.npz"
MOON_THRESHOLD = 0.96
"""Paper 000 §5.2: the moonshot agents play a deal when the decision agent's output exceeds 0.96."""


class WeightsError(ValueError):
    """A missing, corrupted or incompatible subagents file."""


@dataclass
class NetSet:
    """The seven subagent networks and the two decision thresholds."""

    nets: dict[str, ValueNet]
    moon_threshold: float = MOON_THRESHOLD
    breaker_threshold: float = MOON_THRESHOLD
    info: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def fresh(cls, hidden: int = 64, seed: int = 0) -> NetSet:
        rng = np.random.default_rng(seed)
        return cls({name: ValueNet(n_in, hidden, rng) for name, n_in in NET_INPUTS.items()})

    def copy(self) -> NetSet:
        return NetSet({k: v.copy() for k, v in self.nets.items()}, self.moon_threshold, self.breaker_threshold,
                      dict(self.info))

    def __getitem__(self, name: str) -> ValueNet:
        return self.nets[name]


def _minor(version: str) -> str:
    return ".".join(version.split(".")[:2])


def _digest(arrays: dict[str, np.ndarray]) -> str:
    h = hashlib.sha256()
    for key in sorted(arrays):
        a = np.ascontiguousarray(arrays[key])
        h.update(key.encode())
        h.update(str(a.dtype).encode() + str(a.shape).encode())
        h.update(a.tobytes())
    return h.hexdigest()


def save(netset: NetSet, path: str | Path, **extra: Any) -> Path:
    """Write ``netset`` (and JSON-able ``extra`` fields kept in the metadata) to ``path``."""
    path = Path(path)
    arrays = {f"{name}/{k}": a for name, net in netset.nets.items() for k, a in net.arrays().items()}
    meta = {"format": FORMAT, "hearts_env": hearts_env.__version__, "moon_threshold": netset.moon_threshold,
            "breaker_threshold": netset.breaker_threshold, "info": {**netset.info, **extra},
            "sha256": _digest(arrays)}
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp.npz")
    contents: dict[str, Any] = {"meta": np.array(json.dumps(meta)), **arrays}
    np.savez_compressed(tmp, **contents)
    tmp.replace(path)
    return path


def load(path: str | Path | None = None) -> NetSet:
    """Read and verify a subagents file (default: the bundled weights)."""
    path = Path(path) if path is not None else BUNDLED
    if not path.is_file():
        raise WeightsError(f"no subagents weights at {path}")
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: data[k] for k in data.files}
    except (zipfile.BadZipFile, ValueError, OSError, EOFError) as e:
        raise WeightsError(f"{path} is corrupted or not a subagents file ({type(e).__name__}: {e})") from None
    try:
        meta = json.loads(str(arrays.pop("meta")))
    except (KeyError, json.JSONDecodeError):
        raise WeightsError(f"{path} has no readable metadata: not a subagents file") from None
    if meta.get("format") != FORMAT:
        raise WeightsError(f"{path}: subagents format {meta.get('format')!r}, this version reads format {FORMAT}; "
                           "retrain with python -m hearts_baselines.subagents.train")
    made_by = str(meta.get("hearts_env", "?"))
    if _minor(made_by) != _minor(hearts_env.__version__):
        raise WeightsError(f"{path} was trained with hearts-env {made_by}; this is {hearts_env.__version__} "
                           f"(states and rules may differ): retrain, or install hearts-env {made_by}")
    if _digest(arrays) != meta.get("sha256"):
        raise WeightsError(f"{path} is corrupted or was modified: its checksum does not match its metadata")
    nets = {}
    for name, n_in in NET_INPUTS.items():
        try:
            net = ValueNet.from_arrays({k: arrays[f"{name}/{k}"] for k in ("W1", "b1", "w2", "b2")})
        except KeyError:
            raise WeightsError(f"{path} lacks the network {name!r}") from None
        if net.n_in != n_in:
            raise WeightsError(f"{path}: network {name!r} reads {net.n_in} inputs, expected {n_in}")
        nets[name] = net
    return NetSet(nets, float(meta["moon_threshold"]), float(meta["breaker_threshold"]), dict(meta.get("info", {})))
