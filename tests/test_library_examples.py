"""The Tianshou and TorchRL examples run (tiny versions) and behave: legal moves only, finite losses, and an
evaluation figure in points per deal.

Both examples build their envs with ``illegal_action="raise"``, so an illegal card anywhere (training or
evaluation) fails the run; the tests also check the collected data against the masks themselves.
"""

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest
import torch  # tianshou and torchrl are part of the test extra

torch.set_num_threads(1)
pytestmark = pytest.mark.filterwarnings(  # raised by torchrl's own imports
    "ignore:Creating .*WeightUpdater which inherits from WeightUpdaterBase is deprecated:DeprecationWarning",
)
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SEATS = ["player_0", "player_1", "player_2", "player_3"]


def load(name):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_tianshou_dqn_example(capsys):
    result = load("tianshou_dqn").main(["--epochs", "2", "--epoch-steps", "150", "--batch-size", "64",
                                        "--eval-deals", "4", "--seed", "3"])
    out = capsys.readouterr().out
    assert "epoch 2:" in out and "points/deal" in out
    assert result["illegal"] == 0
    assert result["steps"] >= 300 and result["stored"] == result["steps"]  # whole deals only, all kept
    assert result["losses"] and np.isfinite(result["losses"]).all()
    assert 0 <= result["points"] <= 26 and 0 <= result["random_points"] <= 26
    # the buffer: every move legal, every deal complete, and each move's DQN target is the mover's own
    # reward at the end of its deal (Monte-Carlo: no bootstrap from the next, other seat's observation)
    algorithm, buffer = result["algorithm"], result["buffer"]
    indices = buffer.sample_indices(0)
    batch = buffer[indices]
    assert batch.obs.mask[np.arange(len(batch)), batch.act].all()
    assert buffer.unfinished_index().size == 0  # collecting whole deals leaves none running in the buffer
    targets = algorithm._preprocess_batch(batch, buffer, indices)
    for seat, agent in enumerate(SEATS):
        rows = np.flatnonzero(batch.obs.agent_id == agent)
        assert rows.size
        ends = indices[rows]
        while not buffer.done[ends].all():
            ends = np.where(buffer.done[ends], ends, buffer.next(ends))
        np.testing.assert_allclose(targets[agent].returns.numpy().ravel(), buffer.rew[ends, seat])


def test_torchrl_ppo_example(capsys):
    result = load("torchrl_ppo").main(["--iterations", "2", "--frames-per-batch", "160", "--minibatch-size", "64",
                                       "--eval-deals", "4", "--seed", "3"])
    out = capsys.readouterr().out
    assert "iteration 2:" in out and "points/deal" in out
    assert result["illegal"] == 0 and result["moves"] == 320  # one acting seat per collected step
    assert len(result["history"]) == 2
    for row in result["history"]:
        assert all(np.isfinite(row[key]) for key in ("loss_objective", "loss_critic", "loss_entropy"))
        assert row["deals"] >= 2 and -26 <= row["reward"] <= 0
    assert 0 <= result["points"] <= 26 and 0 <= result["random_points"] <= 26


@pytest.mark.parametrize("name", ["tianshou_dqn", "torchrl_ppo"])
def test_library_example_docstring_command(name):
    """The docstring's command uses options the example has."""
    module = load(name)
    command = next(line.split() for line in module.__doc__.splitlines() if line.strip().startswith("python "))
    assert command[1] == f"examples/{name}.py"
    options = {arg for arg in command[2:] if arg.startswith("--")}
    source = (EXAMPLES / f"{name}.py").read_text()
    assert all(f'"{option}"' in source for option in options)
