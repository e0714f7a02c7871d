"""Paper 003's self-play training on the batched engine, and the same play on the scalar engine.

All four seats are the same network, all learning (the thesis's NN agents). Each decision is
recorded as (observation, trick, card, points taken before the trick); when the deal ends, the
target of each is the thesis's Monte Carlo return (Eq. 2.1) — minus the points the seat takes
from that trick to the end of the deal, the moon applied: ``G = −(P_final − P_before)``
(``P_final`` the deal's points after the moon rule, ``P_before`` the raw points taken before the
trick; without a moon this is −Σ r_i over the remaining tricks). Then :func:`~.update.sgd` learns
from the samples one by one, row by row, seat by seat, trick by trick.

Batching: :func:`play_batch` plays ``B`` deals in lockstep (:class:`~hearts_env.vector.VectorDeals`,
the batch ``dutch107`` encoder, one network call per trick position for all rows); the weights
are frozen during a batch of deals and updated after it, where the thesis updates after every
deal. ``B = 1`` is the thesis's schedule; :func:`play_deal` is the scalar engine's version of one
deal, which the tests hold the batch to sample for sample.

Exploration (the thesis: "ε = 0.1, decreasing by 0.001 per game"): ε-greedy with ε = 0.1 − 0.001 ×
epoch, floored at 0, where an epoch is :data:`EPOCH_DEALS` deals — the thesis's epoch is a game
to 1,000 points, about 200 deals. Games: each row plays games to ``rules.target`` (100, the unit of
the thesis's evaluation, so the score inputs see at training the range they see in play), each
game starting from zero scores, the dealer moving left every deal.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hearts_baselines.dutchnn.model import DutchNet, batch_cards, best_legal
from hearts_baselines.dutchnn.update import compiled
from hearts_env import Deal, Phase, SeatView
from hearts_env.encoders import make_encoder
from hearts_env.encoders.dutch107 import Dutch107Encoder
from hearts_env.rules import Rules, make_rules
from hearts_env.tables import tables_of
from hearts_env.vector import VectorDeals, kth_cards, penalty_points
from hearts_env.vector.encoders import make_batch_encoder

EPOCH_DEALS = 200
EPSILON_START, EPSILON_DECAY = 0.1, 0.001
LEARNING_RATE = 0.001


def epsilon_at(deals_done: int) -> float:
    """The exploration rate after ``deals_done`` training deals (see the module docstring)."""
    return max(0.0, EPSILON_START - EPSILON_DECAY * (deals_done // EPOCH_DEALS))


def check_rules(rules: Rules | str) -> Rules:
    """The rules the networks can learn and play: those of the ``dutch107`` encoding, the 32-card deck
    (their 32 outputs); refused by name otherwise."""
    rules = make_rules(rules)
    Dutch107Encoder.check_rules(rules)
    return rules


@dataclass
class Samples:
    """Decisions of finished deals and their returns, in learning order."""

    x: np.ndarray
    """(N, 107) float32 observations."""
    tricks: np.ndarray
    """(N,) trick index 0–7 (which network)."""
    actions: np.ndarray
    """(N,) the card played."""
    targets: np.ndarray
    """(N,) float64 the Monte Carlo return (minus points from this trick to the end, moon applied)."""

    def __len__(self) -> int:
        return len(self.actions)


def play_batch(net: DutchNet, deals: VectorDeals, epsilon: float, rng: np.random.Generator) -> Samples:
    """Play every row to its end, all seats by ``net`` (ε-greedy); the samples in order
    (row, seat, trick). Passing phases (if the rules have them) are played at random and not learned."""
    b, tricks = deals.size, deals.tables.hand_size
    encoder = make_batch_encoder("dutch107", deals.rules)
    rows = deals.rows
    x = np.zeros((b, 4, tricks, encoder.size), np.float32)
    actions = np.full((b, 4, tricks), -1, np.int64)
    before = np.zeros((b, 4, tricks), np.int64)
    point_tables = tables_of(deals.rules)
    while not deals.done.all():
        live = ~deals.done
        legal = deals.legal_masks()
        explore = rng.random(b) < epsilon
        random_cards = kth_cards(legal, rng.random(b))
        playing = live & (deals.phase == int(Phase.PLAY))
        if not playing.any():  # passing (not in the thesis's rules): random, not learned
            deals.step(np.where(live, random_cards, -1))
            continue
        seats = deals.current.astype(np.intp)
        t = deals.trick_index.astype(np.intp)
        obs = encoder.encode(deals, seats)
        greedy = best_legal(net.values(obs, t), np.where(playing, legal, np.uint64(1)))
        cards = np.where(playing, np.where(explore, random_cards, greedy), np.where(live, random_cards, -1))
        r, s, k = rows[playing], seats[playing], t[playing]
        x[r, s, k] = obs[playing]
        actions[r, s, k] = cards[playing]
        before[r, s, k] = penalty_points(deals.taken[r, s], point_tables)
        deals.step(cards)
    return _samples(x, actions, before, deals.points)


def play_deal(net: DutchNet, deal: Deal, epsilon: float, rng: np.random.Generator) -> Samples:
    """:func:`play_batch` for one :class:`~hearts_env.engine.Deal` on the scalar engine (SeatView and the
    scalar encoder), one network call per decision; the reference the batch is tested against, and
    the scalar speed the benchmark reports."""
    encoder = make_encoder("dutch107", deal.rules)
    point_tables = tables_of(deal.rules)
    tricks = deal.rules.deck_obj.hand_size
    x = np.zeros((4, tricks, encoder.size), np.float32)
    actions = np.full((4, tricks), -1, np.int64)
    before = np.zeros((4, tricks), np.int64)
    while not deal.is_over:
        seat = deal.current
        view = SeatView.of(deal, seat)
        legal = [c for c in range(32) if view.legal >> c & 1]
        explore = rng.random() < epsilon
        random_card = legal[int(rng.random() * len(legal))]
        if view.phase != Phase.PLAY:
            deal.apply(random_card)
            continue
        obs = encoder.encode(view)
        t = view.trick_index
        greedy = int(best_legal(net.values(obs[None], np.array([t])), np.array([view.legal], np.uint64))[0])
        card = random_card if explore else greedy
        x[seat, t], actions[seat, t] = obs, card
        before[seat, t] = point_tables.penalty_points_of(view.taken[seat])
        deal.apply(card)
    assert deal.points is not None
    return _samples(x, actions, before, np.asarray(deal.points))


def _samples(x: np.ndarray, actions: np.ndarray, before: np.ndarray, points: np.ndarray) -> Samples:
    """The decisions recorded per (…, seat, trick) — ``actions`` −1 where none — as samples in that
    order, each with its return from the deal's final points (``points`` (…, seat))."""
    targets = -(points[..., None] - before).astype(np.float64)
    keep = actions.reshape(-1) >= 0
    trick_of = np.broadcast_to(np.arange(actions.shape[-1]), actions.shape).reshape(-1)
    return Samples(x.reshape(-1, x.shape[-1])[keep], trick_of[keep], actions.reshape(-1)[keep],
                   targets.reshape(-1)[keep])


