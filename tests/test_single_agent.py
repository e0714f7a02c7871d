"""The Gymnasium single-agent env hearts_env/Hearts-v0."""

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import hearts_env  # noqa: F401  (registers the env)
from hearts_env.engine import IllegalActionError


def play(env, seed, policy=lambda obs, info: int(np.flatnonzero(info["action_mask"])[0])):
    obs, info = env.reset(seed=seed)
    total, steps, observations = 0.0, 0, [obs]
    while True:
        obs, reward, terminated, truncated, info = env.step(policy(obs, info))
        total += reward
        steps += 1
        observations.append(obs)
        if terminated or truncated:
            return total, steps, observations, info


@pytest.mark.parametrize("kwargs", [{}, {"dict_obs": True}, {"rules": "dutch(game=deal)", "observation": "dutch107"},
                                    {"opponents": ["heuristic", "greedy", "random"], "seat": "random"}])
def test_gymnasium_check_env(kwargs):
    check_env(gymnasium.make("hearts_env/Hearts-v0", **kwargs).unwrapped, skip_render_check=True)


def test_reward_is_the_learners_own_points():
    env = gymnasium.make("hearts_env/Hearts-v0", opponents="heuristic", seat=2)
    total, steps, _, _ = play(env, seed=5)
    deal = env.unwrapped.match.history[-1]
    assert total == -deal.points[2]
    passes = 3 if deal.pass_direction else 0  # one-deal episodes draw their direction (this one: see below)
    assert steps == passes + 13


def test_game_episode_rewards_sum_to_the_final_score():
    env = gymnasium.make("hearts_env/Hearts-v0", rules="standard(target=30)", opponents="greedy", seat=1)
    total, _, _, _ = play(env, seed=2)
    match = env.unwrapped.match
    assert max(match.scores) >= 30 and len(match.history) >= 2
    assert total == -match.scores[1]


@pytest.mark.parametrize("reward", ["openspiel", "zero_sum", "dense"])
def test_reward_schemes_add_up(reward):
    env = gymnasium.make("hearts_env/Hearts-v0", opponents="random", reward=reward, seat=3)
    total, _, _, _ = play(env, seed=9)
    points = env.unwrapped.match.history[-1].points
    expected = {"openspiel": 26 - points[3], "zero_sum": sum(points) / 4 - points[3], "dense": -points[3]}[reward]
    assert total == pytest.approx(expected)


def test_same_seed_same_episode_and_random_seat():
    env = gymnasium.make("hearts_env/Hearts-v0", opponents=["random"] * 3, seat="random")
    a = play(env, seed=11)
    seat_a = env.unwrapped.seat
    b = play(env, seed=11)
    assert env.unwrapped.seat == seat_a and a[0] == b[0] and a[1] == b[1]
    assert all(np.array_equal(x, y) for x, y in zip(a[2], b[2]))
    seats = set()
    for seed in range(12):
        env.reset(seed=seed)
        seats.add(env.unwrapped.seat)
    assert len(seats) > 1
    env.reset(seed=0)  # seed 0 is a seed, not "no seed"
    first = env.unwrapped.match.deal.dealt
    env.reset(seed=0)
    assert env.unwrapped.match.deal.dealt == first


def test_illegal_actions():
    env = gymnasium.make("hearts_env/Hearts-v0", illegal_penalty=-5.0)
    _, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert reward == -5.0 and terminated and info["illegal_action"]
    raising = gymnasium.make("hearts_env/Hearts-v0", illegal_action="raise")
    _, info = raising.reset(seed=0)
    with pytest.raises(IllegalActionError, match="legal cards"):
        raising.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    with pytest.raises(ValueError, match="illegal_action"):
        gymnasium.make("hearts_env/Hearts-v0", illegal_action="ignore")


def test_action_masks_match_info_and_the_engine():
    env = gymnasium.make("hearts_env/Hearts-v0", opponents="heuristic")
    _, info = env.reset(seed=4, options=None)
    inner = env.unwrapped
    assert info["phase"] == int(inner.match.deal.phase)
    assert np.array_equal(inner.action_masks(), info["action_mask"].astype(bool))
    assert set(np.flatnonzero(info["action_mask"])) == set(inner.match.deal.legal_cards())


def test_callable_opponents_and_self_play_hook():
    calls = []

    def lowest(obs, mask):
        calls.append(obs.shape)
        return int(np.flatnonzero(mask)[0])

    env = gymnasium.make("hearts_env/Hearts-v0", opponents=[lowest, "random", "random"])
    play(env, seed=1)
    assert calls and calls[0] == (620,)
    env.unwrapped.set_opponent(1, lowest)
    before = len(calls)
    play(env, seed=1)
    assert len(calls) > 2 * before - 1  # two seats now call the policy
    with pytest.raises(ValueError, match="three"):
        gymnasium.make("hearts_env/Hearts-v0", opponents=["random", "random"])


@pytest.mark.parametrize("dict_obs", [False, True])
def test_sb3_check_env(dict_obs):
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    sb3_check_env(gymnasium.make("hearts_env/Hearts-v0", dict_obs=dict_obs).unwrapped, warn=True)


@pytest.mark.parametrize("copier", ["pickle", "deepcopy"])
def test_a_copy_of_the_env_mid_deal_plays_on_exactly_like_the_original(copier):
    """The mistake: SubprocVecEnv (cloudpickle) or a lookahead (copy.deepcopy) given an env that cannot be copied."""
    import copy
    import pickle

    env = gymnasium.make("hearts_env/Hearts-v0", opponents="heuristic", observation="paper260").unwrapped
    env.reset(seed=5)
    for _ in range(4):
        env.step(int(np.flatnonzero(env.action_masks())[0]))
    twin = pickle.loads(pickle.dumps(env)) if copier == "pickle" else copy.deepcopy(env)
    done = False
    while not done:
        action = int(np.flatnonzero(env.action_masks())[-1])
        mine, theirs = env.step(action), twin.step(action)
        np.testing.assert_array_equal(mine[0], theirs[0])
        assert mine[1:4] == theirs[1:4]
        done = mine[2] or mine[3]
    assert twin.encoder is not env.encoder  # fresh buffers: the copy's observations are its own


def test_render_without_a_render_mode_returns_none_and_says_how():
    env = gymnasium.make("hearts_env/Hearts-v0").unwrapped
    env.reset(seed=0)
    with pytest.warns(UserWarning, match="render_mode='ansi'"):
        assert env.render() is None
    text = gymnasium.make("hearts_env/Hearts-v0", render_mode="ansi").unwrapped
    text.reset(seed=0)
    assert "Hearts" in text.render()
