"""The reference tables of docs/reference.md say what their shipped runs say, and every run verifies.

Each row is typed from a result of the reference track (``--track reference``) packed with its records into
results/reference-table/v1/<preset>/<tier>/<opponents>/, one folder per table: ``xinxin`` (OpenSpiel's setting) and
``xinxin-literature`` (the literature's). The test re-derives each run from its records (``verify``, the agent
seated in its sandboxed program) and ties every row to its file and to the table of its opponents (the table
whose header reads ``vs <opponent>``), and every row of every table to a file.
"""

import json
import re
from pathlib import Path

import pytest

from hearts_env.evaluation.benchmark import get_suite, reference_row
from hearts_env.evaluation.benchmark.verify import PACKED_SUFFIX, verify_run

DOCS = Path(__file__).parents[1] / "docs"
MEASUREMENTS = Path(__file__).parents[1] / "results" / "measurements"
TABLE = Path(__file__).parents[1] / "results" / "reference-table"
RESULTS = sorted(TABLE.rglob("*.json"))
ROW = re.compile(r"^\| `[^`]+` \| (" + "|".join(get_suite("v1").tiers) + r") \(\d+\) \|")
HEADER = re.compile(r"^\| agent \| tier \(deals\) \|(.*)$")


def _rows() -> dict[str, str]:
    """Every row of the reference tables, mapped to its table's header."""
    rows, header = {}, ""
    for line in (DOCS / "reference.md").read_text().splitlines():
        if HEADER.match(line):
            header = line
        elif ROW.match(line):
            assert header, f"a reference row outside a table: {line}"
            rows[line] = header
    return rows


def _opponents(result: dict) -> str:
    return "+".join(result["rungs"])


def test_the_reference_table_has_shipped_runs():
    assert RESULTS, "no run of the reference track is shipped"


@pytest.mark.parametrize("path", RESULTS, ids=lambda p: str(p.relative_to(TABLE)))
def test_each_reference_run_verifies_from_its_records_and_is_a_row_of_its_table(path):
    result = json.loads(path.read_text())
    assert result["track"] == "reference"
    assert path.parent.parts[-3:] == (result["preset"], result["tier"], _opponents(result))
    assert path.with_name(path.stem + PACKED_SUFFIX).exists()
    verify_run(path, leaderboard=True)
    rows = _rows()
    row = reference_row(result)
    assert row in rows
    assert all(f"vs {opponent}," in rows[row] for opponent in result["rungs"]), \
        f"{path.name}'s row sits in a table of other opponents: {rows[row]}"


def test_every_row_of_the_reference_tables_has_its_run():
    shipped = {reference_row(json.loads(path.read_text())) for path in RESULTS}
    assert set(_rows()) == shipped


TRIAL_DOCS = {"search": "search.md", "learned": "learned.md"}
TRIALS = sorted(path for kind in TRIAL_DOCS for path in MEASUREMENTS.glob(f"{kind}-vs-*/*.json"))
"""Runs of searchers and learned players that are no bundled agent yet against a reference opponent (docs/search.md,
docs/learned.md), shipped with their records in results/measurements/search-vs-OPPONENT/ and learned-vs-OPPONENT/."""


@pytest.mark.parametrize("path", TRIALS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_each_trial_against_a_reference_verifies_and_is_quoted_in_the_docs(path):
    result = json.loads(path.read_text())
    verify_run(path, leaderboard=True)
    (opponent, figures), = result["rungs"].items()
    kind, _, expected = path.parent.name.partition("-vs-")
    assert opponent.startswith(expected)
    low, high = figures["margin"]["ci95"]
    quoted = f"{figures['margin']['mean']:+.2f} [{low:+.2f}, {high:+.2f}]".replace("-", "−")
    page = TRIAL_DOCS[kind]
    assert quoted in (DOCS / page).read_text(), f"docs/{page} does not quote {path.name}: {quoted}"
