"""Smoke test of an installed wheel (``make test-wheel``), run from outside the source tree so that only the
installed package is importable: a missing module, package-data file or entry point fails here, not for a user."""

from __future__ import annotations

import json
import sys
import tempfile
from importlib import metadata, resources
from pathlib import Path

import hearts_env
from hearts_env import hearts_v0
from hearts_env.agents import agent_names, make_agent
from hearts_env.evaluation.arena import run_arena, summarize
from hearts_env.evaluation.benchmark import run_benchmark


def main() -> None:
    source = Path(hearts_env.__file__).resolve()
    assert "site-packages" in source.parts, f"hearts_env imported from {source}, not from the installed wheel"
    assert metadata.version("hearts-env") == hearts_env.__version__
    assert resources.files("hearts_env").joinpath("py.typed").is_file(), "py.typed missing from the wheel"
    weights = resources.files("hearts_baselines").joinpath("weights")
    for name in ("ppo.zip", "ppo.json", "dqn.zip", "dqn.json", "qlearning.json", "subagents.npz", "tdlambda.npz",
                 "dutchnn-nnai2.npz", "dutchnn-strongman.npz", "dutchnn-strongman2.npz", "culhane.pt",
                 "apprentice.npz"):
        assert weights.joinpath(name).is_file(), f"bundled weights {name} missing from the wheel"
    names = agent_names()
    expected = {"random", "greedy", "heuristic", "pimc", "mcts", "ismcts", "maxn", "openspiel-ismcts", "subagents",
                "qlearning", "tdlambda", "ppo", "dqn", "dutchnn", "culhane", "apprentice"}
    assert expected <= set(names), f"entry points missing: {sorted(expected - set(names))}"
    for name in sorted(expected - {"openspiel-ismcts"}):  # open-spiel is the oracle extra, not installed here
        make_agent(name)
    env = hearts_v0.env()
    env.reset(seed=0)
    records = run_arena(["heuristic", "random"], deals=2, jobs=1)
    assert summarize(records)["games"] == 28
    with tempfile.TemporaryDirectory() as folder:
        result = run_benchmark("greedy", tier="smoke", rungs=["random"], out=Path(folder) / "b", jobs=1)
        assert json.loads((Path(folder) / "b" / "result.json").read_text())["agent"] == "greedy"
    print(f"wheel smoke test passed: hearts-env {hearts_env.__version__} from {source.parent}, "
          f"{len(names)} agents, ladder margin {result['headline']['mean']:+.2f}")


if __name__ == "__main__":
    main()
    sys.exit(0)
