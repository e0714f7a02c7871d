"""Per-table loops of the batched engine, compiled by Numba (the ``search`` extra) when installed.

One table at a time, the same rules as :class:`~hearts_env.engine.Deal` (the equivalence tests
compare both backends with the scalar engine). Every mask is ``uint64`` and every constant
mixed with one is ``uint64`` too: Numba turns ``uint64 op int64`` into a float.

Constants travel in two arrays built by :meth:`hearts_env.tables.RuleTables.pack`: ``K`` (uint64
masks and counts) and ``P`` (int64 point values), whose slot names live in :mod:`hearts_env.tables`.
The hot path lives in one function, :func:`drive`, whose mode says what to do per table: Numba
passes each array argument of a call with reference counting, which costs more than the rules
themselves, so only rare events (exchanging passes, scoring) call out.
"""

from __future__ import annotations

import numpy as np

from hearts_env.tables import (
    FLAG_ANY_CLUB,
    FLAG_AVOID_BONUS,
    FLAG_HEARTS_FOR_QS,
    FLAG_JD_BONUS,
    FLAG_LOWEST_CLUB,
    FLAG_NO_PTS_FIRST,
    K_AS_BIT,
    K_BREAKS,
    K_CLUBS,
    K_FIRST_ALLOWED,
    K_FLAGS,
    K_HAND_SIZE,
    K_HEARTS,
    K_HIGH,
    K_JC_BIT,
    K_JD_BIT,
    K_KS_BIT,
    K_N,
    K_PASS_COUNT,
    K_PENALTY_CARDS,
    K_QS_BIT,
    K_RPS,
    K_SCORING,
    K_SPADES,
    MOON_ADD,
    MOON_CHOICE,
    MOON_SUBTRACT,
    P_AS,
    P_AVOID,
    P_HEART,
    P_JC,
    P_JD,
    P_KS,
    P_MOON,
    P_PENALTY_TOTAL,
    P_QS,
    P_TARGET,
)

# modes of drive(); the advancing modes come last
LEGAL, CHECK, PLAY, RANDOM_PLAY, GREEDY_CHOICE, HEURISTIC_CHOICE, ADVANCE_RANDOM, ADVANCE_GREEDY, \
    ADVANCE_HEURISTIC = range(9)

HEURISTIC_MOON_ALARM = 8
"""The vectorized ``heuristic`` player's ``moon_alarm`` (the Python agent's default)."""


_ZERO = np.uint64(0)
_ONE = np.uint64(1)


_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


