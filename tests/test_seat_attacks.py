"""hearts-bench against a hostile submission: each attack is an agent (tests/hostile/hostile_agents.py)
that plays like ``heuristic`` unless its trick works. Under the seat protocol the agent plays from a
sandboxed program of its own, so every trick must fail: the run's figures equal honest ``heuristic``'s
with the same agent secret, or the agent's errors are charged as forfeits and the run goes on."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from markers import needs_sandbox

from hearts_env.evaluation.benchmark import run_benchmark
from hearts_env.evaluation.benchmark.verify import VerificationFailed, verify_run

HOSTILE = Path(__file__).parent / "hostile"
SECRET = 12345
RUNGS = ["greedy", "heuristic"]

pytestmark = needs_sandbox


def _run(spec: str, out: Path, rungs=RUNGS, **kwargs):
    return run_benchmark(spec, tier="smoke", rungs=rungs, out=out, jobs=1, agent_secret=SECRET, **kwargs)


@pytest.fixture(scope="module")
def honest(tmp_path_factory):
    return _run("heuristic", tmp_path_factory.mktemp("honest") / "run")


@pytest.fixture(autouse=True)
def _agents_folder(monkeypatch):
    monkeypatch.chdir(HOSTILE)  # the host imports agent modules from the folder the command runs in
    monkeypatch.syspath_prepend(str(HOSTILE))  # and so does this process, for the runs without a seat


def _margins(result):
    return {name: r["per_deal_margin"] for name, r in result["rungs"].items()}


@pytest.mark.parametrize("agent", ["StackWalker", "LadderPatcher", "FigurePatcher", "SearchWeakener", "Memorizer"])
def test_a_trick_on_the_dealers_memory_gains_nothing(agent, honest, tmp_path):
    result = _run(f"hostile_agents:{agent}", tmp_path / "run")
    assert _margins(result) == _margins(honest)
    assert all(not r["errors"] for r in result["rungs"].values())
    verify_run(tmp_path / "run", leaderboard=True)


def test_rigged_rule_data_changes_only_the_riggers_own_play(honest, tmp_path):
    """The rigger rewrites the rules presets in its process: its own agent then misjudges hearts, but the
    dealer deals and scores by its own rules, so every game replays and the rigger gains nothing."""
    result = _run("hostile_agents:RulesRigger", tmp_path / "run")
    assert result["headline"]["mean"] <= honest["headline"]["mean"]
    verify_run(tmp_path / "run", leaderboard=True)


def test_the_runs_files_the_holdout_secret_and_the_package_are_out_of_reach(honest, tmp_path):
    out = tmp_path / "run"
    result = _run(f"hostile_agents:Snoop(out={str(out)!r})", out)
    assert _margins(result) == _margins(honest)


def test_a_held_out_run_cannot_be_recognised_from_inside(tmp_path):
    """The Snoop plays its lowest cards if it finds 'holdout' in its argv, environment or any process it
    can see: on held-out deals it plays exactly as honest heuristic does there."""
    secret = 987654321
    honest = _run("heuristic", tmp_path / "honest", holdout=secret)
    snoop = _run("hostile_agents:Snoop", tmp_path / "snoop", holdout=secret)
    assert _margins(snoop) == _margins(honest)


def test_weakening_the_search_opponent_gains_nothing(tmp_path):
    """``pimc``'s budget lives in the dealer: the agent's process has no ``pimc`` object to weaken."""
    honest = _run("heuristic", tmp_path / "honest", rungs=["pimc"])
    weakener = _run("hostile_agents:SearchWeakener", tmp_path / "weak", rungs=["pimc"])
    assert _margins(weakener) == _margins(honest)


def test_the_snoop_sees_the_folder_when_the_sandbox_is_off(tmp_path):
    """The attack itself works without the sandbox (so the test above tests the sandbox, not a dud)."""
    out = tmp_path / "run"
    result = _run(f"hostile_agents:Snoop(out={str(out)!r})", out, isolation="none")
    assert result["headline"]["mean"] != pytest.approx(0.0)
    with pytest.raises(VerificationFailed, match="leaderboard row needs the agent in its own sandboxed program"):
        verify_run(out, leaderboard=True)


def test_the_ladder_patcher_wins_in_process_and_gains_nothing_seated(honest, tmp_path, monkeypatch):
    """In the dealer's process (isolation none) patching the ladder raises the margin; seated it cannot."""
    from hearts_env.agents import basic

    for cls in (basic.HeuristicAgent, basic.GreedyAgent):  # put back what the attack patches in this process
        monkeypatch.setattr(cls, "act", cls.act)
    patched = _run("hostile_agents:LadderPatcher", tmp_path / "inproc", isolation="none")
    assert patched["headline"]["mean"] > honest["headline"]["mean"] + 1


