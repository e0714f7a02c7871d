"""Beliefs about hidden cards (hearts_baselines.search.beliefs): the replayed histories reach the view's state,
the true deal scores every play as the model's when the seats play as the model says, the weights are a probability over
the legal cards, resampling follows the weights, and ``pimc(belief=...)`` plays and refuses bad settings."""

import numpy as np
import pytest

from hearts_baselines.search import beliefs
from hearts_env import Deal, Phase, SeatView, make_rules
from hearts_env.agents import make_agent
from hearts_env.worlds import sample_world_batch

PRESETS = ["standard", "openspiel", "sturtevant", "dutch"]


def _played(preset: str, seed: int, plays: int) -> Deal:
    """A deal of ``heuristic`` seats stopped after ``plays`` cards of the play phase (its passes made)."""
    deal = Deal.random(make_rules(preset), seed)
    agents = [make_agent("heuristic") for _ in range(4)]
    for seat, agent in enumerate(agents):
        agent.reset(deal.rules, seat, seed)
    while deal.phase == Phase.PASS or len(SeatView.of(deal, 0).plays) < plays:
        deal.apply(agents[deal.current].act(SeatView.of(deal, deal.current)))
    return deal


def _replayed(view, worlds, rng):
    deals = beliefs.histories(view, worlds, rng)
    for card in view.plays:
        deals.step(np.full(deals.size, card, np.int64))
    return deals


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("plays", [1, 9, 22])
def test_each_history_replays_to_its_world_with_the_seats_own_passes(preset, plays):
    deal = _played(preset, 7 + plays, plays)
    view = SeatView.of(deal, deal.current)
    worlds = sample_world_batch(view, np.random.default_rng(plays), 64)
    replayed = _replayed(view, worlds, np.random.default_rng(1))
    for field in ("hands", "played_by", "taken", "trick_mask", "current", "hearts_broken", "voids"):
        assert np.array_equal(getattr(replayed, field), getattr(worlds, field)), field
    me, offset = view.seat, view.pass_direction
    assert (replayed.passed[:, me] == view.passed).all()
    if offset:
        assert (replayed.passed[:, (me - offset) % 4] == view.received).all()
    assert (replayed.dealt[:, me] == view.dealt).all()  # the seat's own hand as dealt is the true one


@pytest.mark.parametrize("plays", [4, 17, 30])
def test_when_the_seats_play_as_the_model_says_the_true_deal_scores_every_play_as_the_models(plays):
    deal = _played("standard", 100 + plays, plays)
    view = SeatView.of(deal, deal.current)
    worlds = sample_world_batch(view, np.random.default_rng(0), 200)
    worlds.hands[0] = np.array(deal.hands, np.uint64)  # row 0: the true hands now (the rows share the public state)
    epsilon = 0.1
    log_likelihood = beliefs.play_log_likelihoods(view, worlds, beliefs.heuristic_model(epsilon),
                                                  np.random.default_rng(2))
    # every other seat played heuristic's card: each play scores 1 - ε + ε/choices, a forced play 1
    replay = Deal.from_hands(deal.rules, deal.dealt, pass_direction=deal.pass_direction, dealer=deal.dealer)
    expected = 0.0
    for card in deal.history:
        if replay.phase == Phase.PLAY and replay.current != view.seat:
            choices = len(replay.legal_cards())
            expected += np.log(1 - epsilon + epsilon / choices) if choices > 1 else 0.0
        replay.apply(card)
    assert log_likelihood[0] == pytest.approx(expected)
    # a world where some seat did not play heuristic's card scores at most ε / 2 for that play: far below
    deviated = log_likelihood <= np.log(epsilon / 2)
    assert log_likelihood[0] > np.log(epsilon / 2) and deviated.any()  # the plays do tell the worlds apart


@pytest.mark.parametrize("model", beliefs.MODELS)
def test_a_models_likelihoods_are_a_distribution_over_the_legal_cards(model):
    deal = _played("standard", 5, 13)
    view = SeatView.of(deal, deal.current)
    worlds = sample_world_batch(view, np.random.default_rng(3), 32)
    likelihood = beliefs.heuristic_model(0.3) if model == "heuristic" else beliefs.apprentice_model(0.3)
    replayed = _replayed(view, worlds, np.random.default_rng(4))
    seat = (view.seat + 1) % 4
    replayed.current[:] = seat  # ask the model about another seat's choice in each world
    legal = replayed.legal_masks()
    total = np.zeros(worlds.size)
    for card in range(52):
        holds = (legal >> np.uint64(card)) & np.uint64(1) == 1
        if holds.any():
            total[holds] += np.exp(likelihood(replayed, seat, card))[holds]
    assert total == pytest.approx(np.ones(worlds.size))


