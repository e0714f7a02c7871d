"""Pass directions of one-deal play: every direction of the schedule, evenly and reproducibly, in
every env and the arena; games follow the schedule; a direction can be pinned."""

import re
from collections import Counter

import gymnasium
import numpy as np
import pytest
from rule_strategies import RULE_FIELDS

import hearts_env  # noqa: F401  (registers the Gymnasium ids)
from hearts_env import hearts_v0
from hearts_env.engine import Deal, DealError
from hearts_env.evaluation.arena import pass_direction_of, run_arena
from hearts_env.match import Match
from hearts_env.rules import PASS_OFFSETS, Rules, draw_pass_directions, make_rules
from hearts_env.vector import VectorDeals

ONE_DEAL = "standard(game=deal)"
EPISODES = 400


def _balanced(directions, options=(0, 1, 2, 3)):
    """Every option drawn, each within 5 sigma of its expected count."""
    counts = Counter(int(d) for d in directions)
    assert set(counts) == set(options)
    n, k = len(directions), len(options)
    expected, sigma = n / k, (n * (1 / k) * (1 - 1 / k)) ** 0.5
    assert all(abs(counts[o] - expected) < 5 * sigma for o in options), counts


def test_rules_strategy_draws_every_field():
    """The equivalence tests' rules generator covers every Rules field (add one there with a new field)."""
    names = {name for name in Rules.__dataclass_fields__ if name != "preset"}
    assert set(RULE_FIELDS) == names


def test_aec_env_one_deal_episodes_play_every_direction():
    env = hearts_v0.raw_env(rules=ONE_DEAL)
    directions = []
    for seed in range(EPISODES):
        env.reset(seed=seed)
        directions.append(env.deal.pass_direction)
    _balanced(directions)
    env.reset(seed=7)
    first = env.deal.pass_direction, env.deal.dealt
    env.reset(seed=7)
    assert (env.deal.pass_direction, env.deal.dealt) == first  # reproducible from the seed


def test_aec_env_continues_its_generator_between_resets():
    env = hearts_v0.raw_env(rules=ONE_DEAL)
    env.reset(seed=0)
    directions = [env.deal.pass_direction]
    for _ in range(EPISODES - 1):
        env.reset()
        directions.append(env.deal.pass_direction)
    _balanced(directions)


def test_aec_env_can_pin_the_direction():
    env = hearts_v0.raw_env(rules=ONE_DEAL)
    for seed in range(20):
        env.reset(seed=seed, options={"pass_direction": "across"})
        assert env.deal.pass_direction == PASS_OFFSETS["across"]
    pinned = hearts_v0.raw_env(rules="standard(game=deal, passing=left)")
    for seed in range(20):
        pinned.reset(seed=seed)
        assert pinned.deal.pass_direction == PASS_OFFSETS["left"]
    with pytest.raises(ValueError, match="no passing"):
        hearts_v0.raw_env(rules="sturtevant").reset(options={"pass_direction": "left"})


def test_a_game_follows_the_schedule_from_left():
    match = Match("standard(target=1000)", seed=3)
    directions = []
    for _ in range(8):
        directions.append(match.deal.pass_direction)
        match.deal.playout(0)
        match.next_deal()
    assert directions == [1, 3, 2, 0] * 2  # left, right, across, hold
    with pytest.raises(ValueError, match="one-deal"):
        Match("standard", pass_direction="left")


def test_custom_schedules_and_random_passing_draw_from_their_options():
    rng = np.random.default_rng(0)
    _balanced(draw_pass_directions(make_rules(ONE_DEAL, passing="left,across"), rng, 4000), options=(1, 2))
    _balanced(draw_pass_directions(make_rules("openspiel"), rng, 4000))
    assert set(draw_pass_directions(make_rules("sturtevant"), rng, 100).tolist()) == {0}
    _balanced([Deal.random("openspiel", seed).pass_direction for seed in range(EPISODES)])


def test_gymnasium_env_one_deal_episodes_play_every_direction():
    env = gymnasium.make("hearts_env/Hearts-v0", rules=ONE_DEAL, opponents="random")
    directions = []
    for seed in range(EPISODES):
        env.reset(seed=seed)
        directions.append(env.unwrapped.match.deal.pass_direction)
    _balanced(directions)


