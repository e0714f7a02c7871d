"""hearts_env.jax against the scalar engine: the same card sequences replayed through ``Deal`` and through the JAX
engine give the same legal masks, seats to act, hands, passes, tricks, voids, points and moons at every step,
under every ``Rules`` field drawn by tests/rule_strategies.py (one compiled program per deck serves them all)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rule_strategies import SETTINGS, game_scores_strategy, moon_deal, rules_strategy

jax = pytest.importorskip("jax")

from hearts_env import jax as hj  # noqa: E402
from hearts_env.engine import Deal  # noqa: E402
from hearts_env.rules import Rules, make_rules  # noqa: E402

BATCH = 7  # deals per rules draw, played in lockstep (vmap): five shuffled, a moon deal, a lone-Q♠ deal

_init = jax.jit(jax.vmap(hj.init_from_hands, in_axes=(0, None, 0, 0, 0)))
_legal = jax.jit(jax.vmap(hj.legal_action_mask, in_axes=(0, None)))
_step = jax.jit(jax.vmap(hj.step, in_axes=(0, 0, None)))


def words_of(mask: int, rules: Rules) -> np.ndarray:
    return hj.suit_words(mask, rules.deck_obj.ranks_per_suit)


def mask_of(words: np.ndarray, rps: int) -> int:
    return sum(int(w) << (s * rps) for s, w in enumerate(words))


def batch_of(deals: list[Deal], rules: Rules):
    """The JAX states of freshly built ``deals`` (one vmapped init_from_hands)."""
    hands = np.stack([np.stack([words_of(h, rules) for h in d.dealt]) for d in deals])
    return _init(hands, hj.rules_data(rules), np.array([d.pass_direction for d in deals], np.int32),
                 np.array([d.dealer for d in deals], np.int32), np.array([d.game_scores for d in deals], np.int32))


def assert_same(state, deals: list[Deal], rules: Rules) -> None:
    """Every field of each JAX state equals the scalar deal's."""
    s = jax.device_get(state)
    rps = rules.deck_obj.ranks_per_suit
    for i, d in enumerate(deals):
        where = (i, d.history)
        assert int(s.phase[i]) == int(d.phase), where
        assert int(s.current[i]) == d.current, where
        assert [mask_of(s.hands[i, k], rps) for k in range(4)] == d.hands, where
        assert [mask_of(s.passed[i, k], rps) for k in range(4)] == d.passed, where
        assert [mask_of(s.played_by[i, k], rps) for k in range(4)] == d.played_by, where
        assert [mask_of(s.taken[i, k], rps) for k in range(4)] == d.taken, where
        assert int(s.trick_index[i]) == d.trick_index, where
        assert [int(c) for c in s.trick[i, :int(s.trick_count[i])]] == d.trick, where
        assert bool(s.hearts_broken[i]) == d.hearts_broken, where
        assert list(s.tricks_won[i]) == d.tricks_won, where
        assert list(s.voids[i]) == d.voids, where
        assert list(s.penalties[i]) == [d.penalty_points(seat) for seat in range(4)], where
        assert [int(w) for w in s.trick_winners[i, :d.trick_index]] == d.trick_winners, where
        if d.phase != 0:
            assert int(s.leader[i]) == d.leader, where
        if d.is_over:
            assert list(s.points[i]) == d.points, where
            assert int(s.moon_shooter[i]) == (-1 if d.moon_shooter is None else d.moon_shooter), where


def replay(deals: list[Deal], rules: Rules, picker: random.Random) -> None:
    """Random legal cards played through both engines, compared before and after every step."""
    data = hj.rules_data(rules)
    state = batch_of(deals, rules)
    n = rules.deck_obj.size
    while True:
        assert_same(state, deals, rules)
        masks = np.asarray(_legal(state, data))
        for i, d in enumerate(deals):
            assert sum(1 << c for c in np.flatnonzero(masks[i])) == d.legal_mask(), (i, d.history)
        if all(d.is_over for d in deals):
            return
        cards = np.array([picker.choice(d.legal_cards()) if not d.is_over else picker.randrange(n)
                          for d in deals], np.int32)  # a finished deal ignores its card
        for d, card in zip(deals, cards):
            if not d.is_over:
                d.apply(int(card))
        state = _step(state, cards, data)


@st.composite
def deals_strategy(draw: st.DrawFn) -> tuple[Rules, list[Deal], int]:
    rules = draw(rules_strategy())
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    deals = []
    for _ in range(BATCH - 2):
        scores = draw(game_scores_strategy(rules))
        deals.append(Deal.random(rules, rng, dealer=draw(st.integers(0, 3)), game_scores=scores))
    order = draw(st.permutations(range(4)))
    deals.append(moon_deal(rules, list(order), draw(st.integers(0, 3)), draw(game_scores_strategy(rules))))
    dealer = draw(st.integers(0, 3))
    deals.append(lone_queen_deal(rules, rng, (dealer + 1) & 3, dealer))
    return rules, deals, seed


