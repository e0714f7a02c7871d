"""Paper 003's network: one MLP per trick, 107 inputs → 64 ReLU → 32 outputs (a value per card).

Output ``c`` of the net for trick ``t`` estimates minus the points the seat will take from trick
``t`` to the end of the deal if it plays card ``c`` now (the thesis's Monte Carlo return, Eq. 2.1;
see :mod:`.training`). Cards are the Dutch deck's action ids (7♣ … A♠). Weights are float64 while
training and may be stored as float32 (the bundled brains). The thesis does not give an
initialisation: weights are drawn from U(−1/√fan_in, +1/√fan_in) (PyTorch's default for linear
layers), biases start at zero.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from hearts_baselines.weightfiles import load_npz, save_npz
from hearts_env.engine import Phase

FORMAT = "hearts_baselines.dutchnn/1"
TRICKS, INPUTS, HIDDEN, CARDS = 8, 107, 64, 32
SHAPES = {"w1": (TRICKS, INPUTS, HIDDEN), "b1": (TRICKS, HIDDEN), "w2": (TRICKS, HIDDEN, CARDS), "b2": (TRICKS, CARDS)}


@dataclass
class DutchNet:
    """The eight per-trick networks (see the module docstring); ``meta`` records how they were trained."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name, shape in SHAPES.items():
            array = getattr(self, name)
            if not isinstance(array, np.ndarray) or array.shape != shape or array.dtype.kind != "f":
                found = f"{array.dtype} {array.shape}" if isinstance(array, np.ndarray) else type(array).__name__
                raise ValueError(f"dutchnn: {name} must be a float array of shape {shape}, got {found}")
            if not np.isfinite(array).all():
                raise ValueError(f"dutchnn: {name} holds non-finite values (a diverged or corrupt network)")

    @classmethod
    def initial(cls, rng: np.random.Generator) -> DutchNet:
        """Fresh float64 weights (see the module docstring)."""
        return cls(rng.uniform(-1, 1, SHAPES["w1"]) / np.sqrt(INPUTS), np.zeros(SHAPES["b1"]),
                   rng.uniform(-1, 1, SHAPES["w2"]) / np.sqrt(HIDDEN), np.zeros(SHAPES["b2"]))

    def copy(self) -> DutchNet:
        return DutchNet(self.w1.copy(), self.b1.copy(), self.w2.copy(), self.b2.copy(), dict(self.meta))

    def astype(self, dtype: type) -> DutchNet:
        """A copy with weights of ``dtype`` (float64 to train; the agents play in float32)."""
        w1, b1, w2, b2 = (getattr(self, n).astype(dtype) for n in SHAPES)
        return DutchNet(w1, b1, w2, b2, dict(self.meta))

    def values(self, x: np.ndarray, tricks: np.ndarray) -> np.ndarray:
        """(B, 32) the card values for observations ``x`` (B, 107), row ``i`` by the net of trick
        ``tricks[i]`` (0–7)."""
        x = np.asarray(x, dtype=self.w1.dtype)
        tricks = np.asarray(tricks)
        first = int(tricks[0]) if len(tricks) else 0
        if (tricks == first).all():  # the usual case in a batch played in lockstep: no row selection
            return np.maximum(x @ self.w1[first] + self.b1[first], 0.0) @ self.w2[first] + self.b2[first]
        out = np.empty((len(x), CARDS), self.w1.dtype)
        for t in np.unique(tricks):
            rows = tricks == t
            hidden = np.maximum(x[rows] @ self.w1[t] + self.b1[t], 0.0)
            out[rows] = hidden @ self.w2[t] + self.b2[t]
        return out

    def save(self, path: str | Path, dtype: type = np.float64) -> None:
        """Write the network (``dtype=np.float32`` halves the file: the bundled brains)."""
        save_npz(path, {"format": FORMAT, "meta": self.meta}, {n: getattr(self, n).astype(dtype) for n in SHAPES})

    @classmethod
    def load(cls, path: str | Path) -> DutchNet:
        """The network at ``path``; a clear error for a missing, foreign or damaged file."""
        header, arrays = load_npz(path, FORMAT, "dutchnn", required=tuple(SHAPES))
        return cls(**{n: arrays[n] for n in SHAPES}, meta=header.get("meta", {}))


def best_legal(values: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """(B,) the legal card of highest value per row (the lowest card id on ties); ``legal`` (B,)
    uint64 masks, non-empty."""
    bits = (legal[:, None] >> np.arange(CARDS, dtype=np.uint64)) & np.uint64(1)
    return np.argmax(np.where(bits.astype(bool), values, -np.inf), axis=1)


def batch_cards(net: DutchNet, deals: Any, encoder: Any, acting: np.ndarray | None = None) -> np.ndarray:
    """(B,) the card ``net`` plays (greedily) for the seat to act in each row of a
    :class:`~hearts_env.vector.VectorDeals` in the play phase (−1 at the others, and outside
    ``acting`` when given); ``encoder`` the batch ``dutch107`` encoder of the deals' rules."""
    playing = deals.phase == int(Phase.PLAY)
    if acting is not None:
        playing &= acting
    cards = np.full(deals.size, -1, np.int64)
    if not playing.any():
        return cards
    rows = np.flatnonzero(playing)
    sub = deals.take(rows) if len(rows) < deals.size else deals
    obs = encoder.encode(sub, sub.current.astype(np.intp))
    cards[rows] = best_legal(net.values(obs, sub.trick_index.astype(np.intp)), sub.legal_masks())
    return cards
