"""The training steps of the pipeline (paper 000 §4.2–4.3), each a function of a :class:`Context`.

Reinforcement steps play self-play deals with some seats learning, and after every ``batch_deals``
deals run one SGD pass over the states those deals produced (the paper trains "at the end of each
round"), on minibatches drawn from a :class:`Replay` buffer. Decision steps play deals to label hands
— in fixed units, each from its own seed, on a :class:`Labeller`'s processes — then fit a classifier
and calibrate its threshold.
"""

from __future__ import annotations

import concurrent.futures as futures
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any

import numpy as np

from hearts_baselines.subagents.agent import Brain
from hearts_baselines.subagents.networks import NetSet, ValueNet, train_rows
from hearts_baselines.subagents.samples import MOON_TOTAL, DealFacts, Samples
from hearts_baselines.subagents.selfplay import (
    Seats,
    brains,
    collect,
    collect_batch,
    moon_deal,
    play_batch,
    play_deal,
    random_deal,
)
from hearts_env.engine import Deal
from hearts_env.rules import Rules
from hearts_env.vector import VectorDeals

TrainingDeal = tuple[Deal, list[Brain], dict[int, set[str]]]
"""A deal, its four brains, and the networks each learning seat trains."""


@dataclass
class Context:
    rules: Rules
    lr: float
    batch_deals: int
    minibatch: int
    eps_start: float
    eps_end: float
    replay: int = 200_000
    """States kept per network for SGD minibatches."""
    replay_ratio: float = 4.0
    """SGD minibatch rows per new state (each state is used about this many times)."""
    engine: str = "batch"
    """``"batch"`` (the batched engine) or ``"scalar"`` (one deal at a time; the reference)."""


def epsilon(ctx: Context, done: int, total: int) -> float:
    return ctx.eps_start + (ctx.eps_end - ctx.eps_start) * min(1.0, done / max(1, total))


