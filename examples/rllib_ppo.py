"""RLlib (new API stack): multi-agent PPO on hearts_v0 with one action-masked policy shared by the four seats,
then the trained RLModule plays in the arena as an agent against three ``heuristic`` seats.

    python examples/rllib_ppo.py --iterations 5 --env-runners 1 --eval-deals 50

How the pieces fit:

* RLlib's ``PettingZooEnv`` wraps ``hearts_v0.env(rules="standard(game=deal)")`` (one deal per episode): each
  env step is one seat's action. :class:`MaskKeys` renames the observation keys to what RLlib's
  ``ActionMaskingTorchRLModule`` (``ray.rllib.examples.rl_modules.classes.action_masking_rlm``) expects,
  ``{"observations", "action_mask"}`` (a float mask): the module adds ``log(mask)`` to the logits, so an
  illegal card has probability 0 in sampling and in the greedy choice.
* ``policy_mapping_fn`` maps every seat to the one module ``"shared"`` (the rich observation is seat-relative).
* ``--env-runners 0`` samples in this process; 1 or 2 start remote EnvRunner actors (one CPU each).
  :class:`IllegalMoves` counts episodes that ended on an illegal card (the env's ``illegal_seat`` info).
* After training the module is saved (``RLModule.save_to_path``); :class:`RLlibAgent` loads it
  (``RLModule.from_checkpoint``) and picks the arg-max of the masked logits, so the arena can build it from
  the spec ``examples.rllib_ppo:RLlibAgent(checkpoint='PATH')`` (the repository root on ``sys.path``).
  ``run_arena`` plays it in each seat in turn against three ``heuristic`` players (``solo_seatings``).

Per iteration the script prints the mean return of the four seats together over the last episodes (self-play
with ``reward="points"``: -26 per deal, -78 with a moon; the learning shows in the evaluation), the mean per
seat, and the illegal moves so far (0). ``--throughput`` measures env steps per second instead: hearts_v0's own
AEC loop with random legal cards, then RLlib's sampling with 0, 1 and 2 env runners. Needs the ray extra:
``pip install -e ".[ray,train]" -c constraints.txt`` (``make test-ray`` builds ``.venv-ray``; see docs/ray.md).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import ray
import torch
from pettingzoo.utils.wrappers import BaseWrapper
from ray.rllib.algorithms.algorithm import Algorithm
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.callbacks.callbacks import RLlibCallback
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModule, RLModuleSpec
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
from ray.tune.registry import register_env

from hearts_env import hearts_v0
from hearts_env.agents.adapters import PolicyAgent
from hearts_env.evaluation.arena import run_arena
from hearts_env.evaluation.arena.game import solo_seatings

ROOT = Path(__file__).resolve().parents[1]
RULES = "standard(game=deal)"
MODULE = "shared"
ENV_NAME = "hearts_v0_rllib"
torch.set_num_threads(1)


class MaskKeys(BaseWrapper):
    """hearts_v0's ``{"observation", "action_mask"}`` as ``{"observations", "action_mask"}`` (float32 mask)."""

    def observation_space(self, agent: str) -> gym.spaces.Dict:
        space = self.env.observation_space(agent)
        n = space["action_mask"].shape[0]
        return gym.spaces.Dict({"observations": space["observation"],
                                "action_mask": gym.spaces.Box(0.0, 1.0, (n,), np.float32)})

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        obs = self.env.observe(agent)
        return {"observations": obs["observation"], "action_mask": obs["action_mask"].astype(np.float32)}


def make_env(config: dict[str, Any] | None = None) -> PettingZooEnv:
    """The RLlib multi-agent env: ``PettingZooEnv(MaskKeys(hearts_v0.env(rules=...)))``."""
    return PettingZooEnv(MaskKeys(hearts_v0.env(rules=(config or {}).get("rules", RULES))))


class IllegalMoves(RLlibCallback):
    """Logs ``illegal_moves``: episodes ended by an illegal card (at most one each), summed over the run."""

    def on_episode_end(self, *, episode: Any, metrics_logger: Any = None, **kwargs: Any) -> None:
        infos = episode.get_infos(-1)
        illegal = any(info.get("illegal_seat", -1) >= 0 for info in infos.values())
        metrics_logger.log_value("illegal_moves", int(illegal), reduce="lifetime_sum")


