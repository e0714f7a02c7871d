"""Deal.playout (the inlined rollout loop) against the checked step API."""

import random

from hypothesis import given
from hypothesis import strategies as st
from rule_strategies import SETTINGS, game_scores_strategy, moon_deal, rules_strategy

from hearts_env.engine import Deal

STATE = [name for name in Deal.__slots__ if name != "_c"]


@SETTINGS
@given(rules=rules_strategy(), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_playout_replays_through_apply_to_the_same_state(rules, seed, data):
    """Every Rules field drawn: the inlined playout makes only legal moves and ends in the step API's state."""
    rnd = random.Random(seed)
    direction = rnd.choice(rules.one_deal_directions) if rules.has_passing else 0
    deal = Deal.random(rules, seed, pass_direction=direction, dealer=rnd.randrange(4),
                       game_scores=data.draw(game_scores_strategy(rules)))
    for _ in range(rnd.randrange(60)):  # start from any point: passing, mid-trick, or over
        if deal.is_over:
            break
        deal.apply(rnd.choice(deal.legal_cards()))
    start = deal.clone()
    points = deal.playout(rnd)
    assert deal.is_over and points == deal.points
    replay = start.clone()
    for card in deal.history[len(start.history):]:
        replay.apply(card)  # raises if the playout chose an illegal card
    for name in STATE:
        assert getattr(replay, name) == getattr(deal, name), name


@SETTINGS
@given(rules=rules_strategy(), order=st.permutations(range(4)), dealer=st.integers(0, 3), data=st.data())
def test_playout_scores_moons_as_the_step_api(rules, order, dealer, data):
    deal = moon_deal(rules, list(order), dealer, data.draw(game_scores_strategy(rules)))
    replay = deal.clone()
    deal.playout(dealer)
    replay.apply_all(deal.history)
    assert replay.points == deal.points and replay.moon_shooter == deal.moon_shooter


def test_playout_is_reproducible_and_leaves_the_original_untouched():
    deal = Deal.random("standard", 5, pass_direction="left")
    a, b = deal.clone(), deal.clone()
    assert a.playout(11) == b.playout(11)
    assert a.history == b.history
    assert deal.history == [] and not deal.is_over


def test_playout_choices_are_uniform_over_legal_cards():
    deal = Deal.from_hands("sturtevant", ["2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
                                          "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
                                          "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
                                          "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"], dealer=3)
    rnd = random.Random(0)
    counts = [0] * 13
    for _ in range(6500):
        trial = deal.clone()
        trial.playout(rnd)
        counts[trial.history[0]] += 1  # seat 0 leads any of its 13 clubs
    assert min(counts) > 400 and max(counts) < 600  # 500 expected each; ~4.6 sigma bounds
