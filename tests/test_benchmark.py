"""hearts-bench: the suite's determinism, the statistics on constructed data, the self-checks (they catch a
broken seat mapping and a tampered record), resume, compare, and the command as a user runs it."""

import hashlib
import importlib
import json
import subprocess
import sys
from pathlib import Path
from typing import ClassVar

import numpy as np
import pytest

from hearts_env.agents import Agent
from hearts_env.cards import iter_cards
from hearts_env.cli import main
from hearts_env.evaluation.arena import run_arena, seatings, solo_seatings
from hearts_env.evaluation.arena.game import episode_match
from hearts_env.evaluation.benchmark import (
    SUITES,
    BenchmarkCheckFailed,
    IncomparableResults,
    checks,
    compare,
    draw_holdout,
    format_compare,
    get_suite,
    leaderboard_row,
    markdown,
    run_benchmark,
)
from hearts_env.evaluation.benchmark import stats as bench_stats
from hearts_env.evaluation.benchmark.checks import check_totals
from hearts_env.evaluation.benchmark.stats import (
    chained_games,
    headline,
    matchpoints,
    paired,
    per_deal,
    unpaired,
    wilcoxon_p,
)
from hearts_env.evaluation.benchmark.suite import (
    ONCE_GAMES_PER_DEAL,
    deals_fingerprint,
    format_deals,
    format_games,
    holdout_seeds,
    ladder_fingerprint,
    rung_deals_seed,
)
from hearts_env.evaluation.benchmark.weights import check_shipped, shipped_files
from hearts_env.rules import make_rules

HERE = Path(__file__).parent
FAST = {"jobs": 1, "isolation": "none"}


def test_solo_seatings_put_the_agent_once_in_every_seat():
    solo = [seatings(2)[k] for k in solo_seatings()]
    assert len(solo) == 4
    assert sorted(s.index(0) for s in solo) == [0, 1, 2, 3] and all(s.count(1) == 3 for s in solo)


def test_the_suite_deals_are_a_pure_function_of_version_preset_and_index():
    v1 = get_suite("v1")
    assert v1.seed("standard") == 1681062731  # crc32("hearts-bench/v1/standard"): published, never to change
    assert len({v1.seed(p) for p in v1.presets}) == len(v1.presets)
    for (preset, tier), published in v1.fingerprints.items():
        if v1.deals(tier) <= 1000:
            assert deals_fingerprint(v1.rules(preset), v1.seed(preset), v1.deals(tier)) == published, (preset, tier)
    assert ("standard", "full") in v1.fingerprints and len(v1.fingerprints) == len(v1.presets) * len(v1.tiers)
    code = ("from hearts_env.evaluation.benchmark.suite import V1, deals_fingerprint; "
            "print(deals_fingerprint(V1.rules('dutch'), V1.seed('dutch'), 8))")
    other_process = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert other_process.stdout.strip() == v1.fingerprints["dutch", "smoke"]


def test_every_tier_is_balanced_over_pass_directions():
    for suite in SUITES.values():
        assert all(deals % 4 == 0 for deals in suite.tiers.values())


def test_a_missing_statistics_library_is_refused_before_the_first_game(tmp_path, monkeypatch):
    # it used to end a run after its first rung, whose figures need scipy: a stopped sitting, no leaderboard row
    monkeypatch.setitem(sys.modules, "scipy.stats", None)
    with pytest.raises(ImportError, match=r"needs scipy: pip install 'hearts-env\[benchmark\]'"):
        run_benchmark("random", tier="smoke", out=tmp_path / "run", isolation="none", jobs=1)
    assert not (tmp_path / "run").exists()


def test_unknown_suite_tier_preset_format_and_rung_are_refused_by_name():
    with pytest.raises(ValueError, match="published suites: v1"):
        get_suite("v0")
    with pytest.raises(ValueError, match="no tier 'huge'; it has: smoke, llm, short, quick, extended, mid, full"):
        run_benchmark("random", tier="huge")
    with pytest.raises(ValueError, match="no rules preset 'black_maria'"):
        run_benchmark("random", preset="black_maria")
    with pytest.raises(ValueError, match="format 'pairs' is not valid; valid: solo, mixed"):
        run_benchmark("random", format="pairs")
    with pytest.raises(ValueError, match="no opponent 'gnubg'"):
        run_benchmark("random", rungs=["gnubg"])
    with pytest.raises(ValueError, match="unknown agent"):
        run_benchmark("no_such_agent", tier="smoke")


def test_a_backend_that_cannot_play_the_run_is_refused_before_anything_is_played(tmp_path):
    with pytest.raises(ValueError, match="backend='cluster' is not valid; valid: processes, ray"):
        run_benchmark("random", tier="smoke", backend="cluster", out=tmp_path / "a")
    with pytest.raises(ValueError, match="a remote seat plays with backend 'processes'"):
        run_benchmark("remote:bot", tier="smoke", backend="ray", out=tmp_path / "b")
    with pytest.raises(ValueError, match="the llm track plays on the dealer's own machine"):
        run_benchmark("llm(model='m', base_url='http://localhost:1')", tier="smoke", track="llm", backend="ray",
                      out=tmp_path / "c")
    with pytest.raises(ValueError, match="a remote seat plays with backend 'processes'"):
        run_arena(["remote:bot", "random"], deals=1, backend="ray")
    assert not any((tmp_path / name).exists() for name in "abc")


