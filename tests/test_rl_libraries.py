"""hearts_v0 inside the RL libraries Tianshou (2.0) and TorchRL (0.14).

Each library wraps the PettingZoo AEC env its own way, and both store the per-agent infos in arrays:

* Tianshou's ``PettingZooEnv`` returns ``last()`` of the agent to act next (its mask becomes ``obs.mask``, its
  info the step's info), the Collector stacks the infos of the vector env into a ``Batch`` and the replay buffer
  keeps them in preallocated arrays shaped by the first stored step;
* TorchRL's ``PettingZooWrapper`` builds an ``Unbounded`` spec (float32) per info key from the infos of
  ``reset()`` and copies every agent's info into it at each step; the legal cards of the acting agent come from
  ``obs["action_mask"]`` as ``(group, "action_mask")`` (all True for the agents not acting).

So every info value must be numeric with one shape from ``reset()`` on (see the Info section of hearts_v0's
docstring). The tests play masked random policies through the libraries' own collection code and check the
stored data against the game: legal actions only, episode lengths, rewards against ``deal_points``/``scores``.
Each library's tests skip when it is not installed.
"""

from __future__ import annotations

import numpy as np
import pytest

from hearts_env import Phase, hearts_v0

try:
    import torch
except ImportError:  # the tests below skip through pytest.importorskip
    torch = None
else:
    torch.set_num_threads(1)

pytestmark = pytest.mark.filterwarnings(
    "ignore:PettingZoo in TorchRL is tested using version:UserWarning",
)

INFO_SHAPES = {"phase": (), "deal_index": (), "deals_done": (), "scores": (4,), "deal_points": (4,),
               "moon_shooter": (), "winners": (4,), "illegal_action": (), "illegal_seat": ()}

# One-deal episodes over encodings that fit each deck; (rules, observation, other env() kwargs).
DEAL_CASES = [
    pytest.param("standard(game=deal)", "rich", {}, id="standard-rich"),
    pytest.param("standard(game=deal)", "openspiel", {}, id="standard-openspiel"),
    pytest.param("standard(game=deal)", "paper104", {"reward": "dense"}, id="standard-paper104-dense"),
    pytest.param("standard(game=deal)", "culhane217", {"auto_play_forced": True}, id="standard-culhane217-autoplay"),
    pytest.param("dutch(game=deal)", "rich", {"dtype": "uint8"}, id="dutch-rich-uint8"),
    pytest.param("dutch(game=deal)", "dutch107", {"reward": "dense"}, id="dutch-dutch107-dense"),
]
GAME_CASES = [
    pytest.param("standard", "rich", {}, id="standard-game-rich"),
    pytest.param("dutch", "dutch107", {}, id="dutch-game-dutch107"),
]


def make_env(rules, observation, kwargs):
    return hearts_v0.env(rules=rules, observation=observation, **kwargs)


def episode_lengths(rules, one_deal, auto_play):
    """The possible lengths of a one-deal episode: the deck's cards, plus the passes if the deal passes."""
    deck, passes = rules.deck_obj.size, 4 * rules.pass_count
    return None if auto_play or not one_deal else {deck, deck + passes} if rules.passing != "none" else {deck}


def check_episode(infos, rewards, rules, one_deal, lengths):
    """Checks one episode's per-step infos (the info after each step, as numpy arrays of one seat's view) and
    per-step rewards (steps × 4 seats) against the rules of the game."""
    n = len(rewards)
    for key, shape in INFO_SHAPES.items():
        assert infos[key].shape == (n, *shape), key
    if lengths is not None:
        assert n in lengths
    assert not infos["illegal_action"].any() and (infos["illegal_seat"] == -1).all()
    phase = infos["phase"]
    assert phase[-1] == Phase.DONE and set(phase[:-1].tolist()) <= {Phase.PASS, Phase.PLAY}
    last = {key: value[-1] for key, value in infos.items()}
    assert last["deals_done"] == last["deal_index"] + 1
    assert (np.diff(infos["deals_done"]) >= 0).all() and (np.diff(infos["deal_index"]) >= 0).all()
    new_deal = np.diff(infos["deals_done"]) > 0  # scores and deal points change only when a deal ends
    assert not (np.diff(infos["scores"], axis=0) != 0).any(axis=1)[~new_deal].any()
    assert not (np.diff(infos["deal_points"], axis=0) != 0).any(axis=1)[~new_deal].any()
    scores = last["scores"]
    if one_deal:
        assert last["deals_done"] == 1 and (infos["deals_done"][:-1] == 0).all()
        assert (infos["deal_points"][:-1] == 0).all() and (last["deal_points"] == scores).all()
    else:
        assert scores.max() >= rules.target
    assert (infos["winners"][:-1] == 0).all()
    assert (last["winners"] == (scores == scores.min())).all()
    if last["moon_shooter"] >= 0:
        assert last["deal_points"][last["moon_shooter"]] == 0
    # points and dense rewards add up to minus the points of the episode
    assert np.allclose(np.asarray(rewards).sum(axis=0), -scores)


