"""hearts-bench on a Ray cluster of two nodes against the process pool (issue 65), on this machine.

One held-out row of an agent (fixed secrets, so both runs deal and seed alike) is played twice: with ``--jobs 2``
(local worker processes), then with ``--backend ray`` on a local cluster of two one-CPU nodes (each its own raylet
and object store, as two machines' would be: ``ray.cluster_utils.Cluster``). Prints the wall time of each, their
ratio, and whether every record of every rung is the same (timings aside); one strict JSON line with ``--json``.

    .venv-ray/bin/python speed/ray_cluster.py [--tier quick] [--agent heuristic] [--opponents random greedy ...]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TIMING = ("think_seconds", "slowest_move_seconds")


def comparable(folder: Path) -> dict[str, list[dict[str, Any]]]:
    from hearts_env.evaluation.arena.runner import read_records

    return {path.name: [{k: v for k, v in r.items() if k not in TIMING}
                        for r in sorted(read_records(path), key=lambda r: (r["deal"], r["seating_index"]))]
            for path in sorted(folder.glob("*.jsonl")) if path.name != "sittings.jsonl"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="speed/ray_cluster.py", description=__doc__.splitlines()[0])
    parser.add_argument("--tier", default="quick", help="the suite's tier (default quick: 200 held-out deals)")
    parser.add_argument("--agent", default="heuristic", help="the agent benchmarked (default heuristic)")
    parser.add_argument("--opponents", nargs="+", help="only these rungs (default: the whole ladder)")
    parser.add_argument("--json", action="store_true", help="one strict JSON line")
    args = parser.parse_args(argv)
    import ray
    from ray.cluster_utils import Cluster

    from hearts_env.evaluation.benchmark import run_benchmark

    common: dict[str, Any] = {"tier": args.tier, "holdout": 20261207, "agent_secret": 7, "rungs": args.opponents}
    with tempfile.TemporaryDirectory(prefix="hearts-speed-ray-") as scratch:
        root = Path(scratch)
        began = time.perf_counter()
        run_benchmark(args.agent, out=root / "local", jobs=2, **common)
        local_seconds = time.perf_counter() - began
        cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "object_store_memory": 200 << 20,
                                                                "include_dashboard": False})
        try:
            cluster.add_node(num_cpus=1, object_store_memory=200 << 20)
            cluster.wait_for_nodes()
            ray.init(address=cluster.address, log_to_driver=False)
            began = time.perf_counter()
            run_benchmark(args.agent, out=root / "ray", backend="ray", **common)
            ray_seconds = time.perf_counter() - began
        finally:
            ray.shutdown()
            cluster.shutdown()
        local, on_ray = comparable(root / "local"), comparable(root / "ray")
    figures = {"tier": args.tier, "agent": args.agent, "rungs": list(local), "games": sum(map(len, local.values())),
               "local_jobs_2_seconds": round(local_seconds, 1), "ray_two_nodes_seconds": round(ray_seconds, 1),
               "ratio_ray_to_local": round(ray_seconds / local_seconds, 2), "identical_records": local == on_ray}
    if args.json:
        print(json.dumps(figures, allow_nan=False))
    else:
        print(f"{args.tier} tier, {args.agent}, {figures['games']} games over {', '.join(local)}: --jobs 2 "
              f"{local_seconds:.1f} s, Ray (two one-CPU nodes) {ray_seconds:.1f} s, ratio "
              f"{figures['ratio_ray_to_local']}; identical records: {figures['identical_records']}")
    return 0 if local == on_ray else 1


if __name__ == "__main__":
    sys.exit(main())
