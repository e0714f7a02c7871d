"""The shipped results live in one folder, results/, apart from the prose, and name no path of a machine.

results/ holds every records and result file the docs' tables and measurements read (the leaderboard, the
reference tables, the exploiters and probes, the measurements); docs/ holds the prose and its pictures only. A
result names its files by name and SHA-256, never by a path of the machine it ran on: such a path tells a reader
nothing they can open, and it leaks the machine's layout.
"""

import lzma
import re
from pathlib import Path

import pytest

from hearts_env.evaluation.benchmark.runner import public_message, public_spec

ROOT = Path(__file__).parents[1]
RESULTS = ROOT / "results"
DOCS = ROOT / "docs"
SHIPPED = sorted(path for path in RESULTS.rglob("*") if path.is_file())
MACHINE_PATH = re.compile(r"""["'\s=:(]/(root|home|work|tmp|Users|mnt|opt|srv|var|private)/|[A-Za-z]:\\\\""")
"""An absolute path of a machine: a POSIX home, work or temporary folder, or a Windows drive (escaped in JSON)."""
PICTURES = {".png", ".svg", ".jpg", ".jpeg", ".gif", ".webp"}


def _text(path: Path) -> str:
    data = path.read_bytes()
    if path.suffix == ".xz":
        data = lzma.decompress(data)
    return data.decode()


def test_the_results_folder_holds_every_kind_of_result():
    for folder in ("leaderboard", "reference-table", "exploit", "probes", "measurements"):
        assert any((RESULTS / folder).rglob("*.json")), f"results/{folder}/ holds no result"


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(RESULTS)))
def test_no_shipped_result_names_a_path_of_a_machine(path):
    found = MACHINE_PATH.search(_text(path))
    assert found is None, f"{path.relative_to(ROOT)} names a path of a machine: ...{found.group(0)}..."


def test_the_results_folder_holds_no_script():
    scripts = [p.relative_to(ROOT) for p in SHIPPED if p.suffix in {".py", ".sh"}]
    assert not scripts, f"scripts belong in lab/, not results/: {scripts}"


def test_docs_hold_prose_and_pictures_only():
    data = [p.relative_to(ROOT) for p in DOCS.rglob("*") if p.is_file() and p.suffix != ".md"
            and p.suffix not in PICTURES]
    assert not data, f"result data belongs in results/, not docs/: {data}"


def test_the_pattern_finds_the_paths_it_must():
    for text in ('"init": "/srv/runtree/weights/apprentice.npz"', "apprentice(weights='/home/me/a.npz')",
                 '"status": "paused: ...; /tmp/run/heuristic.jsonl holds them"', '"C:\\\\Users\\\\me\\\\a.npz"'):
        assert MACHINE_PATH.search(text), text
    assert not MACHINE_PATH.search('"agent": "apprentice(weights=\'runs/ft/apprentice.npz\')"')


def test_a_result_records_files_by_name():
    """What the writers record: the benchmark's agent spec and sittings, the exploit runs' target spec."""
    spec = "apprentice(weights='/srv/main/runs/ft/B/apprentice.npz')"
    assert public_spec(spec) == "apprentice(weights='apprentice.npz')"
    assert public_spec("seat:python /home/me/bots/bot.py --fast") == "seat:python bot.py --fast"
    assert public_spec("sb3:C:\\Users\\me\\model.zip") == "sb3:model.zip"
    assert public_spec("apprentice(weights='runs/a.npz')") == "apprentice(weights='runs/a.npz')"  # not a machine's
    assert public_spec("pimc(n=40, policy='apprentice')") == "pimc(n=40, policy='apprentice')"
    folder = Path("/srv/runs/bench/a").absolute()
    message = f"paused: the games in play were finished; {folder / 'heuristic.jsonl'} holds them; resume continues"
    assert public_message(message, folder) == ("paused: the games in play were finished; heuristic.jsonl holds "
                                               "them; resume continues")


def test_every_results_and_lab_path_the_docs_name_exists():
    """``results/...`` and ``lab/...`` in README.md and docs/*.md name files or folders that exist (a placeholder
    such as ``AGENT.json`` or ``<tier>/``, or a ``*`` pattern, is checked up to the folder holding it)."""
    missing = []
    for page in [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]:
        for m in re.finditer(r"(?<![\w/.-])((?:results|lab)/[\w./-]*)(.?)", page.read_text()):
            parts, kept = m.group(1).rstrip(".").split("/"), []
            for i, part in enumerate(parts):
                last = i == len(parts) - 1
                if re.fullmatch(r"[A-Z][A-Z_-]*(\.[\w.]+)?", part) or (last and m.group(2) in ("*", "<")):
                    break
                kept.append(part)
            if not (ROOT / "/".join(kept)).exists():
                missing.append(f"{page.relative_to(ROOT)} names {m.group(1)}")
    assert not missing, "\n".join(missing)


def test_the_wheel_ships_no_results():
    """results/ is the repository's, not the package's: no package or package-data setting of pyproject.toml names
    it, and it is no Python package that ``packages.find`` could pick up."""
    text = (ROOT / "pyproject.toml").read_text()
    sections = re.findall(r"^\[tool\.setuptools[^\]]*\]\n(?:(?!\[).*\n)*", text, flags=re.M)
    assert sections and not any("results" in section for section in sections)
    assert not (RESULTS / "__init__.py").exists()
