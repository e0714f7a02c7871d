"""Train the ``dqn`` baseline: SB3 DQN with action masking on N tables of the batched vector env.

    python -m hearts_baselines.learned.train_dqn --opponents greedy --timesteps 3000000 --out runs/dqn
    python -m hearts_baselines.learned.train_dqn --opponents self --out runs/dqn_self

The masking (Dict observation with the mask; illegal Q-values excluded from the greedy choice and
the target's max; exploration among legal actions only) is :mod:`hearts_baselines.learned.masked_dqn`.
``--opponents self`` plays against frozen snapshots of the learner's greedy policy. Checkpoints,
``--resume`` and the final evaluation as in :mod:`hearts_baselines.learned.train_ppo`. Needs the
train extra.
"""

from __future__ import annotations

from typing import Any

from hearts_baselines.learned._training import common_parser, prepare, train


def main(argv: list[str] | None = None) -> dict[str, Any]:
    from hearts_baselines.learned.masked_dqn import MaskedDQN, build_masked_dqn

    p = common_parser(__doc__, timesteps=2_000_000, num_envs=16)
    p.add_argument("--learning-rate", type=float, default=1e-4, help="Adam step size")
    p.add_argument("--buffer-size", type=int, default=200_000, help="replay buffer transitions")
    p.add_argument("--batch-size", type=int, default=256, help="minibatch size")
    p.add_argument("--learning-starts", type=int, default=10_000, help="random legal steps before learning")
    p.add_argument("--gradient-steps", type=int, default=1, help="gradient steps per vector step")
    args, vector, venv, resume = prepare(p, argv, "runs/dqn", dict_obs=True)
    if resume:
        model = MaskedDQN.load(resume, env=venv, device="cpu")
    else:
        model = build_masked_dqn(venv, seed=args.seed, learning_starts=args.learning_starts,
                                 learning_rate=args.learning_rate, buffer_size=args.buffer_size,
                                 batch_size=args.batch_size, train_freq=1, gradient_steps=args.gradient_steps,
                                 target_update_interval=10_000, exploration_fraction=0.2,
                                 exploration_final_eps=0.05,
                                 policy_kwargs={"net_arch": [int(x) for x in args.net_arch.split(",")]})
    return train(model, vector, args, "DQN", dict_obs=True, snapshot_deterministic=True)


if __name__ == "__main__":
    main()
