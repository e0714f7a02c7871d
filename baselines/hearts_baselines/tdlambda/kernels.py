"""The hot loop of paper 004's player, written for Numba: atomic features, their conjunctions, the
linear value, max^n to the end of the trick and the TD(λ) update.

The functions are Numba-compatible Python over ``int64`` arrays of card masks (52-card deck: card id
``suit * 13 + rank``, suits ♣ ♦ ♥ ♠); :func:`compiled` compiles them (the ``search`` extra) and is
what callers use. :mod:`.plain` is an independent, readable implementation over
:class:`~hearts_env.engine.Deal` and Python sets that the tests hold this one to.

A position is a trick boundary or a point inside a trick, given as ``hands`` (4 masks), ``dealt``
(the four hands as dealt, for the "to start" atoms), ``taken`` (the cards each seat has taken) and
the seat on lead. Evaluator parameters travel as one tuple ``P`` (see :func:`params`).
"""

from __future__ import annotations

import functools
from types import SimpleNamespace
from typing import Any

import numpy as np

SUIT = 0x1FFF
HEARTS = SUIT << 26
SPADES = SUIT << 39
QS = 1 << 49
KS = 1 << 50
AS = 1 << 51
BACKERS = (SUIT >> 3) << 39  # 2♠ … J♠: the spades below the queen
ALL = (1 << 52) - 1

Q_TASK, HEARTS_TASK, FULL_TASK = 0, 1, 2
Q_SPACE, HEARTS_SPACE = 0, 1
SPACE_ATOMS = (60, 88)
EPSILON = 0.01
"""Q-task bounds: a not-yet-taken Q♠ is worth at least ε and at most 13 − ε, so the search always
tells it from a Q♠ already taken (exactly 13) or lost to another seat (exactly 0) (paper §2.3)."""


