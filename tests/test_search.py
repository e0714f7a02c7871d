"""Search baselines: legal play through the arena, determinism, the obvious move in a built position,
and OpenSpiel's ISMCTS bot behind the same agent interface."""

import numpy as np
import pytest

from hearts_env import Deal, Phase, SeatView, make_rules
from hearts_env.agents import make_agent
from hearts_env.cards import iter_cards, parse_cards
from hearts_env.evaluation.arena import run_arena

FAST = {
    "pimc": "pimc(n=4)",
    "pimc-random": "pimc(n=4, policy='random', m=3)",
    "pimc-heuristic": "pimc(n=2, policy='heuristic')",
    "mcts": "mcts(iterations=60, determinizations=3)",
    "ismcts": "ismcts(iterations=60)",
    "ismcts-greedy": "ismcts(iterations=20, rollout='greedy')",
    "maxn": "maxn(worlds=2, depth=2)",
    "maxn-taken": "maxn(worlds=2, depth=3, evaluation='taken')",
}


@pytest.mark.parametrize("spec", FAST.values(), ids=FAST.keys())
def test_search_agents_play_whole_deals_legally(spec):
    records = run_arena([spec, "random"], deals=1, jobs=1, rules=make_rules("standard(game=deal)"),
                        isolation="none")  # one process: 14 fresh ones would each load the compiled kernels
    assert len(records) == 14 and all(r["error"] is None for r in records)


@pytest.mark.parametrize("spec", ["pimc(n=4)", "mcts(iterations=40, time_limit=None)",
                                  "ismcts(iterations=40, time_limit=None)", "maxn(worlds=2, time_limit=None)"])
def test_same_seed_same_moves(spec):
    rules = make_rules("standard(game=deal)")
    deal = Deal.random(rules, 4)
    for _ in range(20):
        deal.apply(deal.legal_cards()[-1])
    view = SeatView.of(deal, deal.current)
    picks = set()
    for _ in range(2):
        agent = make_agent(spec)
        agent.reset(rules, deal.current, 123)
        picks.add(agent.act(view))
    assert len(picks) == 1


def _queen_trap():
    """Seat 2 must follow spades on a trick holding Q♠; it has A♠ K♠ 2♠: only 2♠ avoids 13 points
    (seat 3 cannot overtake: the higher spades are all in seat 2's hand)."""
    rules = make_rules("sturtevant(game=deal)")
    hands = ["5S 3S 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC",
             "QS KC AC 2D 3D 4D 5D 6D 7D 8D 9D TD JD",
             "AS KS 2S QD KD AD 2H 3H 4H 5H 6H 7H 8H",
             "4S 6S 7S 8S 9S TS JS 9H TH JH QH KH AH"]
    deal = Deal.from_hands(rules, hands, dealer=3)
    deal.apply_all(["5S", "QS"])
    assert deal.current == 2
    return rules, deal


@pytest.mark.parametrize("spec", ["pimc(n=6)", "pimc(n=6, policy='random')", "mcts(iterations=300)",
                                  "ismcts(iterations=300)", "maxn(worlds=3, depth=2)"])
def test_search_ducks_under_the_queen_of_spades(spec):
    rules, deal = _queen_trap()
    agent = make_agent(spec)
    agent.reset(rules, 2, 0)
    assert agent.act(SeatView.of(deal, 2)) == parse_cards(["2S"], rules.deck_obj)[0]


def test_a_budget_is_required_and_bad_arguments_are_named():
    with pytest.raises(ValueError, match="iterations=N or time_limit"):
        make_agent("ismcts(iterations=None, time_limit=None)")
    with pytest.raises(ValueError, match="evaluation='x' is not valid"):
        make_agent("maxn(evaluation='x')")


