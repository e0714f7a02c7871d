"""Issue 21: the subagents' batched training path equals the scalar one; the sparse SGD kernel equals
the dense reference; the decision thresholds are calibrated by what they are for."""

from __future__ import annotations

import numpy as np
import pytest

from hearts_baselines.subagents import steps as S
from hearts_baselines.subagents.networks import NetSet, ValueNet, compiled, load, sgd_rows_reference
from hearts_baselines.subagents.samples import Samples
from hearts_baselines.subagents.selfplay import (
    Seats,
    brains,
    collect,
    collect_batch,
    play_batch,
    play_deal,
    random_deal,
    versus,
)
from hearts_baselines.subagents.steps import Labeller, Replay, unit
from hearts_env.rules import make_rules
from hearts_env.vector import VectorDeals

RULES = make_rules("standard")
TRAINING_DEALS = {
    "normal, learning passes and plays": S.normal_deals({"play_normal", "pass_normal"}, random_passes=False),
    "normal, random passes": S.normal_deals({"play_normal"}, random_passes=True),
    "moon seat on filtered deals": S.moon_deals({"play_moon", "pass_moon"}, random_passes=False, filtered=True),
    "breaker against a moon seat": S.breaker_deal,
    "four full players (decisions pick the styles)": lambda ctx, nets, rng, i, eps: (
        random_deal(ctx.rules, rng), brains(nets, [None] * 4, [eps] * 4, explore=frozenset({"play_normal"})),
        {seat: {"play_normal", "play_moon", "play_breaker", "pass_normal", "pass_moon"} for seat in range(4)}),
}


def _context(engine: str, batch_deals: int = 8) -> S.Context:
    return S.Context(RULES, 1.0, batch_deals, 8, 0.4, 0.1, replay=5_000, replay_ratio=2.0, engine=engine)


def _trained_nets() -> NetSet:
    """The bundled networks with the breaker decision's threshold lowered so that it fires: every
    branch of the card choice (moon, breaker decision, breaker play) is exercised."""
    nets = load(None).copy()
    nets.breaker_threshold = 0.3
    nets.moon_threshold = 0.02
    return nets


@pytest.mark.parametrize("kind", list(TRAINING_DEALS))
def test_batched_play_gives_the_scalar_samples(kind: str):
    make, nets, ctx = TRAINING_DEALS[kind], _trained_nets(), _context("batch")
    n = 48
    scalar, batch = Samples(), Samples()
    rng = np.random.default_rng(3)
    scores = []
    for i in range(n):
        deal = make(ctx, nets, rng, i, 0.3)
        facts = play_deal(deal[0], deal[1], rng)
        for s, learn in deal[2].items():
            collect(deal[1][s], facts[s], learn, scalar)
        scores.append(S.metric(facts, deal))
    rng = np.random.default_rng(3)
    deals = []
    for i in range(n):
        deal = make(ctx, nets, rng, i, 0.3)
        for brain in deal[1]:
            brain.new_deal(rng)
        deals.append(deal)
    played = play_batch(nets, VectorDeals.from_deals([d[0] for d in deals]), Seats.of([d[1] for d in deals]))
    collect_batch(played, [d[2] for d in deals], batch)
    assert set(scalar.rows) == set(batch.rows) and scalar.rows
    if kind.startswith("four full"):
        assert {"play_moon", "play_breaker"} <= set(scalar.rows)  # both decisions fired
    for name in scalar.rows:
        (r1, y1), (r2, y2) = scalar.arrays(name), batch.arrays(name)
        assert np.array_equal(r1, r2) and np.array_equal(y1, y2), name
    again = [S.metric(played.facts[k], d) for k, d in enumerate(deals)]
    assert np.array_equal(np.nan_to_num(scores, nan=-1.0), np.nan_to_num(again, nan=-1.0))


def test_a_training_chunk_on_the_batched_engine_trains_the_scalar_weights():
    make = TRAINING_DEALS["normal, learning passes and plays"]
    results = []
    for engine in ("scalar", "batch"):
        nets = NetSet.fresh(hidden=8, seed=1)
        ctx = _context(engine, batch_deals=6)
        loss, _ = S.rl_chunk(ctx, nets, make, 0, 20, 20, np.random.default_rng(9), lambda k: None, Replay(5_000))
        results.append((nets, loss))
    (a, loss_a), (b, loss_b) = results
    assert loss_a == loss_b
    for name in a.nets:
        for key, value in a[name].arrays().items():
            assert np.array_equal(value, b[name].arrays()[key]), (name, key)


def test_decision_data_on_the_batched_engine_equals_the_scalar_labels():
    nets, ctx = _trained_nets(), _context("batch")
    rng = np.random.default_rng(5)
    rows, labels = [], []
    for i in range(40):
        r, lab = S.moon_labels(ctx, nets, rng, i, False, True)
        rows += r
        labels += lab
    data = S.moon_label_batch(ctx, nets, np.random.default_rng(5), 0, 40, False, True)
    assert np.array_equal(np.array(rows), data["rows"]) and np.array_equal(np.array(labels), data["labels"])
    rng = np.random.default_rng(6)
    rows, labels = [], []
    for i in range(40):
        r, lab = S.breaker_labels(ctx, nets, rng, i)
        rows += r
        labels += lab
    data = S.breaker_label_batch(ctx, nets, np.random.default_rng(6), 0, 40)
    assert len(labels) > 20
    assert np.array_equal(np.array(rows), data["rows"]) and np.array_equal(np.array(labels), data["labels"])


