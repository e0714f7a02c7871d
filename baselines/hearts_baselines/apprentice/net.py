"""The apprentice's network: an MLP over the ``rich`` observation with three heads.

- ``logits`` (52): the policy (illegal cards masked by the caller);
- ``q`` (52): the points the seat will take by the deal's end after each card (trained on the searcher's
  per-card estimates);
- ``v`` (1): the points the seat will take by the deal's end from here (the critic of PPO).

Play and batched inference run in NumPy (:class:`NumpyNet`, no torch needed, float32; with Numba, batches take the
first layer over the nonzero inputs only: :data:`SPARSE_MIN_ROWS`); training uses the same layers in torch
(:func:`torch_net`, the ``train`` extra). Weights travel as one ``.npz`` of format ``apprentice-1`` (arrays
``w0, b0, w1, b1, …, wp, bp, wq, bq, wv, bv`` beside a JSON header:
:mod:`hearts_baselines.weightfiles`).

Every trainer (warm start, PPO, exploiter) writes the same files in its run folder: ``checkpoint.pt`` (what
``--resume`` continues from; :func:`begin`, :func:`checkpoint`), ``metrics.jsonl`` (a line per epoch or
iteration, as it ends; :func:`log_metrics`), and at the end ``apprentice.npz`` (the weights) and
``summary.json`` (the settings and the last metrics; :func:`finish`).
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import numpy as np

from hearts_baselines.weightfiles import load_npz, save_npz
from hearts_env.rules import Rules

HEADS = ("p", "q", "v")
SPARSE_MIN_ROWS = 8
"""Batches of at least this many rows (rollouts, training data) take the first layer over the nonzero inputs when
Numba is installed; a single move keeps NumPy's product, so that playing one card never loads Numba."""
FORMAT = "apprentice-1"
SCALE = 5.0  # points per unit of the value heads' losses and of PPO's rewards


def scalar_slots(rules: Rules) -> slice:
    """The eight non-binary slots of ``rich`` (points taken and game scores), 255-scaled in uint8 data."""
    n = rules.deck_obj.size
    return slice(11 * n + 16, 11 * n + 24)


def as_float(obs: np.ndarray, rules: Rules) -> np.ndarray:
    """``rich`` observations stored as uint8 → the float32 the network reads (the float32 encoder's values)."""
    x = obs.astype(np.float32)
    x[:, scalar_slots(rules)] /= 255.0
    return x


class NumpyNet:
    """Inference in NumPy; ``params`` maps ``w0, b0, …, wp, bp, wq, bq, wv, bv`` to float32 arrays."""

    def __init__(self, params: dict[str, np.ndarray], meta: dict[str, Any]):
        self.meta = meta
        depth = sum(1 for k in params if k.startswith("w") and k[1:].isdigit())
        self.hidden = [(params[f"w{i}"].astype(np.float32), params[f"b{i}"].astype(np.float32)) for i in range(depth)]
        self.heads = {h: (params[f"w{h}"].astype(np.float32), params[f"b{h}"].astype(np.float32)) for h in HEADS}

    def trunk(self, x: np.ndarray) -> np.ndarray:
        for layer, (w, b) in enumerate(self.hidden):
            if layer == 0 and len(x) >= SPARSE_MIN_ROWS and (affine := sparse_affine()) is not None:
                # the observations are nine tenths zeros: summing the weight rows of the other tenth is
                # about twice as fast as the dense product (and equal to it up to float rounding)
                x = affine(np.ascontiguousarray(x, dtype=np.float32), w, b, np.empty((len(x), w.shape[1]), np.float32))
            else:
                x = x @ w
                x += b
            np.maximum(x, 0.0, out=x)
        return x

    def head(self, h: np.ndarray, name: str) -> np.ndarray:
        w, b = self.heads[name]
        return h @ w + b

    def policy_logits(self, x: np.ndarray) -> np.ndarray:
        return self.head(self.trunk(x), "p")

    def outputs(self, x: np.ndarray) -> dict[str, np.ndarray]:
        h = self.trunk(x)
        return {name: self.head(h, name) for name in HEADS}

    def params(self) -> dict[str, np.ndarray]:
        out = {}
        for i, (w, b) in enumerate(self.hidden):
            out[f"w{i}"], out[f"b{i}"] = w, b
        for name, (w, b) in self.heads.items():
            out[f"w{name}"], out[f"b{name}"] = w, b
        return out

    def save(self, path: str | Path) -> None:
        save_npz(path, {**self.meta, "format": FORMAT}, self.params())

    @classmethod
    def load(cls, path: str | Path) -> NumpyNet:
        header, arrays = load_npz(path, FORMAT, "apprentice", required=("w0", "b0", "wp", "bp", "wq", "bq", "wv", "bv"))
        return cls(arrays, header)