@pytest.mark.parametrize(("spec", "named"), [
    ("mcts(iterations=0)", "iterations must be an integer >= 1"),
    ("ismcts(iterations=2.5)", "iterations must be an integer >= 1"),
    ("pimc(time_limit=-1)", "time_limit must be a positive number of seconds"),
    ("mcts(time_limit=0)", "time_limit must be a positive number of seconds"),
    ("pimc(n=0)", r"n \(rollouts per candidate\) must be an integer >= 1"),
    ("pimc(m=0)", r"m \(candidates at most"),
    ("pimc(policy='heurstic')", "policy='heurstic': unknown agent 'heurstic'"),
    ("pimc(m=4, rank='gredy')", "rank='gredy': unknown agent"),
    ("mcts(rollout='randm')", "rollout='randm': unknown agent"),
    ("ismcts(c=-1)", "c \\(the exploration constant\\) must be a number >= 0"),
    ("mcts(determinizations=0)", "determinizations must be an integer >= 1"),
    ("maxn(worlds=0)", "worlds must be an integer >= 1"),
    ("maxn(rollouts=0)", "rollouts must be an integer >= 1"),
    ("maxn(depth=0)", "depth must be an integer >= 1 or 'trick'"),
    ("pimc(reward='win')", "pimc: reward='win' is not valid; valid values: points, margin"),
    ("pimc(plies=4)", "plies=4 needs policy='heuristic' to be an agent that plays batches"),
    ("pimc(elsewhere='apprentise')", "elsewhere='apprentise': unknown agent"),
    ("pimc(elsewhere='apprentice', passing='search')", "elsewhere='apprentice' plays the passes too"),
    ("pimc(confidence=2)", "confidence=2 weighs the search against elsewhere's card"),
    ("pimc(confidence=2, elsewhere='apprentice', m=3)", "it needs elsewhere= .* and no m="),
    ("pimc(confidence=-1, elsewhere='apprentice')", "confidence .* must be a number >= 0, got -1"),
    ("pimc(confidence=True, elsewhere='apprentice')", "must be a number >= 0, got True"),
    ("pimc(policy='apprentice', plies=0)", r"plies \(cards the rollout policy plays before heuristic finishes\) "
                                           "must be an integer >= 1"),
])
def test_a_search_parameter_that_would_fail_in_play_is_refused_when_the_agent_is_built(spec, named):
    """The mistake: a budget or policy typo accepted at build time, failing (or searching nothing) mid-tournament."""
    with pytest.raises(ValueError, match=named):
        make_agent(spec)


def test_ismcts_chooses_its_own_passes():
    rules = make_rules("standard(game=deal)")
    deal = Deal.random(rules, 2, pass_direction="left")
    agent = make_agent("ismcts(iterations=30)")
    agent.reset(rules, 0, 0)
    card = agent.act(SeatView.of(deal, 0))
    assert deal.legal_mask() >> card & 1


@pytest.mark.parametrize("steps", [0, 5, 11, 12, 30])
def test_openspiel_ismcts_plays_legal_cards_in_every_phase(steps):
    """Includes passing after other seats have passed (OpenSpiel's bot crashed there unless rotated)."""
    rules = make_rules("openspiel(game=deal)")
    deal = Deal.random(rules, 3, pass_direction="left")
    rng = np.random.default_rng(0)
    for _ in range(steps):
        legal = deal.legal_cards()
        deal.apply(legal[int(rng.integers(len(legal)))])
    agent = make_agent("openspiel-ismcts(simulations=50)")
    agent.reset(rules, deal.current, 0)
    assert deal.legal_mask() >> agent.act(SeatView.of(deal, deal.current)) & 1


@pytest.mark.parametrize("direction", ["left", "across", "right", "hold"])
def test_openspiel_ismcts_plays_from_the_seats_true_information_state(direction):
    """The bot is given the seat's true information state, the cards it passed and received included: OpenSpiel's
    information-state string of the world it is sent equals that of the true deal at every decision of a deal
    (before, the world was a deal without passing, so the bot knew neither)."""
    from hearts_env.openspiel_bridge import load_game, mirror_deal

    rules = make_rules("openspiel")
    game = load_game(rules)
    deal = Deal.random(rules, 5, pass_direction=direction)
    agents = [make_agent("openspiel-ismcts(simulations=20)") for _ in range(4)]
    for seat, agent in enumerate(agents):
        agent.reset(rules, seat, seed=seat)
    checked = 0
    while not deal.is_over:
        seat, view = deal.current, SeatView.of(deal, deal.current)
        if view.phase == Phase.PLAY:
            world = agents[seat]._world(view)
            assert mirror_deal(game, world).information_state_string(seat) == \
                mirror_deal(game, deal).information_state_string(seat)
            assert world.passed[seat] == deal.passed[seat] and world.received(seat) == deal.received(seat)
            checked += 1
        deal.apply(agents[seat].act(view))
    assert checked == 52


