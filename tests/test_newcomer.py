"""A newcomer's mistakes (issue 38), each as a test: every bad argument, path and file is refused in one line
naming it, before any work starts, and every output is what it claims (strict JSON, no NaN)."""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from hearts_env import __version__, hearts_v0
from hearts_env.agents import Agent
from hearts_env.cli import main
from hearts_env.rules import RulesError, make_rules
from hearts_env.single_agent import HeartsEnv

AGENTS = '''from hearts_env.agents import Agent


class LowAgent(Agent):
    def act(self, view):
        return min(c for c in range(52) if view.legal >> c & 1)
'''


def _cli(*args: str, cwd: Path | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    """The installed command, as a newcomer types it (no PYTHONPATH)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run([sys.executable, "-m", "hearts_env.cli", *args], capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=timeout)


def _one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    return lines[0]


def test_the_version_is_one_flag_away(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0 and capsys.readouterr().out.strip() == f"hearts-env {__version__}"


def test_an_agent_in_the_folder_the_command_runs_in_plays_without_pythonpath(tmp_path):
    (tmp_path / "myagents.py").write_text(AGENTS)
    run = _cli("arena", "myagents:LowAgent", "greedy", "--deals", "2", "--jobs", "1", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "myagents:LowAgent" in run.stdout


def test_an_agent_without_act_is_told_what_is_missing():
    class NoAct(Agent):
        pass

    with pytest.raises(NotImplementedError, match="NoAct does not implement act"):
        NoAct().act(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("argv, wrong", [
    (["arena", "random", "greedy", "--seed", "-3"], "--seed: expected an integer >= 0, got '-3'"),
    (["arena", "random", "greedy", "--jobs", "0"], "--jobs: expected an integer >= 1, got '0'"),
    (["arena", "random", "greedy", "--deals", "0"], "--deals: expected an integer >= 1"),
    (["benchmark", "heuristic", "--jobs", "0"], "--jobs: expected an integer >= 1, got '0'"),
    (["benchmark", "heuristic", "--move-time-limit", "nan"], "--move-time-limit: expected a number >= 0.001"),
    (["play", "--seed", "-3"], "--seed: expected an integer >= 0"),
    (["serve", "--port", "99999"], "--port: a port is 0-65535"),
    (["exploit", "greedy", "--train", "--minutes", "-1"], "--minutes: expected a number >= 0.01"),
    (["replay", "x.jsonl", "--deal", "-1"], "--deal: expected an integer >= 0"),
])
def test_bad_numbers_are_refused_before_any_work(argv, wrong, capsys):
    with pytest.raises(SystemExit) as e:
        main(argv)
    err = capsys.readouterr().err
    assert e.value.code == 2 and wrong in err.splitlines()[-1]


def test_output_folders_are_made_and_bad_output_paths_named(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["arena", "random", "greedy", "--deals", "1", "--jobs", "1", "--out", "runs/a/games.jsonl"]) == 0
    assert (tmp_path / "runs" / "a" / "games.jsonl").stat().st_size > 0
    capsys.readouterr()
    (tmp_path / "folder.jsonl").mkdir()
    assert main(["arena", "random", "greedy", "--deals", "1", "--out", "folder.jsonl"]) == 2
    assert "folder.jsonl is a folder" in _one_line(capsys.readouterr().err)
    assert main(["arena", "random", "greedy", "--deals", "1", "--out", "/proc/nowhere/games.jsonl"]) == 2
    assert "/proc/nowhere" in _one_line(capsys.readouterr().err)


@pytest.mark.skipif(importlib.util.find_spec("ray") is not None,
                    reason="Ray is installed here, so --backend ray runs instead of being refused (tests/ray_tests)")
def test_the_ray_backend_without_ray_says_how_to_install_before_any_work(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    for argv in (["benchmark", "random", "--tier", "smoke", "--backend", "ray", "--out", "run"],
                 ["exploit", "greedy", "--backend", "ray", "--out", "run"],
                 ["arena", "random", "--deals", "1", "--backend", "ray", "--out", "run/games.jsonl"]):
        assert main(argv) == 2
        assert "backend='ray' needs Ray: pip install 'hearts-env[ray]'" in _one_line(capsys.readouterr().err)
    assert not (tmp_path / "run").exists()


def test_a_binary_file_is_named_and_never_cut(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    data = bytes(range(256)) * 4
    (tmp_path / "bin.jsonl").write_bytes(data)
    for argv in (["replay", "bin.jsonl", "--deal", "0"], ["benchmark", "compare", "bin.jsonl", "bin.jsonl"],
                 ["arena", "random", "greedy", "--deals", "1", "--out", "bin.jsonl", "--resume"]):
        assert main(argv) == 2
        assert "bin.jsonl is not a text file" in _one_line(capsys.readouterr().err)
    assert (tmp_path / "bin.jsonl").read_bytes() == data


def test_the_benchmarks_tools_have_their_own_help(capsys):
    for tool, usage in (("compare", "RESULT.json RESULT.json"), ("verify", "[--leaderboard]"),
                        ("pack", "PATH PATH")):
        with pytest.raises(SystemExit):
            main(["benchmark", tool, "--help"])
        out = capsys.readouterr().out
        assert out.startswith(f"usage: hearts-env benchmark {tool}") and usage in out and "--tier" not in out


def test_a_one_deal_arena_writes_strict_json_and_no_nan(capsys):
    assert main(["arena", "random", "greedy", "--deals", "1", "--jobs", "1", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out, parse_constant=lambda c: pytest.fail(f"{c} in the JSON"))
    assert all(a["ci95"] is None for a in summary["agents"].values())
    assert main(["arena", "random", "greedy", "--deals", "3", "--jobs", "1"]) == 0
    assert "nan" not in capsys.readouterr().out.lower()


def test_play_refuses_an_opponent_that_cannot_play_the_rules_in_one_line(capsys):
    assert main(["play", "--rules", "dutch", "--opponents", "apprentice", "heuristic", "heuristic"]) == 2
    assert "apprentice" in _one_line(capsys.readouterr().err)


def test_serve_refuses_what_it_cannot_serve_before_saying_where_it_serves(capsys):
    pytest.importorskip("uvicorn")
    assert main(["serve", "--agent", "nosuch"]) == 2
    assert "--agent nosuch: unknown agent 'nosuch'" in _one_line(capsys.readouterr().err)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    out, err = capsys.readouterr()
    assert "http://" not in out and f"cannot listen on 127.0.0.1:{port}" in _one_line(err)


def test_a_rule_given_twice_is_refused():
    with pytest.raises(RulesError, match="'target' is given twice"):
        make_rules("standard(target=50, target=60)")


def test_the_envs_name_a_bad_seed_and_a_step_before_reset():
    with pytest.raises(ValueError, match=r"reset\(seed=...\) takes an integer >= 0 or None, got -1"):
        hearts_v0.env().reset(seed=-1)
    with pytest.raises(ValueError, match=r"reset\(seed=...\) takes an integer >= 0 or None, got -1"):
        HeartsEnv().reset(seed=-1)
    with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
        hearts_v0.raw_env().step(0)


def test_serve_says_its_address_once_it_listens_and_answers_there():
    pytest.importorskip("uvicorn")
    import urllib.request

    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    server = subprocess.Popen([sys.executable, "-m", "hearts_env.cli", "serve", "--port", "0"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()  # said after the port is bound: the page answers at once
        url = line.split()[2]
        assert line.startswith("hearts-env serve: http://127.0.0.1:") and url.endswith("/")
        with urllib.request.urlopen(url, timeout=30) as page:
            assert page.status == 200 and b"<html" in page.read().lower()
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_a_resumed_runs_seconds_count_every_sitting_that_ended():
    from hearts_env.evaluation.benchmark.runner import _earlier_seconds

    sittings = [{"began": "2026-11-27T10:00:00Z", "ended": "2026-11-27T10:05:30Z", "status": "stopped"},
                {"began": "2026-11-27T11:00:00Z", "ended": None, "status": "died with its dealer"},
                {"began": "2026-11-27T12:00:00Z", "ended": "2026-11-27T12:00:10Z", "status": "stopped"}]
    assert _earlier_seconds(sittings) == 340.0


START = Path(__file__).parents[1] / "docs" / "start.md"


def _page_commands() -> list[str]:
    return [line.split("#")[0].strip() for line in START.read_text().splitlines() if line.startswith("hearts-env ")]


def test_the_first_hour_page_works_step_by_step_from_the_agents_own_folder(tmp_path):
    """docs/start.md as a newcomer follows it: the agent file as printed, then its commands as printed (the quick
    tier's, minutes long, is the smoke one with another tier), and verify on what the benchmark wrote."""
    text = START.read_text()
    agent = text.split("```python\n")[2].split("```")[0]
    assert "class LowestCard(Agent)" in agent
    (tmp_path / "myagents.py").write_text(agent)
    commands = _page_commands()
    arena = next(c for c in commands if c.startswith("hearts-env arena myagents:LowestCard heuristic"))
    smoke = next(c for c in commands if "--tier smoke" in c)
    for command in (arena, smoke):
        run = _cli(*command.split()[1:], cwd=tmp_path, timeout=600)
        assert run.returncode == 0, (command, run.stderr[-2000:])
    assert "myagents:LowestCard" in (tmp_path / "runs" / "bench-mine" / "result.md").read_text()
    run = _cli("benchmark", "verify", "runs/bench-mine", cwd=tmp_path)
    assert run.returncode == 0 and "verified" in run.stdout, run.stderr


@pytest.mark.parametrize("run", ["benchmark", "probes"])
def test_a_bad_worker_count_is_refused_before_anything_is_played(run, capsys):
    from hearts_env.evaluation.benchmark import run_benchmark
    from hearts_env.evaluation.exploit.track import run_probes

    with pytest.raises(ValueError, match="jobs must be a positive integer"):
        (run_benchmark if run == "benchmark" else run_probes)("heuristic", tier="smoke", jobs=0, progress=True)
    assert capsys.readouterr().err == ""  # no progress printed first


def test_the_engines_old_phase_names_still_work_and_say_what_replaces_them():
    import hearts_env.engine as engine
    from hearts_env import Phase

    with pytest.warns(DeprecationWarning, match="use hearts_env.Phase.PLAY"):
        assert engine.PHASE_PLAY is Phase.PLAY
    with pytest.raises(AttributeError):
        engine.PHASE_NONE  # noqa: B018


def test_every_env_names_the_end_of_an_episode_by_an_illegal_action_terminate():
    """One name in the three envs; the Gymnasium envs' old name still works for a release, with a warning."""
    from hearts_env.vector.env import HeartsVectorEnv

    assert HeartsEnv().illegal_action == "terminate" == hearts_v0.raw_env().illegal_action
    with pytest.warns(DeprecationWarning, match='named "terminate" in every env'):
        assert HeartsEnv(illegal_action="penalty").illegal_action == "terminate"
    assert HeartsVectorEnv(num_envs=2, illegal_action="terminate").illegal_action == "terminate"
    with pytest.raises(ValueError, match="valid values: terminate, raise"):
        HeartsVectorEnv(num_envs=2, illegal_action="skip")


def test_public_constructors_name_a_bad_seed_or_limit():
    from hearts_env.evaluation.seat import Sandbox
    from hearts_env.match import Match

    with pytest.raises(ValueError, match=r"Match\(seed=...\) takes an integer >= 0 or None, got -1"):
        Match("standard", seed=-1)
    for name in ("memory_bytes", "cpu_seconds"):
        with pytest.raises(ValueError, match=f"Sandbox {name} must be an integer >= 1"):
            Sandbox(**{name: 0})


def test_a_run_that_a_command_is_writing_is_refused_to_a_second_and_a_killed_one_holds_nothing(tmp_path):
    """Issue 63: a second ``--resume`` into a run still playing recorded its games twice (a result that then failed
    ``verify``). Each output is held while a command writes it: a second command is refused in one line naming it;
    a command killed outright (a crash, ``kill -9``) holds nothing, so the run resumes."""
    from hearts_env.evaluation.arena.owner import owning

    run, games = tmp_path / "runs" / "bench-mine", tmp_path / "games.jsonl"
    bench = ("benchmark", "greedy", "--tier", "smoke", "--opponents", "random", "--jobs", "1", "--out", str(run))
    with owning(run, folder=True), owning(games):  # this test's process is the command still writing them
        second = _cli(*bench)
        assert second.returncode == 2 and "is being written by another command" in _one_line(second.stderr)
        assert str(run) in second.stderr and not (run / "manifest.json").exists()
        arena = _cli("arena", "greedy", "random", "--deals", "1", "--out", str(games), "--resume")
        assert arena.returncode == 2 and "is being written by another command" in _one_line(arena.stderr)
        assert str(games) in arena.stderr and games.read_text() == ""
    holder = subprocess.Popen([sys.executable, "-c", "import sys, time\nfrom pathlib import Path\n"
                               "from hearts_env.evaluation.arena.owner import owning\n"
                               "with owning(Path(sys.argv[1]), folder=True):\n    print('held', flush=True)\n"
                               "    time.sleep(300)\n", str(run)], stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    holder.kill()
    holder.wait()
    first = _cli(*bench)
    assert first.returncode == 0, first.stderr
    assert _cli("benchmark", "verify", str(run)).returncode == 0


def test_verify_names_a_records_file_cut_mid_line(tmp_path):
    """A copy cut short (or a run killed while it wrote) is named as cut, with the line, in one line: no traceback."""
    run = tmp_path / "run"
    made = _cli("benchmark", "greedy", "--tier", "smoke", "--opponents", "random", "--jobs", "1", "--isolation",
                "seating", "--out", str(run))
    assert made.returncode == 0, made.stderr
    records = run / "random.jsonl"
    data = records.read_bytes()
    records.write_bytes(data[:data.index(b"\n", len(data) // 2) + 20])  # 20 bytes into a line (not at its end)
    cut = _cli("benchmark", "verify", str(run))
    line = _one_line(cut.stderr)
    assert cut.returncode == 1 and f"{records} ends in the middle of line" in line and "was cut" in line


def test_the_slow_path_says_so_once_with_the_command_that_fixes_it(tmp_path):
    """Issue 63: after the core install (no Numba) pimc took 0.31 s a move instead of 0.004 s, with no word. The first
    fallback of a process warns once, naming the extra that compiles the batched engine; later ones are silent."""
    program = ("import sys\nsys.modules['numba'] = None  # the core install: no Numba\n"
               "from hearts_env import Deal, make_rules\nfrom hearts_env.agents import make_agent\n"
               "from hearts_env.views import SeatView\n"
               "rules = make_rules('standard(game=deal)')\nagent = make_agent('pimc(n=8)')\n"
               "for seed in range(2):\n    deal = Deal.random(rules, seed=seed, pass_direction='hold')\n"
               "    agent.reset(rules, deal.current, seed=[seed])\n    agent.act(SeatView.of(deal, deal.current))\n")
    run = subprocess.run([sys.executable, "-W", "default", "-c", program], capture_output=True, text=True,
                         cwd=tmp_path, timeout=300)
    assert run.returncode == 0, run.stderr
    warned = [line for line in run.stderr.splitlines() if "SlowPathWarning" in line]
    assert len(warned) == 1 and "pip install 'hearts-env[search]'" in warned[0], run.stderr


CONFIGURED = '''import json

from hearts_env.agents import Agent


class Configured(Agent):
    def __init__(self):
        super().__init__()
        with open("config.json") as f:  # relative: the folder the command ran in
            self.highest = json.load(f)["highest"]

    def act(self, view):
        cards = [c for c in range(52) if view.legal >> c & 1]
        return max(cards) if self.highest else min(cards)
'''


def test_relative_paths_mean_the_folder_the_command_ran_in_in_the_benchmark_too(tmp_path):
    """Issue 63: ``apprentice(weights='policy.npz')`` (examples/jax_ppo.py's output) and an agent reading
    ``config.json`` worked in the arena and failed in the benchmark, whose program started in an empty folder. The
    program starts in the command's folder (read-only; its run folder still covered)."""
    from hearts_baselines.apprentice.agent import BUNDLED

    (tmp_path / "myagents.py").write_text(CONFIGURED)
    (tmp_path / "config.json").write_text('{"highest": false}')
    (tmp_path / "policy.npz").write_bytes(BUNDLED.read_bytes())
    for spec in ("myagents:Configured", "apprentice(weights='policy.npz')"):
        run = _cli("benchmark", spec, "--tier", "smoke", "--opponents", "random", "--jobs", "1", "--out",
                   f"runs/{spec[:5]}", cwd=tmp_path)
        assert run.returncode == 0, run.stderr
        result = json.loads((tmp_path / "runs" / spec[:5] / "result.json").read_text())
        assert result["rungs"]["random"]["errors"] == {}
    assert result["agent_weights"]["file"] == "policy.npz"


BROKEN_MODULES = {
    "badimport": ('raise RuntimeError("boom at import")\n', "importing module 'badimport' raised RuntimeError: boom at "
                                                            "import", "badimport.py, line 1"),
    "badsyntax": ("def f(:\n    pass\n", "importing module 'badsyntax' raised SyntaxError", "badsyntax.py, line 1"),
    "notagent": ("class X:\n    def act(self, view):\n        return 0\n", "built a X, which lacks reset, end_deal: "
                                                                          "subclass hearts_env.agents.Agent", ""),
}


@pytest.mark.parametrize("command", ["arena", "benchmark"])
@pytest.mark.parametrize("module", sorted(BROKEN_MODULES))
def test_an_agent_module_that_fails_to_load_is_one_line_naming_where_in_the_arena_and_the_benchmark(
        module, command, tmp_path):
    """Issue 63: the arena printed 30–37-line tracebacks for a module that raises at import or has a syntax error,
    and blamed memory for a class that is not an Agent. Both commands say it in one line, naming the file and line."""
    source, said, where = BROKEN_MODULES[module]
    (tmp_path / f"{module}.py").write_text(source)
    args = ["arena", f"{module}:X", "greedy", "--deals", "1", "--jobs", "1"] if command == "arena" else \
        ["benchmark", f"{module}:X", "--tier", "smoke", "--opponents", "random", "--jobs", "1", "--out", "runs/b"]
    run = _cli(*args, cwd=tmp_path)
    line = _one_line(run.stderr)
    assert run.returncode == 2 and said in line and where in line, line


RAISER = '''from hearts_env.agents.basic import HeuristicAgent


class Raiser(HeuristicAgent):
    def act(self, view):
        if view.trick_index == 3 and self.rng.random() < 0.5:
            raise ValueError("my agent broke | `here`")
        return super().act(view)
'''


def test_an_agent_s_errors_are_said_with_their_first_message_on_the_terminal_and_in_the_result(tmp_path):
    """Issue 63: an agent that raised in 16 of 32 games showed "16 exception" and exit 3; what it raised was only in
    the records. The command's last line and result.md give the first game of each kind and what it said (the agent's
    text shown as text: no table cell or code span)."""
    (tmp_path / "raiser.py").write_text(RAISER)
    run = _cli("benchmark", "raiser:Raiser", "--tier", "smoke", "--opponents", "random", "--jobs", "1", "--out",
               "runs/r", cwd=tmp_path)
    assert run.returncode == 3
    last = run.stderr.strip().splitlines()[-1]
    assert "game(s) ended by an error of raiser:Raiser" in last and "the first: deal " in last
    assert "ValueError: my agent broke \\| 'here'" in last
    page = (tmp_path / "runs" / "r" / "result.md").read_text()
    assert "- random, exception (" in page and "ValueError: my agent broke \\| 'here'" in page
    assert _cli("benchmark", "verify", "runs/r", cwd=tmp_path).returncode == 0


FAILING = '''from hearts_env.agents.basic import RandomAgent


class ActFails(RandomAgent):
    def act(self, view):
        if view.trick_index == 3:
            raise ValueError("my agent broke")
        return super().act(view)


class EndFails(RandomAgent):  # the seat host's warm-up deal asks no end_deal: it fails in games only
    def end_deal(self, view):
        raise ArithmeticError("end broke")


class PassFails(RandomAgent):
    def act(self, view):
        raise KeyError("no pass")


class FloatCard(RandomAgent):
    def act(self, view):
        return float(super().act(view))


class BuildFails(RandomAgent):
    def __init__(self, **kwargs):
        raise RuntimeError("no build")
'''


def _first_line_and_log(stderr: str, cwd: Path) -> tuple[str, str]:
    """The command's last line and the log it names (every traceback)."""
    last = stderr.strip().splitlines()[-1]
    assert "every traceback in " in last or "its traceback in " in last, last
    named = last.split("traceback in ", 1)[1].split(";", 1)[0].strip()
    log = Path(named) if Path(named).is_absolute() else cwd / named
    return last, log.read_text()


def test_an_agent_s_failure_is_one_line_and_a_log_of_its_tracebacks_in_every_command(tmp_path):
    """Issue 63: an agent's failure reaches the user the same way in the arena, the benchmark, the exploit track and
    `play`: one line naming the agent, the game and what it raised where (the first of each kind, with the count),
    the full traceback in a log file that the line names. Before: the arena said only "28 game(s) ended by an agent
    error", `play` and the exploit track showed a traceback, a broken constructor was a traceback in the arena."""
    (tmp_path / "failing.py").write_text(FAILING)
    arena = _cli("arena", "failing:ActFails", "random", "--deals", "2", "--out", "runs/g.jsonl", "--jobs", "1",
                 cwd=tmp_path)
    assert arena.returncode == 3
    last, log = _first_line_and_log(arena.stderr, tmp_path)
    assert "failing:ActFails: exception in 28 game(s), the first deal 0, seating 0: ValueError: my agent broke (" \
        in last and "failing.py, line 7)" in last and "runs/g.errors.log" in last
    assert log.count("== failing:ActFails, exception") == 28  # each game's; the first 20 with their tracebacks
    assert log.count('raise ValueError("my agent broke")') == 20

    bench = _cli("benchmark", "failing:EndFails", "--tier", "smoke", "--opponents", "random", "--jobs", "1", "--out",
                 "runs/b", cwd=tmp_path)
    assert bench.returncode == 3
    last, log = _first_line_and_log(bench.stderr, tmp_path)
    assert "the first: deal 0, seating " in last and ": ArithmeticError: end broke (" in last and "File" not in last
    assert 'raise ArithmeticError("end broke")' in log
    assert "errors.log" in (tmp_path / "runs" / "b" / "result.md").read_text()

    exploit = _cli("exploit", "failing:EndFails", "--tier", "smoke", "--probes", "queen-dumper", "--jobs", "1",
                   "--out", "runs/x", cwd=tmp_path)
    assert exploit.returncode == 3
    last, log = _first_line_and_log(exploit.stderr, tmp_path)
    assert "failing:EndFails: exception in 32 game(s)" in last and "ArithmeticError: end broke" in last
    assert 'raise ArithmeticError("end broke")' in log
    allowed = _cli("exploit", "failing:EndFails", "--tier", "smoke", "--probes", "queen-dumper", "--jobs", "1",
                   "--out", "runs/x", "--resume", "--allow-errors", cwd=tmp_path)
    assert allowed.returncode == 0 and "--allow-errors" not in allowed.stderr.strip().splitlines()[-1]

    for agent, said in (("PassFails", "KeyError: 'no pass' ("),
                        ("FloatCard", "act returned 50.0, not a card id: an integer 0..51")):
        play = subprocess.run([sys.executable, "-m", "hearts_env.cli", "play", "--seat", "3", "--seed", "1",
                               "--opponents", "random", f"failing:{agent}", "random"], input="", capture_output=True,
                              text=True, cwd=tmp_path, timeout=120)
        assert play.returncode == 3, play.stderr
        assert "Traceback" not in play.stderr
        last, log = _first_line_and_log(play.stderr, tmp_path)
        assert f"the game stops: failing:{agent} (seat 1) failed in deal 1, passing: {said}" in last
        Path(last.split("its traceback in ", 1)[1]).unlink()


def test_an_agent_that_cannot_be_built_is_one_line_naming_where_in_every_command(tmp_path):
    """Issue 63: what a constructor raised was a traceback (the arena, `play`); a TypeError inside it was called
    "bad arguments". Now one line: the spec, what it raised and the file and line."""
    (tmp_path / "failing.py").write_text(FAILING)
    for argv in (("arena", "failing:BuildFails", "random", "--deals", "1"),
                 ("play", "--opponents", "failing:BuildFails", "random", "random"),
                 ("benchmark", "failing:BuildFails", "--tier", "smoke", "--opponents", "random", "--jobs", "1")):
        run = _cli(*argv, cwd=tmp_path)
        line = _one_line(run.stderr)
        assert run.returncode == 2 and "building it raised RuntimeError: no build (" in line, line
        assert "failing.py, line 28)" in line and "AgentError" not in line
    wrong = _cli("arena", "failing:ActFails(nosuch=1)", "--deals", "1", cwd=tmp_path)
    assert "bad arguments" in _one_line(wrong.stderr)


def test_serve_stops_a_game_whose_agent_fails_with_its_line_on_the_page_and_its_traceback_in_a_log(capsys,
                                                                                                  monkeypatch):
    """Issue 63: `serve` showed `seat 1 (spec) failed: ValueError: …` and kept no traceback; a failing `reset` or
    `end_deal` was an HTTP 500. Now the page has the line, the server's terminal names the log."""
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    import hearts_env.agents
    from hearts_env.agents.basic import RandomAgent
    from hearts_env.web import create_app

    class EndFails(RandomAgent):
        def end_deal(self, view):
            raise ArithmeticError("end broke")

    monkeypatch.setitem(hearts_env.agents._REGISTRY, "test-end-fails", EndFails)
    client = TestClient(create_app([]), base_url="http://127.0.0.1")
    game = client.post("/api/games", json={"seats": ["random", "test-end-fails", "random", "random"],
                                            "rules": "standard(game=deal)", "seed": 3}).json()
    for _ in range(70):  # 12 passes and 52 plays, then a refusal: the game stopped
        state = client.post(f"/api/games/{game['id']}/step")
        assert state.status_code in (200, 409), state.text
        if state.status_code == 409:
            break
    state = client.get(f"/api/games/{game['id']}").json()
    assert state["error"].startswith("seat 1 (test-end-fails) failed in end_deal, deal 1: ArithmeticError: end broke (")
    said = capsys.readouterr().err.strip().splitlines()[-1]
    assert said.startswith("hearts-env serve: seat 1 (test-end-fails) failed") and "its traceback in " in said
    log = Path(said.split("its traceback in ")[1])
    assert "in end_deal" in log.read_text() and "ArithmeticError: end broke" in log.read_text()
    log.unlink()


def test_verify_and_speed_name_what_was_wrong_once_in_their_own_words(tmp_path):
    """Issue 63, more bad input: `verify` named the file twice (`x.log: x.log is not a JSON file`), and `hearts-env
    speed` with a wrong option said `run.py: error`, a name the user never typed."""
    (tmp_path / "notes.txt").write_text("not json\n")
    line = _one_line(_cli("benchmark", "verify", "notes.txt", cwd=tmp_path).stderr)
    assert line.startswith("hearts-env benchmark verify: notes.txt is not a JSON file") and line.count("notes.txt") == 1
    speed = _cli("speed", "--nosuch")
    assert speed.returncode == 2 and speed.stderr.strip().splitlines()[-1].startswith("hearts-env speed: error:")
