"""What the PPO and DQN training commands share: arguments, the vector env, snapshots of the learner
for self-play, checkpoints with progress, and the seeded evaluation."""

from __future__ import annotations

import copy
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np

from hearts_baselines.run_args import arg


@dataclass
class TrainArgs:
    """The arguments of both training commands; each adds its algorithm's."""

    opponents: Literal["random", "greedy", "self"] = arg(
        "greedy", "the three other seats: vectorized rule-based players or snapshots of the learner")
    timesteps: int = arg(2_000_000, "learner decisions to train on")
    num_envs: int = arg(64, "envs (rows of the vector env) stepped together")
    rules: str = arg("standard(game=deal)", "rules preset or spec (one deal per episode)")
    observation: Literal["rich", "paper260"] = arg("rich", "observation encoding")
    net_arch: str = arg("256,256", "hidden layer sizes, comma-separated")
    snapshot_every: int = arg(200_000, "self-play: steps between snapshots")
    checkpoint_every: int = arg(500_000, "steps between checkpoints")
    eval_deals: int = arg(1000, "seeded deals against the opponents at the end (greedy for self-play)")
    seed: int = arg(0, "seed of training and evaluation")
    out: str = arg("", "output folder (latest.zip, latest.json, result.json)")
    resume: bool = arg(False, "continue from OUT/latest.zip")


def prepare(args: TrainArgs, default_out: str, dict_obs: bool) -> tuple[Any, Any, Path | None]:
    """The vector env, its SB3 view, and the checkpoint to resume from (None for a fresh start); torch set
    to one thread, ``args.out`` to ``default_out`` where not given."""
    import torch

    torch.set_num_threads(1)
    args.out = args.out or default_out
    Path(args.out).mkdir(parents=True, exist_ok=True)
    vector, venv = vector_env(args, dict_obs)
    latest = Path(args.out) / "latest.zip"
    return vector, venv, latest if args.resume and latest.exists() else None


def vector_env(args: TrainArgs, dict_obs: bool) -> tuple[Any, Any]:
    """The Gymnasium vector env and its SB3 view."""
    from hearts_env.vector.env import HeartsVectorEnv
    from hearts_env.vector.sb3 import SB3VecEnv

    vector = HeartsVectorEnv(num_envs=args.num_envs, rules=args.rules, observation=args.observation,
                             opponents="random" if args.opponents == "self" else args.opponents, seat="random")
    return vector, SB3VecEnv(vector, seed=args.seed, dict_obs=dict_obs)


def snapshot_policy(model: Any, dict_obs: bool, deterministic: bool) -> Any:
    """A frozen copy of the learner as a batched policy ``(obs, masks) -> actions``."""
    frozen = copy.deepcopy(model.policy)
    frozen.set_training_mode(False)

    def act(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        if dict_obs:
            actions, _ = frozen.predict({"observation": obs, "action_mask": masks.astype(np.int8)},
                                        deterministic=deterministic)
        else:
            actions, _ = frozen.predict(obs, action_masks=masks, deterministic=deterministic)
        return np.asarray(actions)

    return act


def train(model: Any, vector: Any, args: TrainArgs, algo: str, dict_obs: bool,
          snapshot_deterministic: bool) -> dict[str, Any]:
    """Learn to ``args.timesteps`` with progress, checkpoints and snapshots; then evaluate and save."""
    from stable_baselines3.common.callbacks import BaseCallback
    from tqdm import tqdm

    from hearts_baselines.learned.checkpoints import write_metadata

    out = Path(args.out)
    latest = out / "latest.zip"
    module = {"MaskablePPO": "train_ppo", "DQN": "train_dqn"}[algo]
    command = f"python -m hearts_baselines.learned.{module} " + " ".join(sys.argv[1:])
    started = time.time()
    if args.opponents == "self":
        vector.opponents = snapshot_policy(model, dict_obs, snapshot_deterministic)

    def save(**extra: Any) -> None:
        model.save(latest)
        write_metadata(latest, algo=algo, observation=args.observation, rules=args.rules, dict_obs=dict_obs,
                       opponents=args.opponents, timesteps=int(model.num_timesteps), command=command.strip(),
                       **extra)

    class Progress(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.bar = tqdm(total=args.timesteps, initial=int(model.num_timesteps), unit="step", smoothing=0.05)
            self.next_checkpoint = model.num_timesteps + args.checkpoint_every
            self.next_snapshot = model.num_timesteps + args.snapshot_every

        def _on_step(self) -> bool:
            self.bar.update(args.num_envs)
            if self.num_timesteps >= self.next_checkpoint:
                save()
                self.next_checkpoint += args.checkpoint_every
            if args.opponents == "self" and self.num_timesteps >= self.next_snapshot:
                vector.opponents = snapshot_policy(self.model, dict_obs, snapshot_deterministic)
                self.next_snapshot += args.snapshot_every
            return True

        def _on_training_end(self) -> None:
            self.bar.close()

    remaining = args.timesteps - int(model.num_timesteps)
    if remaining > 0:
        model.learn(total_timesteps=remaining, callback=Progress(), reset_num_timesteps=False)
    result = evaluate(model, args, dict_obs)
    result.update(timesteps=int(model.num_timesteps), minutes=round((time.time() - started) / 60, 1))
    save(evaluation=result)
    (out / "result.json").write_text(json.dumps(result, indent=2) + "\n")
    print(f"{algo} after {result['timesteps']} steps ({result['minutes']} min) vs {result['against']}: "
          f"{result['points']:.2f} points/deal (opponents {result['opponents']:.2f}) over {result['deals']} deals")
    return result


def evaluate(model: Any, args: TrainArgs, dict_obs: bool) -> dict[str, Any]:
    """Mean points per deal of the learner (greedy actions) and of its opponents on seeded deals."""
    from hearts_env.vector.env import HeartsVectorEnv

    against = "greedy" if args.opponents == "self" else args.opponents
    env = HeartsVectorEnv(num_envs=min(args.eval_deals, 250), rules=args.rules, observation=args.observation,
                          opponents=against, seat="random")
    obs, info = env.reset(seed=args.seed + 1_000_000)
    mine: list[float] = []
    theirs: list[float] = []
    while len(mine) < args.eval_deals:
        masks = info["action_mask"]
        if dict_obs:
            actions, _ = model.predict({"observation": obs, "action_mask": masks.astype(np.int8)}, deterministic=True)
        else:
            actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
        seats = env.seats.copy()
        obs, _, terminated, _, info = env.step(actions)
        for i in np.flatnonzero(terminated):
            points = info["points"][i]
            mine.append(float(points[seats[i]]))
            theirs.append(float((points.sum() - points[seats[i]]) / 3))
    return {"against": against, "points": float(np.mean(mine[:args.eval_deals])),
            "opponents": float(np.mean(theirs[:args.eval_deals])), "deals": args.eval_deals}
