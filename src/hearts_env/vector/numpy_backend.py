"""The batched engine's whole-batch NumPy implementation of the rules: the backend without Numba.

Functions over a :class:`~hearts_env.vector.deals.VectorDeals` (its public state arrays and
per-rules constants), each the array form of a step of :class:`~hearts_env.engine.Deal`; the
equivalence tests pin it to the scalar engine and to the compiled kernels under every ``Rules``
field. It stays beside the kernels because a core install (no Numba) needs a batched engine, and
run by the Python interpreter the kernels' per-table loops are 3x slower than these array
operations at 64 tables and 16x at 1,024 (measured in docs/architecture.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from hearts_env.engine import Phase
from hearts_env.tables import RuleTables, tables_of

if TYPE_CHECKING:
    from hearts_env.vector.deals import VectorDeals

U64 = np.uint64


def start_play(t: VectorDeals, which: np.ndarray) -> None:
    """Tables ``which`` enter the play phase: the opening leader is to act."""
    if not which.any():
        return
    if t.rules.opening_lead == "lowest_club":
        first = np.argmax((t.hands & U64(1)) != 0, axis=1).astype(np.int8)
    else:
        first = ((t.dealer + 1) % 4).astype(np.int8)
    t.current = np.where(which, first, t.current).astype(np.int8)
    t.leader = np.where(which, first, t.leader).astype(np.int8)
    t.phase = np.where(which, int(Phase.PLAY), t.phase).astype(np.int8)


def legal_masks(t: VectorDeals) -> np.ndarray:
    """(B,) uint64: the cards the seat to act may pass or play at each table (0 when done)."""
    rows = t.rows
    hand = t.hands[rows, t.current]
    passing = t.phase == int(Phase.PASS)
    leading = t.trick_count == 0
    first = t.trick_index == 0
    res = hand.copy()
    lead = np.where(t.hearts_broken, hand, hand & ~t.hearts)
    np.copyto(res, lead, where=leading & (lead != 0) & (lead != t.lone_qs_lead))
    safe = hand & t.first_trick_only  # 0 without no_pts_on_first_trick
    np.copyto(res, safe, where=first & (safe != 0))
    if t.lead_lowest_club:
        np.copyto(res, hand & t.opening_leads, where=leading & first)
    follow = hand & t.led_mask
    np.copyto(res, follow, where=~leading & (follow != 0))
    np.copyto(res, hand & ~t.passed[rows, t.current], where=passing)
    res[t.phase == int(Phase.DONE)] = 0
    return res


def step(t: VectorDeals, cards: np.ndarray, legal: np.ndarray) -> int:
    """Each table not done whose card is not -2 passes or plays it, if every such card is in ``legal``
    (the tables' legal masks); else nothing moves and the first offending table is returned (-1: played)."""
    active = (t.phase != int(Phase.DONE)) & (cards != -2)
    bit = np.where(active, U64(1) << np.clip(cards, 0, t.n - 1).astype(U64), U64(0))
    bad = active & ((cards < 0) | (cards >= t.n) | ((legal & bit) == 0))
    if bad.any():
        return int(np.flatnonzero(bad)[0])
    cur = t.current.astype(np.intp)
    passing = active & (t.phase == int(Phase.PASS))
    if passing.any():
        p = np.flatnonzero(passing)
        t.passed[p, cur[p]] |= bit[p]
        full = np.bitwise_count(t.passed[p, cur[p]]) == t.pass_count
        t.current[p[full]] += 1
        ended = p[full & (t.current[p] == 4)]
        if len(ended):
            _exchange(t, ended)
    playing = np.flatnonzero(active & ~passing)
    if len(playing):
        _play(t, playing, cards[playing], bit[playing], cur[playing])
    return -1


def _exchange(t: VectorDeals, tables: np.ndarray) -> None:
    passed = t.passed[tables]
    hands = t.hands[tables] & ~passed
    d = t.pass_direction[tables].astype(np.intp)
    for s in range(4):
        hands[np.arange(len(tables)), (s + d) % 4] |= passed[:, s]
    t.hands[tables] = hands
    which = np.zeros(t.size, bool)
    which[tables] = True
    start_play(t, which)


def _play(t: VectorDeals, rows: np.ndarray, cards: np.ndarray, bit: np.ndarray, seat: np.ndarray) -> None:
    t.hands[rows, seat] ^= bit
    t.played_by[rows, seat] |= bit
    count = t.trick_count[rows].astype(np.intp)
    t.trick[rows, count] = cards
    t.hearts_broken[rows] |= (bit & t.breaks) != 0
    leading = count == 0
    t.led_mask[rows] = np.where(leading, t.suit_mask_of[cards], t.led_mask[rows])
    off = ~leading & ((bit & t.led_mask[rows]) == 0)
    if off.any():
        led_suit = t.trick[rows[off], 0] // t.rps
        t.voids[rows[off], seat[off]] |= (np.uint8(1) << led_suit.astype(np.uint8))
    t.trick_mask[rows] = np.where(leading, bit, t.trick_mask[rows] | bit)
    t.trick_count[rows] += 1
    t.current[rows] = (seat + 1) % 4
    complete = rows[t.trick_count[rows] == 4]
    if len(complete):
        _finish_tricks(t, complete)


def _finish_tricks(t: VectorDeals, rows: np.ndarray) -> None:
    cards = t.trick[rows]
    led = cards[:, :1] // t.rps
    ranked = np.where(cards // t.rps == led, cards, -1)
    winner = ((t.leader[rows] + ranked.argmax(axis=1)) % 4).astype(np.int8)
    t.taken[rows, winner] |= t.trick_mask[rows]
    t.tricks_won[rows, winner] += 1
    t.trick_winners[rows, t.trick_index[rows]] = winner
    t.trick_index[rows] += 1
    t.trick[rows] = -1
    t.trick_count[rows] = 0
    t.trick_mask[rows] = 0
    t.led_mask[rows] = 0
    t.leader[rows] = winner
    t.current[rows] = winner
    over = rows[t.trick_index[rows] == t.hand_size]
    if len(over):
        _score(t, over)


def _score(t: VectorDeals, rows: np.ndarray) -> None:
    """As :func:`hearts_env.scoring.score_deal`, for the tables ``rows`` whose last trick is done."""
    r = t.rules
    taken = t.taken[rows]
    points = penalty_points(taken, tables_of(r))
    moon: np.ndarray = ((taken & t.scoring_cards) == t.scoring_cards if r.moon != "off"
                        else np.zeros_like(taken, bool))
    has_moon = np.asarray(moon.any(axis=1))
    shooter = np.where(has_moon, moon.argmax(axis=1), -1)
    if has_moon.any():
        n = r.penalty_total
        one_hot = np.arange(4)[None, :] == shooter[:, None]
        subtract = np.full(len(rows), r.moon == "subtract_from_shooter")
        if r.moon == "shooter_choice" and r.game == "match":  # as hearts_env.scoring.moon_choice
            after = t.game_scores[rows] + np.where(one_hot, 0, n)
            own = np.take_along_axis(after, np.maximum(shooter, 0)[:, None], axis=1)[:, 0]
            subtract = (after.max(axis=1) >= r.target) & (own > after.min(axis=1))
        moon_points = np.where(subtract[:, None], np.where(one_hot, -n, 0), np.where(one_hot, 0, n))
        points = np.where(has_moon[:, None], moon_points, points)
    if r.jd_bonus:
        points -= np.where(taken & t.jd_bit, r.jd_bonus_points, 0)
    if r.avoid_all_tricks_bonus:
        points -= np.where((t.tricks_won[rows] == 0) & ~has_moon[:, None], r.avoid_all_tricks_points, 0)
    t.points[rows] = points
    t.moon_shooter[rows] = shooter
    t.phase[rows] = int(Phase.DONE)


def penalty_points(taken: np.ndarray, tables: RuleTables) -> np.ndarray:
    """Penalty points (int64) of uint64 card masks of any shape, as ``RuleTables.penalty_points_of``."""
    points = np.bitwise_count(taken & U64(tables.hearts)).astype(np.int64) * tables.rules.heart_points
    for bit, value in tables.point_cards:
        points += np.where(taken & U64(bit), value, 0)
    return points


def kth_cards(masks: np.ndarray, uniforms: np.ndarray) -> np.ndarray:
    """(B,) the ``floor(u * popcount)``-th lowest card of each mask (-1 for an empty mask)."""
    m = masks.copy()
    k = (uniforms * np.bitwise_count(m)).astype(np.int64)
    one = U64(1)
    for _ in range(int(k.max(initial=0))):
        step = k > 0
        np.copyto(m, m & (m - one), where=step)
        k -= step
    low = m & (~m + one)
    with np.errstate(divide="ignore"):
        cards = np.log2(low.astype(np.float64))  # exact: low is a power of two below 2**52
    return np.where(low != 0, cards, -1).astype(np.int64)