def make_config(env_runners: int = 0, envs_per_runner: int = 1, batch: int = 2048, minibatch: int = 256,
                epochs: int = 4, hidden: int = 128, lr: float = 3e-4, seed: int = 0, rules: str = RULES) -> PPOConfig:
    """PPO on the new API stack: one shared masked module, a local learner, ``env_runners`` remote samplers."""
    register_env(ENV_NAME, make_env)
    module = RLModuleSpec(module_class=ActionMaskingTorchRLModule,
                          model_config={"fcnet_hiddens": [hidden, hidden], "head_fcnet_hiddens": []})
    return (
        PPOConfig()
        .api_stack(enable_rl_module_and_learner=True, enable_env_runner_and_connector_v2=True)
        .environment(ENV_NAME, env_config={"rules": rules})
        .multi_agent(policies={MODULE}, policy_mapping_fn=lambda agent_id, episode, **kwargs: MODULE)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={MODULE: module}))
        .env_runners(num_env_runners=env_runners, num_envs_per_env_runner=envs_per_runner, num_cpus_per_env_runner=1)
        .learners(num_learners=0)
        .training(train_batch_size_per_learner=batch, minibatch_size=minibatch, num_epochs=epochs, lr=lr,
                  gamma=1.0, lambda_=0.95, entropy_coeff=0.01)
        .callbacks(IllegalMoves)
        .debugging(seed=seed)
    )


def init_ray(num_cpus: int = 2) -> None:
    """A local Ray instance (at most ``num_cpus`` CPUs), unless one is already up."""
    if not ray.is_initialized():
        ray.init(num_cpus=num_cpus, include_dashboard=False, log_to_driver=False)


def train(iterations: int, verbose: bool = True, **config: Any) -> tuple[Algorithm, list[dict[str, float]]]:
    """Builds PPO from :func:`make_config` (``config``) and trains ``iterations`` times; returns the algorithm
    and one row per iteration (mean episode return of the four seats, per seat, illegal moves so far, ...)."""
    init_ray()
    algo = make_config(**config).build_algo()
    history = []
    for i in range(1, iterations + 1):
        result = algo.train()
        runners = result["env_runners"]
        row = {"iteration": i,
               "episode_return_mean": float(runners.get("episode_return_mean", float("nan"))),
               "seat_return_mean": float(runners.get("module_episode_returns_mean", {}).get(MODULE, float("nan"))
                                         / 4),
               "episodes": int(runners.get("num_episodes_lifetime", 0)),
               "env_steps": int(runners.get("num_env_steps_sampled_lifetime", 0)),
               "illegal_moves": int(runners.get("illegal_moves", history[-1]["illegal_moves"] if history else 0)),
               "seconds": float(result.get("time_this_iter_s", float("nan")))}
        history.append(row)
        if verbose:
            print(f"iteration {i}: mean episode return {row['episode_return_mean']:.2f} (per seat "
                  f"{row['seat_return_mean']:.2f}), {row['episodes']} episodes, {row['env_steps']} env steps, "
                  f"illegal moves {row['illegal_moves']}, {row['seconds']:.1f} s", flush=True)
    return algo, history


def save_module(algo: Algorithm, path: str | Path) -> Path:
    """Saves the shared RLModule to ``path`` (a folder), for :class:`RLlibAgent`."""
    path = Path(path).resolve()
    algo.get_module(MODULE).save_to_path(str(path))
    return path


class RLlibAgent(PolicyAgent):
    """A saved RLModule as an arena agent: the arg-max of its masked logits (``deterministic``) or a sample."""

    name = "rllib"

    def __init__(self, checkpoint: str, deterministic: bool = True):
        super().__init__(policy=self._choose, observation="rich", dtype="float32")
        torch.set_num_threads(1)
        self.module = RLModule.from_checkpoint(str(checkpoint))
        self.module.eval()
        self.deterministic = deterministic

    def _choose(self, observation: np.ndarray, mask: np.ndarray) -> int:
        batch = {Columns.OBS: {"observations": torch.from_numpy(observation)[None],
                               "action_mask": torch.from_numpy(mask.astype(np.float32))[None]}}
        with torch.no_grad():
            logits = self.module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0].numpy()
        if self.deterministic:
            return int(np.argmax(logits))
        legal = np.flatnonzero(mask)
        p = np.exp(logits[legal] - logits[legal].max())
        return int(self.rng.choice(legal, p=p / p.sum()))


def agent_spec(checkpoint: str | Path) -> str:
    """The arena spec of :class:`RLlibAgent` (importable with the repository root on ``sys.path``)."""
    return f"examples.rllib_ppo:RLlibAgent(checkpoint={str(checkpoint)!r})"