# Tianshou ------------------------------------------------------------------------------------------------


def tianshou_collect(rules, observation, kwargs, n_envs, n_episode, seed):
    pytest.importorskip("tianshou")
    from tianshou.algorithm.multiagent.marl import MultiAgentPolicy
    from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
    from tianshou.data import Collector, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv
    from tianshou.env.pettingzoo_env import PettingZooEnv

    def make():
        return PettingZooEnv(make_env(rules, observation, kwargs))

    probe = make()
    policy = MultiAgentPolicy({agent: MARLRandomDiscreteMaskedOffPolicyAlgorithm(probe.action_space).policy
                               for agent in probe.agents})
    venv = DummyVectorEnv([make] * n_envs)
    venv.seed([seed + i for i in range(n_envs)])  # PettingZooEnv.seed falls back to reset(seed=...)
    buffer = VectorReplayBuffer(total_size=3000 * n_envs, buffer_num=n_envs)
    collector = Collector(policy, venv, buffer)
    collector.reset()
    stats = collector.collect(n_episode=n_episode)
    return probe, stats, buffer


def tianshou_episodes(buffer):
    """The complete episodes stored in a VectorReplayBuffer, each a Batch in step order."""
    episodes = []
    for sub in buffer.buffers:
        data = sub[np.arange(len(sub))]
        ends = np.flatnonzero(data.done)
        starts = np.concatenate([[0], ends[:-1] + 1])
        episodes += [data[start:end + 1] for start, end in zip(starts, ends)]
    return episodes


def check_tianshou_buffer(buffer, probe, n_episode, one_deal, auto_play):
    rules = probe.env.unwrapped.rules
    episodes = tianshou_episodes(buffer)
    assert len(episodes) >= n_episode
    for ep in episodes:
        n = len(ep)
        # the policy only ever chose cards of the acting seat's mask, and the mask was never empty
        assert ep.obs.mask.dtype == np.bool_ and ep.obs.mask.shape == (n, rules.deck_obj.size)
        assert ep.obs.mask.any(axis=1).all()
        assert ep.obs.mask[np.arange(n), ep.act].all()
        assert ep.obs.obs.dtype == probe.observation_space["observation"].dtype
        assert not ep.truncated.any() and ep.terminated[-1] and not ep.terminated[:-1].any()
        assert ep.rew.shape == (n, 4)
        infos = {key: np.asarray(ep.info[key]) for key in INFO_SHAPES}
        for key, values in infos.items():  # stored as numbers, not object arrays
            assert values.dtype == np.bool_ if key == "illegal_action" else np.issubdtype(values.dtype, np.integer)
        check_episode(infos, ep.rew, rules, one_deal, episode_lengths(rules, one_deal, auto_play))


@pytest.mark.parametrize(("rules", "observation", "kwargs"), DEAL_CASES)
def test_tianshou_collector_one_deal_episodes(rules, observation, kwargs):
    probe, stats, buffer = tianshou_collect(rules, observation, kwargs, n_envs=2, n_episode=4, seed=11)
    assert stats.n_collected_episodes == 4
    assert probe.agents == ["player_0", "player_1", "player_2", "player_3"]
    check_tianshou_buffer(buffer, probe, 4, one_deal=True,
                          auto_play=kwargs.get("auto_play_forced", False))


@pytest.mark.parametrize(("rules", "observation", "kwargs"), GAME_CASES)
def test_tianshou_collector_full_game(rules, observation, kwargs):
    probe, stats, buffer = tianshou_collect(rules, observation, kwargs, n_envs=1, n_episode=1, seed=3)
    assert stats.n_collected_episodes == 1
    check_tianshou_buffer(buffer, probe, 1, one_deal=False, auto_play=False)


# TorchRL -------------------------------------------------------------------------------------------------


def torchrl_env(rules, observation, kwargs, seed, **wrapper_kwargs):
    pytest.importorskip("torchrl")
    from torchrl.envs.libs.pettingzoo import PettingZooWrapper

    return PettingZooWrapper(env=make_env(rules, observation, kwargs), use_mask=True, seed=seed, **wrapper_kwargs)


def masked_random_policy(env, seed):
    """Samples every agent's action from its ``action_mask`` (all True for agents not acting), like a masked
    categorical policy would; one-hot or categorical as the action spec says."""
    generator = torch.Generator().manual_seed(seed)

    def policy(td):
        for group in env.group_map:
            mask = td[group, "action_mask"]
            choice = torch.multinomial(mask.float(), 1, generator=generator).squeeze(-1)
            spec = env.full_action_spec[group, "action"]
            if spec.shape == mask.shape:  # one-hot actions
                choice = torch.nn.functional.one_hot(choice, mask.shape[-1]).to(spec.dtype)
            td[group, "action"] = choice
        return td

    return policy


