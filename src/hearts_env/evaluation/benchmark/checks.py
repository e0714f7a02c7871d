"""Self-checks a benchmark run must pass before it reports anything: the opponents play as the suite's,
the seat bookkeeping is even for identical players, and every deal's points add up to what the rules
allow. (That the deals are the suite's is checked against :attr:`Suite.fingerprints` by the runner.)"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from hearts_env.evaluation.arena.game import replay_record
from hearts_env.evaluation.benchmark.suite import LADDER_CHECK_DEALS, UNCHECKED, Rung, Suite, ladder_fingerprint
from hearts_env.rules import Rules, make_rules


class BenchmarkCheckFailed(RuntimeError):
    """A self-check failed: the run's figures cannot be trusted, so none is reported."""


def check_even(agent_points: np.ndarray, opponent_points: np.ndarray, spec: str) -> None:
    """Four copies of one deterministic agent, split into 'agent' and 'opponent' by the format's
    seatings, must come out exactly even on every deal: each role sits in every seat equally often at
    identical tables. A seat mapped to the wrong role breaks this on almost every deal."""
    uneven = np.flatnonzero(~np.isclose(agent_points, opponent_points, rtol=0, atol=1e-9))
    if len(uneven):
        d = int(uneven[0])
        raise BenchmarkCheckFailed(
            f"self-check failed: {spec} against itself is not even on {len(uneven)} of {len(agent_points)} deals "
            f"(deal {d}: {agent_points[d]:.3f} vs {opponent_points[d]:.3f} points); the seat-to-agent bookkeeping "
            f"is broken, so no figure of this run would mean anything")


def deal_total(rules: Rules, record: dict[str, Any], deal: int) -> int | set[int]:
    """What the points of one finished recorded deal must add up to under ``rules``: the penalty total;
    on a moon, three times it (added to the others) or minus it (subtracted from the shooter); less the
    J♦ bonus and each no-trick bonus when they are on."""
    replayed = replay_record(record, deal)
    n = rules.penalty_total
    jd = rules.jd_bonus_points if rules.jd_bonus else 0
    if replayed.moon_shooter is not None:
        totals = {"add_to_others": {3 * n}, "subtract_from_shooter": {-n}, "shooter_choice": {3 * n, -n}}[rules.moon]
        return {t - jd for t in totals}
    trickless = 4 - len({t.winner for t in replayed.tricks()})
    return n - jd - (rules.avoid_all_tricks_points * trickless if rules.avoid_all_tricks_bonus else 0)


def check_totals(records: Sequence[dict[str, Any]]) -> None:
    """Every finished deal of every record sums to its :func:`deal_total`, and the record's points are the
    sum of its deals (plus the penalty total charged to an offender whose error ended the game)."""
    for r in records:
        rules = make_rules(r["rules"])
        expected = 0
        finished = r["deals"] if r["error"] is None else r["deals"][:-1]
        for k, d in enumerate(finished):
            total = deal_total(rules, r, k)
            allowed = total if isinstance(total, set) else {total}
            if sum(d["points"]) not in allowed:
                raise BenchmarkCheckFailed(
                    f"self-check failed: deal {r['deal']} (seating {r['seating_index']}, deal {k} of the game) scored "
                    f"{d['points']}, summing to {sum(d['points'])}; the rules allow {sorted(allowed)}")
            expected += sum(d["points"])
        if r["error"] is not None:
            expected += rules.penalty_total
        if sum(r["points"]) != expected:
            raise BenchmarkCheckFailed(
                f"self-check failed: deal {r['deal']} (seating {r['seating_index']}): the record's points "
                f"{r['points']} sum to {sum(r['points'])}, its deals (and forfeit) to {expected}")


def ladder_check(suite: Suite, preset: str, ladder: Sequence[Rung]) -> str:
    """What :func:`check_ladder` checked, in words for the result."""
    unchecked = [rung.name for rung in ladder if suite.ladder_fingerprints.get((preset, rung.name)) is None]
    if not unchecked:
        return f"each opponent's play on {LADDER_CHECK_DEALS} deals is the suite's"
    checked = [rung.name for rung in ladder if rung.name not in unchecked]
    said = f"{', '.join(checked)}: play on {LADDER_CHECK_DEALS} deals is the suite's; " if checked else ""
    return said + "; ".join(f"{name} not checked ({UNCHECKED.get(name, 'no fingerprint')})" for name in unchecked)


def check_ladder(suite: Suite, preset: str, ladder: Sequence[Rung]) -> None:
    """Each opponent of ``ladder`` plays the first deals of the preset exactly as when the suite was
    published (:func:`~hearts_env.evaluation.benchmark.suite.ladder_fingerprint`), or the run is refused."""
    rules, seed = suite.rules(preset), suite.seed(preset)
    for rung in ladder:
        if (preset, rung.name) not in suite.ladder_fingerprints:
            raise BenchmarkCheckFailed(f"suite {suite.version} published no fingerprint of {rung.name}'s play "
                                       f"under {preset}; its results could not be checked")
        published = suite.ladder_fingerprints[(preset, rung.name)]
        if published is None:  # an opponent no fingerprint can check (UNCHECKED says why; the result says so too)
            continue
        if ladder_fingerprint(rung.spec, rules, seed) != published:
            hint = (" Its rollouts run on the compiled engine: is Numba installed (pip install 'hearts-env[search]')?"
                    if rung.name == "pimc" else "")
            raise BenchmarkCheckFailed(
                f"self-check failed: the opponent {rung.name} ({rung.spec}) plays the first {LADDER_CHECK_DEALS} "
                f"{preset} deals differently here than when suite {suite.version} was published, so this ladder is "
                f"not the suite's and its results would not be comparable.{hint}")