def test_openspiel_ismcts_refuses_rules_openspiel_lacks():
    from hearts_env.openspiel_bridge import OpenSpielUnsupported

    agent = make_agent("openspiel-ismcts")
    with pytest.raises(OpenSpielUnsupported):
        agent.reset(make_rules("dutch"), 0, 0)


@pytest.mark.parametrize("preset", ["standard", "openspiel", "dutch"])
def test_pimc_batched_rollouts_equal_the_python_agents(preset):
    """The batched engine's heuristic rollouts (worlds x candidates in one call, via take/step) give
    exactly the points the scalar HeuristicAgent gets playing the same worlds out in Python."""
    from hearts_baselines.search.pimc import PIMCAgent

    rules = make_rules(f"{preset}(game=deal)")
    deal = Deal.random(rules, 5)
    rng = np.random.default_rng(5)
    while len(deal.history) < 20 or deal.legal_mask().bit_count() < 2:
        legal = deal.legal_cards()
        deal.apply(legal[int(rng.integers(len(legal)))])
    view = SeatView.of(deal, deal.current)
    cards = deal.legal_cards()
    values = []
    for backend in ("numba", "numpy"):  # numpy: no vectorized heuristic, so the Python agents play
        agent = PIMCAgent(n=6, backend=backend)
        agent.reset(rules, view.seat, 11)
        values.append(agent.evaluate(view, cards, 6))
    np.testing.assert_array_equal(values[0], values[1])


def test_pimc_margin_weighs_a_moon_suffered_as_the_arena_scores_it():
    """Blocking a moon by taking Q♠ and two hearts (15 points) beats suffering it (26) for fewest points, but in
    margin, what the arena scores, the moon costs 8.67 and the block 11.33: the two rewards part ways."""
    from hearts_baselines.search.pimc import PIMCAgent
    from hearts_baselines.search_common import margins

    assert margins(np.array([0.0, 26.0, 26.0, 26.0]), 0) == 26.0
    np.testing.assert_allclose(margins(np.array([[26.0, 0.0, 26.0, 26.0], [15.0, 11.0, 0.0, 0.0]]), 0),
                               [-26 / 3, 11 / 3 - 15])
    rules, deal = _queen_trap()
    view = SeatView.of(deal, 2)
    block, let_it = parse_cards(["2S", "KS"], rules.deck_obj)  # any two legal cards stand for the choice
    means = {block: [11.0, 0.0, 15.0, 0.0], let_it: [0.0, 26.0, 26.0, 26.0]}  # seat 2's block, or seat 0's moon
    picks = {}
    for reward in ("points", "margin"):
        agent = PIMCAgent(n=2, reward=reward)
        agent.reset(rules, 2, 0)
        agent.candidates = lambda view: [block, let_it]  # type: ignore[method-assign]
        agent.world_points = lambda view, cards, n: np.array([[means[c]] * n for c in cards])  # type: ignore
        picks[reward] = agent.act(view)
        assert agent.last_values == {block: 15.0, let_it: 26.0}  # the seat's points, whatever the reward
    assert picks == {"points": block, "margin": let_it}


def test_rollouts_with_plies_let_the_network_play_the_next_cards_and_heuristic_the_rest():
    from hearts_baselines.apprentice.agent import ApprenticeAgent
    from hearts_baselines.search_common import rollout_batch
    from hearts_env.vector import VectorDeals, numba_available

    if not numba_available():
        pytest.skip("heuristic finishes the rollouts on the batched engine, which needs Numba")
    rules = make_rules("openspiel")
    rng = np.random.default_rng(0)
    start = VectorDeals.random(rules, 16, rng)
    for _ in range(14):  # the passes and the first cards
        start.step(start.random_actions(rng))
    network = ApprenticeAgent()
    network.reset(rules, 0, 0)
    by_hand = start.take(np.arange(16))
    for _ in range(5):
        by_hand.step(network.act_batch(by_hand))
    by_hand.advance(np.full(16, -1, np.int8), "heuristic", np.random.default_rng(1))
    assert (rollout_batch(start.take(np.arange(16)), network, rng, plies=5) == by_hand.points).all()
    whole = rollout_batch(start.take(np.arange(16)), network, rng)
    assert (rollout_batch(start.take(np.arange(16)), network, rng, plies=52) == whole).all()
    assert not (whole == by_hand.points).all()  # the network's play is not heuristic's


