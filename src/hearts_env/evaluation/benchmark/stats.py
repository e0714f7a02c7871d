"""The figures of one ladder rung from its arena records, and the paired comparisons.

Seats are mapped to roles through the seating of each record (:func:`roles`): role 0 is the agent
benchmarked, role 1 the opponent. Everything is computed per deal first (the agent's seats averaged
within a deal, the opponent's likewise), so the unit of every interval is the deal and the deals of
all rungs line up for the headline and for ``compare``. Intervals are the arena's percentile
bootstrap (one implementation); the signed-rank test is scipy's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from hearts_env.agents.failures import first_line
from hearts_env.cards import card_id
from hearts_env.evaluation.arena.game import replay_record, seatings
from hearts_env.evaluation.arena.stats import bootstrap_interval

AGENT, OPPONENT = 0, 1


def roles(record: dict[str, Any]) -> tuple[int, ...]:
    """The role (:data:`AGENT` or :data:`OPPONENT`) of each seat of a two-spec arena record."""
    return seatings(2)[record["seating_index"]]


def per_deal(records: Sequence[dict[str, Any]], deals: int) -> tuple[np.ndarray, np.ndarray]:
    """Mean points per deal of the agent's seats and of the opponent's seats, deal by deal (arrays of
    length ``deals``; every deal must have been played)."""
    sums = np.zeros((deals, 2))
    counts = np.zeros((deals, 2))
    for r in records:
        for seat, role in enumerate(roles(r)):
            sums[r["deal"], role] += r["points"][seat]
            counts[r["deal"], role] += 1
    if (counts == 0).any():
        missing = sorted(set(np.flatnonzero((counts == 0).any(axis=1)).tolist()))
        raise ValueError(f"deals {missing[:5]} have no record (of {deals}); the run is incomplete")
    means = sums / counts
    return means[:, AGENT], means[:, OPPONENT]


def per_deal_margin(records: Sequence[dict[str, Any]], deals: int) -> np.ndarray:
    """The agent's margin deal by deal: the opponent's seats' mean points minus the agent's (more is better)."""
    agent, opponent = per_deal(records, deals)
    return opponent - agent


def paired(differences: np.ndarray) -> dict[str, Any]:
    """Mean, 95% bootstrap interval, standard deviation and Wilcoxon signed-rank p of per-deal differences
    (interval, sd and p are None below two deals: results are strict JSON, never NaN)."""
    differences = np.asarray(differences, dtype=float)
    lo, hi = bootstrap_interval(differences)
    return {"mean": float(differences.mean()), "ci95": [lo, hi] if len(differences) > 1 else None,
            "sd": float(differences.std(ddof=1)) if len(differences) > 1 else None,
            "wilcoxon_p": wilcoxon_p(differences), "deals": len(differences)}


def unpaired(a: np.ndarray, b: np.ndarray) -> dict[str, Any]:
    """Mean of ``a`` minus mean of ``b`` — per-deal margins of two runs on different deals, which cannot be
    paired — with Welch's 95% t interval and two-sided p (scipy; None below two deals on either side)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    mean = float(a.mean() - b.mean())
    figure: dict[str, Any] = {"mean": mean, "ci95": None, "welch_p": None, "deals": [len(a), len(b)]}
    if len(a) < 2 or len(b) < 2:
        return figure
    if not a.var() and not b.var():  # no spread on either side (e.g. greedy against itself): t is undefined
        return {**figure, "ci95": [mean, mean], "welch_p": 1.0 if mean == 0 else 0.0}
    try:
        from scipy.stats import ttest_ind
    except ImportError:
        raise ImportError("the benchmark's unpaired comparison needs scipy: "
                          "pip install 'hearts-env[benchmark]'") from None
    test = ttest_ind(a, b, equal_var=False)
    interval = test.confidence_interval(0.95)
    return {**figure, "ci95": [float(interval.low), float(interval.high)], "welch_p": float(test.pvalue)}


def wilcoxon_p(differences: np.ndarray) -> float | None:
    """Two-sided Wilcoxon signed-rank p (zero differences split between the signs); 1.0 when every
    difference is zero, None below two deals."""
    if len(differences) < 2:
        return None
    if not np.any(differences):
        return 1.0
    return float(_wilcoxon()(differences, zero_method="zsplit").pvalue)


