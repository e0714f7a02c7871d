"""The batched engine against the scalar engine: same deals and actions, same masks, tricks, points."""

import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from rule_strategies import SETTINGS, game_scores_strategy, moon_deal, rules_strategy

from hearts_env.agents import make_agent
from hearts_env.engine import Deal, IllegalActionError
from hearts_env.rules import make_rules
from hearts_env.vector import VectorDeals
from hearts_env.views import SeatView

FLAGS = ("no_pts_on_first_trick", "can_lead_any_club", "jd_bonus", "avoid_all_tricks_bonus",
         "must_break_hearts", "qs_breaks_hearts", "can_lead_hearts_instead_of_qs")


def _rules(preset, seed):
    rules = make_rules(preset)
    if preset == "openspiel":
        rnd = random.Random(seed)
        rules = rules.replace(**{f: rnd.random() < 0.5 for f in FLAGS})
    return rules


BACKENDS = ["numpy", "numba"]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("preset", ["standard", "openspiel", "sturtevant", "dutch"])
@pytest.mark.parametrize("seed", range(4))
def test_vector_equals_scalar(preset, seed, backend):
    rules = _rules(preset, seed)
    rng = np.random.default_rng(seed)
    size = 64
    directions = np.arange(size) % 4 if rules.has_passing else np.zeros(size, int)
    tables = VectorDeals.random(rules, size, rng, pass_directions=directions, backend=backend)
    assert tables.backend == backend
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
        assert [int(t) for t in tables.played_by[i]] == deal.played_by


@pytest.mark.parametrize("backend", BACKENDS)
def test_illegal_card_names_the_row_and_moves_nothing(backend):
    tables = VectorDeals.random("standard(game=deal)", 4, np.random.default_rng(0), pass_directions=0,
                                backend=backend)
    before = tables.hands.copy()
    actions = tables.random_actions(np.random.default_rng(1))
    actions[2] = 51 if actions[2] != 51 else 50
    with pytest.raises(IllegalActionError, match="row 2") as err:
        tables.step(actions)
    assert err.value.legal and actions[2] not in err.value.legal
    assert (tables.hands == before).all()


@pytest.mark.parametrize("preset", ["standard", "openspiel", "dutch"])
def test_backends_agree_on_random_play(preset):
    """The same seed drives both backends through the same deals, card for card."""
    runs = []
    for backend in BACKENDS:
        tables = VectorDeals.random(preset, 256, np.random.default_rng(5), backend=backend)
        rng = np.random.default_rng(6)
        cards = []
        while not tables.done.all():
            cards.append(tables.random_step(rng))
        runs.append((np.array(cards), tables.points.copy()))
    assert (runs[0][0] == runs[1][0]).all() and (runs[0][1] == runs[1][1]).all()


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("opponents", ["random", "greedy"])
def test_advance_stops_at_the_learner(backend, opponents):
    if backend == "numpy" and opponents == "greedy":
        tables = VectorDeals.random("standard", 8, np.random.default_rng(0), backend=backend)
        with pytest.raises(NotImplementedError, match="Numba"):
            tables.advance(np.zeros(8, np.int8), opponents, np.random.default_rng(0))
        return
    tables = VectorDeals.random("standard", 128, np.random.default_rng(1), backend=backend)
    learner = np.random.default_rng(2).integers(0, 4, 128).astype(np.int8)
    rng = np.random.default_rng(3)
    while True:
        tables.advance(learner, opponents, rng)
        assert ((tables.current == learner) | tables.done).all()
        if tables.done.all():
            break
        tables.step(np.where(tables.done, -1, tables.random_actions(rng)))
    assert (tables.points.sum(axis=1) % 26 == 0).all()


@pytest.mark.parametrize("preset", ["standard", "openspiel", "dutch"])
def test_vectorized_greedy_is_the_greedy_agent(preset):
    from hearts_env.agents import make_agent
    from hearts_env.views import SeatView

    rules = _rules(preset, 7)
    tables = VectorDeals.random(rules, 64, np.random.default_rng(8), backend="numba")
    scalars = [Deal.from_hands(rules, [int(h) for h in tables.hands[i]], pass_direction=int(tables.pass_direction[i]))
               for i in range(64)]
    greedy = make_agent("greedy")
    greedy.reset(rules, 0, 0)
    while not tables.done.all():
        choice = tables.greedy_actions()
        for i, deal in enumerate(scalars):
            if not deal.is_over:
                view = SeatView.of(deal, deal.current)
                greedy.seat = deal.current
                assert choice[i] == greedy.act(view), (i, deal.history)
        tables.step(choice)
        for i, deal in enumerate(scalars):
            if not deal.is_over:
                deal.apply(int(choice[i]))


