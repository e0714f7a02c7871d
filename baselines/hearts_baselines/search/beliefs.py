"""Beliefs about the hidden cards: sampled worlds weighted by how likely the other seats' plays were in each.

:func:`hearts_env.worlds.sample_world_batch` draws the worlds a seat cannot rule out uniformly: every deal of
the hidden cards that fits the hand sizes, the voids shown and the legality of every play is equally likely.
Play says more than legality — a seat that ducked under the ace probably held no lower card — and a search
that plays against the uniform belief plans for hands its opponents almost surely do not hold.

:func:`play_log_likelihoods` replays the deal in every sampled world from its start, on the batched engine: the
hands as dealt (each world's hands now plus what each seat has played, minus the cards it received, plus the
cards it passed), the passes (the seat's own and the cards it received as they were; the passes it never saw
drawn uniformly among the cards their receivers hold after the exchange, as :func:`hearts_env.worlds.sample_history`
draws them) and every play, and scores each play of the *other* seats under a model of how seats play:

- ``"heuristic"``: the bundled ``heuristic`` player's card gets probability 1 − ε, every other legal card an
  equal share of ε (the engine's kernel picks the card of every world at once);
- ``"apprentice"``: the bundled apprentice network's policy over the legal cards from the playing seat's own
  observation in that world, mixed with the uniform policy (weight ε) so that no world is ruled out by one
  surprising card.

Passes are replayed, not scored. :func:`resample` then draws the worlds a search plays, with probabilities
proportional to ``exp(log_likelihood)`` (systematic resampling): the proposal is uniform over the
histories the seat cannot rule out, so these are the importance weights of the belief the model implies.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from hearts_env import Phase, SeatView
from hearts_env.vector import VectorDeals, kth_cards

MODELS = ("heuristic", "apprentice")
U64 = np.uint64


def check_model(model: str, epsilon: float) -> None:
    """Refuse a belief model that would fail at the first move."""
    if model not in MODELS:
        raise ValueError(f"belief={model!r} is not a model of play: one of {', '.join(MODELS)} (or None: uniform)")
    if isinstance(epsilon, bool) or not isinstance(epsilon, int | float) or not 0 < epsilon <= 1:
        raise ValueError(f"epsilon (the uniform share of the belief model) must be in (0, 1], got {epsilon!r}")


def _draw_cards(masks: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """(B,) uint64: ``k`` cards drawn uniformly without replacement from each row's mask."""
    left, drawn = masks.copy(), np.zeros_like(masks)
    for _ in range(k):
        bit = U64(1) << kth_cards(left, rng.random(len(left))).astype(U64)
        drawn |= bit
        left &= ~bit
    return drawn


def histories(view: SeatView, worlds: VectorDeals, rng: np.random.Generator) -> VectorDeals:
    """Each world of ``worlds`` (rows in the play phase at the view's state) replayed from its hands as dealt
    through the passes: the deals at the start of the play, before the first card."""
    b, me, offset = worlds.size, view.seat, view.pass_direction
    after = worlds.hands | np.asarray(view.played_by, dtype=U64)[None, :]  # each seat's hand after the exchange
    passes = np.zeros((b, 4), U64)
    if offset:
        passes[:, me] = view.passed
        passes[:, (me - offset) % 4] = view.received
        for seat in range(4):
            if seat != me and seat != (me - offset) % 4:
                passes[:, seat] = _draw_cards(after[:, (seat + offset) % 4], view.rules.pass_count, rng)
    dealt = np.stack([after[:, s] & ~passes[:, (s - offset) % 4] | passes[:, s] for s in range(4)], axis=1)
    deals = VectorDeals(view.rules, dealt, np.full(b, offset), view.dealer, game_scores=np.asarray(view.game_scores))
    rows = np.arange(b)
    while (deals.phase == int(Phase.PASS)).any():  # each seat passes its cards lowest first
        seats = deals.current.astype(np.intp)
        cards = kth_cards(passes[rows, seats], np.zeros(b))
        passes[rows, seats] &= ~(U64(1) << cards.astype(U64))
        deals.step(cards)
    return deals


def heuristic_model(epsilon: float) -> Callable[[VectorDeals, int, int], np.ndarray]:
    """The ``heuristic`` player with probability 1 − ε, else a uniform legal card (see the module docstring)."""

    def log_likelihood(deals: VectorDeals, seat: int, card: int) -> np.ndarray:
        picked = deals.policy_actions("heuristic") == card
        choices = np.bitwise_count(deals.legal_masks()).astype(np.float64)
        p = np.where(choices <= 1, 1.0,
                     np.where(picked, 1 - epsilon + epsilon / choices, epsilon / np.maximum(choices, 1)))
        return np.log(p)

    return log_likelihood


def apprentice_model(epsilon: float, weights: str | None = None) -> Callable[[VectorDeals, int, int], np.ndarray]:
    """The apprentice's policy over the legal cards, mixed with the uniform one (see the module docstring)."""
    from hearts_baselines.apprentice.agent import BUNDLED, legal_matrix
    from hearts_baselines.apprentice.net import NumpyNet
    from hearts_env.vector.encoders import make_batch_encoder

    net = NumpyNet.load(weights or BUNDLED)
    encoders: dict = {}

    def log_likelihood(deals: VectorDeals, seat: int, card: int) -> np.ndarray:
        if deals.rules not in encoders:
            encoder = make_batch_encoder("rich", deals.rules)
            if encoder.size != net.hidden[0][0].shape[0]:
                raise ValueError(f"belief='apprentice': the apprentice reads the {net.hidden[0][0].shape[0]}-slot rich "
                                 f"observation; these rules ({deals.rules.deck} deck) give {encoder.size} slots")
            encoders[deals.rules] = encoder
        x = encoders[deals.rules].encode(deals, np.full(deals.size, seat, np.intp))
        legal = legal_matrix(deals.legal_masks(), deals.rules.deck_obj.size)
        logits = np.where(legal, net.policy_logits(x), -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        policy = np.exp(logits)
        policy /= policy.sum(axis=1, keepdims=True)
        p = (1 - epsilon) * policy[:, card] + epsilon / legal.sum(axis=1)
        return np.log(p)

    return log_likelihood


def play_log_likelihoods(view: SeatView, worlds: VectorDeals, model: Callable[[VectorDeals, int, int], np.ndarray],
                         rng: np.random.Generator) -> np.ndarray:
    """(B,) the log-likelihood, in each world of ``worlds``, of every play the other seats have made so far
    under ``model`` (:func:`heuristic_model`, :func:`apprentice_model`); the worlds replay from the deal's start."""
    deals = histories(view, worlds, rng)
    total = np.zeros(deals.size)
    for card in view.plays:
        seat = int(deals.current[0])
        if seat != view.seat:
            total += model(deals, seat, card)
        deals.step(np.full(deals.size, card, np.int64))
    return total


def resample(log_weights: np.ndarray, count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` row indices drawn with probabilities proportional to ``exp(log_weights)`` (systematic
    resampling: each row is drawn within one of its expected number of times)."""
    w = np.exp(log_weights - log_weights.max())
    cumulative = np.cumsum(w / w.sum())
    cumulative[-1] = 1.0
    return np.searchsorted(cumulative, (rng.random() + np.arange(count)) / count).astype(np.intp)


def effective_size(log_weights: np.ndarray) -> float:
    """Kish's effective sample size of the weights: how many equally weighted worlds they are worth."""
    w = np.exp(log_weights - log_weights.max())
    return float(w.sum() ** 2 / (w**2).sum())
