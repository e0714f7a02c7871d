"""Paper 004's TD(λ) learner: its atoms and conjunctions, the compiled search and update against the
plain-Python reference, maxn with a learned evaluator, training reproducibility, files and the agent."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

pytest.importorskip("numba")

from hearts_baselines.search.maxn import MaxNAgent
from hearts_baselines.tdlambda import kernels, plain
from hearts_baselines.tdlambda.agent import TDLambdaAgent
from hearts_baselines.tdlambda.features import ATOMS, FeatureSet, parse_orders
from hearts_baselines.tdlambda.model import Model, arrays, search_inputs
from hearts_baselines.tdlambda.train import full_model, main, play, train
from hearts_env import Deal, SeatView
from hearts_env.agents import make_agent
from hearts_env.rules import make_rules
from hearts_env.worlds import sample_worlds

K = kernels.compiled()
SPACES = {"q": kernels.Q_SPACE, "hearts": kernels.HEARTS_SPACE, "full": kernels.Q_SPACE}


def _position(seed: int, rules: str = "sturtevant", boundary: bool = False) -> Deal:
    """A deal after a random number of random cards (at a trick boundary if asked)."""
    deal = Deal.random(rules, seed)
    rnd = random.Random(seed)
    for _ in range(rnd.randrange(52)):
        deal.apply(rnd.choice(deal.legal_cards()))
    while boundary and deal.trick:
        deal.apply(rnd.choice(deal.legal_cards()))
    return deal


def _model(task: str, orders: tuple[int, ...], seed: int = 1) -> tuple[Model, plain.PlainModel]:
    """A model with large random weights, and the reference model with the same weights."""
    fs = FeatureSet(SPACES[task], orders)
    weights = np.random.default_rng(seed).normal(0, 0.5, fs.size)
    model = Model(task, fs if task != "hearts" else None, fs if task == "hearts" else None, weights)
    space = "hearts" if task == "hearts" else "q"
    keyed = {(space, fs.members(i)): float(w) for i, w in enumerate(weights)}
    ref = plain.PlainModel(task, {space: orders}, keyed)
    return model, ref


def _pruned_full_model(seed: int = 2) -> tuple[Model, plain.PlainModel]:
    """A full-game model over a random few of the triples-and-pairs features of both spaces."""
    rng = np.random.default_rng(seed)
    q, hearts = FeatureSet(kernels.Q_SPACE, (1, 2, 3)), FeatureSet(kernels.HEARTS_SPACE, (1, 2, 3))
    q_keep = np.sort(rng.choice(q.size, 3000, replace=False))
    h_keep = np.sort(rng.choice(hearts.size, 800, replace=False))
    weights = rng.normal(0, 0.8, len(q_keep) + len(h_keep))
    model = Model("full", q, hearts, weights, q_keep, h_keep)
    keys = [("q", q.members(int(i))) for i in q_keep] + [("hearts", hearts.members(int(i))) for i in h_keep]
    ref = plain.PlainModel("full", {"q": (1, 2, 3), "hearts": (1, 2, 3)}, dict(zip(keys, weights.tolist())),
                                   kept=set(keys))
    return model, ref


def test_feature_sets_have_the_papers_sizes():
    assert len(ATOMS[kernels.Q_SPACE]) == 60 and len(ATOMS[kernels.HEARTS_SPACE]) == 88
    assert len(set(ATOMS[0])) == 60 and len(set(ATOMS[1])) == 88
    sizes = {(0, (1, 2)): 1_830, (0, (1, 3)): 34_280, (0, (1, 2, 3, 4)): 523_685, (1, (1, 2)): 3_916,
             (1, (1, 3)): 109_824}
    for (space, orders), size in sizes.items():
        assert FeatureSet(space, orders).size == size


@pytest.mark.parametrize("orders", [(1,), (1, 2), (1, 3), (2, 3), (1, 2, 3, 4)])
def test_each_conjunction_has_one_index_and_members_inverts_it(orders):
    """The kernels' colex rank: touching exactly one conjunction changes exactly its weight, and
    ``members`` names the atoms it was built from."""
    fs = FeatureSet(kernels.Q_SPACE, orders)
    rnd = random.Random(0)
    seen = set()
    for _ in range(300):
        order = rnd.choice(orders)
        atoms = sorted(rnd.sample(range(60), order))
        w = np.zeros(fs.size)
        only = np.zeros(0, np.int64)
        act = np.array(atoms, np.int64)
        # visit every conjunction of these atoms of every order; keep the one of the full order
        K.visit(act, order, 1 << (order - 1), fs.offsets(), only, np.zeros((0, 0), np.int8), w, 1.0)
        (index,) = np.flatnonzero(w)
        assert fs.members(int(index)) == tuple(atoms)
        seen.add(int(index))
    assert len(seen) > 50  # many different conjunctions were checked


def test_orders_are_validated():
    assert parse_orders("1,2,3") == (1, 2, 3)
    for bad in ("", "1,5", "1,1", "a"):
        with pytest.raises(ValueError, match="orders"):
            parse_orders(bad)


@pytest.mark.parametrize("seed", range(40))
def test_compiled_atoms_equal_the_reference(seed):
    deal = _position(seed, boundary=True)
    hands, dealt, taken = arrays(deal)
    out = np.zeros(88, np.int64)
    for space, name in ((kernels.Q_SPACE, "q"), (kernels.HEARTS_SPACE, "hearts")):
        for seat in range(4):
            n = K.atoms(hands, dealt, taken, deal.leader, seat, space, out)
            assert list(out[:n]) == plain.atoms(list(deal.hands), list(deal.dealt), list(deal.taken), deal.leader,
                                                    seat, name)


def test_atoms_read_a_scenario_as_named():
    """The Q♠ holder with no other spade while we lead holding spades: the paper's first feature."""
    deal = Deal.from_hands("sturtevant", ["2C 3C 4C 5C 6C 7C 8C 9C TC JC QC 2S 3S",
                                          "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD QS",
                                          "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
                                          "KC AC AD 4S 5S 6S 7S 8S 9S TS JS KS AS"])
    hands, dealt, taken = arrays(deal)
    out = np.zeros(88, np.int64)
    n = K.atoms(hands, dealt, taken, deal.leader, 0, kernels.Q_SPACE, out)
    names = {ATOMS[0][a] for a in out[:n]}
    assert deal.leader == 0
    assert {"we have the lead", "the Qplayer is on our left (plays after us)", "the Qplayer has no other ♠",
            "we have the lead and can lead ♠", "we hold two backers (J♠…2♠)", "we hold no ♦",
            "we were short in ♥ to start", "we hold the lowest ♣ still out"} <= names
    assert "we hold Q♠" not in names and "Q♠ has been played" not in names


