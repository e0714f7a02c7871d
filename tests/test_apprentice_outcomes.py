"""Outcome data (each card of a moon position valued by playing the true deal on) and the fit that improves on a
starting policy with it (``supervised --anchor``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hearts_baselines.apprentice import data as D
from hearts_baselines.apprentice import outcomes as O
from hearts_baselines.apprentice.net import NumpyNet, to_numpy, torch_net
from hearts_env import SeatView
from hearts_env.agents import make_agent
from hearts_env.encoders import make_encoder
from hearts_env.evaluation.arena.game import pass_direction_of
from hearts_env.match import Match

torch = pytest.importorskip("torch")
torch.set_num_threads(1)

RULES = D.make_rules(D.RULES)


def _replay(k: int, seed: int) -> tuple[list[tuple[np.ndarray, dict[int, float]]], list[int]]:
    """Deal ``k`` played again by ``greedy`` in every seat, the moon positions of the recorded seat valued by
    finishing copies of the deal: what ``outcomes.play_deal`` must have recorded (greedy is deterministic)."""
    from hearts_baselines.apprentice.supervised import moon_on

    deal = Match(RULES, seed=np.random.default_rng([O.NAMESPACE, seed, k]),
                 pass_direction=pass_direction_of(RULES, k)).deal
    me = D.searcher_seat(k)
    agents = [make_agent("greedy") for _ in range(4)]
    encoder = make_encoder("rich", RULES, dtype="uint8")
    positions = []
    while not deal.is_over:
        view = SeatView.of(deal, deal.current)
        if view.legal & (view.legal - 1) == 0:
            deal.apply(view.legal.bit_length() - 1)
            continue
        obs = encoder.encode(view).copy()
        if deal.current == me and moon_on(obs[None], np.array([view.phase]), RULES)[0]:
            values = {}
            for card in (c for c in range(52) if view.legal >> c & 1):
                copy = deal.clone()
                copy.apply(card)
                while not copy.is_over:
                    v = SeatView.of(copy, copy.current)
                    only = v.legal & (v.legal - 1) == 0
                    copy.apply(v.legal.bit_length() - 1 if only else agents[copy.current].act(v))
                values[card] = float(copy.points[me])
            positions.append((obs, values))
        deal.apply(agents[deal.current].act(view))
    return positions, list(deal.points)


def test_outcome_data_values_each_card_of_the_players_moon_positions_by_finishing_the_true_deal():
    recorded = 0
    for k in range(12):
        rows = O.play_deal(RULES, k=k, seed=3, player="greedy", opponents="greedy", rollouts=2)
        positions, points = _replay(k, 3)
        assert len(rows["action"]) == len(positions)
        me = D.searcher_seat(k)
        for i, (obs, values) in enumerate(positions):
            assert np.array_equal(rows["obs"][i], obs)
            got = {c: float(v) for c, v in enumerate(rows["values"][i]) if not np.isnan(v)}
            assert got == values  # deterministic seats: both rollouts of a card end alike
            assert rows["action"][i] == min(values, key=values.__getitem__)
            assert rows["legal"][i].sum() == len(values) >= 2
        assert (rows["seat"] == me).all() and (rows["phase"] == 1).all()
        assert (rows["points"] == points[me]).all()  # the deal went on with the player's own cards
        recorded += len(positions)
    assert recorded > 0


def test_outcome_data_is_a_function_of_seed_and_unit_and_refuses_bad_settings(tmp_path: Path):
    a, b = tmp_path / "a", tmp_path / "b"
    O.generate(str(a), deals=4, seed=1, unit_deals=2, player="greedy", opponents="random", progress=False)
    O.generate(str(b), deals=4, seed=1, unit_deals=2, player="greedy", opponents="random", jobs=2, progress=False)
    for name in ("unit-00000.npz", "unit-00001.npz"):
        with np.load(a / name) as x, np.load(b / name) as y:
            assert all(np.array_equal(x[key], y[key], equal_nan=True) for key in D.KEYS)
    rows = D.load(a)
    assert set(np.unique(rows["deal"])) <= {0, 1, 2, 3}
    with pytest.raises(ValueError, match="holds search data made with other settings"):
        O.generate(str(a), deals=4, seed=1, unit_deals=2, player="greedy", opponents="greedy", progress=False)
    with pytest.raises(ValueError, match="rollouts must be an integer >= 1, got 0"):
        O.generate(str(tmp_path / "c"), deals=4, unit_deals=2, rollouts=0, player="greedy", opponents="random")
    assert not (tmp_path / "c").exists()


def _net_and_batch(values: list[float]):
    """A small network, its own logits as the prior, and one row whose candidates 0..len(values)-1 are valued."""
    torch.manual_seed(0)
    net = torch_net(620, (16,), 52)
    x = torch.rand(1, 620)
    legal = torch.zeros(1, 52, dtype=torch.bool)
    legal[0, :len(values)] = True
    vals = torch.zeros(1, 52)
    vals[0, :len(values)] = torch.tensor(values)
    with torch.no_grad():
        prior = net(x)[0]
    return net, {"x": x, "w": torch.ones(1), "legal": legal, "action": torch.zeros(1, dtype=torch.int64),
                 "values": vals, "has": legal.clone(), "points": torch.zeros(1), "prior": prior}


def test_the_anchored_fit_leaves_alike_cards_where_the_prior_had_them_and_moves_towards_the_cheaper_card():
    from hearts_baselines.apprentice.supervised import losses

    net, b = _net_and_batch([4.0, 4.0, 4.0])
    loss, parts = losses(net, b, q_weight=0.0, v_weight=0.0, anchor=1.0)
    loss.backward()
    assert parts["ce"] == pytest.approx(0.0, abs=1e-6) and parts["expected"] == pytest.approx(4.0, rel=1e-5)
    assert all(p.grad is None or float(p.grad.abs().max()) < 1e-6 for p in net.parameters())

    net, b = _net_and_batch([26.0, 0.0, 26.0])
    opt = torch.optim.SGD(net.parameters(), lr=0.05)
    before = torch.softmax(b["prior"].masked_fill(~b["legal"], -1e9), 1)[0, 1].item()
    for _ in range(30):
        loss, _ = losses(net, b, q_weight=0.0, v_weight=0.0, anchor=1.0)
        opt.zero_grad()
        loss.backward()
        opt.step()
    after = torch.softmax(net(b["x"])[0].masked_fill(~b["legal"], -1e9), 1)[0, 1].item()
    assert after > before + 0.2


def test_the_anchored_fit_needs_starting_weights(tmp_path: Path):
    from hearts_baselines.apprentice import supervised

    folder = tmp_path / "d"
    O.generate(str(folder), deals=4, seed=1, unit_deals=4, player="greedy", opponents="random", progress=False)
    with pytest.raises(ValueError, match=r"anchor=1\.0: needs a number >= 0 and --init"):
        supervised.train(str(folder), str(tmp_path / "fit"), anchor=1.0, log=False)
    start = tmp_path / "start.npz"
    to_numpy(torch_net(620, (16,), 52), {}).save(start)
    supervised.train(str(folder), str(tmp_path / "fit"), epochs=1, batch=4, init=str(start), anchor=1.0,
                     eval_deals=0, log=False)
    fitted = NumpyNet.load(tmp_path / "fit" / "apprentice.npz")
    assert fitted.meta["anchor"] == 1.0 and fitted.meta["init"] == str(start)


def test_the_held_out_value_of_the_policys_card_is_the_mean_value_of_its_argmax(tmp_path: Path):
    from hearts_baselines.apprentice import supervised
    from hearts_baselines.apprentice.net import as_float, load_into

    folder = tmp_path / "d"
    O.generate(str(folder), deals=8, seed=2, unit_deals=8, player="greedy", opponents="random", progress=False)
    data = D.load(folder)
    rows = np.arange(len(data["action"]))
    net = torch_net(620, (16,), 52)
    numpy_net = to_numpy(net, {})
    load_into(net, numpy_net)
    logits = numpy_net.policy_logits(as_float(data["obs"], RULES))
    logits[~data["legal"]] = -np.inf
    own = data["values"][rows, logits.argmax(1)]
    assert not np.isnan(own).any()
    got = supervised.evaluate(net, data, rows, RULES)["value_play"]
    assert got == pytest.approx(float(own.mean()), rel=1e-5)


@pytest.mark.parametrize("argv, message", [
    (["--rollouts", "0"], "rollouts must be an integer >= 1, got 0"),
    (["--player", "bogus"], "unknown agent 'bogus'"),
    (["--deals", "30"], "deals (30) must be a multiple of unit_deals (25)"),
])
def test_the_outcome_command_refuses_bad_arguments_in_one_line(argv: list[str], message: str, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]):
    with pytest.raises(SystemExit) as exit_:
        O.main(["--out", str(tmp_path / "o"), "--opponents", "random", *argv])
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert message in err and "Traceback" not in err
    assert not (tmp_path / "o").exists()


def test_the_anchored_fit_command_refuses_an_anchor_without_starting_weights(tmp_path: Path,
                                                                           capsys: pytest.CaptureFixture[str]):
    from hearts_baselines.apprentice import supervised

    with pytest.raises(SystemExit) as exit_:
        supervised.main(["--data", str(tmp_path), "--out", str(tmp_path / "fit"), "--anchor", "1"])
    assert exit_.value.code == 2
    assert "anchor=1.0: needs a number >= 0 and --init" in capsys.readouterr().err
