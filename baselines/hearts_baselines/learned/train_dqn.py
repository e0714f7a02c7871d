"""Train the ``dqn`` baseline: SB3 DQN with action masking on N rows (envs) of the batched vector env.

    python -m hearts_baselines.learned.train_dqn --opponents greedy --timesteps 3000000 --out runs/dqn
    python -m hearts_baselines.learned.train_dqn --opponents self --out runs/dqn_self

The masking (Dict observation with the mask; illegal Q-values excluded from the greedy choice and
the target's max; exploration among legal actions only) is :mod:`hearts_baselines.learned.masked_dqn`.
``--opponents self`` plays against frozen snapshots of the learner's greedy policy. Checkpoints,
``--resume`` and the final evaluation as in :mod:`hearts_baselines.learned.train_ppo`. Needs the
train extra.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hearts_baselines.learned._training import TrainArgs, prepare, train
from hearts_baselines.run_args import arg, parse


@dataclass
class Args(TrainArgs):
    num_envs: int = arg(16, "envs (rows of the vector env) stepped together")
    learning_rate: float = arg(1e-4, "Adam step size")
    buffer_size: int = arg(200_000, "replay buffer transitions")
    batch_size: int = arg(256, "minibatch size")
    learning_starts: int = arg(10_000, "random legal steps before learning")
    gradient_steps: int = arg(1, "gradient steps per vector step")


def main(argv: list[str] | None = None) -> dict[str, Any]:
    from hearts_baselines.learned.masked_dqn import MaskedDQN, build_masked_dqn

    args = parse(Args, argv, __doc__)
    vector, venv, resume = prepare(args, "runs/dqn", dict_obs=True)
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
