"""The atomic features of paper 004 as reconstructed here, and their conjunction sets.

The paper's Appendix A (60 atoms for the Q♠ task) is missing from every copy we have; its glossary
and text survive (docs/tdlambda.md quotes them). This list is **ours**, built from that glossary
("to start" = as dealt, "exit" = a card guaranteed not to take a trick, "short" = void, "backers" =
J♠…2♠, "leader"/"Qplayer" = another seat on lead / holding Q♠) and from the features the paper names
in §2.3. Atoms are perfect-information (they read every hand), computed at trick boundaries for one
seat ("we"). The hearts space drops the 14 Q-specific atoms and adds three one-hot counts of 14
values (paper §2.4): 46 + 42 = 88.

A feature set over ``n`` atoms holds some of the orders 1 (the atoms), 2 (pairs), 3 (triples) and
4 (four-wise): every AND of that many distinct atoms, once. The paper's sets are atoms + one order
(1,830 = 60 + C(60,2); 34,280 = 60 + C(60,3); 3,916 = 88 + C(88,2); 109,824 = 88 + C(88,3)) and
"four-wise" = all orders up to 4 (523,685).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hearts_baselines.tdlambda.kernels import HEARTS_SPACE, Q_SPACE, SPACE_ATOMS, binomial, order_offsets

_SUITS = ("♣", "♦", "♥", "♠")

COMMON_ATOMS: tuple[str, ...] = (
    *(f"we hold {n} {s}" for s in _SUITS for n in ("no", "one", "two", "three or more")),
    *(f"we have an exit in {s} (our lowest {s} is below all of some other seat's {s})" for s in _SUITS),
    *(f"we hold the lowest {s} still out" for s in _SUITS),
    *(f"we hold the highest {s} still out" for s in _SUITS),
    "we have the lead",
    *(f"another seat has the lead and is short in {s}" for s in _SUITS),
    *(f"some other seat is short in {s}" for s in _SUITS),
    *(f"we had {n} ♠ to start" for n in ("0–2", "3", "4", "5 or more")),
    *(f"the other seats hold {n} ♠" for n in ("0–2", "3–5", "6 or more")),
    "we were short in ♥ to start",
    "we have taken a trick",
)
Q_ATOMS: tuple[str, ...] = (
    *COMMON_ATOMS,
    "we hold Q♠",
    "we hold K♠",
    "we hold A♠",
    "Q♠ has been played",
    "the Qplayer is on our left (plays after us)",
    "the Qplayer is across",
    "the Qplayer is on our right",
    "the Qplayer has no other ♠",
    "the Qplayer has exactly one other ♠",
    *(f"we hold {n} backers (J♠…2♠)" for n in ("no", "one", "two", "three or more")),
    "we have the lead and can lead ♠",
)
HEARTS_ATOMS: tuple[str, ...] = (
    *COMMON_ATOMS,
    *(f"we have taken {n} ♥" for n in range(14)),
    *(f"the other seats have taken {n} ♥ together" for n in range(14)),
    *(f"{n} ♥ are left to be taken" for n in range(14)),
)
ATOMS = (Q_ATOMS, HEARTS_ATOMS)
"""Atom names by space (:data:`~.kernels.Q_SPACE`, :data:`~.kernels.HEARTS_SPACE`), in index order."""
assert len(Q_ATOMS) == SPACE_ATOMS[Q_SPACE] and len(HEARTS_ATOMS) == SPACE_ATOMS[HEARTS_SPACE]

SPACE_NAMES = ("q", "hearts")


@dataclass(frozen=True)
class FeatureSet:
    """The conjunctions of one atom space: ``orders`` ⊆ {1, 2, 3, 4}."""

    space: int
    orders: tuple[int, ...]

    def __post_init__(self) -> None:
        if self.space not in (Q_SPACE, HEARTS_SPACE):
            raise ValueError(f"space must be {Q_SPACE} (q) or {HEARTS_SPACE} (hearts), got {self.space}")
        orders = self.orders
        if not orders or any(o not in (1, 2, 3, 4) for o in orders) or len(set(orders)) != len(orders):
            raise ValueError(f"orders must be distinct values among 1, 2, 3, 4; got {self.orders}")

    @property
    def atoms(self) -> int:
        return SPACE_ATOMS[self.space]

    @property
    def bits(self) -> int:
        """The orders as the kernels' bit set (bit 0: atoms … bit 3: four-wise)."""
        return sum(1 << (o - 1) for o in self.orders)

    @property
    def size(self) -> int:
        return sum(binomial(self.atoms, o) for o in self.orders)

    def offsets(self) -> np.ndarray:
        return order_offsets(self.atoms, self.bits)

    def describe(self, index: int) -> str:
        """The conjunction at ``index`` as "atom ∧ atom ∧ …"."""
        return " ∧ ".join(ATOMS[self.space][a] for a in self.members(index))

    def members(self, index: int) -> tuple[int, ...]:
        """The atoms ANDed by the feature at ``index`` (inverse of the colex rank the kernels use)."""
        if not 0 <= index < self.size:
            raise IndexError(f"feature {index} is outside 0..{self.size - 1}")
        offsets = self.offsets()
        order = max(o for o in self.orders if offsets[o] <= index)
        rank = index - int(offsets[order])
        out = []
        for k in range(order, 0, -1):  # largest member first: the largest c with C(c, k) <= rank
            c = k - 1
            while binomial(c + 1, k) <= rank:
                c += 1
            out.append(c)
            rank -= binomial(c, k)
        return tuple(sorted(out))


def parse_orders(text: str) -> tuple[int, ...]:
    """``"1,3"`` → (1, 3), with a clear error for anything else."""
    try:
        orders = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise ValueError(f"orders must be comma-separated integers among 1, 2, 3, 4 (e.g. 1,2,3); "
                         f"got {text!r}") from None
    FeatureSet(Q_SPACE, orders)  # validates
    return orders
