"""The modules that moved into the evaluation wing keep their old names for one release: each old import gives
the module at its new home (one module object, so classes and registries are shared), warns once naming the new
name, and ``python -m`` of a moved program runs it."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from hearts_env.moved import MOVED, new_name

OLD_IMPORTS = [
    ("from hearts_env.arena import run_arena", "hearts_env.arena", "hearts_env.evaluation.arena"),
    ("import hearts_env.arena.runner", "hearts_env.arena.runner", "hearts_env.evaluation.arena.runner"),
    ("from hearts_env.benchmark import run_benchmark", "hearts_env.benchmark", "hearts_env.evaluation.benchmark"),
    ("from hearts_env.benchmark.verify import verify_run", "hearts_env.benchmark.verify",
     "hearts_env.evaluation.benchmark.verify"),
    ("from hearts_env.benchmark.exploit import run_probes", "hearts_env.benchmark.exploit",
     "hearts_env.evaluation.exploit.track"),
    ("from hearts_env.seat import SeatAgent, Sandbox", "hearts_env.seat", "hearts_env.evaluation.seat"),
    ("from hearts_env.reference.xinxin import XinxinAgent", "hearts_env.reference.xinxin",
     "hearts_env.evaluation.reference.xinxin"),
    ("from hearts_env.records import read_record", "hearts_env.records", "hearts_env.evaluation.records"),
    ("import hearts_env.agents.host", "hearts_env.agents.host", "hearts_env.evaluation.seat.host"),
    ("from hearts_env.agents.probes import MoonSeekerAgent", "hearts_env.agents.probes",
     "hearts_env.evaluation.exploit.probes"),
    ("from hearts_baselines.search.openspiel_ismcts import OpenSpielISMCTSAgent",
     "hearts_baselines.search.openspiel_ismcts", None),
]


@pytest.mark.parametrize(("statement", "old", "new"), OLD_IMPORTS)
def test_an_old_import_gives_the_module_at_its_new_home_and_warns_once(statement: str, old: str, new: str | None):
    code = ("import sys, warnings\n"
            "warnings.simplefilter('always')\n"
            "with warnings.catch_warnings(record=True) as caught:\n"
            f"    {statement}\n"
            f"    {statement}\n"
            f"import importlib; old = importlib.import_module({old!r})\n"
            + (f"new = importlib.import_module({new!r}); print(old is new)\n" if new else "print(True)\n")
            + "import json; print(json.dumps([str(w.message) for w in caught if w.category is DeprecationWarning]))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.splitlines()
    assert out[0] == "True"  # the very module, not a copy under the old name
    moved = max((k for k in MOVED if old == k or old.startswith(k + ".")), key=len, default=old)  # its package's
    about = [m for m in json.loads(out[1]) if m.startswith(f"{moved} moved to ")]
    assert len(about) == 1  # warned once, though imported twice (a moved parent warns for its own name)
    assert "moved to hearts_env.evaluation." in about[0] and "0.3.0" in about[0]


def test_a_class_is_the_same_under_both_names():
    code = ("import warnings; warnings.simplefilter('ignore')\n"
            "from hearts_env.seat import SeatAgent as a\n"
            "from hearts_env.evaluation.seat import SeatAgent as b\n"
            "from hearts_env.arena.game import play_game as c\n"
            "from hearts_env.evaluation.arena.game import play_game as d\n"
            "print(a is b, c is d, b.__module__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["True", "True", "hearts_env.evaluation.seat.client"]


def test_python_m_of_the_old_host_name_runs_the_host():
    done = subprocess.run([sys.executable, "-W", "ignore", "-m", "hearts_env.agents.host", "--help"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "--path" in done.stdout


def test_names_that_did_not_move_are_left_alone():
    assert new_name("hearts_env.agents") is None and new_name("hearts_env.arenas") is None
    assert new_name("hearts_env.benchmark.exploit") == "hearts_env.evaluation.exploit.track"  # the most specific
    assert new_name("hearts_env.benchmark.suite") == "hearts_env.evaluation.benchmark.suite"
    assert all(new.startswith("hearts_env.evaluation.") for new in MOVED.values())
