"""Train sb3-contrib's MaskablePPO on hearts_env/Hearts-v0, then evaluate it on seeded deals.

    python examples/train_maskable_ppo.py --timesteps 200000 --opponents greedy --save runs/ppo.zip
    python examples/train_maskable_ppo.py --num-envs 64 --timesteps 5000000 --opponents greedy

With ``--num-envs N`` > 1 it trains on N tables of the batched vector env at once
(:class:`hearts_env.vector.sb3.SB3VecEnv`; opponents ``random`` or ``greedy``), which is many times
faster; evaluation always plays the single-table env.

Needs the train extra (`pip install -e ".[train]" -c constraints.txt`). The saved model plays in the
arena as the agent spec `sb3:runs/ppo.zip`.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

import numpy as np


@dataclass
class Args:
    timesteps: int = 100_000
    """environment steps of training"""
    opponents: str = "random"
    """agent spec of the three opponents (random, greedy, heuristic, ...)"""
    rules: str = "standard(game=deal)"
    """rules preset or spec"""
    observation: str = "rich"
    """observation encoding"""
    eval_deals: int = 200
    """seeded deals played after training"""
    seed: int = 0
    """seed of training and evaluation"""
    save: str | None = None
    """where to save the model (.zip)"""
    num_envs: int = 1
    """tables stepped together (>1: the batched vector env; opponents random or greedy)"""


def parse(argv: list[str] | None) -> Args:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for name, default in vars(Args()).items():
        parser.add_argument(f"--{name.replace('_', '-')}", type=type(default) if default is not None else str,
                            default=default)
    return Args(**vars(parser.parse_args(argv)))


def evaluate(model, env, deals: int, seed: int) -> tuple[float, float, int]:
    """Mean points per deal of the learner and of the opponents, and illegal actions taken."""
    mine, theirs, illegal = [], [], 0
    for k in range(deals):
        obs, info = env.reset(seed=seed + 1_000_000 + k)
        done = False
        while not done:
            action, _ = model.predict(obs, action_masks=env.unwrapped.action_masks(), deterministic=True)
            illegal += not info["action_mask"][int(action)]
            obs, _, terminated, truncated, info = env.step(int(action))
            done = terminated or truncated
        points = env.unwrapped.match.history[-1].points
        seat = env.unwrapped.seat
        mine.append(points[seat])
        theirs.append(np.mean([points[s] for s in range(4) if s != seat]))
    return float(np.mean(mine)), float(np.mean(theirs)), illegal


def main(argv: list[str] | None = None) -> dict[str, float]:
    import gymnasium
    import torch
    from sb3_contrib import MaskablePPO

    import hearts_env  # noqa: F401  (registers the env)

    torch.set_num_threads(1)
    args = parse(argv)
    env = gymnasium.make("hearts_env/Hearts-v0", rules=args.rules, observation=args.observation,
                         opponents=args.opponents, seat="random",
                         illegal_action="raise")  # masks must keep every action legal
    if args.num_envs > 1:
        from hearts_env.vector.sb3 import SB3VecEnv

        train_env = SB3VecEnv(num_envs=args.num_envs, rules=args.rules, observation=args.observation,
                              opponents=args.opponents, seat="random", seed=args.seed)
        n_steps, batch_size = max(8, 2048 // args.num_envs), 256
    else:
        train_env, n_steps, batch_size = env, 512, 128
    model = MaskablePPO("MlpPolicy", train_env, seed=args.seed, n_steps=n_steps, batch_size=batch_size,
                        learning_rate=3e-4, gamma=1.0, verbose=0, device="cpu")
    model.learn(total_timesteps=args.timesteps)
    if args.save:
        model.save(args.save)
    mine, theirs, illegal = evaluate(model, env, args.eval_deals, args.seed)
    print(f"MaskablePPO after {args.timesteps} steps vs {args.opponents}: {mine:.2f} points/deal "
          f"(opponents {theirs:.2f}) over {args.eval_deals} deals; illegal actions: {illegal}")
    return {"points": mine, "opponents": theirs, "illegal": illegal}


if __name__ == "__main__":
    main()