# SGD from a replay buffer -----------------------------------------------------------------------
class Replay:
    """Ring buffers of (index row, target) per network name, ``capacity`` states each."""

    def __init__(self, capacity: int):
        self.capacity = capacity
        self._rows: dict[str, np.ndarray] = {}
        self._y: dict[str, np.ndarray] = {}
        self._size: dict[str, int] = {}
        self._next: dict[str, int] = {}

    def __len__(self) -> int:
        return sum(self._size.values())

    def size(self, name: str) -> int:
        return self._size.get(name, 0)

    def add(self, name: str, rows: np.ndarray, y: np.ndarray) -> None:
        if name not in self._rows:
            self._rows[name] = np.zeros((self.capacity, rows.shape[1]), dtype=np.int16)
            self._y[name] = np.zeros(self.capacity, dtype=np.float32)
            self._size[name] = self._next[name] = 0
        for start in range(0, len(y), self.capacity):
            part_rows, part_y = rows[start:start + self.capacity], y[start:start + self.capacity]
            at = (self._next[name] + np.arange(len(part_y))) % self.capacity
            self._rows[name][at] = part_rows
            self._y[name][at] = part_y
            self._next[name] = int((self._next[name] + len(part_y)) % self.capacity)
            self._size[name] = min(self.capacity, self._size[name] + len(part_y))

    def sample(self, name: str, k: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        idx = rng.integers(self._size[name], size=k)
        return self._rows[name][idx], self._y[name][idx]


def train_samples(nets: NetSet, samples: Samples, replay: Replay, ctx: Context,
                  rng: np.random.Generator) -> dict[str, float]:
    """Move the gathered states into the replay buffer, then run ``replay_ratio`` × (new states)
    minibatch rows of SGD per network on uniform samples of its buffer; the mean losses."""
    losses = {}
    for name in list(samples.rows):
        rows, y = samples.arrays(name)
        if not len(y):
            continue
        replay.add(name, rows, y)
        steps = max(1, round(len(y) * ctx.replay_ratio / ctx.minibatch))
        batch_rows, target = replay.sample(name, steps * ctx.minibatch, rng)
        losses[name] = train_rows(nets[name], batch_rows, target, ctx.lr, ctx.minibatch)
    samples.clear()
    return losses


# Training deals of the reinforcement steps -------------------------------------------------
def normal_deals(learn: set[str], random_passes: bool) -> Callable[..., TrainingDeal]:
    """Training deals of four normal seats, all learning ``learn`` (self-play)."""
    def make(ctx: Context, nets: NetSet, rng: np.random.Generator, i: int, eps: float) -> TrainingDeal:
        return (random_deal(ctx.rules, rng), brains(nets, ["normal"] * 4, [eps] * 4, random_passes, frozenset(learn)),
                dict.fromkeys(range(4), learn))
    return make


def moon_deals(learn: set[str], random_passes: bool, filtered: bool) -> Callable[..., TrainingDeal]:
    """Training deals of one moon seat (rotating) learning ``learn`` and three frozen normal seats."""
    def make(ctx: Context, nets: NetSet, rng: np.random.Generator, i: int, eps: float) -> TrainingDeal:
        seat = i % 4
        styles = ["moon" if s == seat else "normal" for s in range(4)]
        eps_list = [eps if s == seat else 0.0 for s in range(4)]
        return (moon_deal(ctx.rules, rng, nets, seat, filtered),
                brains(nets, styles, eps_list, random_passes, frozenset(learn)), {seat: learn})
    return make


def breaker_deal(ctx: Context, nets: NetSet, rng: np.random.Generator, i: int, eps: float) -> TrainingDeal:
    """A training deal of a moon seat on a filtered deal, a learning breaker seat after it, two normal seats."""
    shooter = i % 4
    breaker = (shooter + 1 + i // 4 % 3) % 4
    styles = ["moon" if s == shooter else "breaker" if s == breaker else "normal" for s in range(4)]
    eps_list = [eps if s == breaker else 0.0 for s in range(4)]
    seats = brains(nets, styles, eps_list, explore=frozenset({"play_breaker"}))
    return moon_deal(ctx.rules, rng, nets, shooter, True), seats, {breaker: {"play_breaker"}}


def metric(facts: list[DealFacts], deal: TrainingDeal) -> float:
    """The learning curve's score of a deal: the learning seats' points received, or for a moon
    seat 1 if it shot the moon, or for a breaker 1 if another seat shot the moon."""
    learners = deal[2]
    values = []
    for s, learn in learners.items():
        if learn & {"play_moon", "pass_moon"}:
            values.append(float(facts[s].taken == MOON_TOTAL))
        elif "play_breaker" in learn:
            values.append(float(facts[s].moon_shooter not in (None, s)))
        else:
            return float("nan")  # self-play points average 6.5: scored against heuristic instead (train.py)
    return float(np.mean(values))


def rl_chunk(ctx: Context, nets: NetSet, make: Callable[..., TrainingDeal], start: int, stop: int, total: int,
             rng: np.random.Generator, progress: Callable[[int], None], replay: Replay) -> tuple[float, float]:
    """Deals ``start..stop-1`` of a reinforcement step; (mean loss, mean metric) of the chunk.

    Deals are played ``ctx.batch_deals`` at a time with frozen networks, then one SGD pass
    (:func:`train_samples`) learns from them. ``ctx.engine`` ``"batch"`` plays them at once on the
    batched engine (:func:`~.selfplay.play_batch`), ``"scalar"`` one by one on the scalar engine; both
    draw the same random numbers in the same order and train on the same samples (tested bit for bit)."""
    samples = Samples()
    losses: list[float] = []
    scores: list[float] = []
    for first in range(start, stop, ctx.batch_deals):
        batch = []
        for i in range(first, min(stop, first + ctx.batch_deals)):
            deal = make(ctx, nets, rng, i, epsilon(ctx, i, total))
            if ctx.engine == "scalar":
                facts = play_deal(deal[0], deal[1], rng)
                for s, learn in deal[2].items():
                    collect(deal[1][s], facts[s], learn, samples)
                scores.append(metric(facts, deal))
            else:
                for brain in deal[1]:
                    brain.new_deal(rng)
                batch.append(deal)
        if batch:
            played = play_batch(nets, VectorDeals.from_deals([d[0] for d in batch]), Seats.of([d[1] for d in batch]))
            collect_batch(played, [d[2] for d in batch], samples)
            scores.extend(metric(played.facts[k], d) for k, d in enumerate(batch))
        losses.extend(train_samples(nets, samples, replay, ctx, rng).values())
        progress(min(stop, first + ctx.batch_deals) - first)
    return float(np.mean(losses)) if losses else float("nan"), float(np.mean(scores))


# Decision data -----------------------------------------------------------------------------
def moon_labels(ctx: Context, nets: NetSet, rng: np.random.Generator, i: int, random_passes: bool,
                filtered: bool) -> tuple[list[np.ndarray], list[float]]:
    """One deal with a moon seat: its dealt-hand state, labelled 1 if it shot the moon."""
    seat = i % 4
    styles = ["moon" if s == seat else "normal" for s in range(4)]
    seats = brains(nets, styles, [0.0] * 4, random_passes)
    facts = play_deal(moon_deal(ctx.rules, rng, nets, seat, filtered), seats, rng)
    return [seats[seat].records.moon_row], [float(facts[seat].taken == MOON_TOTAL)]  # type: ignore[list-item]


def breaker_labels(ctx: Context, nets: NetSet, rng: np.random.Generator, i: int) -> tuple[list[np.ndarray],
                                                                                            list[float]]:
    """One deal with a moon seat (filtered deal) and three normal seats: every state where a normal
    seat saw one other seat holding every point so far, labelled 1 if that seat shot the moon."""
    shooter = i % 4
    styles = ["moon" if s == shooter else "normal" for s in range(4)]
    seats = brains(nets, styles, [0.0] * 4)
    facts = play_deal(moon_deal(ctx.rules, rng, nets, shooter, True), seats, rng)
    rows, labels = [], []
    for s in range(4):
        if s != shooter:
            for row, holder in seats[s].records.threat_rows:
                rows.append(row)
                labels.append(float(facts[s].moon_shooter == holder))
    return rows, labels


def moon_label_batch(ctx: Context, nets: NetSet, rng: np.random.Generator, first: int, stop: int,
                     random_passes: bool, filtered: bool, counterfactual: bool = False) -> dict[str, np.ndarray]:
    """:func:`moon_labels` for deals ``first..stop-1`` at once on the batched engine: ``rows`` (the
    moon seat's dealt hand), ``labels``, ``attempt`` (its points when it plays the moon style) and,
    with ``counterfactual``, ``normal`` (its points when it plays the same deal the normal way —
    what the calibrated threshold compares; NaN otherwise)."""
    deals, seatings = [], []
    for i in range(first, stop):
        seat = i % 4
        deal = moon_deal(ctx.rules, rng, nets, seat, filtered)
        for style in ("moon", "normal") if counterfactual else ("moon",):
            seats = brains(nets, [style if s == seat else "normal" for s in range(4)], [0.0] * 4, random_passes)
            for brain in seats:
                brain.new_deal(rng)
            deals.append(deal)
            seatings.append(seats)
    played = play_batch(nets, VectorDeals.from_deals(deals), Seats.of(seatings))
    step = 2 if counterfactual else 1
    t = np.arange(0, len(deals), step)
    moon_seat = np.arange(first, stop) % 4
    taken = np.array([played.facts[k][s].taken for k, s in zip(t, moon_seat)])
    points = played.points.astype(np.float64)
    return {"rows": played.moon_rows[t, moon_seat], "labels": (taken == MOON_TOTAL).astype(np.float32),
            "attempt": points[t, moon_seat],
            "normal": points[t + 1, moon_seat] if counterfactual else np.full(len(t), np.nan)}


def breaker_label_batch(ctx: Context, nets: NetSet, rng: np.random.Generator, first: int,
                        stop: int) -> dict[str, np.ndarray]:
    """:func:`breaker_labels` for deals ``first..stop-1`` at once on the batched engine, in the same order."""
    deals, seatings, shooters = [], [], []
    for i in range(first, stop):
        shooter = i % 4
        deal = moon_deal(ctx.rules, rng, nets, shooter, True)
        seats = brains(nets, ["moon" if s == shooter else "normal" for s in range(4)], [0.0] * 4)
        for brain in seats:
            brain.new_deal(rng)
        deals.append(deal)
        seatings.append(seats)
        shooters.append(shooter)
    played = play_batch(nets, VectorDeals.from_deals(deals), Seats.of(seatings))
    which, seat, rows, holder = played.threats
    keep = seat != np.array(shooters, dtype=np.intp)[which] if len(which) else np.zeros(0, bool)
    order = np.lexsort((seat[keep], which[keep]))  # the scalar order: deal by deal, seat by seat
    which, seat, rows, holder = which[keep][order], seat[keep][order], rows[keep][order], holder[keep][order]
    labels = np.array([played.facts[d][s].moon_shooter == h for d, s, h in zip(which, seat, holder)], np.float32)
    return {"rows": rows.reshape(-1, 52), "labels": labels}


# Decision data in parallel: labelled deals in fixed units, each from its own seed, on ``jobs`` processes.
# A unit is ``size`` consecutive deals ``k·size … (k+1)·size − 1`` of a step, played on the batched engine
# from ``default_rng([seed, step, k])``; units are consumed in order, so the data are the same for any
# number of processes.
CALIBRATION_UNITS = 1_000_000
"""Unit numbers of the moonshot calibration hands start here (apart from the training data's)."""


def unit(kind: str, ctx: Context, nets: NetSet, seed: int, step: int, k: int, size: int,
         options: tuple[bool, bool], counterfactual: bool = False) -> dict[str, np.ndarray]:
    """Labelled data of unit ``k`` (deals ``k·size`` to ``(k+1)·size − 1``) of step ``step``."""
    rng = np.random.default_rng([seed, step, k])
    first = k * size
    if kind == "decide_moon":
        return moon_label_batch(ctx, nets, rng, first, first + size, *options, counterfactual=counterfactual)
    return breaker_label_batch(ctx, nets, rng, first, first + size)


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

    def units(self, kind: str, ctx: Context, nets: NetSet, seed: int, step: int, first: int, count: int,
              size: int, options: tuple[bool, bool], counterfactual: bool = False) -> list[dict[str, np.ndarray]]:
        """Units ``first … first + count − 1``, in order."""
        ks = range(first, first + count)
        n = len(ks)
        return list(self.map(unit, [kind] * n, [ctx] * n, [nets] * n, [seed] * n, [step] * n, ks, [size] * n,
                             [options] * n, [counterfactual] * n))


# Decision networks: fit and calibrate ------------------------------------------------------------
def fit_classifier(net: ValueNet, rows: np.ndarray, labels: np.ndarray, ctx: Context, epochs: int,
                   threshold: float, rng: np.random.Generator) -> dict[str, float]:
    """Fit a decision network (sigmoid output, MSE, SGD) on 80% of the data as it comes (no
    resampling: the output estimates the probability of the label, so a threshold means what it
    says); test statistics on the other 20%, with a reliability table (mean output vs observed rate
    per output decile)."""
    order = rng.permutation(len(labels))
    cut = int(0.8 * len(labels))
    train, test = order[:cut], order[cut:]
    for _ in range(epochs):
        shuffled = train[rng.permutation(len(train))]
        train_rows(net, rows[shuffled], labels[shuffled], ctx.lr, ctx.minibatch)
    p = net.values_of_rows(rows[test]) if len(test) else np.zeros(0)
    yt = labels[test]
    above = p > threshold
    bins = np.quantile(p, np.linspace(0, 1, 11)) if len(test) else np.zeros(0)
    which = np.clip(np.searchsorted(bins, p, side="right") - 1, 0, 9) if len(test) else np.zeros(0, int)
    reliability = [[float(p[which == k].mean()), float(yt[which == k].mean()), int((which == k).sum())]
                   for k in range(10) if (which == k).any()]
    return {"samples": float(len(labels)), "positive_rate": float(labels.mean()) if len(labels) else 0.0,
            "test_mse": float(np.mean((p - yt) ** 2)) if len(test) else float("nan"),
            "test_accuracy": float(np.mean((p > 0.5) == (yt > 0.5))) if len(test) else float("nan"),
            "test_above_threshold": float(above.mean()) if len(test) else 0.0,
            "test_success_above_threshold": float(yt[above].mean()) if above.any() else float("nan"),
            "test_success_below_threshold": float(yt[~above].mean()) if (~above).any() else float("nan"),
            "reliability": reliability}  # type: ignore[dict-item]


def calibrate_moon(net: ValueNet, data: dict[str, np.ndarray]) -> dict[str, float]:
    """The moonshot threshold that minimises the seat's points on hands played both ways
    (``data`` from :func:`moon_label_batch` with ``counterfactual``): attempt where the decision
    network's output exceeds it. Candidates: every output on the data, and "never" (above 1)."""
    p = net.values_of_rows(data["rows"])
    attempt, normal = data["attempt"], data["normal"]
    order = np.argsort(-p)
    # points if the top-k hands attempt and the others play normally, for k = 0..n
    gain = np.concatenate([[0.0], np.cumsum((attempt - normal)[order])])
    k = int(np.argmin(gain))
    threshold = 1.0 if k == 0 else float(p[order[k - 1]] - 1e-12)
    above = p > threshold
    return {"threshold": threshold, "hands": float(len(p)), "attempt_rate": float(above.mean()),
            "points_never": float(normal.mean()), "points_calibrated": float(normal.mean() + gain[k] / len(p)),
            "success_above": float(data["labels"][above].mean()) if above.any() else float("nan")}


BREAKER_CANDIDATES = (0.0, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9, 0.96, 0.99, 1.01)


def breaker_points(ctx: Context, nets: NetSet, seed: Sequence[int], deals: int, threshold: float) -> float:
    """Mean points of the focal seat in :func:`calibrate_breaker`'s deals (made from ``seed``, so every
    candidate, in any process, plays the same deals) when it breaks above ``threshold``."""
    rng = np.random.default_rng(list(seed))
    base = [random_deal(ctx.rules, rng) for _ in range(deals)]
    focal = np.arange(deals) % 4
    seatings = []
    for i in range(deals):
        seats = brains(nets, [None] * 4, [0.0] * 4)
        for brain in seats:
            brain.new_deal(rng)  # no exploration: the draws are not used
        seats[focal[i]].breaker_threshold = threshold
        seatings.append(seats)
    played = play_batch(nets, VectorDeals.from_deals(base), Seats.of(seatings))
    return float(played.points[np.arange(deals), focal].mean())


def calibrate_breaker(ctx: Context, nets: NetSet, seed: Sequence[int], deals: int,
                      candidates: tuple[float, ...] = BREAKER_CANDIDATES,
                      map_fn: Callable[..., Iterable[float]] = map) -> dict[str, object]:
    """The breaker threshold that minimises the points of the seat that uses it, measured by play:
    ``deals`` plain random deals of four full players (the moonshot decision picks each seat's style;
    the breaker decision at the networks' current threshold), one seat per deal (rotating) playing
    with the candidate threshold instead; the same deals for every candidate (1.01: never break).
    ``map_fn`` may run the candidates in parallel. Returns the best threshold and every candidate's
    mean points of that seat."""
    n = len(candidates)
    results = list(map_fn(breaker_points, [ctx] * n, [nets] * n, [tuple(seed)] * n, [deals] * n, candidates))
    points = dict(zip(candidates, results))
    best = min(points, key=lambda t: points[t])
    return {"threshold": best, "deals": deals, "points": {str(k): v for k, v in points.items()}}