@pytest.mark.parametrize("agent, kind", [("RaisesSystemExit", "exception"), ("RaisesKeyboardInterrupt", "exception"),
                                         ("RaisesUnprintable", "exception"), ("ExitWhenLosing", "crash"),
                                         ("Hog", "exception")])
def test_any_way_out_of_a_move_is_a_recorded_forfeit_and_the_run_goes_on(agent, kind, honest, tmp_path):
    result = _run(f"hostile_agents:{agent}", tmp_path / "run")
    errors = {k: n for r in result["rungs"].values() for k, n in r["errors"].items()}
    assert set(errors) == {kind} and sum(errors.values()) > 0
    assert result["headline"]["mean"] < honest["headline"]["mean"]  # erring never pays
    assert [s["status"] for s in result["sittings"]] == ["finished"]
    verify_run(tmp_path / "run")  # the forfeits are in the records, and the records replay


def test_a_reply_too_deep_to_parse_is_the_seats_protocol_forfeit_and_the_run_goes_on(honest, tmp_path):
    """60,000 nested arrays in one line raise RecursionError inside the JSON parser, not ValueError: whatever
    reading or parsing a reply raises is the seat's forfeit, never the run's end."""
    result = _run(f"seat:{sys.executable} deep_reply.py", tmp_path / "run")
    errors = {k: n for r in result["rungs"].values() for k, n in r["errors"].items()}
    assert set(errors) == {"protocol"} and sum(errors.values()) > 0
    assert [s["status"] for s in result["sittings"]] == ["finished"]
    verify_run(tmp_path / "run")


def test_notes_a_seat_reports_are_its_own_word_and_malformed_ones_are_its_protocol_forfeit(tmp_path):
    """A program may report notes with its end_deal reply (xinxin's fallbacks). The agent's are recorded as its word
    and never counted as an opponent's; notes that are not a few counts by short names end the game as its protocol
    forfeit, never the run."""
    good = _run(f"seat:{sys.executable} claims.py notes", tmp_path / "good", rungs=["greedy"])
    rung = good["rungs"]["greedy"]
    assert not rung["errors"] and "opponent_notes" not in rung
    records = [json.loads(line) for line in (tmp_path / "good" / "greedy.jsonl").read_text().splitlines()]
    assert all(r["notes"] == {str(_agent_seat(r)): {"fallback": 9}} for r in records)
    verify_run(tmp_path / "good")
    bad = _run(f"seat:{sys.executable} claims.py bad-notes", tmp_path / "bad", rungs=["greedy"])
    assert bad["rungs"]["greedy"]["errors"] == {"protocol": 32}
    assert [s["status"] for s in bad["sittings"]] == ["finished"]


def _agent_seat(record):
    """The seat of the agent (the spec that is not the opponent's) in a benchmark record."""
    return next(seat for seat, spec in enumerate(record["seating"]) if spec.startswith("seat:"))


def test_what_the_start_up_check_plants_in_the_kernel_cache_reaches_no_program(honest, tmp_path):
    """The start-up check writes the run's kernel cache; a named pipe and a link planted there used to stop the run
    at the first program start (shutil.Error): now only regular files reach a program, and the run is honest's."""
    result = _run("hostile_agents:CachePlanter", tmp_path / "run")
    assert _margins(result) == _margins(honest)
    assert all(not r["errors"] for r in result["rungs"].values())
    assert [s["status"] for s in result["sittings"]] == ["finished"]


def test_a_kernel_cache_past_its_size_refuses_the_agent_before_any_game(tmp_path):
    """A sparse file costs its planter nothing but would be written out in full at every program start: the
    cache's files count at their apparent size, and past the limit the agent is refused before it plays."""
    with pytest.raises(ValueError, match=r"cannot take a seat: .*more than 256 MiB"):
        _run("hostile_agents:CachePlanter(sparse=True)", tmp_path / "run")
    run = tmp_path / "run"
    assert not run.exists() or not list(run.glob("*.jsonl"))  # not one game played