# --- statistics on constructed data with known answers -------------------------------------------------------

def _record(deal, seating_index, points, winners=None, error=None):
    low = min(points)
    return {"deal": deal, "seating_index": seating_index, "points": points, "error": error, "moons": [],
            "winners": winners if winners is not None else [s for s, p in enumerate(points) if p == low]}


def test_per_deal_points_follow_the_seating_roles():
    solo = solo_seatings()
    # deal 0: the agent takes 2 in every rotation, each opponent seat 8; deal 1: the agent 10, the others 16/3
    records = []
    for k in solo:
        agent_seat = seatings(2)[k].index(0)
        records.append(_record(0, k, [2 if s == agent_seat else 8 for s in range(4)]))
        records.append(_record(1, k, [(10, 0, 6, 10)[(s - agent_seat) % 4] for s in range(4)]))
    agent, opponent = per_deal(records, 2)
    assert agent.tolist() == [2.0, 10.0] and opponent.tolist() == pytest.approx([8.0, 16 / 3])
    with pytest.raises(ValueError, match=r"deals \[2\] have no record"):
        per_deal(records, 3)


def test_matchpoints_chained_games_wilcoxon_and_headline():
    assert [matchpoints([0, 5, 5, 10], s) for s in range(4)] == [3.0, 1.5, 1.5, 0.0]
    assert sum(matchpoints([4, 4, 4, 14], s) for s in range(4)) == 6.0  # always 6 a table
    ones = paired(np.ones(10))
    assert ones["mean"] == 1.0 and ones["ci95"] == [1.0, 1.0] and ones["sd"] == 0.0
    assert ones["wilcoxon_p"] == pytest.approx(2 / 2 ** 10)  # exact: all ten signs positive
    assert wilcoxon_p(np.zeros(5)) == 1.0 and wilcoxon_p(np.ones(1)) is None
    # one seating, the agent at seat 0: 60+50 ends game 1 (seat 1 wins alone), the next three deals end game 2 (a tie of
    # the agent and seat 3: half a win); the last deal starts a game that never ends
    k = next(k for k in solo_seatings() if seatings(2)[k][0] == 0)
    points = [[0, 0, 60, 10], [5, 0, 50, 5], [40, 26, 26, 0], [0, 40, 40, 40], [0, 40, 40, 0], [0, 0, 0, 26]]
    share, games = chained_games([_record(d, k, p) for d, p in enumerate(points)])
    assert games == 2 and share == pytest.approx(0.25)
    rungs = {"a": {"per_deal_margin": [1.0, 3.0]}, "b": {"per_deal_margin": [3.0, 5.0]}}
    assert headline(rungs)["mean"] == 3.0


# --- the self-checks ----------------------------------------------------------------------------------------

def test_a_broken_seat_mapping_fails_the_even_check(monkeypatch):
    """Every figure goes through `roles`: a mapping that puts the agent in seat 0 whatever the seating is caught."""
    monkeypatch.setattr(bench_stats, "roles", lambda record: (0, 1, 1, 1))
    with pytest.raises(BenchmarkCheckFailed, match="not even on"):
        run_benchmark("random", tier="smoke", rungs=["greedy"], **FAST)


def test_the_mixed_format_is_even_for_identical_players_too():
    result = run_benchmark("greedy", tier="smoke", format="mixed", rungs=["greedy"], **FAST)
    assert result["rungs"]["greedy"]["per_deal_margin"] == [0.0] * 8
    assert result["rungs"]["greedy"]["seat_games"] == 8 * 28  # 14 seatings, two agent seats each on average


def test_a_tampered_record_fails_the_totals_check():
    records = run_arena(["heuristic", "random"], deals=4, rules="standard(game=deal)", jobs=1)
    check_totals(records)
    tampered = json.loads(json.dumps(records))
    tampered[5]["points"][0] -= 1
    with pytest.raises(BenchmarkCheckFailed, match="sum to"):
        check_totals(tampered)
    tampered = json.loads(json.dumps(records))
    tampered[2]["deals"][0]["points"][1] += 13
    with pytest.raises(BenchmarkCheckFailed, match="the rules allow"):
        check_totals(tampered)


@pytest.mark.parametrize("rules", ["openspiel(jd_bonus=true, avoid_all_tricks_bonus=true)", "dutch(game=deal)",
                                   "standard(moon=subtract_from_shooter, game=deal)", "standard(target=40)"])
def test_the_totals_check_knows_every_scoring_option(rules):
    check_totals(run_arena(["heuristic", "random"], deals=3, rules=rules, jobs=1))


