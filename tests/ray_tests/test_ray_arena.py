"""The arena's Ray backend on a real local Ray instance: the same records as one local job under both isolation
modes, isolation kept in Ray workers, and resuming a results file after a killed or cut-off run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from hearts_env.evaluation.arena import run_arena
from hearts_env.evaluation.arena.game import seatings
from hearts_env.evaluation.arena.runner import WorkerDied, read_records

RULES = "standard(game=deal)"
SEED = 11
DEALS = 3
SPECS = ["heuristic", "ray_arena_agents:SlowRandom"]  # a seeded random agent: its rng must follow the game too
GAMES = DEALS * len(seatings(2))  # 14 seatings of two specs
TIMING = ("think_seconds", "slowest_move_seconds")  # wall-clock measurements: differ from run to run


def comparable(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records in (deal, seating) order without their timings."""
    return [{k: v for k, v in r.items() if k not in TIMING}
            for r in sorted(records, key=lambda r: (r["deal"], r["seating_index"]))]


def keys(path: Path) -> list[tuple[int, int]]:
    return sorted((r["deal"], r["seating_index"]) for r in read_records(path))


@pytest.fixture(scope="module")
def reference() -> list[dict[str, Any]]:
    """Every game played in this process (jobs=1, no isolation)."""
    return run_arena(SPECS, deals=DEALS, rules=RULES, seed=SEED, jobs=1, isolation="none")


@pytest.mark.parametrize("isolation", ["none", "seating"])
def test_ray_records_equal_one_local_job(ray_cluster: str, reference: list[dict[str, Any]], isolation: str,
                                         tmp_path: Path) -> None:
    out = tmp_path / "ray.jsonl"
    records = run_arena(SPECS, deals=DEALS, rules=RULES, seed=SEED, jobs=2, out=out, backend="ray",
                        isolation=isolation)
    assert len(records) == len(reference) == GAMES
    assert comparable(records) == comparable(reference)
    for mine, theirs in zip(comparable(records), comparable(reference)):  # the parts that matter, named
        assert (mine["points"], mine["seating"], mine["deals"]) == \
            (theirs["points"], theirs["seating"], theirs["deals"])
        assert mine["error"] is None
    assert keys(out) == sorted((r["deal"], r["seating_index"]) for r in reference)  # each game once on file
    assert comparable(list(read_records(out))) == comparable(reference)


def test_seating_isolation_holds_in_ray_workers(ray_cluster: str) -> None:
    """SeenTwice raises when its process meets a deal again: never under seating isolation (one fresh worker
    process per seating pass, max_calls=1), and it does without isolation (the test can see a leak)."""
    specs = ["ray_arena_agents:SeenTwice", "random"]
    isolated = run_arena(specs, deals=2, rules=RULES, seed=SEED, backend="ray", isolation="seating")
    assert [r["error"] for r in isolated if r["error"] is not None] == []
    shared = run_arena(specs, deals=2, rules=RULES, seed=SEED, backend="ray", isolation="none")
    assert any(r["error"] is not None and "twice" in r["error"]["message"] for r in shared)


def test_resume_a_cut_file_on_ray_to_more_deals(ray_cluster: str, reference: list[dict[str, Any]],
                                                tmp_path: Path) -> None:
    """A run of fewer deals, its file cut mid-line (as a kill mid-write leaves it), resumed to more deals."""
    out = tmp_path / "cut.jsonl"
    run_arena(SPECS, deals=DEALS - 1, rules=RULES, seed=SEED, out=out, backend="ray", isolation="none")
    lines = out.read_bytes().splitlines(keepends=True)
    assert len(lines) == GAMES - len(seatings(2))
    out.write_bytes(b"".join(lines[:9]) + lines[9][:40])
    records = run_arena(SPECS, deals=DEALS, rules=RULES, seed=SEED, out=out, resume=True, backend="ray",
                        isolation="seating")
    assert comparable(records) == comparable(reference)
    assert keys(out) == sorted((r["deal"], r["seating_index"]) for r in reference)  # nothing lost, nothing doubled
    assert out.read_bytes().endswith(b"\n")


KILLED_DRIVER = """
import sys, ray
sys.path[:0] = {paths!r}
ray.init(address={address!r}, runtime_env={{"env_vars": {{"HEARTS_TEST_DELAY": "0.01"}}}}, log_to_driver=False)
from hearts_env.evaluation.arena import run_arena
run_arena({specs!r}, deals={deals}, rules={rules!r}, seed={seed}, out={out!r}, backend="ray", isolation={isolation!r})
"""


