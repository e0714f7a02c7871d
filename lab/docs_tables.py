"""Rewrite the result tables of the docs from the shipped result files (a maintainer's tool, not in the wheel).

    python lab/docs_tables.py            # rewrite docs/benchmark.md's leaderboard and docs/reference.md's tables
    python lab/docs_tables.py --check    # exit 1 naming the first table that differs from its files

Each leaderboard table of docs/benchmark.md (header ``| agent | tier (deals) | ladder margin ...``) holds every row of
one preset and tier under results/leaderboard/v1/, best ladder margin first; its ranked table (header ``| agent | tier
(held-out deals) | ...``) every held-out row under results/leaderboard/v1/ranked/ beside its agent's public-deal row of
the same tier, best first; each reference table of docs/reference.md
(header ``| agent | tier (deals) | vs OPPONENT, 95% ...``) every run under results/reference-table/v1/*/*/OPPONENT/,
longest tier first, then best margin. tests/test_leaderboard.py and tests/test_reference_table.py hold the docs to
the same files; this writes what they check. Its resolution table (header ``| rows (format) | tier (deals a rung)
| ...``) says what each tier resolves, from every standard row (``resolution_rows``). A table's header must be in the
docs before its first row lands.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hearts_env.evaluation.benchmark import leaderboard_row, ranked_row, reference_row, resolution_rows
from hearts_env.evaluation.exploit.track import robustness_cell

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
RESULTS = ROOT / "results"
LEADERBOARD = RESULTS / "leaderboard" / "v1"
REFERENCE = RESULTS / "reference-table" / "v1"
EXPLOITS = RESULTS / "exploit" / "v1" / "standard" / "quick"
ROW = re.compile(r"^\| `([^`]+)` \| (\w+) \(\d+\) \|")
RANKED_ROW = re.compile(r"^\| `([^`]+)` \| (\w+) \(\d+ held-out\) \|")
LADDER_HEADER = re.compile(r"^\| agent \| tier \(deals\) \| ladder margin")
RANKED_HEADER = re.compile(r"^\| agent \| tier \(held-out deals\) \| ladder margin")
RESOLUTION_HEADER = re.compile(r"^\| rows \(format\) \| tier \(deals a rung\) \|")
RESOLUTION_ROW = re.compile(r"^\| (public|held-out) \(\w+\) \|")
REFERENCE_HEADER = re.compile(r"^\| agent \| tier \(deals\) \| vs ([\w-]+), 95%")


def _load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text())


def _leaderboard_results() -> list[dict[str, Any]]:
    apart = (LEADERBOARD / "holdout", LEADERBOARD / "ranked")
    return [_load(p) for p in sorted(LEADERBOARD.rglob("*.json")) if not any(f in p.parents for f in apart)]


def _ranked_rows() -> list[str]:
    """Every ranked row, best first, beside its agent's public-deal row of the same tier where there is one."""
    rows = []
    for path in sorted((LEADERBOARD / "ranked").rglob("*.json"), key=lambda p: -_load(p)["headline"]["mean"]):
        ranked = _load(path)
        claim = LEADERBOARD / ranked["tier"] / f"{ranked['agent']}.json"
        rows.append(ranked_row(ranked, _load(claim) if claim.exists() else None))
    return rows


def _resolution_rows() -> list[str]:
    """What each tier resolves, from every standard row on the leaderboard: public and ranked (held-out)."""
    ranked = [_load(p) for p in sorted((LEADERBOARD / "ranked").rglob("*.json"))]
    return resolution_rows([r for r in _leaderboard_results() + ranked if r["preset"] == "standard"])


def _leaderboard_line(result: dict[str, Any]) -> str:
    if result["tier"] != "full" or result["preset"] != "standard":
        return leaderboard_row(result)
    exploit = EXPLOITS / f"{result['agent']}.json"
    return leaderboard_row(result, robustness_cell(_load(exploit) if exploit.exists() else None))


def _ladder_rows(existing: list[str]) -> list[str]:
    """Every shipped row of the preset and tier of a table whose current rows are ``existing``."""
    results = _leaderboard_results()
    agents = {ROW.match(line).group(1) for line in existing}  # type: ignore[union-attr]
    tier = ROW.match(existing[0]).group(2)  # type: ignore[union-attr]
    presets = {r["preset"] for r in results}
    fits = [p for p in sorted(presets)
            if agents <= {r["agent"] for r in results if r["preset"] == p and r["tier"] == tier}]
    if len(fits) != 1:
        raise SystemExit(f"docs/benchmark.md: cannot tell the preset of the {tier} table of {sorted(agents)} "
                         f"(fits {fits})")
    chosen = [r for r in results if r["preset"] == fits[0] and r["tier"] == tier]
    chosen.sort(key=lambda r: -r["headline"]["mean"])
    return [_leaderboard_line(r) for r in chosen]


def _reference_rows(opponent: str) -> list[str]:
    results = [_load(p) for p in sorted(REFERENCE.glob(f"*/*/{opponent}/*.json"))]
    results.sort(key=lambda r: (-r["deals"], -r["rungs"][opponent]["margin"]["mean"]))  # the longest tier first
    return [reference_row(r) for r in results]


def _rewrite(text: str, header: re.Pattern[str], rows_of: Callable[[re.Match[str], list[str]], list[str]],
             row: re.Pattern[str] = ROW) -> str:
    """``text`` with the rows under each header matching ``header`` replaced by ``rows_of(match, old rows)``."""
    lines = text.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        i += 1
        match = header.match(line)
        if not match:
            continue
        out.append(lines[i])  # the |---| line
        i += 1
        old = []
        while i < len(lines) and row.match(lines[i]):
            old.append(lines[i])
            i += 1
        out.extend(rows_of(match, old))
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only say whether the docs hold their files' rows")
    args = parser.parse_args(argv)
    jobs = [(DOCS / "benchmark.md", LADDER_HEADER, lambda m, old: _ladder_rows(old) if old else old, ROW),
            (DOCS / "benchmark.md", RANKED_HEADER, lambda m, old: _ranked_rows(), RANKED_ROW),
            (DOCS / "benchmark.md", RESOLUTION_HEADER, lambda m, old: _resolution_rows(), RESOLUTION_ROW),
            (DOCS / "reference.md", REFERENCE_HEADER, lambda m, old: _reference_rows(m.group(1)), ROW)]
    for path, header, rows_of, row in jobs:
        text = path.read_text()
        new = _rewrite(text, header, rows_of, row)
        if new == text:
            continue
        if args.check:
            print(f"{path.relative_to(ROOT)}: a table differs from its result files (run lab/docs_tables.py)")
            return 1
        path.write_text(new)
        print(f"rewrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
