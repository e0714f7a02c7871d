"""The SB3 training examples run (tiny versions) and never take an illegal action.

Both examples build their env with ``illegal_action="raise"``, so any illegal action during
training or evaluation fails the run.
"""

import importlib.util
import sys
from pathlib import Path

import numpy as np
import torch  # the train extra (torch, sb3, sb3-contrib) is part of the test extra

torch.set_num_threads(1)
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def load(name):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_maskable_ppo_example(tmp_path):
    result = load("train_maskable_ppo").main(["--timesteps", "600", "--eval-deals", "3",
                                              "--save", str(tmp_path / "ppo.zip")])
    assert result["illegal"] == 0 and (tmp_path / "ppo.zip").exists()
    from hearts_env.evaluation.arena import run_arena

    records = run_arena([f"sb3:{tmp_path / 'ppo.zip'}", "random"], deals=1, jobs=1, isolation="none")  # it plays
    assert all(r["error"] is None for r in records)


def test_maskable_ppo_example_on_the_vector_env():
    result = load("train_maskable_ppo").main(["--timesteps", "600", "--eval-deals", "3", "--num-envs", "16",
                                              "--opponents", "greedy", "--observation", "paper260"])
    assert result["illegal"] == 0


def test_masked_dqn_example_masks_greedy_target_and_exploration():
    import gymnasium

    import hearts_env  # noqa: F401

    example = load("train_masked_dqn")
    result = example.main(["--timesteps", "600", "--learning-starts", "200", "--eval-deals", "3"])
    assert result["illegal"] == 0
    env = gymnasium.make("hearts_env/Hearts-v0", dict_obs=True, illegal_action="raise")
    model = example.build(env, seed=0, learning_starts=10)
    obs, _ = env.reset(seed=3)
    tensor, _ = model.policy.obs_to_tensor(obs)
    q = model.q_net(tensor)[0].detach().numpy()
    target_q = model.q_net_target(tensor)[0].detach().numpy()
    illegal = obs["action_mask"] == 0
    from hearts_baselines.learned.masked_dqn import ILLEGAL_Q

    assert np.all(q[illegal] == ILLEGAL_Q) and np.all(target_q[illegal] == ILLEGAL_Q)
    model.exploration_rate = 1.0
    picks = {int(model.predict(obs, deterministic=False)[0]) for _ in range(50)}
    assert picks <= set(np.flatnonzero(obs["action_mask"])) and len(picks) > 1


def test_train_and_benchmark_tutorial_runs_end_to_end(tmp_path):
    """The tutorial of docs/examples.md: train, save, and benchmark the saved model on the smoke tier."""
    result = load("train_and_benchmark").main(["--timesteps", "300", "--tier", "smoke", "--rungs", "random",
                                               "--out", str(tmp_path), "--jobs", "1"])
    assert (tmp_path / "model.zip").exists() and (tmp_path / "bench" / "result.json").exists()
    assert result["agent"] == "sb3:model.zip" and set(result["rungs"]) == {"random"}  # the file by name, no folder
    assert all(not rung["errors"] for rung in result["rungs"].values())  # the model never forfeited a game