@pytest.mark.parametrize("spec", ["openspiel", "standard(jd_bonus=true, game=deal)"])
def test_a_moon_race_is_one_seat_alone_with_points_as_the_rule_player_sees_it(spec):
    """``moon_race`` marks exactly the positions where ``heuristic(chase=N)`` goes for the moon with the seat that
    holds points (its own test, on the seat's view: nobody else has a point, its points taken >= N)."""
    from hearts_baselines.search_common import moon_race
    from hearts_env.tables import tables_of
    from hearts_env.vector import VectorDeals

    rules = make_rules(spec)
    c = tables_of(rules)
    rng = np.random.default_rng(3)
    deals = VectorDeals.random(rules, 64, rng)
    seen = 0
    for _ in range(64):
        for chase in (1, 6, 10):
            race = moon_race(deals, chase)
            for i in range(deals.size):
                taken = [int(t) for t in deals.taken[i]]
                holders = [s for s in range(4) if taken[s] & c.penalty_cards]
                expected = (len(holders) == 1 and c.points_of(taken[holders[0]]) >= chase
                            and int(deals.phase[i]) == int(Phase.PLAY))
                assert bool(race[i]) == expected
                seen += expected
        deals.step(deals.random_actions(rng))
    assert seen > 50  # races were met, not only their absence


def _chase_setup(size: int, seed: int):
    """``size`` random OpenSpiel deals and the apprentice reset to play them (skips without Numba, which the chasing
    rule player needs)."""
    from hearts_baselines.apprentice.agent import ApprenticeAgent
    from hearts_env.vector import VectorDeals, numba_available

    if not numba_available():
        pytest.skip("the chasing rule player runs on the batched engine, which needs Numba")
    rules = make_rules("openspiel")
    network = ApprenticeAgent()
    network.reset(rules, 0, 0)
    return VectorDeals.random(rules, size, np.random.default_rng(seed)), network


def test_chasing_rollouts_let_a_lone_holder_shoot_the_moon():
    """With ``chase=N`` the apprentice gives way to ``heuristic(chase=N)`` in a moon race: its rollouts end in moons
    that the network's own play seldom tries, and outside races it plays the network's cards."""
    from hearts_baselines.search.pimc import PIMCAgent
    from hearts_baselines.search_common import rollout_batch

    start, network = _chase_setup(400, seed=0)
    plain = start.take(np.arange(400))
    rollout_batch(plain, network, np.random.default_rng(1))
    chasing = start.take(np.arange(400))
    rollout_batch(chasing, network, np.random.default_rng(1), chase=6)
    moons = [(d.moon_shooter >= 0).sum() for d in (plain, chasing)]
    assert moons[1] > 2 * moons[0], moons  # 27 against 8
    assert (chasing.points == plain.points).all(axis=1).mean() > 0.2  # no race, no change
    undefended = start.take(np.arange(400))
    rollout_batch(undefended, network, np.random.default_rng(1), chase=6, defend=False)
    moons.append((undefended.moon_shooter >= 0).sum())
    assert moons[2] > moons[1], moons  # nobody stops the chasing seat: 43 against 27
    with pytest.raises(ValueError, match="plays batches"):
        PIMCAgent(chase=10)
    with pytest.raises(ValueError, match="defend=False needs chase"):
        PIMCAgent(policy="apprentice", defend=False)
    with pytest.raises(ValueError, match=r"chase .* must be an integer >= 1"):
        PIMCAgent(policy="apprentice", chase=0)


