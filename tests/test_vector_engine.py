"""The batched engine against the scalar engine: same deals and actions, same masks, tricks, points."""

import random

import numpy as np
import pytest

from hearts_env.engine import Deal, IllegalActionError
from hearts_env.rules import make_rules
from hearts_env.vector import VectorDeals

FLAGS = ("no_pts_on_first_trick", "can_lead_any_club", "jd_bonus", "avoid_all_tricks_bonus",
         "must_break_hearts", "qs_breaks_hearts", "can_lead_hearts_instead_of_qs")


def _rules(preset, seed):
    rules = make_rules(preset)
    if preset == "openspiel":
        rnd = random.Random(seed)
        rules = rules.replace(**{f: rnd.random() < 0.5 for f in FLAGS})
    return rules


@pytest.mark.parametrize("preset", ["standard", "openspiel", "sturtevant", "dutch"])
@pytest.mark.parametrize("seed", range(4))
def test_vector_equals_scalar(preset, seed):
    rules = _rules(preset, seed)
    rng = np.random.default_rng(seed)
    size = 64
    directions = np.arange(size) % 4 if rules.has_passing else np.zeros(size, int)
    tables = VectorDeals.random(rules, size, rng, pass_directions=directions)
    scalars = [Deal.from_hands(rules, [int(h) for h in tables.hands[i]], pass_direction=int(directions[i]))
               for i in range(size)]
    policy = np.random.default_rng(seed + 100)
    while not tables.done.all():
        masks = tables.legal_masks()
        for i, deal in enumerate(scalars):
            assert int(masks[i]) == deal.legal_mask(), (i, deal.history)
            assert deal.is_over == bool(tables.done[i])
            if not deal.is_over:
                assert deal.current == tables.current[i]
        actions = tables.random_actions(policy)
        tables.step(actions)
        for i, deal in enumerate(scalars):
            if not deal.is_over:
                deal.apply(int(actions[i]))
    for i, deal in enumerate(scalars):
        assert list(tables.points[i]) == deal.points
        assert list(tables.trick_winners[i]) == deal.trick_winners
        assert (deal.moon_shooter if deal.moon_shooter is not None else -1) == tables.moon_shooter[i]
        assert [int(v) for v in tables.voids[i]] == deal.voids
        assert [int(t) for t in tables.taken[i]] == deal.taken


def test_illegal_card_names_the_table():
    tables = VectorDeals.random("standard(game=deal)", 4, np.random.default_rng(0), pass_directions=0)
    actions = tables.random_actions(np.random.default_rng(1))
    actions[2] = 51 if actions[2] != 51 else 50
    with pytest.raises(IllegalActionError, match="table 2"):
        tables.step(actions)


def test_random_actions_are_uniform_over_legal_cards():
    tables = VectorDeals.random("sturtevant", 20000, np.random.default_rng(3))
    actions = tables.random_actions(np.random.default_rng(4))
    # seat 0 leads any of its 13 cards: each card of the hand about 1/13 of the time
    hands = tables.hands[:, 0]
    rank_in_hand = np.array([bin(int(h) & ((1 << int(a)) - 1)).count("1") for h, a in zip(hands, actions)])
    counts = np.bincount(rank_in_hand, minlength=13)
    assert counts.min() > 1300 and counts.max() < 1780  # 1538 expected; > 6 sigma bounds
