"""Every fenced code block of README.md and docs/*.md runs as written (issue 38).

- A ```` ```python ```` block is one test, its id ``FILE:LINE`` (the line of its opening fence). It runs in
  a fresh interpreter (a subprocess of this one, ``TIMEOUT`` seconds at most) whose working directory is
  a new temporary folder, so the ``runs/...`` paths of a block land there. **A block runs after the
  earlier runnable python blocks of its page**, in page order and in one namespace, as a reader going down
  the page would run them: a block may use what an earlier block of its page defined (docs/env.md's
  ``env``). Tracebacks name the page and its line. Includes (``--8<-- "path"``, pymdownx.snippets, as
  docs/examples.md uses them) are read from the repository as mkdocs does.
- A python block that cannot run as written (a GPU, a long training run, the network, a placeholder, a
  file a training run writes) carries ``<!-- no-test: REASON -->`` on the line before its fence. Its test
  still compiles it (it must be Python) and then skips with ``no-test: REASON``, so ``pytest -rs`` lists
  every such block with its reason; nothing else is skipped.
- Commands, in ```` ```sh ````/```` ```bash ```` blocks and in blocks without a language, are checked
  without running them, one test per block: a ``hearts-env SUBCOMMAND ...`` line is parsed by the CLI's
  own argparse parser (:func:`hearts_env.cli.build_parser`; nothing runs), so its subcommand, options,
  choices and argument counts must be accepted; ``python -m MODULE``
  and ``python FILE.py`` must name a module or file of the repository, and their arguments are parsed the
  same way by the parser the program builds (run as ``__main__`` up to its first parse; where it imports
  an optional dependency that is not installed, ray, each ``--option`` must be spelled in its source);
  ``make TARGET`` must be a target of the Makefile; ``pip install 'hearts-env[EXTRAS]'`` extras that
  pyproject.toml defines (as installed). Other lines (``ray start``, shell functions) are not checked.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.metadata
import io
import json
import os
import re
import runpy
import shlex
import subprocess
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
TIMEOUT = 120  # seconds for one block with its page's earlier blocks; each takes a few seconds on 2 busy cores

FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})\s*(?P<lang>[\w+-]*)")
NO_TEST = re.compile(r"^\s*<!--\s*no-test:\s*(?P<reason>.*?)\s*-->\s*$")
SNIPPET = re.compile(r"""^\s*--8<--\s*["'](?P<path>[^"']+)["']\s*$""")
SHELLS = ("sh", "bash", "shell", "console", "")

# Markers for blocks on pages that another change was editing when this test was written (docs/benchmark.md):
# (page, the block's first line) -> reason. They belong in the page as <!-- no-test: REASON -->; move them there.


@dataclass(frozen=True)
class Block:
    page: str  # relative to the repository root
    line: int  # of the opening fence, 1-based
    lang: str
    code: str  # dedented, includes resolved
    no_test: str | None

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"


def _resolve_snippets(code: str) -> str:
    out = []
    for line in code.split("\n"):
        match = SNIPPET.match(line)
        out.append((ROOT / match["path"]).read_text().rstrip("\n") if match else line)
    return "\n".join(out)


def blocks_of(path: Path) -> list[Block]:
    page = path.relative_to(ROOT).as_posix()
    lines = path.read_text().split("\n")
    blocks, i = [], 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        start, fence = i, opening["fence"]
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence):
            i += 1
        code = _resolve_snippets(textwrap.dedent("\n".join(lines[start + 1:i])))
        marker = NO_TEST.match(lines[start - 1]) if start else None
        reason = marker["reason"] if marker else None
        blocks.append(Block(page, start + 1, opening["lang"].lower(), code, reason))
        i += 1
    return blocks


BLOCKS = [block for path in PAGES for block in blocks_of(path)]
PYTHON = [block for block in BLOCKS if block.lang == "python"]
COMMANDS = [block for block in BLOCKS if block.lang in SHELLS]

RUNNER = """\
import json, sys
blocks = json.load(open(sys.argv[1]))
namespace = {"__name__": "__main__"}
for page, line, code in blocks:
    exec(compile("\\n" * line + code, page, "exec"), namespace)  # tracebacks show the page's own lines