def test_pimc_searches_its_passes_when_asked():
    """``passing='search'``: each pass card is the candidate of fewest mean points over rollouts that pass the rest
    (every card the seat holds a candidate); by default the rule player passes and nothing is searched."""
    from hearts_env.evaluation.arena.game import episode_match

    rules = make_rules("openspiel")
    deal = episode_match(rules, 5, 0).deal  # deal 0 passes left
    seat = deal.current
    view = SeatView.of(deal, seat)
    searcher, passer = make_agent("pimc(n=40, passing='search')"), make_agent("pimc(n=40)")
    for agent in (searcher, passer):
        agent.reset(rules, seat, 1)
    card = searcher.act(view)
    assert set(searcher.last_values) == set(iter_cards(view.hand))
    assert searcher.last_values[card] == min(searcher.last_values.values())
    passer.act(view)
    assert passer.last_values == {}


def test_elsewhere_plays_outside_moon_positions_and_the_search_inside():
    """``elsewhere='apprentice'``: every decision outside a moon position (passes included) is the apprentice's card and
    values nothing; at a moon position the search values every legal card and plays the one of fewest mean points.
    ``moon_position`` read from the view equals the apprentice data's ``moon_on`` read from the observation."""
    from hearts_baselines.apprentice.supervised import moon_on
    from hearts_baselines.search_common import moon_position
    from hearts_env.encoders import make_encoder

    rules = make_rules("openspiel")
    encoder = make_encoder("rich", rules)
    agent, alone = make_agent("pimc(n=4, policy='apprentice', elsewhere='apprentice')"), make_agent("apprentice")
    searched = played = 0
    for d in range(6):
        deal = Deal.random(rules, d)
        seats = [make_agent("apprentice") for _ in range(4)]
        for s, seat in enumerate(seats):
            seat.reset(rules, s, d)
        agent.reset(rules, 0, d)
        alone.reset(rules, 0, d)
        while not deal.is_over:
            view = SeatView.of(deal, deal.current)
            on = moon_position(view)
            assert on == bool(moon_on(encoder.encode(view)[None], np.array([view.phase]), rules)[0])
            if deal.current != 0:
                deal.apply(seats[deal.current].act(view))
                continue
            card = agent.act(view)
            if bin(view.legal).count("1") > 1:
                if on:
                    searched += 1
                    assert set(agent.last_values) == set(iter_cards(view.legal))
                    assert agent.last_values[card] == min(agent.last_values.values())
                else:
                    played += 1
                    assert card == alone.act(view) and agent.last_values == {}
            deal.apply(card)
    assert searched > 0 and played > 0


def test_confidence_keeps_elsewheres_card_unless_the_search_beats_it_by_that_many_standard_errors(monkeypatch):
    """``confidence=z``: outside moon positions the search runs too, and its best card replaces ``elsewhere``'s only
    when their paired per-world gain exceeds z standard errors; at a moon position the search decides as before;
    passes and one-card decisions are ``elsewhere``'s, unsearched."""
    from hearts_baselines.search.pimc import PIMCAgent
    from hearts_baselines.search_common import moon_position

    rules = make_rules("openspiel")
    deal = Deal.random(rules, 3)
    alone = make_agent("apprentice")
    alone.reset(rules, deal.current, 0)
    view = SeatView.of(deal, deal.current)
    while deal.phase == Phase.PASS or bin(view.legal).count("1") < 2:
        deal.apply(alone.act(view))
        view = SeatView.of(deal, deal.current)
    assert not moon_position(view)
    cards = list(iter_cards(view.legal))
    kept = alone.act(view)
    other = next(c for c in cards if c != kept)
    # worlds in which `other` takes 1 point fewer than `kept` on average, its per-world gains 0 and 2 by turns
    gains = np.tile([0.0, 2.0], 20)  # mean 1, standard error 1/sqrt(40) ≈ 0.16: about 6.2 standard errors

    def crafted(self, view, cards, n):
        points = np.full((len(cards), n, 4), 5.0)
        points[cards.index(kept), :, view.seat] = 5.0 + gains[:n]
        return points

    monkeypatch.setattr(PIMCAgent, "world_points", crafted)
    for z, expected in ((6.0, other), (6.5, kept), (0.0, other)):
        agent = make_agent(f"pimc(n=40, policy='apprentice', elsewhere='apprentice', confidence={z})")
        agent.reset(rules, view.seat, 0)
        assert agent.act(view) == expected, z
        assert set(agent.last_values) == set(cards)  # searched either way
    ungated = make_agent("pimc(n=40, policy='apprentice', elsewhere='apprentice')")
    ungated.reset(rules, view.seat, 0)
    assert ungated.act(view) == kept and ungated.last_values == {}