def lone_queen_deal(rules: Rules, rng: np.random.Generator, seat: int, dealer: int) -> Deal:
    """``seat`` holds Q♠ and hearts only (the lone-Q♠ lead, hearts unbroken, the first-trick bar with
    nothing else to play; the seat left of the dealer leads it under ``opening_lead="left_of_dealer"``),
    the other cards shuffled to the others; no passing."""
    t = rules.deck_obj
    rps = t.ranks_per_suit
    qs = t.card(3, "Q")
    mine = [qs, *[2 * rps + r for r in range(rps - 1)]]
    rest = [c for c in range(t.size) if c not in mine]
    rng.shuffle(rest)
    others = [rest[k * rps:(k + 1) * rps] for k in range(3)]
    hands = [others.pop() if s != seat else mine for s in range(4)]
    return Deal.from_hands(rules, [sum(1 << c for c in h) for h in hands], dealer=dealer)


@SETTINGS
@given(deals_strategy())
def test_jax_engine_replays_the_scalar_engine_under_every_rule(case):
    rules, deals, seed = case
    replay(deals, rules, random.Random(seed))


@pytest.mark.parametrize("preset", ["standard", "openspiel", "sturtevant", "dutch"])
def test_presets_every_pass_direction(preset):
    rules = make_rules(preset)
    rng = np.random.default_rng(7)
    directions = [0, 1, 2, 3] if rules.has_passing else [0]
    deals = [Deal.random(rules, rng, pass_direction=directions[i % len(directions)], dealer=i % 4)
             for i in range(8)]
    replay(deals, rules, random.Random(8))


def test_one_compiled_program_per_deck():
    """The rules are an argument, not a constant: deals of one batch shape under four rule sets of two decks
    compile two programs (one per deck), as the hypothesis draws above reuse theirs."""
    before = _legal._cache_size(), _step._cache_size()
    for rules in ("standard", "openspiel(jd_bonus=true, moon=off)", "dutch", "sturtevant(pass_count=1)",
                  "dutch(moon=shooter_choice, passing=left, target=20)"):
        replay([Deal.random(make_rules(rules), seed) for seed in range(3)], make_rules(rules), random.Random(0))
    assert _legal._cache_size() - before[0] <= 2 and _step._cache_size() - before[1] <= 2


def test_init_deals_every_card_once_and_draws_directions_from_the_schedule():
    rules = make_rules("standard(passing=left,left,across)")
    data = hj.rules_data(rules)
    states = jax.jit(jax.vmap(hj.init, in_axes=(0, None)))(jax.random.split(jax.random.key(3), 400), data)
    hands = np.asarray(states.hands)
    assert (np.bitwise_or.reduce(hands, axis=1) == data.full).all()
    assert (hj.popcount(states.hands) == 13).all()
    counts = np.bincount(np.asarray(states.pass_direction), minlength=4)
    assert counts[0] == counts[3] == 0 and 230 < counts[1] < 300 and 100 < counts[2] < 170  # 2/3 left, 1/3 across
    openers = np.asarray(states.current)[np.asarray(states.phase) == hj.PLAY]
    assert len(openers) == 0  # every deal passes


def test_random_legal_action_is_uniform_over_the_legal_cards():
    rules_data = hj.rules_data("sturtevant")
    state = hj.init(jax.random.key(0), rules_data)
    mask = np.asarray(hj.legal_action_mask(state, rules_data))
    picks = jax.vmap(hj.random_legal_action, in_axes=(0, None, None))(jax.random.split(jax.random.key(1), 2600),
                                                                       state, rules_data)
    counts = np.bincount(np.asarray(picks), minlength=52)
    assert set(np.flatnonzero(counts)) == set(np.flatnonzero(mask)) and counts.max() < 2.5 * counts[mask].min()


@st.composite
def finished_deals(draw: st.DrawFn) -> tuple[Rules, list[int], list[int], tuple[int, ...]]:
    """Rules, the cards each seat took (half the time one seat took every scoring card), tricks won, and game
    scores (after a moon, a quarter of the time, the others end at or just below the target, one exactly at it)."""
    rules = draw(rules_strategy())
    rules_data = hj.rules_data(rules)
    n = rules.deck_obj.size
    owners = [draw(st.integers(0, 3)) for _ in range(n)]
    taken = [sum(1 << c for c in range(n) if owners[c] == s) for s in range(4)]
    scores = list(draw(game_scores_strategy(rules)))
    if draw(st.booleans()):
        from hearts_env.tables import tables_of

        scoring = tables_of(rules).scoring_cards
        shooter = draw(st.integers(0, 3))
        taken = [(m & ~scoring) | (scoring if s == shooter else 0) for s, m in enumerate(taken)]
        if draw(st.booleans()):  # after the moon, the others end at or just below the target (one exactly at it)
            top = rules.target - rules.penalty_total
            scores = [top - draw(st.integers(0, rules.penalty_total)) for s in range(4)]
            scores[draw(st.sampled_from([s for s in range(4) if s != shooter]))] = top
            scores[shooter] = draw(st.integers(top, rules.target - 1))  # at or above the others' lowest, or not
    tricks = [draw(st.integers(0, rules_data.rps)) for _ in range(4)]
    return rules, taken, tricks, tuple(scores)


