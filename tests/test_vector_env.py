"""The Gymnasium VectorEnv over the batched engine: registration, equivalence with the scalar engine,
same-step autoreset, opponents, four-seat self-play, and the SB3 VecEnv adapter."""

import gymnasium
import numpy as np
import pytest

import hearts_env  # noqa: F401  (registers the env)
from hearts_env.agents import make_agent
from hearts_env.encoders import make_encoder
from hearts_env.engine import Deal, IllegalActionError
from hearts_env.vector.env import HeartsVectorEnv, random_policy
from hearts_env.views import SeatView


def _random_actions(info, rng):
    return np.array([rng.choice(np.flatnonzero(row)) for row in info["action_mask"]])


def test_make_vec_returns_the_batched_env():
    envs = gymnasium.make_vec("hearts_env/Hearts-v0", num_envs=5, observation="paper260", opponents="greedy")
    assert isinstance(envs, HeartsVectorEnv)
    obs, info = envs.reset(seed=1)
    assert obs.shape == (5, 260) and info["action_mask"].shape == (5, 52)
    assert envs.observation_space.shape == (5, 260) and envs.single_action_space.n == 52
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP


class _ScalarTwin:
    """The scalar engine playing the same deal as one vector table, with rule-player opponents."""

    def __init__(self, envs, i):
        t = envs.deals
        self.seat = int(envs.seats[i])
        self.deal = Deal.from_hands(envs.rules, [int(h) for h in t.dealt[i]], pass_direction=int(t.pass_direction[i]))
        self.greedy = make_agent(envs.opponents)
        self.advance()

    def advance(self):
        deal = self.deal
        while not deal.is_over and deal.current != self.seat:
            self.greedy.reset(deal.rules, deal.current, 0)
            deal.apply(self.greedy.act(SeatView.of(deal, deal.current)))

    def play(self, card):
        self.deal.apply(int(card))
        self.advance()


@pytest.mark.parametrize(("observation", "rules"), [
    ("rich", "standard(game=deal)"), ("paper260", "standard(game=deal)"), ("dutch107", "dutch(game=deal)")])
@pytest.mark.parametrize("reward", ["points", "zero_sum"])
@pytest.mark.parametrize("opponents", ["greedy", "heuristic", "heuristic(moon_alarm=3, shoot=False)"])
def test_rule_opponents_equal_the_scalar_engine(observation, rules, reward, opponents):
    """Each table against vectorized greedy/heuristic opponents (parameters included) is, move by move,
    the scalar engine with those agents as opponents: same observations, masks, rewards, final
    observations and points (the Dutch deck with its batch encoder too)."""
    n = 6
    envs = HeartsVectorEnv(num_envs=n, rules=rules, observation=observation, opponents=opponents, seat="random",
                           reward=reward)
    obs, info = envs.reset(seed=3)
    encoder = make_encoder(observation, envs.rules)
    twins = [_ScalarTwin(envs, i) for i in range(n)]
    rng = np.random.default_rng(4)
    finished = 0
    while finished < 24:
        for i, twin in enumerate(twins):
            assert info["seat"][i] == twin.seat
            np.testing.assert_array_equal(obs[i], encoder.encode(SeatView.of(twin.deal, twin.seat)))
            assert list(np.flatnonzero(info["action_mask"][i])) == twin.deal.legal_cards()
        actions = _random_actions(info, rng)
        obs, rewards, terminated, truncated, info = envs.step(actions)
        assert not truncated.any()
        for i, twin in enumerate(twins):
            twin.play(actions[i])
            assert terminated[i] == twin.deal.is_over
            if terminated[i]:
                points = twin.deal.points
                assert info["_final_obs"][i] and list(info["points"][i]) == points
                np.testing.assert_array_equal(info["final_obs"][i], encoder.encode(SeatView.of(twin.deal, twin.seat)))
                expected = -points[twin.seat] if reward == "points" else sum(points) / 4 - points[twin.seat]
                assert rewards[i] == pytest.approx(expected)
                twins[i] = _ScalarTwin(envs, i)  # same-step autoreset: the next deal is already on
                finished += 1
            else:
                assert rewards[i] == 0


@pytest.mark.parametrize("backend", ["numpy", "numba"])
def test_random_opponents_play_whole_deals(backend):
    envs = HeartsVectorEnv(num_envs=16, opponents="random", seat=2, backend=backend, observation="paper260")
    _, info = envs.reset(seed=0)
    rng = np.random.default_rng(1)
    totals = []
    for _ in range(60):
        assert (info["seat"] == 2).all() and (envs.deals.current == 2).all()
        _obs, rewards, terminated, _, info = envs.step(_random_actions(info, rng))
        for i in np.flatnonzero(terminated):
            totals.append(int(info["points"][i].sum()))
            assert rewards[i] == -info["points"][i][2]
    assert totals and set(totals) <= {26, 78}


