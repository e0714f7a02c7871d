"""A learned linear evaluator of paper 004: weights over conjunction features, saved and loaded.

A :class:`Model` predicts one seat's final points of a task — ``"q"`` (Q♠: 0 or 13), ``"hearts"``
(0–13) or ``"full"`` (0–26, the game) — from one or both atom spaces. The single-task learners use
every feature of their set; the full-game model keeps a chosen subset of each space (``q_keep``,
``hearts_keep``: sorted feature indices), as the paper's combined learner keeps the 2,000 and 10,000
features of largest weight. As an evaluator for :class:`~hearts_baselines.search.maxn.MaxNAgent`
(``evaluation=``) it values trick boundaries of :class:`~hearts_env.engine.Deal` for all four seats.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from hearts_baselines.tdlambda import kernels
from hearts_baselines.tdlambda.features import FeatureSet
from hearts_baselines.weightfiles import load_npz, save_npz
from hearts_env.engine import Deal
from hearts_env.rules import Rules

FORMAT = "hearts_baselines.tdlambda/1"
TASKS = {"q": kernels.Q_TASK, "hearts": kernels.HEARTS_TASK, "full": kernels.FULL_TASK}
MOON_MODES = {"off": kernels.MOON_OFF, "add_to_others": kernels.MOON_ADD,
              "subtract_from_shooter": kernels.MOON_SUBTRACT}


@dataclass
class Model:
    """Weights of a linear value over the features of ``q`` and/or ``hearts`` (see the module docstring)."""

    task: str
    q: FeatureSet | None
    hearts: FeatureSet | None
    weights: np.ndarray
    q_keep: np.ndarray | None = None
    hearts_keep: np.ndarray | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.task not in TASKS:
            raise ValueError(f"task must be one of {', '.join(TASKS)}; got {self.task!r}")
        if self.q is None and self.hearts is None:
            raise ValueError("a model needs the q space, the hearts space or both")
        kept = 0
        for fs, keep in ((self.q, self.q_keep), (self.hearts, self.hearts_keep)):
            if fs is None:
                continue
            if keep is None:
                if self.q is not None and self.hearts is not None:
                    raise ValueError("a model over both spaces names the features it keeps in each")
                kept += fs.size
            else:
                if len(keep) and (keep.min() < 0 or keep.max() >= fs.size or (np.diff(keep) <= 0).any()):
                    raise ValueError(f"kept feature indices must be sorted, distinct and within 0..{fs.size - 1}")
                kept += len(keep)
        if self.weights.shape != (kept,):
            raise ValueError(f"weights have shape {self.weights.shape}; the feature sets need ({kept},)")

    @classmethod
    def initial(cls, task: str, q: FeatureSet | None, hearts: FeatureSet | None, rng: np.random.Generator) -> Model:
        """Weights drawn from U(−1/F, +1/F), F the number of features (the paper's initialisation)."""
        size = (q.size if q else 0) + (hearts.size if hearts else 0)
        return cls(task, q, hearts, rng.uniform(-1.0 / size, 1.0 / size, size))

    def params(self, moon: str = "off") -> tuple:
        """The tuple the kernels take (shares ``weights``: the TD update writes into it)."""
        if moon not in MOON_MODES:
            raise ValueError(f"tdlambda: the moon rule {moon!r} is not supported; supported: {', '.join(MOON_MODES)}")
        spaces = []
        base = 0
        for fs, keep in ((self.q, self.q_keep), (self.hearts, self.hearts_keep)):
            if fs is None:
                spaces.append((0, np.zeros(6, np.int64), np.zeros(0, np.int64), np.zeros((0, 0), np.int8)))
                continue
            if keep is None:
                spaces.append((fs.bits, fs.offsets(), np.zeros(0, np.int64), np.zeros((0, 0), np.int8)))
                continue
            lookup = np.full(fs.size, -1, np.int64)
            lookup[keep] = base + np.arange(len(keep))
            base += len(keep)
            spaces.append((fs.bits, fs.offsets(), lookup, _alive(fs, keep)))
        (q_bits, q_offsets, q_lookup, q_alive), (h_bits, h_offsets, h_lookup, h_alive) = spaces
        return (TASKS[self.task], self.weights, q_bits, q_offsets, q_lookup, q_alive, h_bits, h_offsets, h_lookup,
                h_alive, MOON_MODES[moon])

    def features(self) -> list[tuple[float, str, str]]:
        """(weight, space, conjunction) for every weight, largest |weight| first."""
        rows = []
        offset = 0
        for name, fs, keep in (("q", self.q, self.q_keep), ("hearts", self.hearts, self.hearts_keep)):
            if fs is None:
                continue
            indices = np.arange(fs.size) if keep is None else keep
            for i, index in enumerate(indices):
                rows.append((float(self.weights[offset + i]), name, fs.describe(int(index))))
            offset += len(indices)
        return sorted(rows, key=lambda row: -abs(row[0]))

    def top(self, count: int) -> np.ndarray:
        """Sorted indices of the ``count`` features of largest |weight| (single-space models)."""
        if (self.q is None) == (self.hearts is None) or self.q_keep is not None or self.hearts_keep is not None:
            raise ValueError("top() picks features of a single-space model that keeps every feature")
        return np.sort(np.argsort(-np.abs(self.weights), kind="stable")[:count])

    # Evaluation for maxn -----------------------------------------------------------------------
    def check_rules(self, rules: Rules) -> None:
        """Refuse rules whose points the features cannot express."""
        wrong = [f"{name}={getattr(rules, name)!r}" for name, want in (
            ("deck", "standard"), ("heart_points", 1), ("queen_of_spades_points", 13), ("jack_of_clubs_points", 0),
            ("king_of_spades_points", 0), ("ace_of_spades_points", 0), ("jd_bonus", False),
            ("avoid_all_tricks_bonus", False)) if getattr(rules, name) != want]
        if rules.moon not in MOON_MODES:
            wrong.append(f"moon={rules.moon!r}")
        if wrong:
            raise ValueError(f"tdlambda's features value the 52-card deck with hearts 1 and Q♠ 13 and no other "
                             f"scoring, moon off, add_to_others or subtract_from_shooter; these rules have "
                             f"{', '.join(wrong)}")

    def values(self, deals: Sequence[Deal]) -> np.ndarray:
        """(len(deals), 4): every seat's predicted final task points at each trick boundary."""
        k = kernels.compiled()
        out = np.zeros((len(deals), 4))
        params: dict[str, tuple] = {}
        for i, deal in enumerate(deals):
            if deal.trick:
                raise ValueError("a learned tdlambda model values trick boundaries only (no cards on the table): "
                                 "search with depth='trick'")
            if deal.rules.moon not in params:
                self.check_rules(deal.rules)
                params[deal.rules.moon] = self.params(deal.rules.moon)
            hands, dealt, taken = arrays(deal)
            for seat in range(4):
                out[i, seat] = k.value(hands, dealt, taken, deal.leader, seat, params[deal.rules.moon])
        return out

    # Files -------------------------------------------------------------------------------------
    def save(self, path: str | Path, dtype: type = np.float64) -> None:
        """Write the model (``dtype=np.float32`` halves a bundled file)."""
        header = {"format": FORMAT, "task": self.task, "q_orders": list(self.q.orders) if self.q else None,
                  "hearts_orders": list(self.hearts.orders) if self.hearts else None, "meta": self.meta}
        arrays_: dict[str, np.ndarray] = {"weights": self.weights.astype(dtype)}
        if self.q_keep is not None:
            arrays_["q_keep"] = self.q_keep.astype(np.int32)
        if self.hearts_keep is not None:
            arrays_["hearts_keep"] = self.hearts_keep.astype(np.int32)
        save_npz(path, header, arrays_)

    @classmethod
    def load(cls, path: str | Path) -> Model:
        header, content = load_npz(path, FORMAT, "tdlambda", required=("weights",))
        q_orders, hearts_orders = header["q_orders"], header["hearts_orders"]
        return cls(header["task"],
                   FeatureSet(kernels.Q_SPACE, tuple(q_orders)) if q_orders else None,
                   FeatureSet(kernels.HEARTS_SPACE, tuple(hearts_orders)) if hearts_orders else None,
                   content["weights"].astype(np.float64),
                   content["q_keep"].astype(np.int64) if "q_keep" in content else None,
                   content["hearts_keep"].astype(np.int64) if "hearts_keep" in content else None,
                   header.get("meta", {}))


def _alive(fs: FeatureSet, keep: np.ndarray) -> np.ndarray:
    """The kernels' pruning table (:func:`~.kernels.visit`) of the kept features of one space."""
    alive = np.zeros((fs.atoms, fs.atoms), np.int8)
    for index in keep:
        members = fs.members(int(index))
        if len(members) >= 3:
            alive[members[-1], members[-2]] |= 1 << (len(members) - 3)
    return alive


def arrays(deal: Deal) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """hands, dealt and taken masks of a deal as the kernels' ``int64`` arrays."""
    return (np.array(deal.hands, np.int64), np.array(deal.dealt, np.int64), np.array(deal.taken, np.int64))


def search_inputs(deal: Deal) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, np.ndarray, int]:
    """The arguments of :func:`~.kernels.root_values` before ``P`` and ``out`` for the seat to play."""
    trick = np.full(4, -1, np.int16)
    trick[:len(deal.trick)] = deal.trick
    return (*arrays(deal), deal.leader, trick, deal.legal_mask())
