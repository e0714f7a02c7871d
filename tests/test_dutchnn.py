"""Paper 003's per-trick networks: play, targets, the SGD step, training, files, the agent, and the
rollout agent (pimc with the network)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from hearts_baselines.dutchnn import train as train_cli
from hearts_baselines.dutchnn.agent import DutchNNAgent
from hearts_baselines.dutchnn.model import DutchNet, best_legal
from hearts_baselines.dutchnn.train import train
from hearts_baselines.dutchnn.training import (
    EPOCH_DEALS,
    epsilon_at,
    learn,
    play_batch,
    play_deal,
    versus,
)
from hearts_baselines.dutchnn.update import compiled, sgd_reference
from hearts_baselines.search.pimc import PIMCAgent
from hearts_env import Deal, SeatView, make_rules
from hearts_env.tables import tables_of
from hearts_env.vector import VectorDeals

DUTCH = make_rules("dutch")


def scalar_deal(batch: VectorDeals, i: int) -> Deal:
    return Deal(batch.rules, [int(h) for h in batch.hands[i]], int(batch.pass_direction[i]),
                int(batch.dealer[i]), [int(s) for s in batch.game_scores[i]])


def same_samples(a, b) -> None:
    np.testing.assert_array_equal(a.x, b.x)
    np.testing.assert_array_equal(a.tricks, b.tricks)
    np.testing.assert_array_equal(a.actions, b.actions)
    np.testing.assert_array_equal(a.targets, b.targets)


@pytest.mark.parametrize("seed", range(4))
def test_one_batched_row_plays_and_records_exactly_as_the_scalar_engine(seed):
    """With one row the batch consumes the random stream as the scalar path does: the same
    exploration, cards, observations and returns, ε = 0.3 included."""
    net = DutchNet.initial(np.random.default_rng(seed))
    batch = VectorDeals.random(DUTCH, 1, np.random.default_rng(100 + seed))
    batch = VectorDeals(DUTCH, batch.hands, batch.pass_direction, dealers=seed % 4,
                        game_scores=[[seed * 9, 0, 30, 99]])
    deal = scalar_deal(batch, 0)
    same_samples(play_batch(net, batch, 0.3, np.random.default_rng(7)),
                 play_deal(net, deal, 0.3, np.random.default_rng(7)))


def test_every_row_of_a_batch_plays_as_its_scalar_deal_when_greedy():
    net = DutchNet.initial(np.random.default_rng(1))
    batch = VectorDeals.random(DUTCH, 16, np.random.default_rng(2))
    deals = [scalar_deal(batch, i) for i in range(16)]
    samples = play_batch(net, batch, 0.0, np.random.default_rng(3))
    assert len(samples) == 16 * 32
    for i, deal in enumerate(deals):
        one = play_deal(net, deal, 0.0, np.random.default_rng(4))
        rows = slice(32 * i, 32 * (i + 1))
        np.testing.assert_array_equal(samples.x[rows], one.x)
        np.testing.assert_array_equal(samples.actions[rows], one.actions)
        np.testing.assert_array_equal(samples.targets[rows], one.targets)


def test_targets_are_minus_the_points_from_the_trick_to_the_end_with_the_moon_applied():
    net = DutchNet.initial(np.random.default_rng(0))
    batch = VectorDeals.random(DUTCH, 300, np.random.default_rng(1))
    samples = play_batch(net, batch, 1.0, np.random.default_rng(2))  # random play: some moons
    point_tables = tables_of(DUTCH)
    targets = samples.targets.reshape(300, 4, 8)
    moons = 0
    for i in range(300):
        # the points of each trick from the recorded cards (every seat plays once per trick) and its winner
        points = np.zeros(4)
        taken_before = np.zeros((4, 8))
        hist = samples.actions.reshape(300, 4, 8)[i]
        for k in range(8):
            taken_before[:, k] = points
            cards = hist[:, k]
            winner = int(batch.trick_winners[i, k])
            points[winner] += sum(point_tables.penalty_points_of(1 << int(c)) for c in cards)
        final = batch.points[i]
        if batch.moon_shooter[i] >= 0:
            moons += 1
            shooter = int(batch.moon_shooter[i])
            assert final[shooter] == 0 and all(final[s] == 15 for s in range(4) if s != shooter)
            assert targets[i, shooter, 0] == 0 and all(targets[i, s, 0] == -15 for s in range(4) if s != shooter)
        else:
            np.testing.assert_array_equal(points, final)
        np.testing.assert_array_equal(targets[i], -(final[:, None] - taken_before))
    assert moons >= 3  # the moon branch was exercised


def test_the_compiled_sgd_step_equals_the_numpy_reference_and_learns():
    rng = np.random.default_rng(5)
    net = DutchNet.initial(rng)
    batch = VectorDeals.random(DUTCH, 8, rng)
    samples = play_batch(net, batch, 0.5, rng)
    a, b = net.copy(), net.copy()
    loss_a = compiled()(a.w1, a.b1, a.w2, a.b2, samples.x, samples.tricks.astype(np.int64), samples.actions,
                        samples.targets, 0.001)
    loss_b = sgd_reference(b.w1, b.b1, b.w2, b.b2, samples.x, samples.tricks, samples.actions, samples.targets, 0.001)
    assert loss_a == pytest.approx(loss_b, rel=1e-10)
    for name in ("w1", "b1", "w2", "b2"):
        np.testing.assert_allclose(getattr(a, name), getattr(b, name), rtol=0, atol=1e-12)
    untouched = np.ones(32, bool)
    untouched[samples.actions[samples.tricks == 0]] = False
    np.testing.assert_array_equal(a.b2[0, untouched], net.b2[0, untouched])  # only played cards' outputs move
    first = learn(a, samples)
    for _ in range(30):
        last = learn(a, samples)
    assert last < 0.5 * first  # fitting the same returns again and again drives the error down


def test_exploration_follows_the_documented_schedule():
    assert epsilon_at(0) == 0.1
    assert epsilon_at(EPOCH_DEALS - 1) == 0.1
    assert epsilon_at(EPOCH_DEALS) == pytest.approx(0.099)
    assert epsilon_at(99 * EPOCH_DEALS) == pytest.approx(0.001)
    assert epsilon_at(100 * EPOCH_DEALS) == 0.0 and epsilon_at(10**9) == 0.0


def test_training_is_reproducible_and_a_resumed_run_ends_with_the_same_weights(tmp_path):
    def run(out, deals, resume=False):
        net = DutchNet.initial(np.random.default_rng(1))
        return train(net, deals, seed=3, out=out, rows=50, curve_every=100, eval_deals=8, resume=resume, quiet=True)

    whole = run(tmp_path / "a", 300)
    again = run(tmp_path / "b", 300)
    run(tmp_path / "c", 200)
    with np.load(tmp_path / "c" / "state.npz") as state:  # as a run saved before the rename wrote it: "tables"
        saved, arrays = json.loads(str(state["header"])), {k: state[k] for k in ("scores", "dealers")}
    saved["settings"]["tables"] = saved["settings"].pop("rows")
    np.savez(tmp_path / "c" / "state.npz", header=np.array(json.dumps(saved)), **arrays)
    resumed = run(tmp_path / "c", 300, resume=True)
    for name in ("w1", "b1", "w2", "b2"):
        np.testing.assert_array_equal(getattr(whole, name), getattr(again, name))
        np.testing.assert_array_equal(getattr(whole, name), getattr(resumed, name))
    assert not np.array_equal(whole.w1, DutchNet.initial(np.random.default_rng(1)).w1)
    curve = [json.loads(line) for line in (tmp_path / "c" / "curve.jsonl").read_text().splitlines()]
    assert [row["deals"] for row in curve] == [100, 200, 300]
    with pytest.raises(ValueError, match="same settings"):
        train(DutchNet.initial(np.random.default_rng(1)), 400, seed=4, out=tmp_path / "c", rows=50, curve_every=100,
              eval_deals=8, resume=True, quiet=True)


def test_the_command_writes_the_brains_it_passes(tmp_path, monkeypatch):
    monkeypatch.setattr(train_cli, "BRAINS", {"nnai2": 1, "strongman": 2, "strongman2": 3})
    monkeypatch.setattr(train_cli, "EPOCH_DEALS", 100)
    train_cli.main(["--brain", "strongman", "--out", str(tmp_path), "--curve-every", "100", "--eval-deals", "8"])
    nnai2, strongman = DutchNet.load(tmp_path / "nnai2.npz"), DutchNet.load(tmp_path / "strongman.npz")
    assert nnai2.meta["deals"] == 100 and strongman.meta["deals"] == 200
    assert "python -m hearts_baselines.dutchnn.train" in strongman.meta["command"]
    assert not (tmp_path / "strongman2.npz").exists()


def test_network_files_round_trip_and_bad_files_are_refused(tmp_path):
    net = DutchNet.initial(np.random.default_rng(0))
    net.meta = {"seed": 0}
    net.save(tmp_path / "n.npz")
    back = DutchNet.load(tmp_path / "n.npz")
    np.testing.assert_array_equal(back.w2, net.w2)
    assert back.meta == {"seed": 0}
    net.save(tmp_path / "small.npz", dtype=np.float32)
    assert DutchNet.load(tmp_path / "small.npz").w1.dtype == np.float32
    (tmp_path / "junk.npz").write_bytes(b"not a network")
    with pytest.raises(ValueError, match="not a dutchnn weights file"):
        DutchNet.load(tmp_path / "junk.npz")
    np.savez(tmp_path / "other.npz", header=np.array(json.dumps({"format": "something/1"})))
    with pytest.raises(ValueError, match="format 'something/1'"):
        DutchNet.load(tmp_path / "other.npz")
    with pytest.raises(FileNotFoundError, match="do not exist"):
        DutchNet.load(tmp_path / "missing.npz")
    with pytest.raises(ValueError, match="shape"):
        DutchNet(net.w1[:, :10], net.b1, net.w2, net.b2)
    bad = net.w1.copy()
    bad[0, 0, 0] = np.nan
    with pytest.raises(ValueError, match="non-finite"):
        DutchNet(bad, net.b1, net.w2, net.b2)


@pytest.fixture
def weights(tmp_path):
    net = DutchNet.initial(np.random.default_rng(11))
    path = tmp_path / "net.npz"
    net.save(path)
    return str(path)


def test_the_agent_plays_its_networks_best_legal_card_and_batches_agree(weights):
    agent = DutchNNAgent(weights=weights)
    batch = VectorDeals.random(DUTCH, 24, np.random.default_rng(0))
    deals = [scalar_deal(batch, i) for i in range(24)]
    agent.reset(DUTCH, 0, 1)
    rng = np.random.default_rng(2)
    while not batch.done.all():
        chosen = agent.act_batch(batch)
        for i, deal in enumerate(deals):
            view = SeatView.of(deal, deal.current)
            card = agent.act(view)
            assert card == chosen[i] and view.legal >> card & 1
            values = agent.values(view)
            legal = [c for c in range(32) if view.legal >> c & 1]
            assert values[card] == max(values[c] for c in legal)
        cards = batch.random_step(rng)  # wander off the network's line to see varied positions
        for i, deal in enumerate(deals):
            deal.apply(int(cards[i]))
    assert (agent.act_batch(batch) == -1).all()


def test_the_agent_refuses_what_it_cannot_play(weights):
    with pytest.raises(ValueError, match="32-card Dutch deck"):
        DutchNNAgent(weights=weights).reset(make_rules("standard"), 0, 0)
    with pytest.raises(ValueError, match="bundled brains: nnai2, strongman, strongman2"):
        DutchNNAgent(brain="strongest")
    with pytest.raises(ValueError, match=r"epsilon must be a number in \[0, 1\]"):
        DutchNNAgent(weights=weights, epsilon=1.5)
    with pytest.raises(FileNotFoundError):
        DutchNNAgent(weights="no/such/file.npz")


def test_exploring_agent_still_plays_legal_cards(weights):
    agent = DutchNNAgent(weights=weights, epsilon=1.0)
    agent.reset(DUTCH, 0, 5)
    batch = VectorDeals.random(DUTCH, 32, np.random.default_rng(1))
    while not batch.done.all():
        cards = agent.act_batch(batch)
        batch.step(cards)  # raises on an illegal card


def test_the_rollout_agent_rolls_out_in_batch_exactly_as_with_the_python_agents(weights, monkeypatch):
    """pimc with the network as rollout policy: the batched rollouts give the very values the
    Python agents give on the same sampled worlds (the network is deterministic at ε = 0)."""
    spec = f"dutchnn(weights={weights!r})"
    fast = PIMCAgent(n=6, m=3, policy=spec, rank=spec)
    slow = PIMCAgent(n=6, m=3, policy=spec, rank=spec)
    assert fast.rollout_agent is not None
    monkeypatch.setattr("hearts_baselines.search.pimc.batched", lambda policy, backend="auto": False)
    batch = VectorDeals.random(DUTCH, 1, np.random.default_rng(3))
    deal = scalar_deal(batch, 0)
    for agent in (fast, slow):
        agent.reset(DUTCH, deal.current, 9)
    slow.rollout_agent = None  # after reset: both drew the same seeds from their streams
    for seed in range(5):  # a few decisions into the deal
        view = SeatView.of(deal, deal.current)
        cards = fast.candidates(view)
        slow.candidates(view)
        assert len(cards) == min(3, view.legal.bit_count())
        fast.rng, slow.rng = np.random.default_rng(seed), np.random.default_rng(seed)  # the same worlds
        np.testing.assert_array_equal(fast.evaluate(view, cards, 6), slow.evaluate(view, cards, 6))
        deal.apply(cards[0])


def test_the_rollout_agent_checks_its_network_plays_the_rules(weights):
    spec = f"dutchnn(weights={weights!r})"
    with pytest.raises(ValueError, match="32-card Dutch deck"):
        PIMCAgent(n=4, m=2, policy=spec, rank=spec).reset(make_rules("standard"), 0, 0)


def test_the_check_against_rule_players_is_deterministic():
    net = DutchNet.initial(np.random.default_rng(0))
    first = versus(net, "heuristic", deals=16, seed=1)
    assert first == versus(net, "heuristic", deals=16, seed=1)
    mine, others = first
    assert 0 <= mine <= 15 and 0 <= others <= 15


def test_best_legal_breaks_ties_to_the_lowest_card():
    values = np.zeros((1, 32))
    assert best_legal(values, np.array([0b1010_0000], np.uint64))[0] == 5


def test_the_experiment_plays_the_rollout_agent_once_in_each_seat_and_tabulates(tmp_path):
    from hearts_baselines.dutchnn import experiment

    path = experiment.run("nnai2", n=2, games=4, out=tmp_path, jobs=1)
    records = [json.loads(line) for line in path.read_text().splitlines()]
    rollout_seats = sorted(next(s for s, spec in enumerate(r["seating"]) if spec.startswith("pimc(")) for r in records)
    assert rollout_seats == [0, 1, 2, 3] and all(r["rules"] == "dutch" for r in records)
    figures = experiment.cell(records)
    assert figures["games"] == 4 and figures["won"] + figures["lost"] == 4
    assert figures["p_win_rollout"] + 3 * figures["p_win_per_nn"] == pytest.approx(1.0)
    assert "| nnai2 | 2 | 4 |" in experiment.table(tmp_path)
    with pytest.raises(ValueError, match="multiple of 4"):
        experiment.run("nnai2", n=2, games=6, out=tmp_path, jobs=1)