def torchrl_episode(env, td, one_deal, lengths):
    """Checks one rollout episode (steps × ...) of a PettingZooWrapper env and returns its length."""
    rules = env._env.unwrapped.rules
    n = td.shape[0]
    done = td["next", "done"].squeeze(-1)
    assert done[-1] and not done[:-1].any()
    where = {agent: (group, i) for group, agents in env.group_map.items() for i, agent in enumerate(agents)}
    seats = [where[agent] for agent in env._env.possible_agents]  # seat s -> (group, index in the group)
    acting = torch.stack([td[group, "mask"][:, i] for group, i in seats], dim=1)  # steps × 4
    assert (acting.sum(dim=1) == 1).all()
    for seat, (group, i) in enumerate(seats):
        mask = td[group, "action_mask"][:, i]
        action = td[group, "action"][:, i]
        if action.dim() == 2:  # one-hot
            assert (action.sum(-1) == 1).all()
            action = action.long().argmax(-1)
        turns = acting[:, seat]
        legal = mask.gather(-1, action.unsqueeze(-1)).squeeze(-1)
        assert legal[turns].all()  # the acting seat only played legal cards
        assert (mask[turns].sum(-1) >= 1).all() and mask[~turns].all()  # not acting: all True (TorchRL's rule)
    for group in env.group_map:
        assert td["next", group, "terminated"][-1].all() and not td["next", group, "truncated"].any()
    # infos: float32 (TorchRL's Unbounded default) holding our integers; every seat sees the same game values
    infos = {}
    for key in INFO_SHAPES:
        per_seat = [td["next", group, "info", key][:, i] for group, i in seats]
        for values in per_seat:
            assert values.dtype == torch.float32 and torch.equal(values, values.round())
            assert torch.equal(values, per_seat[0])
        infos[key] = per_seat[0].numpy().astype(np.int64)
    infos["illegal_action"] = infos["illegal_action"].astype(bool)
    rewards = torch.stack([td["next", group, "reward"][:, i, 0] for group, i in seats], dim=1)
    check_episode(infos, rewards.numpy(), rules, one_deal, lengths)
    return n


@pytest.mark.parametrize(("rules", "observation", "kwargs"), DEAL_CASES)
def test_torchrl_check_env_specs_and_masked_rollout(rules, observation, kwargs):
    check_env_specs = pytest.importorskip("torchrl.envs.utils").check_env_specs
    env = torchrl_env(rules, observation, kwargs, seed=5)
    check_env_specs(env)
    deck = env._env.unwrapped.rules.deck_obj.size
    for group in env.group_map:
        assert env.full_action_spec[group, "action"].space.n == deck
        assert env.observation_spec[group, "action_mask"].shape == (1, deck)
        assert set(env.observation_spec[group, "info"].keys()) == set(INFO_SHAPES)
        assert set(env.observation_spec[group, "observation"].keys()) == {"observation"}  # mask moved out
    policy = masked_random_policy(env, seed=1)
    auto_play = kwargs.get("auto_play_forced", False)
    lengths = episode_lengths(env._env.unwrapped.rules, True, auto_play)
    td = env.rollout(200, policy, break_when_any_done=True)
    torchrl_episode(env, td, one_deal=True, lengths=lengths)
    # keep going across the episode boundary: TorchRL resets the env itself (seed continues)
    td = env.rollout(150, policy, break_when_any_done=False)
    ends = torch.nonzero(td["next", "done"].squeeze(-1)).squeeze(-1).tolist()
    assert ends and ends[0] < 149
    torchrl_episode(env, td[: ends[0] + 1], one_deal=True, lengths=lengths)
    after = td[ends[0] + 1]
    for group in env.group_map:  # the step after the end starts a fresh deal
        assert after[group, "info", "deals_done"].eq(0).all()
        assert after[group, "info", "phase"].ne(Phase.DONE).all()
    env.close()


def test_torchrl_one_group_with_one_hot_actions():
    """All four seats in one group (as TorchRL's own tic-tac-toe test does) with one-hot actions."""
    utils = pytest.importorskip("torchrl.envs.utils")
    env = torchrl_env("dutch(game=deal)", "rich", {}, seed=2, group_map=utils.MarlGroupMapType.ALL_IN_ONE_GROUP,
                      categorical_actions=False)
    assert list(env.group_map) == ["agents"]
    utils.check_env_specs(env)
    td = env.rollout(100, masked_random_policy(env, seed=3), break_when_any_done=True)
    rules = env._env.unwrapped.rules
    torchrl_episode(env, td, one_deal=True, lengths=episode_lengths(rules, True, False))
    env.close()


@pytest.mark.parametrize(("rules", "observation", "kwargs"), GAME_CASES[:1])
def test_torchrl_full_game(rules, observation, kwargs):
    env = torchrl_env(rules, observation, kwargs, seed=9)
    td = env.rollout(5000, masked_random_policy(env, seed=4), break_when_any_done=True)
    n = torchrl_episode(env, td, one_deal=False, lengths=None)
    assert n < 5000
    env.close()
