"""Stable-Baselines3 DQN with action masking on hearts_env/Hearts-v0, then a seeded evaluation.

    python examples/train_masked_dqn.py --timesteps 200000 --opponents greedy --save runs/dqn.zip

The masking (a Dict observation carrying the mask; illegal Q-values at -1e8 in both the greedy choice
and the target's max; exploration among legal actions only) lives in
``hearts_baselines.learned.masked_dqn``; ``python -m hearts_baselines.learned.train_dqn`` is the full
training command with checkpoints and self-play.
Needs the train extra (`pip install -e ".[train]" -c constraints.txt`).
"""

from __future__ import annotations

import argparse

import numpy as np


def build(env, seed: int, learning_starts: int):
    """A masked DQN model for ``env`` (the import keeps torch lazy)."""
    from hearts_baselines.learned.masked_dqn import build_masked_dqn

    return build_masked_dqn(env, seed=seed, learning_starts=learning_starts)


def main(argv: list[str] | None = None) -> dict[str, float]:
    import gymnasium
    import torch

    import hearts_env  # noqa: F401  (registers the env)

    torch.set_num_threads(1)
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--timesteps", type=int, default=100_000, help="environment steps of training")
    parser.add_argument("--opponents", default="random", help="agent spec of the three opponents")
    parser.add_argument("--rules", default="standard(game=deal)", help="rules preset or spec")
    parser.add_argument("--learning-starts", type=int, default=1000, help="random (legal) steps before learning")
    parser.add_argument("--eval-deals", type=int, default=200, help="seeded deals played after training")
    parser.add_argument("--seed", type=int, default=0, help="seed of training and evaluation")
    parser.add_argument("--save", help="where to save the model (.zip)")
    args = parser.parse_args(argv)

    env = gymnasium.make("hearts_env/Hearts-v0", rules=args.rules, opponents=args.opponents, seat="random",
                         dict_obs=True, illegal_action="raise")  # masks must keep every action legal
    model = build(env, args.seed, args.learning_starts)
    model.learn(total_timesteps=args.timesteps)
    if args.save:
        model.save(args.save)
    mine, theirs, illegal = [], [], 0
    for k in range(args.eval_deals):
        obs, _ = env.reset(seed=args.seed + 1_000_000 + k)
        done = False
        while not done:
            action, _ = model.predict(obs, deterministic=True)
            illegal += not obs["action_mask"][int(action)]
            obs, _, terminated, truncated, _ = env.step(int(action))
            done = terminated or truncated
        points, seat = env.unwrapped.match.history[-1].points, env.unwrapped.seat
        mine.append(points[seat])
        theirs.append(np.mean([points[s] for s in range(4) if s != seat]))
    print(f"masked DQN after {args.timesteps} steps vs {args.opponents}: {np.mean(mine):.2f} points/deal "
          f"(opponents {np.mean(theirs):.2f}) over {args.eval_deals} deals; illegal actions: {illegal}")
    return {"points": float(np.mean(mine)), "opponents": float(np.mean(theirs)), "illegal": illegal}


if __name__ == "__main__":
    main()
