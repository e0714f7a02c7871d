"""The rules of the batched engine as per-row loops, compiled by Numba (the ``search`` extra) when installed.

One row (deal) at a time, the same rules as :class:`~hearts_env.engine.Deal` (the equivalence tests
compare both backends with the scalar engine). Every mask is ``uint64`` and every constant
mixed with one is ``uint64`` too: Numba turns ``uint64 op int64`` into a float.

Constants travel in two arrays built by :meth:`hearts_env.tables.RuleTables.pack`: ``K`` (uint64
masks and counts) and ``P`` (int64 point values), whose slot names live in :mod:`hearts_env.tables`.
The hot path lives in one function, :func:`drive`, whose mode says what to do per row: Numba
passes each array argument of a call with reference counting, which costs more than the rules
themselves, so only rare events (exchanging passes, scoring) and the rule players' choices
(:mod:`._strategies`, whose parameters travel in the array ``A``) call out.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import Any

import numpy as np

from hearts_env.engine import Phase
from hearts_env.tables import (
    FLAG_AVOID_BONUS,
    FLAG_JD_BONUS,
    FLAG_LOWEST_CLUB,
    K_AS_BIT,
    K_BREAKS,
    K_FIRST_TRICK_ONLY,
    K_FLAGS,
    K_HAND_SIZE,
    K_HEARTS,
    K_JD_BIT,
    K_KS_BIT,
    K_LONE_QS_LEAD,
    K_N,
    K_OPENING_LEADS,
    K_PASS_COUNT,
    K_PENALTY_CARDS,
    K_QS_BIT,
    K_RPS,
    K_SCORING,
    K_SPADES,
    MOON_ADD,
    MOON_CHOICE,
    MOON_SUBTRACT,
    P_AVOID,
    P_JD,
    P_MOON,
    P_PENALTY_TOTAL,
    P_TARGET,
)
from hearts_env.vector import _bitops, _strategies
from hearts_env.vector._bitops import _ONE, _ZERO, _highest_card, _kth_card, _lowest_card, _penalty_points, _popcount
from hearts_env.vector._strategies import A_CHASE, A_MOON_ALARM, A_SHOOT, _greedy, _heuristic, _pass_choice

# modes of drive(); the advancing modes come last
LEGAL, CHECK, PLAY, RANDOM_PLAY, GREEDY_CHOICE, HEURISTIC_CHOICE, ADVANCE_RANDOM, ADVANCE_GREEDY, \
    ADVANCE_HEURISTIC = range(9)
# The phase arrays hold engine.Phase values; the kernels compare and write the members themselves (Numba
# freezes an IntEnum member read from a global as a constant, as it does a plain int).


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
    phase[i] = Phase.PLAY


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
    phase[i] = Phase.DONE


def drive(S, K, P, A, mode, cards, uniforms, learner, out, masks):
    """Every row of the state ``S`` (the arrays of a :class:`~hearts_env.state.DealState`, as a tuple), per ``mode``:

    - LEGAL: ``masks[i]`` = the legal cards; CHECK: returns the first row whose ``cards[i]`` is
      not legal (-2 skips a row), else -1;
    - PLAY: pass or play ``cards[i]`` (checked before; -2 skips); RANDOM_PLAY: the
      ``floor(uniforms[i, 0] * count)``-th legal card, written to ``out[i]``; GREEDY_CHOICE /
      HEURISTIC_CHOICE: that player's card to ``out[i]``, nothing played;
    - ADVANCE_RANDOM / ADVANCE_GREEDY / ADVANCE_HEURISTIC: the other seats play (random with
      ``uniforms[i, j]`` for the j-th card, greedy or heuristic) until seat ``learner[i]`` is to act
      or the deal is over (``learner[i] = -1``: to the end); ``out[i]`` = cards played.
    Finished rows are skipped (callers pre-fill ``out``/``masks``)."""
    # the fields of DealState in its order (tests/test_state.py holds this line to it): a plain tuple, as Numba
    # dispatches a call with a NamedTuple of 22 arrays 3.5 µs slower, a fifth of a one-row step
    _dealt, hands, passed, played_by, phase, current, leader, trick, trick_count, trick_mask, led_mask, trick_index, \
        hearts_broken, taken, tricks_won, voids, trick_winners, points, moon_shooter, pass_direction, dealer, \
        game_scores = S
    n = np.int64(K[K_N])
    rps = np.int64(K[K_RPS])
    hand_size = np.int64(K[K_HAND_SIZE])
    pass_count = np.int64(K[K_PASS_COUNT])
    hearts_m, qs_bit, breaks = K[K_HEARTS], K[K_QS_BIT], K[K_BREAKS]
    first_only, opening_leads, lone_qs = K[K_FIRST_TRICK_ONLY], K[K_OPENING_LEADS], K[K_LONE_QS_LEAD]
    lowest_club = (K[K_FLAGS] & np.uint64(FLAG_LOWEST_CLUB)) != _ZERO
    suit0 = hearts_m >> np.uint64(2 * rps)
    moon_alarm, shoot, chase = A[A_MOON_ALARM], A[A_SHOOT] != 0, A[A_CHASE]
    advancing = mode >= ADVANCE_RANDOM
    for i in range(phase.shape[0]):
        j = 0
        while phase[i] != Phase.DONE:
            s = current[i]
            if advancing and s == learner[i]:
                break
            if (mode == PLAY or mode == CHECK) and cards[i] == -2:
                break
            p = phase[i]
            tc = trick_count[i]
            hand = hands[i, s]
            if p == Phase.PASS:
                legal = hand & ~passed[i, s]
            else:
                legal = _ZERO
                if tc > 0:
                    legal = hand & led_mask[i]
                elif trick_index[i] == 0 and lowest_club:
                    legal = hand & opening_leads
                if legal == _ZERO and trick_index[i] == 0:
                    legal = hand & first_only
                if legal == _ZERO and tc == 0:
                    lead = hand if hearts_broken[i] else hand & ~hearts_m
                    if lead != _ZERO and lead != lone_qs:
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
                card = _greedy(legal, p == Phase.PASS,
                               played_by[i, 0] | played_by[i, 1] | played_by[i, 2] | played_by[i, 3], tc,
                               trick_mask[i], led_mask[i], rps, qs_bit, K[K_KS_BIT], K[K_AS_BIT], hearts_m,
                               K[K_SPADES], K[K_PENALTY_CARDS])
                if mode == GREEDY_CHOICE:
                    out[i] = card
                    break
            else:
                if legal & (legal - _ONE) == _ZERO:
                    card = _lowest_card(legal)
                elif p == Phase.PASS:
                    card = _pass_choice(legal, hand & ~passed[i, s], True, rps, qs_bit, K[K_KS_BIT], K[K_AS_BIT],
                                        hearts_m, K[K_SPADES], suit0)
                else:
                    card = _heuristic(legal, s, hand, hand | played_by[i, s],
                                      played_by[i, 0] | played_by[i, 1] | played_by[i, 2] | played_by[i, 3],
                                      taken, i, trick, tc, leader[i], trick_mask[i], led_mask[i], K, P,
                                      moon_alarm, shoot, chase)
                if mode == HEURISTIC_CHOICE:
                    out[i] = card
                    break
            if mode == RANDOM_PLAY:
                out[i] = card
            bit = _ONE << np.uint64(card)
            if p == Phase.PASS:
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


JITTED = ("_start_play", "_exchange", "_score")


def compiled():
    """:func:`drive` compiled by Numba, or None when Numba is not installed.

    Compiles the helpers of :mod:`._bitops`, :mod:`._strategies` and this module and rebinds each
    name in every module that uses it, so the compiled functions call each other."""
    global _COMPILED
    if _COMPILED is None:
        try:
            import numba
        except ImportError:
            _COMPILED = False
            return None
        modules = (_bitops, _strategies, sys.modules[__name__])
        made = []
        for owner in modules:
            for name in owner.JITTED:
                python = getattr(owner, name)
                jitted = numba.njit(cache=True, error_model="numpy")(python)
                made.append(jitted)
                for module in modules:
                    if getattr(module, name, None) is python:
                        setattr(module, name, jitted)
        _COMPILED = numba.njit(cache=True, error_model="numpy")(drive)
        drop_stale_caches([*made, _COMPILED], sources_fingerprint())
    return _COMPILED or None


_COMPILED: Any = None
_FINGERPRINT_FILE = "hearts_env-kernels.fingerprint"


def sources_fingerprint() -> str:
    """A hash of every source file the compiled kernels depend on: this module, the helpers, the
    strategies, :mod:`hearts_env.tables`, whose slot numbers the kernels freeze as constants, and
    :mod:`hearts_env.state`, whose fields they unpack; and
    the values of :class:`~hearts_env.engine.Phase`, which they freeze too (not engine.py's text, whose
    every edit would otherwise recompile them)."""
    from hearts_env import state, tables

    digest = hashlib.sha256()
    for module in (_bitops, _strategies, sys.modules[__name__], tables, state):
        digest.update(Path(str(module.__file__)).read_bytes())
    digest.update(repr([(member.name, int(member)) for member in Phase]).encode())
    return digest.hexdigest()[:16]


def drop_stale_caches(dispatchers: list[Any], fingerprint: str) -> None:
    """Empty the on-disk caches of ``dispatchers`` when the kernels' sources changed since they were
    written. Numba checks only the timestamp of a function's own file, so a kernel compiled into
    ``drive`` from another module (or a slot number from tables.py) would otherwise load stale."""
    by_path: dict[Path, list[Any]] = {}
    for dispatcher in dispatchers:
        cache = getattr(dispatcher, "_cache", None)
        path = getattr(cache, "cache_path", None)
        if path is not None:
            by_path.setdefault(Path(path), []).append(cache)
    for path, caches in by_path.items():
        stamp = path / _FINGERPRINT_FILE
        try:
            if stamp.read_text() == fingerprint:
                continue
        except OSError:
            pass
        for cache in caches:
            cache.flush()
        try:
            stamp.parent.mkdir(parents=True, exist_ok=True)
            stamp.write_text(fingerprint)
        except OSError:  # a read-only install: Numba then does not cache there either
            pass