@settings(SETTINGS, max_examples=300)
@given(finished_deals())
def test_score_is_score_deal(case):
    """Scoring alone, with moons and ties at the target that random play rarely reaches."""
    from hearts_env.scoring import score_deal
    from hearts_env.tables import tables_of

    rules, taken, tricks, scores = case
    rps = rules.deck_obj.ranks_per_suit
    words = np.stack([words_of(m, rules) for m in taken])
    points, shooter = _score(words, np.array(tricks, np.int32), np.array(scores, np.int32), hj.rules_data(rules))
    want, moon = score_deal(tables_of(rules), taken, tricks, scores)
    assert [int(p) for p in points] == want and int(shooter) == (-1 if moon is None else moon), (rps, want)


_score = jax.jit(hj.score)


@pytest.mark.parametrize("deck", ["standard", "dutch"])
@pytest.mark.parametrize("lone_queen", [True, False])
@pytest.mark.parametrize("first_trick", [True, False])
def test_lone_queen_leads(deck, lone_queen, first_trick):
    """The leader holds Q♠ and unbroken hearts only: ``can_lead_hearts_instead_of_qs`` lets it lead a heart."""
    rules = make_rules("sturtevant", deck=deck, must_break_hearts=True, can_lead_hearts_instead_of_qs=lone_queen,
                       no_pts_on_first_trick=first_trick)
    rng = np.random.default_rng(11)
    deals = [lone_queen_deal(rules, rng, (dealer + 1) & 3, dealer) for dealer in range(4)]
    assert all((d.legal_mask() == d.hands[d.current]) == lone_queen for d in deals)
    replay(deals, rules, random.Random(12))


@pytest.mark.parametrize("scores", [(90, 74, 50, 60), (90, 73, 50, 60), (40, 74, 50, 60), (90, 75, 50, 60),
                                    (50, 74, 24, 60), (50, 74, 23, 60)])
@pytest.mark.parametrize("moon", ["shooter_choice", "add_to_others", "subtract_from_shooter", "off"])
def test_moon_at_the_target(scores, moon):
    """Seat 0 shoots with the others ending at, below or above the target of 100: ``shooter_choice`` subtracts
    only when adding ends the game with the shooter not lowest."""
    from hearts_env.scoring import score_deal
    from hearts_env.tables import tables_of

    rules = make_rules("standard", moon=moon)
    t = tables_of(rules)
    taken = [t.full & ~t.hearts & ~t.qs_bit & t.suits[0] | t.scoring_cards, t.suits[1], 0, t.suits[3] & ~t.qs_bit]
    taken[3] |= t.full & ~(taken[0] | taken[1] | taken[3])
    tricks = [5, 4, 0, 4]
    points, shooter = _score(np.stack([words_of(m, rules) for m in taken]), np.array(tricks, np.int32),
                             np.array(scores, np.int32), hj.rules_data(rules))
    want, moon_shooter = score_deal(t, taken, tricks, scores)
    assert [int(p) for p in points] == want
    assert int(shooter) == (-1 if moon_shooter is None else moon_shooter) == (-1 if moon == "off" else 0)


@pytest.mark.parametrize("deck", ["standard", "dutch"])
def test_kth_card_is_the_batched_engines_pick(deck):
    """``uniform_legal_action``'s pick, the ``floor(u * count)``-th card, is the NumPy and Numba engines' one."""
    from hearts_env.vector.numpy_backend import kth_cards

    rules = make_rules(deck)
    n, rps = rules.deck_obj.size, rules.deck_obj.ranks_per_suit
    rng = np.random.default_rng(9)
    masks = [int(m) for m in rng.integers(0, 2**n, 2000, dtype=np.uint64)]
    masks += [0, 1, 1 << (n - 1), (1 << n) - 1] + [1 << int(c) for c in rng.integers(0, n, 40)]
    uniforms = rng.random(len(masks))
    uniforms[:50] = np.nextafter(1.0, 0.0)  # the last card
    words = np.stack([hj.suit_words(m, rps) for m in masks])
    got = np.asarray(jax.jit(jax.vmap(hj.kth_card, in_axes=(0, 0, None)), static_argnums=2)(words, uniforms, rps))
    want = kth_cards(np.array(masks, np.uint64), uniforms)
    np.testing.assert_array_equal(got, want)
