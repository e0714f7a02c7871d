"""Deals played by :class:`~hearts_baselines.subagents.policy.Brain` seats through the public engine,
turned into training samples with the rewards of Tables 1 and 2."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from hearts_baselines.subagents.policy import Brain
from hearts_baselines.subagents.rewards import DealFacts, deal_facts, play_target, terminal
from hearts_env.engine import Deal
from hearts_env.views import SeatView

STYLE_OF = {"play_normal": "normal", "play_moon": "moon", "play_breaker": "breaker",
            "pass_normal": "normal", "pass_moon": "moon"}


@dataclass
class Samples:
    """Training rows and targets per network, gathered over deals."""

    rows: dict[str, list[np.ndarray]] = field(default_factory=dict)
    targets: dict[str, list[float]] = field(default_factory=dict)

    def add(self, name: str, row: np.ndarray, target: float) -> None:
        self.rows.setdefault(name, []).append(row)
        self.targets.setdefault(name, []).append(target)

    def arrays(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        return np.array(self.rows.get(name, []), dtype=np.int16), np.array(self.targets.get(name, []), np.float32)

    def clear(self) -> None:
        self.rows.clear()
        self.targets.clear()


def play_deal(deal: Deal, brains: list[Brain], rng: np.random.Generator) -> list[DealFacts]:
    """Play ``deal`` to the end with one brain per seat; the deal facts of every seat."""
    for brain in brains:
        brain.new_deal(rng)
    while not deal.is_over:
        seat = deal.current
        deal.apply(brains[seat].act(SeatView.of(deal, seat)))
    return [deal_facts(SeatView.of(deal, s)) for s in range(4)]


def collect(brain: Brain, facts: DealFacts, learn: set[str], samples: Samples) -> None:
    """Add the seat's states of the networks in ``learn`` with their targets."""
    for name, row, trick in brain.records.plays:
        if name in learn:
            samples.add(name, row, play_target(STYLE_OF[name], facts, trick))
    if brain.records.passing is not None:
        name, row = brain.records.passing
        if name in learn:
            samples.add(name, row, terminal(STYLE_OF[name], facts))