@pytest.mark.parametrize("task", ["q", "hearts", "full"])
@pytest.mark.parametrize("moon", ["off", "add_to_others", "subtract_from_shooter"])
def test_compiled_search_equals_the_reference_search(task, moon):
    model, ref = _model(task, (1, 2, 3))
    ref.moon = moon
    params = model.params(moon)
    for seed in range(25):
        deal = _position(seed, f"sturtevant(moon={moon})")
        hands, dealt, taken, leader, trick, legal = search_inputs(deal)
        out = np.full(52, np.inf)
        K.root_values(hands, dealt, taken, leader, trick, legal, params, out)
        card, values = ref.search(deal)
        assert int(np.argmin(out)) == card
        assert out[card] == pytest.approx(values[deal.current], abs=1e-9)
        assert (hands == np.array(deal.hands)).all() and (taken == np.array(deal.taken)).all()  # restored


def test_deal_end_values_apply_the_moon():
    deal = Deal.from_hands("sturtevant", ["2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
                                          "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC QS",
                                          "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AC",
                                          "AD 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS"])
    taken = np.array([kernels.HEARTS | kernels.QS, 0, 0, 0], np.int64)
    empty = np.zeros(4, np.int64)
    dealt = np.array(deal.dealt, np.int64)
    for moon, shooter, others in (("off", 26, 0), ("add_to_others", 0, 26), ("subtract_from_shooter", -26, 0)):
        params = _model("full", (1,))[0].params(moon)
        assert K.value(empty, dealt, taken, 0, 0, params) == shooter
        assert K.value(empty, dealt, taken, 0, 2, params) == others


