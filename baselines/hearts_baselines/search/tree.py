"""Tree search agents: ``ismcts`` (single-observer ISMCTS) and ``mcts`` (UCT on determinizations).

**ismcts** — Cowling, Powley & Whitehouse (2012), SO-ISMCTS: one tree over the seat's information
set. Each iteration samples a world consistent with what the seat knows
(:mod:`hearts_env.worlds`), descends the tree choosing among the actions legal in that world by
UCB1 with availability counts (a child's exploration term uses how often it was available, not the
parent's visits), expands one untried action, finishes the deal with the rollout policy and credits
every node with the reward of the seat that moved into it. It searches passes too: during passing the
worlds start from the pass phase and the tree holds the pass choices.

**mcts** — paper 002 §2.2: ``determinizations`` random worlds, a separate UCT tree (UCB1, C = √2) on
each (perfect information, every seat maximizing its own reward), the iterations split between them;
the card with the most root visits summed over the trees is played. Passing is delegated to
``passing`` (default ``heuristic``).

Reward of a seat at the end of a deal: ``(penalty_total − points) / penalty_total`` (1 for a clean
deal, 0 for taking every point; a moon gives its shooter 1). Budgets: ``iterations`` or
``time_limit`` seconds per move. Rollouts: ``rollout="greedy"`` (default: paper 002's greedy player
for every seat, the whole playout in one call of the batched engine), ``"random"`` (the engine's
inlined ``Deal.playout``; uniformly random play makes poor Hearts rollouts) or any agent spec
(``"heuristic"``: slow).
"""

from __future__ import annotations

import math

import numpy as np

from hearts_baselines.search.common import Budget, SearchAgent
from hearts_env import Deal, SeatView
from hearts_env.agents import make_agent
from hearts_env.vector import VectorDeals
from hearts_env.worlds import sample_world

_NOBODY = np.array([-1], dtype=np.int8)  # advance() until the deal ends


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


class _TreeSearch(SearchAgent):
    def __init__(self, iterations: int | None, time_limit: float | None, c: float, rollout: str,
                 passing: str = "heuristic"):
        super().__init__(passing)
        self.iterations = iterations
        self.time_limit, self.c, self.rollout = time_limit, c, rollout
        self._players: dict[int, object] = {}

    def _iterate(self, root: Node, world: Deal) -> None:
        """One selection–expansion–rollout–backpropagation pass through ``world`` (consumed)."""
        node, path = root, []
        while not world.is_over:
            legal = world.legal_cards()
            untried = [a for a in legal if a not in node.children]
            if untried:
                action = untried[int(self.rng.integers(len(untried)))]
                for a in legal:
                    if a in node.children:
                        node.children[a].availability += 1
                child = node.children[action] = Node(action, world.current)
                child.availability = 1
                world.apply(action)
                path.append(child)
                break
            node = _select(node, legal, self.c)
            world.apply(node.action)
            path.append(node)
        points = self._finish(world)
        total = world.rules.penalty_total
        for n in path:
            n.visits += 1
            n.total += (total - points[n.player]) / total

    def _finish(self, world: Deal) -> list[int]:
        if world.is_over:
            return world.points  # type: ignore[return-value]
        if self.rollout == "random":
            return world.playout(int(self.rng.integers(2**63)))
        if self.rollout == "greedy":  # the whole playout in one call of the batched engine
            table = VectorDeals.from_deals([world])
            table.advance(_NOBODY, "greedy", self.rng)
            return table.points[0].tolist()
        for seat in range(4):
            if seat not in self._players:
                self._players[seat] = make_agent(self.rollout)
            self._players[seat].reset(world.rules, seat, int(self.rng.integers(2**63)))  # type: ignore[attr-defined]
        while not world.is_over:
            seat = world.current
            world.apply(self._players[seat].act(SeatView.of(world, seat)))  # type: ignore[attr-defined]
        return world.points  # type: ignore[return-value]


class ISMCTSAgent(_TreeSearch):
    """Single-observer information-set MCTS (see the module docstring); searches passes too."""

    name = "ismcts"
    searches_passes = True

    def __init__(self, iterations: int | None = 300, time_limit: float | None = None, c: float = 0.7,
                 rollout: str = "greedy"):
        super().__init__(iterations, time_limit, c, rollout)

    def search(self, view: SeatView) -> int:
        root = Node()
        budget = Budget(self.iterations, self.time_limit)
        while budget.more():
            self._iterate(root, sample_world(view, self.rng))
            budget.done += 1
        legal = [a for a in root.children if view.legal >> a & 1]
        return max(legal, key=lambda a: root.children[a].visits)


class MCTSAgent(_TreeSearch):
    """Paper 002's MCTS: UCT on random determinizations (see the module docstring)."""

    name = "mcts"

    def __init__(self, iterations: int | None = 600, time_limit: float | None = None, c: float = math.sqrt(2),
                 determinizations: int = 10, rollout: str = "greedy", passing: str = "heuristic"):
        super().__init__(iterations, time_limit, c, rollout, passing)
        self.determinizations = determinizations

    def search(self, view: SeatView) -> int:
        worlds = [sample_world(view, self.rng) for _ in range(self.determinizations)]
        roots = [Node() for _ in worlds]
        budget = Budget(self.iterations, self.time_limit)
        k = 0
        while budget.more():
            i = k % len(worlds)
            self._iterate(roots[i], worlds[i].clone())
            k += 1
            budget.done += 1
        visits = np.zeros(view.rules.deck_obj.size)
        for root in roots:
            for action, child in root.children.items():
                visits[action] += child.visits
        legal = [a for a in range(len(visits)) if view.legal >> a & 1]
        return max(legal, key=lambda a: visits[a])