def _sparse_affine(x: np.ndarray, w: np.ndarray, b: np.ndarray, out: np.ndarray) -> np.ndarray:
    """``out = x @ w + b`` over the nonzero entries of ``x`` only (row by row, in feature order)."""
    acc = np.empty(w.shape[1], np.float32)
    for i in range(x.shape[0]):
        acc[:] = b
        for j in range(x.shape[1]):
            v = x[i, j]
            if v != 0.0:
                for c in range(w.shape[1]):
                    acc[c] += v * w[j, c]
        out[i] = acc
    return out


_SPARSE_AFFINE: Any = None


def sparse_affine() -> Any:
    """:func:`_sparse_affine` compiled by Numba, or None when Numba is not installed (the ``search`` extra)."""
    global _SPARSE_AFFINE
    if _SPARSE_AFFINE is None:
        try:
            import numba
        except ImportError:
            _SPARSE_AFFINE = False
        else:
            _SPARSE_AFFINE = numba.njit(cache=True)(_sparse_affine)
    return _SPARSE_AFFINE or None


def torch_net(inputs: int, hidden: tuple[int, ...], actions: int) -> Any:
    """The same network in torch (a ``nn.Module`` with ``forward(x) -> (logits, q, v)``)."""
    import torch
    from torch import nn

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            sizes = (inputs, *hidden)
            self.trunk = nn.Sequential(*[m for a, b in itertools.pairwise(sizes)
                                         for m in (nn.Linear(a, b), nn.ReLU())])
            self.p = nn.Linear(sizes[-1], actions)
            self.q = nn.Linear(sizes[-1], actions)
            self.v = nn.Linear(sizes[-1], 1)

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
            h = self.trunk(x)
            return self.p(h), self.q(h), self.v(h).squeeze(-1)

    return Net()


def _linears(net: Any) -> list[tuple[str, Any]]:
    """The linear layers of a :func:`torch_net` with the suffix of their arrays: ``0, 1, …`` then the heads."""
    return [*((str(i), m) for i, m in enumerate(m for m in net.trunk if hasattr(m, "weight"))),
            *((name, getattr(net, name)) for name in HEADS)]


def to_numpy(net: Any, meta: dict[str, Any]) -> NumpyNet:
    """A torch :func:`torch_net` as a :class:`NumpyNet` (weights copied, transposed to ``x @ w``)."""
    params: dict[str, np.ndarray] = {}
    for suffix, m in _linears(net):
        params[f"w{suffix}"] = m.weight.detach().cpu().numpy().T.copy()
        params[f"b{suffix}"] = m.bias.detach().cpu().numpy().copy()
    return NumpyNet(params, meta)


def load_into(net: Any, weights: NumpyNet) -> None:
    """Copy a :class:`NumpyNet`'s weights into a torch :func:`torch_net` of the same shape (warm start)."""
    import torch

    params = weights.params()
    with torch.no_grad():
        for suffix, m in _linears(net):
            m.weight.copy_(torch.from_numpy(params[f"w{suffix}"].T.copy()))
            m.bias.copy_(torch.from_numpy(params[f"b{suffix}"]))


def as_torch(weights: NumpyNet) -> Any:
    """A :func:`torch_net` of ``weights``' shape holding their values (the warm start of PPO and of the exploiter)."""
    hidden = tuple(int(h) for h in weights.meta["hidden"])
    net = torch_net(weights.hidden[0][0].shape[0], hidden, weights.heads["p"][0].shape[1])
    load_into(net, weights)
    return net


def begin(folder: Path, resume: bool) -> dict[str, Any] | None:
    """Make ``folder``; return the checkpoint's state when resuming from one, else None (a fresh run: the
    metrics of an earlier run there are removed)."""
    folder.mkdir(parents=True, exist_ok=True)
    if resume and (folder / "checkpoint.pt").exists():
        import torch

        return torch.load(folder / "checkpoint.pt", weights_only=False)
    (folder / "metrics.jsonl").unlink(missing_ok=True)
    return None


def checkpoint(folder: Path, state: dict[str, Any]) -> None:
    import torch

    torch.save(state, folder / "checkpoint.pt")


def log_metrics(folder: Path, row: dict[str, Any], echo: bool) -> None:
    with open(folder / "metrics.jsonl", "a") as f:
        f.write(json.dumps(row) + "\n")
    if echo:
        print(json.dumps(row), flush=True)


def finish(folder: Path, weights: NumpyNet) -> dict[str, Any]:
    """Write the weights and ``summary.json`` (their metadata and the last metrics line); return the summary."""
    weights.save(folder / "apprentice.npz")
    metrics = [json.loads(line) for line in (folder / "metrics.jsonl").read_text().splitlines()]
    summary = {**weights.meta, "final": metrics[-1] if metrics else None}
    (folder / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    return summary