def test_deals_that_differ_from_the_published_fingerprint_are_refused(monkeypatch):
    v1 = get_suite("v1")
    monkeypatch.setitem(v1.fingerprints, ("standard", "smoke"), "0" * 64)
    with pytest.raises(BenchmarkCheckFailed, match="deals other cards"):
        run_benchmark("random", tier="smoke", rungs=["greedy"], **FAST)


def test_every_opponent_plays_as_when_the_suite_was_published():
    """The suite pins its opponents' play, not only their specs: four copies of each rung on the first
    deals of each preset reproduce the published fingerprint (an optimisation of pimc that changed one
    card, or a backend that plays otherwise, would make v1 another ladder under the same name)."""
    v1 = get_suite("v1")
    ladder = {(preset, rung.name) for preset in v1.presets for rung in v1.ladder}
    assert ladder <= set(v1.ladder_fingerprints)  # the reference track's are checked in tests/test_xinxin.py
    for preset, name in ladder:
        rules, seed = v1.rules(preset), v1.seed(preset)
        published = v1.ladder_fingerprints[preset, name]
        assert ladder_fingerprint(v1.rung(name).spec, rules, seed) == published, (preset, name)


def test_an_opponent_that_plays_otherwise_is_refused(monkeypatch):
    """Without the compiled engine pimc rolls out with Python agents and plays other cards: the run is
    refused with the reason (the benchmark extra installs Numba), before any game is played."""
    from hearts_baselines import search_common

    v1 = get_suite("v1")
    pimc, rules, seed = v1.rung("pimc").spec, v1.rules("standard"), v1.seed("standard")
    # on the first deal only (pimc's Python rollouts take minutes a deal): its compiled play published, then compared
    monkeypatch.setitem(v1.ladder_fingerprints, ("standard", "pimc"), ladder_fingerprint(pimc, rules, seed, count=1))
    monkeypatch.setattr(checks, "ladder_fingerprint", lambda *args: ladder_fingerprint(*args, count=1))
    monkeypatch.setattr(search_common, "resolve_backend", lambda backend: None)  # as if Numba were missing
    with pytest.raises(BenchmarkCheckFailed, match=r"pimc .* plays the first 4 standard deals differently.*Numba"):
        run_benchmark("random", tier="smoke", rungs=["pimc"], **FAST)
    monkeypatch.setitem(v1.ladder_fingerprints, ("standard", "greedy"), "0" * 64)
    with pytest.raises(BenchmarkCheckFailed, match="opponent greedy"):
        run_benchmark("random", tier="smoke", rungs=["greedy"], **FAST)


# --- a run, its records, resume and compare -----------------------------------------------------------------

@pytest.fixture(scope="module")
def smoke_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("bench") / "heuristic"
    result = run_benchmark("heuristic", tier="smoke", rungs=["random", "greedy"], out=out, jobs=2)
    return out, result


def test_a_run_reports_every_figure_and_writes_its_files(smoke_run):
    out, result = smoke_run
    assert sorted(p.name for p in out.iterdir()) == ["greedy.jsonl", "ladder.png", "manifest.json", "random.jsonl",
                                                      "result.json", "result.md", "sittings.jsonl"]
    assert out.stat().st_mode & 0o777 == 0o700  # the run's folder: the dealer's alone
    assert json.loads((out / "result.json").read_text()) == result
    for name, rung in result["rungs"].items():
        assert rung["deals"] == 8 and rung["seat_games"] == 32 and len(rung["per_deal_margin"]) == 8
        assert rung["margin"]["mean"] == pytest.approx(rung["opponent_points"] - rung["agent_points"])
        assert 0 <= rung["matchpoints"] <= 3 and 0 <= rung["win_rate_deal"] <= 1 and rung["errors"] == {}
        assert rung["seconds_per_decision"] > 0 and 0 <= rung["qs_taken"] <= 1
        assert len((out / f"{name}.jsonl").read_text().splitlines()) == 32
    assert result["rungs"]["random"]["margin"]["mean"] > 3  # heuristic crushes random on any 8 deals
    assert {"suite", "tier", "rules", "package_version", "agent", "hardware"} <= set(result)
    assert result["rules"] == "standard(game=deal)" and result["agent"] == "heuristic"
    text = markdown(result)
    assert "Ladder margin" in text and "| random |" in text and "seed 1681062731" in text
    # the row to paste into the leaderboard: the headline, then each rung's margin, in the ladder's order
    row = leaderboard_row(result)
    assert row not in text and "A smoke run checks that an agent runs" in text  # a smoke run is no row
    quick = markdown({**result, "tier": "quick"})
    assert quick.splitlines()[-2] == leaderboard_row({**result, "tier": "quick"})
    in_dealer = markdown({**result, "tier": "quick", "isolation": "none"})
    assert "Not a leaderboard row" in in_dealer and "```" not in in_dealer
    with pytest.raises(ValueError, match="isolation process"):
        leaderboard_row({**result, "isolation": "seating"})
    h, random_, greedy = result["headline"], result["rungs"]["random"]["margin"], result["rungs"]["greedy"]["margin"]
    assert row.startswith(f"| `heuristic` | smoke (8) | **{h['mean']:+.2f} [{h['ci95'][0]:+.2f}, ")
    assert row.index(f"{random_['mean']:+.2f} [") < row.index(f"| {greedy['mean']:+.2f} [")
    assert row.endswith(f" | {result['started'][:10]} |")


