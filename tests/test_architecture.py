"""The layering written in docs/architecture.md holds, and importing the engine stays light."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "hearts_env"


def _layers() -> dict[str, int]:
    text = (ROOT / "docs" / "architecture.md").read_text()
    line = re.search(r"```\n(cards.*?)\n```", text, re.S)
    assert line, "docs/architecture.md lost its layer line"
    return {name.strip(): k for k, group in enumerate(line.group(1).split("→")) for name in group.split(",")}


def _unit(module: str) -> str:
    """The layer unit of a module: its top-level module or subpackage under hearts_env."""
    return module.split(".")[1]


def _imports(path: Path) -> set[str]:
    """hearts_env modules imported at module level (TYPE_CHECKING blocks and function bodies excluded)."""
    found = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("hearts_env"):
            if node.module == "hearts_env":
                found.update(f"hearts_env.{a.name}" for a in node.names)
            else:
                found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("hearts_env"))
    return found


def _modules() -> list[tuple[str, Path]]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out.append((".".join(parts), path))
    return out


def _violations(modules: list[tuple[str, Path]]) -> list[str]:
    layers = _layers()
    problems = []
    for module, path in modules:
        if module == "hearts_env":
            continue  # the package face re-exports
        unit = _unit(module)
        if unit not in layers:
            problems.append(f"{module}: {unit!r} is in no layer of docs/architecture.md")
            continue
        for dep in _imports(path):
            if dep in ("hearts_env", "hearts_env.__version__"):
                continue
            target = _unit(dep)
            if target == unit:
                continue
            if layers.get(target, 10**6) >= layers[unit]:
                problems.append(f"{module} imports {dep} ({target!r} is not in an earlier layer)")
    return problems


def test_every_module_has_a_layer_and_imports_only_earlier_layers():
    problems = _violations(_modules())
    assert not problems, "\n".join(problems)


def test_the_layer_check_sees_violations(tmp_path):
    upward = tmp_path / "engine.py"
    upward.write_text("from hearts_env.cards import to_mask\nfrom hearts_env.arena import run_arena\n")
    sideways = tmp_path / "agents.py"
    sideways.write_text("import numpy\nfrom hearts_env import worlds\nif TYPE_CHECKING:\n    import hearts_env.cli\n")
    lost = tmp_path / "lost.py"
    lost.write_text("")
    assert _violations([("hearts_env.engine", upward), ("hearts_env.agents.x", sideways),
                        ("hearts_env.lost", lost)]) == [
        "hearts_env.engine imports hearts_env.arena ('arena' is not in an earlier layer)",
        "hearts_env.agents.x imports hearts_env.worlds ('worlds' is not in an earlier layer)",
        "hearts_env.lost: 'lost' is in no layer of docs/architecture.md"]


@pytest.mark.parametrize("module", ["hearts_env.cards", "hearts_env.engine", "hearts_env", "hearts_env.vector"])
def test_importing_the_engine_loads_neither_gymnasium_nor_pettingzoo(module):
    code = (f"import sys, {module}\n"
            "print(sorted(m for m in ('gymnasium', 'pettingzoo') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("order", ["hearts_env first", "libraries first"])
def test_the_envs_are_registered_whichever_is_imported_first(order):
    first, second = ("import hearts_env", "import gymnasium, pettingzoo") if order == "hearts_env first" else \
        ("import gymnasium, pettingzoo", "import hearts_env")
    code = (f"{first}\n{second}\n"
            "env = gymnasium.make('hearts_env/Hearts-v0')\n"
            "obs, info = env.reset(seed=0)\n"
            "envs = gymnasium.make_vec('hearts_env/Hearts-v0', num_envs=2)\n"
            "print(type(env.unwrapped).__name__, type(envs).__name__, obs.shape,"
            " 'hearts_env/hearts-v0' in getattr(pettingzoo, 'aec_registry', ['hearts_env/hearts-v0']))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["HeartsEnv", "HeartsVectorEnv", "(620,)", "True"]  # PettingZoo < 1.27 has no registry


def test_every_referenced_file_exists():
    """Markdown links in the README and docs, and ``docs/*.md`` / ``examples/*.py`` paths named in the
    code and docs, point at files that exist."""
    texts = {ROOT / "README.md": None, **{p: None for p in (ROOT / "docs").glob("*.md")}}
    missing = []
    for path in texts:
        text = path.read_text()
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
            if "://" not in target and not (path.parent / target).exists():
                missing.append(f"{path.relative_to(ROOT)} links {target}")
    sources = [*PACKAGE.rglob("*.py"), *(ROOT / "baselines").rglob("*.py"), *texts]
    for path in sources:
        for target in re.findall(r"\b((?:docs|examples)/[\w./-]+\.(?:md|py))", path.read_text()):
            if not (ROOT / target).exists():
                missing.append(f"{path.relative_to(ROOT)} names {target}")
    assert not missing, "\n".join(missing)
