"""tests/ray_tests: one local Ray instance (2 CPUs) for the session; the repository root and tests/ray_tests importable
by the test process and by every Ray worker (``examples.rllib_ppo``, ``ray_arena_agents``)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import ray

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
for path in (str(HERE), str(ROOT)):
    if path not in sys.path:
        sys.path.insert(0, path)


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator[str]:
    """A local Ray instance with 2 CPUs; yields its address (for drivers in other processes)."""
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HERE), str(ROOT), os.environ.get("PYTHONPATH")]))
    context = ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield context.address_info["address"]
    finally:
        ray.shutdown()