def test_confidence_zero_plays_the_searchs_card_and_passes_stay_elsewheres():
    """With ``confidence=0`` a decision outside a moon position is the plain search's card (the same seed: the same
    worlds), or on a tie elsewhere's; passes are ``elsewhere``'s, unsearched."""
    from hearts_baselines.search_common import moon_position

    rules = make_rules("openspiel")
    gated = make_agent("pimc(n=6, policy='apprentice', elsewhere='apprentice', confidence=0)")
    plain = make_agent("pimc(n=6, policy='apprentice', elsewhere='apprentice')")  # its search() asked directly
    alone = make_agent("apprentice")
    compared = 0
    deal = Deal.random(rules, 4)
    seats = [make_agent("apprentice") for _ in range(4)]
    for s, seat in enumerate(seats):
        seat.reset(rules, s, s)
    while not deal.is_over:
        view = SeatView.of(deal, deal.current)
        if deal.current == 0 and bin(view.legal).count("1") > 1:
            for agent in (gated, plain, alone):
                agent.reset(rules, 0, compared)
            card = gated.act(view)
            if view.phase == Phase.PASS:
                assert card == alone.act(view) and gated.last_values == {}
            elif not moon_position(view):
                best, values = plain.search(view), plain.last_values
                assert gated.last_values == values
                # a tie with elsewhere's card keeps it (a gain of 0 is not above 0 standard errors)
                assert card == best or (values[card] == values[best] and card == alone.act(view))
                compared += 1
        deal.apply(seats[deal.current].act(view))
    assert compared > 3


def test_take_copies_tables():
    from hearts_env.vector import VectorDeals

    tables = VectorDeals.random("standard", 3, np.random.default_rng(0))
    copies = tables.take([2, 2, 0])
    assert copies.size == 3 and (copies.hands[0] == tables.hands[2]).all()
    assert (copies.hands[2] == tables.hands[0]).all()
    copies.step(copies.random_actions(np.random.default_rng(1)))
    assert (tables.passed == 0).all()  # the originals did not move


def test_tree_search_rewards_points_or_paper_002s_win_loss():
    from hearts_baselines.search.tree import ISMCTSAgent, seat_rewards

    assert seat_rewards([0, 26, 0, 0], 26, "points") == [1.0, 0.0, 1.0, 1.0]
    assert seat_rewards([3, 13, 10, 0], 26, "win") == [0.0, 0.0, 0.0, 1.0]
    assert seat_rewards([0, 26, 0, 0], 26, "win") == [1 / 3, 0.0, 1 / 3, 1 / 3]  # ties share the win
    np.testing.assert_allclose(seat_rewards([0, 26, 26, 26], 26, "margin"), [1.0, 1 / 3, 1 / 3, 1 / 3])  # a moon
    np.testing.assert_allclose(seat_rewards([13, 13, 0, 0], 26, "margin"), [1 / 3, 1 / 3, 2 / 3, 2 / 3])
    with pytest.raises(ValueError, match="reward"):
        ISMCTSAgent(reward="score")
    paper = make_agent("ismcts(c=2.0, rollout='random', reward='win', iterations=64, time_limit=None)")
    deal = Deal.random("standard(game=deal)", 3)
    players = [paper] + [make_agent("greedy") for _ in range(3)]
    for s, p in enumerate(players):
        p.reset(deal.rules, s, seed=s)
    while not deal.is_over:
        deal.apply(players[deal.current].act(SeatView.of(deal, deal.current)))  # legal moves only
    assert sum(deal.points) in (26, 78)