def _moon_hands(rules, rng):
    """Shuffled hands in which seat 0 holds the top hearts and mostly high cards: heuristic shoots."""
    deck = rules.deck_obj
    rps, size = deck.ranks_per_suit, deck.hand_size
    strong = [2 * rps + r for r in range(rps - 6, rps)] + [s * rps + r for s in (0, 1, 3) for r in range(rps - 3, rps)]
    strong = [int(c) for c in rng.permutation(strong)[:size]]
    rest = [int(c) for c in rng.permutation([c for c in range(deck.size) if c not in strong])]
    hands = [strong] + [rest[k * size:(k + 1) * size] for k in range(3)]
    return [sum(1 << c for c in hand) for hand in hands]


HEURISTIC_SPECS = ["heuristic", "heuristic(moon_alarm=3, shoot=False)", "heuristic(moon_alarm=0)",
                   "heuristic(moon_alarm=40, shoot=True)", "heuristic(chase=4)", "heuristic(chase=1, shoot=False)"]


@pytest.mark.parametrize("preset", ["standard", "openspiel", "dutch", "sturtevant"])
@pytest.mark.parametrize("seed", range(len(HEURISTIC_SPECS)))
def test_vectorized_heuristic_is_the_heuristic_agent(preset, seed):
    """Card for card in every state reached by a mix of heuristic and random play, moon hands included."""
    _check_vectorized_heuristic(_rules(preset, seed), seed, HEURISTIC_SPECS[seed % len(HEURISTIC_SPECS)], 96)


@SETTINGS
@given(rules=rules_strategy(), seed=st.integers(0, 2**32 - 1), spec=st.sampled_from(HEURISTIC_SPECS))
def test_vectorized_heuristic_is_the_heuristic_agent_under_every_rule(rules, seed, spec):
    _check_vectorized_heuristic(rules, seed, spec, 24, require_moon=False)


def _check_vectorized_heuristic(rules, seed, spec, b, require_moon=True):
    from hearts_env.agents import make_agent
    from hearts_env.views import SeatView

    rng = np.random.default_rng(seed)
    hands = np.array([[int(h) for h in VectorDeals.random(rules, 1, rng).hands[0]] if i % 3 else
                      [int(h) for h in np.roll(_moon_hands(rules, rng), i % 4)] for i in range(b)], dtype=np.uint64)
    directions = rng.integers(0, 4, b) if rules.has_passing else np.zeros(b, int)
    tables = VectorDeals(rules, hands, directions, backend="numba")
    scalars = [Deal.from_hands(rules, [int(h) for h in hands[i]], pass_direction=int(directions[i])) for i in range(b)]
    heuristic = make_agent(spec)
    heuristic.reset(rules, 0, 0)
    compared = shot = 0
    while not tables.done.all():
        choice = tables.policy_actions(spec)
        for i, deal in enumerate(scalars):
            if not deal.is_over:
                view = SeatView.of(deal, deal.current)
                heuristic.seat = deal.current
                assert choice[i] == heuristic.act(view), (i, deal.history)
                compared += 1
        play = np.where(rng.random(b) < 0.7, choice, tables.random_actions(rng))
        play[tables.done] = -1
        tables.step(play)
        for i, deal in enumerate(scalars):
            if not deal.is_over:
                deal.apply(int(play[i]))
    for i, deal in enumerate(scalars):
        assert tables.points[i].tolist() == deal.points
        shot += deal.moon_shooter is not None
    assert compared > b * rules.deck_obj.size // 2 and (shot > 0 or not require_moon)


def test_heuristic_rollouts_play_to_the_end():
    tables = VectorDeals.random("standard", 64, np.random.default_rng(0), backend="numba")
    counts = tables.advance(-1, "heuristic", np.random.default_rng(1))
    assert tables.done.all() and (counts == 52 + 12 * (tables.pass_direction != 0)).all()
    assert (tables.points.sum(axis=1) % 26 == 0).all()
    with pytest.raises(ValueError, match="vectorized policies"):
        tables.policy_actions("mcts")


