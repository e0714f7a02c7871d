"""Statistics of arena records: mean points per deal with bootstrap intervals, paired differences
(overall and per pass direction), wins, moons, thinking time; and the text summary."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

from hearts_env.rules import ROTATION, make_rules


def bootstrap_interval(values: np.ndarray, confidence: float = 0.95, resamples: int = 4000,
                       seed: int = 0) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of ``values``."""
    values = np.asarray(values, dtype=float)
    if len(values) < 2:
        return (float("nan"), float("nan"))
    rng = np.random.default_rng(seed)
    means = values[rng.integers(0, len(values), size=(resamples, len(values)))].mean(axis=1)
    tail = (1 - confidence) / 2
    return float(np.quantile(means, tail)), float(np.quantile(means, 1 - tail))


def _interval(values: np.ndarray) -> tuple[float, float] | None:
    """The 95% bootstrap interval of the mean, or None below two values (summaries are strict JSON, never NaN)."""
    return bootstrap_interval(values) if len(values) > 1 else None


def per_deal_points(records: Sequence[dict[str, Any]]) -> dict[str, dict[int, float]]:
    """Mean points per deal of each spec: over the seats it held in every seating of that deal."""
    sums: dict[str, dict[int, list[float]]] = {}
    for r in records:
        if r["points"] is None:  # an errored game recorded before errors were charged (hearts-env < 0.1.2)
            continue
        for seat, spec in enumerate(r["seating"]):
            sums.setdefault(spec, {}).setdefault(r["deal"], []).append(r["points"][seat])
    return {spec: {d: float(np.mean(v)) for d, v in by_deal.items()} for spec, by_deal in sums.items()}