def test_maxn_with_the_learned_evaluator_equals_the_compiled_search():
    """``maxn(depth="trick", evaluation=model)`` and the tdlambda agent's search agree world by world."""
    model, _ = _model("full", (1, 2))
    searcher = MaxNAgent(worlds=4, depth="trick", evaluation=model)
    params = model.params("add_to_others")
    rng = np.random.default_rng(0)
    for seed in range(12):
        deal = _position(seed)
        view = SeatView.of(deal, deal.current)
        worlds = sample_worlds(view, rng, 4)
        legal = deal.legal_cards()
        python = searcher.card_values(worlds, legal)
        for w, world in enumerate(worlds):
            out = np.full(52, np.inf)
            K.root_values(*search_inputs(world), params, out)
            np.testing.assert_allclose(python[w], out[legal], atol=1e-9)


def test_maxn_refuses_a_learned_evaluator_without_trick_depth():
    model, _ = _model("full", (1,))
    with pytest.raises(ValueError, match="depth='trick'"):
        MaxNAgent(depth=2, evaluation=model)
    with pytest.raises(ValueError, match="depth"):
        MaxNAgent(depth="deal")


@pytest.mark.parametrize("task", ["q", "hearts", "full"])
def test_compiled_td_update_equals_the_reference(task):
    """One deal's positions swept backwards by TD(λ): the same weights from both implementations."""
    model, ref = _model(task, (1, 2), seed=3)
    params = model.params("off")
    for seed in range(6):
        deal = Deal.random("sturtevant(moon=off)", 100 + seed)
        rnd = random.Random(seed)
        positions = []
        mask = {"q": kernels.QS, "hearts": kernels.HEARTS, "full": kernels.QS | kernels.HEARTS}[task]
        while not deal.is_over:
            if not deal.trick and sum(deal.hands) & mask:
                positions.append(deal.clone())
            deal.apply(rnd.choice(deal.legal_cards()))
        seat = seed % 4
        reward = float(plain.points(deal.taken[seat], task))
        n = len(positions)
        hands = np.array([p.hands for p in positions], np.int64).reshape(n, 4)
        taken = np.array([p.taken for p in positions], np.int64).reshape(n, 4)
        leaders = np.array([p.leader for p in positions], np.int64)
        K.td_update(hands, np.array(deal.dealt, np.int64), taken, leaders, n, seat, reward, 0.75, params)
        ref.update(positions, seat, reward, 0.75)
    fs = model.q or model.hearts
    assert fs is not None
    space = "q" if model.q else "hearts"
    expected = np.array([ref.weights[space, fs.members(i)] for i in range(fs.size)])
    np.testing.assert_allclose(model.weights, expected, rtol=1e-9, atol=1e-12)


