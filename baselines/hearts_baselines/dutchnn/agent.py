"""Paper 003's NN agent (spec ``dutchnn``): the per-trick network's highest-valued legal card.

``dutchnn(brain=strongman2)`` plays a bundled brain of the thesis — ``nnai2`` (500 epochs),
``strongman`` (3,000) or ``strongman2`` (10,000), trained by
``python -m hearts_baselines.dutchnn.train --brain strongman2 --seed 0 --out runs/dutchnn --bundle``
— and ``dutchnn(weights='path.npz')`` any network that command wrote. ``epsilon`` keeps the
thesis's ε-greedy exploration at play (the thesis's comparisons ran with ε = 0.1; 0 by default).
It plays the 32-card deck only (its 32 outputs); the thesis's rules do not pass, so passes (with
rules that have them) go to ``passing`` (``heuristic``).

:meth:`DutchNNAgent.act_batch` plays the seat to act in every row of a
:class:`~hearts_env.vector.VectorDeals` in one network call — the rollout policy of the thesis's
rollout agent, ``pimc(policy='dutchnn(...)', rank='dutchnn(...)')``, runs through it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from hearts_baselines.dutchnn.model import DutchNet, batch_cards, best_legal
from hearts_baselines.dutchnn.train import BRAINS, bundled_path
from hearts_baselines.dutchnn.training import check_rules
from hearts_env import Phase, SeatView
from hearts_env.agents import Agent, make_agent
from hearts_env.encoders import make_encoder
from hearts_env.rules import Rules
from hearts_env.vector import VectorDeals, kth_cards, policy_name
from hearts_env.vector.encoders import make_batch_encoder


class DutchNNAgent(Agent):
    """See the module docstring."""

    name = "dutchnn"

    def __init__(self, brain: str = "strongman2", weights: str | None = None, epsilon: float = 0.0,
                 passing: str = "heuristic"):
        super().__init__()
        if brain not in BRAINS:
            raise ValueError(f"dutchnn: brain={brain!r} is not bundled; bundled brains: {', '.join(BRAINS)} "
                             f"(or weights='path.npz' from python -m hearts_baselines.dutchnn.train)")
        if isinstance(epsilon, bool) or not isinstance(epsilon, int | float) or not 0 <= epsilon <= 1:
            raise ValueError(f"dutchnn: epsilon must be a number in [0, 1], got {epsilon!r}")
        path = Path(weights) if weights is not None else bundled_path(brain)
        self.net = DutchNet.load(path).astype(np.float32)
        self.weights_file = path
        self.brain = brain if weights is None else str(path)
        self.epsilon = float(epsilon)
        self.passing = passing
        self.passer = make_agent(passing)
        self._encoders: dict = {}

    def reset(self, rules: Rules, seat: int, seed: int | Sequence[int] | None = None) -> None:
        if rules != self.rules:
            check_rules(rules)
        super().reset(rules, seat, seed)
        self.passer.reset(rules, seat, int(self.rng.integers(2**63)))

    def _encoder(self, rules: Rules, batch: bool):
        key = (rules, batch)
        if key not in self._encoders:
            self._encoders[key] = (make_batch_encoder if batch else make_encoder)("dutch107", rules)
        return self._encoders[key]

    def values(self, view: SeatView) -> np.ndarray:
        """(32,) the network's value of every card at this decision (legal or not)."""
        x = self._encoder(view.rules, batch=False).encode(view)
        return self.net.values(x[None], np.array([view.trick_index]))[0]

    def act(self, view: SeatView) -> int:
        if view.phase == Phase.PASS:
            return self.passer.act(view)
        if self.epsilon and self.rng.random() < self.epsilon:
            legal = [c for c in range(32) if view.legal >> c & 1]
            return legal[int(self.rng.random() * len(legal))]
        return int(best_legal(self.values(view)[None], np.array([view.legal], np.uint64))[0])

    def act_batch(self, deals: VectorDeals) -> np.ndarray:
        """(B,) the card of the seat to act in each unfinished row (−1 in finished ones)."""
        live = ~deals.done
        cards = batch_cards(self.net, deals, self._encoder(deals.rules, batch=True), acting=live)
        if self.epsilon:
            explore = live & (deals.phase == int(Phase.PLAY)) & (self.rng.random(deals.size) < self.epsilon)
            cards = np.where(explore, kth_cards(deals.legal_masks(), self.rng.random(deals.size)), cards)
        passing = live & (deals.phase == int(Phase.PASS))
        if passing.any():
            if policy_name(self.passing) in (None, "random"):
                raise NotImplementedError(f"dutchnn in batch passes with a rule player the batched engine runs "
                                          f"(greedy, heuristic); passing={self.passing!r}")
            cards = np.where(passing, deals.policy_actions(self.passing), cards)
        return cards
