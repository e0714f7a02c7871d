"""Train the ``ppo`` baseline: sb3-contrib MaskablePPO on N tables of the batched vector env.

    python -m hearts_baselines.learned.train_ppo --opponents greedy --timesteps 6000000 --out runs/ppo
    python -m hearts_baselines.learned.train_ppo --opponents self --timesteps 4000000 --out runs/ppo_self

``--opponents random|greedy`` trains against three vectorized rule-based players; ``self`` against
three frozen snapshots of the learner (sampling), refreshed every ``--snapshot-every`` steps (the
first snapshot is the untrained policy). A checkpoint (``OUT/latest.zip`` + ``latest.json``) is
written every ``--checkpoint-every`` steps and at the end; ``--resume`` continues from it. At the end
the greedy policy plays ``--eval-deals`` seeded deals. Needs the train extra.
"""

from __future__ import annotations

from typing import Any

from hearts_baselines.learned._training import common_parser, prepare, train


def main(argv: list[str] | None = None) -> dict[str, Any]:
    from sb3_contrib import MaskablePPO

    p = common_parser(__doc__, timesteps=2_000_000, num_envs=64)
    p.add_argument("--learning-rate", type=float, default=3e-4, help="Adam step size")
    p.add_argument("--n-steps", type=int, default=32, help="steps per table per rollout")
    p.add_argument("--batch-size", type=int, default=512, help="minibatch size")
    args, vector, venv, resume = prepare(p, argv, "runs/ppo", dict_obs=False)
    if resume:
        model = MaskablePPO.load(resume, env=venv, device="cpu")
    else:
        model = MaskablePPO("MlpPolicy", venv, seed=args.seed, n_steps=args.n_steps, batch_size=args.batch_size,
                            learning_rate=args.learning_rate, gamma=1.0, device="cpu", verbose=0,
                            policy_kwargs={"net_arch": [int(x) for x in args.net_arch.split(",")]})
    return train(model, vector, args, "MaskablePPO", dict_obs=False, snapshot_deterministic=False)


if __name__ == "__main__":
    main()
