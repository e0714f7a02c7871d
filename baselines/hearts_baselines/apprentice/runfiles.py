"""The files every apprentice trainer writes in its folder: ``metrics.jsonl`` (a line per epoch or iteration,
as it ends), ``apprentice.npz`` (the weights) and ``summary.json`` (the settings and the last metrics)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hearts_baselines.apprentice.net import NumpyNet


def log_metrics(folder: Path, row: dict[str, Any], echo: bool) -> None:
    with open(folder / "metrics.jsonl", "a") as f:
        f.write(json.dumps(row) + "\n")
    if echo:
        print(json.dumps(row), flush=True)


def finish(folder: Path, weights: NumpyNet) -> dict[str, Any]:
    """Write the weights and ``summary.json`` (their metadata and the last metrics line); return the summary."""
    weights.save(folder / "apprentice.npz")
    metrics = [json.loads(line) for line in (folder / "metrics.jsonl").read_text().splitlines()]
    summary = {**weights.meta, "final": metrics[-1] if metrics else None}
    (folder / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    return summary