def test_counterfactual_moon_data_plays_each_hand_both_ways():
    nets, ctx = _trained_nets(), _context("batch")
    data = S.moon_label_batch(ctx, nets, np.random.default_rng(2), 0, 60, False, False, counterfactual=True)
    assert not np.isnan(data["normal"]).any()
    shot = data["labels"] == 1
    assert (data["attempt"][shot] == 0).all()  # a shooter takes 0 under the standard moon rule
    assert (data["attempt"] != data["normal"]).any()


def test_sparse_sgd_kernel_equals_the_dense_reference():
    rng = np.random.default_rng(0)
    net = ValueNet(260, 16, rng)
    rows = (5 * np.arange(52) + rng.integers(0, 5, (200, 52))).astype(np.int64)
    y = rng.random(200)
    a, b = net.copy(), net.copy()
    loss_a = compiled()(a.W1, a.b1, a.w2, a.b2, rows, y, 0.5, 32)
    loss_b = sgd_rows_reference(b.W1, b.b1, b.w2, b.b2, rows, y, 0.5, 32)
    assert loss_a == pytest.approx(loss_b, rel=1e-5)
    for key, value in a.arrays().items():
        np.testing.assert_allclose(value, b.arrays()[key], atol=1e-5)
    assert not np.array_equal(a.W1, net.W1)


def test_the_moon_threshold_minimises_points_on_hands_played_both_ways():
    net = ValueNet(260, 4, np.random.default_rng(0))
    rng = np.random.default_rng(1)
    rows = (5 * np.arange(52) + rng.integers(0, 5, (300, 52))).astype(np.int16)
    p = net.values_of_rows(rows)
    good = p > np.quantile(p, 0.9)  # attempting pays on the top 10% of outputs only
    data = {"rows": rows, "labels": good.astype(np.float32), "attempt": np.where(good, 0.0, 20.0),
            "normal": np.full(300, 6.0)}
    cal = S.calibrate_moon(net, data)
    assert ((p > cal["threshold"]) == good).all()
    assert cal["points_calibrated"] == pytest.approx(6.0 * 0.9)
    never = S.calibrate_moon(net, {**data, "attempt": np.full(300, 9.0)})
    assert never["threshold"] >= 1.0 and never["attempt_rate"] == 0.0


def test_the_classifier_estimates_probabilities_without_resampling():
    rng = np.random.default_rng(3)
    n = 20_000
    flag = rng.random(n) < 0.5
    rows = np.where(flag[:, None], 5 * np.arange(52), 5 * np.arange(52) + 1).astype(np.int16)
    labels = (rng.random(n) < np.where(flag, 0.3, 0.02)).astype(np.float32)
    net = ValueNet(260, 4, np.random.default_rng(0))
    stats = S.fit_classifier(net, rows, labels, _context("batch"), 3, 0.96, np.random.default_rng(0))
    assert net.values_of_rows(rows[flag][:1])[0] == pytest.approx(0.3, abs=0.04)
    assert net.values_of_rows(rows[~flag][:1])[0] == pytest.approx(0.02, abs=0.02)
    assert stats["test_above_threshold"] == 0.0


def test_batched_check_against_rule_players_is_duplicate_and_complete():
    nets = load(None)
    mine, others = versus(nets, "greedy", deals=64, seed=1)
    assert 0 < mine < 26 and 0 < others < 26
    assert versus(nets, "greedy", deals=64, seed=1) == (mine, others)


def test_decision_data_do_not_depend_on_the_number_of_processes():
    nets, ctx = _trained_nets(), _context("batch")
    with Labeller(1) as one, Labeller(2) as two:
        a = one.units("decide_breaker", ctx, nets, 0, 9, 3, 2, 8, (False, True))
        b = two.units("decide_breaker", ctx, nets, 0, 9, 3, 2, 8, (False, True))
        c = two.units("decide_moon", ctx, nets, 0, 7, 0, 2, 8, (False, False), counterfactual=True)
    assert all(np.array_equal(x[k], y[k]) for x, y in zip(a, b) for k in x)
    assert [len(u["labels"]) for u in c] == [8, 8]
    again = unit("decide_moon", ctx, nets, 0, 7, 1, 8, (False, False), counterfactual=True)
    assert all(np.array_equal(c[1][k], again[k], equal_nan=True) for k in again)


def test_the_breaker_threshold_is_the_candidate_with_the_fewest_points():
    nets, ctx = _trained_nets(), _context("batch")
    cal = S.calibrate_breaker(ctx, nets, (0, 1), 48, (0.0, 0.5, 1.01))
    points = {float(k): v for k, v in cal["points"].items()}  # type: ignore[attr-defined]
    assert cal["threshold"] == min(points, key=points.get)  # type: ignore[arg-type]
    assert len(set(points.values())) > 1  # the threshold changes the play
    assert S.breaker_points(ctx, nets, (0, 1), 48, 0.5) == points[0.5]
