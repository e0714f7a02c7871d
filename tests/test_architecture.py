"""The layering written in docs/architecture.md holds — in hearts_env and in the baselines, for imports at
module level and inside functions alike — and importing the engine stays light."""

from __future__ import annotations

import ast
import itertools
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "hearts_env"
BASELINES = ROOT / "baselines" / "hearts_baselines"
DOC = ROOT / "docs" / "architecture.md"


def _layer_line(text: str, first: str) -> dict[str, int]:
    """The units of the fenced layer line that starts with ``first``, each with its layer number."""
    line = re.search(rf"```\n({first}\b.*?)\n```", text, re.S)
    assert line, f"docs/architecture.md lost its layer line starting with {first!r}"
    return {name.strip(): k for k, group in enumerate(line.group(1).split("→")) for name in group.split(",")}


def _layers(text: str | None = None) -> dict[str, int]:
    """hearts_env's layer line."""
    return _layer_line(DOC.read_text() if text is None else text, "cards")


def _wing_layers(text: str | None = None) -> dict[str, int]:
    """The evaluation wing's own layer line."""
    return _layer_line(DOC.read_text() if text is None else text, "seat")


WING = "evaluation"


def _baseline_layers(text: str | None = None) -> dict[str, int]:
    """The baselines' layer line."""
    return _layer_line(DOC.read_text() if text is None else text, "jit")


def _exceptions(text: str | None = None) -> set[tuple[str, str]]:
    """The imports inside functions that docs/architecture.md allows against the line, as (the function,
    the unit it imports): its bullets ``- `worlds._replays_legally` imports `vector`: why``."""
    text = DOC.read_text() if text is None else text
    return set(re.findall(r"^- `([\w.]+)` imports `(\w+)`: \S", text, re.M))


def _unit(module: str) -> str:
    """The layer unit of a module: its top-level module or subpackage under hearts_env (or hearts_baselines)."""
    return module.split(".")[1]


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(module: str, path: Path, top: str = "hearts_env", *, type_checking: bool = False) -> list[
        tuple[str, str | None]]:
    """The ``top`` modules that ``module`` (the file ``path``) imports, relative imports resolved, each with
    the function whose body imports it (its dotted name in the module, ``Class.method`` for a method) or
    None at module level. ``from top import name`` counts as ``top.name``; imports under ``if
    TYPE_CHECKING:`` count only when ``type_checking``."""
    found: list[tuple[str, str | None]] = []
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]

    def add(name: str, function: str | None) -> None:
        if name == top or name.startswith(top + "."):
            found.append((name, function))

    def visit(node: ast.AST, names: tuple[str, ...], function: str | None) -> None:
        if isinstance(node, ast.If) and _type_checking(node) and not type_checking:
            for child in node.orelse:
                visit(child, names, function)
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name, function)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join([*parts[:len(parts) - node.level + 1], *([base] if base else [])])
            for alias in node.names:
                add(f"{base}.{alias.name}" if base == top else base, function)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names = (*names, node.name)
            if not isinstance(node, ast.ClassDef):
                function = ".".join(names)
        for child in ast.iter_child_nodes(node):
            visit(child, names, function)

    visit(ast.parse(path.read_text()), (), None)
    return list(dict.fromkeys(found))


def _modules(package: Path = PACKAGE) -> list[tuple[str, Path]]:
    out = []
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out.append((".".join(parts), path))
    return out


def _where(module: str, function: str | None) -> str:
    return module if function is None else f"{module}.{function}"


def _violations(modules: list[tuple[str, Path]], text: str | None = None) -> list[str]:
    """hearts_env's modules against its layer line: imports at module level and inside functions; an import
    inside a function may go against the line only where docs/architecture.md names it, and every one it
    names must exist."""
    layers, allowed = _layers(text), _exceptions(text)
    problems, used = [], set()
    for module, path in modules:
        if module == "hearts_env":
            continue  # the package face re-exports
        unit = _unit(module)
        if unit not in layers:
            problems.append(f"{module}: {unit!r} is in no layer of docs/architecture.md")
            continue
        for dep, function in _imports(module, path):
            if dep in ("hearts_env", "hearts_env.__version__"):
                continue
            target = _unit(dep)
            if target == unit or layers.get(target, 10**6) < layers[unit]:
                continue
            key = (_where(module, function).removeprefix("hearts_env."), target)
            if function is not None and key in allowed:
                used.add(key)
                continue
            problems.append(f"{_where(module, function)} imports {dep} ({target!r} is not in an earlier layer)")
    problems += [f"docs/architecture.md lets {name} import {target}, which it does not"
                 for name, target in sorted(allowed - used)]
    return problems


