"""The set of subagent networks and its file format: one ``.npz`` with its metadata inside.

The metadata (JSON in the array ``meta``) holds the format version, the hearts-env version that
trained the networks, the decision thresholds, provenance and a SHA-256 of every array, so a file
from another format or another major.minor hearts-env version, or a corrupted file, is refused with
a clear :class:`WeightsError` instead of playing nonsense.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import hearts_env
from hearts_baselines.subagents.features import PASS_SIZE, PLAY_SIZE
from hearts_baselines.subagents.net import ValueNet

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