def test_resume_continues_and_refuses_another_run(smoke_run, tmp_path):
    out, result = smoke_run
    copy = tmp_path / "copy"
    copy.mkdir()
    for f in out.iterdir():
        if f.suffix in (".jsonl", ".json") and f.name != "result.json":
            lines = f.read_text().splitlines(keepends=True)
            (copy / f.name).write_text("".join(lines[:-5] if f.suffix == ".jsonl" else lines))
    with pytest.raises(FileExistsError, match="resume"):
        run_benchmark("heuristic", tier="smoke", rungs=["random", "greedy"], out=copy, jobs=1)
    with pytest.raises(ValueError, match="tier: 'smoke' there, 'quick' now"):
        run_benchmark("heuristic", tier="quick", rungs=["random", "greedy"], out=copy, resume=True, jobs=1)
    resumed = run_benchmark("heuristic", tier="smoke", rungs=["random", "greedy"], out=copy, resume=True, jobs=1)
    for name in result["rungs"]:
        without_time = {k: v for k, v in result["rungs"][name].items() if "second" not in k and "slowest" not in k}
        assert {k: resumed["rungs"][name][k] for k in without_time} == without_time
    (tmp_path / "stray").mkdir()
    (tmp_path / "stray" / "notes.txt").write_text("mine")
    with pytest.raises(FileExistsError, match="not empty"):
        run_benchmark("heuristic", tier="smoke", out=tmp_path / "stray", **FAST)
    (tmp_path / "a-file").write_text("mine")
    with pytest.raises(ValueError, match=r"a-file is a file; out= \(--out\) names the folder"):
        run_benchmark("heuristic", tier="smoke", out=tmp_path / "a-file", **FAST)


