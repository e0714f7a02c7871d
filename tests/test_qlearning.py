"""Paper 002's tabular Q-learning player: its 12 states, its actions, its update rule, training
reproducibility and its weights file."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from rule_strategies import SETTINGS

from hearts_baselines.qlearning.agent import Hyper, QLearningAgent, action_reward, load_table, save_table
from hearts_baselines.qlearning.states import BAD, GOOD, NUM_STATES, action_card, state_of
from hearts_baselines.qlearning.train import train
from hearts_env.agents import make_agent
from hearts_env.agents.basic import GreedyAgent
from hearts_env.cards import parse_cards
from hearts_env.engine import Deal, Phase
from hearts_env.rules import make_rules
from hearts_env.views import SeatView

RULES = make_rules("standard(game=deal)")


def _views(seed: int, rules=RULES):
    """Every play-phase decision with two or more legal cards of one random deal."""
    deal = Deal.random(rules, seed)
    rnd = random.Random(seed)
    while not deal.is_over:
        view = SeatView.of(deal, deal.current)
        if view.phase == Phase.PLAY and view.legal & (view.legal - 1):
            yield view
        deal.apply(rnd.choice(deal.legal_cards()))


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), preset=st.sampled_from(["standard(game=deal)", "sturtevant", "dutch"]))
def test_every_action_plays_a_legal_card_and_good_is_greedy(seed, preset):
    greedy = GreedyAgent()
    for view in _views(seed, make_rules(preset)):
        state = state_of(view)
        assert 1 <= state <= NUM_STATES
        good, bad = action_card(view, state, GOOD), action_card(view, state, BAD)
        assert view.legal >> good & 1 and view.legal >> bad & 1
        if state != 3:  # the paper defines state 3's good move as the smallest card
            assert good == greedy.act(view)


def test_random_play_reaches_all_twelve_states():
    seen = {state_of(view) for seed in range(300) for view in _views(seed)}
    assert seen == set(range(1, NUM_STATES + 1))


def _position(hands, plays, rules="standard(game=deal, passing=none)"):
    deal = Deal.from_hands(rules, hands)
    deal.apply_all(plays)
    return SeatView.of(deal, deal.current)


# seat 0 holds 2♣ and leads it; seat 3 then leads after taking the first trick
HANDS = ["2C 3C 4C 5C 2D 3D 4D 5D 2S 3S 2H 3H 4H",
         "6C 7C 8C 9C 6D 7D 8D 9D 4S 5S 5H 6H 7H",
         "TC JC QC KC TD JD QD KD 6S 7S 8H 9H TH",
         "AC AD 8S 9S TS JS QS KS AS JH QH KH AH"]


def test_states_of_hand_built_positions():
    leading = _position(HANDS, ["2C", "6C", "TC", "AC"])  # seat 3 wins and leads, holding Q♠ and low spades
    assert leading.seat == 3 and state_of(leading) == 2
    assert action_card(leading, 2, GOOD) == GreedyAgent().act(leading)
    assert action_card(leading, 2, BAD) == parse_cards(["JS"])[0]  # early: the highest spade below Q♠
    second = _position(HANDS, ["2C", "6C", "TC", "AC", "8S"])  # seat 0 follows a spade: can go under
    assert second.seat == 0 and state_of(second) == 6
    void_last = _position(HANDS, ["2C", "6C", "TC", "AC", "AD", "2D", "6D"])  # seat 2 is last in a diamond
    assert state_of(void_last) == 10  # follows, no point on the table
    assert action_card(void_last, 10, BAD) == parse_cards(["TD"])[0]  # its lowest diamond


def test_action_rewards_follow_the_paper():
    assert [action_reward(GOOD, t) for t in (0, 1, 2, 3)] == [20.0, 20.5, 21.5, 23.0]
    assert [action_reward(BAD, t) for t in (0, 1, 2, 3)] == [25.0, 24.5, 23.5, 22.0]  # cross after trick 3


def test_update_rule_is_the_papers_equation():
    agent = QLearningAgent(learn=True, epsilon=0.0, alpha=0.5, gamma=0.9, theta=2.0)
    agent.q[:] = 10.0
    agent._pending = (4, BAD, 25.0, 3)  # state 4, bad, R = 25, 3 points taken before
    agent._update(points_now=16, best_next=40.0)  # took Q♠ (13 points) since
    assert agent.q[3, BAD] == pytest.approx(0.5 * 10.0 + 0.5 * (25.0 - 2.0 * 13 + 0.9 * 40.0))
    assert (np.delete(agent.q.ravel(), 3 * 2 + BAD) == 10.0).all()


def test_training_is_reproducible_from_its_seed(tmp_path):
    a = train(150, seed=7, out=tmp_path / "a.json", save_every=50)
    b = train(150, seed=7)
    c = train(150, seed=8)
    assert np.array_equal(a.q, b.q) and not np.array_equal(a.q, c.q)
    q, hyper = load_table(str(tmp_path / "a.json"))
    assert np.array_equal(q, a.q.round(6)) and hyper == Hyper()
    assert json.loads((tmp_path / "a.json").read_text())["deals"] == 150


def test_bundled_player_plays_legal_games_without_learning():
    agent = make_agent("qlearning")
    bundled, _ = load_table(None)
    assert np.array_equal(agent.q, bundled) and agent.hyper.epsilon == 0.0 and not agent.learn
    for seed in range(5):
        deal = Deal.random(RULES, seed)
        players = [agent, make_agent("greedy"), make_agent("greedy"), make_agent("random")]
        for s, p in enumerate(players):
            p.reset(RULES, s, seed)
        while not deal.is_over:
            deal.apply(players[deal.current].act(SeatView.of(deal, deal.current)))
        agent.end_deal(SeatView.of(deal, 0))
    assert np.array_equal(agent.q, bundled)  # playing does not change the table
    assert "state" in agent.table_text()


def test_foreign_or_broken_weights_are_refused_clearly(tmp_path):
    cases = {"text.json": "not json", "other.json": json.dumps({"format": "something else"}),
             "shape.json": json.dumps({"format": "hearts_baselines.qlearning/1", "q": [[1, 2]], "hyper": {}})}
    for name, text in cases.items():
        (tmp_path / name).write_text(text)
        with pytest.raises(ValueError, match="qlearning"):
            QLearningAgent(weights=str(tmp_path / name))
    with pytest.raises(ValueError, match="cannot read"):
        QLearningAgent(weights=str(tmp_path / "missing.json"))
    save_table(tmp_path / "ok.json", np.ones((NUM_STATES, 2)), Hyper(), {})
    assert QLearningAgent(weights=str(tmp_path / "ok.json")).q.sum() == 2 * NUM_STATES
