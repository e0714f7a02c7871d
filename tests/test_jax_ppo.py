"""examples/jax_ppo.py runs (its CI smoke size) and saves a policy that the apprentice agent plays card for card as
the JAX network chose it."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

jax = pytest.importorskip("jax")

from hearts_env import jax as hj  # noqa: E402
from hearts_env.agents import make_agent  # noqa: E402
from hearts_env.engine import Deal  # noqa: E402
from hearts_env.rules import make_rules  # noqa: E402
from hearts_env.views import SeatView  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "jax_ppo.py"


def load():
    spec = importlib.util.spec_from_file_location("jax_ppo", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    sys.modules["jax_ppo"] = module
    spec.loader.exec_module(module)
    return module


def test_smoke_run_trains_and_the_apprentice_plays_its_policy(tmp_path):
    example = load()
    out = tmp_path / "policy.npz"
    result = example.main(["--smoke", "--out", str(out)])
    assert result["learner_steps"] == 8 * 16 * 2 and result["episodes"] > 0 and np.isfinite(result["final_loss"])
    agent = make_agent(f"apprentice(weights='{out}')")
    params = dict(np.load(out))
    rules = make_rules("openspiel")
    data = hj.rules_data(rules)
    deal = Deal.random(rules, 5, pass_direction=1)
    state = hj.init_from_hands(np.stack([hj.suit_words(h, 13) for h in deal.dealt]), data, 1, 3)
    while not deal.is_over:
        seat = deal.current
        agent.reset(rules, seat, 0)
        card = agent.act(SeatView.of(deal, seat))
        logits, _ = example.forward({k: v for k, v in params.items() if k not in ("header", "wq", "bq")},
                                    hj.observe(state, seat, data, "rich"))
        assert card == int(np.argmax(example.masked(logits, hj.legal_action_mask(state, data))))
        deal.apply(card)
        state = hj.step(state, card, data)
