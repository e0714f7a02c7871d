"""The training steps of the pipeline (paper 000 §4.2–4.3), each a function of a :class:`Context`.

Reinforcement steps play self-play deals with some seats learning, and after every ``batch_deals``
deals run one SGD pass over the states those deals produced (the paper trains "at the end of each
round"). Decision steps play deals to label hands, then fit a classifier.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from hearts_baselines.subagents.features import PLAY_SIZE, dense
from hearts_baselines.subagents.net import ValueNet
from hearts_baselines.subagents.policy import Brain
from hearts_baselines.subagents.replay import Replay
from hearts_baselines.subagents.rewards import MOON_TOTAL, DealFacts
from hearts_baselines.subagents.selfplay import Samples, collect, play_deal
from hearts_baselines.subagents.tables import brains, moon_deal, random_deal
from hearts_baselines.subagents.weights import NET_INPUTS, NetSet
from hearts_env.engine import Deal
from hearts_env.rules import Rules

Table = tuple[Deal, list[Brain], dict[int, set[str]]]
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


def epsilon(ctx: Context, done: int, total: int) -> float:
    return ctx.eps_start + (ctx.eps_end - ctx.eps_start) * min(1.0, done / max(1, total))


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
        batch = [replay.sample(name, ctx.minibatch, rng) for _ in range(steps)]
        x = dense(np.concatenate([b[0] for b in batch]), NET_INPUTS[name])
        target = np.concatenate([b[1] for b in batch])
        net = nets[name]
        losses[name] = float(np.mean([net.sgd_step(x[k:k + ctx.minibatch], target[k:k + ctx.minibatch], ctx.lr)
                                      for k in range(0, len(target), ctx.minibatch)]))
    samples.clear()
    return losses


# Tables of the reinforcement steps ---------------------------------------------------------
def normal_table(learn: set[str], random_passes: bool) -> Callable[..., Table]:
    """Four normal seats, all learning ``learn`` (self-play)."""
    def make(ctx: Context, nets: NetSet, rng: np.random.Generator, i: int, eps: float) -> Table:
        return (random_deal(ctx.rules, rng), brains(nets, ["normal"] * 4, [eps] * 4, random_passes, frozenset(learn)),
                dict.fromkeys(range(4), learn))
    return make


def moon_table(learn: set[str], random_passes: bool, filtered: bool) -> Callable[..., Table]:
    """One moon seat (rotating) learning ``learn``; three frozen normal seats."""
    def make(ctx: Context, nets: NetSet, rng: np.random.Generator, i: int, eps: float) -> Table:
        seat = i % 4
        styles = ["moon" if s == seat else "normal" for s in range(4)]
        eps_list = [eps if s == seat else 0.0 for s in range(4)]
        return (moon_deal(ctx.rules, rng, nets, seat, filtered),
                brains(nets, styles, eps_list, random_passes, frozenset(learn)), {seat: learn})
    return make


def breaker_table(ctx: Context, nets: NetSet, rng: np.random.Generator, i: int, eps: float) -> Table:
    """A moon seat on a filtered deal, a learning breaker seat after it, two normal seats."""
    shooter = i % 4
    breaker = (shooter + 1 + i // 4 % 3) % 4
    styles = ["moon" if s == shooter else "breaker" if s == breaker else "normal" for s in range(4)]
    eps_list = [eps if s == breaker else 0.0 for s in range(4)]
    seats = brains(nets, styles, eps_list, explore=frozenset({"play_breaker"}))
    return moon_deal(ctx.rules, rng, nets, shooter, True), seats, {breaker: {"play_breaker"}}


EVAL_DEALS = 40


def eval_vs_greedy(ctx: Context, nets: NetSet, random_passes: bool, deals: int = EVAL_DEALS) -> float:
    """Mean points of one normal seat (no exploration) against three ``greedy`` seats, over fixed deals."""
    from hearts_env.agents import make_agent
    from hearts_env.views import SeatView

    rng = np.random.default_rng(12345)
    points = []
    for i in range(deals):
        deal = random_deal(ctx.rules, rng)
        me = i % 4
        brain = Brain(nets, style="normal", random_passes=random_passes)
        brain.new_deal(np.random.default_rng(i))
        others = {s: make_agent("greedy") for s in range(4) if s != me}
        for s, agent in others.items():
            agent.reset(ctx.rules, s, [i, s])
        while not deal.is_over:
            seat = deal.current
            view = SeatView.of(deal, seat)
            if seat == me:
                deal.apply(brain.act(view))
            else:
                deal.apply(others[seat].act(view))
        points.append(deal.points[me])  # type: ignore[index]
    return float(np.mean(points))


def metric(facts: list[DealFacts], table: Table) -> float:
    """The learning curve's score of a deal: the learning seats' points received, or for a moon
    seat 1 if it shot the moon, or for a breaker 1 if another seat shot the moon."""
    learners = table[2]
    values = []
    for s, learn in learners.items():
        if learn & {"play_moon", "pass_moon"}:
            values.append(float(facts[s].taken == MOON_TOTAL))
        elif "play_breaker" in learn:
            values.append(float(facts[s].moon_shooter not in (None, s)))
        else:
            return float("nan")  # self-play points average 6.5: scored by eval_vs_greedy instead
    return float(np.mean(values))


def rl_chunk(ctx: Context, nets: NetSet, make: Callable[..., Table], start: int, stop: int, total: int,
             rng: np.random.Generator, progress: Callable[[int], None], replay: Replay) -> tuple[float, float]:
    """Deals ``start..stop-1`` of a reinforcement step; (mean loss, mean metric) of the chunk."""
    samples = Samples()
    losses: list[float] = []
    scores: list[float] = []
    for i in range(start, stop):
        table = make(ctx, nets, rng, i, epsilon(ctx, i, total))
        deal, seats, learners = table
        facts = play_deal(deal, seats, rng)
        for s, learn in learners.items():
            collect(seats[s], facts[s], learn, samples)
        scores.append(metric(facts, table))
        if (i + 1 - start) % ctx.batch_deals == 0 or i + 1 == stop:
            losses.extend(train_samples(nets, samples, replay, ctx, rng).values())
        progress(1)
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


def fit_classifier(net: ValueNet, rows: np.ndarray, labels: np.ndarray, ctx: Context, epochs: int,
                   threshold: float, rng: np.random.Generator) -> dict[str, float]:
    """Fit a decision network (sigmoid output, MSE, SGD) on 80% of the data, positives oversampled to
    balance the classes; test statistics on the other 20%."""
    order = rng.permutation(len(labels))
    cut = int(0.8 * len(labels))
    train, test = order[:cut], order[cut:]
    pos, neg = train[labels[train] > 0.5], train[labels[train] <= 0.5]
    if len(pos) and len(neg):
        train = np.concatenate([neg, rng.choice(pos, size=len(neg), replace=True)])
    x, y = dense(rows[train], PLAY_SIZE), labels[train]
    for _ in range(epochs):
        net.fit_epoch(x, y, ctx.lr, ctx.minibatch, rng)
    p = net.predict(dense(rows[test], PLAY_SIZE)) if len(test) else np.zeros(0)
    yt = labels[test]
    above = p > threshold
    return {"samples": float(len(labels)), "positive_rate": float(labels.mean()) if len(labels) else 0.0,
            "test_mse": float(np.mean((p - yt) ** 2)) if len(test) else float("nan"),
            "test_accuracy": float(np.mean((p > 0.5) == (yt > 0.5))) if len(test) else float("nan"),
            "test_above_threshold": float(above.mean()) if len(test) else 0.0,
            "test_success_above_threshold": float(yt[above].mean()) if above.any() else float("nan"),
            "test_success_below_threshold": float(yt[~above].mean()) if (~above).any() else float("nan")}