"""


@pytest.mark.parametrize("block", PYTHON, ids=[block.id for block in PYTHON])
def test_python_block_runs(block: Block, tmp_path: Path) -> None:
    compile(block.code, block.id, "exec")
    if block.no_test is not None:
        pytest.skip(f"no-test {block.id}: {block.no_test}")
    page = [b for b in PYTHON if b.page == block.page and b.no_test is None and b.line <= block.line]
    (tmp_path / "blocks.json").write_text(json.dumps([[str(ROOT / b.page), b.line, b.code] for b in page]))
    (tmp_path / "runner.py").write_text(RUNNER)
    work = tmp_path / "work"
    work.mkdir()
    try:
        done = subprocess.run([sys.executable, str(tmp_path / "runner.py"), str(tmp_path / "blocks.json")],
                              cwd=work, capture_output=True, text=True, timeout=TIMEOUT,
                              env={**os.environ, "MPLBACKEND": "Agg"})
    except subprocess.TimeoutExpired:
        pytest.fail(f"{block.id} (after {len(page) - 1} earlier blocks of its page) ran past {TIMEOUT} s")
    assert done.returncode == 0, f"{block.id} failed (run after {[b.id for b in page[:-1]]}):\n{done.stderr[-4000:]}"


def test_no_test_markers_sit_on_fences() -> None:
    """A marker is on the line just before a fence, with a reason."""
    for path in PAGES:
        openings = {block.line for block in blocks_of(path)}
        for n, line in enumerate(path.read_text().split("\n")):
            marker = NO_TEST.match(line)
            if marker:
                where = f"{path.relative_to(ROOT)}:{n + 1}"
                assert marker["reason"], f"{where}: a no-test marker gives its reason"
                assert n + 2 in openings, f"{where}: the marker is not on the line before a block's fence"


def test_the_blocks_are_found() -> None:
    assert len(PYTHON) >= 20 and len(COMMANDS) >= 20
    assert any(b.page == "docs/vector.md" and "make_vec" in b.code for b in PYTHON)


# ---- commands ----------------------------------------------------------------------------------------------


class _Parsed(Exception):
    pass


def _parser_of(run: Callable[[], object]) -> argparse.ArgumentParser:
    """The parser a program builds, caught at its first parse: the program runs no further."""
    caught: list[argparse.ArgumentParser] = []

    def catch(self: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        caught.append(self)
        raise _Parsed

    with mock.patch.object(argparse.ArgumentParser, "parse_known_args", catch), \
            mock.patch.object(argparse.ArgumentParser, "parse_args", catch), \
            mock.patch.object(sys, "argv", ["docs"]), contextlib.suppress(_Parsed):
        run()
    assert caught, f"{run} did not parse arguments"
    return caught[0]


@pytest.fixture(scope="module")
def cli_parser() -> argparse.ArgumentParser:
    """The parser of the ``hearts-env`` command."""
    from hearts_env.cli import build_parser

    return build_parser()


_SCRIPTS: dict[Path, argparse.ArgumentParser | ModuleNotFoundError] = {}


def _script_parser(source: Path, module: str | None) -> argparse.ArgumentParser | ModuleNotFoundError:
    """The parser of ``python -m MODULE`` or ``python FILE.py``, run as __main__ up to its first parse;
    the ModuleNotFoundError of an optional dependency it needs that is not installed (ray)."""
    if source not in _SCRIPTS:
        if module:
            def run() -> object:  # as python -m runs it: the module is sys.modules["__main__"] (its Args' types)
                return runpy.run_module(module, run_name="__main__", alter_sys=True)
        else:
            def run() -> object:
                return runpy.run_path(str(source), run_name="__main__")
        try:
            _SCRIPTS[source] = _parser_of(run)
        except ModuleNotFoundError as missing:
            _SCRIPTS[source] = missing
    return _SCRIPTS[source]


def _parse(parser: argparse.ArgumentParser, words: list[str]) -> tuple[argparse.Namespace | None, list[str], str]:
    """parse_known_args without exiting: (namespace or None, unknown words, argparse's error)."""
    error = io.StringIO()
    try:
        with contextlib.redirect_stderr(error), contextlib.redirect_stdout(io.StringIO()):
            args, unknown = parser.parse_known_args(words)
    except SystemExit as exit:  # --help exits 0
        return None, [], "" if exit.code == 0 else error.getvalue().strip().split("\n")[-1]
    return args, unknown, ""


def _commands(code: str) -> list[list[str]]:
    """The block's command lines as words: continuations joined, comments, prompts and indents dropped."""
    joined = re.sub(r"\\\n", " ", code)
    commands = []
    for line in joined.split("\n"):
        line = line.strip().removeprefix("$ ")
        if not line or line.startswith("#"):
            continue
        try:
            words = shlex.split(line, comments=True)
        except ValueError:  # not a shell line (a table, a diagram)
            continue
        if words:
            commands.append(words)
    return commands


def _module_source(module: str) -> Path | None:
    for base in (ROOT / "src", ROOT / "baselines"):
        path = base.joinpath(*module.split("."))
        for candidate in (path.with_suffix(".py"), path / "__main__.py"):
            if candidate.is_file():
                return candidate
    return None


def _options(words: list[str]) -> list[str]:
    return [word.split("=")[0] for word in words if word.startswith("--") and len(word) > 2]


def _check_hearts_env(words: list[str], parser: argparse.ArgumentParser) -> str | None:
    from hearts_env.cli import split_program

    words, _ = split_program(words)  # `seat connect ... -- COMMAND`: the command's words are its own
    args, unknown, error = _parse(parser, words)
    if error:
        return error
    if args is not None and args.command in ("speed", "bench"):  # its options are speed/run.py's
        source = (ROOT / "speed" / "run.py").read_text()
        missing = [option for option in _options(unknown) if f'"{option}"' not in source]
        return f"speed/run.py has no {missing}" if missing else None
    return f"unrecognized arguments: {unknown}" if unknown else None


def _check_python(words: list[str]) -> str | None:
    module = None
    if words[1:2] == ["-m"] and len(words) > 2:
        module, words = words[2], words[3:]
        source = _module_source(module)
        if source is None:
            return f"no module {module} in src/ or baselines/"
    elif words[1:2] and words[1].endswith(".py"):
        source, words = ROOT / words[1], words[2:]
        if not source.is_file():
            return f"no file {source.relative_to(ROOT)}"
    else:
        return None
    parser = _script_parser(source, module)
    if isinstance(parser, ModuleNotFoundError):  # the options' spelling in the source, then
        missing = [option for option in _options(words) if f'"{option}"' not in source.read_text()]
        return f"{source.relative_to(ROOT)} defines no {missing} ({parser})" if missing else None
    _, unknown, error = _parse(parser, words)
    return error or (f"unrecognized arguments: {unknown}" if unknown else None)


def _check_make(words: list[str]) -> str | None:
    makefile = (ROOT / "Makefile").read_text()
    missing = [target for target in words[1:] if not target.startswith("-")
               and not re.search(rf"^{re.escape(target)}\s*:(?!=)", makefile, re.MULTILINE)]
    return f"the Makefile has no target {missing}" if missing else None


def _check_pip(words: list[str]) -> str | None:
    extras = set(importlib.metadata.metadata("hearts-env").get_all("Provides-Extra") or [])  # pyproject.toml's
    for word in words[2:]:
        match = re.fullmatch(r"(?:hearts-env|\.)\[(?P<extras>[\w,-]+)\]", word)
        if match:
            unknown = set(match["extras"].split(",")) - extras
            if unknown:
                return f"pyproject.toml has no extra {sorted(unknown)}"
    return None


def _check(words: list[str], parser: argparse.ArgumentParser) -> str | None:
    program = Path(words[0]).name
    if program == "hearts-env":
        return _check_hearts_env(words[1:], parser)
    if re.fullmatch(r"python3?(\.\d+)?", program):
        return _check_python(words)
    if program == "make":
        return _check_make(words)
    if program == "pip" and words[1:2] == ["install"]:
        return _check_pip(words)
    return None


@pytest.mark.parametrize("block", COMMANDS, ids=[block.id for block in COMMANDS])
def test_commands_are_accepted(block: Block, cli_parser: argparse.ArgumentParser) -> None:
    problems = [f"{shlex.join(words)}: {problem}" for words in _commands(block.code)
                if (problem := _check(words, cli_parser))]
    assert not problems, f"{block.id}:\n" + "\n".join(problems)


def test_the_command_check_refuses_what_the_programs_refuse(cli_parser: argparse.ArgumentParser) -> None:
    assert _check(["hearts-env", "arena", "heuristic", "--deals", "8"], cli_parser) is None
    assert _check(["hearts-env", "arena", "heuristic", "--no-such-option"], cli_parser)
    assert _check(["hearts-env", "arena", "heuristic", "--backend", "gpu"], cli_parser)
    assert _check(["hearts-env", "no-such-command"], cli_parser)
    assert _check(["hearts-env", "play", "--opponents", "heuristic"], cli_parser)  # three needed
    assert _check(["python", "-m", "hearts_baselines.culhane.evaluate", "--deals", "8"], cli_parser) is None
    assert _check(["python", "-m", "hearts_baselines.culhane.evaluate", "--no-such-option"], cli_parser)
    assert _check(["python", "-m", "hearts_baselines.culhane.evaluate", "--deals", "many"], cli_parser)
    assert _check(["python", "-m", "hearts_baselines.no_such_module"], cli_parser)
    assert _check(["python", "examples/no_such_example.py"], cli_parser)
    assert _check(["make", "no-such-target"], cli_parser)
    assert _check(["pip", "install", "hearts-env[no-such-extra]"], cli_parser)
