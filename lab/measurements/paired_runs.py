"""A benchmark result paired with the mean of several runs of another agent on the same deals.

    python lab/measurements/paired_runs.py A.json B1.json [B2.json ...]

Each file is a hearts-bench ``result.json`` of one solo rung on the same tier and rules (the reference track's
rows). A deal's value is its margin (``per_deal_margin``); B's is the mean over B1, B2, ... — several runs of one
agent with different agent secrets, so other sampled worlds: a steadier reference than one run, whose own search
noise is part of any single pairing. Prints, for each rung, A − mean(B) with the 95 % percentile-bootstrap
interval and the Wilcoxon p, as ``hearts-env benchmark compare`` does for two files.
"""

from __future__ import annotations

import json
import sys

import numpy as np

from hearts_env.evaluation.benchmark.stats import paired


def margins(path: str) -> dict[str, np.ndarray]:
    """Per-deal margins of each rung of the result in ``path``."""
    with open(path) as f:
        result = json.load(f)
    return {rung: np.asarray(figures["per_deal_margin"]) for rung, figures in result["rungs"].items()}


def main(first: str, *others: str) -> None:
    if not others:
        sys.exit("usage: python lab/measurements/paired_runs.py A.json B1.json [B2.json ...]")
    a, bs = margins(first), [margins(path) for path in others]
    for rung, values in a.items():
        if any(rung not in b or len(b[rung]) != len(values) for b in bs):
            sys.exit(f"{rung}: the files do not hold the same deals of that rung")
        reference = np.mean([b[rung] for b in bs], axis=0)
        figure = paired(values - reference)  # what `hearts-env benchmark compare` reports
        low, high = figure["ci95"]
        print(f"{rung}: A {values.mean():+.2f}, mean of {len(bs)} B runs {reference.mean():+.2f}; "
              f"A − B {figure['mean']:+.2f} [{low:+.2f}, {high:+.2f}], Wilcoxon p {figure['wilcoxon_p']:.3f}, "
              f"{figure['deals']} deals")


if __name__ == "__main__":
    main(*sys.argv[1:])
