"""Decision data in parallel: labelled deals in fixed units, each from its own seed, on ``jobs`` processes.

A unit is ``size`` consecutive deals ``k·size … (k+1)·size − 1`` of a step, played on the batched
engine from ``default_rng([seed, step, k])`` (:func:`~.steps.moon_label_batch`,
:func:`~.steps.breaker_label_batch`); units are consumed in order, so the data are the same for any
number of processes.
"""

from __future__ import annotations

import concurrent.futures as futures
from collections.abc import Callable, Iterable
from types import TracebackType
from typing import Any

import numpy as np

from hearts_baselines.subagents import steps as S
from hearts_baselines.subagents.weights import NetSet

CALIBRATION_UNITS = 1_000_000
"""Unit numbers of the moonshot calibration hands start here (apart from the training data's)."""


def unit(kind: str, ctx: S.Context, nets: NetSet, seed: int, step: int, k: int, size: int,
         options: tuple[bool, bool], counterfactual: bool = False) -> dict[str, np.ndarray]:
    """Labelled data of unit ``k`` (deals ``k·size`` to ``(k+1)·size − 1``) of step ``step``."""
    rng = np.random.default_rng([seed, step, k])
    first = k * size
    if kind == "decide_moon":
        return S.moon_label_batch(ctx, nets, rng, first, first + size, *options, counterfactual=counterfactual)
    return S.breaker_label_batch(ctx, nets, rng, first, first + size)


class Labeller:
    """A pool of ``jobs`` worker processes (none for one job) that makes units of decision data."""

    def __init__(self, jobs: int):
        # Workers inherit the parent's environment (train.py limits BLAS to one thread before NumPy loads).
        self.pool = futures.ProcessPoolExecutor(jobs) if jobs > 1 else None

    def __enter__(self) -> Labeller:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)

    def map(self, fn: Callable[..., Any], *iterables: Iterable[Any]) -> Iterable[Any]:
        """``map`` on the pool (in order)."""
        return map(fn, *iterables) if self.pool is None else self.pool.map(fn, *iterables)

    def units(self, kind: str, ctx: S.Context, nets: NetSet, seed: int, step: int, first: int, count: int,
              size: int, options: tuple[bool, bool], counterfactual: bool = False) -> list[dict[str, np.ndarray]]:
        """Units ``first … first + count − 1``, in order."""
        ks = range(first, first + count)
        n = len(ks)
        return list(self.map(unit, [kind] * n, [ctx] * n, [nets] * n, [seed] * n, [step] * n, ks, [size] * n,
                             [options] * n, [counterfactual] * n))