def learn(net: DutchNet, samples: Samples, lr: float = LEARNING_RATE) -> float:
    """One SGD step per sample, in order (:func:`~.update.sgd`); returns the mean squared error
    before the updates. ``net`` must hold float64 weights."""
    if net.w1.dtype != np.float64:
        raise ValueError("learn() updates float64 weights: train a net.astype(np.float64) copy")
    if not len(samples):
        return 0.0
    sse = compiled()(net.w1, net.b1, net.w2, net.b2, samples.x, samples.tricks.astype(np.int64),
                     samples.actions, samples.targets, lr)
    return float(sse) / len(samples)


def versus(net: DutchNet, opponents: str = "heuristic", deals: int = 1024, seed: int = 0,
           rules: Rules | str = "dutch") -> tuple[float, float]:
    """Mean points per deal of ``net`` (greedy, ε = 0) in one seat against three ``opponents``
    (a player the batched engine runs: random, greedy, heuristic), and of the opponents' seats, over
    ``deals`` deals each played in the four rotations (duplicate): the training curve's check."""
    rules = check_rules(rules)
    rng = np.random.default_rng(seed)
    base = VectorDeals.random(rules, deals, rng)
    encoder = make_batch_encoder("dutch107", rules)
    mine, others = [], []
    for seat in range(4):
        batch = base.take(base.rows)
        learner = np.full(deals, seat, np.int8)
        while True:
            batch.advance(learner, opponents, rng)
            if batch.done.all():
                break
            cards = batch_cards(net, batch, encoder, acting=~batch.done)
            passing = ~batch.done & (batch.phase == int(Phase.PASS))  # the thesis does not pass: heuristic passes
            if passing.any():
                cards = np.where(passing, batch.policy_actions("heuristic"), cards)
            batch.step(cards)
        points = batch.points.astype(np.float64)
        mine.append(points[:, seat].mean())
        others.append((points.sum(axis=1) - points[:, seat]).mean() / 3)
    return float(np.mean(mine)), float(np.mean(others))
