"""hearts-bench, the reference track's runner and exploit on the session's two-node Ray cluster: the same records as a
local run of the same suite, tier and secrets; the agent's program sandboxed on the node that plays it; a node lost
mid-run replayed elsewhere and written in the sittings, as the dealer's fault."""

from __future__ import annotations

import json
import shutil
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import ray
from ray.cluster_utils import Cluster

from hearts_env.evaluation.arena import run_arena
from hearts_env.evaluation.arena.game import SeatOptions
from hearts_env.evaluation.arena.on_ray import ClusterFault, _stream_games
from hearts_env.evaluation.arena.runner import read_records
from hearts_env.evaluation.benchmark import run_benchmark
from hearts_env.evaluation.benchmark.verify import VerificationFailed, _check_leaderboard, verify_run
from hearts_env.evaluation.exploit.track import run_probes
from hearts_env.evaluation.seat import Sandbox
from hearts_env.rules import make_rules

TIMING = ("think_seconds", "slowest_move_seconds")
"""Wall-clock measurements: differ from run to run."""
HOLDOUT, SECRET = 20261207, 7
"""The held-out deals' secret and the agent's seeds' secret, the same for both runs of a comparison."""


def comparable(path: Path) -> list[dict[str, Any]]:
    """A rung's records in (deal, seating) order without their timings."""
    return [{k: v for k, v in r.items() if k not in TIMING}
            for r in sorted(read_records(path), key=lambda r: (r["deal"], r["seating_index"]))]


def same_records(one: Path, other: Path) -> None:
    names = sorted(p.name for p in one.glob("*.jsonl") if p.name != "sittings.jsonl")
    assert names == sorted(p.name for p in other.glob("*.jsonl") if p.name != "sittings.jsonl")
    for name in names:
        assert comparable(one / name) == comparable(other / name), name


def figures(result: dict[str, Any]) -> dict[str, Any]:
    """A result's figures without its wall-clock measurements."""
    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in ("seconds_per_decision", "slowest_decision")}
        return value
    return strip({"headline": result["headline"], "rungs": result["rungs"]})


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="the benchmark's sandbox (bubblewrap) is not installed")
def test_a_held_out_row_on_two_nodes_is_the_local_row(ray_cluster: str, tmp_path: Path) -> None:
    """The ranked rows' protocol (held-out deals, the agent in its own sandboxed program) on the cluster: every record
    is the local run's, the figures too, and the Ray run verifies as a leaderboard row."""
    common: dict[str, Any] = {"tier": "smoke", "holdout": HOLDOUT, "agent_secret": SECRET, "sandbox": Sandbox("bwrap")}
    local = run_benchmark("heuristic", out=tmp_path / "local", jobs=2, **common)
    on_ray = run_benchmark("heuristic", out=tmp_path / "ray", backend="ray", **common)
    same_records(tmp_path / "local", tmp_path / "ray")
    assert figures(on_ray) == figures(local)
    assert on_ray["sittings"][0]["backend"] == "ray" and "backend" not in local["sittings"][0]
    verify_run(tmp_path / "ray", leaderboard=True)


def test_exploit_probes_on_the_cluster_are_the_local_ones(ray_cluster: str, tmp_path: Path) -> None:
    """``exploit``'s probes (three seats of a deterministic target sandboxed, one probe) on the cluster: the local
    records."""
    local = run_probes("greedy", probes=["queen-dumper"], tier="smoke", out=tmp_path / "local", jobs=2,
                       sandbox=Sandbox("basic"))
    on_ray = run_probes("greedy", probes=["queen-dumper"], tier="smoke", out=tmp_path / "ray", backend="ray",
                        sandbox=Sandbox("basic"))
    assert comparable(tmp_path / "local" / "queen-dumper.jsonl") == comparable(tmp_path / "ray" / "queen-dumper.jsonl")
    assert local["probes"]["queen-dumper"]["gain"] == on_ray["probes"]["queen-dumper"]["gain"]


