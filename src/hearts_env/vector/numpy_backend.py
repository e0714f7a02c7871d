"""The batched engine's whole-batch NumPy implementation of the rules: the backend without Numba.

Functions of the rules' tables and a batch's state (``fn(tables, state, ...)``, the kernels' shape),
each the array form of a step of :class:`~hearts_env.engine.Deal`; the
equivalence tests pin it to the scalar engine and to the compiled kernels under every ``Rules``
field. It stays beside the kernels because a core install (no Numba) needs a batched engine, and
run by the Python interpreter the kernels' per-row loops are 3x slower than these array
operations at 64 rows and 16x at 1,024 (measured in docs/architecture.md).
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from hearts_env.engine import Phase
from hearts_env.rules import Rules
from hearts_env.state import DealState
from hearts_env.tables import RuleTables, tables_of

U64 = np.uint64
PASS, PLAY, DONE = int(Phase.PASS), int(Phase.PLAY), int(Phase.DONE)  # NumPy 2 reads a member as int64: slower


class _Masks(NamedTuple):
    """The masks of :class:`~hearts_env.tables.RuleTables` as ``uint64`` scalars: NumPy 2 refuses a
    Python int like ``~hearts`` with a uint64 array, and widens some mixes to float."""

    hearts: np.uint64
    jd_bit: np.uint64
    scoring_cards: np.uint64
    first_trick_only: np.uint64
    opening_leads: np.uint64
    lone_qs_lead: np.uint64
    breaks_hearts: np.uint64
    suit_mask_of: np.ndarray


@functools.lru_cache(maxsize=64)
def _masks(rules: Rules) -> _Masks:
    t = tables_of(rules)
    return _Masks(U64(t.hearts), U64(t.jd_bit), U64(t.scoring_cards), U64(t.first_trick_only),
                  U64(t.opening_leads), U64(t.lone_qs_lead), U64(t.breaks_hearts),
                  np.array(t.suit_mask_of, dtype=U64))


def start_play(tables: RuleTables, s: DealState, which: np.ndarray) -> None:
    """Rows ``which`` enter the play phase: the opening leader is to act."""
    if not which.any():
        return
    if tables.lead_lowest_club:
        first = np.argmax((s.hands & U64(1)) != 0, axis=1).astype(np.int8)
    else:
        first = ((s.dealer + 1) % 4).astype(np.int8)
    np.copyto(s.current, first, where=which)
    np.copyto(s.leader, first, where=which)
    s.phase[which] = PLAY


def legal_masks(tables: RuleTables, s: DealState) -> np.ndarray:
    """(B,) uint64: the cards the seat to act may pass or play in each row (0 when done)."""
    m = _masks(tables.rules)
    rows = np.arange(s.size)
    hand = s.hands[rows, s.current]
    passing = s.phase == PASS
    leading = s.trick_count == 0
    first = s.trick_index == 0
    res = hand.copy()
    lead = np.where(s.hearts_broken, hand, hand & ~m.hearts)
    np.copyto(res, lead, where=leading & (lead != 0) & (lead != m.lone_qs_lead))
    safe = hand & m.first_trick_only  # 0 without no_pts_on_first_trick
    np.copyto(res, safe, where=first & (safe != 0))
    if tables.lead_lowest_club:
        np.copyto(res, hand & m.opening_leads, where=leading & first)
    follow = hand & s.led_mask
    np.copyto(res, follow, where=~leading & (follow != 0))
    np.copyto(res, hand & ~s.passed[rows, s.current], where=passing)
    res[s.phase == DONE] = 0
    return res


def step(tables: RuleTables, s: DealState, cards: np.ndarray, legal: np.ndarray) -> int:
    """Each row not done whose card is not -2 passes or plays it, if every such card is in ``legal``
    (the rows' legal masks); else nothing moves and the first offending row is returned (-1: played)."""
    active = (s.phase != DONE) & (cards != -2)
    bit = np.where(active, U64(1) << np.clip(cards, 0, tables.size - 1).astype(U64), U64(0))
    bad = active & ((cards < 0) | (cards >= tables.size) | ((legal & bit) == 0))
    if bad.any():
        return int(np.flatnonzero(bad)[0])
    cur = s.current.astype(np.intp)
    passing = active & (s.phase == PASS)
    if passing.any():
        p = np.flatnonzero(passing)
        s.passed[p, cur[p]] |= bit[p]
        full = np.bitwise_count(s.passed[p, cur[p]]) == tables.pass_count
        s.current[p[full]] += 1
        ended = p[full & (s.current[p] == 4)]
        if len(ended):
            _exchange(tables, s, ended)
    playing = np.flatnonzero(active & ~passing)
    if len(playing):
        _play(tables, s, playing, cards[playing], bit[playing], cur[playing])
    return -1


def _exchange(tables: RuleTables, s: DealState, rows: np.ndarray) -> None:
    passed = s.passed[rows]
    hands = s.hands[rows] & ~passed
    d = s.pass_direction[rows].astype(np.intp)
    for seat in range(4):
        hands[np.arange(len(rows)), (seat + d) % 4] |= passed[:, seat]
    s.hands[rows] = hands
    which = np.zeros(s.size, bool)
    which[rows] = True
    start_play(tables, s, which)


def _play(tables: RuleTables, s: DealState, rows: np.ndarray, cards: np.ndarray, bit: np.ndarray,
          seat: np.ndarray) -> None:
    m = _masks(tables.rules)
    s.hands[rows, seat] ^= bit
    s.played_by[rows, seat] |= bit
    count = s.trick_count[rows].astype(np.intp)
    s.trick[rows, count] = cards
    s.hearts_broken[rows] |= (bit & m.breaks_hearts) != 0
    leading = count == 0
    s.led_mask[rows] = np.where(leading, m.suit_mask_of[cards], s.led_mask[rows])
    off = ~leading & ((bit & s.led_mask[rows]) == 0)
    if off.any():
        led_suit = s.trick[rows[off], 0] // tables.ranks_per_suit
        s.voids[rows[off], seat[off]] |= (np.uint8(1) << led_suit.astype(np.uint8))
    s.trick_mask[rows] = np.where(leading, bit, s.trick_mask[rows] | bit)
    s.trick_count[rows] += 1
    s.current[rows] = (seat + 1) % 4
    complete = rows[s.trick_count[rows] == 4]
    if len(complete):
        _finish_tricks(tables, s, complete)


def _finish_tricks(tables: RuleTables, s: DealState, rows: np.ndarray) -> None:
    cards = s.trick[rows]
    led = cards[:, :1] // tables.ranks_per_suit
    ranked = np.where(cards // tables.ranks_per_suit == led, cards, -1)
    winner = ((s.leader[rows] + ranked.argmax(axis=1)) % 4).astype(np.int8)
    s.taken[rows, winner] |= s.trick_mask[rows]
    s.tricks_won[rows, winner] += 1
    s.trick_winners[rows, s.trick_index[rows]] = winner
    s.trick_index[rows] += 1
    s.trick[rows] = -1
    s.trick_count[rows] = 0
    s.trick_mask[rows] = 0
    s.led_mask[rows] = 0
    s.leader[rows] = winner
    s.current[rows] = winner
    over = rows[s.trick_index[rows] == tables.hand_size]
    if len(over):
        _score(tables, s, over)


def _score(tables: RuleTables, s: DealState, rows: np.ndarray) -> None:
    """As :func:`hearts_env.scoring.score_deal`, for the rows ``rows`` whose last trick is done."""
    r, m = tables.rules, _masks(tables.rules)
    taken = s.taken[rows]
    points = penalty_points(taken, tables)
    moon: np.ndarray = ((taken & m.scoring_cards) == m.scoring_cards if r.moon != "off"
                        else np.zeros_like(taken, bool))
    has_moon = np.asarray(moon.any(axis=1))
    shooter = np.where(has_moon, moon.argmax(axis=1), -1)
    if has_moon.any():
        n = r.penalty_total
        one_hot = np.arange(4)[None, :] == shooter[:, None]
        subtract = np.full(len(rows), r.moon == "subtract_from_shooter")
        if r.moon == "shooter_choice" and r.game == "match":  # as hearts_env.scoring.moon_choice
            after = s.game_scores[rows] + np.where(one_hot, 0, n)
            own = np.take_along_axis(after, np.maximum(shooter, 0)[:, None], axis=1)[:, 0]
            subtract = (after.max(axis=1) >= r.target) & (own > after.min(axis=1))
        moon_points = np.where(subtract[:, None], np.where(one_hot, -n, 0), np.where(one_hot, 0, n))
        points = np.where(has_moon[:, None], moon_points, points)
    if r.jd_bonus:
        points -= np.where(taken & m.jd_bit, r.jd_bonus_points, 0)
    if r.avoid_all_tricks_bonus:
        points -= np.where((s.tricks_won[rows] == 0) & ~has_moon[:, None], r.avoid_all_tricks_points, 0)
    s.points[rows] = points
    s.moon_shooter[rows] = shooter
    s.phase[rows] = DONE


def penalty_points(taken: np.ndarray, tables: RuleTables) -> np.ndarray:
    """Penalty points (int64) of uint64 card masks of any shape, as ``RuleTables.penalty_points_of``."""
    points = np.bitwise_count(taken & U64(tables.hearts)).astype(np.int64) * tables.rules.heart_points
    for bit, value in tables.point_cards:
        points += np.where(taken & U64(bit), value, 0)
    return points


def card_points(taken: np.ndarray, tables: RuleTables) -> np.ndarray:
    """Points (int64) of uint64 card masks of any shape, J♦ bonus deducted, as ``RuleTables.points_of``."""
    points = penalty_points(taken, tables)
    if tables.rules.jd_bonus:
        points -= np.where(taken & U64(tables.jd_bit), tables.rules.jd_bonus_points, 0)
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
