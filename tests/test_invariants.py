"""Property tests (hypothesis): invariants of the engine and the match over random rules, deals and
legal play. Example counts are bounded so the whole file runs in a few seconds."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from rule_strategies import SETTINGS, game_scores_strategy, moon_deal, rules_strategy

from hearts_env.engine import Deal, Phase
from hearts_env.match import Match
from hearts_env.rules import PRESETS, make_rules


def check_points(deal: Deal) -> None:
    """The deal's points follow from the cards taken: penalties, moon, J♦ and no-trick bonuses."""
    rules = deal.rules
    n = rules.penalty_total
    penalties = [deal.penalty_points(s) for s in range(4)]
    assert sum(penalties) == n  # every penalty card is taken by someone
    jd_cards = deal.deck.card(1, "J")
    jd_taker = next(s for s in range(4) if deal.taken[s] >> jd_cards & 1)
    jd = [rules.jd_bonus_points if rules.jd_bonus and s == jd_taker else 0 for s in range(4)]
    full = [s for s in range(4) if penalties[s] == n]
    shooter = full[0] if full and rules.moon != "off" else None
    assert deal.moon_shooter == shooter
    if shooter is None:
        avoid = [rules.avoid_all_tricks_points if rules.avoid_all_tricks_bonus and not deal.tricks_won[s] else 0
                 for s in range(4)]
        assert deal.points == [penalties[s] - jd[s] - avoid[s] for s in range(4)]
        assert sum(deal.points) == n - sum(jd) - sum(avoid)
        return
    add = [(0 if s == shooter else n) - jd[s] for s in range(4)]
    subtract = [(-n if s == shooter else 0) - jd[s] for s in range(4)]
    if rules.moon == "add_to_others":
        assert deal.points == add and sum(deal.points) == 3 * n - sum(jd)
    elif rules.moon == "subtract_from_shooter":
        assert deal.points == subtract and sum(deal.points) == -n - sum(jd)
    else:  # shooter_choice: in a game, +N to the others unless that ends it with the shooter not winning
        after = [g + (0 if s == shooter else n) for s, g in enumerate(deal.game_scores)]
        loses = rules.game == "match" and max(after) >= rules.target and after[shooter] > min(after)
        assert deal.points == (subtract if loses else add)


def deal_after(rules, seed: int, cut: int) -> Deal:
    """A shuffled deal after up to ``cut`` random legal actions (passing, mid-trick, or over)."""
    rnd = random.Random(seed)
    deal = Deal.random(rules, seed)
    for _ in range(cut):
        if deal.is_over:
            break
        deal.apply(rnd.choice(deal.legal_cards()))
    return deal


def play_checked(deal: Deal, rnd: random.Random) -> None:
    """Play random legal cards to the end, checking the invariants before every action."""
    size, hand_size = deal.deck.size, deal.deck.hand_size
    passes = deal.tables.pass_count * 4 if deal.pass_direction else 0
    while not deal.is_over:
        legal = deal.legal_mask()
        assert legal, "the legal set is empty before the end of the deal"
        assert deal.legal_cards() and all(legal >> c & 1 for c in deal.legal_cards())
        hand = deal.hands[deal.current]
        assert legal & ~hand == 0, "a legal card is not in the hand"
        if deal.phase is Phase.PASS:
            assert deal.hands == list(deal.dealt)  # received cards arrive only after the last pass
            assert legal == hand & ~deal.passed[deal.current]
        else:
            plays = len(deal.history) - passes
            assert len(deal.trick) == plays % 4 and deal.trick_index == plays // 4
            for s in range(4):
                assert deal.hands[s].bit_count() + deal.played_by[s].bit_count() == hand_size
                assert deal.hands[s] & deal.played_by[s] == 0
            assert sum(h.bit_count() for h in deal.hands) == size - plays
            union = 0
            for s in range(4):
                assert union & (deal.hands[s] | deal.played_by[s]) == 0
                union |= deal.hands[s] | deal.played_by[s]
            assert union == deal.deck.full_mask
        deal.apply(rnd.choice(deal.legal_cards()))
    assert deal.legal_mask() == 0 and deal.legal_cards() == []


def check_finished(deal: Deal) -> None:
    size = deal.deck.size
    passes = deal.tables.pass_count * 4 if deal.pass_direction else 0
    plays = deal.history[passes:]
    assert sorted(plays) == list(range(size)), "every card is played exactly once"
    assert all(h == 0 for h in deal.hands)
    assert sum(deal.tricks_won) == deal.num_tricks == len(deal.trick_winners)
    assert [deal.trick_winners.count(s) for s in range(4)] == deal.tricks_won
    union = 0
    for s in range(4):
        assert union & deal.taken[s] == 0
        union |= deal.taken[s]
        assert deal.taken[s].bit_count() == 4 * deal.tricks_won[s]
    assert union == deal.deck.full_mask
    if deal.pass_direction:
        for s in range(4):
            assert deal.passed[s].bit_count() == deal.tables.pass_count
            assert deal.passed[s] & ~deal.dealt[s] == 0
            assert deal.played_by[(s + deal.pass_direction) % 4] & deal.passed[s] == deal.passed[s]
    else:
        assert deal.played_by == list(deal.dealt)
    check_points(deal)


