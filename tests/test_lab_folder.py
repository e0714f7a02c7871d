"""The lab stays apart from the product: every script that is not the package, a test, an example or the speed
benchmark lives in lab/, and nothing in lab/ names a path of a machine (scripts take paths as arguments)."""

import subprocess
import tarfile
from pathlib import Path

import pytest
from test_results_folder import MACHINE_PATH

ROOT = Path(__file__).parents[1]
LAB = ROOT / "lab"
HOMES = ("src/", "baselines/", "tests/", "examples/", "speed/", "lab/", ".ci/")
"""Where scripts may live: the product, its tests, its examples, the speed benchmark and the lab."""


def _tracked() -> list[str]:
    done = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip("the scripts' homes are checked on git's list of tracked files; this copy is not a git checkout")
    return done.stdout.splitlines()


def test_every_script_outside_the_product_is_in_the_lab():
    strays = [f for f in _tracked() if f.endswith((".py", ".sh")) and not f.startswith(HOMES)]
    assert not strays, f"scripts that are not the product belong in lab/: {strays}"


@pytest.mark.parametrize("path", sorted(p for p in LAB.rglob("*") if p.is_file() and "__pycache__" not in p.parts),
                         ids=lambda p: str(p.relative_to(LAB)))
def test_nothing_in_the_lab_names_a_path_of_a_machine(path):
    if path.name.endswith(".tar.xz"):
        with tarfile.open(path) as archive:
            texts = {member.name: archive.extractfile(member).read().decode(errors="replace")  # type: ignore[union-attr]
                     for member in archive.getmembers() if member.isfile()}
    else:
        texts = {path.name: path.read_text(errors="replace")}
    found = {name: m.group(0) for name, text in texts.items() if (m := MACHINE_PATH.search(text))}
    assert not found, f"{path.relative_to(ROOT)} names a path of a machine: {found}"