def test_random_actions_are_uniform_over_legal_cards():
    tables = VectorDeals.random("sturtevant", 20000, np.random.default_rng(3))
    actions = tables.random_actions(np.random.default_rng(4))
    # seat 0 leads any of its 13 cards: each card of the hand about 1/13 of the time
    hands = tables.hands[:, 0]
    rank_in_hand = np.array([bin(int(h) & ((1 << int(a)) - 1)).count("1") for h, a in zip(hands, actions)])
    counts = np.bincount(rank_in_hand, minlength=13)
    assert counts.min() > 1300 and counts.max() < 1780  # 1538 expected; > 6 sigma bounds


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("preset", ["standard", "openspiel", "dutch"])
def test_from_deals_continues_exactly_like_the_scalar_engine(backend, preset):
    """Tables built from scalar deals at every stage (passing, mid-trick, trick boundaries) play on
    exactly as those deals do."""
    rules = _rules(preset, 3)
    rng = np.random.default_rng(9)
    deals = []
    for k in range(40):
        deal = Deal.random(rules, rng)
        prefix = random.Random(k).randrange(0, 4 * rules.pass_count + 52 if rules.has_passing else 52)
        for _ in range(min(prefix, 60)):
            if deal.is_over:
                break
            deal.apply(deal.legal_cards()[0])
        deals.append(deal)
    tables = VectorDeals.from_deals(deals, backend=backend)
    policy = np.random.default_rng(10)
    while True:
        masks = tables.legal_masks()
        for i, deal in enumerate(deals):
            assert int(masks[i]) == deal.legal_mask(), (i, deal.history)
        if tables.done.all():
            break
        cards = tables.random_step(policy)
        for i, deal in enumerate(deals):
            if not deal.is_over:
                deal.apply(int(cards[i]))
    for i, deal in enumerate(deals):
        assert list(tables.points[i]) == deal.points and list(tables.trick_winners[i]) == deal.trick_winners


def _scalar_start(rules, rng, data):
    """A deal to start a table from: shuffled (any direction and dealer), or one suit per seat (a moon)."""
    scores = data.draw(game_scores_strategy(rules))
    dealer = int(rng.integers(4))
    if rng.random() < 0.5:
        return moon_deal(rules, [int(s) for s in rng.permutation(4)], dealer, scores)
    direction = int(rng.choice(rules.one_deal_directions)) if rules.has_passing else 0
    deal = Deal.random(rules, rng, pass_direction=direction, dealer=dealer, game_scores=scores)
    for _ in range(int(rng.integers(0, 30))):  # some tables start mid-deal
        deal.apply(int(rng.choice(deal.legal_cards())))
    return deal