def _imports_of_the_baselines(modules: list[tuple[str, Path]]) -> list[str]:
    """Every import of hearts_baselines in ``modules`` (under TYPE_CHECKING too)."""
    return [f"{_where(module, function)} imports {dep}" for module, path in modules
            for dep, function in _imports(module, path, "hearts_baselines", type_checking=True)]


def _baseline_graph(modules: list[tuple[str, Path]]) -> dict[str, dict[str, str]]:
    """Which baselines units each unit imports (module level and inside functions), with the first import
    that does: {unit: {unit it imports: "module[.function] imports module"}}."""
    graph: dict[str, dict[str, str]] = {}
    for module, path in modules:
        if module == "hearts_baselines":
            continue
        unit = _unit(module)
        edges = graph.setdefault(unit, {})
        for dep, function in _imports(module, path, "hearts_baselines"):
            if dep != "hearts_baselines" and _unit(dep) != unit:
                edges.setdefault(_unit(dep), f"{_where(module, function)} imports {dep}")
    return graph


def _cycles(graph: dict[str, dict[str, str]]) -> list[str]:
    """Each import cycle among the units: the shortest loop through each unit that lies on one, once per
    set of units, with the imports that close it."""
    found: dict[frozenset[str], str] = {}
    for start in sorted(graph):
        paths = {start: [start]}
        frontier = [start]
        loop = None
        while frontier and loop is None:
            step = []
            for unit in frontier:
                for target in sorted(graph.get(unit, {})):
                    if target == start:
                        loop = [*paths[unit], start]
                        break
                    if target not in paths:
                        paths[target] = [*paths[unit], target]
                        step.append(target)
                if loop:
                    break
            frontier = step
        if loop and frozenset(loop) not in found:
            found[frozenset(loop)] = " → ".join(loop) + " (" + "; ".join(
                graph[a][b] for a, b in itertools.pairwise(loop)) + ")"
    return list(found.values())


def _baseline_violations(modules: list[tuple[str, Path]], text: str | None = None) -> list[str]:
    """The baselines' units against their layer line (module level and inside functions alike)."""
    layers = _baseline_layers(text)
    problems = []
    for unit, edges in _baseline_graph(modules).items():
        if unit not in layers:
            problems.append(f"hearts_baselines.{unit}: {unit!r} is in no layer of docs/architecture.md")
            continue
        problems += [f"{how} ({target!r} is not in an earlier layer)" for target, how in sorted(edges.items())
                     if layers.get(target, 10**6) >= layers[unit]]
    return problems


def test_every_module_has_a_layer_and_imports_only_earlier_layers():
    problems = _violations(_modules())
    assert not problems, "\n".join(problems)


def _wing_violations(modules: list[tuple[str, Path]], text: str | None = None) -> list[str]:
    """The wing's rooms (``hearts_env.evaluation.ROOM``) against the wing's layer line, module level and inside
    functions alike (``TYPE_CHECKING`` aside)."""
    layers = _wing_layers(text)
    problems = []
    for module, path in modules:
        parts = module.split(".")
        if parts[:2] != ["hearts_env", WING] or len(parts) < 3:
            continue
        room = parts[2]
        if room not in layers:
            problems.append(f"{module}: {room!r} is in no layer of the wing's line in docs/architecture.md")
            continue
        for dep, function in _imports(module, path):
            target = dep.split(".")
            if target[:2] != ["hearts_env", WING] or len(target) < 3 or target[2] == room:
                continue
            if layers.get(target[2], 10**6) >= layers[room]:
                problems.append(f"{_where(module, function)} imports {dep} ({target[2]!r} is not in an earlier "
                                "layer of the wing)")
    return problems


