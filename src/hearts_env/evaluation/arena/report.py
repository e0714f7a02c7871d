"""Ratings (OpenSkill) and plots (matplotlib) of arena records; both from the ``arena`` extra."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from hearts_env.evaluation.arena.stats import per_deal_points


def ratings(records: Sequence[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """OpenSkill (Plackett-Luce) ratings: every episode ranks its four seats by points (lower is
    better, ties share a rank); a spec sitting in several seats plays as several entries."""
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise ImportError("ratings need openskill: pip install 'hearts-env[arena]'") from None
    model = PlackettLuce()
    table: dict[str, Any] = {}
    for r in sorted(records, key=lambda r: (r["deal"], r["seating_index"])):
        if r["points"] is None:  # an errored game from before errors were charged
            continue
        teams = [[table.setdefault(spec, model.rating(name=spec))] for spec in r["seating"]]
        new = model.rate(teams, ranks=list(r["points"]))
        for spec, team in zip(r["seating"], new):  # a spec in several seats: keep its last update
            table[spec] = team[0]
    return {spec: {"mu": float(p.mu), "sigma": float(p.sigma), "ordinal": float(p.ordinal())}
            for spec, p in sorted(table.items(), key=lambda kv: -kv[1].ordinal())}


def plot(records: Sequence[dict[str, Any]], summary: dict[str, Any], path: str) -> None:
    """A PNG with each agent's distribution of points per episode and the ladder with 95% intervals."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError("plots need matplotlib: pip install 'hearts-env[arena]'") from None
    per_deal = per_deal_points(records)
    order = sorted(summary["agents"], key=lambda s: summary["agents"][s]["mean_points"])
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    for spec in order:
        left.hist(list(per_deal[spec].values()), bins=27, alpha=0.5, label=spec)
    left.set(xlabel=f"points per {summary.get('unit', 'deal')}", ylabel="episodes", title="points distribution")
    left.legend()
    means = np.array([summary["agents"][s]["mean_points"] for s in order])
    nan = (float("nan"), float("nan"))  # one deal: no interval, no error bar
    lo = np.array([(summary["agents"][s]["ci95"] or nan)[0] for s in order])
    hi = np.array([(summary["agents"][s]["ci95"] or nan)[1] for s in order])
    right.errorbar(means, range(len(order)), xerr=[means - lo, hi - means], fmt="o", capsize=4)
    right.set(yticks=range(len(order)), yticklabels=order, xlabel="mean points (95% interval)",
              title="ladder (lower is better)")
    right.invert_yaxis()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
