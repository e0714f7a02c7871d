"""The PettingZoo AEC environment: PettingZoo's own test suite over every preset and encoding,
seeding, pickling, rewards (exact values on explicit deals), illegal actions, auto-play, masks,
and hidden passes."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test
from pettingzoo.utils.wrappers import BaseWrapper

from hearts_env import Phase, hearts_v0
from hearts_env.cards import card_id
from hearts_env.encoders import EncoderError, encoder_names, make_encoder
from hearts_env.engine import Deal, IllegalActionError
from hearts_env.rules import PRESETS, make_rules

PRESET_NAMES = list(PRESETS)
AGENTS = [f"player_{i}" for i in range(4)]

# Seat 0 holds every club, seat 1 every diamond, seat 2 every heart, seat 3 every spade: under the
# standard rules seat 0 leads 2♣ and wins every trick, so it shoots the moon.
SUIT_HANDS = [
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
]


def lowest(obs) -> int:
    return int(np.flatnonzero(obs["action_mask"])[0])


def highest(obs) -> int:
    return int(np.flatnonzero(obs["action_mask"])[-1])


def run(env, policy=lowest, seed=None, options=None, reset=True):
    """Play to the end with ``policy``; returns (sum of last() rewards per agent, agent-turns taken)."""
    if reset:
        env.reset(seed=seed, options=options)
    totals = dict.fromkeys(AGENTS, 0.0)
    turns = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        turns += 1
        env.step(policy(obs))
    return totals, turns


def random_policy(rng):
    def policy(obs):
        legal = np.flatnonzero(obs["action_mask"])
        return int(legal[rng.integers(len(legal))])
    return policy


# --- PettingZoo's test suite -----------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("dtype", ["float32", "uint8"])
def test_api_test_every_preset(preset, dtype):
    env = hearts_v0.env(rules=preset, dtype=dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=1000)


class _SeedOffset(BaseWrapper):
    """api_test always resets with seed=0 and then without a seed: shift its seeds to vary the deals."""

    def __init__(self, env, offset):
        super().__init__(env)
        self.offset = offset

    def reset(self, seed=None, options=None):
        self.env.reset(seed=None if seed is None else seed + self.offset, options=options)


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_api_test_many_seeds(preset, seed):
    env = _SeedOffset(hearts_v0.env(rules=make_rules(preset, game="deal")), 1000 * seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=200)


def _encoder_cases():
    for name in encoder_names():
        for preset in PRESET_NAMES:
            yield name, preset


@pytest.mark.parametrize(("name", "preset"), list(_encoder_cases()))
def test_api_test_every_encoding(name, preset):
    rules = make_rules(preset, game="deal")
    try:
        make_encoder(name, rules)
    except EncoderError:
        with pytest.raises(EncoderError):
            hearts_v0.env(rules=rules, observation=name)
        return
    env = hearts_v0.env(rules=rules, observation=name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=200)
    # and the observations of every seat at every step lie in the declared space
    raw = hearts_v0.raw_env(rules=rules, observation=name)
    raw.reset(seed=3)
    for agent in raw.agent_iter():
        if raw.terminations[agent]:
            raw.step(None)
            continue
        for other in AGENTS:
            assert raw.observation_space(other).contains(raw.observe(other))
        raw.step(lowest(raw.observe(agent)))


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_seed_test(preset):
    seed_test(lambda: hearts_v0.env(rules=preset), num_cycles=300)


def test_render_test(capsys):
    render_test(lambda **kw: hearts_v0.env(rules="openspiel", **kw),
                custom_tests={"ansi": lambda text: "god view" in text and "♣" in text})
    assert "player_0" in capsys.readouterr().out


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_many_seeds_random_play_keeps_the_invariants(preset):
    """A light api check over many seeds: masks, spaces, accumulated rewards and the final scores."""
    rng = np.random.default_rng(0)
    for seed in range(6 if make_rules(preset).game == "deal" else 2):
        env = hearts_v0.env(rules=preset)
        env.reset(seed=seed)
        raw = env.unwrapped
        totals = dict.fromkeys(AGENTS, 0.0)
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            totals[agent] += reward
            if term or trunc:
                env.step(None)
                continue
            assert env.observation_space(agent).contains(obs)
            assert obs["action_mask"].dtype == np.int8
            assert_fixed_infos(raw.infos)
            legal = raw.deal.legal_mask()
            assert set(np.flatnonzero(obs["action_mask"]).tolist()) == {c for c in range(64) if legal >> c & 1}
            assert obs["action_mask"].sum() >= 1
            env.step(random_policy(rng)(obs))
        assert totals == {a: -float(s) for a, s in zip(AGENTS, raw.match.scores)}


# --- the user's loop, registration, spaces ---------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_the_documented_loop_runs_to_termination(preset):
    env = hearts_v0.env(rules=preset, render_mode="ansi")
    env.reset(seed=7)
    steps = 0
    for agent in env.agent_iter():
        obs, _reward, termination, truncation, _info = env.last()
        action = None if termination or truncation else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)
        steps += 1
    assert env.agents == []
    assert steps > make_rules(preset).deck_obj.size
    assert isinstance(env.render(), str)


def test_registered_with_pettingzoo():
    import pettingzoo

    from hearts_env.registration import register_envs

    if not hasattr(pettingzoo, "make"):
        pytest.skip(f"PettingZoo {pettingzoo.__version__} has no env registry (1.27 and later have one)")
    e = pettingzoo.make("aec", "hearts_env/hearts-v0", rules="openspiel")
    e.reset(seed=1)
    assert e.unwrapped.metadata["name"] == "hearts_v0"
    assert e.unwrapped.rules == make_rules("openspiel")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        register_envs()  # a second registration is a no-op, not an "overriding" warning


def test_spaces_are_the_same_objects_and_the_mask_is_int8():
    for preset, n in (("standard", 52), ("dutch", 32)):
        env = hearts_v0.env(rules=preset)
        env.reset(seed=0)
        for agent in AGENTS:
            assert env.observation_space(agent) is env.observation_space(agent)
            assert env.action_space(agent) is env.action_space(agent)
            assert env.action_space(agent).n == n
            mask_space = env.observation_space(agent)["action_mask"]
            assert mask_space.dtype == np.int8 and mask_space.shape == (n,)
            obs = env.observe(agent)
            assert obs["action_mask"].dtype == np.int8
            if agent != env.agent_selection:
                assert not obs["action_mask"].any()
        assert env.observation_space("player_0")["observation"].shape == (make_encoder("rich", preset).size,)


def test_metadata():
    md = hearts_v0.raw_env.metadata
    assert md["name"] == "hearts_v0"
    assert md["render_modes"] == ["ansi", "human"]
    assert md["is_parallelizable"] is False
    assert md["render_fps"] > 0


def test_a_misspelt_keyword_is_named_as_a_typo_not_as_an_unknown_rule():
    with pytest.raises(TypeError, match="unexpected keyword 'obsevation'; did you mean 'observation'"):
        hearts_v0.env(obsevation="rich")
    with pytest.raises(TypeError, match="did you mean 'moon'"):
        hearts_v0.env(mooon="off")
    assert hearts_v0.env(moon="off").unwrapped.rules.moon == "off"


def test_bad_arguments_raise_clear_errors():
    with pytest.raises(ValueError, match="valid names: points, openspiel, zero_sum, dense, win, rank"):
        hearts_v0.env(reward="score")
    with pytest.raises(TypeError, match=r"unexpected keyword 'no_such_option'.* It takes rules, observation"):
        hearts_v0.env(no_such_option=1)
    with pytest.raises(EncoderError, match="valid names"):
        hearts_v0.env(observation="nope")
    with pytest.raises(ValueError, match="illegal_action"):
        hearts_v0.raw_env(illegal_action="ignore")
    with pytest.raises(ValueError, match="render_mode"):
        hearts_v0.raw_env(render_mode="rgb_array")


def test_rules_spec_object_and_overrides():
    assert hearts_v0.raw_env(rules="standard(jd_bonus=true, target=50)").rules == make_rules("standard", jd_bonus=True,
                                                                                              target=50)
    assert hearts_v0.raw_env(rules="openspiel", pass_count=2).rules.pass_count == 2
    r = make_rules("dutch")
    assert hearts_v0.raw_env(rules=r).rules is r
    enc = make_encoder("paper104", r)
    assert hearts_v0.raw_env(rules=r, observation=enc).encoder is enc


# --- seeding and pickling --------------------------------------------------------------------


def _dealt(seed, rules="openspiel"):
    env = hearts_v0.raw_env(rules=rules)
    env.reset(seed=seed)
    return env.deal.dealt, env.deal.pass_direction


def test_same_seed_same_game_and_seed_zero_is_a_seed():
    assert _dealt(0) == _dealt(0)
    assert _dealt(123) == _dealt(123)
    assert _dealt(0) != _dealt(1)
    env = hearts_v0.raw_env(rules="openspiel")
    env.reset(seed=0)
    first = env.deal.dealt
    env.reset()  # continues the generator: a new deal
    assert env.deal.dealt != first
    env.reset(seed=0)
    assert env.deal.dealt == first
    # the whole game (every deal of a match) follows from the seed
    a = hearts_v0.env(rules="standard(target=40)")
    b = hearts_v0.env(rules="standard(target=40)")
    ta, _ = run(a, seed=5)
    tb, _ = run(b, seed=5)
    assert ta == tb
    assert [d.dealt for d in a.unwrapped.match.history] == [d.dealt for d in b.unwrapped.match.history]


def _trace(env, steps=None):
    """Observations, rewards, infos and agents of the rest of a game played by `lowest`."""
    out = []
    for agent in env.agent_iter(steps if steps is not None else 2**63):
        obs, reward, term, trunc, info = env.last()
        out.append((agent, obs["observation"].tolist(), obs["action_mask"].tolist(), reward, term, trunc,
                    {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in info.items()}))
        env.step(None if term or trunc else lowest(obs))
    return out


@pytest.mark.parametrize("reward", ["points", "dense"])
def test_pickle_after_reset_and_mid_game_continues_identically(reward):
    env = hearts_v0.env(rules="standard(target=40)", reward=reward)
    env.reset(seed=11)
    copy0 = pickle.loads(pickle.dumps(env))
    for i, _agent in enumerate(env.agent_iter()):
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else lowest(obs))
        if i == 69:  # 70 steps: in the second deal
            break
    mid = pickle.loads(pickle.dumps(env))
    rest = _trace(env)
    assert _trace(mid) == rest
    full = _trace(copy0)
    assert full[-len(rest):] == rest
    # unpickled raw env after reset: same deal, and it continues the generator identically
    raw = hearts_v0.raw_env(rules="openspiel")
    raw.reset(seed=2)
    clone = pickle.loads(pickle.dumps(raw))
    raw.reset()
    clone.reset()
    assert raw.deal.dealt == clone.deal.dealt


# --- rewards ---------------------------------------------------------------------------------


def _moon_env(reward, rules="standard(game=deal)", **kw):
    env = hearts_v0.raw_env(rules=rules, reward=reward, **kw)
    env.reset(options={"hands": SUIT_HANDS, "pass_direction": "hold"})
    return env


@pytest.mark.parametrize(("reward", "expected"), [
    ("points", [0, -26, -26, -26]),
    ("openspiel", [26, 0, 0, 0]),
    ("zero_sum", [19.5, -6.5, -6.5, -6.5]),
    ("dense", [0, -26, -26, -26]),
    ("win", [1, 0, 0, 0]),
    ("rank", [1, -1 / 3, -1 / 3, -1 / 3]),
])
def test_reward_schemes_exact_values_on_a_moon_deal(reward, expected):
    env = _moon_env(reward)
    totals, turns = run(env, reset=False)
    assert turns == 52
    assert env.deal.points == [0, 26, 26, 26] and env.deal.moon_shooter == 0
    assert totals == pytest.approx(dict(zip(AGENTS, expected)))


def test_dense_rewards_per_trick_and_the_moon_adjustment_at_the_end():
    env = _moon_env("dense")
    seen = []  # (trick index before the step, rewards of the step)
    for agent in env.agent_iter():
        if env.terminations[agent]:
            env.step(None)
            continue
        before = env.deal.trick_index
        env.step(lowest(env.observe(agent)))
        seen.append((before, dict(env.rewards)))
    # seat 0 wins every trick; each trick holds one heart (−1), trick 11 also Q♠ (−14), and the
    # last step pays the 13th trick (−1) and settles the moon (+26: the shooter's deal total is 0).
    player0 = [r["player_0"] for _, r in seen if any(r.values())]
    assert player0 == [-1.0] * 10 + [-14.0, -1.0, 25.0]
    assert sum(player0) == 0
    last = seen[-1][1]
    assert last["player_1"] == last["player_2"] == last["player_3"] == -26
    assert all(r["player_1"] == r["player_2"] == r["player_3"] == 0 for _, r in seen[:-1])


def test_dense_rewards_follow_the_engine_tricks():
    """On random deals (J♦ bonus and the no-trick bonus on): each trick pays its points to its
    winner, and each deal sums to −points."""
    env = hearts_v0.raw_env(rules="standard(jd_bonus=true, avoid_all_tricks_bonus=true, game=deal)", reward="dense")
    rng = np.random.default_rng(1)
    for seed in range(8):
        env.reset(seed=seed)
        totals = dict.fromkeys(AGENTS, 0.0)
        for agent in env.agent_iter():
            if env.terminations[agent]:
                env.step(None)
                continue
            deal = env.deal
            tricks = deal.trick_index
            taken = [deal.points_taken(s) for s in range(4)]
            env.step(random_policy(rng)(env.observe(agent)))
            for a, r in env.rewards.items():
                totals[a] += r
            if not env.deal.is_over and env.deal.trick_index != tricks:
                w = env.deal.trick_winners[-1]
                expect = dict.fromkeys(AGENTS, 0.0)
                expect[AGENTS[w]] = -(env.deal.points_taken(w) - taken[w])
                assert env.rewards == expect
        assert totals == {a: -float(p) for a, p in zip(AGENTS, env.deal.points)}


@pytest.mark.parametrize("reward", ["points", "openspiel", "zero_sum", "dense"])
def test_match_rewards_add_up_to_the_final_scores(reward):
    env = hearts_v0.env(rules="standard(target=40)", reward=reward)
    totals, _ = run(env, seed=4)
    match = env.unwrapped.match
    n_deals = len(match.history)
    assert n_deals >= 2
    scores = match.scores
    mean = sum(scores) / 4
    expected = {
        "points": [-s for s in scores],
        "dense": [-s for s in scores],
        "openspiel": [26 * n_deals - s for s in scores],
        "zero_sum": [mean - s for s in scores],
    }[reward]
    assert totals == pytest.approx(dict(zip(AGENTS, expected)))
    assert max(scores) >= 40
    assert [sum(d.points[s] for d in match.history) for s in range(4)] == scores


@pytest.mark.parametrize(("reward", "start", "expected"), [
    ("win", [0, 10, 20, 29], [1, 0, 0, 0]),
    ("rank", [0, 10, 20, 29], [1, 1 / 3, -1 / 3, -1]),
    ("win", [26, 0, 20, 29], [0.5, 0.5, 0, 0]),  # final 26, 26, 46, 55: two winners share
    ("rank", [26, 0, 20, 29], [2 / 3, 2 / 3, -1 / 3, -1]),
    ("points", [26, 0, 20, 29], [0, -26, -26, -26]),
])
def test_game_end_rewards_with_given_scores(reward, start, expected):
    env = hearts_v0.env(rules="standard(target=30)", reward=reward)
    totals, _ = run(env, options={"hands": SUIT_HANDS, "pass_direction": "hold", "scores": start})
    match = env.unwrapped.match
    assert match.scores == [s + p for s, p in zip(start, [0, 26, 26, 26])]
    assert totals == pytest.approx(dict(zip(AGENTS, expected)))


def test_win_and_rank_pay_only_at_the_end_of_a_match():
    env = hearts_v0.raw_env(rules="standard(target=40)", reward="rank")
    env.reset(seed=3)
    for agent in env.agent_iter():
        if env.terminations[agent]:
            env.step(None)
            continue
        env.step(lowest(env.observe(agent)))
        if not env.terminations[agent]:
            assert not any(env.rewards.values())
        else:
            assert sum(env.rewards.values()) == pytest.approx(0.0)


# --- match flow, infos, explicit deals -------------------------------------------------------


INFO_TYPES = {"phase": int, "deal_index": int, "deals_done": int, "moon_shooter": int, "illegal_action": bool,
              "illegal_seat": int,
              "scores": (np.int64, (4,)), "deal_points": (np.int64, (4,)), "winners": (np.int8, (4,))}


def assert_fixed_infos(infos):
    """Every info value numeric with one type and shape from reset() on (Tianshou, TorchRL store them)."""
    for info in infos.values():
        assert set(info) == set(INFO_TYPES)
        for key, kind in INFO_TYPES.items():
            if isinstance(kind, tuple):
                assert isinstance(info[key], np.ndarray) and (info[key].dtype, info[key].shape) == kind, key
            else:
                assert type(info[key]) is kind, (key, info[key])


def test_infos_keep_their_keys_types_and_shapes_through_an_episode():
    env = hearts_v0.raw_env(rules="standard(target=40)")
    env.reset(seed=3)
    seen_phases = set()
    while env.agents:
        assert_fixed_infos(env.infos)
        seen_phases.add(env.infos[env.agent_selection]["phase"])
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else lowest(obs))
    assert seen_phases == {Phase.PASS, Phase.PLAY, Phase.DONE}
    assert all(type(phase) is int for phase in seen_phases)  # plain ints, the values of Phase


def test_the_deprecated_phase_aliases_are_phase_and_warn():
    for name, member in (("PHASE_PASS", Phase.PASS), ("PHASE_PLAY", Phase.PLAY), ("PHASE_DONE", Phase.DONE)):
        with pytest.warns(DeprecationWarning, match=f"hearts_v0.{name} is deprecated: use hearts_env.Phase"):
            assert getattr(hearts_v0, name) is member
    with pytest.warns(DeprecationWarning, match="PHASE_PASS"):
        from hearts_env.hearts_v0 import PHASE_PASS  # the import form still works
    assert PHASE_PASS == 0
    with pytest.raises(AttributeError, match="has no attribute 'PHASE_OVER'"):
        hearts_v0.PHASE_OVER  # noqa: B018


def test_infos_given_to_a_caller_are_not_changed_by_later_steps():
    env = hearts_v0.raw_env(rules="standard(target=40)")
    env.reset(seed=3)
    kept = env.infos["player_0"]
    snapshot = {k: np.copy(v) for k, v in kept.items()}
    deal0 = env.deal
    while env.deal is deal0:
        env.step(lowest(env.observe(env.agent_selection)))
    assert env.infos["player_0"]["deals_done"] == 1
    for key, value in snapshot.items():
        assert np.array_equal(kept[key], value), key
    env.infos["player_0"]["scores"][:] = 99  # another agent's info is its own array
    assert (env.infos["player_1"]["scores"] != 99).all()


def test_next_deal_starts_inside_step_and_infos_report_the_deal():
    env = hearts_v0.raw_env(rules="standard(target=60)")
    env.reset(seed=9)
    assert env.infos["player_0"]["phase"] == Phase.PASS
    assert env.infos["player_0"]["deals_done"] == 0 and not env.infos["player_0"]["deal_points"].any()
    assert env.infos["player_0"]["moon_shooter"] == -1
    deal0 = env.deal
    while env.deal is deal0:
        env.step(lowest(env.observe(env.agent_selection)))
    assert not any(env.terminations.values()) and env.agents == AGENTS
    info = env.infos["player_2"]
    assert info["deal_index"] == 1 and info["deals_done"] == 1
    assert info["deal_points"].tolist() == deal0.points
    assert info["scores"].tolist() == deal0.points
    assert info["moon_shooter"] == (-1 if deal0.moon_shooter is None else deal0.moon_shooter)
    assert info["phase"] == Phase.PASS  # deal 2 passes right
    assert env.deal.pass_direction == 3
    assert env.agent_selection == "player_0"
    assert env.deal.game_scores == tuple(deal0.points)
    # rewards of the finished deal wait in every seat's cumulative reward
    assert env._cumulative_rewards["player_2"] == -deal0.points[2]
    run(env, reset=False)
    assert env.infos == {} and env.agents == []


def test_final_infos_name_the_winners_and_phase_done():
    env = hearts_v0.raw_env(rules="standard(target=30)")
    env.reset(options={"hands": SUIT_HANDS, "pass_direction": "hold", "scores": [0, 10, 20, 29]})
    while not env.terminations["player_0"]:
        env.step(lowest(env.observe(env.agent_selection)))
    info = env.infos["player_3"]
    assert info["phase"] == Phase.DONE and info["winners"].tolist() == [1, 0, 0, 0]
    assert info["deal_points"].tolist() == [0, 26, 26, 26] and info["moon_shooter"] == 0
    assert info["scores"].tolist() == [0, 36, 46, 55]
    assert not env.observe("player_3")["action_mask"].any()


def test_explicit_deals_are_copied_checked_and_played_first():
    rules = make_rules("standard(target=60)")
    given = Deal.from_hands(rules, SUIT_HANDS, pass_direction="across")
    env = hearts_v0.raw_env(rules=rules)
    env.reset(options={"deals": [given]})
    assert env.deal is not given and env.deal.dealt == given.dealt and env.deal.pass_direction == 2
    run(env, reset=False)
    assert given.history == []  # the caller's deal is untouched
    assert env.match.history[0].dealt == given.dealt
    with pytest.raises(ValueError, match="other rules"):
        env.reset(options={"deals": [Deal.from_hands("openspiel", SUIT_HANDS)]})
    finished = given.clone()
    finished.playout(0)
    with pytest.raises(ValueError, match="finished"):
        env.reset(options={"deals": [finished]})
    with pytest.warns(UserWarning, match="ignores unknown option"):
        env.reset(options={"typo": 1})
    with pytest.raises(ValueError, match="one-deal episode"):
        env.reset(options={"pass_direction": "left"})  # a game follows the schedule
    with pytest.raises(ValueError, match="only applies with options"):
        env.reset(options={"dealer": 2})
    for bad in ([0, 1, 2], [0.5, 0, 0, 0], [True, 0, 0, 0], "abcd"):
        with pytest.raises(ValueError, match="scores"):
            env.reset(options={"scores": bad})
    env.reset(options={"hands": SUIT_HANDS, "pass_direction": "right", "dealer": 1})
    assert env.deal.pass_direction == 3 and env.deal.dealer == 1 and env.agent_selection == "player_0"


# --- illegal actions -------------------------------------------------------------------------


def test_illegal_action_terminates_in_env():
    env = hearts_v0.env(rules="standard(passing=none)", reward="points")
    env.reset(seed=0)
    agent = env.agent_selection
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards[agent] == -1
    assert all(r == 0 for a, r in env.rewards.items() if a != agent)
    seen = []
    for a in env.agent_iter():
        _, reward, term, trunc, _ = env.last()
        assert term or trunc
        seen.append((a, reward))
        env.step(None)
    assert dict(seen) == {a: (-1.0 if a == agent else 0.0) for a in AGENTS}


def test_out_of_range_action_is_an_assertion_in_env():
    env = hearts_v0.env()
    env.reset(seed=0)
    with pytest.raises(AssertionError):
        env.step(52)


def test_raw_env_raise_names_the_rule_and_leaves_the_env_unchanged():
    env = hearts_v0.raw_env(rules="standard(passing=none)", illegal_action="raise")
    env.reset(seed=0)
    agent = env.agent_selection
    held = env.deal.hands[env.deal.current]
    other = next(c for c in range(1, 52) if held >> c & 1)
    with pytest.raises(IllegalActionError, match=r"\(rule: opening lead\); legal cards: 2C") as err:
        env.step(other)
    assert err.value.rule == "opening lead" and err.value.legal == [0]
    if not held >> card_id("QS") & 1:
        with pytest.raises(IllegalActionError, match=r"QS: it is not in the hand \(rule: in hand\)"):
            env.step(card_id("QS"))
    with pytest.raises(IllegalActionError, match="not a card id"):
        env.step(None)
    with pytest.raises(IllegalActionError):
        env.step(99)
    assert env.agent_selection == agent and not any(env.terminations.values())
    env.step(np.int64(0))  # numpy integers are fine
    assert env.deal.history == [0]
    # follow suit
    hand = env.deal.hands[env.deal.current]
    off = next((c for c in range(52) if hand >> c & 1 and c >= 13), None)
    if off is not None and hand & 0x1FFF:
        with pytest.raises(IllegalActionError, match="follow suit"):
            env.step(off)


def test_built_in_terminate_matches_pettingzoos_wrapper_and_names_the_offender():
    from pettingzoo.utils import wrappers

    ours = hearts_v0.env(rules="openspiel")
    theirs = wrappers.TerminateIllegalWrapper(hearts_v0.raw_env(rules="openspiel"), illegal_reward=-1)
    for e in (ours, theirs):
        e.reset(seed=4)
        for _ in range(5):
            e.step(lowest(e.observe(e.agent_selection)))
    agent = ours.agent_selection
    bad = int(np.flatnonzero(ours.observe(agent)["action_mask"] == 0)[0])
    ours.step(bad)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs.step(bad)
    assert ours.terminations == theirs.terminations and ours.truncations == theirs.truncations
    assert ours.rewards == theirs.rewards
    assert ours.unwrapped._cumulative_rewards == theirs.unwrapped._cumulative_rewards
    infos = ours.unwrapped.infos
    assert infos[agent]["illegal_action"] is True  # the wrapper ends the episode before the env could say so
    assert {a: i["illegal_seat"] for a, i in infos.items()} == dict.fromkeys(AGENTS, int(agent[-1]))
    assert all(i["phase"] == Phase.DONE for i in infos.values())
    assert_fixed_infos(infos)


def test_env_with_raise_raises():
    env = hearts_v0.env(rules="openspiel", illegal_action="raise")
    env.reset(seed=0)
    bad = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step(bad)


def test_dead_agents_step_with_none_only():
    env = hearts_v0.raw_env(rules="openspiel")
    env.reset(seed=1)
    while not env.terminations[env.agent_selection]:
        env.step(lowest(env.observe(env.agent_selection)))
    with pytest.raises(ValueError, match="None"):
        env.step(0)
    for _ in range(4):
        env.step(None)
    assert env.agents == []


# --- auto-play -------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["standard(passing=none, target=40)", "openspiel", "sturtevant", "dutch"])
def test_auto_play_skips_forced_moves_and_keeps_the_rewards(rules):
    env = hearts_v0.env(rules=rules, auto_play_forced=True)
    rng = np.random.default_rng(0)
    env.reset(seed=2)
    totals = dict.fromkeys(AGENTS, 0.0)
    turns = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        assert obs["action_mask"].sum() >= 2
        turns += 1
        env.step(random_policy(rng)(obs))
    match = env.unwrapped.match
    assert totals == {a: -float(s) for a, s in zip(AGENTS, match.scores)}
    # the skipped turns: at least the whole last trick of every deal
    actions = sum(len(d.history) for d in match.history)
    assert actions - turns >= 4 * len(match.history)


def test_auto_play_at_reset_plays_the_opening_two_of_clubs():
    env = hearts_v0.raw_env(rules="standard(passing=none)", auto_play_forced=True)
    env.reset(seed=3)
    assert env.deal.history == [0]
    assert env.deal.trick == [0]
    assert env.observe(env.agent_selection)["action_mask"].sum() >= 2


def test_auto_play_dense_rewards_reach_skipped_seats():
    env = hearts_v0.env(rules="sturtevant", reward="dense", auto_play_forced=True)
    totals, _ = run(env, seed=8)
    assert totals == {a: -float(p) for a, p in zip(AGENTS, env.unwrapped.match.history[-1].points)}


# --- what an agent sees ----------------------------------------------------------------------


@pytest.mark.parametrize("name", encoder_names())
def test_received_cards_are_invisible_until_every_pass_is_chosen(name):
    """Seat 0 receives from seat 3 (passing left). Two games differ only in seat 3's first two
    passes: until seat 3's last pass, nobody but seat 3 can tell them apart."""
    rules = make_rules("standard(passing=left, game=deal)")
    try:
        make_encoder(name, rules)
    except EncoderError:  # a 32-card encoding (dutch107): the Dutch deck with passing switched on
        rules = make_rules("dutch(passing=left, game=deal)")
    envs = [hearts_v0.raw_env(rules=rules, observation=name) for _ in range(2)]
    for env in envs:
        env.reset(seed=0)
    for step in range(12):
        seat = envs[0].deal.current
        obs = [[e.observe(a) for a in AGENTS] for e in envs]
        for s in range(3):
            np.testing.assert_array_equal(obs[0][s]["observation"], obs[1][s]["observation"])
        if name == "rich":  # the received block [2N, 3N) stays empty while passing
            for s in range(4):
                assert not obs[0][s]["observation"][104:156].any()
        choice = [lowest, highest] if seat == 3 and step < 11 else [lowest, lowest]
        for e, o, pick in zip(envs, obs, choice):
            e.step(pick(o[seat]))
    # after the last pass the received cards are visible
    assert envs[0].deal.passes_complete()
    if name == "rich":
        received = set(np.flatnonzero(envs[0].observe("player_0")["observation"][104:156]).tolist())
        assert received == {c for c in range(52) if envs[0].deal.passed[3] >> c & 1}
    assert not np.array_equal(envs[0].observe("player_0")["observation"], envs[1].observe("player_0")["observation"])


def test_observe_is_lazy_and_returns_fresh_arrays():
    env = hearts_v0.raw_env(rules="openspiel")
    env.reset(seed=0)
    calls = []
    encode = env.encoder.encode
    env.encoder.encode = lambda view, out=None: calls.append(view.seat) or encode(view, out)
    for _ in range(10):
        env.step(env.deal.legal_cards()[0])
    assert calls == []  # stepping builds no observation
    a = env.observe("player_1")
    b = env.observe("player_1")
    assert calls == [1, 1]
    assert a["observation"] is not b["observation"] and a["action_mask"] is not b["action_mask"]
    np.testing.assert_array_equal(a["observation"], b["observation"])


def test_observation_game_scores_follow_the_match():
    env = hearts_v0.raw_env(rules="standard(target=100)")
    env.reset(options={"hands": SUIT_HANDS, "pass_direction": "hold", "scores": [50, 0, 0, 25]})
    obs = env.observe("player_0")["observation"]
    # rich: game score of relative seat r at 11N + 20 + r, divided by the target
    np.testing.assert_allclose(obs[11 * 52 + 20:11 * 52 + 24], [0.5, 0, 0, 0.25])
