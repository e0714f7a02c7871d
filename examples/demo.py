"""What `make demo` runs: a game of Hearts in the PettingZoo environment, rendered deal by deal.

Four seats play uniformly random legal cards under the `standard` rules (passing left, right,
across, hold; game to 100), through `hearts_v0.env()`. Each deal's first trick position and
final state are rendered; the game ends with the scores and the winner(s).

    python examples/demo.py [--rules SPEC] [--seed N]
"""

from __future__ import annotations

import argparse

import numpy as np

from hearts_env import hearts_v0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="standard", help="rules preset or spec, e.g. 'standard(target=50)'")
    parser.add_argument("--seed", type=int, default=7, help="seed of the game (0 is a seed)")
    args = parser.parse_args(argv)

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