@pytest.mark.parametrize("backend", ["numpy", "numba"])
def test_vector_engine_and_env_play_every_direction(backend):
    _balanced(VectorDeals.random(ONE_DEAL, 4000, np.random.default_rng(0), backend=backend).pass_direction)
    envs = gymnasium.make_vec("hearts_env/Hearts-v0", num_envs=EPISODES, rules=ONE_DEAL, backend=backend)
    envs.reset(seed=1)
    _balanced(envs.unwrapped.deals.pass_direction)
    # redealt rows draw too: play every row to its end once, collecting the new deals' directions
    deals = envs.unwrapped.deals
    deals.redeal(np.ones(EPISODES, bool), np.random.default_rng(2))
    _balanced(deals.pass_direction)


def test_arena_deal_i_passes_schedule_i_in_every_seating():
    rules = make_rules(ONE_DEAL)
    assert [pass_direction_of(rules, i) for i in range(8)] == [1, 3, 2, 0, 1, 3, 2, 0]
    assert pass_direction_of(make_rules("openspiel"), 0) is None  # drawn from the deal's seed
    assert pass_direction_of(make_rules("standard"), 0) is None  # a game follows its schedule
    records = run_arena(["greedy", "random"], deals=8, rules=ONE_DEAL, seed=0, jobs=1)
    by_deal: dict[int, set[str]] = {}
    for r in records:
        by_deal.setdefault(r["deal"], set()).add(r["deals"][0]["pass_direction"])
    names = ["left", "right", "across", "hold"]
    assert by_deal == {i: {names[i % 4]} for i in range(8)}


def test_arena_random_passing_is_the_same_in_every_seating():
    records = run_arena(["greedy", "random"], deals=12, rules="openspiel", seed=0, jobs=1)
    by_deal: dict[int, set[str]] = {}
    for r in records:
        by_deal.setdefault(r["deal"], set()).add(r["deals"][0]["pass_direction"])
    assert all(len(v) == 1 for v in by_deal.values())
    assert len(set().union(*by_deal.values())) > 1


def test_deal_random_refuses_a_direction_the_rules_cannot_pass():
    with pytest.raises(DealError, match="no passing"):
        Deal.random("sturtevant", 0, pass_direction="left")


def test_arena_summary_breaks_the_paired_difference_down_by_pass_direction():
    from hearts_env.evaluation.arena import format_summary, summarize

    records = run_arena(["greedy", "random"], deals=8, rules=ONE_DEAL, seed=0, jobs=1)
    summary = summarize(records)
    by_direction = summary["paired_by_pass_direction"]
    assert list(by_direction) == ["left", "right", "across", "hold"]
    assert all(p["greedy - random"]["deals"] == 2 for p in by_direction.values())
    overall = summary["paired"]["greedy - random"]["mean_difference"]
    assert np.mean([p["greedy - random"]["mean_difference"] for p in by_direction.values()]) == pytest.approx(overall)
    text = format_summary(summary)
    assert "by pass direction" in text and "across" in text
    wide = {"mean_difference": -10.95, "ci95": (-12.31, -9.57), "deals": 2}  # the widest cell: 22 characters
    summary["paired_by_pass_direction"] = {d: {"greedy - random": wide} for d in by_direction}
    row = next(line for line in format_summary(summary).splitlines() if line.startswith("greedy - random "))
    assert len(re.findall(r"\] +-10\.95", row)) == 3  # the cells stay apart


def test_arena_resume_refuses_a_file_of_the_left_only_protocol(tmp_path):
    import json

    out = tmp_path / "old.jsonl"
    run_arena(["greedy", "random"], deals=2, rules=ONE_DEAL, seed=0, jobs=1, out=out)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    for r in lines:  # as an older version wrote them: every deal passed left
        r["deals"][0]["pass_direction"] = "left"
    out.write_text("".join(json.dumps(r) + "\n" for r in lines))
    with pytest.raises(ValueError, match="another pass-direction protocol"):
        run_arena(["greedy", "random"], deals=4, rules=ONE_DEAL, seed=0, jobs=1, out=out, resume=True)
