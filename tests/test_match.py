"""Match: pass-direction schedule, dealer rotation, cumulative scores, game end and winners."""

from __future__ import annotations

import numpy as np
import pytest

from hearts_env.engine import Deal
from hearts_env.match import Match
from hearts_env.rules import make_rules

# one suit per seat: under lowest_club seat 0 (all clubs) leads and shoots the moon
SUITS = [
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
]


def play_deals(match: Match, count: int, seed: int = 0) -> list[Deal]:
    """Finish up to ``count`` deals with random legal play; returns the deals played."""
    played = []
    for i in range(count):
        match.deal.playout(seed + i)
        played.append(match.deal)
        if match.next_deal() is None:
            break
    return played


def test_rotate_schedule_is_left_right_across_hold_by_deal_index():
    match = Match("standard(target=10000)", seed=1)
    assert [match.pass_direction_for(i) for i in range(8)] == [1, 3, 2, 0, 1, 3, 2, 0]
    deals = play_deals(match, 9)
    assert [d.pass_direction_name for d in deals] == ["left", "right", "across", "hold"] * 2 + ["left"]
    assert [d.phase.name for d in deals] == ["DONE"] * 9
    assert match.deal_index == 9 and match.deal.pass_direction_name == "right"


@pytest.mark.parametrize(("passing", "names"), [
    ("left", ["left"] * 5), ("across", ["across"] * 5), ("right", ["right"] * 5),
    ("none", ["hold"] * 5), ("left,right", ["left", "right", "left", "right", "left"]),
    ("across,hold,left", ["across", "hold", "left", "across", "hold"]),
])
def test_fixed_and_custom_schedules(passing, names):
    match = Match(make_rules("standard", passing=passing, target=10000), seed=2)
    assert [d.pass_direction_name for d in play_deals(match, 5)] == names


def test_random_directions_are_drawn_and_reproducible_by_seed():
    rules = make_rules("openspiel", game="match", target=10000)
    assert Match(rules, seed=0).pass_direction_for(0) is None
    a = play_deals(Match(rules, seed=7), 16)
    b = play_deals(Match(rules, seed=7), 16)
    assert [d.pass_direction for d in a] == [d.pass_direction for d in b]
    assert [d.dealt for d in a] == [d.dealt for d in b]
    assert {d.pass_direction for d in a} == {0, 1, 2, 3}  # every direction comes up in 16 draws
    c = play_deals(Match(rules, seed=8), 16)
    assert [d.dealt for d in c] != [d.dealt for d in a]


def test_seed_zero_is_a_seed_and_generators_are_accepted():
    assert Match("standard", seed=0).deal.dealt == Match("standard", seed=0).deal.dealt
    assert Match("standard", seed=0).deal.dealt != Match("standard", seed=1).deal.dealt
    rng = np.random.default_rng(5)
    assert Match("standard", seed=rng).deal.dealt == Match("standard", seed=np.random.default_rng(5)).deal.dealt


def test_shuffles_differ_between_deals():
    deals = play_deals(Match("standard(target=10000)", seed=3), 4)
    assert len({d.dealt for d in deals}) == 4


def test_dealer_rotates_and_seat_0_leads_first_under_left_of_dealer():
    match = Match("sturtevant(game=match, target=10000)", seed=4)
    dealers, leaders = [], []
    for _ in range(6):
        dealers.append(match.dealer)
        assert match.deal.dealer == match.dealer
        leaders.append(match.deal.current)
        match.deal.playout(0)
        match.next_deal()
    assert dealers == [3, 0, 1, 2, 3, 0]
    assert leaders == [0, 1, 2, 3, 0, 1]


def test_dutch_match_rotates_the_leader_too():
    match = Match("dutch(target=10000)", seed=5)
    leaders = []
    for _ in range(4):
        leaders.append(match.deal.current)
        match.deal.playout(1)
        match.next_deal()
    assert leaders == [0, 1, 2, 3]


def test_scores_accumulate():
    match = Match("standard(target=10000)", seed=6)
    total = [0, 0, 0, 0]
    for i in range(6):
        assert match.scores == total
        assert match.deal.game_scores == tuple(total)  # the deal knows the scores before it
        assert match.scores_after_deal() == total  # nothing to add while the deal is running
        match.deal.playout(i)
        after = [a + b for a, b in zip(total, match.deal.points)]
        assert match.scores_after_deal() == after
        assert match.scores == total  # not booked until next_deal
        match.next_deal()
        total = after
        assert match.scores == total
    assert len(match.history) == 6
    assert total == [sum(d.points[s] for d in match.history) for s in range(4)]