def test_a_seat_cannot_fill_its_memory_file_systems_past_their_size(honest, tmp_path):
    """/tmp and /dev/shm inside the sandbox are memory outside RLIMIT_AS: each has a size (256 MiB), so a write of
    320 MiB fails and the filler plays as honest heuristic."""
    result = _run("hostile_agents:TmpFiller", tmp_path / "run")
    assert _margins(result) == _margins(honest)
    assert result["seat"]["tmp_bytes"] == 256 << 20 and result["seat"]["file_bytes"] == 256 << 20


def test_a_seat_cannot_write_a_file_past_its_size_on_the_hosts_disk(honest, tmp_path):
    """The folder of compiled kernels is on the host's disk: a file there may not pass RLIMIT_FSIZE (256 MiB)."""
    result = _run("hostile_agents:DiskFiller", tmp_path / "run")
    assert _margins(result) == _margins(honest)


FORKER = """
import os, time
started = 0
try:
    for _ in range(100):
        if os.fork() == 0:
            time.sleep(5)
            os._exit(0)
        started += 1
except OSError as e:
    print(started, e.errno)
else:
    print(started, 0)
"""


def test_a_sandbox_holds_its_tasks_to_a_count_set_inside_its_own_namespace():
    """RLIMIT_NPROC set by the dealer would count every process of its host user; set inside the sandbox's user
    namespace it counts that sandbox's tasks alone. A program reads the limit it runs under; the manifest says whether
    the kernel enforces it here (it exempts tasks whose host user is root: a root dealer uses a pids control group)."""
    from hearts_env.evaluation.seat.sandbox import Sandbox, describe_limits, launch, processes_held
    from hearts_env.evaluation.seat.task_groups import group_parent

    sandbox = Sandbox(mode="bwrap", processes=77)
    launched = launch([sys.executable, "-c", "import resource; print(resource.getrlimit(resource.RLIMIT_NPROC))"],
                      sandbox)
    out, _ = launched.process.communicate(timeout=60)
    launched.cleanup()
    assert out.decode().strip() == "(77, 77)"
    assert describe_limits(sandbox)["processes"] == 77
    assert describe_limits(sandbox)["processes_held"] is processes_held(sandbox) is \
        (os.geteuid() != 0 or group_parent() is not None)


def test_a_seat_cannot_start_tasks_past_its_bound_even_under_a_root_dealer():
    """The attack: a program that starts 100 processes to stall the machine. Where the manifest says the bound holds
    (``processes_held``: a dealer that is not root, or a root dealer with a pids control group, as on CI), the fork past
    it fails with EAGAIN; the program's group is gone once it has ended."""
    import errno

    from hearts_env.evaluation.seat.sandbox import Sandbox, launch, processes_held

    sandbox = Sandbox(mode="bwrap", processes=20)
    assert processes_held(sandbox) or os.geteuid() == 0  # only a root dealer on a machine without pids groups lacks it
    launched = launch([sys.executable, "-c", FORKER], sandbox)
    out, _ = launched.process.communicate(timeout=60)
    group = launched.task_group
    launched.kill()
    started, error = map(int, out.decode().split())
    if processes_held(sandbox):
        assert started < 20 and error == errno.EAGAIN
        assert group is None or not os.path.exists(group)
    else:
        assert started == 100 and error == 0  # what the manifest's processes_held: false warns of


def test_a_group_a_killed_dealer_left_behind_neither_stops_a_later_one_nor_is_charged_to_a_seat(monkeypatch):
    """A full run stopped a seat (charged as its forfeit) on ``File exists``: a worker that ended with a group still
    busy left it behind, and a later worker with the same PID and count made the same name. Names now carry a random
    part, a left-behind group of a dealer that is gone is removed when the next dealer looks for its parent, and a
    group that cannot be made is the dealer's failure (the run stops and resumes), never the seat's."""
    from hearts_env.evaluation.seat import task_groups
    from hearts_env.evaluation.seat.sandbox import Sandbox, SandboxError, launch

    parent = task_groups.group_parent()
    if parent is None:
        pytest.skip("no pids control group on this machine (a dealer that is not root has RLIMIT_NPROC instead)")
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    left = os.path.join(parent, f"{task_groups.PREFIX}{int(gone.stdout)}-1")  # the old naming, of a dead dealer
    os.mkdir(left)
    task_groups._remove_left_behind(parent)
    assert not os.path.exists(left)
    first, second = task_groups.make_group(5), task_groups.make_group(5)
    assert first != second and os.path.basename(first).startswith(f"{task_groups.PREFIX}{os.getpid()}-")
    for group in (first, second):
        task_groups.remove_group(group)

    def refused(tasks: int) -> str:
        raise OSError(17, "File exists")

    monkeypatch.setattr(task_groups, "make_group", refused)
    with pytest.raises(SandboxError, match=r"cannot make the seat program's pids control group: .*File exists"):
        launch([sys.executable, "-c", "pass"], Sandbox(mode="bwrap", processes=20))


