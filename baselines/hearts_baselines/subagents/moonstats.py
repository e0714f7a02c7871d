"""Decision-level moon statistics the arena cannot see: how often the moonshot decision agent says
"shoot" and how often that attempt succeeds (paper 000's "moonshot success ratio"), and how often the
breaker takes over.

    python -m hearts_baselines.subagents.moonstats --opponent heuristic --deals 1000

One ``subagents`` seat (rotating over the four seats, deal ``k`` seeded by ``(seed, k)``) against three
copies of ``--opponent`` under ``--rules``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np

from hearts_baselines.run_args import arg, parse
from hearts_baselines.subagents.agent import SubagentPlayer
from hearts_env.agents import make_agent
from hearts_env.engine import Deal
from hearts_env.evaluation.arena import pass_direction_of
from hearts_env.rules import make_rules
from hearts_env.views import SeatView


@dataclass
class Args:
    opponent: str = "heuristic"
    deals: int = 1000
    rules: str = "standard(game=deal)"
    seed: int = 0
    weights: str | None = arg(None, "subagents file (default: the bundled weights)")
    moon_threshold: float | None = None
    breaker: bool = True  # --no-breaker


def moon_stats(opponent: str, deals: int, rules_spec: str = "standard(game=deal)", seed: int = 0,
               **agent_kwargs: object) -> dict[str, float]:
    rules = make_rules(rules_spec)
    me_agent = SubagentPlayer(**agent_kwargs)  # type: ignore[arg-type]
    counts = {"deals": 0, "decided_moon": 0, "moon_success": 0, "moons_shot": 0, "moons_suffered": 0,
              "breaker_deals": 0, "points": 0}
    for k in range(deals):
        rng = np.random.default_rng([seed, k])
        deal = Deal.random(rules, rng, pass_direction=pass_direction_of(rules, k))  # every direction, as the arena
        me = k % 4
        seats = {s: me_agent if s == me else make_agent(opponent) for s in range(4)}
        for s, a in seats.items():
            a.reset(rules, s, [seed, k, s])
        broke = False
        while not deal.is_over:
            s = deal.current
            deal.apply(seats[s].act(SeatView.of(deal, s)))
            broke |= s == me and me_agent.brain.breaking
        counts["deals"] += 1
        moon = me_agent.brain.style == "moon"
        counts["decided_moon"] += moon
        counts["moon_success"] += moon and deal.moon_shooter == me
        counts["moons_shot"] += deal.moon_shooter == me
        counts["moons_suffered"] += deal.moon_shooter not in (None, me)
        counts["breaker_deals"] += broke
        counts["points"] += deal.points[me]  # type: ignore[index]
    out = {k: float(v) for k, v in counts.items()}
    out["points_per_deal"] = out.pop("points") / max(1, deals)
    out["moon_success_ratio"] = out["moon_success"] / out["decided_moon"] if out["decided_moon"] else float("nan")
    return out


def main(argv: list[str] | None = None) -> None:
    args = parse(Args, argv, __doc__)
    stats = moon_stats(args.opponent, args.deals, args.rules, args.seed, weights=args.weights,
                       moon_threshold=args.moon_threshold, breaker=args.breaker)
    print(json.dumps(stats, indent=1))


if __name__ == "__main__":
    main()
