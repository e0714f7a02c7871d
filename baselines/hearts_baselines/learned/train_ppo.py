"""Train the ``ppo`` baseline: sb3-contrib MaskablePPO on N rows (envs) of the batched vector env.

    python -m hearts_baselines.learned.train_ppo --opponents greedy --timesteps 6000000 --out runs/ppo
    python -m hearts_baselines.learned.train_ppo --opponents self --timesteps 4000000 --out runs/ppo_self

``--opponents random|greedy`` trains against three vectorized rule-based players; ``self`` against
three frozen snapshots of the learner (sampling), refreshed every ``--snapshot-every`` steps (the
first snapshot is the untrained policy). A checkpoint (``OUT/latest.zip`` + ``latest.json``) is
written every ``--checkpoint-every`` steps and at the end; ``--resume`` continues from it. At the end
the greedy policy plays ``--eval-deals`` seeded deals. Needs the train extra.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hearts_baselines.learned._training import TrainArgs, prepare, train
from hearts_baselines.run_args import arg, parse


@dataclass
class Args(TrainArgs):
    learning_rate: float = arg(3e-4, "Adam step size")
    n_steps: int = arg(32, "steps per env per rollout")
    batch_size: int = arg(512, "minibatch size")


def main(argv: list[str] | None = None) -> dict[str, Any]:
    from sb3_contrib import MaskablePPO

    args = parse(Args, argv, __doc__)
    vector, venv, resume = prepare(args, "runs/ppo", dict_obs=False)
    if resume:
        model = MaskablePPO.load(resume, env=venv, device="cpu")
    else:
        model = MaskablePPO("MlpPolicy", venv, seed=args.seed, n_steps=args.n_steps, batch_size=args.batch_size,
                            learning_rate=args.learning_rate, gamma=1.0, device="cpu", verbose=0,
                            policy_kwargs={"net_arch": [int(x) for x in args.net_arch.split(",")]})
    return train(model, vector, args, "MaskablePPO", dict_obs=False, snapshot_deterministic=False)


if __name__ == "__main__":
    main()