def test_what_a_program_states_about_itself_adds_no_row_or_markup_to_a_result(tmp_path):
    """The weights' name and checksum are the program's own word: the page marks them as such and shows them on one
    line with no table cell, code span or line of their own, and the leaderboard's row stays one row."""
    from hearts_env.evaluation.benchmark import leaderboard_row

    result = _run(f"seat:{sys.executable} claims.py", tmp_path / "run", rungs=["random"])
    page = (tmp_path / "run" / "result.md").read_text()
    assert "as the agent's program states them" in page
    assert not any(line.startswith("| injected") or line.startswith("| row") for line in page.splitlines())
    weights_line = next(line for line in page.splitlines() if "Agent weights" in line)
    assert weights_line.count("`") % 2 == 0 and "\\| injected \\| row" in weights_line
    injected = leaderboard_row({**result, "tier": "quick", "agent": "x | injected | `row`"})
    plain = leaderboard_row({**result, "tier": "quick", "agent": "x"})
    cells = re.compile(r"(?<!\\)\|")  # a cell's edge: a bar not escaped
    assert "\n" not in injected and len(cells.findall(injected)) == len(cells.findall(plain))


def test_a_move_that_never_returns_is_killed_at_the_time_limit(tmp_path):
    result = run_benchmark("hostile_agents:Hangs", tier="smoke", rungs=["greedy"], out=tmp_path / "run", jobs=1,
                           agent_secret=SECRET, move_time_limit=0.5)
    errors = result["rungs"]["greedy"]["errors"]
    assert errors == {"timeout": 32}  # every game: the program is restarted for the next one
    verify_run(tmp_path / "run")


def test_what_the_agent_prints_does_not_reach_the_json_output(tmp_path):
    run = subprocess.run([sys.executable, "-m", "hearts_env.cli", "benchmark", "hostile_agents:Prints", "--tier",
                          "smoke", "--opponents", "greedy", "--jobs", "1", "--json", "--out", str(tmp_path / "run"),
                          "--agent-secret", str(SECRET)], capture_output=True, text=True, cwd=HOSTILE, timeout=600)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout, parse_constant=lambda c: pytest.fail(f"{c} in the JSON"))
    assert not result["rungs"]["greedy"]["errors"]


def test_the_agents_seeds_do_not_reveal_the_deal():
    """The seed a program receives is a digest with the run's secret: the same game under two secrets gets
    unrelated seeds, and the arena's seed list (which holds the deal index) is not sent."""
    from hearts_env.evaluation.seat import seat_seed

    game = [1681062731, 17, 2, 0, 1]
    assert seat_seed(game, 1) != seat_seed(game, 2)
    assert seat_seed(game, 1) != seat_seed([1681062731, 18, 2, 0, 1], 1)
    assert 0 <= seat_seed(game, 1) < 2**64


def _wait_for_games(process: subprocess.Popen, out: Path, games: int) -> None:
    """Wait until the benchmark ``process`` has written ``games`` games against greedy into ``out``."""
    import time

    deadline = time.monotonic() + 300
    while not ((out / "greedy.jsonl").exists() and (out / "greedy.jsonl").read_text().count("\n") >= games):
        assert process.poll() is None and time.monotonic() < deadline, "the first sitting ended on its own"
        time.sleep(0.05)


