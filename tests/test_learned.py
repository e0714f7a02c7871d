"""Learned baselines: training commands (tiny runs), checkpoints and their checks, registered agents."""

import json
import shutil

import numpy as np
import pytest
import torch

from hearts_baselines.learned import train_dqn, train_ppo
from hearts_baselines.learned.checkpoints import CheckpointError, bundled, verify
from hearts_env.agents import make_agent
from hearts_env.arena import run_arena

torch.set_num_threads(1)


@pytest.fixture(scope="module")
def ppo_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("ppo")
    result = train_ppo.main(["--timesteps", "1024", "--num-envs", "16", "--eval-deals", "20", "--out", str(out),
                             "--net-arch", "32", "--opponents", "self", "--snapshot-every", "256"])
    return out, result


def test_ppo_training_writes_a_verified_checkpoint_that_plays(ppo_run):
    out, result = ppo_run
    meta = verify(out / "latest.zip")
    assert meta["algo"] == "MaskablePPO" and meta["timesteps"] == result["timesteps"] >= 1024
    assert meta["evaluation"]["deals"] == 20 and json.loads((out / "result.json").read_text()) == meta["evaluation"]
    records = run_arena([f"ppo(weights={str(out / 'latest.zip')!r})", "random"], deals=2, jobs=1)
    assert all(r["error"] is None for r in records)


def test_resume_does_not_redo_finished_training(ppo_run):
    out, result = ppo_run
    again = train_ppo.main(["--timesteps", "1024", "--num-envs", "16", "--eval-deals", "20", "--out", str(out),
                            "--resume"])
    assert again["timesteps"] == result["timesteps"]


def test_dqn_training_and_agent(tmp_path):
    result = train_dqn.main(["--timesteps", "600", "--num-envs", "4", "--learning-starts", "100", "--eval-deals",
                             "10", "--out", str(tmp_path), "--net-arch", "32"])
    assert result["deals"] == 10
    agent = make_agent(f"dqn(weights={str(tmp_path / 'latest.zip')!r})")
    records = run_arena([f"dqn(weights={str(tmp_path / 'latest.zip')!r})", "greedy"],
                        deals=1, jobs=1)
    assert agent.metadata["dict_obs"] and all(r["error"] is None for r in records)


def test_corrupted_foreign_and_old_checkpoints_are_refused(ppo_run, tmp_path):
    out, _ = ppo_run
    model, meta = tmp_path / "m.zip", tmp_path / "m.json"
    shutil.copy(out / "latest.zip", model)
    shutil.copy(out / "latest.json", meta)
    verify(model)
    data = bytearray(model.read_bytes())
    data[len(data) // 2] ^= 0xFF
    model.write_bytes(bytes(data))
    with pytest.raises(CheckpointError, match="corrupted"):
        verify(model)
    shutil.copy(out / "latest.zip", model)
    old = json.loads(meta.read_text())
    meta.write_text(json.dumps({**old, "hearts_env": "0.0.9"}))
    with pytest.raises(CheckpointError, match=r"trained with hearts-env 0\.0\.9"):
        make_agent(f"ppo(weights={str(model)!r})")
    meta.write_text(json.dumps({**old, "format": 99}))
    with pytest.raises(CheckpointError, match="format 99"):
        verify(model)
    meta.unlink()
    with pytest.raises(CheckpointError, match="no metadata file"):
        verify(model)
    with pytest.raises(CheckpointError, match="no bundled weights named 'nope'"):
        bundled("nope")


@pytest.mark.parametrize("name", ["ppo", "dqn"])
def test_bundled_weights_load_offline_and_play_legal_cards(name):
    from hearts_env.engine import Deal
    from hearts_env.rules import make_rules
    from hearts_env.views import SeatView

    agent = make_agent(name)
    rules = make_rules("standard(game=deal)")
    deal = Deal.random(rules, np.random.default_rng(0))
    agent.reset(rules, 0, 0)
    while not deal.is_over:
        view = SeatView.of(deal, deal.current)
        agent.seat = deal.current
        card = agent.act(view)
        assert deal.legal_mask() >> card & 1
        deal.apply(card)
