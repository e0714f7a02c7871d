"""Tricks as the deal reports them: what ``Deal.apply`` returns, ``Deal.tricks()``, the typed
event log, and the reward book the envs build on them — all from the same facts, under every rule."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from rule_strategies import SETTINGS, game_scores_strategy, rules_strategy

from hearts_env.engine import Deal
from hearts_env.events import Event, Played, Scored, Trick, TrickTaken
from hearts_env.rewards import REWARD_SCHEMES, RewardBook, deal_end_rewards


@SETTINGS
@given(rules=rules_strategy(), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_apply_returns_each_trick_as_tricks_and_events_record_it(rules, seed, data):
    deal = Deal.random(rules, seed=seed, game_scores=data.draw(game_scores_strategy(rules)))
    rnd = random.Random(seed)
    returned: list[Trick] = []
    while not deal.is_over:
        before = (deal.trick_index, deal.leader, list(deal.trick), deal.points_taken(0))
        trick = deal.apply(rnd.choice(deal.legal_cards()))
        if trick is None:
            assert deal.trick_index == before[0]  # nothing completed
            continue
        returned.append(trick)
        assert trick.index == before[0] == deal.trick_index - 1
        assert trick.leader == before[1] and list(trick.cards[:-1]) == before[2] and len(trick.cards) == 4
        assert trick.winner == deal.trick_winners[-1] == deal.leader
        assert trick.points == deal.tables.points_of(sum(1 << c for c in trick.cards))
        assert deal.tricks() == returned
    for seat in range(4):  # the tricks account for every point taken
        assert sum(t.points for t in returned if t.winner == seat) == deal.points_taken(seat)
    events = deal.events()
    assert all(isinstance(e, Event) for e in events)
    taken = [e for e in events if isinstance(e, TrickTaken)]
    assert [(e.index, e.get("leader"), e.cards, e.seat, e.points) for e in taken] == \
        [(t.index, t.leader, t.cards, t.winner, t.points) for t in returned]
    assert [e.cards[0] for e in events if isinstance(e, Played)] == [c for t in returned for c in t.cards]
    assert isinstance(events[-1], Scored) and events[-1].points == tuple(deal.points)


@SETTINGS
@given(rules=rules_strategy(), seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 70))
def test_tricks_of_a_deal_in_progress_and_of_its_clone(rules, seed, cut):
    deal = Deal.random(rules, seed=seed)
    rnd = random.Random(seed)
    for _ in range(cut):
        if deal.is_over:
            break
        deal.apply(rnd.choice(deal.legal_cards()))
    tricks = deal.tricks()
    assert len(tricks) == len(deal.trick_winners) == deal.trick_index
    assert all(t.leader == (tricks[k - 1].winner if k else t.leader) for k, t in enumerate(tricks))
    assert deal.clone().tricks() == tricks


@SETTINGS
@given(rules=rules_strategy(), seed=st.integers(0, 2**32 - 1), scheme=st.sampled_from(list(REWARD_SCHEMES)))
def test_reward_book_pays_each_deal_its_points(rules, seed, scheme):
    """Whatever the scheme pays during the deal, its total is the deal-end scheme's (dense: −points)."""
    deal = Deal.random(rules, seed=seed)
    book = RewardBook(scheme, rules.penalty_total)
    paid = np.zeros(4)
    rnd = random.Random(seed)
    while not deal.is_over:
        trick = deal.apply(rnd.choice(deal.legal_cards()))
        if trick is not None:
            paid[trick.winner] += book.trick(trick)
    assert deal.points is not None
    paid += book.deal_end(deal.points)
    expected = -np.array(deal.points, float) if scheme == "dense" else deal_end_rewards(scheme, deal.points,
                                                                                        rules.penalty_total)
    assert paid.tolist() == expected.tolist()
    if scheme == "dense":  # the next deal's book starts afresh
        assert book.deal_end([1, 2, 3, 4]) == [-1.0, -2.0, -3.0, -4.0]


def test_deal_end_rewards_are_the_same_for_one_deal_and_a_batch():
    points = np.array([[0, 26, 26, 26], [13, 0, 13, 0], [-10, 14, 12, 10]])
    for scheme in REWARD_SCHEMES:
        batch = deal_end_rewards(scheme, points, 26)
        assert batch.shape == (3, 4) and batch.dtype == np.float64
        for row, expected in zip(points, batch):
            assert deal_end_rewards(scheme, row, 26).tolist() == expected.tolist()


@SETTINGS
@given(rules=rules_strategy(), seed=st.integers(0, 2**32 - 1))
def test_seat_view_describes_the_trick_on_the_table(rules, seed):
    from hearts_env.views import SeatView

    deal = Deal.random(rules, seed=seed)
    rnd = random.Random(seed)
    while not deal.is_over:
        view = SeatView.of(deal, deal.current)
        assert view.trick_mask == sum(1 << c for c in view.trick)
        if view.trick:
            led = deal.tables.suit_of(view.trick[0])
            assert view.winning_card == max(c for c in view.trick if deal.tables.suit_of(c) == led)
        else:
            assert view.winning_card == -1
        deal.apply(rnd.choice(deal.legal_cards()))
