"""Train paper 002's Q-learning player: ``python -m hearts_baselines.qlearning.train``.

One-deal episodes of ``standard(game=deal)`` (every pass direction), the learner in a seat drawn
per deal against ``greedy``, ``greedy`` and ``random`` (the table of the paper's Fig. 14),
ε-greedy with the constants of :class:`~hearts_baselines.qlearning.agent.Hyper`. The same seed
gives the same table. Writes the table (JSON) every ``--save-every`` deals and at the end; the
paper saves after each game, and the run takes seconds, so there is nothing to resume.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from hearts_baselines.qlearning.agent import BUNDLED, Hyper, QLearningAgent, save_table
from hearts_baselines.run_args import arg, parse
from hearts_env.agents import make_agent
from hearts_env.engine import Deal
from hearts_env.rules import make_rules
from hearts_env.views import SeatView

OPPONENTS = ("greedy", "greedy", "random")


@dataclass
class Args:
    deals: int = arg(20_000, "training deals (default: %(default)s)")
    seed: int = arg(0, "seed of the deals and the exploration (default: 0)")
    out: Path = arg(BUNDLED, "where to write the table (default: the bundled file)")
    save_every: int = arg(1000, "write the table every N deals (default: 1000)")
    alpha: float = arg(Hyper.alpha, "(default: %(default)s)")
    gamma: float = arg(Hyper.gamma, "(default: %(default)s)")
    theta: float = arg(Hyper.theta, "(default: %(default)s)")
    epsilon: float = arg(Hyper.epsilon, "(default: %(default)s)")

    def __post_init__(self) -> None:
        if self.deals < 1:
            raise ValueError("--deals must be at least 1")


def train(deals: int, seed: int, rules_spec: str = "standard(game=deal)", hyper: Hyper | None = None,
          out: Path | None = None, save_every: int = 1000) -> QLearningAgent:
    """Play ``deals`` training deals; returns the learner (its ``q`` is the table)."""
    hyper = hyper or Hyper()
    rules = make_rules(rules_spec)
    rng = np.random.default_rng(seed)
    learner = QLearningAgent(learn=True, epsilon=hyper.epsilon, alpha=hyper.alpha, gamma=hyper.gamma,
                             theta=hyper.theta)
    others = [make_agent(spec) for spec in OPPONENTS]
    for k in range(deals):
        deal = Deal.random(rules, rng)
        seat = int(rng.integers(4))
        players = [*others[:seat], learner, *others[seat:]]
        for s, player in enumerate(players):
            player.reset(rules, s, seed=[seed, k, s])
        while not deal.is_over:
            s = deal.current
            deal.apply(players[s].act(SeatView.of(deal, s)))
        learner.end_deal(SeatView.of(deal, seat))
        if out is not None and ((k + 1) % save_every == 0 or k + 1 == deals):
            save_table(out, learner.q, learner.hyper, {"rules": rules.spec(), "deals": k + 1, "seed": seed,
                                                       "opponents": list(OPPONENTS)})
    return learner


def main(argv: list[str] | None = None) -> None:
    args = parse(Args, argv, __doc__)
    hyper = Hyper(alpha=args.alpha, gamma=args.gamma, theta=args.theta, epsilon=args.epsilon)
    start = time.perf_counter()
    learner = train(args.deals, args.seed, hyper=hyper, out=args.out, save_every=args.save_every)
    print(f"{args.deals} deals in {time.perf_counter() - start:.1f} s -> {args.out}")
    print(learner.table_text())


if __name__ == "__main__":
    main()
