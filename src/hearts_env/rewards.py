"""Reward schemes shared by the environments (``reward=`` of ``hearts_v0`` and ``Hearts-v0``).

Deal-end schemes turn a finished deal's points into one reward per seat; ``dense`` pays
−points of each trick to its winner as it completes and settles moons and bonuses at deal
end; ``win`` and ``rank`` pay at the end of a game episode.
"""

from __future__ import annotations

from collections.abc import Sequence

REWARD_SCHEMES: dict[str, str] = {
    "points": "−points of each deal, at the deal's end",
    "openspiel": "penalty_total − points of each deal (OpenSpiel's returns), at the deal's end",
    "zero_sum": "mean of the deal's points − own points, at the deal's end",
    "dense": "−points of each trick to its winner; moon and bonus adjustments at the deal's end",
    "win": "1/len(winners) to each winner at the episode's end, 0 otherwise",
    "rank": "1 − 2·rank/3 at the episode's end (1, 1/3, −1/3, −1; ties averaged)",
}


def check_scheme(scheme: str, allowed: Sequence[str] = tuple(REWARD_SCHEMES)) -> None:
    if scheme not in allowed:
        raise ValueError(f"unknown reward scheme {scheme!r}; valid names: {', '.join(allowed)}")


def deal_end_rewards(scheme: str, points: Sequence[int], penalty_total: int,
                     dense_paid: Sequence[float] = (0, 0, 0, 0)) -> list[float]:
    """Rewards per seat when a deal ends (``win``/``rank`` pay nothing here)."""
    if scheme == "points":
        return [-float(p) for p in points]
    if scheme == "openspiel":
        return [float(penalty_total - p) for p in points]
    if scheme == "zero_sum":
        mean = sum(points) / 4
        return [mean - p for p in points]
    if scheme == "dense":
        return [-p - paid for p, paid in zip(points, dense_paid)]
    return [0.0, 0.0, 0.0, 0.0]


def final_rewards(scheme: str, scores: Sequence[int]) -> list[float]:
    """``win`` / ``rank`` rewards from final scores (lower is better; ties shared); 0 otherwise."""
    if scheme not in ("win", "rank"):
        return [0.0, 0.0, 0.0, 0.0]
    low = min(scores)
    if scheme == "win":
        winners = [s for s in range(4) if scores[s] == low]
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(4)]
    out = []
    for s in range(4):
        better = sum(1 for t in range(4) if scores[t] < scores[s])
        tied = sum(1 for t in range(4) if scores[t] == scores[s])
        out.append(1.0 - 2.0 * (better + (tied - 1) / 2) / 3.0)
    return out