def test_a_pruned_two_space_model_searches_and_learns_like_the_reference():
    """The full game's model keeps a few features of each space (lookup and pruning tables)."""
    model, ref = _pruned_full_model()
    ref.moon = "add_to_others"
    params = model.params("add_to_others")
    for seed in range(25):
        deal = _position(seed)
        hands, dealt, taken, leader, trick, legal = search_inputs(deal)
        out = np.full(52, np.inf)
        K.root_values(hands, dealt, taken, leader, trick, legal, params, out)
        card, values = ref.search(deal)
        assert int(np.argmin(out)) == card and out[card] == pytest.approx(values[deal.current], abs=1e-9)
    deal = Deal.random("sturtevant(moon=off)", 9)
    rnd = random.Random(9)
    positions = []
    while not deal.is_over:
        if not deal.trick and sum(deal.hands) & (kernels.QS | kernels.HEARTS):
            positions.append(deal.clone())
        deal.apply(rnd.choice(deal.legal_cards()))
    n = len(positions)
    K.td_update(np.array([p.hands for p in positions], np.int64), np.array(deal.dealt, np.int64),
                np.array([p.taken for p in positions], np.int64), np.array([p.leader for p in positions], np.int64),
                n, 1, float(plain.points(deal.taken[1], "full")), 0.75, model.params("off"))
    ref.moon = "off"
    ref.update(positions, 1, float(plain.points(deal.taken[1], "full")), 0.75)
    keys = [("q", model.q.members(int(i))) for i in model.q_keep] + [("hearts", model.hearts.members(int(i)))
                                                                     for i in model.hearts_keep]
    np.testing.assert_allclose(model.weights, [ref.weights[k] for k in keys], rtol=1e-9, atol=1e-12)


def test_training_is_reproducible_and_resumes_to_the_same_weights(tmp_path):
    def fresh():
        return Model.initial("q", FeatureSet(kernels.Q_SPACE, (1, 2)), None, np.random.default_rng(5))

    whole = train(fresh(), 32, 7, tmp_path / "a.npz", rows=8, curve_every=16, quiet=True)
    again = train(fresh(), 32, 7, tmp_path / "b.npz", rows=8, curve_every=16, quiet=True)
    np.testing.assert_array_equal(whole.weights, again.weights)
    assert not np.array_equal(whole.weights, fresh().weights)
    train(fresh(), 16, 7, tmp_path / "c.npz", rows=8, curve_every=16, quiet=True)  # killed after 16 deals
    state_path = tmp_path / "c.state.json"  # as a run saved before the rename wrote it: "tables", not "rows"
    state = json.loads(state_path.read_text())
    state["tables"] = state.pop("rows")
    state_path.write_text(json.dumps(state))
    resumed = train(fresh(), 32, 7, tmp_path / "c.npz", rows=8, curve_every=16, resume=True, quiet=True)
    np.testing.assert_array_equal(whole.weights, resumed.weights)
    rows = [json.loads(line) for line in (tmp_path / "c.curve.jsonl").read_text().splitlines()]
    assert [r["deals"] for r in rows] == [16, 32]
    with pytest.raises(ValueError, match="same settings"):
        train(fresh(), 48, 8, tmp_path / "c.npz", rows=8, curve_every=16, resume=True, quiet=True)


def test_self_play_learns_from_every_seat_and_checks_against_heuristic(tmp_path):
    model = Model.initial("hearts", None, FeatureSet(kernels.HEARTS_SPACE, (1, 2)), np.random.default_rng(0))
    before = model.weights.copy()
    train(model, 16, 0, tmp_path / "s.npz", opponents="self", rows=8, curve_every=16, eval_deals=8, quiet=True)
    assert not np.array_equal(before, model.weights)
    (row,) = [json.loads(line) for line in (tmp_path / "s.curve.jsonl").read_text().splitlines()]
    assert row["versus"] == "heuristic" and 0 <= row["learner"] <= 13


def test_play_scores_every_row():
    model = Model.initial("full", FeatureSet(kernels.Q_SPACE, (1,)), None, np.random.default_rng(0))
    result = play(model, 8, np.random.default_rng(0), "heuristic", learn=False)
    assert (result["points"].sum(axis=1) == 26).all()  # moon off in training: every point counted as taken


