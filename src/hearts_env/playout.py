"""Monte Carlo search's rollout: the rest of a deal played by uniformly random legal passes and plays, each
phase in one function over local variables (:meth:`Deal.playout <hearts_env.engine.Deal.playout>` runs them).

The rules are the ones :meth:`~hearts_env.engine.Deal.legal_mask` and :meth:`~hearts_env.engine.Deal.apply`
follow, inlined and read from the deal's :class:`~hearts_env.tables.RuleTables` (``tests/test_playout.py``
replays every playout through ``apply``). The functions write the deal's public fields only; the deal itself
turns its phases (the exchange of the passes, the score), so this module needs nothing of :mod:`hearts_env.engine`
but its type.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hearts_env.engine import Deal

__all__ = ["pass_randomly", "play_randomly"]


def pass_randomly(deal: Deal, bits: Callable[[int], int]) -> None:
    """Choose every pass still to choose, uniformly among the cards each seat has not passed; ``bits`` is a
    ``Random.getrandbits``. The deal then exchanges them (its passing phase ends)."""
    passed, history, pass_count = deal.passed, deal.history, deal.tables.pass_count
    for seat in range(deal.current, 4):
        left = deal.hands[seat] & ~passed[seat]
        for _ in range(pass_count - passed[seat].bit_count()):
            m = left
            k = bits(32) * m.bit_count() >> 32
            while k:
                m &= m - 1
                k -= 1
            bit = m & -m
            left ^= bit
            history.append(bit.bit_length() - 1)
        passed[seat] = deal.hands[seat] & ~left


def play_randomly(deal: Deal, bits: Callable[[int], int]) -> None:
    """Play every card still held, each uniformly among the legal ones, from the deal's play phase (mid-trick
    too) to its last trick; ``bits`` is a ``Random.getrandbits``. The deal then scores itself."""
    c = deal.tables
    rps, suit_mask_of, breaks, hearts = c.ranks_per_suit, c.suit_mask_of, c.breaks_hearts, c.hearts
    first_allowed, lead_club, lowest_club_lead, qs_only = \
        c.first_trick_only, c.opening_leads, c.lead_lowest_club, c.lone_qs_lead
    n_tricks = c.hand_size
    hands, played_by, taken, tricks_won, voids = deal.hands, deal.played_by, deal.taken, deal.tricks_won, deal.voids
    for s in range(4):  # every card still held gets played
        played_by[s] |= hands[s]
    append, winners = deal.history.append, deal.trick_winners
    trick_mask, led_mask = deal.trick_mask, deal.led_mask
    leader, seat, broken, ti = deal.leader, deal.current, deal.hearts_broken, deal.trick_index
    count = len(deal.trick)  # cards on the table
    best = winner = led_void = 0
    if count:  # resuming mid-trick: the best card so far and its seat
        best = 1 << ((trick_mask & led_mask).bit_length() - 1)
        winner = (leader + deal.trick.index(best.bit_length() - 1)) & 3
        led_void = 1 << (deal.trick[0] // rps)
    while ti < n_tricks:
        hand = hands[seat]
        if count:
            m = hand & led_mask
            if not m:
                m = (hand & first_allowed if ti == 0 else 0) or hand
        elif ti == 0 and lowest_club_lead:
            m = hand & lead_club
        else:
            m = hand & first_allowed if ti == 0 else 0
            if not m:
                m = hand if broken else hand & ~hearts
                if not m or m == qs_only:
                    m = hand
        if m & (m - 1):  # more than one legal card: a uniform index among them
            k = bits(32) * m.bit_count() >> 32
            while k:
                m &= m - 1
                k -= 1
        bit = m & -m
        card = bit.bit_length() - 1
        hands[seat] = hand ^ bit
        append(card)
        if bit & breaks:
            broken = True
        if not count:
            led_mask = suit_mask_of[card]
            led_void = 1 << (card // rps)
            trick_mask = best = bit
            winner = seat
            count = 1
            seat = (seat + 1) & 3
            continue
        if bit & led_mask:
            if bit > best:
                best = bit
                winner = seat
        else:
            voids[seat] |= led_void
        trick_mask |= bit
        count += 1
        if count < 4:
            seat = (seat + 1) & 3
            continue
        taken[winner] |= trick_mask
        tricks_won[winner] += 1
        winners.append(winner)
        ti += 1
        count = 0
        leader = seat = winner
    deal.trick, deal.trick_mask, deal.led_mask = [], 0, 0
    deal.leader, deal.current, deal.hearts_broken, deal.trick_index = leader, seat, broken, ti
