"""The reference table of docs/reference.md says what its shipped runs say, and every run verifies.

Each row is typed from a result of the reference track (``--track reference``) packed with its records into
docs/reference-table/v1/<preset>/<tier>/; the test re-derives each run from its records (``verify``, the agent
seated in its sandboxed program) and ties every row of the table to its file, and every file to a row.
"""

import json
import re
from pathlib import Path

import pytest

from hearts_env.benchmark import reference_row
from hearts_env.benchmark.verify import PACKED_SUFFIX, verify_run

DOCS = Path(__file__).parents[1] / "docs"
TABLE = DOCS / "reference-table"
RESULTS = sorted(TABLE.rglob("*.json"))
ROW = re.compile(r"^\| `[^`]+` \| (quick|full|smoke) \(\d+\) \|")


def _rows() -> list[str]:
    return [line for line in (DOCS / "reference.md").read_text().splitlines() if ROW.match(line)]


def test_the_reference_table_has_shipped_runs():
    assert RESULTS, "no run of the reference track is shipped"


@pytest.mark.parametrize("path", RESULTS, ids=lambda p: str(p.relative_to(TABLE)))
def test_each_reference_run_verifies_from_its_records_and_is_a_row_of_the_table(path):
    result = json.loads(path.read_text())
    assert result["track"] == "reference" and path.parent.parts[-2:] == (result["preset"], result["tier"])
    assert path.with_name(path.stem + PACKED_SUFFIX).exists()
    verify_run(path, leaderboard=True)
    assert reference_row(result) in _rows()


def test_every_row_of_the_reference_table_has_its_run():
    shipped = {reference_row(json.loads(path.read_text())) for path in RESULTS}
    assert set(_rows()) == shipped