def test_same_seed_same_episodes():
    runs = []
    for _ in range(2):
        envs = HeartsVectorEnv(num_envs=4, opponents="random", seat="random")
        obs, info = envs.reset(seed=11)
        rng = np.random.default_rng(0)
        trace = [obs.copy()]
        for _ in range(20):
            obs, r, _te, _, info = envs.step(_random_actions(info, rng))
            trace += [obs.copy(), r.copy()]
        runs.append(trace)
    assert all((a == b).all() for a, b in zip(*runs))


def test_illegal_actions_raise_or_cost_a_penalty():
    envs = HeartsVectorEnv(num_envs=3, opponents="random")
    _, info = envs.reset(seed=0)
    bad = np.array([np.flatnonzero(~row)[0] for row in info["action_mask"]])
    with pytest.raises(IllegalActionError, match="row 0"):
        envs.step(bad)
    envs = HeartsVectorEnv(num_envs=3, opponents="random", illegal_action="terminate", illegal_penalty=-5)
    _, info = envs.reset(seed=0)
    actions = _random_actions(info, np.random.default_rng(0))
    actions[1] = np.flatnonzero(~info["action_mask"][1])[0]
    _obs, rewards, terminated, _, info = envs.step(actions)
    assert terminated[1] and rewards[1] == -5 and not terminated[0] and not terminated[2]


def test_batched_policy_opponents_and_four_seat_self_play():
    envs = HeartsVectorEnv(num_envs=8, opponents=random_policy(np.random.default_rng(0)), seat="random")
    _, info = envs.reset(seed=5)
    rng = np.random.default_rng(6)
    for _ in range(40):
        assert (envs.deals.current == envs.seats).all()
        *_, info = envs.step(_random_actions(info, rng))

    envs = HeartsVectorEnv(num_envs=8, seat="all")
    _, info = envs.reset(seed=5)
    seen_seats, deals = set(), 0
    for _ in range(200):
        assert (info["seat"] == envs.deals.current).all()
        seen_seats |= set(info["seat"].tolist())
        actor = info["seat"].copy()
        _obs, r, te, _, info = envs.step(_random_actions(info, rng))
        for i in np.flatnonzero(te):
            deals += 1
            assert list(info["seat_rewards"][i]) == [-p for p in info["points"][i]]
            assert r[i] == info["seat_rewards"][i][actor[i]]
    assert seen_seats == {0, 1, 2, 3} and deals >= 8


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="game=deal"):
        HeartsVectorEnv(rules="standard")
    with pytest.raises(ValueError, match="valid: points, openspiel, zero_sum"):
        HeartsVectorEnv(reward="dense")
    with pytest.raises(ValueError, match="'random', 'greedy', 'heuristic'"):
        HeartsVectorEnv(opponents="mcts")
    with pytest.raises(Exception, match="paper260, rich, dutch107"):
        HeartsVectorEnv(observation="culhane217")


def test_sb3_vec_env_trains_maskable_ppo():
    import torch
    from sb3_contrib import MaskablePPO

    from hearts_env.vector.sb3 import SB3VecEnv

    torch.set_num_threads(1)
    venv = SB3VecEnv(num_envs=8, opponents="greedy", observation="paper260", seed=0)
    model = MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=64, n_epochs=1, seed=0, device="cpu")
    model.learn(total_timesteps=512)
    obs = venv.reset()
    for _ in range(40):
        masks = venv.action_masks()
        actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
        assert masks[np.arange(8), actions].all()
        obs, _rewards, dones, infos = venv.step(actions)
        for i in np.flatnonzero(dones):
            assert infos[i]["terminal_observation"].shape == (260,) and sum(infos[i]["points"]) in (26, 78)


def test_a_pickled_vector_env_plays_on_exactly_like_the_original():
    import pickle

    env = HeartsVectorEnv(num_envs=3, opponents="heuristic")
    env.reset(seed=2)
    env.step(np.array([int(np.flatnonzero(m)[0]) for m in env.action_masks()]))
    twin = pickle.loads(pickle.dumps(env))
    for _ in range(30):
        actions = np.array([int(np.flatnonzero(m)[-1]) for m in env.action_masks()])
        mine, theirs = env.step(actions), twin.step(actions)
        for a, b in zip(mine[:4], theirs[:4]):
            np.testing.assert_array_equal(a, b)
