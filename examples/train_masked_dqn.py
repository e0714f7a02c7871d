"""Stable-Baselines3 DQN with action masking on hearts_env/Hearts-v0, then a seeded evaluation.

    python examples/train_masked_dqn.py --timesteps 200000 --opponents greedy --save runs/dqn.zip

SB3's DQN has no masking, so this file adds it in the three places it matters:
1. the observation is a Dict carrying the legal-action mask (`dict_obs=True`);
2. the Q-network fills illegal actions' Q-values with -1e8, so both the greedy choice and the
   target's max over the next state's actions (the target network is the same class, fed the next
   observation and so the next mask) only see legal actions;
3. exploration (ε-greedy and the random warm-up) samples among legal actions only.
Needs the train extra (`pip install -e ".[train]" -c constraints.txt`).
"""

from __future__ import annotations

import argparse

import numpy as np

ILLEGAL_Q = -1e8


def build(env, seed: int, learning_starts: int):
    """A masked DQN model for ``env`` (kept in a function so the torch import stays lazy)."""
    from stable_baselines3 import DQN
    from stable_baselines3.dqn.policies import MultiInputPolicy, QNetwork

    class MaskedQNetwork(QNetwork):
        def forward(self, obs):
            q = super().forward(obs)
            return q.masked_fill(obs["action_mask"] < 0.5, ILLEGAL_Q)

    class MaskedDQNPolicy(MultiInputPolicy):
        def make_q_net(self):
            net_args = self._update_features_extractor(self.net_args, features_extractor=None)
            return MaskedQNetwork(**net_args).to(self.device)

    class MaskedDQN(DQN):
        def _legal_sample(self, masks: np.ndarray) -> np.ndarray:
            return np.array([np.random.choice(np.flatnonzero(m)) for m in masks.reshape(-1, masks.shape[-1])])

        def predict(self, observation, state=None, episode_start=None, deterministic=False):
            if not deterministic and np.random.rand() < self.exploration_rate:
                actions = self._legal_sample(np.asarray(observation["action_mask"]))
                return (actions if np.asarray(observation["action_mask"]).ndim > 1 else actions[0]), state
            return self.policy.predict(observation, state, episode_start, deterministic)

        def _sample_action(self, learning_starts, action_noise=None, n_envs=1):
            if self.num_timesteps < learning_starts:
                action = self._legal_sample(self._last_obs["action_mask"])
            else:
                action, _ = self.predict(self._last_obs, deterministic=False)
            return action, action

    return MaskedDQN(MaskedDQNPolicy, env, seed=seed, learning_starts=learning_starts, buffer_size=50_000,
                     batch_size=64, gamma=1.0, exploration_fraction=0.3, target_update_interval=1000,
                     train_freq=4, verbose=0, device="cpu")


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
