"""The subagent player of paper 000 §4: states, network, rewards, weights files, agent, training pipeline."""

from __future__ import annotations

import ast
import hashlib
import json
import re
from pathlib import Path

import numpy as np
import pytest

import hearts_env
from hearts_baselines.subagents import steps as S
from hearts_baselines.subagents import train as T
from hearts_baselines.subagents.agent import Brain
from hearts_baselines.subagents.networks import BUNDLED, NetSet, ValueNet, WeightsError, load, save
from hearts_baselines.subagents.samples import (
    PASS_SIZE,
    PLAY_SIZE,
    DealFacts,
    deal_facts,
    dense,
    immediate,
    pass_row,
    play_positions,
    play_row,
    play_target,
    terminal,
)
from hearts_env.agents import make_agent
from hearts_env.encoders import make_encoder
from hearts_env.engine import Deal, Phase
from hearts_env.rules import make_rules
from hearts_env.views import SeatView

RULES = make_rules("standard")


def _random_positions(n_deals: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    for k in range(n_deals):
        deal = Deal.random(RULES, rng, pass_direction=k % 4)
        while not deal.is_over:
            yield deal
            legal = deal.legal_cards()
            deal.apply(legal[int(rng.integers(len(legal)))])


def test_states_equal_the_paper_encoders():
    play = make_encoder("paper260", rules=RULES)
    passing = make_encoder("paper104", rules=RULES)
    for deal in _random_positions(6):
        for seat in range(4):
            view = SeatView.of(deal, seat)
            assert np.array_equal(dense(play_row(play_positions(view))[None], PLAY_SIZE)[0], play.encode(view))
            if deal.phase == Phase.PASS:
                row = pass_row(view.hand, view.passed)
                assert np.array_equal(dense(row[None], PASS_SIZE)[0], passing.encode(view))


def test_sgd_lowers_the_mse_on_a_fixed_batch():
    rng = np.random.default_rng(0)
    x = (rng.random((64, 40)) < 0.2).astype(np.float32)
    y = rng.random(64).astype(np.float32)
    net = ValueNet(40, 16, rng)
    first = net.sgd_step(x, y, 0.5)
    assert float(np.mean((net.predict(x) - y) ** 2)) < first  # one step already lowers it
    for _ in range(300):
        last = net.sgd_step(x, y, 1.0)
    assert last < 0.7 * first
    row = np.flatnonzero(x[0])
    assert net.values_of_rows(row[None])[0] == pytest.approx(net.predict(x[:1])[0], rel=1e-5)


def test_rewards_follow_tables_1_and_2():
    f = DealFacts(seat=0, received=3, taken=3, trick_points=(0, 3) + (0,) * 11, moon_shooter=None,
                  break_trick=1, break_seat=0)
    assert terminal("normal", f) == pytest.approx(0.7)
    assert immediate("normal", f, 0) == pytest.approx(0.5) and immediate("normal", f, 1) == pytest.approx(1 / 8)
    assert terminal("moon", f) == 0.0 and immediate("moon", f, 1) == pytest.approx(0.3)
    assert terminal("breaker", f) == pytest.approx(0.1)
    assert immediate("breaker", f, 1) == pytest.approx(0.1) and immediate("breaker", f, 0) == 0.0
    moon = DealFacts(0, 0, 26, (13, 13) + (0,) * 11, 0, None, None)
    assert terminal("moon", moon) == 1.0 and immediate("moon", moon, 0) == 0.5
    assert terminal("normal", moon) == 1.0  # receives 0 points
    victim = DealFacts(1, 26, 0, (0,) * 13, 0, None, None)
    assert terminal("normal", victim) == 0.0 and terminal("breaker", victim) == 0.0
    assert 0.0 <= play_target("breaker", f, 1) <= 1.0


def test_deal_facts_of_a_played_deal():
    rng = np.random.default_rng(3)
    deal = Deal.random(RULES, rng, pass_direction=0)
    deal.playout(1)
    for seat in range(4):
        f = deal_facts(SeatView.of(deal, seat))
        assert f.received == deal.points[seat]
        assert sum(f.trick_points) == deal.penalty_points(seat)
        assert len(f.trick_points) == 13


SMOKE = ["--deals", "8", "--checkpoints", "2", "--eval-deals", "2", "--hidden", "8", "--decision-epochs", "2",
         "--moon-samples", "40", "--breaker-samples", "40", "--label-batch", "8", "--calibration-hands", "16",
         "--calibration-deals", "8", "--batch-deals", "4", "--repeats", "2", "--quiet"]
"""A tiny run of every step of two rounds of the pipeline."""


@pytest.fixture(scope="module")
def smoke_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("subagents")
    T.main(["--out", str(out), *SMOKE])
    return out


def test_smoke_training_of_every_stage_gives_a_loadable_checkpoint(smoke_run: Path):
    nets = load(smoke_run / "subagents.npz")
    names = [s.name for s, _ in T.steps_for(2)]
    assert set(nets.info["steps"]) == set(names) and len(names) == 2 * len(T.STEPS)
    assert (smoke_run / "curves.png").stat().st_size > 0
    summary = json.loads((smoke_run / "summary.json").read_text())
    assert [i["step"] for i in summary] == names
    assert all(i["done"] == i["total"] for i in summary)
    assert "classifier" in summary[2]
    agent = make_agent(f"subagents(weights={str(smoke_run / 'subagents.npz')!r})")
    _play_full_deals(agent, 2)


def _arrays(path: Path) -> dict[str, np.ndarray]:
    with np.load(path) as data:
        return {k: data[k] for k in data.files if k != "meta"}


SMOKE_WEIGHTS = {  # (sum, sum of squares) of every network's arrays after the smoke run, recorded 2026-11-27
    "play_normal": (-5.003724622860318, 22.187802662294857),
    "play_moon": (-6.492303925220767, 11.747448973408144),
    "play_breaker": (-3.1565288756173686, 8.716865187416142),
    "pass_normal": (-1.116524343000492, 9.410110033049133),
    "pass_moon": (-0.4445862542488612, 10.50391128649402),
    "decide_moon": (5.595603065411524, 10.11044852534766),
    "decide_breaker": (-3.4072826254268875, 9.870825654489465),
}


def test_the_smoke_run_trains_the_recorded_weights(smoke_run: Path):
    """The pipeline's result is pinned across refactors: a change in any card chosen, sample, label,
    threshold or SGD step moves these sums far beyond the tolerance (which allows for the arithmetic's
    rounding on another machine)."""
    nets = load(smoke_run / "subagents.npz")
    for name, (total, squares) in SMOKE_WEIGHTS.items():
        a = np.concatenate([np.asarray(x, np.float64).ravel() for x in nets[name].arrays().values()])
        assert (a.sum(), (a * a).sum()) == (pytest.approx(total, rel=1e-5, abs=1e-5),
                                            pytest.approx(squares, rel=1e-5)), name


@pytest.mark.parametrize("seed, same", [(0, True), (1, False)])
def test_training_is_reproducible_from_its_seed(smoke_run: Path, tmp_path: Path, seed: int, same: bool):
    T.main(["--out", str(tmp_path), *SMOKE, "--seed", str(seed)])
    first, again = _arrays(smoke_run / "subagents.npz"), _arrays(tmp_path / "subagents.npz")
    assert first.keys() == again.keys()
    assert all(np.array_equal(first[k], again[k]) for k in first) == same


def test_rerun_skips_finished_steps(smoke_run: Path, monkeypatch: pytest.MonkeyPatch):
    calls = []
    monkeypatch.setattr(S, "rl_chunk", lambda *a, **k: calls.append(1) or (0.0, 0.0))
    before = {p: p.stat().st_mtime_ns for p in (smoke_run / "steps").glob("*.npz") if "data" not in p.name}
    T.main(["--out", str(smoke_run), *SMOKE, "--stage", "play"])
    assert calls == []
    assert before == {p: p.stat().st_mtime_ns for p in before}


def test_resume_continues_a_partial_step(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    real = S.rl_chunk
    seen: list[int] = []

    def interrupted(ctx, nets, make, start, stop, total, rng, progress, replay):
        if start > 0 and not seen:
            seen.append(start)
            raise KeyboardInterrupt
        return real(ctx, nets, make, start, stop, total, rng, progress, replay)

    argv = ["--out", str(tmp_path), "--deals", "12", "--checkpoints", "3", "--eval-deals", "1", "--hidden", "8",
            "--stage", "play", "--quiet"]
    monkeypatch.setattr(S, "rl_chunk", interrupted)
    with pytest.raises(KeyboardInterrupt):
        T.main(argv)
    partial = tmp_path / "steps" / "00_play_normal.partial.npz"
    assert load(partial).info["done"] == 4
    starts: list[int] = []
    monkeypatch.setattr(S, "rl_chunk", lambda *a, **k: starts.append(a[3]) or real(*a, **k))
    T.main(argv)
    assert starts[:2] == [4, 8]  # the first chunk of play_normal is not replayed
    assert load(tmp_path / "steps" / "00_play_normal.npz").info["done"] == 12
    assert not partial.exists()


def _play_full_deals(agent, n: int, rules_spec: str = "standard") -> None:
    rules = make_rules(rules_spec)
    rng = np.random.default_rng(7)
    for k in range(n):
        deal = Deal.random(rules, rng, pass_direction=k % 4)
        agent_seats = {}
        for seat in range(4):
            a = agent if seat == 0 else make_agent("random")
            a.reset(rules, seat, [k, seat])
            agent_seats[seat] = a
        while not deal.is_over:
            seat = deal.current
            card = agent_seats[seat].act(SeatView.of(deal, seat))
            assert deal.legal_mask() >> card & 1
            deal.apply(card)


def test_bundled_weights_load_and_play_legal_cards():
    nets = load()
    assert nets.info.get("seconds", 0) > 0
    steps = nets.info["steps"]  # the thresholds are the final round's calibrations
    assert nets.moon_threshold == steps["decide_moon_r2"]["calibration"]["threshold"]
    assert nets.breaker_threshold == steps["decide_breaker_r2"]["calibration"]["threshold"]
    _play_full_deals(make_agent("subagents"), 4)


def test_bundled_weights_play_the_recorded_cards():
    """The bundled player's cards, pinned across refactors: two subagents seats (the full player, and
    one whose low thresholds make both decision networks fire) against two heuristic seats."""
    played = []
    for spec in ["subagents", "subagents(moon_threshold=0.02, breaker_threshold=0.3)"]:
        rng = np.random.default_rng(11)
        for k in range(8):
            deal = Deal.random(RULES, rng, pass_direction=k % 4)
            seats = {s: make_agent(spec) if s in (0, 2) else make_agent("heuristic") for s in range(4)}
            for s, a in seats.items():
                a.reset(RULES, s, [k, s])
            while not deal.is_over:
                card = seats[deal.current].act(SeatView.of(deal, deal.current))
                played.append(card)
                deal.apply(card)
    assert hashlib.sha256(np.array(played, np.int16).tobytes()).hexdigest() == (
        "be37cd6035f0a8d75b10e26433f33e656507e3247f9c94b401f3de3c355d0a4b")


@pytest.mark.parametrize("style", ["normal", "moon", "breaker", None])
def test_every_style_plays_legal_cards(style: str | None):
    nets = NetSet.fresh(hidden=8)
    nets.moon_threshold = 0.0 if style is None else 0.96  # None: the decision always says shoot
    nets.breaker_threshold = 0.0
    brain = Brain(nets, style=style, epsilon=0.3)
    rng = np.random.default_rng(1)
    for k in range(3):
        deal = Deal.random(RULES, rng, pass_direction=k % 4)
        brain.new_deal(rng)
        while not deal.is_over:
            seat = deal.current
            view = SeatView.of(deal, seat)
            card = brain.act(view) if seat == 0 else deal.legal_cards()[0]
            deal.apply(card)
        assert len(brain.records.plays) == 13
        assert (brain.records.passing is not None) == (k % 4 != 0)


def _rewrite(path: Path, target: Path, *, meta_change: dict | None = None, array_change: str | None = None) -> None:
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(str(arrays.pop("meta")))
    meta.update(meta_change or {})
    if array_change:
        arrays[array_change] = arrays[array_change] + 1.0
    np.savez(target, meta=np.array(json.dumps(meta)), **arrays)


def test_bad_files_give_clear_errors(tmp_path: Path):
    good = save(NetSet.fresh(hidden=4), tmp_path / "good.npz")
    assert load(good).nets["play_normal"].W1.shape == (PLAY_SIZE, 4)
    truncated = tmp_path / "truncated.npz"
    truncated.write_bytes(good.read_bytes()[:300])
    with pytest.raises(WeightsError, match="corrupted"):
        load(truncated)
    _rewrite(good, tmp_path / "edited.npz", array_change="play_normal/b1")
    with pytest.raises(WeightsError, match="checksum"):
        load(tmp_path / "edited.npz")
    _rewrite(good, tmp_path / "format.npz", meta_change={"format": 99})
    with pytest.raises(WeightsError, match="format 99"):
        load(tmp_path / "format.npz")
    _rewrite(good, tmp_path / "version.npz", meta_change={"hearts_env": "0.0.1"})
    with pytest.raises(WeightsError, match=r"hearts-env 0\.0\.1.*" + hearts_env.__version__):
        load(tmp_path / "version.npz")
    with pytest.raises(WeightsError, match="no subagents weights"):
        load(tmp_path / "missing.npz")
    assert BUNDLED.name == "subagents.npz"


def test_moon_stats_counts_are_consistent():
    from hearts_baselines.subagents.moonstats import moon_stats

    stats = moon_stats("random", 4, moon_threshold=0.0)  # threshold 0: every deal is a moon attempt
    assert stats["deals"] == 4 and stats["decided_moon"] == 4
    assert stats["moon_success"] <= stats["moons_shot"] <= 4
    assert stats["moon_success_ratio"] == stats["moon_success"] / 4


def test_exploration_only_in_the_learning_networks():
    nets = NetSet.fresh(hidden=8)
    explorer = Brain(nets, style="normal", epsilon=1.0, explore=frozenset({"pass_normal"}))
    greedy = Brain(nets, style="normal")
    rng = np.random.default_rng(4)
    deal = Deal.random(RULES, rng, pass_direction=0)
    explorer.new_deal(np.random.default_rng(1))
    greedy.new_deal(np.random.default_rng(2))
    while not deal.is_over:
        view = SeatView.of(deal, deal.current)
        card = explorer.act(view)
        assert card == greedy.act(view)  # plays are not explored: only passes would be
        deal.apply(card)


def test_the_code_table_lists_every_module_each_importing_only_those_above_it():
    """docs/subagents.md's table of the code names every module of the package, in an order in which
    each imports (at module level or inside a function) only modules listed before it."""
    root = Path(__file__).resolve().parents[1]
    package = root / "baselines" / "hearts_baselines" / "subagents"
    table = (root / "docs" / "subagents.md").read_text().split("**The code**", 1)[1].split("\n\n", 2)[1]
    order = re.findall(r"^\| `(\w+)\.py` \|", table, re.M)
    assert sorted(order) == sorted(p.stem for p in package.glob("*.py") if p.stem != "__init__")
    for k, module in enumerate(order):
        tree = ast.parse((package / f"{module}.py").read_text())
        names = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module)
                names.update(f"{node.module}.{alias.name}" for alias in node.names)
        used = {n.split(".")[2] for n in names if n.startswith("hearts_baselines.subagents.")}
        assert used <= set(order[:k]), (module, sorted(used - set(order[:k])))
