"""Paper 000 §4.1 states as index rows: the positions of the ones in a ``paper260`` / ``paper104`` vector.

A ``paper260`` vector has exactly one 1 per card (slot ``5 * card + k``), so a state is stored as the
52 indices of its ones; a ``paper104`` passing state (13 cards in hand, 3 selected) as its 16 indices.
The networks read these rows directly (a gather instead of a dense product), and
:func:`dense` turns a batch of rows into the 0/1 matrix the encoders would produce (a test checks
that they agree with ``hearts_env.encoders``).
"""

from __future__ import annotations

import numpy as np

from hearts_env.views import SeatView

N = 52
PLAY_SIZE = 5 * N
PASS_SIZE = 2 * N
HAND, OTHER, MINE_ON_TABLE, OTHERS_ON_TABLE, EARLIER = range(5)
_BASE = 5 * np.arange(N, dtype=np.int16)
_WEIGHTS = np.array([-1, 1, 2, 3], dtype=np.int16)  # hand, mine on table, others on table, earlier


def bits(mask: int) -> np.ndarray:
    """A 0/1 array of the 52 bits of ``mask``."""
    return np.unpackbits(np.frombuffer(mask.to_bytes(7, "little"), dtype=np.uint8), bitorder="little")[:N]


def cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


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
    return np.array(cards(hand) + [N + c for c in cards(selected)], dtype=np.int16)


def dense(rows: np.ndarray, size: int) -> np.ndarray:
    """A batch of index rows → the 0/1 ``float32`` matrix of the vectors."""
    out = np.zeros((len(rows), size), dtype=np.float32)
    out[np.arange(len(rows))[:, None], rows] = 1.0
    return out