def evaluate(checkpoint: str | Path, deals: int, seed: int = 0, rules: str = RULES) -> dict[str, Any]:
    """The saved module against three ``heuristic`` players: each deal four times, the learner in each seat
    in turn (in this process). Points per deal of the learner and of the heuristic seats."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    spec = agent_spec(checkpoint)
    records = run_arena([spec, "heuristic"], deals=deals, rules=rules, seed=seed, jobs=1, isolation="none",
                        only_seatings=solo_seatings())
    mine = [p for r in records for seat, p in enumerate(r["points"]) if r["seating"][seat] == spec]
    theirs = [p for r in records for seat, p in enumerate(r["points"]) if r["seating"][seat] != spec]
    errors = [r["error"] for r in records if r["error"] is not None]
    return {"games": len(records), "learner_points_per_deal": float(np.mean(mine)),
            "heuristic_points_per_deal": float(np.mean(theirs)), "learner_points": mine,
            "illegal_moves": sum(e["kind"] == "illegal" for e in errors), "errors": len(errors)}


def env_loop_throughput(steps: int = 20_000, seed: int = 0) -> float:
    """Env steps per second of hearts_v0's own AEC loop (PettingZoo's API) with random legal cards."""
    env = hearts_v0.env(rules=RULES)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    done, start = 0, time.perf_counter()
    while done < steps:
        for _agent in env.agent_iter():
            obs, _, termination, truncation, _ = env.last()
            action = None if termination or truncation else int(rng.choice(np.flatnonzero(obs["action_mask"])))
            if action is not None:
                done += 1
            env.step(action)
        env.reset()
    return done / (time.perf_counter() - start)


def sampling_throughput(env_runners: int, steps: int = 4000, **config: Any) -> float:
    """Env steps per second of RLlib sampling (exploration, masked module) with ``env_runners`` remote env
    runners (0: the local one), ``steps`` per runner after a warm-up."""
    init_ray()
    algo = make_config(env_runners=env_runners, **config).build_algo()
    try:
        def sample(runner: Any, n: int) -> int:
            return sum(e.env_steps() for e in runner.sample(num_timesteps=n, explore=True))

        group = algo.env_runner_group
        if env_runners == 0:
            sample(algo.env_runner, 500)
            start = time.perf_counter()
            done = sample(algo.env_runner, steps)
        else:
            group.foreach_env_runner(lambda r: sample(r, 500), local_env_runner=False)
            start = time.perf_counter()
            done = sum(group.foreach_env_runner(lambda r: sample(r, steps), local_env_runner=False))
        return done / (time.perf_counter() - start)
    finally:
        algo.stop()


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--iterations", type=int, default=5)
    p.add_argument("--env-runners", type=int, default=1, help="remote env runners: 0 samples in this process")
    p.add_argument("--envs-per-runner", type=int, default=1, help="envs each env runner steps as one batch")
    p.add_argument("--batch", type=int, default=2048, help="env steps per training iteration")
    p.add_argument("--minibatch", type=int, default=256)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--eval-deals", type=int, default=50, help="deals against three heuristic players (x4 seats)")
    p.add_argument("--checkpoint", default=None, help="folder for the RLModule (default: a temporary one)")
    p.add_argument("--throughput", action="store_true", help="measure env steps/s instead of training")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = p.parse_args(argv)
    if args.throughput:
        summary: dict[str, Any] = {"env_loop": env_loop_throughput()}
        for n in (0, 1, 2):
            summary[f"rllib_{n}_env_runners"] = sampling_throughput(n, envs_per_runner=args.envs_per_runner,
                                                                    hidden=args.hidden, seed=args.seed)
        for key, value in summary.items():  # each beside the plain env loop of the same run (a shared machine)
            ratio = value / summary["env_loop"]
            print(f"{key}: {value:,.0f} env steps/s ({ratio:.3f} x the hearts_v0 loop measured in this run)")
    else:
        algo, history = train(args.iterations, verbose=not args.json, env_runners=args.env_runners,
                              envs_per_runner=args.envs_per_runner, batch=args.batch, minibatch=args.minibatch,
                              epochs=args.epochs, hidden=args.hidden, seed=args.seed)
        with tempfile.TemporaryDirectory() as tmp:
            checkpoint = save_module(algo, args.checkpoint or Path(tmp) / "rl_module")
            algo.stop()
            evaluation = evaluate(checkpoint, args.eval_deals, seed=args.seed)
        summary = {"history": history, "evaluation": evaluation}
        if not args.json:
            print(f"evaluation, {evaluation['games']} games: the learner takes "
                  f"{evaluation['learner_points_per_deal']:.2f} points per deal, the heuristic seats "
                  f"{evaluation['heuristic_points_per_deal']:.2f}; illegal moves {evaluation['illegal_moves']}")
    if args.json:
        print(json.dumps(summary))
    return summary


if __name__ == "__main__":
    main()