def test_next_deal_needs_a_finished_deal():
    match = Match("standard", seed=0)
    with pytest.raises(RuntimeError, match="not finished"):
        match.next_deal()
    match.deal.apply(match.deal.legal_cards()[0])
    with pytest.raises(RuntimeError):
        match.next_deal()


def test_game_deal_ends_after_one_deal():
    match = Match("openspiel", seed=0)
    assert match.rules.game == "deal" and not match.is_over
    match.deal.playout(0)
    assert match.is_over
    assert match.winners() == [s for s in range(4) if match.deal.points[s] == min(match.deal.points)]
    assert match.next_deal() is None
    assert match.is_over and len(match.history) == 1 and match.deal_index == 0
    assert match.scores == match.deal.points
    assert match.next_deal() is None  # idempotent: the deal is booked once
    assert match.scores == match.deal.points and len(match.history) == 1


def test_match_ends_when_a_seat_reaches_the_target():
    rules = make_rules("standard", target=26)
    moon = Deal.from_hands(rules, SUITS)
    match = Match(rules, seed=0, deals=[moon])
    assert match.deal is moon and not match.is_over
    moon.playout(0)
    assert moon.points == [0, 26, 26, 26]
    assert match.is_over  # 26 >= 26, before booking
    assert match.scores_after_deal() == [0, 26, 26, 26]
    assert match.winners() == [0]
    assert match.next_deal() is None
    assert match.scores == [0, 26, 26, 26] and match.winners() == [0]


def test_match_continues_below_the_target():
    rules = make_rules("standard", target=27)
    match = Match(rules, seed=0, deals=[Deal.from_hands(rules, SUITS)])
    match.deal.playout(0)
    assert not match.is_over
    nxt = match.next_deal()
    assert nxt is not None and nxt is match.deal and match.deal_index == 1
    assert nxt.pass_direction_name == "right" and nxt.dealer == 0  # shuffled deals follow the schedule
    assert nxt.game_scores == (0, 26, 26, 26)


def test_winners_share_a_tie():
    rules = make_rules("standard", moon="off", target=26)
    match = Match(rules, seed=0, deals=[Deal.from_hands(rules, SUITS)])
    match.deal.playout(0)
    assert match.deal.points == [26, 0, 0, 0]
    assert match.is_over and match.winners() == [1, 2, 3]


def test_shooter_choice_in_a_match_of_shuffled_deals_sees_the_scores():
    match = Match("standard(moon=shooter_choice, target=10000)", seed=9)
    for i in range(5):
        assert match.deal.game_scores == tuple(match.scores)
        match.deal.playout(i)
        match.next_deal()


DUTCH_SUITS = [
    "7C 8C 9C TC JC QC KC AC",
    "7D 8D 9D TD JD QD KD AD",
    "7H 8H 9H TH JH QH KH AH",
    "7S 8S 9S TS JS QS KS AS",
]


def test_shooter_choice_sees_the_match_scores_on_explicit_deals():
    # BUG (src): Match plays explicit deals with the game_scores they were built with (zeros by default),
    # so shooter_choice decides against the wrong scores. Match._new_deal should give an explicit deal
    # the match's current scores (deal.game_scores = tuple(self.scores)) as it does for shuffled deals.
    rules = make_rules("dutch", moon="shooter_choice", target=40)
    deals = [Deal.from_hands(rules, DUTCH_SUITS, dealer=3),  # seat 0 leads and shoots: 0, 15, 15, 15
             Deal.from_hands(rules, DUTCH_SUITS, dealer=3),  # again: 0, 30, 30, 30
             Deal.from_hands(rules, DUTCH_SUITS, dealer=0)]  # seat 1 leads and shoots
    match = Match(rules, seed=0, deals=deals)
    for _ in range(3):
        match.deal.playout(0)
        match.next_deal()
    assert [d.moon_shooter for d in match.history] == [0, 0, 1]
    # adding would give 15, 30, 45, 45: the game would end with seat 1 (30) behind seat 0 (15),
    # so seat 1 subtracts instead and the game goes on
    assert match.history[2].game_scores == (0, 30, 30, 30)
    assert match.history[2].points == [0, -15, 0, 0]
    assert match.scores == [0, 15, 30, 30] and not match.is_over
