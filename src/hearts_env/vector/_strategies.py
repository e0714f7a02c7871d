"""The bundled rule players as Numba kernels: ``greedy`` (paper 002) and ``heuristic``, card for card.

Apart from the rules kernel (:mod:`._kernels`), which calls them in its policy modes. The agents'
parameters travel in an int64 array ``A`` (slots ``A_*`` below, filled by
:func:`hearts_env.vector.policies.kernel_policy` from the agent object, so defaults live only in
the agent's class); tests compare every choice with the scalar agent built from the same spec.
"""

from __future__ import annotations

import numpy as np

from hearts_env.tables import K_AS_BIT, K_HEARTS, K_HIGH, K_KS_BIT, K_PENALTY_CARDS, K_QS_BIT, K_RPS, K_SPADES
from hearts_env.vector._bitops import _ONE, _ZERO, _highest_card, _lowest_card, _points, _popcount

# Slots of the int64 agent-parameter array A
A_MOON_ALARM, A_SHOOT, A_CHASE = range(3)
A_SIZE = 3

JITTED = ("_first_highest_rank", "_pass_choice", "_greedy", "_min_rank_short_suit", "_heuristic")
"""The functions :func:`~hearts_env.vector._kernels.compiled` compiles."""


def _first_highest_rank(mask, rps):
    """Python's ``max(cards, key=rank)`` over ascending ids: the highest rank, lowest suit on ties."""
    best, best_rank = -1, -1
    m = mask
    while m:
        card = _lowest_card(m)
        m &= m - _ONE
        if card % rps > best_rank:
            best, best_rank = card, card % rps
    return best


def _greedy(legal, passing, played, trick_count, trick_mask, led_mask, rps, qs_bit, ks_bit, as_bit, hearts_m,
            spades_m, penalty_m):
    """Paper 002 §2.1's greedy player, as :class:`hearts_env.agents.basic.GreedyAgent`."""
    if passing:
        return _pass_choice(legal, _ZERO, False, rps, qs_bit, ks_bit, as_bit, hearts_m, spades_m, _ZERO)
    if trick_count == 0:
        safe = legal & ~hearts_m
        if not safe:
            safe = legal
        spades = safe & spades_m
        if not (played & qs_bit) and spades:
            return _lowest_card(spades)
        return _first_highest_rank(safe, rps)
    following = legal & led_mask
    if not following:
        if legal & qs_bit:
            return _lowest_card(qs_bit)
        return _first_highest_rank(legal, rps)
    if trick_count == 3 and not trick_mask & penalty_m:
        safe_high = following & ~qs_bit
        if safe_high:
            return _highest_card(safe_high)
    under = following & ((_ONE << np.uint64(_highest_card(trick_mask & led_mask))) - _ONE)
    if under:
        return _highest_card(under)
    return _lowest_card(following)


