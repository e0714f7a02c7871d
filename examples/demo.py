"""What `make demo` runs: a short tournament between the bundled agents, then one rendered game.

1. An arena of the trained `subagents` player (paper 000, bundled weights), `heuristic`, `greedy`
   and `random` on duplicate deals (every deal in all four rotations of the seating), with mean
   points per deal, 95% intervals and paired differences.
2. A game of Hearts to 100 through the PettingZoo environment `hearts_v0.env()`, random legal
   play, one line per deal and the final position rendered.

    python examples/demo.py [--deals N] [--rules SPEC] [--seed N]
"""

from __future__ import annotations

import argparse

import numpy as np

from hearts_env import hearts_v0
from hearts_env.evaluation.arena import format_summary, run_arena, summarize
from hearts_env.rules import make_rules


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="standard", help="rules preset or spec, e.g. 'standard(target=50)'")
    parser.add_argument("--seed", type=int, default=7, help="seed of the game (0 is a seed)")
    parser.add_argument("--deals", type=int, default=300, help="duplicate deals in the tournament")
    args = parser.parse_args(argv)

    specs = ["subagents", "heuristic", "greedy", "random"]
    print(f"== tournament: {' vs '.join(specs)}; {args.deals} deals x 4 rotations, rules {args.rules}")
    records = run_arena(specs, deals=args.deals, rules=make_rules(args.rules, game="deal"), seed=args.seed)
    print(format_summary(summarize(records)))
    print(f"\n== a game to the target under {args.rules}, random legal play through hearts_v0.env()")

    env = hearts_v0.env(rules=args.rules, render_mode="ansi")
    env.reset(seed=args.seed)
    rng = np.random.default_rng(args.seed)
    raw = env.unwrapped
    deals_seen = 0
    for _agent in env.agent_iter():
        obs, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))
        if raw.deal.is_over or len(raw.match.history) > deals_seen:
            finished = raw.match.history[-1] if len(raw.match.history) > deals_seen else raw.deal
            deals_seen = len(raw.match.history)
            print(f"--- deal {deals_seen}: pass {finished.pass_direction_name}; points {finished.points}"
                  + (f"; player_{finished.moon_shooter} shot the moon" if finished.moon_shooter is not None else ""))
    print()
    print(env.render())


if __name__ == "__main__":
    main()