def _wilcoxon() -> Any:
    try:
        from scipy.stats import wilcoxon
    except ImportError:
        raise ImportError("the benchmark's signed-rank test needs scipy: pip install 'hearts-env[benchmark]'") from None
    return wilcoxon


def require_statistics() -> None:
    """Raise the ImportError of a missing statistics dependency (scipy) before a run plays its first game,
    not hours later when its first rung's figures are computed."""
    _wilcoxon()


def matchpoints(points: Sequence[int], seat: int) -> float:
    """Rank matchpoints of ``seat`` at one table: 1 for each other seat with more points, ½ for each tie
    (3 for the lowest score alone, 0 for the highest alone; 1.5 on average)."""
    return sum(1.0 if p > points[seat] else 0.5 if p == points[seat] else 0.0
               for other, p in enumerate(points) if other != seat)


def qs_taker(record: dict[str, Any], deal: int = 0) -> int | None:
    """The seat that took Q♠ in one recorded deal (None if the deal ended before that trick)."""
    replayed = replay_record(record, deal)
    queen = card_id("QS", replayed.rules.deck)
    for trick in replayed.tricks():
        if queen in trick.cards:
            return trick.winner
    return None


def chained_games(records: Sequence[dict[str, Any]], target: int = 100) -> tuple[float | None, int]:
    """The agent's share of wins (ties split) in games to ``target`` formed by chaining the suite's deals
    in order within each seating (scores carried from deal to deal; a new game starts after a seat
    reaches the target; an unfinished last game is dropped), and the number of games."""
    by_seating: dict[int, list[dict[str, Any]]] = {}
    for r in records:
        by_seating.setdefault(r["seating_index"], []).append(r)
    shares: list[float] = []
    for games in by_seating.values():
        scores = [0, 0, 0, 0]
        for r in sorted(games, key=lambda r: r["deal"]):
            scores = [s + p for s, p in zip(scores, r["points"])]
            if max(scores) >= target:
                low = min(scores)
                winners = [seat for seat, s in enumerate(scores) if s == low]
                agent_seats = [seat for seat, role in enumerate(roles(r)) if role == AGENT]
                shares.extend(1 / len(winners) if seat in winners else 0.0 for seat in agent_seats)
                scores = [0, 0, 0, 0]
    return (float(np.mean(shares)) if shares else None), len(shares)


def rung_figures(records: Sequence[dict[str, Any]], deals: int, opponent_time: bool = False) -> dict[str, Any]:
    """Every figure of one rung (see docs/benchmark.md for each definition); with ``opponent_time`` (the reference
    track) the opponent's mean seconds per decision too."""
    agent, opponent = per_deal(records, deals)
    margin = opponent - agent  # per_deal_margin, from the points the figures below also need
    seat_games = [(r, seat) for r in records for seat, role in enumerate(roles(r)) if role == AGENT]
    clean = [(r, seat) for r, seat in seat_games if r["error"] is None]
    wins = [1 / len(r["winners"]) if seat in r["winners"] else 0.0 for r, seat in seat_games]
    game_wins, games = chained_games(records)
    takers = {(r["seating_index"], r["deal"]): qs_taker(r) for r in records if r["error"] is None}  # one replay each
    errors: dict[str, int] = {}
    for r in records:
        if r["error"] is not None and roles(r)[r["error"]["seat"]] == AGENT:
            errors[r["error"]["kind"]] = errors.get(r["error"]["kind"], 0) + 1
    opponent_errors = sum(1 for r in records if r["error"] is not None and roles(r)[r["error"]["seat"]] == OPPONENT)
    return {
        "deals": deals, "seat_games": len(seat_games),
        "agent_points": float(agent.mean()), "opponent_points": float(opponent.mean()),
        "margin": paired(margin),
        "matchpoints": float(np.mean([matchpoints(r["points"], seat) for r, seat in seat_games])),
        "win_rate_deal": float(np.mean(wins)),
        "win_rate_game": game_wins, "games": games,
        "moons_shot": sum(1 for r, seat in clean if seat in r["moons"]),
        "moons_suffered": sum(1 for r, seat in clean for m in r["moons"] if m != seat),
        "qs_taken": float(np.mean([takers[r["seating_index"], r["deal"]] == seat for r, seat in clean]))
        if clean else None,
        "seconds_per_decision": _seconds_per_decision(records, AGENT),
        "slowest_decision": max((r["slowest_move_seconds"][seat] for r, seat in clean), default=None),
        "errors": errors, **_first_errors(records), "opponent_errors": opponent_errors,
        **({"opponent_seconds_per_decision": _seconds_per_decision(records, OPPONENT)} if opponent_time else {}),
        **_opponent_notes(records),
        "per_deal_margin": [float(m) for m in margin],
    }


