"""hearts_baselines.run_args: a run's arguments as a dataclass, read by argparse; and every command of the
baselines declares its arguments that way."""

from __future__ import annotations

import ast
import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import pytest

from hearts_baselines.run_args import arg, build_parser, parse

ROOT = Path(__file__).resolve().parents[1]
BASELINES = ROOT / "baselines" / "hearts_baselines"


@dataclass
class Args:
    out: Path = arg(help="folder of the run")
    deals: int = arg(1000, "training deals (default %(default)s)")
    lr: float = 0.5
    rules: str = "standard"
    engine: Literal["batch", "scalar"] = arg("batch", "which engine")
    stage: str = arg("all", "stage to run", choices=("all", "play"))
    jobs: int | None = None
    resume: bool = arg(False, "continue from the last save")
    breaker: bool = True
    sizes: tuple[int, ...] = (64, 64)
    tags: list[str] = arg([], "labels")


def test_fields_become_typed_options_with_their_defaults() -> None:
    args = parse(Args, ["--out", "runs/x"])
    assert args == Args(out=Path("runs/x"))
    assert isinstance(args.out, Path) and args.deals == 1000 and args.jobs is None and args.tags == []
    args = parse(Args, ["--out", "o", "--deals", "7", "--lr", "0.25", "--rules", "dutch", "--engine", "scalar",
                        "--stage", "play", "--jobs", "3", "--sizes", "8", "16", "32", "--tags", "a", "b"])
    assert (args.deals, args.lr, args.rules, args.engine, args.stage, args.jobs) == (7, 0.25, "dutch", "scalar",
                                                                                      "play", 3)
    assert args.sizes == (8, 16, 32) and args.tags == ["a", "b"]


def test_bools_are_flags() -> None:
    assert parse(Args, ["--out", "o"]).resume is False
    assert parse(Args, ["--out", "o", "--resume"]).resume is True
    assert parse(Args, ["--out", "o"]).breaker is True
    assert parse(Args, ["--out", "o", "--no-breaker"]).breaker is False


def test_help_shows_the_flags_choices_and_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        parse(Args, ["--help"], "What the run does.\n\n    python -m it --deals 3\n")
    assert done.value.code == 0
    text = capsys.readouterr().out
    assert "What the run does.\n\n    python -m it --deals 3" in text  # the docstring as written
    for shown in ("--out OUT", "folder of the run", "--deals DEALS", "training deals (default 1000)",
                  "--engine {batch,scalar}", "--stage {all,play}", "--resume", "continue from the last save",
                  "--no-breaker", "--sizes SIZES [SIZES ...]", "--lr LR"):
        assert shown in text, shown
    assert f"usage: python -m {Args.__module__}" in text  # the module declaring the arguments


@pytest.mark.parametrize(("argv", "message"), [
    ([], "the following arguments are required: --out"),
    (["--out", "o", "--deals", "many"], "argument --deals: invalid int value: 'many'"),
    (["--out", "o", "--engine", "gpu"], "argument --engine: invalid choice: 'gpu'"),
    (["--out", "o", "--stage", "pass"], "argument --stage: invalid choice: 'pass'"),
    (["--out", "o", "--bogus"], "unrecognized arguments: --bogus"),
])
def test_bad_input_is_one_line_and_exit_2(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        parse(Args, argv)
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: ") and "Traceback" not in err
    assert message in err.strip().split("\n")[-1]


@dataclass
class Checked:
    deals: int = 5

    def __post_init__(self) -> None:
        if self.deals < 1:
            raise ValueError("--deals must be at least 1")


def test_post_init_refuses_like_argparse(capsys: pytest.CaptureFixture[str]) -> None:
    assert parse(Checked, ["--deals", "2"]).deals == 2
    with pytest.raises(SystemExit) as done:
        parse(Checked, ["--deals", "0"])
    assert done.value.code == 2
    assert capsys.readouterr().err.strip().split("\n")[-1].endswith("error: --deals must be at least 1")


@dataclass
class Plot:
    out: Path = arg(positional=True)
    panels: list[str] = arg(help="title:path", positional=True)
    mode: Literal["a", "b"] = arg("a", positional=True)


def test_positional_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    args = parse(Plot, ["o.png", "x:1", "y:2"])
    assert args == Plot(Path("o.png"), ["x:1", "y:2"])
    with pytest.raises(SystemExit):
        parse(Plot, ["o.png"])
    assert "the following arguments are required: panels" in capsys.readouterr().err


@dataclass
class Run:
    """play one cell"""

    n: int = arg(help="rollouts")
    seed: int = 0


@dataclass
class Table:
    """the tables"""

    json: bool = False


def test_subcommands(capsys: pytest.CaptureFixture[str]) -> None:
    commands = {"run": Run, "table": Table}
    assert parse(commands, ["run", "--n", "3"]) == Run(3)
    assert parse(commands, ["table", "--json"]) == Table(True)
    with pytest.raises(SystemExit):
        parse(commands, ["--help"])
    text = capsys.readouterr().out
    assert "play one cell" in text and "the tables" in text
    with pytest.raises(SystemExit) as done:
        parse(commands, [])
    assert done.value.code == 2
    assert "required: command" in capsys.readouterr().err
    assert build_parser(commands).parse_args(["run", "--n", "1"]).n == 1


def test_a_bool_without_default_is_refused() -> None:
    @dataclass
    class Bad:
        flag: bool

    with pytest.raises(TypeError, match="a bool is a flag with a default"):
        build_parser(Bad)


# ---- every command of the baselines -------------------------------------------------------------------------


def _modules_with_main() -> list[str]:
    found = []
    for path in sorted(BASELINES.rglob("*.py")):
        tree = ast.parse(path.read_text())
        if any(isinstance(node, ast.FunctionDef) and node.name == "main" for node in tree.body):
            found.append(".".join(path.relative_to(BASELINES.parent).with_suffix("").parts))
    return found


MAINS = _modules_with_main()


def test_the_baselines_build_no_parser_by_hand() -> None:
    by_hand = [path.relative_to(ROOT).as_posix() for path in sorted(BASELINES.rglob("*.py"))
               if path.name != "run_args.py" and ("ArgumentParser(" in path.read_text()
                                                 or "add_argument(" in path.read_text())]
    assert not by_hand, f"parsers built by hand instead of hearts_baselines.run_args: {by_hand}"
    assert len(MAINS) >= 16


@pytest.mark.parametrize("module", MAINS)
def test_every_main_parses_an_args_dataclass(module: str) -> None:
    """Each ``main`` reads its arguments with ``parse(...)`` into dataclasses declared in its module (or
    the module it extends), and its parser builds (its help renders)."""
    source = (BASELINES.parent / Path(*module.split("."))).with_suffix(".py").read_text()
    tree = ast.parse(source)
    main = next(node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == "main")
    calls = [node for node in ast.walk(main) if isinstance(node, ast.Call)
             and isinstance(node.func, ast.Name) and node.func.id == "parse"]
    assert len(calls) == 1, f"{module}.main reads its arguments with one parse(...) call"
    mod = importlib.import_module(module)
    spec = calls[0].args[0]
    if isinstance(spec, ast.Name):
        parser = build_parser(getattr(mod, spec.id), mod.__doc__)
    else:
        assert isinstance(spec, ast.Dict), f"{module}.main parses a dataclass or a dict of subcommands"
        commands = {}
        for key, value in zip(spec.keys, spec.values):
            assert isinstance(key, ast.Constant) and isinstance(value, ast.Name)
            commands[key.value] = getattr(mod, value.id)
        parser = build_parser(commands, mod.__doc__)
    assert parser.format_help()
