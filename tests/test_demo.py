"""`make demo` runs examples/demo.py: its tournament seats the bundled agents and reports each."""

import importlib.util
from pathlib import Path

DEMO = Path(__file__).resolve().parents[1] / "examples" / "demo.py"


def test_demo_tournament_reports_every_bundled_agent(capsys):
    spec = importlib.util.spec_from_file_location("demo", DEMO)
    demo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(demo)
    demo.main(["--deals", "2"])
    out = capsys.readouterr().out
    table = out.split("== a game")[0]
    for agent in ("subagents", "heuristic", "greedy", "random"):
        assert f"\n{agent} " in table
    assert "game over: final scores" in out
