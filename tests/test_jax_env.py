"""hearts_env.jax.HeartsJaxEnv against hearts_v0: the same deals and actions give the same rewards at every step, the
same game (dealer rotation, passing schedule, scores, end at the target) and the same end; pgx's conventions and,
where pgx is installed, its ``auto_reset`` wrapper and ``act_randomly`` on it."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")

from hearts_env import hearts_v0  # noqa: E402
from hearts_env import jax as hj  # noqa: E402
from hearts_env.engine import Deal  # noqa: E402

_STEPS: dict[tuple[str, str, str], object] = {}


def _jitted(env: hj.HeartsJaxEnv):
    key = (env.rules.spec(), env.observation, env.reward)
    if key not in _STEPS:
        _STEPS[key] = (jax.jit(env.init), jax.jit(env.step))
    return _STEPS[key]


def play_jax(env: hj.HeartsJaxEnv, seed: int):
    """One episode of random legal play: the actions, each step's rewards and current player, and each deal's
    hands, pass direction and dealer as it started."""
    init, step = _jitted(env)
    state = init(jax.random.key(seed))
    rng = np.random.default_rng(seed)
    actions, rewards, deals = [], [], []
    last_index = -1
    while not bool(state.terminated):
        deal = state.deal
        if int(state.deal_index) != last_index:
            last_index = int(state.deal_index)
            n = env.rules_data.n
            deals.append(([int(sum(int(b) << c for c, b in enumerate(np.asarray(hj.to_mask(deal.hands[s], n)))))
                           for s in range(4)], int(deal.pass_direction), int(deal.dealer)))
        mask = np.asarray(state.legal_action_mask)
        assert int(state.current_player) == int(deal.current)
        action = int(rng.choice(np.flatnonzero(mask)))
        actions.append(action)
        state = step(state, action)
        rewards.append(np.asarray(state.rewards))
    return actions, rewards, deals, state


def play_aec(env: hj.HeartsJaxEnv, actions, deals):
    """The same deals and actions through hearts_v0; each step's rewards and the final scores."""
    aec = hearts_v0.env(rules=env.rules, reward=env.reward)
    explicit = [Deal.from_hands(env.rules, hands, pass_direction=d, dealer=dealer) for hands, d, dealer in deals]
    aec.reset(seed=0, options={"deals": explicit})
    rewards = []
    for action in actions:
        aec.step(action)
        rewards.append(np.array([aec.rewards[f"player_{s}"] for s in range(4)]))
    assert all(aec.terminations.values())
    return rewards, aec.unwrapped.match.scores


BONUSES = "standard(target=30, moon=shooter_choice, jd_bonus=true, avoid_all_tricks_bonus=true)"


@pytest.mark.parametrize(("rules", "reward"), [
    *((BONUSES, reward) for reward in ("points", "openspiel", "zero_sum", "dense", "win", "rank")),
    ("openspiel", "dense"), ("openspiel", "rank"), ("dutch(target=25, passing=left,right)", "dense")])
def test_rewards_and_games_are_hearts_v0s(rules, reward):
    """Every scheme in a game with both bonuses and shooter_choice; one-deal episodes; the Dutch deck with a
    passing schedule of its own."""
    env = hj.HeartsJaxEnv(rules, reward=reward)
    for seed in range(2):
        actions, rewards, deals, state = play_jax(env, seed)
        want, scores = play_aec(env, actions, deals)
        assert len(rewards) == len(want)
        for k, (got, exp) in enumerate(zip(rewards, want)):
            np.testing.assert_allclose(got, exp, rtol=1e-6, atol=1e-6, err_msg=f"step {k}")
        assert [int(s) for s in state.scores] == list(scores)
        if env.rules.game == "deal":
            assert len(deals) == 1
        else:
            assert max(scores) >= env.rules.target
            assert [dealer for *_, dealer in deals] == [(3 + k) % 4 for k in range(len(deals))]
            schedule = env.rules.pass_schedule
            assert [d for _, d, _ in deals] == [schedule[k % len(schedule)] for k in range(len(deals))]


def test_an_illegal_action_ends_the_episode_with_minus_one():
    env = hj.HeartsJaxEnv("openspiel")
    state = env.init(jax.random.key(0))
    illegal = int(np.flatnonzero(~np.asarray(state.legal_action_mask))[0])
    seat = int(state.current_player)
    state = env.step(state, illegal)
    assert bool(state.terminated) and list(state.rewards) == [-1.0 if s == seat else 0.0 for s in range(4)]
    assert np.asarray(state.legal_action_mask).all()  # pgx: every action is "legal" once over
    after = env.step(state, 0)
    assert list(after.rewards) == [0.0] * 4 and int(after.step_count) == int(state.step_count)


def test_observation_is_the_seat_to_acts():
    env = hj.HeartsJaxEnv("standard", observation="paper260")
    state = env.init(jax.random.key(1))
    assert env.observation_shape == (260,) and env.num_actions == 52 and env.num_players == 4
    np.testing.assert_array_equal(state.observation, hj.observe(state.deal, state.current_player, env.rules_data,
                                                                "paper260"))


def test_pgx_auto_reset_and_act_randomly_drive_it():
    pgx_experimental = pytest.importorskip("pgx.experimental")
    env = hj.HeartsJaxEnv("openspiel", reward="zero_sum")
    batch = 8
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(pgx_experimental.auto_reset(env.step, env.init)))
    key = jax.random.key(2)
    state = init(jax.random.split(key, batch))
    ended = 0
    for i in range(130):  # two deals' worth of steps: every table ends and restarts at least once
        k_act, k_step = jax.random.split(jax.random.fold_in(key, i))
        action = pgx_experimental.act_randomly(k_act, state.legal_action_mask)
        state = step(state, action, jax.random.split(k_step, batch))
        ended += int(state.terminated.sum())
        assert np.allclose(np.asarray(state.rewards).sum(axis=1), 0, atol=1e-4)  # zero-sum, ends included
    assert ended >= batch


def test_raw_and_typed_keys_play_the_same_episode():
    """pgx's examples pass old-style ``jax.random.PRNGKey`` arrays; typed keys give the same deals."""
    env = hj.HeartsJaxEnv("standard(target=30)")
    init, step = _jitted(env)
    states = [init(jax.random.PRNGKey(4)), init(jax.random.key(4))]
    for _ in range(120):  # into the second deal of the game
        actions = [int(np.argmax(np.asarray(s.legal_action_mask))) for s in states]
        assert actions[0] == actions[1]
        states = [step(s, a) for s, a in zip(states, actions)]
    np.testing.assert_array_equal(np.asarray(states[0].deal.hands), np.asarray(states[1].deal.hands))
    assert int(states[0].deal_index) >= 1


def test_the_old_name_heartsenv_warns_and_is_heartsjaxenv():
    """The old name ``hearts_env.jax.HeartsEnv`` stays one release, with a warning."""
    with pytest.warns(DeprecationWarning, match="HeartsJaxEnv; the old name goes in hearts-env 0.3.0"):
        old = hj.HeartsEnv
    assert old is hj.HeartsJaxEnv
    with pytest.warns(DeprecationWarning):
        from hearts_env.jax import HeartsEnv
    assert HeartsEnv is hj.HeartsJaxEnv
    assert "HeartsEnv" not in hj.__all__
    with pytest.raises(AttributeError):
        hj.NoSuchThing  # noqa: B018