def test_games_spread_over_both_nodes(ray_nodes: Cluster, tmp_path: Path) -> None:
    noted = tmp_path / "nodes"
    noted.mkdir()
    run_arena([f"ray_arena_agents:NodeNoted(folder={str(noted)!r}, delay=0.01)", "random"], deals=2,
              rules="standard(game=deal)", seed=3, backend="ray", isolation="seating")
    alive = {node["NodeID"] for node in ray.nodes() if node["Alive"]}
    assert {p.name for p in noted.iterdir()} == alive and len(alive) == 2


def test_a_node_lost_mid_run_is_replayed_elsewhere_and_written_in_the_sittings(ray_nodes: Cluster,
                                                                              tmp_path: Path) -> None:
    """A third node joins, takes games, and is killed (as a preempted machine is) once its agent has played: the run
    goes on, its unfinished games are played on the other nodes, the sitting names the loss, the records are the
    local run's, and the run verifies — but not as a leaderboard row (the game in play was seen twice)."""
    noted = tmp_path / "nodes"
    noted.mkdir()
    spec = f"ray_arena_agents:NodeNoted(folder={str(noted)!r}, delay=0.05)"
    before = {p.name for p in noted.iterdir()}
    extra = ray_nodes.add_node(num_cpus=1, object_store_memory=200 << 20)
    ray_nodes.wait_for_nodes()
    removed = threading.Event()

    def kill_the_extra_node_once_it_plays() -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not (noted / extra.node_id).exists():
            time.sleep(0.05)
        time.sleep(0.5)  # a few moves into its game
        ray_nodes.remove_node(extra, allow_graceful=False)
        removed.set()

    killer = threading.Thread(target=kill_the_extra_node_once_it_plays, daemon=True)
    killer.start()
    common: dict[str, Any] = {"tier": "smoke", "rungs": ["random"], "isolation": "seating", "agent_secret": SECRET}
    result = run_benchmark(spec, out=tmp_path / "ray", backend="ray", **common)
    killer.join(timeout=130)
    assert removed.is_set() and (noted / extra.node_id).exists() and extra.node_id not in before
    faults = result["sittings"][0]["dealer_faults"]
    assert len(faults) == 1 and faults[0]["fault"] == "node lost" and faults[0]["node"] == extra.node_id
    assert faults[0]["rung"] == "random" and len(faults[0]["games"]) >= 1
    logged = [json.loads(line) for line in (tmp_path / "ray" / "sittings.jsonl").read_text().splitlines()]
    assert [e["fault"] for e in logged if "fault" in e] == ["node lost"]
    run_benchmark(spec, out=tmp_path / "local", jobs=2, **common)
    same_records(tmp_path / "local", tmp_path / "ray")
    verify_run(tmp_path / "ray")
    assert "Not a leaderboard row: a sitting lost a node of its cluster" in (tmp_path / "ray" / "result.md").read_text()
    as_a_row = {**result, "isolation": "process", "seat": {"sandbox": "bwrap"}}  # what else a row needs, granted
    with pytest.raises(VerificationFailed, match=r"lost a node of their cluster .* the game in play was played again"):
        _check_leaderboard(as_a_row)


def test_a_node_without_the_agents_folder_is_the_dealers_fault_in_one_line(ray_cluster: str, tmp_path: Path) -> None:
    """A task on a node that lacks the folder the agent's program starts in (a cluster whose nodes were not given the
    agent's files) raises ClusterFault naming the folder, before any game: no forfeit is charged to the agent. (On
    this one machine every node has every folder, so the task's generator is driven here, on the head node.)"""
    seats = SeatOptions(sandbox=Sandbox("basic", workdir=str(tmp_path / "gone")))
    chunk = [(["hosted:random", "random"], make_rules("standard(game=deal)"), 0, 0, 0, None, None, seats)]
    games = _stream_games(chunk, None, None)
    assert isinstance(next(games), str)  # the node it runs on
    with pytest.raises(ClusterFault, match=r"has no folder .*gone, where the agent's program starts"):
        next(games)