def test_an_undefended_chase_changes_only_the_chasing_seats_cards():
    """``defend=False``: in a moon race only the seat alone holding points plays ``heuristic(chase=N)``'s card; every
    other seat plays the network's, race or not (the rollout replayed card by card)."""
    from hearts_baselines.search_common import moon_racer, rollout_batch

    start, network = _chase_setup(64, seed=2)
    by_hand = start.take(np.arange(64))
    chased = 0
    while not by_hand.done.all():
        networks = network.act_batch(by_hand)
        racer = moon_racer(by_hand, 6)
        chasing = (racer >= 0) & (racer == by_hand.current)
        cards = networks.copy()
        cards[chasing] = by_hand.policy_actions("heuristic(chase=6)")[chasing]
        chased += int((cards != networks).sum())
        by_hand.step(cards)
    undefended = start.take(np.arange(64))
    assert (rollout_batch(undefended, network, np.random.default_rng(1), chase=6, defend=False)
            == by_hand.points).all()
    assert chased > 0  # the chasing seats' cards differed from the network's somewhere


def test_apprentice_search_is_the_moon_position_searcher_card_for_card():
    """``apprentice-search`` is ``pimc(n=40, policy='apprentice', elsewhere='apprentice')`` under a name: the same
    seed gives the same card at every decision of whole deals (searched and not), and the apprentice's weights are
    the agent's weights (what hearts-bench records)."""
    from hearts_baselines.apprentice.agent import BUNDLED
    from hearts_baselines.search_common import moon_position

    rules = make_rules("openspiel")
    named, spec = make_agent("apprentice-search"), make_agent("pimc(n=40, policy='apprentice', elsewhere='apprentice')")
    assert named.weights_file == BUNDLED and spec.weights_file is None
    searched = 0
    for d in range(4):
        deal = Deal.random(rules, 10 + d)
        for agent in (named, spec):
            agent.reset(rules, 0, [d, 7])
        while not deal.is_over:
            view = SeatView.of(deal, deal.current)
            card = named.act(view)
            assert card == spec.act(view) and named.last_values == spec.last_values
            searched += moon_position(view) and bin(view.legal).count("1") > 1
            deal.apply(card)
    assert searched > 0


@pytest.mark.parametrize("spec, named", [
    ("apprentice-search(n=0)", r"n \(rollouts per candidate\) must be an integer >= 1"),
    ("apprentice-search(weights='no/such.npz')", "apprentice weights 'no/such.npz' do not exist"),
    ("apprentice-search(policy='heuristic')", "bad arguments"),
])
def test_apprentice_search_refuses_bad_arguments_when_built(spec, named):
    with pytest.raises((ValueError, FileNotFoundError), match=named):
        make_agent(spec)


def test_rollout_points_plays_a_batch_player_on_the_batched_engine_exactly_as_its_python_agents_would():
    """``rollout_points`` with ``apprentice`` (a :class:`BatchPolicy`) steps the batched engine with the agent's
    ``act_batch``: the same final points as four apprentice agents playing each deal card by card, from deals still
    passing and deals in play (so ``ismcts(rollout='apprentice')`` runs its rollouts batched)."""
    from hearts_baselines.search_common import rollout_points

    rules = make_rules("openspiel")
    rng = np.random.default_rng(3)
    deals = []
    for k in range(12):
        deal = Deal.random(rules, rng, pass_direction=1 + k % 3)
        steps = int(rng.integers(0, 30))
        for _ in range(steps):
            if deal.is_over:
                break
            deal.apply(int(rng.choice(deal.legal_cards())))
        deals.append(deal)
    assert any(d.phase == Phase.PASS for d in deals) and any(d.phase == Phase.PLAY for d in deals)
    by_hand = []
    seats = [make_agent("apprentice") for _ in range(4)]
    for deal in deals:
        deal = deal.clone()
        for seat, agent in enumerate(seats):
            agent.reset(rules, seat, 0)
        while not deal.is_over:
            deal.apply(seats[deal.current].act(SeatView.of(deal, deal.current)))
        by_hand.append(deal.points)
    cache: dict = {}
    assert (rollout_points(deals, "apprentice", np.random.default_rng(0), cache) == np.array(by_hand)).all()
    assert set(cache) == {-1}  # one batch player, no per-seat Python agents
    assert rollout_points([], "apprentice", np.random.default_rng(0)).shape == (0, 4)