@SETTINGS
@given(rules=rules_strategy(), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_scalar_numpy_and_numba_agree_under_any_rules(rules, seed, data):
    """Every Rules field drawn, game scores included: both backends follow the scalar engine card for card."""
    rng = np.random.default_rng(seed)
    deals = [_scalar_start(rules, rng, data) for _ in range(12)]
    backends = [VectorDeals.from_deals(deals, backend=b) for b in BACKENDS]
    policy = np.random.default_rng(seed + 1)
    while True:
        masks = [t.legal_masks() for t in backends]
        assert [int(m) for m in masks[0]] == [d.legal_mask() for d in deals]
        assert (masks[0] == masks[1]).all()
        if all(d.is_over for d in deals):
            break
        cards = backends[0].random_actions(policy)
        for t in backends:
            t.step(cards)
        for deal, card in zip(deals, cards):
            if not deal.is_over:
                deal.apply(int(card))
    for t in backends:
        assert t.done.all()
        assert t.points.tolist() == [d.points for d in deals]
        assert t.moon_shooter.tolist() == [-1 if d.moon_shooter is None else d.moon_shooter for d in deals]
        assert t.trick_winners.tolist() == [d.trick_winners for d in deals]
        assert t.taken.tolist() == [d.taken for d in deals]


def test_shooter_choice_in_a_game_is_the_scalar_rule_not_a_substitute():
    """A moon under shooter_choice that +26 to the others would end with the shooter losing: the
    shooter takes -26 instead, in both backends as in the scalar engine (it was +26 to the others)."""
    rules = make_rules("standard(moon=shooter_choice, target=100)")
    deal = moon_deal(rules, [0, 1, 2, 3], 3, (80, 0, 0, 80))  # seat 0 holds the clubs: it leads and shoots
    tables = [VectorDeals.from_deals([deal], backend=b) for b in BACKENDS]
    deal.playout(33)
    assert deal.moon_shooter == 0 and deal.points == [-26, 0, 0, 0]
    for t in tables:
        for card in deal.history:
            t.step(np.array([card]))
        assert t.points[0].tolist() == [-26, 0, 0, 0] and t.moon_shooter[0] == 0


def test_large_point_values_do_not_wrap():
    rules = make_rules("standard(game=deal, heart_points=3000)")
    deal = Deal.random(rules, 1, pass_direction="hold")
    tables = [VectorDeals.from_deals([deal], backend=b) for b in BACKENDS]
    deal.playout(2)
    for t in tables:
        for card in deal.history:
            t.step(np.array([card]))
        assert t.points[0].tolist() == deal.points and t.points.dtype == np.int64
    assert sum(deal.points) == 13 * 3000 + 13


def test_policies_take_the_agents_parameters_and_refuse_bad_ones():
    from hearts_env.vector import kernel_policy, policy_name

    assert kernel_policy("heuristic").params.tolist() == [8, 1, 0]  # the agent's defaults, read from the agent
    assert kernel_policy("heuristic(moon_alarm=5, shoot=False)").params.tolist() == [5, 0, 0]
    assert kernel_policy("heuristic(chase=6)").params.tolist() == [8, 1, 6]
    assert policy_name("heuristic(moon_alarm=5)") == "heuristic" and policy_name("mcts") is None
    for bad in ("heuristic(moon_alarm='x')", "heuristic(moon_alarm=-1)", "heuristic(shoot=1)",
                "heuristic(moon_alarm=True)", "heuristic(chase=-1)", "heuristic(chase=True)"):
        with pytest.raises(ValueError, match=r"moon_alarm|shoot|chase"):
            kernel_policy(bad)
    with pytest.raises(ValueError, match="vectorized policies"):
        kernel_policy("pimc")
    tables = VectorDeals.random("standard", 4, np.random.default_rng(0), backend="numba")
    with pytest.raises(ValueError, match="with a choice"):
        tables.policy_actions("random")


def test_advance_with_a_parameterised_heuristic_matches_the_agent():
    """advance() plays the spec's agent, parameters included: never shooting changes the play."""
    rules = make_rules("standard(game=deal)")
    rng = np.random.default_rng(5)
    hands = np.array([np.roll(_moon_hands(rules, rng), k) for k in range(32)], dtype=np.uint64)
    results = {}
    for spec in ("heuristic", "heuristic(shoot=False)"):
        tables = VectorDeals(rules, hands, np.zeros(32, int), backend="numba")
        tables.advance(-1, spec, np.random.default_rng(0))
        results[spec] = tables.points.copy()
        for i in range(4):
            deal = Deal.from_hands(rules, [int(h) for h in hands[i]])
            agent = make_agent(spec)
            agent.reset(rules, 0, 0)
            while not deal.is_over:
                agent.seat = deal.current
                deal.apply(agent.act(SeatView.of(deal, deal.current)))
            assert deal.points == results[spec][i].tolist()
    assert (results["heuristic"] != results["heuristic(shoot=False)"]).any()


def test_kernel_caches_are_emptied_when_their_sources_change(tmp_path):
    """Numba checks only a function's own file; the kernels also depend on other modules' code and on
    tables.py's slot numbers, so a changed fingerprint of those sources empties every kernel cache."""
    from hearts_env.vector._kernels import drop_stale_caches, sources_fingerprint

    class FakeCache:
        cache_path = str(tmp_path)
        flushed = 0

        def flush(self):
            self.flushed += 1

    class FakeDispatcher:
        def __init__(self):
            self._cache = FakeCache()

    kernels = [FakeDispatcher(), FakeDispatcher()]
    drop_stale_caches(kernels, "one")  # no fingerprint yet: written after emptying
    assert [k._cache.flushed for k in kernels] == [1, 1]
    drop_stale_caches(kernels, "one")  # unchanged sources: the cache is kept
    assert [k._cache.flushed for k in kernels] == [1, 1]
    drop_stale_caches(kernels, "two")
    assert [k._cache.flushed for k in kernels] == [2, 2]
    assert len(sources_fingerprint()) == 16


def test_paper_greedy_is_not_run_as_the_vectorized_greedy():
    from hearts_env.vector import kernel_policy, policy_name

    assert policy_name("greedy(paper=True)") is None and policy_name("greedy(paper=False)") == "greedy"
    with pytest.raises(ValueError, match="vectorized policies"):
        kernel_policy("greedy(paper=True)")
