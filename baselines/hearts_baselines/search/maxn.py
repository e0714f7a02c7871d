"""``maxn``: depth-limited max^n search inside Monte Carlo sampling (paper 004 §2.6).

For each of ``worlds`` sampled worlds (:mod:`hearts_env.worlds`), a perfect-information max^n search
``depth`` plies deep (``"trick"``: to the end of the current trick, 1–4 plies, as in paper 004): at
every node the seat to act picks the move that leaves it the fewest (evaluated) points, and the
vector of all four seats' values is backed up. A finished deal is valued by its points; a cut-off
position by ``evaluation``: ``"taken"`` — the points each seat has taken so far — ``"rollout"`` —
the mean points of ``rollouts`` playouts by ``policy`` for every seat (``"heuristic"`` by default;
batched on the vector engine; the rule players are deterministic, so one playout per leaf is exact
for them) — ``"tdlambda"`` — paper 004's bundled learned model
(:class:`hearts_baselines.tdlambda.model.Model`; needs ``depth="trick"``) — or any object with a
``values(deals) -> array (len(deals), 4)`` method (a learned evaluator; it values finished deals too).
The card with the lowest mean value for the seat over the worlds is played. Ties at a node go to the
lowest card (deterministic). Passing is delegated to ``passing`` (default ``heuristic``).

Budget: ``worlds`` worlds, cut short after ``time_limit`` seconds (default 0.1; ``None``: no cap).
The cap only binds in the largest positions (a lead with 13 cards before a seat holding 13 cards:
169 leaves a world) and keeps every move well under 0.2 s; below it, the same seed gives the same
move.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

from hearts_baselines.search_common import Budget, SearchAgent, check_budget, check_count, check_policy, rollout_points
from hearts_env import Deal, SeatView
from hearts_env.worlds import sample_worlds


class Evaluator(Protocol):
    """A learned leaf evaluation: every seat's expected final points in each deal."""

    def values(self, deals: Sequence[Deal]) -> np.ndarray: ...


class MaxNAgent(SearchAgent):
    """See the module docstring."""

    name = "maxn"
    CHUNK = 8
    """Worlds searched before their leaves are evaluated together."""

    def __init__(self, worlds: int = 60, depth: int | str = 2, evaluation: str | Evaluator = "rollout",
                 rollouts: int = 1, policy: str = "heuristic", time_limit: float | None = 0.1,
                 passing: str = "heuristic"):
        super().__init__(passing)
        if evaluation == "tdlambda":
            from hearts_baselines.tdlambda.agent import load

            evaluation = load(None)
        if not (evaluation in ("taken", "rollout") or callable(getattr(evaluation, "values", None))):
            raise ValueError(f"evaluation={evaluation!r} is not valid; valid values: taken, rollout, tdlambda, "
                             f"or an object with a values(deals) method")
        check_budget(worlds, time_limit, unit="worlds")
        check_count("rollouts", rollouts)
        check_policy("policy", policy)
        if depth != "trick" and (isinstance(depth, str | bool) or depth < 1):
            raise ValueError(f"depth must be an integer >= 1 or 'trick', got {depth!r}")
        self.learned: Evaluator | None = None if isinstance(evaluation, str) else evaluation
        if self.learned is not None and depth != "trick":
            raise ValueError("a learned evaluation values trick boundaries: use depth='trick'")
        self.worlds, self.depth, self.evaluation, self.rollouts = worlds, depth, evaluation, rollouts
        self.policy, self.time_limit = policy, time_limit
        self._agents: dict = {}

    def search(self, view: SeatView) -> int:
        legal = [c for c in range(view.rules.deck_obj.size) if view.legal >> c & 1]
        totals = np.zeros(len(legal))
        budget = Budget(self.worlds, self.time_limit)
        while budget.more():  # worlds in chunks: every leaf of a chunk is evaluated in one call
            size = budget.next_batch(self.CHUNK)
            totals += self.card_values(sample_worlds(view, self.rng, size), legal).sum(axis=0)
            budget.done += size
        return legal[int(np.argmin(totals))]

    def card_values(self, worlds: Sequence[Deal], legal: Sequence[int]) -> np.ndarray:
        """(len(worlds), len(legal)): the max^n value of each card for the seat to play in each world."""
        leaves: list[Deal] = []
        forests = []
        for world in worlds:
            trees = []
            for card in legal:
                child = world.clone()
                ended = child.apply(card) is not None
                trees.append(self._expand(child, self._plies_left(ended), leaves))
            forests.append(trees)
        values = self._evaluate(leaves) if leaves else np.zeros((0, 4))
        seat = worlds[0].current if worlds else 0
        return np.array([[self._backup(tree, values)[seat] for tree in trees] for trees in forests]).reshape(
            len(forests), len(legal))

    def _plies_left(self, trick_ended: bool) -> int:
        """Plies still to search after the root card: to the end of the trick for ``depth="trick"``
        (0 if the root card ended it; else a large number, the trick's end stops the expansion)."""
        if self.depth == "trick":
            return 0 if trick_ended else 4
        assert isinstance(self.depth, int)
        return self.depth - 1

    def _expand(self, deal: Deal, depth: int, leaves: list[Deal]) -> tuple:
        """The max^n tree below ``deal``: ("done", points) | ("leaf", index into leaves) | (seat, children)."""
        if deal.is_over and self.learned is None:
            return ("done", np.array(deal.points, dtype=float))
        if depth == 0 or deal.is_over:
            leaves.append(deal)
            return ("leaf", len(leaves) - 1)
        children = []
        for card in deal.legal_cards():
            child = deal.clone()
            ended = child.apply(card) is not None
            children.append(self._expand(child, 0 if ended and self.depth == "trick" else depth - 1, leaves))
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
        if self.learned is not None:
            return np.asarray(self.learned.values(leaves), dtype=float)
        if self.evaluation == "taken":
            return np.array([[leaf.points_taken(s) for s in range(4)] for leaf in leaves], dtype=float)
        points = rollout_points([leaf for leaf in leaves for _ in range(self.rollouts)], self.policy, self.rng,
                                self._agents)
        return points.reshape(len(leaves), self.rollouts, 4).mean(axis=1)
