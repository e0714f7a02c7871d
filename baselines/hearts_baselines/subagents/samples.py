"""What the subagents learn from: states as index rows (paper 000 §4.1), their targets from the rewards
of Tables 1 and 2 (§4.2), and :class:`Samples`, the (state, target) pairs of every network.

**States.** A ``paper260`` vector has exactly one 1 per card (slot ``5 * card + k``), so a state is
stored as the 52 indices of its ones; a ``paper104`` passing state (13 cards in hand, 3 selected) as
its 16 indices. The networks read these rows directly (a gather instead of a dense product), and
:func:`dense` turns a batch of rows into the 0/1 matrix the encoders would produce (a test checks
that they agree with ``hearts_env.encoders``).

**Rewards.** Every state of a deal gets the deal's terminal reward (Table 1) plus the immediate reward
(Table 2) of the trick it belongs to. The networks end in a sigmoid, so the sum is divided by its
largest possible value (1.5 for normal and moonshot, 2 for the breaker) to lie in [0, 1]: a positive
scale, so the ranking of actions is unchanged. Passing states get the terminal reward only (§4.2).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from hearts_env.cards import mask_to_cards
from hearts_env.engine import mask_points
from hearts_env.views import SeatView

# States as index rows ---------------------------------------------------------------------------
N = 52
PLAY_SIZE = 5 * N
PASS_SIZE = 2 * N
HAND, OTHER, MINE_ON_TABLE, OTHERS_ON_TABLE, EARLIER = range(5)
_BASE = 5 * np.arange(N, dtype=np.int16)
_WEIGHTS = np.array([-1, 1, 2, 3], dtype=np.int16)  # hand, mine on table, others on table, earlier


def bits(mask: int) -> np.ndarray:
    """A 0/1 array of the 52 bits of ``mask``."""
    return np.unpackbits(np.frombuffer(mask.to_bytes(7, "little"), dtype=np.uint8), bitorder="little")[:N]


def play_positions(view: SeatView) -> np.ndarray:
    """The position ``k`` (0..4, see ``paper260``) of every card, from ``view``'s seat."""
    pb = view.played_by
    played = pb[0] | pb[1] | pb[2] | pb[3]
    table = view.trick_mask
    mine = table & pb[view.seat]
    hand = view.hand & ~view.passed
    raw = b"".join(m.to_bytes(7, "little") for m in (hand, mine, table & ~mine, played & ~table))
    stacked = np.unpackbits(np.frombuffer(raw, dtype=np.uint8), bitorder="little").reshape(4, 56)[:, :N]
    return (_WEIGHTS @ stacked.astype(np.int16) + 1).astype(np.int16)


def dealt_positions(dealt: int) -> np.ndarray:
    """Positions of the dealt hand before anything happens: mine (0) or in another hand (1)."""
    return (1 - bits(dealt)).astype(np.int16)


def play_row(positions: np.ndarray) -> np.ndarray:
    """The 52 indices of the ones of the ``paper260`` vector with these card positions."""
    return _BASE + positions


def pass_row(hand: int, selected: int) -> np.ndarray:
    """The 16 indices of the ones of the ``paper104`` vector: hand (selected cards included) ‖ selected."""
    return np.array(mask_to_cards(hand) + [N + c for c in mask_to_cards(selected)], dtype=np.int16)


def dense(rows: np.ndarray, size: int) -> np.ndarray:
    """A batch of index rows → the 0/1 ``float32`` matrix of the vectors."""
    out = np.zeros((len(rows), size), dtype=np.float32)
    out[np.arange(len(rows))[:, None], rows] = 1.0
    return out


# Rewards (Tables 1 and 2) ----------------------------------------------------------------------
STYLES = ("normal", "moon", "breaker")
SCALE = {"normal": 1.5, "moon": 1.5, "breaker": 2.0}
MOON_TOTAL = 26


@dataclass(frozen=True)
class DealFacts:
    """What the rewards read from a finished deal, for one seat."""

    seat: int
    received: int
    """Points the seat receives for the deal (moon applied): Table 1's round_penalty for normal play."""
    taken: int
    """Penalty points in the cards the seat took (26 = it took every penalty card)."""
    trick_points: tuple[int, ...]
    """Penalty points the seat took in each trick (Table 2's trick_penalty)."""
    moon_shooter: int | None
    break_trick: int | None
    """The trick in which a second seat first took penalty points (the moon became impossible)."""
    break_seat: int | None


def deal_facts(final: SeatView) -> DealFacts:
    """Facts of a finished deal from ``final``'s seat (its view once the deal is over)."""
    if final.final_points is None:
        raise ValueError("deal_facts needs the view of a finished deal")
    seat = final.seat
    rules = final.rules
    holders: list[int] = []
    break_trick = break_seat = None
    trick_points = []
    for i, (_, trick, winner) in enumerate(final.completed_tricks()):
        mask = 0
        for card in trick:
            mask |= 1 << card
        pts = mask_points(rules, mask)
        trick_points.append(pts if winner == seat else 0)
        if pts > 0 and winner not in holders:
            holders.append(winner)
            if len(holders) == 2:
                break_trick, break_seat = i, winner
    taken = sum(trick_points)
    return DealFacts(seat, final.final_points[seat], taken, tuple(trick_points), final.moon_shooter,
                     break_trick, break_seat)


def terminal(style: str, f: DealFacts) -> float:
    """Table 1."""
    if style == "normal":
        return max(0.0, (10 - f.received) / 10)
    if style == "moon":
        return 1.0 if f.taken == MOON_TOTAL else 0.0
    if style == "breaker":
        if f.moon_shooter is not None:
            return 0.0
        return 1.0 if f.taken == 0 else 0.1
    raise ValueError(f"unknown style {style!r}; styles: {', '.join(STYLES)}")


def immediate(style: str, f: DealFacts, trick: int) -> float:
    """Table 2, for the state recorded in trick ``trick``."""
    if style == "normal":
        return max(0.0, (4 - f.trick_points[trick]) / 8)
    if style == "moon":
        return min(f.trick_points[trick] / 10, 0.5)
    if style == "breaker":
        if f.break_trick != trick:
            return 0.0
        return 0.1 if f.break_seat == f.seat else 1.0
    raise ValueError(f"unknown style {style!r}; styles: {', '.join(STYLES)}")


def play_target(style: str, f: DealFacts, trick: int) -> float:
    """Training target of a playing state: (terminal + immediate) scaled to [0, 1]."""
    return (terminal(style, f) + immediate(style, f, trick)) / SCALE[style]


# Samples -----------------------------------------------------------------------------------------
STYLE_OF = {"play_normal": "normal", "play_moon": "moon", "play_breaker": "breaker",
            "pass_normal": "normal", "pass_moon": "moon"}
"""The reward style each learning network is trained on."""


@dataclass
class Samples:
    """Training rows and targets per network, gathered over deals."""

    rows: dict[str, list[np.ndarray]] = field(default_factory=dict)
    targets: dict[str, list[float]] = field(default_factory=dict)

    def add(self, name: str, row: np.ndarray, target: float) -> None:
        self.rows.setdefault(name, []).append(row)
        self.targets.setdefault(name, []).append(target)

    def arrays(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        return np.array(self.rows.get(name, []), dtype=np.int16), np.array(self.targets.get(name, []), np.float32)

    def clear(self) -> None:
        self.rows.clear()
        self.targets.clear()