def _below_the_wing_importing_it(modules: list[tuple[str, Path]], text: str | None = None) -> list[str]:
    """Every import of the wing by a module below it, under ``TYPE_CHECKING`` too: the never of
    docs/architecture.md."""
    layers = _layers(text)
    return [f"{_where(module, function)} imports {dep}" for module, path in modules
            if module != "hearts_env" and layers.get(_unit(module), 10**6) < layers[WING]
            for dep, function in _imports(module, path, type_checking=True)
            if dep == f"hearts_env.{WING}" or dep.startswith(f"hearts_env.{WING}.")]


def test_the_wing_rooms_import_only_earlier_rooms():
    problems = _wing_violations(_modules())
    assert not problems, "\n".join(problems)


def test_nothing_below_the_wing_imports_it():
    """The environments, the agent registry and everything else below the evaluation wing import none of it,
    not even for type checking: the spec schemes it adds reach the registry through an entry point."""
    problems = _below_the_wing_importing_it(_modules())
    assert not problems, "\n".join(problems)


def test_the_wing_checks_see_violations(tmp_path):
    text = "```\ncards → agents → evaluation → cli\n```\n\n```\nseat → arena → benchmark\n```\n"
    (tmp_path / "game.py").write_text("from hearts_env.evaluation.benchmark import suite\n"
                                      "from hearts_env.evaluation.seat import Sandbox\n")
    (tmp_path / "agents.py").write_text("if TYPE_CHECKING:\n    from hearts_env.evaluation.seat import Sandbox\n"
                                        "def f():\n    from hearts_env import evaluation\n")
    (tmp_path / "lost.py").write_text("")
    modules = [("hearts_env.evaluation.arena.game", tmp_path / "game.py"),
               ("hearts_env.evaluation.lost", tmp_path / "lost.py"), ("hearts_env.agents", tmp_path / "agents.py")]
    assert _wing_violations(modules, text) == [
        "hearts_env.evaluation.arena.game imports hearts_env.evaluation.benchmark ('benchmark' is not in an earlier "
        "layer of the wing)",
        "hearts_env.evaluation.lost: 'lost' is in no layer of the wing's line in docs/architecture.md"]
    assert _below_the_wing_importing_it(modules, text) == ["hearts_env.agents imports hearts_env.evaluation.seat",
                                                           "hearts_env.agents.f imports hearts_env.evaluation"]


def test_hearts_env_never_imports_the_baselines():
    problems = _imports_of_the_baselines(_modules())
    assert not problems, "\n".join(problems)


def test_the_baselines_packages_import_no_cycle():
    cycles = _cycles(_baseline_graph(_modules(BASELINES)))
    assert not cycles, "\n".join(cycles)


def test_every_baselines_package_has_a_layer_and_imports_only_earlier_layers():
    problems = _baseline_violations(_modules(BASELINES))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("package", ["apprentice", "learned"])
def test_a_baselines_package_lists_its_modules_each_importing_only_those_above_it(package: str):
    """The package's docstring names every module of the package (``:mod:`.name```) in an order in which
    each imports (at module level or inside a function) only modules named before it: the imports inside a
    package run one way (docs/subagents.md's table holds subagents to the same, tests/test_subagents.py)."""
    folder = BASELINES / package
    order = list(dict.fromkeys(re.findall(r":mod:`\.(\w+)`", (folder / "__init__.py").read_text())))
    assert sorted(order) == sorted(p.stem for p in folder.glob("*.py") if p.stem != "__init__")
    prefix = f"hearts_baselines.{package}."
    for k, module in enumerate(order):
        names: set[str] = set()
        for node in ast.walk(ast.parse((folder / f"{module}.py").read_text())):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = prefix + (node.module or "") if node.level == 1 else node.module or ""
                names.add(base)
                names.update(f"{base.rstrip('.')}.{alias.name}" for alias in node.names)
        used = {name.removeprefix(prefix).split(".")[0] for name in names if name.startswith(prefix)}
        assert used <= set(order[:k]), (module, sorted(used - set(order[:k])))


