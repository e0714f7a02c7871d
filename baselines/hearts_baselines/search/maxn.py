"""``maxn``: depth-limited max^n search inside Monte Carlo sampling (paper 004 §2.6).

For each of ``worlds`` sampled worlds (:mod:`hearts_env.worlds`), a perfect-information max^n search
``depth`` plies deep: at every node the seat to act picks the move that leaves it the fewest
(evaluated) points, and the vector of all four seats' values is backed up. A finished deal is valued
by its points; a cut-off position by ``evaluation``: ``"taken"`` — the points each seat has taken so
far — or ``"rollout"`` — the mean points of ``rollouts`` playouts by ``policy`` for every seat
(``"heuristic"`` by default; batched on the vector engine; the rule players are deterministic, so
one playout per leaf is exact for them).
The card with the lowest mean value for the seat over the worlds is played. Ties at a node go to the
lowest card (deterministic). Passing is delegated to ``passing`` (default ``heuristic``).

Budget: ``worlds`` worlds, cut short after ``time_limit`` seconds (default 0.1; ``None``: no cap).
The cap only binds in the largest positions (a lead with 13 cards before a seat holding 13 cards:
169 leaves a world) and keeps every move well under 0.2 s; below it, the same seed gives the same
move.
"""

from __future__ import annotations

import numpy as np

from hearts_baselines.search.common import Budget, SearchAgent, rollout_points
from hearts_env import Deal, SeatView
from hearts_env.worlds import sample_worlds


class MaxNAgent(SearchAgent):
    """See the module docstring."""

    name = "maxn"
    CHUNK = 8
    """Worlds searched before their leaves are evaluated together."""

    def __init__(self, worlds: int = 60, depth: int = 2, evaluation: str = "rollout", rollouts: int = 1,
                 policy: str = "heuristic", time_limit: float | None = 0.1, passing: str = "heuristic"):
        super().__init__(passing)
        if evaluation not in ("taken", "rollout"):
            raise ValueError(f"evaluation={evaluation!r} is not valid; valid values: taken, rollout")
        if depth < 1:
            raise ValueError(f"depth must be >= 1, got {depth}")
        self.worlds, self.depth, self.evaluation, self.rollouts = worlds, depth, evaluation, rollouts
        self.policy, self.time_limit = policy, time_limit
        self._agents: dict = {}

    def search(self, view: SeatView) -> int:
        legal = [c for c in range(view.rules.deck_obj.size) if view.legal >> c & 1]
        totals = np.zeros(len(legal))
        budget = Budget(self.worlds, self.time_limit)
        while budget.more():  # worlds in chunks: every leaf of a chunk is evaluated in one call
            size = budget.next_batch(self.CHUNK)
            leaves: list[Deal] = []
            forests = []
            for world in sample_worlds(view, self.rng, size):
                trees = []
                for card in legal:
                    child = world.clone()
                    child.apply(card)
                    trees.append(self._expand(child, self.depth - 1, leaves))
                forests.append(trees)
            values = self._evaluate(leaves) if leaves else np.zeros((0, 4))
            for trees in forests:
                totals += [self._backup(tree, values)[view.seat] for tree in trees]
            budget.done += size
        return legal[int(np.argmin(totals))]

    def _expand(self, deal: Deal, depth: int, leaves: list[Deal]) -> tuple:
        """The max^n tree below ``deal``: ("done", points) | ("leaf", index into leaves) | (seat, children)."""
        if deal.is_over:
            return ("done", np.array(deal.points, dtype=float))
        if depth == 0:
            leaves.append(deal)
            return ("leaf", len(leaves) - 1)
        children = []
        for card in deal.legal_cards():
            child = deal.clone()
            child.apply(card)
            children.append(self._expand(child, depth - 1, leaves))
        return (deal.current, children)

    def _backup(self, node: tuple, values: np.ndarray) -> np.ndarray:
        kind, payload = node
        if kind == "done":
            return payload
        if kind == "leaf":
            return values[payload]
        best = None
        for child in payload:
            value = self._backup(child, values)
            if best is None or value[kind] < best[kind]:
                best = value
        assert best is not None
        return best

    def _evaluate(self, leaves: list[Deal]) -> np.ndarray:
        if self.evaluation == "taken":
            return np.array([[leaf.points_taken(s) for s in range(4)] for leaf in leaves], dtype=float)
        points = rollout_points([leaf for leaf in leaves for _ in range(self.rollouts)], self.policy, self.rng,
                                self._agents)
        return points.reshape(len(leaves), self.rollouts, 4).mean(axis=1)