def popcount(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


def lowest(x: int) -> int:
    """Index of the lowest set bit of a non-zero mask."""
    i = 0
    while not (x >> i) & 1:
        i += 1
    return i


def highest(x: int) -> int:
    """Index of the highest set bit of a non-zero mask."""
    i = 51
    while not (x >> i) & 1:
        i -= 1
    return i


def atoms(hands: np.ndarray, dealt: np.ndarray, taken: np.ndarray, leader: int, seat: int, space: int,
          out: np.ndarray) -> int:
    """Writes the active atoms of ``seat``'s position (ascending) into ``out``; returns how many.
    The atoms are listed, numbered and explained in :data:`hearts_baselines.tdlambda.features.ATOMS`."""
    flags = np.zeros(88, np.bool_)
    mine = hands[seat]
    others = 0
    for q in range(4):
        if q != seat:
            others |= hands[q]
    for s in range(4):
        sm = SUIT << (13 * s)
        ours = mine & sm
        flags[4 * s + min(popcount(ours), 3)] = True
        if ours:
            lo = lowest(ours)
            for q in range(4):
                theirs = hands[q] & sm
                if q != seat and theirs and lowest(theirs) > lo:
                    flags[16 + s] = True
            out_s = (mine | others) & sm
            if lowest(out_s) == lo:
                flags[20 + s] = True
            if highest(out_s) == highest(ours):
                flags[24 + s] = True
        if leader != seat and not hands[leader] & sm:
            flags[29 + s] = True
        for q in range(4):
            if q != seat and not hands[q] & sm:
                flags[33 + s] = True
    if leader == seat:
        flags[28] = True
    start = popcount(dealt[seat] & SPADES)
    flags[37 + min(max(start - 2, 0), 3)] = True  # 0–2, 3, 4, 5+
    outside = popcount(others & SPADES)
    flags[41 + (0 if outside <= 2 else 1 if outside <= 5 else 2)] = True
    if not dealt[seat] & HEARTS:
        flags[44] = True
    if taken[seat]:
        flags[45] = True
    if space == Q_SPACE:
        flags[46] = (mine & QS) != 0
        flags[47] = (mine & KS) != 0
        flags[48] = (mine & AS) != 0
        holder = -1
        for q in range(4):
            if hands[q] & QS:
                holder = q
        if holder < 0:
            flags[49] = True
        elif holder != seat:
            flags[49 + ((holder - seat) & 3)] = True  # 50 left, 51 across, 52 right
            guards = popcount(hands[holder] & SPADES & ~QS)
            if guards == 0:
                flags[53] = True
            elif guards == 1:
                flags[54] = True
        flags[55 + min(popcount(mine & BACKERS), 3)] = True
        if leader == seat and mine & SPADES:
            flags[59] = True
    else:
        opponents = 0
        for q in range(4):
            if q != seat:
                opponents |= taken[q]
        flags[46 + popcount(taken[seat] & HEARTS)] = True
        flags[60 + popcount(opponents & HEARTS)] = True
        flags[74 + popcount((mine | others) & HEARTS)] = True
    k = 0
    for i in range(SPACE_ATOMS[space]):
        if flags[i]:
            out[k] = i
            k += 1
    return k


def order_offsets(n: int, orders: int) -> np.ndarray:
    """Start of each order's block (index 1..4) in a feature vector over ``n`` atoms that holds the
    orders in the bit set ``orders`` (bit 0 atoms, bit 1 pairs, bit 2 triples, bit 3 four-wise);
    entry 5 is the vector's size."""
    offsets = np.zeros(6, np.int64)
    size = 0
    for order in range(1, 5):
        offsets[order] = size
        if orders >> (order - 1) & 1:
            size += binomial(n, order)
    offsets[5] = size
    return offsets


def binomial(n: int, k: int) -> int:
    if k > n:
        return 0
    out = 1
    for i in range(k):
        out = out * (n - i) // (i + 1)
    return out


def visit(act: np.ndarray, k: int, orders: int, offsets: np.ndarray, lookup: np.ndarray, alive: np.ndarray,
          w: np.ndarray, delta: float) -> tuple[float, int]:
    """Over the conjunctions of the active atoms ``act[:k]`` (colex rank inside each order's block)
    mapped by ``lookup`` (empty: identity) to weights: returns (Σ w, how many), then adds ``delta``
    to each of them (0: read only). ``alive[x, y]`` (x > y; empty: all) has bit 0 set if some mapped
    triple's two largest atoms are x and y, bit 1 for a four-wise conjunction: the loops skip the
    rest (a pruned model keeps a few thousand of 10⁵ conjunctions)."""
    # The four loop nests repeat their innermost body on purpose: a helper call there, even compiled,
    # cost a quarter of the player's time per move (speed/run.py, tdlambda decisions).
    total = 0.0
    count = 0
    mapped = lookup.size > 0
    pruned = alive.size > 0
    for order in range(1, 5):
        if not orders >> (order - 1) & 1:
            continue
        base = offsets[order]
        if order == 1:
            for a in range(k):
                j = base + act[a]
                if mapped:
                    j = lookup[j]
                if j >= 0:
                    total += w[j]
                    w[j] += delta
                    count += 1
        elif order == 2:
            for b in range(1, k):
                rb = act[b] * (act[b] - 1) // 2
                for a in range(b):
                    j = base + rb + act[a]
                    if mapped:
                        j = lookup[j]
                    if j >= 0:
                        total += w[j]
                        w[j] += delta
                        count += 1
        elif order == 3:
            for c in range(2, k):
                rc = act[c] * (act[c] - 1) * (act[c] - 2) // 6
                for b in range(1, c):
                    if pruned and not alive[act[c], act[b]] & 1:
                        continue
                    rb = rc + act[b] * (act[b] - 1) // 2
                    for a in range(b):
                        j = base + rb + act[a]
                        if mapped:
                            j = lookup[j]
                        if j >= 0:
                            total += w[j]
                            w[j] += delta
                            count += 1
        else:
            for d in range(3, k):
                rd = act[d] * (act[d] - 1) * (act[d] - 2) * (act[d] - 3) // 24
                for c in range(2, d):
                    if pruned and not alive[act[d], act[c]] & 2:
                        continue
                    rc = rd + act[c] * (act[c] - 1) * (act[c] - 2) // 6
                    for b in range(1, c):
                        rb = rc + act[b] * (act[b] - 1) // 2
                        for a in range(b):
                            j = base + rb + act[a]
                            if mapped:
                                j = lookup[j]
                            if j >= 0:
                                total += w[j]
                                w[j] += delta
                                count += 1
    return total, count


def linear(hands: np.ndarray, dealt: np.ndarray, taken: np.ndarray, leader: int, seat: int, P: tuple,
           delta: float) -> tuple[float, int]:
    """w·φ(position, seat) and the number of active features, then w += delta on them."""
    _, w, q_orders, q_offsets, q_lookup, q_alive, h_orders, h_offsets, h_lookup, h_alive, _ = P
    act = np.empty(88, np.int64)
    total = 0.0
    count = 0
    if q_orders:
        k = atoms(hands, dealt, taken, leader, seat, Q_SPACE, act)
        t, c = visit(act, k, q_orders, q_offsets, q_lookup, q_alive, w, delta)
        total += t
        count += c
    if h_orders:
        k = atoms(hands, dealt, taken, leader, seat, HEARTS_SPACE, act)
        t, c = visit(act, k, h_orders, h_offsets, h_lookup, h_alive, w, delta)
        total += t
        count += c
    return total, count


def task_points(taken: int, task: int) -> int:
    """The points in ``taken`` that the task predicts (moon aside)."""
    hearts = popcount(taken & HEARTS)
    queen = 13 if taken & QS else 0
    return queen if task == Q_TASK else hearts if task == HEARTS_TASK else hearts + queen


def bounds(hands: np.ndarray, taken: np.ndarray, seat: int, task: int) -> tuple[float, float]:
    """The interval the seat's final task points must fall in (moon aside): what it has taken plus
    at most everything still out."""
    out = hands[0] | hands[1] | hands[2] | hands[3]
    have = task_points(taken[seat], task)
    left = task_points(out, task)
    if task == Q_TASK and left:
        return EPSILON, 13.0 - EPSILON
    return float(have), float(have + left)


MOON_OFF, MOON_ADD, MOON_SUBTRACT = 0, 1, 2


def final_points(taken: np.ndarray, seat: int, task: int, moon: int) -> float:
    """The seat's task points at the end of the deal; in the full task a moon gives the shooter 0 and
    everyone else 26 (``MOON_ADD``) or the shooter −26 and everyone else 0 (``MOON_SUBTRACT``)."""
    if task == FULL_TASK and moon != MOON_OFF:
        for q in range(4):
            if task_points(taken[q], FULL_TASK) == 26:
                if moon == MOON_ADD:
                    return 0.0 if q == seat else 26.0
                return -26.0 if q == seat else 0.0
    return float(task_points(taken[seat], task))


def value(hands: np.ndarray, dealt: np.ndarray, taken: np.ndarray, leader: int, seat: int, P: tuple) -> float:
    """The seat's predicted final task points at a trick boundary: exact once no points are left (or
    the deal is over), else the linear prediction clipped to :func:`bounds`."""
    task = P[0]
    if not (hands[0] | hands[1] | hands[2] | hands[3]):
        return final_points(taken, seat, task, P[10])
    lo, hi = bounds(hands, taken, seat, task)
    if lo == hi:
        return lo
    raw, _ = linear(hands, dealt, taken, leader, seat, P, 0.0)
    return min(max(raw, lo), hi)


def root_values(hands: np.ndarray, dealt: np.ndarray, taken: np.ndarray, leader: int, trick: np.ndarray,
                legal: int, P: tuple, out: np.ndarray) -> None:
    """For the seat to play after the cards ``trick`` (in order from ``leader``; -1 past the last),
    ``out[card]`` = its max^n value of playing ``card``, for each card of ``legal`` (the rules' legal
    mask: the root obeys every rule; the replies inside the trick are searched under follow-suit
    alone, exact under the paper's rules). The search runs to the end of the trick; there every seat
    is valued by :func:`value` from its own perspective, and each seat picks the card that leaves it
    the least (the lowest card on ties). Iterative (a recursive Numba function cannot be cached)."""
    count = 0
    led0 = 0
    win0 = -1
    seat_win0 = -1
    mask0 = 0
    for i in range(4):
        card = np.int64(trick[i])
        if card < 0:
            break
        if i == 0:
            led0 = SUIT << (13 * (card // 13))
            win0, seat_win0 = card, leader
        elif (1 << card) & led0 and card > win0:
            win0, seat_win0 = card, (leader + i) & 3
        mask0 |= 1 << card
        count += 1
    seat0 = (leader + count) & 3
    stack = np.zeros((5, 4))  # stack[l]: the value vector of the best card so far at ply l
    best = np.full(5, np.inf)  # its value for the seat to play at ply l
    rest = np.zeros(4, np.int64)  # cards still to try at ply l
    played = np.zeros(4, np.int64)
    led = np.zeros(4, np.int64)
    win_card = np.zeros(4, np.int64)
    win_seat = np.zeros(4, np.int64)
    table = np.zeros(4, np.int64)
    led[0], win_card[0], win_seat[0], table[0], rest[0] = led0, win0, seat_win0, mask0, legal
    ply = 0
    while True:
        seat = (seat0 + ply) & 3
        if not rest[ply]:  # ply exhausted: back up its best into the ply above
            if ply == 0:
                return
            ply -= 1
            seat = (seat0 + ply) & 3
            hands[seat] ^= 1 << played[ply]
            if stack[ply + 1, seat] < best[ply]:
                best[ply] = stack[ply + 1, seat]
                stack[ply, :] = stack[ply + 1, :]
            if ply == 0:
                out[played[0]] = stack[1, seat0]
            continue
        card = lowest(rest[ply])
        bit = 1 << card
        rest[ply] ^= bit
        played[ply] = card
        if count + ply == 0:
            suit, wc, ws = SUIT << (13 * (card // 13)), card, seat
        elif bit & led[ply] and card > win_card[ply]:
            suit, wc, ws = led[ply], card, seat
        else:
            suit, wc, ws = led[ply], win_card[ply], win_seat[ply]
        hands[seat] ^= bit
        if count + ply == 3:  # the trick is complete: value the boundary for every seat
            taken[ws] |= table[ply] | bit
            for q in range(4):
                stack[ply + 1, q] = value(hands, dealt, taken, ws, q, P)
            taken[ws] ^= table[ply] | bit
            hands[seat] ^= bit
            if stack[ply + 1, seat] < best[ply]:
                best[ply] = stack[ply + 1, seat]
                stack[ply, :] = stack[ply + 1, :]
            if ply == 0:
                out[card] = stack[1, seat0]
            continue
        ply += 1  # the next seat answers
        led[ply], win_card[ply], win_seat[ply], table[ply] = suit, wc, ws, table[ply - 1] | bit
        mine = hands[(seat0 + ply) & 3]
        rest[ply] = mine & suit if mine & suit else mine
        best[ply] = np.inf


def choose(hands: np.ndarray, dealt: np.ndarray, taken: np.ndarray, leader: int, trick: np.ndarray, legal: int,
           P: tuple) -> int:
    """The card max^n picks for the seat to play (lowest card on ties)."""
    out = np.full(52, np.inf)
    root_values(hands, dealt, taken, leader, trick, legal, P, out)
    best = 0
    for card in range(52):
        if out[card] < out[best]:
            best = card
    return best


def choose_rows(hands: np.ndarray, dealt: np.ndarray, taken: np.ndarray, leader: np.ndarray, trick: np.ndarray,
                legal: np.ndarray, which: np.ndarray, P: tuple, out: np.ndarray) -> None:
    """:func:`choose` at every row ``i`` of the batched engine's arrays with ``which[i]``."""
    for i in range(hands.shape[0]):
        if which[i]:
            out[i] = choose(hands[i].copy(), dealt[i], taken[i].copy(), np.int64(leader[i]), trick[i],
                            np.int64(legal[i]), P)


def td_update(hands: np.ndarray, dealt: np.ndarray, taken: np.ndarray, leaders: np.ndarray, n: int, seat: int,
              reward: float, lam: float, P: tuple) -> float:
    """TD(λ) stepping backwards over the seat's ``n`` recorded trick-boundary positions of one deal
    (rows of ``hands``/``taken``/``leaders``): target_{n-1} = reward, target_t = (1 − λ)·V(s_{t+1}) +
    λ·target_{t+1}, and w += α·(target_t − w·φ(s_t))·φ(s_t) with α = 1 / (13 × active features).
    Returns the summed squared error before the updates."""
    target = reward
    error = 0.0
    for t in range(n - 1, -1, -1):
        if t < n - 1:
            nxt = value(hands[t + 1], dealt, taken[t + 1], leaders[t + 1], seat, P)
            target = (1.0 - lam) * nxt + lam * target
        raw, count = linear(hands[t], dealt, taken[t], leaders[t], seat, P, 0.0)
        if count:
            linear(hands[t], dealt, taken[t], leaders[t], seat, P, (target - raw) / (13.0 * count))
        error += (target - raw) ** 2
    return error


def td_episodes(hands: np.ndarray, dealt: np.ndarray, taken: np.ndarray, leaders: np.ndarray, counts: np.ndarray,
                seats: np.ndarray, rewards: np.ndarray, lam: float, P: tuple) -> float:
    """:func:`td_update` for each recorded episode ``e`` (arrays indexed [e, t, ...]; ``counts[e]``
    positions, learner ``seats[e]``, ``rewards[e]``), in order."""
    error = 0.0
    for e in range(hands.shape[0]):
        error += td_update(hands[e], dealt[e], taken[e], leaders[e], counts[e], seats[e], rewards[e], lam, P)
    return error


_NAMES = ("popcount", "lowest", "highest", "atoms", "binomial", "visit", "linear", "task_points", "bounds",
          "final_points", "value", "root_values", "choose", "choose_rows", "td_update", "td_episodes")


@functools.cache
def compiled() -> SimpleNamespace:
    """The functions of this module compiled by Numba (cached on disk), bound to each other."""
    import numba

    namespace: dict[str, Any] = {}
    source = globals()
    for name in _NAMES:  # compile in dependency order; each sees the compiled versions before it
        source[name] = numba.njit(cache=True)(source[name])
        namespace[name] = source[name]
    return SimpleNamespace(**namespace)