def _first_errors(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """``first_errors``: for each kind of the agent's errors, the first game it ended (by deal, then seating) and what
    it said, so that a result shows what went wrong and not only how often; nothing when the agent made none."""
    first: dict[str, str] = {}
    for r in sorted(records, key=lambda r: (r["deal"], r["seating_index"])):
        error = r["error"]
        if error is not None and roles(r)[error["seat"]] == AGENT and error["kind"] not in first:
            said = first_line(str(error["message"]))  # its traceback is in the run's errors.log
            first[error["kind"]] = f"deal {r['deal']}, seating {r['seating_index']}: {said}"
    return {"first_errors": first} if first else {}


MODEL_COUNTS = ("calls", "retries", "forfeits", "prompt_tokens", "completion_tokens", "reasoning_tokens", "waits")
"""What the llm agent counts per deal (:meth:`hearts_env.agents.llm.LLMAgent.deal_notes`), totalled by
:func:`model_figures`."""


def model_figures(records: Sequence[dict[str, Any]], prices: Sequence[float] | None = None) -> dict[str, Any]:
    """``model``: what the agent's language model did over a rung of the llm track — its decisions, requests
    (``calls``), answers quoted back (``retries``), games forfeited past them (``forfeits``), tokens in and out
    (``completion_tokens`` includes ``reasoning_tokens``, as the API bills them), rate-limit ``waits`` — and, with
    ``prices`` (US dollars per million tokens in and out), ``cost_per_deal_usd``: its cost a game of one deal."""
    totals = dict.fromkeys(MODEL_COUNTS, 0)
    decisions = 0
    for r in records:
        for seat, role in enumerate(roles(r)):
            if role == AGENT:
                decisions += r["decisions"][seat]
                for kind, n in r.get("notes", {}).get(str(seat), {}).items():
                    if kind in totals:
                        totals[kind] += n
    figures: dict[str, Any] = {"games": len(records), "decisions": decisions, **totals}
    if prices is not None:
        spent = (totals["prompt_tokens"] * prices[0] + totals["completion_tokens"] * prices[1]) / 1e6
        figures["prices_usd_per_million_tokens"] = {"input": prices[0], "output": prices[1]}
        figures["cost_per_deal_usd"] = spent / len(records) if records else None
    return figures


def _opponent_notes(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """``opponent_notes``: what the opponent's programs reported of their deals (xinxin: each decision that fell back
    to its lowest legal card, and why), totalled by kind over the rung, with ``games`` the games in which one did;
    nothing when no opponent seat reports."""
    totals: dict[str, int] = {}
    games = 0
    reported = False
    for r in records:
        seats = [seat for seat, role in enumerate(roles(r)) if role == OPPONENT and str(seat) in r.get("notes", {})]
        reported = reported or bool(seats)
        counts = [r["notes"][str(seat)] for seat in seats]
        games += any(counts)
        for kinds in counts:
            for kind, n in kinds.items():
                totals[kind] = totals.get(kind, 0) + n
    return {"opponent_notes": {**dict(sorted(totals.items())), "games": games}} if reported else {}


def _seconds_per_decision(records: Sequence[dict[str, Any]], role: int) -> float | None:
    """The seconds per decision of the seats of ``role`` over the games no error ended."""
    seats = [(r, seat) for r in records if r["error"] is None for seat, who in enumerate(roles(r)) if who == role]
    decisions = sum(r["decisions"][seat] for r, seat in seats)
    return sum(r["think_seconds"][seat] for r, seat in seats) / decisions if decisions else None


def headline(rungs: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The ladder margin: per deal, the agent's margin averaged over the rungs (every rung plays the same
    deals), then :func:`paired` over the deals."""
    margins = np.array([r["per_deal_margin"] for r in rungs.values()])
    return paired(margins.mean(axis=0))