def _popcount(x):
    """Set bits of a uint64, branch-free (LLVM turns this into one popcnt where the CPU has it)."""
    x = x - ((x >> _ONE) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return np.int64((x * _H01) >> np.uint64(56))


def _lowest_card(x):
    """Index of the lowest set bit (x != 0)."""
    return _popcount((x & (~x + _ONE)) - _ONE)


def _highest_card(x):
    """Index of the highest set bit (x != 0)."""
    for k in (1, 2, 4, 8, 16, 32):
        x |= x >> np.uint64(k)
    return _popcount(x) - 1


def _start_play(i, hands, phase, current, leader, dealer, K):
    if K[K_FLAGS] & np.uint64(FLAG_LOWEST_CLUB):
        first = 3
        for s in range(3):
            if hands[i, s] & _ONE:
                first = s
                break
    else:
        first = (dealer[i] + 1) & 3
    current[i] = first
    leader[i] = first
    phase[i] = 1


def _exchange(i, hands, passed, pass_direction):
    d = pass_direction[i]
    for t in range(4):
        hands[i, t] &= ~passed[i, t]
    for t in range(4):
        hands[i, (t + d) & 3] |= passed[i, t]


def _score(i, taken, tricks_won, points, moon_shooter, phase, game_scores, K, P):
    flags = K[K_FLAGS]
    shooter = -1
    for s in range(4):
        t = taken[i, s]
        points[i, s] = _penalty_points(t, K, P)
        if P[P_MOON] != 0 and (t & K[K_SCORING]) == K[K_SCORING]:
            shooter = s
    if shooter >= 0:
        n = P[P_PENALTY_TOTAL]
        mode = P[P_MOON]
        if mode == MOON_CHOICE:  # add to the others unless that ends the game with the shooter not winning
            mode = MOON_ADD
            high = game_scores[i, 0] + (0 if shooter == 0 else n)
            low = high
            for s in range(1, 4):
                after = game_scores[i, s] + (0 if s == shooter else n)
                high = max(high, after)
                low = min(low, after)
            if high >= P[P_TARGET] and game_scores[i, shooter] > low:
                mode = MOON_SUBTRACT
        for s in range(4):
            if mode == MOON_ADD:
                points[i, s] = 0 if s == shooter else n
            else:
                points[i, s] = -n if s == shooter else 0
    for s in range(4):
        if flags & np.uint64(FLAG_JD_BONUS) and taken[i, s] & K[K_JD_BIT]:
            points[i, s] -= P[P_JD]
        if flags & np.uint64(FLAG_AVOID_BONUS) and shooter < 0 and tricks_won[i, s] == 0:
            points[i, s] -= P[P_AVOID]
    moon_shooter[i] = shooter
    phase[i] = 2


def _kth_card(mask, u):
    """The ``floor(u * popcount)``-th lowest card of ``mask`` (mask != 0, 0 <= u < 1), found by a
    branch-free binary search on popcounts (a data-dependent loop mispredicts on every table)."""
    k = np.int64(u * _popcount(mask))
    pos = np.int64(0)
    for width in (32, 16, 8, 4, 2, 1):
        w = np.uint64(width)
        low = mask & ((_ONE << w) - _ONE)
        c = _popcount(low)
        take = np.int64(k >= c)
        k -= c * take
        pos += width * take
        mask = (mask >> (w * np.uint64(take))) & ((_ONE << w) - _ONE)
    return pos


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
        best, best_score = -1, -1
        m = legal
        while m:
            card = _lowest_card(m)
            m &= m - _ONE
            bit = _ONE << np.uint64(card)
            score = card % rps
            if bit == qs_bit:
                score += 40
            elif bit == ks_bit or bit == as_bit:
                score += 30
            elif bit & hearts_m:
                score += 6
            if score > best_score:
                best, best_score = card, score
        return best
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


def _penalty_points(mask, K, P):
    """Penalty points of a set of cards, as ``RuleTables.penalty_points_of`` (a card worth 0 adds 0)."""
    pts = _popcount(mask & K[K_HEARTS]) * P[P_HEART]
    if mask & K[K_QS_BIT]:
        pts += P[P_QS]
    if mask & K[K_JC_BIT]:
        pts += P[P_JC]
    if mask & K[K_KS_BIT]:
        pts += P[P_KS]
    if mask & K[K_AS_BIT]:
        pts += P[P_AS]
    return pts


def _points(mask, K, P):
    """Points of a set of cards (penalties minus the J♦ bonus), as ``hearts_env.engine.mask_points``."""
    pts = _penalty_points(mask, K, P)
    if K[K_FLAGS] & np.uint64(FLAG_JD_BONUS) and mask & K[K_JD_BIT]:
        pts -= P[P_JD]
    return pts


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


def _heuristic(legal, seat, hand, start_hand, played, taken, i, trick, tc, leader, trick_mask, led_mask, K, P):
    """The play of :class:`hearts_env.agents.basic.HeuristicAgent` (defaults), card for card."""
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
    if (not others_pointed and _popcount(start_hearts) >= 5 and (start_hearts & top) == top
            and _popcount(start_hand & K[K_HIGH]) * 10 >= 6 * _popcount(start_hand)):
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
    if scorers != 1 or shooter == seat or _points(taken[i, shooter], K, P) < HEURISTIC_MOON_ALARM:
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


def _heuristic_pass(legal, hand, rps, qs_bit, ks_bit, as_bit, hearts_m, spades_m, suit0):
    """The pass of :class:`hearts_env.agents.basic.HeuristicAgent`: the most dangerous card of
    ``hand`` (the cards not yet chosen), guarded high spades kept, short minor suits voided."""
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
            if low_spades < 3:
                score += 40 if bit == qs_bit else 30
        elif bit & hearts_m:
            score += 6
        elif suit < 2 and _popcount(hand & (suit0 << np.uint64(suit * rps))) <= 2:
            score += 20  # void a short minor suit
        if score > best_score:
            best, best_score = card, score
    return best


def drive(S, K, P, mode, cards, uniforms, learner, out, masks):
    """Every table, per ``mode``:

    - LEGAL: ``masks[i]`` = the legal cards; CHECK: returns the first table whose ``cards[i]`` is
      not legal (-2 skips a table), else -1;
    - PLAY: pass or play ``cards[i]`` (checked before; -2 skips); RANDOM_PLAY: the
      ``floor(uniforms[i, 0] * count)``-th legal card, written to ``out[i]``; GREEDY_CHOICE /
      HEURISTIC_CHOICE: that player's card to ``out[i]``, nothing played;
    - ADVANCE_RANDOM / ADVANCE_GREEDY / ADVANCE_HEURISTIC: the other seats play (random with
      ``uniforms[i, j]`` for the j-th card, greedy or heuristic) until seat ``learner[i]`` is to act
      or the deal is over (``learner[i] = -1``: to the end); ``out[i]`` = cards played.
    Finished tables are skipped (callers pre-fill ``out``/``masks``)."""
    hands, passed, played_by, phase, current, leader, trick, trick_count, trick_mask, led_mask, trick_index, \
        hearts_broken, taken, tricks_won, voids, trick_winners, points, moon_shooter, pass_direction, dealer, \
        game_scores = S
    n = np.int64(K[K_N])
    rps = np.int64(K[K_RPS])
    hand_size = np.int64(K[K_HAND_SIZE])
    pass_count = np.int64(K[K_PASS_COUNT])
    hearts_m, clubs_m, qs_bit, breaks = K[K_HEARTS], K[K_CLUBS], K[K_QS_BIT], K[K_BREAKS]
    first_allowed = K[K_FIRST_ALLOWED]
    flags = K[K_FLAGS]
    no_pts_first = (flags & np.uint64(FLAG_NO_PTS_FIRST)) != _ZERO
    lowest_club = (flags & np.uint64(FLAG_LOWEST_CLUB)) != _ZERO
    any_club = (flags & np.uint64(FLAG_ANY_CLUB)) != _ZERO
    hearts_for_qs = (flags & np.uint64(FLAG_HEARTS_FOR_QS)) != _ZERO
    suit0 = hearts_m >> np.uint64(2 * rps)
    advancing = mode >= ADVANCE_RANDOM
    for i in range(phase.shape[0]):
        j = 0
        while phase[i] != 2:
            s = current[i]
            if advancing and s == learner[i]:
                break
            if (mode == PLAY or mode == CHECK) and cards[i] == -2:
                break
            p = phase[i]
            tc = trick_count[i]
            hand = hands[i, s]
            if p == 0:
                legal = hand & ~passed[i, s]
            else:
                legal = _ZERO
                if tc > 0:
                    legal = hand & led_mask[i]
                elif trick_index[i] == 0 and lowest_club:
                    legal = (hand & clubs_m) if any_club else _ONE
                if legal == _ZERO and trick_index[i] == 0 and no_pts_first:
                    legal = hand & first_allowed
                if legal == _ZERO and tc == 0:
                    lead = hand if hearts_broken[i] else hand & ~hearts_m
                    if lead != _ZERO and not (hearts_for_qs and lead == qs_bit):
                        legal = lead
                if legal == _ZERO:
                    legal = hand
            if mode == LEGAL:
                masks[i] = legal
                break
            if mode == CHECK:
                c = cards[i]
                if c < 0 or c >= n or ((legal >> np.uint64(c)) & _ONE) == _ZERO:
                    return i
                break
            if mode == PLAY:
                card = cards[i]
            elif mode == RANDOM_PLAY or mode == ADVANCE_RANDOM:
                card = _kth_card(legal, uniforms[i, min(j, uniforms.shape[1] - 1)])
            elif mode == GREEDY_CHOICE or mode == ADVANCE_GREEDY:
                card = _greedy(legal, p == 0, played_by[i, 0] | played_by[i, 1] | played_by[i, 2] | played_by[i, 3],
                               tc, trick_mask[i], led_mask[i], rps, qs_bit, K[K_KS_BIT], K[K_AS_BIT], hearts_m,
                               K[K_SPADES], K[K_PENALTY_CARDS])
                if mode == GREEDY_CHOICE:
                    out[i] = card
                    break
            else:
                if legal & (legal - _ONE) == _ZERO:
                    card = _lowest_card(legal)
                elif p == 0:
                    card = _heuristic_pass(legal, hand & ~passed[i, s], rps, qs_bit, K[K_KS_BIT], K[K_AS_BIT], hearts_m,
                                           K[K_SPADES], suit0)
                else:
                    card = _heuristic(legal, s, hand, hand | played_by[i, s],
                                      played_by[i, 0] | played_by[i, 1] | played_by[i, 2] | played_by[i, 3],
                                      taken, i, trick, tc, leader[i], trick_mask[i], led_mask[i], K, P)
                if mode == HEURISTIC_CHOICE:
                    out[i] = card
                    break
            if mode == RANDOM_PLAY:
                out[i] = card
            bit = _ONE << np.uint64(card)
            if p == 0:
                passed[i, s] |= bit
                if _popcount(passed[i, s]) == pass_count:
                    if s < 3:
                        current[i] = s + 1
                    else:
                        _exchange(i, hands, passed, pass_direction)
                        _start_play(i, hands, phase, current, leader, dealer, K)
            else:
                hands[i, s] ^= bit
                played_by[i, s] |= bit
                trick[i, tc] = card
                if bit & breaks:
                    hearts_broken[i] = True
                if tc == 0:
                    led_mask[i] = suit0 << np.uint64((card // rps) * rps)
                    trick_mask[i] = bit
                else:
                    if (bit & led_mask[i]) == _ZERO:
                        voids[i, s] |= np.uint8(1 << (trick[i, 0] // rps))
                    trick_mask[i] |= bit
                if tc < 3:
                    trick_count[i] = tc + 1
                    current[i] = (s + 1) & 3
                else:
                    best = _highest_card(trick_mask[i] & led_mask[i])
                    pos = 0
                    for k in range(1, 4):
                        if trick[i, k] == best:
                            pos = k
                    winner = (leader[i] + pos) & 3
                    taken[i, winner] |= trick_mask[i]
                    tricks_won[i, winner] += 1
                    trick_winners[i, trick_index[i]] = winner
                    trick_index[i] += 1
                    for k in range(4):
                        trick[i, k] = -1
                    trick_count[i] = 0
                    trick_mask[i] = _ZERO
                    led_mask[i] = _ZERO
                    leader[i] = winner
                    current[i] = winner
                    if trick_index[i] == hand_size:
                        _score(i, taken, tricks_won, points, moon_shooter, phase, game_scores, K, P)
            j += 1
            if not advancing:
                break
        if advancing:
            out[i] = j
    return -1


_HELPERS = ("_popcount", "_lowest_card", "_highest_card", "_start_play", "_exchange", "_penalty_points", "_score",
            "_kth_card", "_first_highest_rank", "_greedy", "_points", "_min_rank_short_suit", "_heuristic",
            "_heuristic_pass")


def compiled():
    """:func:`drive` compiled by Numba, or None when Numba is not installed."""
    global _COMPILED
    if _COMPILED is None:
        try:
            import numba
        except ImportError:
            _COMPILED = False
            return None
        g = globals()
        for name in _HELPERS:
            g[name] = numba.njit(cache=True, error_model="numpy")(g[name])
        _COMPILED = numba.njit(cache=True, error_model="numpy")(drive)
    return _COMPILED or None


_COMPILED = None
