"""Sampled worlds agree with everything the seat knows, and only that."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rule_strategies import SETTINGS, game_scores_strategy, rules_strategy

from hearts_env import Deal, Phase, SeatView, make_rules
from hearts_env.evaluation.seat.protocol import view_to_json
from hearts_env.state import DealState
from hearts_env.vector import VectorDeals
from hearts_env.worlds import sample_hands, sample_history, sample_world, sample_world_batch, sample_worlds


def _deal_at(rules, seed, steps, game_scores=None):
    rnd = np.random.default_rng(seed)
    deal = Deal.random(make_rules(rules), rnd, dealer=int(rnd.integers(4)), game_scores=game_scores)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if deal.is_over:
            break
        legal = deal.legal_cards()
        deal.apply(legal[int(rng.integers(len(legal)))])
    return deal


@settings(SETTINGS, max_examples=150)
@given(rules_strategy(), st.integers(0, 10_000), st.integers(0, 70), st.integers(0, 3), st.integers(0, 99),
       st.booleans(), st.data())
def test_worlds_are_consistent_with_the_view(rules, seed, steps, seat, world_seed, batched, data):
    """Every Rules field drawn: each sampled world agrees with all the seat knows, and a world with its past
    (:func:`sample_history`: hands as dealt, every pass, every play) shows the seat its view of the true deal,
    field for field, its own passes and received cards included."""
    deal = _deal_at(rules, seed, steps, data.draw(game_scores_strategy(rules)))
    if deal.is_over:
        return
    if deal.phase == Phase.PASS:
        seat = deal.current  # worlds during passing are for the seat choosing its passes
    view = SeatView.of(deal, seat)
    rng = np.random.default_rng(world_seed)
    for world in sample_worlds(view, rng, 6) if batched else [sample_world(view, rng)]:
        _check_world(deal, view, seat, world)
        assert world.game_scores == deal.game_scores and world.rules == deal.rules
    history = sample_history(view, rng)
    assert view_to_json(SeatView.of(history, seat)) == view_to_json(view)
    assert history.dealt[seat] == deal.dealt[seat] and history.passed[seat] == deal.passed[seat]


def test_a_world_with_its_past_draws_the_passes_the_seat_never_saw():
    deal = _deal_at("standard(passing=left)", 3, 20)
    view = SeatView.of(deal, 0)
    worlds = [sample_history(view, np.random.default_rng(k)) for k in range(20)]
    assert {w.passed[1] for w in worlds} != {deal.passed[1]}  # seat 1 passed to seat 2: never seen by seat 0
    assert {w.passed[3] for w in worlds} == {deal.passed[3]}  # seat 3 passed to seat 0: its received cards


@settings(SETTINGS, max_examples=100)
@given(rules_strategy(), st.integers(0, 10_000), st.integers(0, 70), st.integers(0, 3), st.integers(0, 99),
       st.integers(1, 40), st.data())
def test_world_tables_are_the_sampled_worlds(rules, seed, steps, seat, world_seed, count, data):
    """Every Rules field drawn: the batch sample_world_batch builds holds, table for table, the worlds
    sample_worlds draws from the same generator state, and leaves the generator in the same state
    (a search that switches between them plays the same cards)."""
    deal = _deal_at(rules, seed, steps, data.draw(game_scores_strategy(rules)))
    if deal.is_over:
        return
    if deal.phase == Phase.PASS:
        seat = deal.current
    view = SeatView.of(deal, seat)
    rng_worlds, rng_tables = np.random.default_rng(world_seed), np.random.default_rng(world_seed)
    expected = VectorDeals.from_deals(sample_worlds(view, rng_worlds, count), backend="numpy")
    tables = sample_world_batch(view, rng_tables, count, backend="numpy")
    _assert_same_batch(tables, expected)
    assert tables.size == count and rng_tables.random() == rng_worlds.random()


@pytest.mark.parametrize("kept", ["some", "none"])
def test_world_tables_fill_in_when_the_replay_rules_worlds_out(monkeypatch, kept):
    """When the replay of the plays rejects uniform draws, both samplers make up the count with single
    worlds, in the same order from the same generator: the tables still match sample_worlds. (Which
    draws a replay rejects is forced here; real rejections are rare.)"""
    from hearts_env import worlds

    monkeypatch.setattr(worlds, "_plays_imply_more_than_voids", lambda view: True)

    def replay(view, hands):  # keeps every third draw, or none
        return np.arange(len(hands)) % 3 == 1 if kept == "some" else np.zeros(len(hands), bool)

    monkeypatch.setattr(worlds, "_replays_legally", replay)
    deal = _deal_at("standard", 4, 30)
    view = SeatView.of(deal, deal.current)
    expected = VectorDeals.from_deals(sample_worlds(view, np.random.default_rng(5), 12), backend="numpy")
    tables = sample_world_batch(view, np.random.default_rng(5), 12, backend="numpy")
    _assert_same_batch(tables, expected)
    assert len({tuple(row) for row in tables.hands.tolist()}) > 1


def _assert_same_batch(deals, expected):
    for name, mine, theirs in zip(DealState._fields, deals.state, expected.state, strict=True):
        np.testing.assert_array_equal(mine, theirs, err_msg=name)


def test_a_world_batch_needs_a_positive_count():
    deal = _deal_at("standard", 4, 30)
    with pytest.raises(ValueError, match="count must be a positive number of worlds, got 0"):
        sample_world_batch(SeatView.of(deal, deal.current), np.random.default_rng(0), 0)


def _check_world(deal, view, seat, world):
    if deal.phase == Phase.PLAY:  # every play of the deal is legal in the world, replayed from its deal
        replay = Deal.from_hands(deal.rules, list(world.dealt), pass_direction="hold", dealer=deal.dealer)
        replay.apply_all(view.plays)
        assert replay.hands == world.hands
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


def test_batched_worlds_are_uniform_over_the_consistent_deals():
    """Late in a deal with shown voids, every deal of the hidden cards that respects the voids and
    hand sizes is drawn equally often (enumerated by brute force)."""
    from itertools import permutations

    for seed in range(500):
        deal = _deal_at("standard", seed, 12 + 41)
        if deal.is_over:  # a deal without passing ends after 52 plays
            continue
        view = SeatView.of(deal, deal.current)
        cards = [c for c in range(52) if view.unseen >> c & 1]
        others = [s for s in range(4) if s != view.seat]
        slots = [s for s in others for _ in range(view.hand_size(s) - view.known_held_by(s).bit_count())]
        if len(cards) > 8:
            continue
        every = set(permutations(slots))
        consistent = {order for order in every
                      if all(not view.voids[s] >> (c // 13) & 1 for c, s in zip(cards, order))}
        if 5 <= len(consistent) <= 60 and len(consistent) < len(every):
            break
    else:
        raise AssertionError("no position with voids that constrain the hidden cards")
    draws = 400 * len(consistent)
    counts = dict.fromkeys(consistent, 0)
    for world in sample_worlds(view, np.random.default_rng(1), draws):
        counts[tuple(next(s for s in others if world.hands[s] >> c & 1) for c in cards)] += 1
    expected = draws / len(consistent)
    assert min(counts.values()) > expected - 5 * expected**0.5 and max(counts.values()) < expected + 5 * expected**0.5


def test_batched_worlds_replay_first_trick_inferences():
    """A heart discarded on the first trick (no points allowed there) means its seat held nothing
    else it could play: worlds must respect that, which voids alone do not say."""
    rules = make_rules("standard").replace(passing="hold")
    hands = ["2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
             "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH QS",
             "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
             "2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS AH"]
    deal = Deal.from_hands(rules, hands)
    deal.apply_all(["2C", "KH"])  # seat 1 discards a heart on the first trick: all hearts and Q♠
    view = SeatView.of(deal, 2)
    for world in sample_worlds(view, np.random.default_rng(0), 50):
        assert world.hands[1] & ~(rules.deck_obj.suit_mask(2) | 1 << rules.deck_obj.card(3, "Q")) == 0


def test_with_hands_checks_its_hands():
    from hearts_env import DealError

    deal = _deal_at("standard", 3, 30)
    world = sample_world(SeatView.of(deal, deal.current), np.random.default_rng(0))
    a, b = next((a, b) for a in range(4) for b in range(a + 1, 4)
                if world.hands[a].bit_count() == world.hands[b].bit_count())
    hands = list(world.hands)
    hands[a], hands[b] = hands[b], hands[a]
    swapped = world.with_hands(hands)
    assert swapped.hands == hands and swapped.played_by == world.played_by and swapped.trick == world.trick
    assert swapped.dealt[a] == hands[a] | world.played_by[a]
    with pytest.raises(DealError, match="hold"):
        world.with_hands([world.hands[0] | world.hands[1], 0, world.hands[2], world.hands[3]])