def summarize(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Per-agent means with 95% bootstrap intervals, paired differences, moons and errors."""
    per_deal = per_deal_points(records)
    agents = {}
    for spec, by_deal in per_deal.items():
        values = np.array(list(by_deal.values()))
        seats = [r["seating"].count(spec) for r in records if r["points"] is not None]
        clean = [r for r in records if r["error"] is None]
        moons = sum(1 for r in clean for m in r["moons"] if r["seating"][m] == spec)
        attempts = sum(1 for r in clean for m in r["moon_attempts"] if r["seating"][m] == spec)
        suffered = sum(r["seating"].count(spec) - (r["seating"][m] == spec) for r in clean for m in r["moons"])
        shares = [1 / len(r["winners"]) if seat in r["winners"] else 0.0
                  for r in records if r["points"] is not None for seat, s in enumerate(r["seating"]) if s == spec]
        timed = [(r["think_seconds"][seat], r["decisions"][seat]) for r in clean if "think_seconds" in r
                 for seat, s in enumerate(r["seating"]) if s == spec]
        moves = sum(n for _, n in timed)
        slowest = [r["slowest_move_seconds"][seat] for r in clean if "slowest_move_seconds" in r
                   for seat, s in enumerate(r["seating"]) if s == spec]
        agents[spec] = {"deals": len(values), "mean_points": float(values.mean()),
                        "seconds_per_move": sum(t for t, _ in timed) / moves if moves else None,
                        "slowest_move_seconds": max(slowest) if slowest else None,
                        "ci95": _interval(values), "win_rate": float(np.mean(shares)) if shares else 0.0,
                        "moon_attempts": attempts, "moons_shot": moons, "moons_suffered": suffered,
                        "seat_games": int(sum(seats))}
    errors = [r["error"] for r in records if r["error"] is not None]
    unit = "game" if records and make_rules(records[0]["rules"]).game == "match" else "deal"
    by_direction: dict[str, dict[str, Any]] = {}
    if unit == "deal":  # one-deal tournaments: the paired differences of each pass direction
        directions = sorted({r["deals"][0]["pass_direction"] for r in records}, key=ROTATION.index)
        if len(directions) > 1:
            by_direction = {d: _paired([r for r in records if r["deals"][0]["pass_direction"] == d])
                            for d in directions}
    return {"agents": agents, "paired": _paired(records), "paired_by_pass_direction": by_direction,
            "games": len(records), "errors": errors, "unit": unit}


def _paired(records: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Paired differences of every two specs over the deals both played, with 95% bootstrap intervals."""
    per_deal = per_deal_points(records)
    pairs = {}
    for a, b in itertools.combinations(sorted(per_deal), 2):
        common = sorted(set(per_deal[a]) & set(per_deal[b]))
        diff = np.array([per_deal[a][d] - per_deal[b][d] for d in common])
        if len(diff):
            pairs[f"{a} - {b}"] = {"deals": len(diff), "mean_difference": float(diff.mean()),
                                   "ci95": _interval(diff)}
    return pairs


def error_counts(errors: Sequence[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Errors per offending spec and kind (``exception``, ``illegal``, ``timeout``; seated agents also ``crash``
    and ``protocol``)."""
    counts: dict[str, dict[str, int]] = {}
    for e in errors:
        by_kind = counts.setdefault(e["spec"], {})
        by_kind[e["kind"]] = by_kind.get(e["kind"], 0) + 1
    return counts


def format_summary(summary: dict[str, Any]) -> str:
    unit = summary.get("unit", "deal")
    lines = []
    if summary["errors"]:  # first, not last: every figure below charges them (arena.forfeit)
        lines.append(f"AGENT ERRORS: {len(summary['errors'])} {unit}(s) of {summary['games']} ended by an agent "
                     f"error, each charged to the offender as a forfeit (docs/arena.md):")
        for spec, by_kind in error_counts(summary["errors"]).items():
            lines.append(f"  {spec}: " + ", ".join(f"{n} {kind}" for kind, n in sorted(by_kind.items())))
        lines.append(f"  first: {summary['errors'][0]['message']}")
    lines += [f"{'agent':<28} {unit + 's':>6} {'points/' + unit:>12} {'95% interval':>18} {'wins':>6} "
             f"{'moons/try':>9} {'suffered':>9} {'s/move':>8} {'slowest':>8}"]
    for spec, a in sorted(summary["agents"].items(), key=lambda kv: kv[1]["mean_points"]):
        moons = f"{a['moons_shot']}/{a['moon_attempts']}"
        per_move, slowest = a.get("seconds_per_move"), a.get("slowest_move_seconds")
        interval = "n/a" if a["ci95"] is None else f"[{a['ci95'][0]:.3f}, {a['ci95'][1]:.3f}]"  # n/a: one deal
        lines.append(f"{spec:<28} {a['deals']:>6} {a['mean_points']:>12.3f} {interval:>18} "
                     f"{a['win_rate']:>6.1%} {moons:>9} {a['moons_suffered']:>9} "
                     f"{'-' if per_move is None else f'{per_move:.4f}':>8} "
                     f"{'-' if slowest is None else f'{slowest:.3f}':>8}")
    for pair, p in summary["paired"].items():
        if p["ci95"] is None:  # one deal has no interval
            lines.append(f"paired {pair}: {p['mean_difference']:+.3f} points/{unit} over {p['deals']} {unit} "
                         f"(too few for an interval)")
            continue
        lo, hi = p["ci95"]
        verdict = "different" if lo > 0 or hi < 0 else "not distinguishable"
        lines.append(f"paired {pair}: {p['mean_difference']:+.3f} points/{unit}, 95% [{lo:+.3f}, {hi:+.3f}] "
                     f"over {p['deals']} {unit}s ({verdict})")
    by_direction = summary.get("paired_by_pass_direction", {})
    if by_direction:  # one row per pair, one column per pass direction
        lines.append(f"{'paired, by pass direction':<28}" + "".join(f" {d:>23}" for d in by_direction))
        for pair in summary["paired"]:
            cells = []
            for pairs in by_direction.values():
                p = pairs.get(pair)
                interval = "n/a" if p is None or p["ci95"] is None else f"[{p['ci95'][0]:+.2f}, {p['ci95'][1]:+.2f}]"
                cells.append("-" if p is None else f"{p['mean_difference']:+.2f} {interval}")
            lines.append(f"{pair:<28}" + "".join(f" {c:>23}" for c in cells))

    return "\n".join(lines)
