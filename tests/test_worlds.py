"""Sampled worlds agree with everything the seat knows, and only that."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts_env import Deal, Phase, SeatView, make_rules
from hearts_env.worlds import sample_hands, sample_world

PRESETS = ["standard", "openspiel", "dutch", "sturtevant"]


def _deal_at(preset, seed, steps):
    rules = make_rules(preset)
    deal = Deal.random(rules, seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if deal.is_over:
            break
        legal = deal.legal_cards()
        deal.apply(legal[int(rng.integers(len(legal)))])
    return deal


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(PRESETS), st.integers(0, 10_000), st.integers(0, 70), st.integers(0, 3), st.integers(0, 99))
def test_worlds_are_consistent_with_the_view(preset, seed, steps, seat, world_seed):
    deal = _deal_at(preset, seed, steps)
    if deal.is_over:
        return
    if deal.phase == Phase.PASS:
        seat = deal.current  # worlds during passing are for the seat choosing its passes
    view = SeatView.of(deal, seat)
    world = sample_world(view, np.random.default_rng(world_seed))
    assert world.phase == deal.phase and world.current == deal.current
    assert world.hands[seat] == deal.hands[seat]
    union = 0
    for s in range(4):
        assert world.hands[s].bit_count() == deal.hands[s].bit_count()
        assert not union & world.hands[s]
        union |= world.hands[s]
        assert world.played_by[s] == deal.played_by[s] and world.taken[s] == deal.taken[s]
        for suit in range(4):
            if view.voids[s] >> suit & 1:
                assert not world.hands[s] & deal.rules.deck_obj.suit_mask(suit)
    assert union == deal.hands[0] | deal.hands[1] | deal.hands[2] | deal.hands[3]
    if deal.phase == Phase.PLAY:
        assert world.trick == deal.trick and world.hearts_broken == deal.hearts_broken and world.voids == deal.voids
        target = view.pass_target
        if deal.pass_direction and target != seat:
            assert view.passed & ~view.played & ~world.hands[target] == 0  # passed cards sit with the target
        if deal.current == seat:
            assert world.legal_mask() == deal.legal_mask()


def test_worlds_vary_and_cover_the_unseen_cards():
    deal = _deal_at("standard", 5, 20)
    view = SeatView.of(deal, deal.current)
    rng = np.random.default_rng(0)
    other = (view.seat + 1) % 4
    seen = {sample_hands(view, rng)[other] for _ in range(30)}
    assert len(seen) > 20
    covered = 0
    for _ in range(200):
        covered |= sample_hands(view, rng)[other]
    allowed = view.unseen | view.known_held_by(other)
    for suit in range(4):
        if view.voids[other] >> suit & 1:
            allowed &= ~deal.rules.deck_obj.suit_mask(suit)
    assert covered == allowed


def test_passing_worlds_are_for_the_seat_to_pass():
    import pytest

    deal = Deal.random(make_rules("standard"), 0)
    with pytest.raises(ValueError, match="choosing its passes"):
        sample_world(SeatView.of(deal, 2), np.random.default_rng(0))


def test_heavily_constrained_views_still_sample():
    """Many shown voids: the greedy assignment may dead-end; the matching fallback always succeeds."""
    for seed in range(60):
        deal = _deal_at("sturtevant", seed, 36)
        if deal.is_over:
            continue
        view = SeatView.of(deal, deal.current)
        for k in range(5):
            world = sample_world(view, np.random.default_rng(k))
            assert world.legal_mask() == deal.legal_mask()
