"""Learned baselines: training commands (tiny runs), checkpoints and their checks, registered agents."""

import json
import shutil

import numpy as np
import pytest
import torch

from hearts_baselines.learned import train_dqn, train_ppo
from hearts_baselines.learned.checkpoints import CheckpointError, bundled, verify
from hearts_env.agents import AgentError, make_agent
from hearts_env.evaluation.arena import run_arena
from hearts_env.rules import make_rules

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
    records = run_arena([f"ppo(weights={str(out / 'latest.zip')!r})", "random"], deals=2, jobs=1,
                        isolation="none")  # in this process: 28 fresh ones would each import torch
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
    records = run_arena([f"dqn(weights={str(tmp_path / 'latest.zip')!r})", "greedy"], deals=1, jobs=1,
                        isolation="none")
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


def test_a_checkpoint_of_the_other_algorithm_is_refused_by_name():
    """The mistake: ppo(weights=<a DQN file>) used to play the DQN, labelled 'ppo' in every result."""
    dqn = str(bundled("dqn"))
    with pytest.raises(CheckpointError, match=r"holds a DQN model, not MaskablePPO; load it with dqn\(weights="):
        make_agent(f"ppo(weights={dqn!r})")
    with pytest.raises(CheckpointError, match="holds a MaskablePPO model, not DQN"):
        make_agent(f"dqn(weights={str(bundled('ppo'))!r})")


@pytest.mark.parametrize("spec", ["ppo", "dqn"])
def test_rules_the_network_cannot_take_are_refused_before_a_card_is_played(spec):
    """The mistake: ppo under the Dutch deck failed game after game in the arena instead of once, up front."""
    with pytest.raises(ValueError, match=rf"agent '{spec}' cannot play rules dutch\(game=deal\).*620.*trained under"):
        run_arena([spec, "random"], deals=2, rules="dutch(game=deal)", jobs=1)
    agent = make_agent(spec)
    with pytest.raises(AgentError, match="give 400"):
        agent.reset(make_rules("dutch(game=deal)"), 0, seed=0)
    agent.reset(make_rules("standard"), 0, seed=0)  # games to 100 encode like one deal: accepted


def test_a_core_install_is_told_which_extra_loads_a_checkpoint(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_sb3_contrib(name, *args, **kwargs):
        if name.startswith("sb3_contrib"):
            raise ImportError("No module named 'sb3_contrib'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_sb3_contrib)
    with pytest.raises(CheckpointError, match=r"needs the train extra .*pip install 'hearts-env\[train\]'"):
        make_agent("ppo")
