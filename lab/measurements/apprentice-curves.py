"""The apprentice's learning curves (docs/learned.md) from the runs' metrics files in results/measurements/.

    python lab/measurements/apprentice-curves.py    # writes docs/img/apprentice-curves.png
"""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

ROOT = Path(__file__).resolve().parents[2]
METRICS = ROOT / "results" / "measurements"
PICTURE = ROOT / "docs" / "img" / "apprentice-curves.png"


def rows(name: str) -> list[dict]:
    return [json.loads(line) for line in (METRICS / f"apprentice-{name}-metrics.jsonl").read_text().splitlines()]


def main() -> None:
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    for name, label in (("warm", "512-512"), ("warm1024", "1024-1024")):
        r = [x for x in rows(name) if "eval_margin_vs_heuristic" in x]
        left.errorbar([x["epoch"] for x in r], [x["eval_margin_vs_heuristic"] for x in r],
                      yerr=[x["eval_se"] for x in r], marker="o", capsize=2, label=label)
    left.set(xlabel="warm-start epoch", ylabel="margin vs 3 heuristic (quick measure, points/deal)",
             title="warm start on pimc's decisions")
    runs = (("ppo", "PPO with self-play and snapshots (bundled)"), ("ppo-heuristic", "PPO vs heuristic only"))
    for name, label in runs:
        r = [x for x in rows(name) if "eval_margin_vs_heuristic" in x]
        right.errorbar([x["steps"] / 1e6 for x in r], [x["eval_margin_vs_heuristic"] for x in r],
                       yerr=[x["eval_se"] for x in r], marker=".", capsize=2, label=label)
    right.set(xlabel="PPO learner steps (millions)", title="from the 512-512 warm start")
    for ax in (left, right):
        ax.axhline(0, color="gray", lw=0.8)
        ax.grid(alpha=0.3)
        ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(PICTURE, dpi=110)


if __name__ == "__main__":
    main()
