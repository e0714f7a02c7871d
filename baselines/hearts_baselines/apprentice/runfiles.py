"""The files every apprentice trainer writes in its folder: ``checkpoint.pt`` (what ``--resume`` continues
from), ``metrics.jsonl`` (a line per epoch or iteration, as it ends), ``apprentice.npz`` (the weights) and
``summary.json`` (the settings and the last metrics)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hearts_baselines.apprentice.net import NumpyNet


def begin(folder: Path, resume: bool) -> dict[str, Any] | None:
    """Make ``folder``; return the checkpoint's state when resuming from one, else None (a fresh run: the
    metrics of an earlier run there are removed)."""
    folder.mkdir(parents=True, exist_ok=True)
    if resume and (folder / "checkpoint.pt").exists():
        import torch

        return torch.load(folder / "checkpoint.pt", weights_only=False)
    (folder / "metrics.jsonl").unlink(missing_ok=True)
    return None


def checkpoint(folder: Path, state: dict[str, Any]) -> None:
    import torch

    torch.save(state, folder / "checkpoint.pt")


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
