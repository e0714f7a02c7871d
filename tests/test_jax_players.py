"""hearts_env.jax.greedy_action is the ``greedy`` agent card for card: at every step of deals played through ``Deal``
and the JAX engine in lockstep, under every ``Rules`` field."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from rule_strategies import SETTINGS, rules_strategy

jax = pytest.importorskip("jax")

from hearts_env import jax as hj  # noqa: E402
from hearts_env.agents import make_agent  # noqa: E402
from hearts_env.engine import Deal  # noqa: E402
from hearts_env.rules import Rules, make_rules  # noqa: E402
from hearts_env.views import SeatView  # noqa: E402

_init = jax.jit(jax.vmap(hj.init_from_hands, in_axes=(0, None, 0, 0)))
_step = jax.jit(jax.vmap(hj.step, in_axes=(0, 0, None)))
_greedy = jax.jit(jax.vmap(hj.greedy_action, in_axes=(0, None)))


def replay_greedy(deals: list[Deal], rules: Rules, picker: random.Random) -> int:
    """Each step: the JAX greedy card equals the agent's for every unfinished deal; then each deal plays the
    greedy card or (one time in three) a random legal one. Returns the number of decisions compared."""
    data = hj.rules_data(rules)
    rps = rules.deck_obj.ranks_per_suit
    hands = np.stack([np.stack([hj.suit_words(h, rps) for h in d.dealt]) for d in deals])
    state = _init(hands, data, np.array([d.pass_direction for d in deals], np.int32),
                  np.array([d.dealer for d in deals], np.int32))
    agent = make_agent("greedy")
    compared = 0
    while not all(d.is_over for d in deals):
        got = np.asarray(_greedy(state, data))
        cards = []
        for i, d in enumerate(deals):
            if d.is_over:
                assert got[i] == -1
                cards.append(0)
                continue
            agent.reset(rules, d.current, 0)
            want = agent.act(SeatView.of(d, d.current))
            assert got[i] == want, (i, d.history)
            compared += 1
            card = want if picker.random() < 2 / 3 else picker.choice(d.legal_cards())
            d.apply(card)
            cards.append(card)
        state = _step(state, np.array(cards, np.int32), data)
    return compared


@SETTINGS
@given(rules_strategy(), st.integers(0, 2**32 - 1))
def test_greedy_action_is_the_greedy_agent_under_every_rule(rules, seed):
    rng = np.random.default_rng(seed)
    replay_greedy([Deal.random(rules, rng, dealer=int(rng.integers(4))) for _ in range(4)], rules, random.Random(seed))


@pytest.mark.parametrize("preset", ["standard", "openspiel", "sturtevant", "dutch"])
def test_greedy_action_on_presets(preset):
    rules = make_rules(preset)
    rng = np.random.default_rng(1)
    directions = [0, 1, 2, 3] if rules.has_passing else [0]
    deals = [Deal.random(rules, rng, pass_direction=directions[i % len(directions)]) for i in range(12)]
    assert replay_greedy(deals, rules, random.Random(2)) > 12 * 13
