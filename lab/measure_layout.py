"""The layout figures of issue 61's before/after table, for a checkout given as an argument: Python files and lines
per folder, the largest functions, the largest classes, and result data under docs/.

    python lab/measure_layout.py PATH_TO_CHECKOUT
"""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

FOLDERS = ("src/hearts_env", "baselines/hearts_baselines", "tests", "examples", "lab", "carry", "tools", "benchmarks",
           "speed", "reference", "results", "docs")
DATA = (".json", ".jsonl", ".npz", ".csv", ".txt", ".tar.xz")


def main() -> None:
    root = Path(sys.argv[1])
    out: dict[str, object] = {}
    folders = {}
    for name in FOLDERS:
        folder = root / name
        if folder.is_dir():
            skip = {".venv", "build", "__pycache__"}
            files = [p for p in folder.rglob("*") if p.is_file() and not skip & set(p.parts)]
            py = [p for p in files if p.suffix == ".py"]
            folders[name] = {"files": len(files), "py_files": len(py),
                             "py_lines": sum(len(p.read_text().splitlines()) for p in py),
                             "bytes": sum(p.stat().st_size for p in files)}
    out["folders"] = folders
    docs = root / "docs"
    out["docs_result_files"] = sum(1 for p in docs.rglob("*") if p.is_file() and p.name.endswith(DATA))
    functions, classes = [], []
    for top in ("src/hearts_env", "baselines/hearts_baselines"):
        for path in (root / top).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    functions.append((node.end_lineno - node.lineno + 1, f"{path.relative_to(root)}:{node.name}"))
                elif isinstance(node, ast.ClassDef):
                    classes.append((node.end_lineno - node.lineno + 1, f"{path.relative_to(root)}:{node.name}"))
    functions.sort(reverse=True)
    classes.sort(reverse=True)
    sizes = sorted(n for n, _ in functions)
    out["functions"] = {"count": len(sizes), "median_lines": sizes[len(sizes) // 2], "largest": functions[:8]}
    out["largest_classes"] = classes[:4]
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