DOC_TEXT = """
```
cards → rules → engine → agents, worlds → vector → arena
```

```
jit, weightfiles → tdlambda → search
```

- `worlds.sample` imports `vector`: it replays candidate worlds on the batched engine.
- `engine.Deal.gone` imports `arena`: no longer true.
"""


def test_the_layer_check_sees_violations(tmp_path):
    upward = tmp_path / "engine.py"
    upward.write_text("from hearts_env.cards import to_mask\nfrom hearts_env.arena import run_arena\n")
    sideways = tmp_path / "agents.py"
    sideways.write_text("import numpy\nfrom hearts_env import worlds\nif TYPE_CHECKING:\n    import hearts_env.cli\n")
    lost = tmp_path / "lost.py"
    lost.write_text("")
    inside = tmp_path / "worlds.py"
    inside.write_text("def sample():\n    from hearts_env.vector import VectorDeals\n\n"
                      "class Sampler:\n    def draw(self):\n        def inner():\n"
                      "            from .arena import run_arena\n        from hearts_env.cards import to_mask\n"
                      "        if TYPE_CHECKING:\n            from hearts_env import arena\n"
                      "        else:\n            from hearts_env import vector\n"
                      "try:\n    import hearts_env.arena.game\nexcept ImportError:\n    pass\n")
    modules = [("hearts_env.engine", upward), ("hearts_env.agents.x", sideways), ("hearts_env.lost", lost),
               ("hearts_env.worlds", inside)]
    assert _violations(modules, DOC_TEXT) == [
        "hearts_env.engine imports hearts_env.arena ('arena' is not in an earlier layer)",
        "hearts_env.agents.x imports hearts_env.worlds ('worlds' is not in an earlier layer)",
        "hearts_env.lost: 'lost' is in no layer of docs/architecture.md",
        "hearts_env.worlds.Sampler.draw.inner imports hearts_env.arena ('arena' is not in an earlier layer)",
        "hearts_env.worlds.Sampler.draw imports hearts_env.vector ('vector' is not in an earlier layer)",
        "hearts_env.worlds imports hearts_env.arena.game ('arena' is not in an earlier layer)",
        "docs/architecture.md lets engine.Deal.gone import arena, which it does not"]
    assert _exceptions(DOC_TEXT) == {("worlds.sample", "vector"), ("engine.Deal.gone", "arena")}


def test_the_baselines_checks_see_violations(tmp_path):
    (tmp_path / "agent.py").write_text("from hearts_baselines.search.common import SearchAgent\n"
                                       "from hearts_baselines import weightfiles\nimport hearts_env.arena\n")
    (tmp_path / "maxn.py").write_text("def load():\n    from hearts_baselines.tdlambda.agent import load\n")
    (tmp_path / "jit.py").write_text("if TYPE_CHECKING:\n    from hearts_baselines.search import maxn\n")
    (tmp_path / "lost.py").write_text("def f():\n    from .search import maxn\n")
    (tmp_path / "seat.py").write_text("def f():\n    from hearts_baselines.tdlambda import agent\n")
    modules = [("hearts_baselines.tdlambda.agent", tmp_path / "agent.py"),
               ("hearts_baselines.search.maxn", tmp_path / "maxn.py"),
               ("hearts_baselines.jit", tmp_path / "jit.py"), ("hearts_baselines.lost", tmp_path / "lost.py")]
    assert _cycles(_baseline_graph(modules)) == [
        "search → tdlambda → search (hearts_baselines.search.maxn.load imports hearts_baselines.tdlambda.agent; "
        "hearts_baselines.tdlambda.agent imports hearts_baselines.search.common)"]
    assert _baseline_violations(modules, DOC_TEXT) == [
        "hearts_baselines.tdlambda.agent imports hearts_baselines.search.common ('search' is not in an earlier layer)",
        "hearts_baselines.lost: 'lost' is in no layer of docs/architecture.md"]
    assert _imports_of_the_baselines([("hearts_env.seat.x", tmp_path / "seat.py"),
                                      ("hearts_env.jit", tmp_path / "jit.py")]) == [
        "hearts_env.seat.x.f imports hearts_baselines.tdlambda",
        "hearts_env.jit imports hearts_baselines.search"]


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