@settings(SETTINGS, max_examples=150)
@given(rules=rules_strategy(), seed=st.integers(0, 2**32 - 1), direction=st.integers(0, 3),
       dealer=st.integers(0, 3), data=st.data())
def test_random_legal_play_keeps_every_invariant(rules, seed, direction, dealer, data):
    direction = direction if rules.has_passing else 0
    deal = Deal.random(rules, seed, pass_direction=direction, dealer=dealer,
                       game_scores=data.draw(game_scores_strategy(rules)))
    play_checked(deal, random.Random(seed))
    check_finished(deal)


@SETTINGS
@given(rules=rules_strategy(), order=st.permutations(range(4)), dealer=st.integers(0, 3), seed=st.integers(0, 999),
       data=st.data())
def test_moon_deals_distribute_the_moon_points(rules, order, dealer, seed, data):
    deal = moon_deal(rules, order, dealer, data.draw(game_scores_strategy(rules)))
    leader = deal.current
    play_checked(deal, random.Random(seed))
    check_finished(deal)
    assert deal.tricks_won[leader] == deal.num_tricks
    assert deal.moon_shooter == (None if rules.moon == "off" else leader)


@SETTINGS
@given(rules=rules_strategy(), seed=st.integers(0, 2**32 - 1))
def test_same_seed_same_game(rules, seed):
    a, b = Deal.random(rules, seed), Deal.random(rules, seed)
    assert a.dealt == b.dealt and a.pass_direction == b.pass_direction
    play_checked(a, random.Random(seed))
    play_checked(b, random.Random(seed))
    assert a.history == b.history and a.points == b.points and a.trick_winners == b.trick_winners
    assert a.events() == b.events()
    c, d = Deal.random(rules, seed), Deal.random(rules, seed)
    assert c.playout(seed) == d.playout(seed) and c.history == d.history


@SETTINGS
@given(rules=rules_strategy(), seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 70))
def test_clone_then_diverge_leaves_the_original_alone(rules, seed, cut):
    deal = deal_after(rules, seed, cut)
    state = {name: _copy(getattr(deal, name)) for name in Deal.__slots__ if name not in ("_c", "_legal")}
    legal = deal.legal_mask()
    copy = deal.clone()
    play_checked(copy, random.Random(seed + 1))
    check_finished(copy)
    for name, value in state.items():
        assert getattr(deal, name) == value, name
    assert deal.legal_mask() == legal
    if not deal.is_over:  # and the original still plays on by itself
        play_checked(deal, random.Random(seed + 2))
        check_finished(deal)
        assert copy.history[:len(state["history"])] == state["history"]


def _copy(value):
    return list(value) if isinstance(value, list) else value


@settings(SETTINGS, max_examples=25)
@given(preset=st.sampled_from(list(PRESETS)), moon=st.sampled_from(["add_to_others", "shooter_choice", "off"]),
       target=st.integers(1, 120), seed=st.integers(0, 2**32 - 1))
def test_match_to_target(preset, moon, target, seed):
    rules = make_rules(preset, game="match", target=target, moon=moon)
    match = Match(rules, seed=seed)
    deals = 0
    while not match.is_over:
        assert not match.deal.is_over
        match.deal.playout(seed + deals)
        deals += 1
        assert deals < 200
        if match.is_over:
            break
        assert match.next_deal() is not None
    assert match.next_deal() is None
    scores = match.scores
    assert max(scores) >= target
    assert len(match.history) == deals
    assert scores == [sum(d.points[s] for d in match.history) for s in range(4)]
    # every deal but the last left all scores below the target
    running = [0, 0, 0, 0]
    for d in match.history[:-1]:
        running = [a + b for a, b in zip(running, d.points)]
        assert max(running) < target
    low = min(scores)
    assert match.winners() == [s for s in range(4) if scores[s] == low]
    assert match.winners() and all(scores[w] <= scores[s] for w in match.winners() for s in range(4))


@SETTINGS
@given(rules=rules_strategy(), seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 70))
def test_every_illegal_card_names_the_rule_it_breaks(rules, seed, cut):
    """At any point of any deal, applying any card outside the legal set raises IllegalActionError with a
    BrokenRule (never a vague or missing reason) and leaves the deal as it was."""
    from hearts_env.engine import BrokenRule, IllegalActionError

    deal = deal_after(rules, seed, cut)
    if deal.is_over:
        return
    history, legal = list(deal.history), deal.legal_mask()
    for card in range(deal.deck.size):
        if legal >> card & 1:
            continue
        try:
            deal.apply(card)
        except IllegalActionError as e:
            assert isinstance(e.rule, BrokenRule) and str(e.rule) in str(e)
        else:
            raise AssertionError(f"card {card} outside the legal set was accepted")
        assert deal.history == history and deal.legal_mask() == legal
