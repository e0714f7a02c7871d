"""hearts-bench: a versioned benchmark that runs one agent against a fixed ladder of opponents.

A suite (:data:`SUITES`, ``v1``) fixes the deals (seeded by the suite version and rules preset,
fingerprinted), the rules presets, the tiers (deal counts) and the ladder (agent specs with their
budgets spelled out). :func:`run_benchmark` plays the agent against every rung in the arena —
duplicate deals, every pass direction, isolated processes, errors charged as forfeits — after
self-checks, and reports each rung's figures and the headline ladder margin (``track="reference"``: against the
programs the literature measures against, xinxin and OpenSpiel's ISMCTS); :func:`compare` pairs
two results deal for deal. ``run_benchmark(holdout=draw_holdout())`` plays held-out deals instead of
the suite's public ones, every deal once (format ``once``): the leaderboard's ranked rows, which no knowledge of
the public deals and no memory across games can move. See docs/benchmark.md.
"""

from hearts_env.evaluation.benchmark.checks import BenchmarkCheckFailed
from hearts_env.evaluation.benchmark.report import (
    IncomparableResults,
    compare,
    format_compare,
    leaderboard_row,
    markdown,
    ranked_row,
    reference_row,
    resolution_rows,
)
from hearts_env.evaluation.benchmark.runner import run_benchmark
from hearts_env.evaluation.benchmark.suite import FORMATS, SUITES, TRACKS, Rung, Suite, draw_holdout, get_suite

__all__ = ["FORMATS", "SUITES", "TRACKS", "BenchmarkCheckFailed", "IncomparableResults", "Rung", "Suite", "compare",
           "draw_holdout", "format_compare", "get_suite", "leaderboard_row", "markdown", "ranked_row", "reference_row",
           "resolution_rows", "run_benchmark"]
