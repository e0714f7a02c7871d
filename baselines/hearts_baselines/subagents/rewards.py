"""Rewards of paper 000 §4.2: terminal (Table 1) and immediate (Table 2), per playing style.

Every state of a deal gets the deal's terminal reward plus the immediate reward of the trick it
belongs to. The networks end in a sigmoid, so the sum is divided by its largest possible value
(1.5 for normal and moonshot, 2 for the breaker) to lie in [0, 1]: a positive scale, so the
ranking of actions is unchanged. Passing states get the terminal reward only (§4.2).
"""

from __future__ import annotations

from dataclasses import dataclass

from hearts_env.engine import mask_points
from hearts_env.views import SeatView

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