def test_extend_grows_a_finished_run_to_a_larger_tier_keeping_every_game(smoke_run, tmp_path, monkeypatch, capsys):
    """A run of 8 deals grown to 12 (as short's 100 grow to extended's 300): the 32 games of each rung are kept as
    they were, only the new deals are played, and the grown run verifies as a leaderboard row."""
    import shutil

    from hearts_env.evaluation.benchmark.verify import verify_run

    v1 = get_suite("v1")
    monkeypatch.setitem(v1.tiers, "smoke12", 12)  # a larger tier whose first 8 deals are smoke's
    monkeypatch.setitem(v1.tiers, "smoke4", 4)
    out, small = smoke_run
    grown = tmp_path / "grown"
    shutil.copytree(out, grown)
    kept = {name: (grown / f"{name}.jsonl").read_text() for name in small["rungs"]}
    ask = ["benchmark", "heuristic", "--opponents", "random", "greedy", "--jobs", "2", "--out", str(grown), "--json"]
    for tier, extra, why in [("smoke", [], "is a run of tier smoke already: resume it"),
                             ("smoke4", [], "extend grows a run to a tier of more deals, and smoke4 has 4"),
                             ("smoke12", ["--rules", "dutch"], "preset: 'standard' there, 'dutch' now"),
                             ("smoke12", ["--agent-secret", "7"], "another agent secret")]:
        assert main([*ask, "--tier", tier, "--extend", *extra]) == 2
        assert why in capsys.readouterr().err
    assert json.loads((grown / "manifest.json").read_text())["tier"] == "smoke"  # a refusal changes nothing
    assert main(["benchmark", "heuristic", "--tier", "smoke12", "--extend", "--out", str(tmp_path / "none")]) == 2
    assert "holds no benchmark run" in capsys.readouterr().err
    assert main([*ask, "--tier", "smoke12", "--extend"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["tier"] == "smoke12" and result["deals"] == 12
    assert json.loads((grown / "result.smoke.json").read_text()) == small  # the smaller tier's result, set aside
    assert (grown / "result.smoke.md").exists()
    for name, rung in result["rungs"].items():
        lines = (grown / f"{name}.jsonl").read_text()
        assert lines.startswith(kept[name]) and lines.count("\n") == 48  # the 32 games kept, 16 played
        assert rung["per_deal_margin"][:8] == small["rungs"][name]["per_deal_margin"]
    assert [(s.get("tier"), s["status"], s["played_before"]) for s in result["sittings"]] == \
        [("smoke", "finished", {"random": 0, "greedy": 0}), ("smoke12", "finished", {"random": 32, "greedy": 32})]
    assert verify_run(grown, leaderboard=True)["deals"] == 12


def test_compare_pairs_deal_for_deal_and_refuses_other_suites(smoke_run):
    _, result = smoke_run
    other = run_benchmark("greedy", tier="smoke", rungs=["random", "greedy"], **FAST)
    c = compare(result, other)
    expected = np.subtract(result["rungs"]["greedy"]["per_deal_margin"], other["rungs"]["greedy"]["per_deal_margin"])
    assert c["rungs"]["greedy"]["mean"] == pytest.approx(expected.mean())
    assert compare(result, result)["ladder"]["mean"] == 0.0
    assert "A = heuristic, B = greedy" in format_compare(c)
    with pytest.raises(IncomparableResults, match="differ in format"):
        compare(result, {**other, "format": "mixed"})
    with pytest.raises(IncomparableResults, match="different opponents"):
        compare(result, {**other, "rungs": {"random": other["rungs"]["random"]}})
    with pytest.raises(IncomparableResults, match="B is not a result"):
        compare(result, {"hello": 1})


# --- the command, as a user runs it --------------------------------------------------------------------------

def test_the_command_prints_the_table_and_compares(smoke_run, tmp_path, capsys):
    out, _ = smoke_run
    assert main(["benchmark", "random", "--tier", "smoke", "--opponents", "greedy", "--jobs", "1",
                 "--isolation", "none", "--out", str(tmp_path / "r")]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("# hearts-bench v1 (smoke): `random`") and "| greedy |" in printed
    assert main(["benchmark", "compare", str(out / "result.json"), str(tmp_path / "r" / "result.json")]) == 2
    assert "differ in" not in capsys.readouterr().out  # refused: other opponents
    assert main(["benchmark", "compare", str(out / "result.json"), str(out / "result.json")]) == 0
    assert "| ladder | +0.00" in capsys.readouterr().out
    (tmp_path / "broken.json").write_text('{"suite": "v1",\n "tier": }')
    assert main(["benchmark", "compare", str(out / "result.json"), str(tmp_path / "broken.json")]) == 2
    assert "line 2" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:  # compare's own parser: two files
        main(["benchmark", "compare", str(out / "result.json")])
    assert e.value.code == 2 and "RESULT.json" in capsys.readouterr().err
    assert main(["benchmark", "heuristic", "greedy"]) == 2
    assert "one agent spec at a time" in capsys.readouterr().err
    assert main(["benchmark", "heuristic", "--tier", "huge"]) == 2
    assert "no tier 'huge'" in capsys.readouterr().err


def test_the_help_states_the_suite_s_tiers_presets_and_ladder(capsys):
    with pytest.raises(SystemExit):
        main(["benchmark", "--help"])
    printed = " ".join(capsys.readouterr().out.split())  # argparse wraps lines
    v1 = get_suite("v1")
    assert all(f"{tier} {deals:,}" in printed for tier, deals in v1.tiers.items())
    assert ", ".join(v1.presets) in printed and ", ".join(r.name for r in v1.ladder) in printed


class Crasher(Agent):
    def act(self, view):
        if view.trick_index == 3:
            raise RuntimeError("boom")
        return min(iter_cards(view.legal))


def test_an_agent_that_crashes_gets_a_recorded_result_and_a_failing_exit(monkeypatch, tmp_path, capsys):
    monkeypatch.syspath_prepend(str(HERE))
    spec = "test_benchmark:Crasher"
    code = main(["benchmark", spec, "--tier", "smoke", "--opponents", "greedy", "--jobs", "1", "--isolation", "none",
                 "--out", str(tmp_path / "c")])
    assert code == 3 and "ended by an error" in capsys.readouterr().err
    result = json.loads((tmp_path / "c" / "result.json").read_text())
    rung = result["rungs"]["greedy"]
    assert rung["errors"] == {"exception": 32}
    assert rung["agent_points"] == 26.0 and rung["margin"]["mean"] < -20  # a forfeit every game, never a zero
    assert main(["benchmark", spec, "--tier", "smoke", "--opponents", "greedy", "--jobs", "1", "--isolation", "none",
                 "--out", str(tmp_path / "c"), "--resume", "--allow-errors"]) == 0


def test_a_result_names_the_weights_behind_the_spec_and_resume_refuses_other_weights(tmp_path):
    """Two builds of one spec (``qlearning`` with a retrained table) are told apart by the weights' SHA-256,
    in the result, the table and compare; a resumed run whose weights changed would mix two agents."""
    import hashlib

    from hearts_baselines.qlearning.agent import BUNDLED
    from hearts_env.evaluation.benchmark.verify import verify_run

    table = tmp_path / "q.json"
    table.write_text(BUNDLED.read_text())
    spec = f"qlearning(weights={str(table)!r})"
    result = run_benchmark(spec, tier="smoke", rungs=["random"], out=tmp_path / "run", **FAST)
    assert result["agent_weights"] == {"file": "q.json", "sha256": hashlib.sha256(table.read_bytes()).hexdigest()}
    assert f"Agent weights: q.json, SHA-256 {result['agent_weights']['sha256'][:16]}" in markdown(result)
    assert run_benchmark("random", tier="smoke", rungs=["random"], **FAST)["agent_weights"] is None

    doc = json.loads(table.read_text())
    doc["q"][0][0] += 1.0  # retrained
    table.write_text(json.dumps(doc))
    with pytest.raises(ValueError, match="agent_weights_sha256"):
        run_benchmark(spec, tier="smoke", rungs=["random"], out=tmp_path / "run", resume=True, **FAST)
    other = run_benchmark(spec, tier="smoke", rungs=["random"], **FAST)
    c = compare(result, other)
    named = "qlearning(weights='q.json')"  # the file by its name and SHA-256, not by its path on this machine
    assert result["agent"] == named and str(tmp_path) not in json.dumps(result)
    assert verify_run(tmp_path / "run")["agent"] == named  # its records seat the spec as given, with the path
    assert c["a"] != c["b"] and c["a"].startswith(named) and result["agent_weights"]["sha256"][:12] in c["a"]


@pytest.mark.parametrize("name", ["apprentice", "culhane", "dutchnn", "qlearning", "subagents", "tdlambda", "ppo",
                                  "dqn"])
def test_every_bundled_learned_agent_names_its_weights_file(name):
    from hearts_env.agents import make_agent

    if name in ("culhane", "ppo", "dqn"):
        pytest.importorskip("torch")
    if name in ("ppo", "dqn"):
        pytest.importorskip("sb3_contrib")
    path = make_agent(name).weights_file
    assert path is not None and path.is_file() and path.parent.name == "weights"


# --- held-out deals: what a run on the suite's public deals cannot prove ---------------------------------------

class Peeker(Agent):
    """Re-deals the cards from the seed the arena resets it with, and counts the deals it knew in advance
    (class state: for in-process runs only)."""

    knew: ClassVar[list[int]] = [0, 0]  # deals whose hands it knew before its first move, deals played

    def reset(self, rules, seat, seed=None):
        super().reset(rules, seat, seed)
        self.guess = episode_match(rules, seed[0], seed[1]).deal.dealt[seat] if isinstance(seed, list) else None
        self.counted = False

    def act(self, view):
        if not self.counted:
            self.counted = True
            Peeker.knew[0] += self.guess == view.dealt
            Peeker.knew[1] += 1
        return min(iter_cards(view.legal))


class Looker(Agent):
    """Looks its dealt hand up among the suite's published deals (those of the smoke tier here; an attacker
    would index all 2,800)."""

    found: ClassVar[list[int]] = [0, 0]

    def reset(self, rules, seat, seed=None):
        super().reset(rules, seat, seed)
        suite = get_suite("v1")
        self.public = {hand for k in range(suite.deals("smoke"))
                       for hand in episode_match(rules, suite.seed("standard"), k).deal.dealt}
        self.counted = False

    def act(self, view):
        if not self.counted:
            self.counted = True
            Looker.found[0] += view.dealt in self.public
            Looker.found[1] += 1
        return min(iter_cards(view.legal))


@pytest.mark.parametrize("cheat", [Peeker, Looker])
def test_held_out_deals_are_unknown_to_an_agent_that_knows_the_suite_s(cheat, monkeypatch):
    monkeypatch.syspath_prepend(str(HERE))
    counter = getattr(importlib.import_module("test_benchmark"), cheat.__name__)  # the module the spec loads
    counts = counter.knew if cheat is Peeker else counter.found
    counts[:] = [0, 0]
    run_benchmark(f"test_benchmark:{cheat.__name__}", tier="smoke", rungs=["random"], **FAST)
    assert counts == [32, 32]  # the public deals: every hand known before the first move
    counts[:] = [0, 0]
    run_benchmark(f"test_benchmark:{cheat.__name__}", tier="smoke", rungs=["random"], holdout=draw_holdout(), **FAST)
    assert counts == [0, 8 * ONCE_GAMES_PER_DEAL]


class Rememberer(Agent):
    """Memory across every game of the run, the strongest channel there can be (class state, every game in one
    process; on a shared machine the page cache or a lock is a narrower one): at the end of each deal it keeps every
    hand it knows as dealt — its own, and every seat's when nobody passed — and at the start of each game it looks its
    dealt hand up among them. A hit would tell it every hand of the deal."""

    memory: ClassVar[set[int]] = set()
    hits: ClassVar[list[int]] = [0, 0]  # games whose deal it had seen, games played

    def reset(self, rules, seat, seed=None):
        super().reset(rules, seat, seed)
        self.looked = False

    def act(self, view):
        if not self.looked:
            self.looked = True
            Rememberer.hits[0] += view.dealt in Rememberer.memory
            Rememberer.hits[1] += 1
        return min(iter_cards(view.legal))

    def end_deal(self, view):
        Rememberer.memory.add(view.dealt)
        if not view.passed:  # a deal without passing: each seat played what it was dealt
            Rememberer.memory.update(view.played_by)


def test_a_held_out_run_shows_the_agent_every_deal_once_so_memory_across_games_finds_nothing(monkeypatch, tmp_path):
    """The attack the solo format invites: remember each finished deal, recognise it later (another rotation, another
    rung) and play it knowing every hand. On the suite's deals the agent meets each deal 8 times in two rungs: it
    recognises every game of the second rung, and the later rotations of the deals nobody passes in; in a held-out
    run, every game of every rung is a new deal, so the memory never hits."""
    monkeypatch.syspath_prepend(str(HERE))
    spy = importlib.import_module("test_benchmark").Rememberer  # the class the spec loads
    spy.memory.clear()
    spy.hits[:] = [0, 0]
    run_benchmark("test_benchmark:Rememberer", tier="smoke", rungs=["random", "greedy"], **FAST)
    assert spy.hits == [32 + 2 * 3, 64]  # 8 deals x 4 rotations x 2 rungs: the second rung's 32, 3 rotations of 2 holds
    spy.memory.clear()
    spy.hits[:] = [0, 0]
    run = run_benchmark("test_benchmark:Rememberer", tier="smoke", rungs=["random", "greedy"], holdout=draw_holdout(),
                        out=tmp_path / "h", **FAST)
    games = 2 * 8 * ONCE_GAMES_PER_DEAL
    assert spy.hits == [0, games] and run["format"] == "once" and run["deals"] == games // 2
    dealt = [tuple(json.loads(line)["deals"][0]["hands"]) for rung in ("random", "greedy")
             for line in (tmp_path / "h" / f"{rung}.jsonl").read_text().splitlines()]
    assert len(dealt) == len(set(dealt)) == games  # no deal twice, across rungs too
    for format in ("solo", "mixed"):
        with pytest.raises(ValueError, match="held-out run plays format 'once'"):
            run_benchmark("heuristic", tier="smoke", rungs=["random"], holdout=7, format=format, **FAST)
    with pytest.raises(ValueError, match="format 'once' is the held-out runs' format"):
        run_benchmark("heuristic", tier="smoke", rungs=["random"], format="once", **FAST)


def test_the_once_format_cycles_the_agent_s_seat_and_the_pass_direction():
    games = format_games("once", 32)
    assert [d for d, _ in games] == list(range(32))
    pairs = [(seatings(2)[s].index(0), d % 4) for d, s in games]  # the agent's seat, the deal's pass direction
    assert sorted(pairs[:16]) == [(seat, direction) for seat in range(4) for direction in range(4)]
    assert pairs[16:] == pairs[:16]
    assert format_deals("once", 200) == 200 * ONCE_GAMES_PER_DEAL and format_deals("solo", 200) == 200


def test_a_held_out_run_is_reproducible_from_its_secret(smoke_run, tmp_path):
    _, suite_run = smoke_run
    secret = 2**63 + 12345
    run = run_benchmark("heuristic", tier="smoke", rungs=["random", "greedy"], holdout=secret, out=tmp_path / "h",
                        **FAST)
    deal_seed, agent_seed = holdout_seeds(secret)
    assert run["deal_set"] == "holdout" and run["holdout"] == secret and run["seed"] == deal_seed != agent_seed
    assert suite_run["deal_set"] == "suite" and "holdout" not in suite_run
    records = [json.loads(line) for line in (tmp_path / "h" / "random.jsonl").read_text().splitlines()]
    rung_seed = rung_deals_seed(secret, "random")
    assert {r["agent_seed"] for r in records} == {agent_seed} and {r["seed"] for r in records} == {rung_seed}
    assert len({deal_seed, agent_seed, rung_seed, rung_deals_seed(secret, "greedy")}) == 4
    public = {tuple(episode_match(make_rules("standard"), get_suite("v1").seed("standard"), k).deal.dealt)
              for k in range(8)}
    assert not public & {tuple(r["deals"][0]["hands"]) for r in records}
    again = run_benchmark("heuristic", tier="smoke", rungs=["random", "greedy"], holdout=secret, **FAST)
    assert [r["per_deal_margin"] for r in again["rungs"].values()] == \
        [r["per_deal_margin"] for r in run["rungs"].values()]
    with pytest.raises(ValueError, match="not a leaderboard row"):  # the agent ran in the dealer's processes
        leaderboard_row(run)
    text = markdown(run)
    assert "held-out deals" in text.splitlines()[0] and "Not a leaderboard row" in text and "```" not in text
    assert "ranked row" in markdown({**run, "isolation": "process", "tier": "quick"})
    with pytest.raises(ValueError, match="holdout"):  # resuming it as a run on the suite's deals
        run_benchmark("heuristic", tier="smoke", rungs=["random", "greedy"], out=tmp_path / "h", resume=True, **FAST)
    for bad in (-1, True, 1.5):
        with pytest.raises(ValueError, match="holdout must be an integer"):
            run_benchmark("heuristic", tier="smoke", rungs=["random"], holdout=bad, **FAST)


def test_compare_pairs_on_the_same_deals_and_compares_unpaired_otherwise(smoke_run):
    _, suite_run = smoke_run
    held_out = run_benchmark("heuristic", tier="smoke", rungs=["random", "greedy"], holdout=7, **FAST)
    c = compare(suite_run, held_out)
    assert c["paired"] is False
    assert c["deals"] == ["smoke (8 deals)", f"smoke ({8 * ONCE_GAMES_PER_DEAL} held-out deals)"]
    assert c["format"] == "solo / once"
    a, b = (np.array(r["rungs"]["random"]["per_deal_margin"]) for r in (suite_run, held_out))
    assert c["rungs"]["random"] == unpaired(a, b)
    assert "unpaired" in format_compare(c) and "Welch t p" in format_compare(c)
    assert compare(suite_run, suite_run)["paired"] is True


def test_two_tiers_pair_on_the_deals_both_played():
    small = run_benchmark("heuristic", tier="smoke", rungs=["random"], **FAST)
    large = run_benchmark("heuristic", tier="quick", rungs=["random"], **FAST)
    c = compare(large, small)  # deal k is the same deal in every tier: the smoke tier's 8 are the first 8
    assert c["paired"] is True and c["ladder"]["deals"] == 8 and c["ladder"]["mean"] == 0.0
    assert large["rungs"]["random"]["per_deal_margin"][:8] == small["rungs"]["random"]["per_deal_margin"]
    assert "on the 8 deals both played" in format_compare(c)


def test_unpaired_is_welch_s_interval_and_test_on_known_data():
    from scipy.stats import t

    a, b = np.array([1.0, 2.0, 3.0, 4.0]), np.array([0.0, 0.0, 1.0, 1.0, 0.5])
    figure = unpaired(a, b)
    va, vb = a.var(ddof=1) / 4, b.var(ddof=1) / 5
    df = (va + vb) ** 2 / (va**2 / 3 + vb**2 / 4)
    half = t.ppf(0.975, df) * np.sqrt(va + vb)
    assert figure["mean"] == pytest.approx(2.5 - 0.5) and figure["deals"] == [4, 5]
    assert figure["ci95"] == pytest.approx([2.0 - half, 2.0 + half])
    assert figure["welch_p"] == pytest.approx(2 * t.sf(2.0 / np.sqrt(va + vb), df))
    assert unpaired(np.zeros(3), np.zeros(5)) == {"mean": 0.0, "ci95": [0.0, 0.0], "welch_p": 1.0, "deals": [3, 5]}
    assert unpaired(np.ones(3), np.zeros(5))["welch_p"] == 0.0
    assert unpaired(np.ones(1), np.zeros(5))["ci95"] is None


def test_the_command_draws_a_secret_and_resume_keeps_it(tmp_path, capsys):
    argv = ["benchmark", "random", "--tier", "smoke", "--opponents", "greedy", "--jobs", "1", "--isolation", "none",
            "--out", str(tmp_path / "h"), "--holdout"]
    assert main(argv) == 0
    result = json.loads((tmp_path / "h" / "result.json").read_text())
    assert f"secret {result['holdout']}" in capsys.readouterr().err
    (tmp_path / "h" / "greedy.jsonl").write_text("".join((tmp_path / "h" / "greedy.jsonl").read_text()
                                                         .splitlines(keepends=True)[:-3]))
    assert main([*argv, "--resume"]) == 0  # the secret read back from the run's folder
    resumed = json.loads((tmp_path / "h" / "result.json").read_text())
    assert resumed["holdout"] == result["holdout"]
    assert resumed["rungs"]["greedy"]["per_deal_margin"] == result["rungs"]["greedy"]["per_deal_margin"]
    assert main(["benchmark", "random", "--tier", "smoke", "--opponents", "greedy", "--jobs", "1", "--isolation",
                 "none", "--out", str(tmp_path / "s")]) == 0
    assert main(["benchmark", "random", "--tier", "smoke", "--opponents", "greedy", "--jobs", "1", "--isolation",
                 "none", "--out", str(tmp_path / "s"), "--resume", "--holdout"]) == 2
    assert "not held-out ones" in capsys.readouterr().err


def test_a_registered_agent_s_stated_weights_are_checked_against_the_file_its_package_ships():
    """A seated program states its weights' name and checksum; for a registered agent playing its bundled weights the
    dealer hashes the file the agent's package ships (found from its entry point, not imported) and refuses a statement
    that matches none. Specs with weights of their own, programs of any other kind and odd names are not checked."""
    package, (path,) = shipped_files("apprentice", "apprentice.npz")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    assert package == "hearts_baselines"
    assert check_shipped("apprentice", {"file": "apprentice.npz", "sha256": digest}) == "hearts_baselines"
    assert check_shipped("hosted:apprentice", {"file": "apprentice.npz", "sha256": digest}) == "hearts_baselines"
    with pytest.raises(ValueError, match=rf"states its weights are apprentice.npz .* not the apprentice.npz "
                                         rf"hearts_baselines ships \(SHA-256 {digest[:16]}"):
        check_shipped("apprentice", {"file": "apprentice.npz", "sha256": "0" * 64})
    for spec, name in [("apprentice(weights='mine.npz')", "apprentice.npz"), ("seat:./bot", "apprentice.npz"),
                       ("heuristic", "apprentice.npz"), ("apprentice", "../weights/apprentice.npz"),
                       ("apprentice", "nosuch.npz"), ("nosuchagent", "apprentice.npz")]:
        assert check_shipped(spec, {"file": name, "sha256": "0" * 64}) is None, spec