def test_resampling_draws_each_row_within_one_of_its_expected_count():
    rng = np.random.default_rng(0)
    log_weights = np.log(rng.random(50)) * 3
    w = np.exp(log_weights - log_weights.max())
    expected = 1000 * w / w.sum()
    counts = np.bincount(beliefs.resample(log_weights, 1000, rng), minlength=50)
    assert counts.sum() == 1000 and (np.abs(counts - expected) < 1 + 1e-9).all()
    assert beliefs.effective_size(np.zeros(10)) == pytest.approx(10)
    assert beliefs.effective_size(np.array([0.0, -np.inf, -np.inf])) == pytest.approx(1)


@pytest.mark.parametrize(("spec", "named"), [
    ("pimc(belief='xinxin')", "belief='xinxin' is not a model of play: one of heuristic, apprentice"),
    ("pimc(belief='heuristic', epsilon=0)", r"epsilon \(the uniform share of the belief model\) must be in \(0, 1\]"),
    ("pimc(belief='heuristic', epsilon=1.5)", r"must be in \(0, 1\], got 1.5"),
    ("pimc(belief='heuristic', proposals=0)", "proposals .* must be an integer >= 1"),
    ("pimc(belief='heuristic', policy='culhane')", "needs rollouts on the batched engine"),
    ("pimc(opponents='random')", "opponents='random' needs opponents='random' to be greedy or heuristic"),
    ("pimc(policy='random', opponents='heuristic')", "needs policy='random' to be greedy or heuristic"),
    ("pimc(opponents='heuristic(chase=-1)')", "chase must be a number of points"),
])
def test_a_bad_belief_or_rollout_setting_is_refused_when_the_agent_is_built(spec, named):
    with pytest.raises(ValueError, match=named):
        make_agent(spec)


def test_the_apprentice_belief_refuses_the_dutch_deck_when_seated():
    agent = make_agent("pimc(n=4, belief='apprentice')")
    with pytest.raises(ValueError, match="belief='apprentice' reads the 52-card deck's observation; these rules "
                                         "use the dutch deck"):
        agent.reset(make_rules("dutch"), 0, 0)


@pytest.mark.parametrize("spec", ["pimc(n=8, belief='heuristic')", "pimc(n=4, belief='apprentice', proposals=8)"])
def test_pimc_with_a_belief_plays_a_whole_deal_and_repeats_its_seed(spec):
    deal = Deal.random(make_rules("standard"), 3)
    agents = [make_agent(spec if seat == 0 else "heuristic") for seat in range(4)]
    for seat, agent in enumerate(agents):
        agent.reset(deal.rules, seat, 3)
    while not deal.is_over:  # Deal.apply refuses an illegal card
        deal.apply(agents[deal.current].act(SeatView.of(deal, deal.current)))
    deal = _played("standard", 11, 20)
    view = SeatView.of(deal, deal.current)
    picks = set()
    for _ in range(2):
        agent = make_agent(spec)
        agent.reset(deal.rules, view.seat, 5)
        picks.add(agent.act(view))
        assert 1 <= agent.last_effective_worlds <= (agent.proposals or 4 * agent.n)
    assert len(picks) == 1


def test_rollouts_with_the_seat_apart_are_the_rollouts_when_both_policies_are_the_same():
    from hearts_baselines.search_common import rollout_batch, rollout_seat_apart
    from hearts_env.vector import VectorDeals

    fresh = VectorDeals.random("standard", 64, np.random.default_rng(0))
    same = rollout_seat_apart(fresh.take(np.arange(64)), 2, "heuristic", "heuristic", np.random.default_rng(2))
    assert np.array_equal(same, rollout_batch(fresh.take(np.arange(64)), "heuristic", np.random.default_rng(3)))
    chasing = rollout_seat_apart(fresh.take(np.arange(64)), 2, "heuristic", "heuristic(chase=1, moon_alarm=99)",
                                 np.random.default_rng(2))
    assert not np.array_equal(chasing, same)  # the other seats go for the moon: the deals end otherwise


def test_pimc_with_the_same_opponents_as_its_policy_plays_as_pimc():
    deal = _played("standard", 21, 14)
    view = SeatView.of(deal, deal.current)
    picks = []
    for spec in ("pimc(n=40)", "pimc(n=40, opponents='heuristic')"):
        agent = make_agent(spec)
        agent.reset(deal.rules, view.seat, 9)
        picks.append((agent.act(view), agent.last_values))
    assert picks[0] == picks[1]