def _min_rank_short_suit(mask, hand, rps, suit0, longest):
    """``min(cards, key=(rank, cards held in its suit))`` (``longest=False``) or
    ``max(cards, key=(rank, -cards held in its suit))`` (``longest=True`` picks the highest rank,
    shortest suit); the first such card in id order on ties."""
    best, best_rank, best_len = -1, 0, 0
    m = mask
    while m:
        card = _lowest_card(m)
        m &= m - _ONE
        rank = card % rps
        length = _popcount(hand & (suit0 << np.uint64((card // rps) * rps)))
        if longest:
            better = best < 0 or rank > best_rank or (rank == best_rank and length < best_len)
        else:
            better = best < 0 or rank < best_rank or (rank == best_rank and length < best_len)
        if better:
            best, best_rank, best_len = card, rank, length
    return best


def _heuristic(legal, seat, hand, start_hand, played, taken, i, trick, tc, leader, trick_mask, led_mask, K, P,
               moon_alarm, shoot, chase):
    """The play of :class:`hearts_env.agents.basic.HeuristicAgent` with these parameters, card for card
    (scalars, not the array ``A``: every array argument costs reference counting on each call)."""
    rps = np.int64(K[K_RPS])
    hearts_m, spades_m, qs_bit, ks_bit, as_bit = K[K_HEARTS], K[K_SPADES], K[K_QS_BIT], K[K_KS_BIT], K[K_AS_BIT]
    penalty = K[K_PENALTY_CARDS]
    suit0 = hearts_m >> np.uint64(2 * rps)
    qs = _lowest_card(qs_bit)
    # shooting: a strong hand after the exchange while no other seat holds a point
    start_hearts = start_hand & hearts_m
    top = hearts_m & ~(hearts_m >> np.uint64(2))
    others_pointed = False
    for s in range(4):
        if s != seat and taken[i, s] & penalty:
            others_pointed = True
    if not others_pointed and ((shoot and _popcount(start_hearts) >= 5 and (start_hearts & top) == top
                                and _popcount(start_hand & K[K_HIGH]) * 10 >= 6 * _popcount(start_hand))
                               or (chase > 0 and _points(taken[i, seat], K, P) >= chase)):
        if tc == 0:
            best, best_key = -1, -1
            m = legal
            while m:
                card = _lowest_card(m)
                m &= m - _ONE
                key = 2 * (card % rps) + (1 if ((_ONE << np.uint64(card)) & hearts_m) == _ZERO else 0)
                if key > best_key:
                    best, best_key = card, key
            return best
        following = legal & led_mask
        if following:
            return _highest_card(following)
        keep = legal & ~penalty
        if not keep:
            keep = legal
        return _min_rank_short_suit(keep, _ZERO, rps, suit0, False)
    # a moon threat: exactly one seat has points, it is not this one, and it has moon_alarm or more
    shooter = -1
    scorers = 0
    for s in range(4):
        if taken[i, s] and _points(taken[i, s], K, P) > 0:
            scorers += 1
            shooter = s
    if scorers != 1 or shooter == seat or _points(taken[i, shooter], K, P) < moon_alarm:
        shooter = -1
    qs_out = (played & qs_bit) == _ZERO
    if tc == 0:
        low_spades = legal & spades_m & (qs_bit - _ONE)
        if qs_out and low_spades and not (hand & (qs_bit | ks_bit | as_bit)):
            return _lowest_card(low_spades)  # flush the queen
        safe = legal & ~hearts_m
        if hand & qs_bit:
            safe &= ~spades_m
        if not safe:
            safe = legal
        return _min_rank_short_suit(safe, hand, rps, suit0, False)
    winning = _highest_card(trick_mask & led_mask)
    pos = 0
    for k in range(1, 4):
        if trick[i, k] == winning:
            pos = k
    winner_seat = (leader + pos) & 3
    following = legal & led_mask
    last = tc == 3
    if shooter >= 0 and trick_mask & penalty and winner_seat == shooter:
        above = following & ~((_ONE << np.uint64(winning + 1)) - _ONE)
        if above:
            return _lowest_card(above)  # take the points away from the shooter
    if following:
        under = following & ((_ONE << np.uint64(winning)) - _ONE)
        spade_queen_risk = (led_mask & qs_bit) != _ZERO and (following & qs_bit) != _ZERO and winning < qs
        if last and not (trick_mask & penalty) and not spade_queen_risk:
            safe = following & ~qs_bit
            return _highest_card(safe if safe else following)  # a free trick: shed a high card
        if under:
            return _highest_card(under)
        if (led_mask & qs_bit) and (following & qs_bit) and _popcount(following) > 1:
            following &= ~qs_bit
        return _highest_card(following) if last else _lowest_card(following)
    # void in the led suit: discard
    if shooter >= 0 and winner_seat == shooter:
        clean = legal & ~penalty
        if clean:
            return _first_highest_rank(clean, rps)
    if legal & qs_bit:
        return qs
    if qs_out and not (hand & qs_bit):
        if legal & as_bit:
            return _lowest_card(as_bit)
        if legal & ks_bit:
            return _lowest_card(ks_bit)
    hearts = legal & hearts_m
    if hearts:
        return _highest_card(hearts)
    return _min_rank_short_suit(legal, hand, rps, suit0, True)


def _pass_choice(legal, hand, guard, rps, qs_bit, ks_bit, as_bit, hearts_m, spades_m, suit0):
    """The most dangerous legal card to pass, as ``hearts_env.agents.basic.pass_danger`` scores it:
    ``guard=False`` is ``greedy``'s (Q♠, then A♠/K♠, then hearts, by rank); ``guard=True`` is
    ``heuristic``'s, which keeps high spades guarded by three low ones in ``hand`` (the cards not yet
    chosen) and voids a short minor suit."""
    low_spades = _popcount(hand & spades_m & ~(qs_bit | ks_bit | as_bit))
    best, best_score = -1, -1
    m = legal
    while m:
        card = _lowest_card(m)
        m &= m - _ONE
        bit = _ONE << np.uint64(card)
        suit = card // rps
        score = card % rps
        if bit == qs_bit or bit == ks_bit or bit == as_bit:
            if not guard or low_spades < 3:
                score += 40 if bit == qs_bit else 30
        elif bit & hearts_m:
            score += 6
        elif guard and suit < 2 and _popcount(hand & (suit0 << np.uint64(suit * rps))) <= 2:
            score += 20  # void a short minor suit
        if score > best_score:
            best, best_score = card, score
    return best
