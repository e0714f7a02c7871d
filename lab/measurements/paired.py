"""Paired difference between two arena runs on the same deals: one agent's points per deal, B − A.

    python lab/measurements/paired.py A.jsonl B.jsonl [PREFIX]

Each run is an arena ``--out`` file of one spec starting with ``PREFIX`` (default ``subagents``) against
other agents; a deal's value is the mean points of that agent's seats over its seatings. Prints the mean
of B − A over the deals both runs played, with the arena's 95 % percentile-bootstrap interval.
"""

from __future__ import annotations

import sys
from collections import defaultdict

import numpy as np

from hearts_env.evaluation.arena import read_records
from hearts_env.evaluation.arena.stats import bootstrap_interval


def per_deal(path: str, prefix: str) -> dict[int, float]:
    """Mean points of the seats whose spec starts with ``prefix``, per deal of the run recorded in ``path``."""
    points: dict[int, list[float]] = defaultdict(list)
    for record in read_records(path):
        seats = [i for i, spec in enumerate(record["seating"]) if spec.startswith(prefix)]
        points[record["deal"]].append(float(np.mean([record["points"][i] for i in seats])))
    return {deal: float(np.mean(values)) for deal, values in points.items()}


def main(first: str, second: str, prefix: str = "subagents") -> None:
    a, b = per_deal(first, prefix), per_deal(second, prefix)
    deals = sorted(set(a) & set(b))
    differences = np.array([b[d] - a[d] for d in deals])
    low, high = bootstrap_interval(differences)
    print(f"{second} − {first}: {differences.mean():+.2f} [{low:+.2f}, {high:+.2f}] over {len(deals)} deals")


if __name__ == "__main__":
    main(*sys.argv[1:4])
