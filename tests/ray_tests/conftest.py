"""tests/ray_tests: one local Ray cluster for the session — two nodes of one CPU each on this machine, each its own
raylet and object store, as two machines' would be (``ray.cluster_utils.Cluster``, Ray's own way to test multi-node
behaviour); the repository root and tests/ray_tests importable by the test process and by every Ray worker
(``examples.rllib_ppo``, ``ray_arena_agents``)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import ray
from ray.cluster_utils import Cluster

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
for path in (str(HERE), str(ROOT)):
    if path not in sys.path:
        sys.path.insert(0, path)


NODE = {"num_cpus": 1, "object_store_memory": 200 << 20}
"""Each node of the test cluster: one CPU, a small object store (records and kernels are small)."""


@pytest.fixture(scope="session")
def ray_nodes() -> Iterator[Cluster]:
    """The session's cluster of two nodes (tests may add a node and remove it: a node lost mid-run)."""
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HERE), str(ROOT), os.environ.get("PYTHONPATH")]))
    cluster = Cluster(initialize_head=True, head_node_args={**NODE, "include_dashboard": False})
    try:
        cluster.add_node(**NODE)
        cluster.wait_for_nodes()
        ray.init(address=cluster.address, log_to_driver=False)
        yield cluster
    finally:
        ray.shutdown()
        cluster.shutdown()


@pytest.fixture(scope="session")
def ray_cluster(ray_nodes: Cluster) -> str:
    """The address of the session's cluster (for drivers in other processes)."""
    return str(ray_nodes.address)
