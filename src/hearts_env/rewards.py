"""Reward schemes shared by the environments (``reward=`` of ``hearts_v0`` and ``Hearts-v0``).

Deal-end schemes turn a finished deal's points into one reward per seat; ``dense`` pays
−points of each trick to its winner as it completes and settles moons and bonuses at deal
end; ``win`` and ``rank`` pay at the end of a game episode. :class:`RewardBook` pays them as a
deal is played (the scalar envs); the vector env pays the deal-end schemes through
:func:`deal_end_rewards` over arrays of points.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from hearts_env.events import Trick

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


class RewardBook:
    """The rewards of one scheme as a deal is played, for the environments that step card by card.

    Call :meth:`trick` with each :class:`~hearts_env.events.Trick` that ``Deal.apply`` returns,
    :meth:`deal_end` with the finished deal's points and :meth:`game_end` with the final scores;
    each returns what it pays (``dense`` remembers what it paid during the deal, to settle at its end).
    """

    def __init__(self, scheme: str, penalty_total: int):
        check_scheme(scheme)
        self.scheme = scheme
        self.penalty_total = penalty_total
        self._paid = [0.0, 0.0, 0.0, 0.0]

    def trick(self, trick: Trick) -> float:
        """The reward for the trick's winner (0 unless ``dense``)."""
        if self.scheme != "dense":
            return 0.0
        reward = float(-trick.points)
        self._paid[trick.winner] += reward
        return reward

    def deal_end(self, points: Sequence[int]) -> list[float]:
        """The rewards per seat when a deal ends; starts the next deal's book."""
        rewards = deal_end_rewards(self.scheme, np.asarray(points), self.penalty_total, self._paid).tolist()
        self._paid = [0.0, 0.0, 0.0, 0.0]
        return rewards

    def game_end(self, scores: Sequence[int]) -> list[float]:
        """The rewards per seat when the episode's game ends (0 unless ``win``/``rank``)."""
        return final_rewards(self.scheme, scores)


def deal_end_rewards(scheme: str, points: np.ndarray, penalty_total: int,
                     dense_paid: Sequence[float] | np.ndarray = (0.0, 0.0, 0.0, 0.0)) -> np.ndarray:
    """Rewards per seat (float64, the shape of ``points``: (4,) or (N, 4)) when deals end with
    ``points``; ``win``/``rank`` pay nothing here, ``dense`` the rest after ``dense_paid``."""
    points = np.asarray(points, np.float64)
    if scheme == "points":
        return -points
    if scheme == "openspiel":
        return penalty_total - points
    if scheme == "zero_sum":
        return points.mean(axis=-1, keepdims=True) - points
    if scheme == "dense":
        return -points - np.asarray(dense_paid, np.float64)
    return np.zeros_like(points)


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
