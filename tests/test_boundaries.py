"""Bad input is refused at the boundary with a message naming what is allowed: no truncation,
no reinterpretation, no silent wrap-around."""

import gymnasium
import numpy as np
import pytest

import hearts_env  # noqa: F401  (registers the Gymnasium ids)
from hearts_env import hearts_v0
from hearts_env.actions import integer_action, integer_actions
from hearts_env.engine import Deal, DealError
from hearts_env.rules import RulesError, make_rules
from hearts_env.vector import VectorDeals


def test_integer_actions_only():
    assert integer_action(3) == 3 and integer_action(np.int16(3)) == 3 and integer_action(np.array([3])) == 3
    for bad in (3.0, 3.5, np.float32(3), True, np.bool_(True), np.array([True]), np.array([1.0]), "3", None):
        assert integer_action(bad) is None, bad
    with pytest.raises(ValueError, match="integer card ids"):
        integer_actions(np.array([1.5, 2.0]), 2)
    with pytest.raises(ValueError, match="integer card ids"):
        integer_actions(np.array([True, False]), 2)
    with pytest.raises(ValueError, match="one card id per env"):
        integer_actions(np.array([1, 2, 3]), 2)


def test_gymnasium_env_refuses_float_and_bool_actions():
    env = gymnasium.make("hearts_env/Hearts-v0", opponents="random", illegal_action="raise")
    _, info = env.reset(seed=0)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    for bad in (legal + 0.5, float(legal), np.array(legal, dtype=np.float64), True):
        with pytest.raises(ValueError, match="integer card id"):
            env.step(bad)
    env.step(np.int64(legal))  # a NumPy integer is a card id


def test_aec_env_treats_a_float_as_illegal_not_as_a_card():
    env = hearts_v0.raw_env(rules="openspiel", illegal_action="raise")
    env.reset(seed=0)
    legal = env.deal.legal_cards()[0]
    with pytest.raises(Exception, match="not a"):
        env.step(legal + 0.5)
    assert env.deal.history == []
    terminate = hearts_v0.raw_env(rules="openspiel")
    terminate.reset(seed=0)
    terminate.step(float(legal))
    assert all(terminate.terminations.values()) and terminate.deal.history == []


def test_vector_env_refuses_bool_float_actions_and_bad_num_envs():
    envs = gymnasium.make_vec("hearts_env/Hearts-v0", num_envs=2, backend="numpy")
    _, info = envs.reset(seed=0)
    with pytest.raises(ValueError, match="integer card ids"):
        envs.step(info["action_mask"][:, :2].any(axis=1))  # a bool array is not card 1
    with pytest.raises(ValueError, match="integer card ids"):
        envs.step(np.array([0.5, 1.5]))
    for bad in (2.5, 0, -1, True, "4"):
        with pytest.raises(ValueError, match="num_envs must be a positive integer"):
            gymnasium.make_vec("hearts_env/Hearts-v0", num_envs=bad)


def test_vector_env_returns_fresh_observation_arrays():
    envs = gymnasium.make_vec("hearts_env/Hearts-v0", num_envs=3, backend="numpy", opponents="random")
    obs, info = envs.reset(seed=0)
    kept = [obs]
    rng = np.random.default_rng(0)
    for _ in range(6):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
        obs, _, _, _, info = envs.step(actions)
        kept.append(obs)
    assert len({id(o) for o in kept}) == len(kept)
    assert not all(np.array_equal(kept[0], o) for o in kept[1:])  # earlier observations were not overwritten
    first = kept[0].copy()
    envs.step(np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]]))
    np.testing.assert_array_equal(kept[0], first)


def test_scores_and_game_scores_are_checked():
    rules = make_rules("standard")
    for bad in ((0, 0, 0), (0.5, 0, 0, 0), (True, 0, 0, 0), "0000"):
        with pytest.raises(DealError, match="game_scores"):
            Deal.random(rules, 0, game_scores=bad)
    with pytest.raises(ValueError, match="game_scores must be integers"):
        VectorDeals.random(rules, 2, np.random.default_rng(0)).__class__(
            rules, np.zeros((2, 4), np.uint64), [0, 0], game_scores=np.zeros((2, 3)))
    env = hearts_v0.raw_env()
    with pytest.raises(ValueError, match="scores"):
        env.reset(options={"scores": [0.5, 0, 0, 0]})


def test_point_values_and_target_are_bounded_not_wrapped():
    with pytest.raises(RulesError, match=r"heart_points=10001 is not valid; use 0..10000"):
        make_rules("standard", heart_points=10_001)
    with pytest.raises(RulesError, match=r"target=0 is not valid; use 1..10000"):
        make_rules("standard", target=0)
    env = gymnasium.make_vec("hearts_env/Hearts-v0", num_envs=4, rules="standard(game=deal, heart_points=3000)",
                             backend="numpy", opponents="random")
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    totals = []
    while len(totals) < 4:
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
        _, rewards, terminated, _, info = env.step(actions)
        for i in np.flatnonzero(terminated):
            totals.append(int(info["points"][i].sum()))
            assert rewards[i] == -info["points"][i][0] and rewards[i] <= 0
    assert all(t == 13 * 3000 + 13 or t == 3 * (13 * 3000 + 13) for t in totals)


def test_vector_env_copy_false_reuses_one_buffer():
    envs = gymnasium.make_vec("hearts_env/Hearts-v0", num_envs=3, backend="numpy", copy=False)
    obs, info = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    nxt, *_, info = envs.step(np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]]))
    assert nxt is obs  # the documented speed path: the caller copies what it keeps
