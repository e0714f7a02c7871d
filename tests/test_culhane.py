"""Paper 001's deep Q-network: rewards, targets, training, files and the agent."""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest
import torch

from hearts_baselines.culhane import network
from hearts_baselines.culhane import train as culhane_train
from hearts_baselines.culhane.agent import CulhaneAgent
from hearts_baselines.culhane.transitions import (
    ACTION,
    RULES,
    Recorder,
    Transitions,
    greedy_deals,
    next_rows,
    targets,
)
from hearts_env import Deal, SeatView, make_rules
from hearts_env.agents import AgentError, make_agent
from hearts_env.encoders import make_encoder
from hearts_env.encoders.culhane217 import state_action_rows

torch.set_num_threads(1)


def seat_transitions(deal: Deal, policy: str, seed: int) -> dict[int, list[tuple]]:
    """Play ``deal`` with ``policy`` at every seat, the transitions grouped by seat in order."""
    encoder = make_encoder("culhane217", deal.rules, "uint8")
    players = [make_agent(policy) for _ in range(4)]
    for seat, p in enumerate(players):
        p.reset(deal.rules, seat, seed + seat)
    recorder = Recorder(deal)
    by_seat: dict[int, list[tuple]] = {s: [] for s in range(4)}
    while not deal.is_over:
        seat = deal.current
        view = SeatView.of(deal, seat)
        card = players[seat].act(view)
        by_seat[seat] += recorder.decide(seat, encoder.encode(view), view.legal, card)
        deal.apply(card)
    for seat, item in enumerate(recorder.finish()):
        by_seat[seat].append(item)
    return by_seat


def test_rewards_are_the_per_trick_point_differential_and_sum_to_the_deal_with_the_moon():
    rules = make_rules(RULES)
    moons = 0
    for seed in range(400):
        deal = Deal.random(rules, seed)
        by_seat = seat_transitions(deal, "heuristic", seed)
        points = np.asarray(deal.points)
        if deal.moon_shooter is not None:
            moons += 1
        for seat, items in by_seat.items():
            rewards = [r for _, r, _, _ in items]
            assert len(rewards) == 13
            assert sum(rewards) == points.sum() - 2 * points[seat]
            if deal.moon_shooter is None:  # trick by trick: +T to the three others, -T to the taker
                for k, winner in enumerate(deal.trick_winners):
                    cards = deal.history[4 * k:4 * k + 4]
                    t = sum(1 for c in cards if 26 <= c < 39) + (13 if 49 in cards else 0)
                    assert rewards[k] == (-t if winner == seat else t)
            assert [legal == 0 for *_, legal in items] == [False] * 12 + [True]
        if deal.moon_shooter is not None:
            shooter_rewards = [r for _, r, _, _ in by_seat[deal.moon_shooter]]
            assert sum(shooter_rewards) == 78 and max(shooter_rewards) > 26  # the correction lands at the end
    assert moons >= 1  # heuristic players shoot now and then: the moon branch ran


def test_state_action_rows_hold_the_played_card_and_next_states_the_seats_next_decision():
    rules = make_rules(RULES)
    deal = Deal.random(rules, 3)
    by_seat = seat_transitions(deal, "greedy", 0)
    plays = deal.history
    for seat, items in by_seat.items():
        mine = [c for c in plays if deal.dealt[seat] >> c & 1]
        for k, (row, _, nxt, legal) in enumerate(items):
            assert row[ACTION:].sum() == 1 and row[ACTION + mine[k]] == 1
            if k < 12:
                assert nxt[ACTION:].sum() == 0 and nxt[2 * 52 + 8 + mine[k + 1]] == 1  # next card still in hand
                assert legal >> mine[k + 1] & 1


def test_targets_add_the_best_next_value_and_stop_at_the_end():
    data = greedy_deals(3, seed=1)
    weights = np.random.default_rng(0).normal(size=217)

    def q(rows):
        return rows.astype(np.float64) @ weights

    y = targets(q, data)
    for i in range(len(data)):
        expected = data.rewards[i]
        if data.next_legal[i]:
            expected += q(state_action_rows(data.next_states[i], int(data.next_legal[i]))).max()
        assert y[i] == pytest.approx(expected)
    rows, _ = next_rows(data)
    assert len(rows) == sum(int(m).bit_count() for m in data.next_legal)


def test_pretraining_fits_its_targets():
    torch.manual_seed(0)
    data = greedy_deals(20, seed=2)
    net = network.build((32, 32))
    opt = culhane_train.optimizer(net)
    losses = culhane_train.pretrain(net, opt, data, cycles=1, epochs=30, rng=np.random.default_rng(0))
    first = culhane_train.pretrain(network.build((32, 32)), culhane_train.optimizer(network.build((32, 32))),
                                   data, 1, 1, np.random.default_rng(0))
    assert losses[-1] < first[-1]


def test_replay_is_fifo_and_samples_with_replacement_until_full():
    replay = culhane_train.Replay(capacity=10)
    item = (np.zeros(217, np.uint8), 0.0, np.zeros(217, np.uint8), 0)
    replay.add([(item[0], float(i), item[2], 0) for i in range(6)])
    assert len(replay.sample(800, np.random.default_rng(0))) == 800  # with replacement
    replay.add([(item[0], float(i), item[2], 0) for i in range(6, 14)])
    assert replay.data.rewards.tolist() == [float(i) for i in range(4, 14)]
    sample = replay.sample(10, np.random.default_rng(0))
    assert sorted(sample.rewards.tolist()) == [float(i) for i in range(4, 14)]  # full: without replacement


