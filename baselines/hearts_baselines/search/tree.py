"""Tree search agents: ``ismcts`` (single-observer ISMCTS) and ``mcts`` (UCT on determinizations).

**ismcts** — Cowling, Powley & Whitehouse (2012), SO-ISMCTS: one tree over the seat's information
set. Each iteration takes a fresh world consistent with what the seat knows
(:func:`hearts_env.worlds.sample_worlds`), descends the tree choosing among the actions legal in
that world by UCB1 with availability counts (a child's exploration term uses how often it was
available, not the parent's visits), expands one untried action, finishes the deal with the
rollout policy and credits every node with the reward of the seat that moved into it. It searches
passes too: during passing the worlds start from the pass phase and the tree holds the pass choices.

**mcts** — paper 002 §2.2: ``determinizations`` random worlds, a separate UCT tree (UCB1, C = √2) on
each (perfect information, every seat maximizing its own reward), the iterations split between them;
the card with the most root visits summed over the trees is played. Passing is delegated to
``passing`` (default ``heuristic``).

Reward of a seat at the end of a deal (``reward=``): ``"points"`` (default), ``(penalty_total − points)
/ penalty_total`` (1 for a clean deal, 0 for taking every point; a moon gives its shooter 1),
``"win"``, paper 002's win/loss: 1 for the fewest points of the deal (shared on ties), else 0, or
``"margin"``, the margin the arena scores (the others' mean points minus the seat's) mapped onto [0, 1]: a moon
gives its shooter 1 and each other seat 1/3.

**Paper 002's MCTS** re-deals the hidden cards for every simulation of one tree, with UCB1
``V + C·√(2 ln n / n_i)``, C = √2, random rollouts and a win/loss reward. Its closest form here is
``ismcts(c=2.0, rollout='random', reward='win')`` — one tree over fresh worlds (which here respect
the voids the seat has seen), and ``c = 2`` is the paper's √2·√2 in our ``c·√(ln n / n_i)``; what still
differs: the move is the most visited (the paper: the best win rate), the worlds respect voids, and
the budget is iterations capped by time (the paper: a time window). Budgets: ``iterations`` and/or
``time_limit`` seconds per move, the first reached (defaults: the iterations, capped at 0.15 s so that
no move reaches 0.2 s on a loaded machine; below the cap the same seed gives the same moves).
Rollouts: ``rollout="heuristic"`` (default: the bundled expert for every seat), ``"greedy"``
(paper 002's greedy player) or ``"random"`` run on the batched engine, an agent that plays batches
(``"apprentice"``) steps it; any other agent spec plays through Python agents (slow).

Speed: descents run ``batch`` at a time and their rollouts finish in one call of the batched engine.
A descent counts its visits at once (a "virtual loss": the reward arrives after the batch), so the
descents of one batch spread over the tree instead of repeating one path.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np

from hearts_baselines.search_common import (
    Budget,
    SearchAgent,
    check_budget,
    check_count,
    check_nonnegative,
    check_policy,
    rollout_points,
)
from hearts_env import Deal, SeatView
from hearts_env.worlds import sample_worlds


class Node:
    """A tree node: the action that led here, who took it, and its statistics."""

    __slots__ = ("action", "availability", "children", "player", "total", "visits")

    def __init__(self, action: int = -1, player: int = -1):
        self.action = action
        self.player = player
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.availability = 0
        self.total = 0.0


def _select(node: Node, legal: list[int], c: float) -> Node:
    best, best_value = None, -math.inf
    for action in legal:
        child = node.children[action]
        child.availability += 1
        value = child.total / child.visits + c * math.sqrt(math.log(child.availability) / child.visits)
        if value > best_value:
            best, best_value = child, value
    assert best is not None
    return best


REWARDS = ("points", "win", "margin")
"""Rewards of a seat at the end of a simulated deal: ``"points"``, ``(penalty_total − points) /
penalty_total``; ``"win"`` (paper 002's win/loss), 1 for the seat that took the fewest points
(shared equally on ties), else 0; ``"margin"``, the seat's margin (the other seats' mean points minus its own,
what the arena scores) mapped from [−penalty_total, +penalty_total] onto [0, 1]."""


def seat_rewards(points: list[int], penalty_total: int, reward: str) -> list[float]:
    """The four seats' rewards (:data:`REWARDS`) for a finished deal's points."""
    if reward == "win":
        low = min(points)
        winners = sum(1 for p in points if p == low)
        return [1.0 / winners if p == low else 0.0 for p in points]
    if reward == "margin":
        total, others = sum(points), len(points) - 1  # search_common.margins in plain Python: one call per rollout
        return [((total - p) / others - p) / (2 * penalty_total) + 0.5 for p in points]
    return [(penalty_total - p) / penalty_total for p in points]


class _TreeSearch(SearchAgent):
    def __init__(self, iterations: int | None, time_limit: float | None, c: float, rollout: str, batch: int,
                 passing: str = "heuristic", reward: str = "points"):
        super().__init__(passing)
        check_budget(iterations, time_limit)
        check_count("batch", batch)
        check_policy("rollout", rollout)
        check_nonnegative("c (the exploration constant)", c)
        if reward not in REWARDS:
            raise ValueError(f"reward={reward!r} is not valid; valid values: {', '.join(REWARDS)}")
        self.iterations = iterations
        self.time_limit, self.c, self.rollout, self.batch, self.reward = time_limit, c, rollout, batch, reward
        self._players: dict = {}

    def _run(self, starts: Iterator[tuple[Node, Deal]], budget: Budget) -> None:
        """Iterations in batches until the budget is spent: ``starts`` yields (root, world to consume)."""
        while budget.more():
            size = budget.next_batch(self.batch)
            descents = [self._descend(root, world) for root, world in (next(starts) for _ in range(size))]
            worlds = [world for _, world in descents]
            points = np.zeros((size, 4), np.int64)
            live = [i for i, world in enumerate(worlds) if not world.is_over]
            for i, world in enumerate(worlds):
                if world.points is not None:  # the world's deal is over
                    points[i] = world.points
            if live:
                points[live] = rollout_points([worlds[i] for i in live], self.rollout, self.rng, self._players)
            total = worlds[0].rules.penalty_total
            for (path, _), row in zip(descents, points.tolist()):
                rewards = seat_rewards(row, total, self.reward)
                for node in path:
                    node.total += rewards[node.player]
            budget.done += size

    def _descend(self, root: Node, world: Deal) -> tuple[list[Node], Deal]:
        """Selection and expansion through ``world`` (consumed); the path's visits are counted now."""
        node, path = root, []
        while not world.is_over:
            legal = world.legal_cards()
            children = node.children
            untried = [a for a in legal if a not in children]
            if untried:
                action = untried[int(self.rng.integers(len(untried)))]
                for a in legal:
                    if a in children:
                        children[a].availability += 1
                child = children[action] = Node(action, world.current)
                child.availability = 1
                world.apply(action)
                path.append(child)
                break
            node = _select(node, legal, self.c)
            world.apply(node.action)
            path.append(node)
        for n in path:
            n.visits += 1
        return path, world


