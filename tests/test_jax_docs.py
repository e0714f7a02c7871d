"""docs/jax.md's python blocks run as written, in page order in one interpreter, where JAX is installed
(``make test-jax``). tests/test_docs_blocks.py compiles them everywhere and skips them by their no-test marker,
since the main test venv has no JAX."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_docs_blocks import ROOT, blocks_of

pytest.importorskip("jax")

PAGE = ROOT / "docs" / "jax.md"
BLOCKS = [b for b in blocks_of(PAGE) if b.lang == "python"]


def test_the_page_has_python_blocks_each_marked_for_this_test():
    assert len(BLOCKS) >= 2
    assert all(b.no_test is not None and "test_jax_docs.py" in b.no_test for b in BLOCKS)


def test_the_blocks_run_in_page_order(tmp_path: Path):
    code = "\n\n".join(b.code for b in BLOCKS)
    env = {**os.environ, "JAX_PLATFORMS": os.environ.get("JAX_PLATFORMS", "cpu")}
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
