"""Deal.playout (the inlined rollout loop) against the checked step API."""

import random

import pytest

from hearts_env.engine import Deal
from hearts_env.rules import make_rules

FLAGS = ("no_pts_on_first_trick", "can_lead_any_club", "jd_bonus", "avoid_all_tricks_bonus",
         "must_break_hearts", "qs_breaks_hearts", "can_lead_hearts_instead_of_qs")
STATE = [name for name in Deal.__slots__ if name != "_c"]


def _random_rules(preset: str, rnd: random.Random):
    rules = make_rules(preset)
    if preset == "openspiel":
        rules = rules.replace(**{flag: rnd.random() < 0.5 for flag in FLAGS})
    return rules


@pytest.mark.parametrize("preset", ["standard", "openspiel", "sturtevant", "dutch"])
def test_playout_replays_through_apply_to_the_same_state(preset):
    for seed in range(150):
        rnd = random.Random(seed)
        rules = _random_rules(preset, rnd)
        deal = Deal.random(rules, seed, pass_direction=rnd.randrange(4) if rules.has_passing else 0)
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