def tiny(out, *extra):
    culhane_train.main(["--hidden", "16,16", "--pretrain-deals", "8", "--cycles", "2", "--epochs", "1",
                        "--check-every", "2", "--check-deals", "2", "--out", str(out), *extra])


def test_training_is_reproducible_and_resumes_to_the_same_weights(tmp_path):
    tiny(tmp_path / "a", "--selfplay-deals", "4")
    tiny(tmp_path / "b", "--selfplay-deals", "2")
    tiny(tmp_path / "b", "--selfplay-deals", "4", "--resume")
    tiny(tmp_path / "c", "--selfplay-deals", "4")
    a, _, meta = network.load(tmp_path / "a" / "culhane.pt")
    b, _, _ = network.load(tmp_path / "b" / "culhane.pt")
    c, _, _ = network.load(tmp_path / "c" / "culhane.pt")
    for (name, x), y, z in zip(a.state_dict().items(), b.state_dict().values(), c.state_dict().values()):
        assert torch.equal(x, z), name
        assert torch.equal(x, y), name
    assert meta["deals"] == 4 and "python -m hearts_baselines.culhane.train" in meta["command"]
    curve = [json.loads(line) for line in (tmp_path / "a" / "curve.jsonl").read_text().splitlines()]
    assert [row["deals"] for row in curve] == [0, 2, 4]  # the pretrained network is checked first
    best = max(curve, key=lambda row: row["win_rate_vs_greedy"])  # the first of the best on ties
    assert meta["chosen_deals"] == best["deals"] and meta["chosen_win_rate_vs_greedy"] == best["win_rate_vs_greedy"]


def test_without_torch_the_agent_is_refused_naming_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)  # what `import torch` meets where PyTorch is not installed
    with pytest.raises(AgentError, match=r"culhane plays a PyTorch network: it needs the train extra .*"
                                         r"pip install 'hearts-env\[train\]'$"):
        make_agent("culhane")


def test_network_files_are_checked(tmp_path):
    net = network.build((8,))
    network.save(tmp_path / "n.pt", net, (8,), {"seed": 1})
    _, hidden, meta = network.load(tmp_path / "n.pt")
    assert hidden == (8,) and meta == {"seed": 1}
    (tmp_path / "junk.pt").write_bytes(b"junk")
    with pytest.raises(ValueError, match="not a culhane weights file"):
        network.load(tmp_path / "junk.pt")
    torch.save({"format": "other/1"}, tmp_path / "other.pt")
    with pytest.raises(ValueError, match="format 'other/1'"):
        network.load(tmp_path / "other.pt")
    torch.save({"format": network.FORMAT, "hidden": [9], "meta": {}, "state": net.state_dict()}, tmp_path / "bad.pt")
    with pytest.raises(ValueError, match="do not fit hidden sizes"):
        network.load(tmp_path / "bad.pt")
    with pytest.raises(FileNotFoundError):
        network.load(tmp_path / "missing.pt")
    with pytest.raises(ValueError, match="positive integers"):
        network.build((0,))
    assert sum(p.numel() for p in network.build(network.PAPER_HIDDEN).parameters()) > 5_000_000  # the paper's size


@pytest.fixture
def weights(tmp_path):
    torch.manual_seed(0)
    net = network.build((16,))
    network.save(tmp_path / "q.pt", net, (16,), {})
    return str(tmp_path / "q.pt")


def test_the_agent_plays_the_legal_card_of_highest_q_and_passes_with_its_passer(weights):
    agent = make_agent(f"culhane(weights={weights!r})")
    assert isinstance(agent, CulhaneAgent)
    rules = make_rules("standard")
    deal = Deal.random(rules, 5, pass_direction=1)
    agent.reset(rules, 0, 0)
    while not deal.is_over:
        view = SeatView.of(deal, deal.current)
        card = agent.act(view)
        assert view.legal >> card & 1
        if view.phase.name != "PASS":
            q = agent.q_values(view)
            assert q[card] == max(q.values())
        deal.apply(card)


def test_the_agent_refuses_rules_it_cannot_read(weights):
    with pytest.raises(ValueError, match="52-card deck"):
        make_agent(f"culhane(weights={weights!r})").reset(make_rules("dutch"), 0, 0)


def test_the_papers_win_rate_is_a_share_of_deals():
    torch.manual_seed(0)
    net = network.build((8,))
    rate = culhane_train.win_rate(net, "random", deals=3, seed=0)
    assert rate == culhane_train.win_rate(net, "random", deals=3, seed=0)
    assert 0 <= rate <= 1 and (rate * 12 * 12) % 1 == 0  # 12 games, ties split in 2, 3 or 4


def test_transitions_concatenate_and_select():
    data = greedy_deals(1, seed=0)
    both = Transitions.concat([data, data])
    assert len(both) == 2 * len(data)
    np.testing.assert_array_equal(both.take(np.arange(len(data))).rows, data.rows)