def test_the_full_pipeline_command_runs_small(tmp_path):
    common = ["--out", str(tmp_path), "--orders", "1,2", "--rows", "8", "--curve-every", "8", "--deals", "8"]
    main(["q", *common])
    main(["hearts", *common])
    main(["full", *common, "--keep-q", "50", "--keep-hearts", "20", "--opponents", "self", "--eval-deals", "8"])
    full = Model.load(tmp_path / "full.npz")
    assert full.task == "full" and full.weights.shape == (70,)
    assert full.meta["opponents"] == "self" and full.meta["seed"] == 0


def test_full_model_starts_from_the_two_learners_largest_weights():
    q = Model.initial("q", FeatureSet(kernels.Q_SPACE, (1, 2)), None, np.random.default_rng(0))
    hearts = Model.initial("hearts", None, FeatureSet(kernels.HEARTS_SPACE, (1, 2)), np.random.default_rng(1))
    full = full_model(q, hearts, 100, 30)
    assert full.q_keep is not None and full.hearts_keep is not None
    assert np.abs(q.weights[full.q_keep]).min() >= np.sort(np.abs(q.weights))[-100]
    expected = np.concatenate([q.weights[full.q_keep], hearts.weights[full.hearts_keep]])
    np.testing.assert_array_equal(full.weights, expected)
    with pytest.raises(ValueError, match="q model and a hearts model"):
        full_model(hearts, q, 1, 1)


def test_model_files_round_trip_and_foreign_files_are_refused(tmp_path):
    model, _ = _model("full", (1, 2))
    model.meta = {"seed": 3}
    model.save(tmp_path / "m.npz")
    back = Model.load(tmp_path / "m.npz")
    np.testing.assert_array_equal(back.weights, model.weights)
    assert back.task == "full" and back.meta == {"seed": 3} and back.q == model.q
    with pytest.raises(FileNotFoundError, match="do not exist"):
        Model.load(tmp_path / "missing.npz")
    np.savez(tmp_path / "other.npz", weights=np.zeros(3))
    with pytest.raises(ValueError, match="not a tdlambda weights file"):
        Model.load(tmp_path / "other.npz")
    (tmp_path / "text.npz").write_text("hello")
    with pytest.raises(ValueError, match="not a tdlambda weights file"):
        Model.load(tmp_path / "text.npz")
    with pytest.raises(ValueError, match="shape"):
        Model("q", FeatureSet(0, (1,)), None, np.zeros(3))


def test_the_agent_plays_legal_cards_and_refuses_rules_it_cannot_value():
    agent = make_agent("tdlambda(worlds=3)")
    assert isinstance(agent, TDLambdaAgent)
    for rules in ("sturtevant", "standard(game=deal)"):
        deal = Deal.random(rules, 0)
        for seat in range(4):
            agent.reset(deal.rules, seat, seat)
        while not deal.is_over:  # one agent object plays every seat: act reads only the view
            agent.reset(deal.rules, deal.current, 1)
            deal.apply(agent.act(SeatView.of(deal, deal.current)))
    with pytest.raises(ValueError, match="jack_of_clubs_points"):
        agent.reset(make_rules("dutch"), 0, 0)
    with pytest.raises(ValueError, match="moon"):
        agent.reset(make_rules("sturtevant(moon=shooter_choice)"), 0, 0)
    with pytest.raises(ValueError, match="worlds"):
        TDLambdaAgent(worlds=0)


def test_the_agent_is_deterministic_given_its_seed():
    def moves(seed):
        agent = make_agent("tdlambda(worlds=5)")
        deal = Deal.random("sturtevant", 4)
        out = []
        while not deal.is_over:
            agent.reset(deal.rules, deal.current, seed)
            out.append(agent.act(SeatView.of(deal, deal.current)))
            deal.apply(out[-1])
        return out

    assert moves(1) == moves(1)


def test_the_docs_list_every_atom_by_its_index():
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "tdlambda.md").read_text()
    for index, name in enumerate(ATOMS[kernels.Q_SPACE]):
        assert f"| {index} | {name} |" in text