def test_a_sitting_that_died_shows_in_the_result_and_bars_a_leaderboard_row(tmp_path):
    """Crash-and-resume selection: leaving a run when it goes badly and resuming it leaves a trace."""
    import signal

    out = tmp_path / "run"
    command = [sys.executable, "-m", "hearts_env.cli", "benchmark", "hostile_agents:Slow", "--tier", "smoke",
               "--opponents", "greedy", "--jobs", "1", "--out", str(out), "--agent-secret", str(SECRET)]
    first = subprocess.Popen(command, cwd=HOSTILE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
    try:
        _wait_for_games(first, out, 2)
    finally:
        os.killpg(first.pid, signal.SIGKILL)
        first.wait()
    second = subprocess.run([*command, "--resume", "--json"], cwd=HOSTILE, capture_output=True, text=True,
                            timeout=600)
    assert second.returncode == 0, second.stderr
    result = json.loads(second.stdout)
    assert [s["status"] for s in result["sittings"]] == ["died with its dealer", "finished"]
    assert result["sittings"][1]["played_before"]["greedy"] >= 2
    verify_run(out)  # coherent: every game once
    assert "Not a leaderboard row: a sitting died with its dealer" in (out / "result.md").read_text()
    with pytest.raises(VerificationFailed, match="died with the dealer"):
        verify_run(out, leaderboard=True)


SLOW_FIRST_GAMES = "hostile_agents:Slow(delay=0.15, games=2)"  # its program's first two games take ~2 s each


def _first_sitting(out: Path) -> subprocess.Popen:
    """A benchmark of an honest agent, once its first game is written: its second is in play for seconds."""
    process = subprocess.Popen(_command(out), cwd=HOSTILE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               start_new_session=True)
    _wait_for_games(process, out, 1)
    return process


def _command(out: Path) -> list[str]:
    return [sys.executable, "-m", "hearts_env.cli", "benchmark", SLOW_FIRST_GAMES, "--tier", "smoke", "--opponents",
            "greedy", "--jobs", "1", "--out", str(out), "--agent-secret", str(SECRET), "--json"]


def _resume(out: Path) -> dict:
    second = subprocess.run([*_command(out), "--resume"], cwd=HOSTILE, capture_output=True, text=True, timeout=600)
    assert second.returncode == 0, second.stderr
    return json.loads(second.stdout)


def test_a_pause_finishes_the_games_in_play_and_keeps_a_leaderboard_row(tmp_path):
    """One SIGTERM (or Ctrl-C) pauses: the game in play is finished and written, so no game is played twice
    and a pause leaves nothing to select from."""
    import signal

    out = tmp_path / "run"
    first = _first_sitting(out)
    first.send_signal(signal.SIGTERM)
    _, err = first.communicate(timeout=300)
    assert first.returncode == 75, err
    assert b"paused: the games in play were finished" in err
    written = (out / "greedy.jsonl").read_text().count("\n")
    result = _resume(out)
    assert [s["status"].split(":")[0] for s in result["sittings"]] == ["paused", "finished"]
    assert result["sittings"][1]["played_before"]["greedy"] == written  # every game of the first sitting kept
    verify_run(out, leaderboard=True)


def test_a_second_signal_abandons_the_game_in_play_and_bars_a_leaderboard_row(tmp_path):
    """Stopping at once (a second signal) throws away the game in play, which the next sitting plays again: a
    submitter could keep the replay it liked, so the run cannot be a leaderboard row."""
    import signal

    out = tmp_path / "run"
    first = _first_sitting(out)
    first.send_signal(signal.SIGINT)
    assert first.stderr is not None
    heard = b""
    while b"pausing" not in heard:  # the first signal was handled: the second stops at once
        line = first.stderr.readline()
        assert line, "the run ended before it said it was pausing"
        heard += line
    first.send_signal(signal.SIGINT)
    _, err = first.communicate(timeout=300)
    assert first.returncode == 130, err
    assert b"stopped; any game in play was abandoned" in err
    result = _resume(out)
    assert result["sittings"][0]["status"].startswith("stopped: KeyboardInterrupt")
    verify_run(out)  # coherent: every game once
    with pytest.raises(VerificationFailed, match="stopped without finishing their games in play"):
        verify_run(out, leaderboard=True)


def test_the_memorizer_recognises_deals_when_its_folder_persists(honest, tmp_path, monkeypatch):
    """Not a dud: given one folder for the whole run (in the dealer's workers), it meets its deals again."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    result = _run("hostile_agents:Memorizer", tmp_path / "run", isolation="none")
    assert _margins(result) != _margins(honest)