@pytest.mark.parametrize("isolation", ["none", "seating"])
def test_resume_after_a_killed_ray_run(ray_cluster: str, reference: list[dict[str, Any]], tmp_path: Path,
                                       isolation: str) -> None:
    """A driver on the cluster is killed (SIGKILL) once some records are on file; resuming on Ray plays exactly
    the games missing. The killed driver's agents are slowed by a job-level env var, so the kill lands mid-run.
    Records stream from each task as its games end: under seating isolation the file holds part of a seating's
    pass when the run dies (whole passes only, when a task returned its records at its end)."""
    out = tmp_path / "killed.jsonl"
    here = Path(__file__).resolve().parent
    code = KILLED_DRIVER.format(paths=[str(here), str(here.parents[1])], address=ray_cluster, specs=SPECS,
                                deals=DEALS, rules=RULES, seed=SEED, out=str(out), isolation=isolation)
    driver = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              start_new_session=True)
    deadline = time.monotonic() + 90
    try:
        while not (out.exists() and out.read_bytes().count(b"\n") >= 4):
            assert driver.poll() is None, driver.stderr.read().decode()[-2000:] if driver.stderr else ""
            assert time.monotonic() < deadline, "the driver wrote no records in 90 s"
            time.sleep(0.1)
    finally:
        os.killpg(driver.pid, signal.SIGKILL)
        driver.wait()
    written = keys(out)
    assert 4 <= len(written) < GAMES, "the run must be cut short"
    if isolation == "seating":
        per_seating = [sum(1 for _, s in written if s == k) for k in {s for _, s in written}]
        assert any(n < DEALS for n in per_seating), f"only whole passes on file: {per_seating}"
    records = run_arena(SPECS, deals=DEALS, rules=RULES, seed=SEED, out=out, resume=True, backend="ray",
                        isolation=isolation)
    assert comparable(records) == comparable(reference)
    assert keys(out) == sorted((r["deal"], r["seating_index"]) for r in reference)  # nothing lost, nothing doubled


def test_cli_joins_a_running_cluster_through_ray_address(ray_cluster: str, tmp_path: Path) -> None:
    env = {**os.environ, "RAY_ADDRESS": ray_cluster}
    done = subprocess.run([sys.executable, "-m", "hearts_env.cli", "arena", "random", "--deals", "1", "--backend",
                           "ray", "--json", "--out", str(tmp_path / "cli.jsonl")],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert len(list(read_records(tmp_path / "cli.jsonl"))) == 1


def test_a_dead_worker_stops_the_run_with_worker_died(ray_cluster: str) -> None:
    with pytest.raises(Exception) as caught:
        run_arena(["ray_arena_agents:Dies", "random"], deals=1, rules=RULES, seed=SEED, backend="ray",
                  isolation="none")
    assert isinstance(caught.value, WorkerDied), f"{type(caught.value).__module__}.{type(caught.value).__name__}"


def test_the_first_sigint_pauses_a_ray_run_and_resume_finishes_it(ray_cluster: str, tmp_path: Path) -> None:
    """As with local processes: no task starts another game, the games in play are written, exit 75; `--resume`
    plays exactly the games missing."""
    out = tmp_path / "paused.jsonl"
    noted = tmp_path / "nodes"
    noted.mkdir()
    spec = f"ray_arena_agents:NodeNoted(folder={str(noted)!r}, delay=0.02)"
    command = [sys.executable, "-m", "hearts_env.cli", "arena", spec, "random", "--deals", str(DEALS), "--backend",
               "ray", "--out", str(out)]
    env = {**os.environ, "RAY_ADDRESS": ray_cluster}
    driver = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 90
    while not (out.exists() and out.read_bytes().count(b"\n") >= 2):
        assert driver.poll() is None and time.monotonic() < deadline, "the run wrote no records"
        time.sleep(0.05)
    driver.send_signal(signal.SIGINT)
    _, err = driver.communicate(timeout=120)
    assert driver.returncode == 75, err[-2000:]
    assert "paused: the games in play were finished" in err
    written = keys(out)
    assert 2 <= len(written) < GAMES and len(set(written)) == len(written)
    resumed = subprocess.run([*command, "--resume"], env=env, capture_output=True, text=True, timeout=180)
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert keys(out) == sorted((d, s) for d in range(DEALS) for s in range(len(seatings(2))))
