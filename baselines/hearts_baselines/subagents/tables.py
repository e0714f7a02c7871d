"""The self-play tables of each training step: which seats play which style, and which deals.

Moon deals are **filtered** by the moonshot decision network (paper 000 §4.3: "the decision agents
are used to filter out some games ... to train on more balanced data"): half of them are the most
promising of ``FILTER_DRAWS`` random deals for the moon seat, half are plain random deals.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from hearts_baselines.subagents.features import dealt_positions, play_row
from hearts_baselines.subagents.policy import Brain
from hearts_baselines.subagents.weights import NetSet
from hearts_env.engine import Deal
from hearts_env.rules import Rules

FILTER_DRAWS = 8


def random_deal(rules: Rules, rng: np.random.Generator) -> Deal:
    """A shuffled deal with a pass direction drawn uniformly (left, right, across, hold)."""
    return Deal.random(rules, rng, pass_direction=int(rng.integers(4)))


def moon_deal(rules: Rules, rng: np.random.Generator, nets: NetSet, seat: int, filtered: bool) -> Deal:
    """A deal for a moon attempt by ``seat``: with ``filtered``, half the time the best of several."""
    if not filtered or rng.random() < 0.5:
        return random_deal(rules, rng)
    deals = [random_deal(rules, rng) for _ in range(FILTER_DRAWS)]
    rows = np.array([play_row(dealt_positions(d.dealt[seat])) for d in deals])
    return deals[int(np.argmax(nets["decide_moon"].values_of_rows(rows)))]


def brains(nets: NetSet, styles: Sequence[str | None], epsilons: Sequence[float], random_passes: bool = False,
           explore: frozenset[str] | None = None) -> list[Brain]:
    """Four seats (style None: the full player); ``epsilon`` explores only in the networks named in
    ``explore`` (the learning ones)."""
    return [Brain(nets, style=s, epsilon=e, random_passes=random_passes, explore=explore)
            for s, e in zip(styles, epsilons)]
