"""examples/rllib_ppo.py in a tiny configuration: PPO trains (sampling in this process, then on one remote env
runner), never plays an illegal card, and the saved module plays arena games against three heuristic seats."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from examples import rllib_ppo

TINY = ["--iterations", "2", "--batch", "256", "--minibatch", "128", "--epochs", "1", "--hidden", "32",
        "--eval-deals", "2", "--json"]


@pytest.mark.parametrize("env_runners", [0, 1])
def test_ppo_trains_and_its_module_plays_in_the_arena(ray_cluster: str, env_runners: int, tmp_path: Path) -> None:
    checkpoint = tmp_path / "rl_module"
    summary: dict[str, Any] = rllib_ppo.main([*TINY, "--env-runners", str(env_runners),
                                              "--checkpoint", str(checkpoint)])
    history = summary["history"]
    assert [row["iteration"] for row in history] == [1, 2]
    assert history[-1]["env_steps"] >= 2 * 256 and history[-1]["episodes"] >= 4
    assert all(row["illegal_moves"] == 0 for row in history)
    assert -78 <= history[-1]["episode_return_mean"] <= -26  # the four seats share 26 points a deal (78: a moon)
    assert -26 <= history[-1]["seat_return_mean"] <= 0
    evaluation = summary["evaluation"]
    assert evaluation["games"] == 2 * 4  # each deal with the learner in each seat once
    assert evaluation["illegal_moves"] == 0 and evaluation["errors"] == 0
    assert len(evaluation["learner_points"]) == 8 and all(0 <= p <= 26 for p in evaluation["learner_points"])
    assert 0 <= evaluation["heuristic_points_per_deal"] <= 26
    assert (checkpoint / "module_state.pkl").exists()  # RLModule.save_to_path: what RLlibAgent loads


def test_an_illegal_card_is_counted(ray_cluster: str) -> None:
    """The callback behind ``illegal_moves`` sees the episode an illegal card ended (the env's infos)."""
    env = rllib_ppo.make_env()
    obs, _ = env.reset(seed=0)
    (agent, first), = obs.items()
    assert set(first) == {"observations", "action_mask"} and first["action_mask"].dtype == np.float32
    illegal = int(np.flatnonzero(first["action_mask"] == 0)[0])
    _, rewards, terminated, _, infos = env.step({agent: illegal})
    assert terminated["__all__"] and rewards[agent] == -1

    class Episode:
        def get_infos(self, index: int) -> dict[str, Any]:
            return infos

    class Logger:
        logged: list[tuple[str, int]] = []  # noqa: RUF012

        def log_value(self, key: str, value: int, **kwargs: Any) -> None:
            self.logged.append((key, value))

    logger = Logger()
    rllib_ppo.IllegalMoves().on_episode_end(episode=Episode(), metrics_logger=logger)
    assert logger.logged == [("illegal_moves", 1)]
