"""A slow, plain-Python implementation of paper 004's features, value, search and TD(λ) update,
written independently of :mod:`.kernels` (cards as lists, features as tuples of atoms, weights in a
dict keyed by those tuples, the search over :class:`~hearts_env.engine.Deal` copies). The tests
require both to agree; ``make speed`` times training with both.
"""

from __future__ import annotations

from itertools import combinations

from hearts_baselines.tdlambda.features import Q_ATOMS
from hearts_env.engine import Deal

QUEEN, KING, ACE = 49, 50, 51
Q_ATOM_COUNT = len(Q_ATOMS)


def _suit(cards: int, suit: int) -> list[int]:
    return [c for c in range(13 * suit, 13 * suit + 13) if cards >> c & 1]


def atoms(hands: list[int], dealt: list[int], taken: list[int], leader: int, seat: int, space: str) -> list[int]:
    """The active atoms (ascending) of ``seat``'s position; ``space`` is ``"q"`` or ``"hearts"``."""
    others = [q for q in range(4) if q != seat]
    on: set[int] = set()
    for s in range(4):
        ours = _suit(hands[seat], s)
        still_out = sorted(ours + [c for q in others for c in _suit(hands[q], s)])
        on.add(4 * s + min(len(ours), 3))
        if ours:
            if any(_suit(hands[q], s) and min(_suit(hands[q], s)) > min(ours) for q in others):
                on.add(16 + s)
            if still_out[0] == min(ours):
                on.add(20 + s)
            if still_out[-1] == max(ours):
                on.add(24 + s)
        if leader != seat and not _suit(hands[leader], s):
            on.add(29 + s)
        if any(not _suit(hands[q], s) for q in others):
            on.add(33 + s)
    if leader == seat:
        on.add(28)
    spades_dealt = len(_suit(dealt[seat], 3))
    on.add({0: 37, 1: 37, 2: 37, 3: 38, 4: 39}.get(spades_dealt, 40))
    spades_out = sum(len(_suit(hands[q], 3)) for q in others)
    on.add(41 if spades_out <= 2 else 42 if spades_out <= 5 else 43)
    if not _suit(dealt[seat], 2):
        on.add(44)
    if taken[seat]:
        on.add(45)
    if space == "q":
        mine = _suit(hands[seat], 3)
        on.update(i for i, card in ((46, QUEEN), (47, KING), (48, ACE)) if card in mine)
        holder = next((q for q in range(4) if hands[q] >> QUEEN & 1), None)
        if holder is None:
            on.add(49)
        elif holder != seat:
            on.add({1: 50, 2: 51, 3: 52}[(holder - seat) % 4])
            guards = len(_suit(hands[holder], 3)) - 1
            if guards in (0, 1):
                on.add(53 + guards)
        on.add(55 + min(len([c for c in mine if c < QUEEN]), 3))
        if leader == seat and mine:
            on.add(59)
    else:
        on.add(46 + len(_suit(taken[seat], 2)))
        on.add(60 + sum(len(_suit(taken[q], 2)) for q in others))
        on.add(74 + sum(len(_suit(hands[q], 2)) for q in range(4)))
    return sorted(on)


def conjunctions(active: list[int], orders: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every feature (a sorted tuple of atoms) that the active atoms switch on."""
    return [combo for order in sorted(orders) for combo in combinations(active, order)]


def points(taken: int, task: str) -> int:
    hearts = len(_suit(taken, 2))
    queen = 13 if taken >> QUEEN & 1 else 0
    return {"q": queen, "hearts": hearts, "full": hearts + queen}[task]


class PlainModel:
    """A linear value of ``task`` ("q", "hearts" or "full") over the conjunctions of the given
    ``orders`` of each atom space in ``spaces`` ("q", "hearts"), with weights keyed by
    (space, sorted atoms). A model that keeps only some features lists them in ``kept``."""

    def __init__(self, task: str, spaces: dict[str, tuple[int, ...]], weights: dict[tuple[str, tuple[int, ...]], float],
                 moon: str = "off", kept: set[tuple[str, tuple[int, ...]]] | None = None):
        self.task, self.spaces, self.weights, self.moon, self.kept = task, spaces, weights, moon, kept

    def features(self, deal: Deal, seat: int) -> list[tuple[str, tuple[int, ...]]]:
        out = []
        for space, orders in self.spaces.items():
            active = atoms(list(deal.hands), list(deal.dealt), list(deal.taken), deal.leader, seat, space)
            out += [(space, combo) for combo in conjunctions(active, orders)]
        return out if self.kept is None else [f for f in out if f in self.kept]

    def raw(self, deal: Deal, seat: int) -> float:
        return sum(self.weights.get(f, 0.0) for f in self.features(deal, seat))

    def value(self, deal: Deal, seat: int) -> float:
        """Predicted final task points at a trick boundary (exact when nothing is left to take)."""
        if deal.is_over:
            if self.task == "full" and self.moon != "off":
                shooter = next((q for q in range(4) if points(deal.taken[q], "full") == 26), None)
                if shooter is not None:
                    if self.moon == "add_to_others":
                        return 0.0 if shooter == seat else 26.0
                    return -26.0 if shooter == seat else 0.0
            return float(points(deal.taken[seat], self.task))
        have = points(deal.taken[seat], self.task)
        left = points(sum(deal.hands), self.task)
        if left == 0:
            return float(have)
        low, high = (0.01, 12.99) if self.task == "q" else (have, have + left)
        return min(max(self.raw(deal, seat), low), high)

    def search(self, deal: Deal) -> tuple[int, list[float]]:
        """max^n to the end of the trick for the seat to play: (card, value vector of that card)."""
        seat = deal.current
        best: tuple[int, list[float]] | None = None
        for card in deal.legal_cards():
            child = deal.clone()
            done = child.apply(card)
            values = [self.value(child, q) for q in range(4)] if done else self.search(child)[1]
            if best is None or values[seat] < best[1][seat]:
                best = (card, values)
        assert best is not None
        return best

    def update(self, positions: list[Deal], seat: int, reward: float, lam: float) -> None:
        """TD(λ) backwards over the seat's trick-boundary positions of one deal."""
        target = reward
        for t in range(len(positions) - 1, -1, -1):
            if t < len(positions) - 1:
                target = (1 - lam) * self.value(positions[t + 1], seat) + lam * target
            features = self.features(positions[t], seat)
            if not features:
                continue
            step = (target - self.raw(positions[t], seat)) / (13 * len(features))
            for f in features:
                self.weights[f] = self.weights.get(f, 0.0) + step