class ISMCTSAgent(_TreeSearch):
    """Single-observer information-set MCTS (see the module docstring); searches passes too."""

    name = "ismcts"
    searches_passes = True

    def __init__(self, iterations: int | None = 1000, time_limit: float | None = 0.15, c: float = 0.7,
                 rollout: str = "heuristic", batch: int = 32, reward: str = "points"):
        super().__init__(iterations, time_limit, c, rollout, batch, reward=reward)

    def search(self, view: SeatView) -> int:
        root = Node()

        def starts() -> Iterator[tuple[Node, Deal]]:
            while True:
                for world in sample_worlds(view, self.rng, self.batch):
                    yield root, world

        self._run(starts(), Budget(self.iterations, self.time_limit))
        legal = [a for a in root.children if view.legal >> a & 1]
        return max(legal, key=lambda a: root.children[a].visits)


class MCTSAgent(_TreeSearch):
    """Paper 002's MCTS: UCT on random determinizations (see the module docstring)."""

    name = "mcts"

    def __init__(self, iterations: int | None = 300, time_limit: float | None = 0.15, c: float = math.sqrt(2),
                 determinizations: int = 10, rollout: str = "heuristic", batch: int = 32,
                 passing: str = "heuristic", reward: str = "points"):
        super().__init__(iterations, time_limit, c, rollout, batch, passing, reward)
        check_count("determinizations", determinizations)
        self.determinizations = determinizations

    def search(self, view: SeatView) -> int:
        worlds = sample_worlds(view, self.rng, self.determinizations)
        roots = [Node() for _ in worlds]

        def starts() -> Iterator[tuple[Node, Deal]]:
            k = 0
            while True:
                yield roots[k % len(worlds)], worlds[k % len(worlds)].clone()
                k += 1

        self._run(starts(), Budget(self.iterations, self.time_limit))
        visits = np.zeros(view.rules.deck_obj.size)
        for root in roots:
            for action, child in root.children.items():
                visits[action] += child.visits
        legal = [a for a in range(len(visits)) if view.legal >> a & 1]
        return max(legal, key=lambda a: visits[a])
