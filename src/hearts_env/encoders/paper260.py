"""``"paper260"``: the playing-state representation of Demirdöver et al. (2022), paper 000 §4.1.

Each card of the deck, in action-id order (2♣ … A♣, 2♦ … A♦, 2♥ … A♥, 2♠ … A♠ = the paper's
"sorted by suit and rank in ascending order"), is a one-hot vector over five positions; the
vector is **card-major**: slot ``5 * card + k``. Size ``5 * N`` (260 standard, 160 Dutch).

=====  ==========================================================================================
``k``  the card is ...
=====  ==========================================================================================
0      in my hand
1      in another player's hand: not in my hand and not played (cards I passed count here, and
       so do the cards I chose to pass while passing is still going on)
2      on the table, thrown by me in the current trick
3      on the table, thrown by another player in the current trick
4      played in an earlier (completed) trick
=====  ==========================================================================================

Exactly one slot per card is 1 (``N`` ones in all). All slots are binary: both dtypes store 0/1.
The paper uses this vector only for play; during passing it reads as "every card in my hand or
in another hand" (see ``"paper104"`` and ``"paper"`` for passing).
"""

from __future__ import annotations

import numpy as np

from hearts_env.encoders import Encoder, register_encoder
from hearts_env.encoders._bits import BitBuffer
from hearts_env.rules import Rules
from hearts_env.views import SeatView


def position_bits(view: SeatView, n: int, full: int) -> int:
    """The five N-bit position masks, **position-major** (bit ``k * N + card``)."""
    pb = view.played_by
    played = pb[0] | pb[1] | pb[2] | pb[3]
    table = 0
    for card in view.trick:
        table |= 1 << card
    mine = table & pb[view.seat]
    hand = view.hand & ~view.passed
    return (hand | (full & ~hand & ~played) << n | mine << 2 * n | (table & ~mine) << 3 * n
            | (played & ~table) << 4 * n)


class Paper260Encoder(Encoder):
    """Paper 000's 52 × 5 card-position one-hot (see the module docstring)."""

    name = "paper260"

    @classmethod
    def vector_size(cls, rules: Rules) -> int:
        return 5 * rules.deck_obj.size

    def __init__(self, rules: Rules | str | None = None, dtype: str | type = "float32"):
        super().__init__(rules, dtype)
        n = self.n = self.rules.deck_obj.size
        self.full = self.rules.deck_obj.full_mask
        scratch = BitBuffer(self.size, self.dtype)
        self._region = scratch.region(0, self.size)
        self._scratch = scratch.buffer.reshape(5, n)  # position-major
        self._dst = self._buffer.reshape(n, 5).T  # card-major buffer seen position-major

    def write(self, view: SeatView) -> None:
        # Unpack position-major, then one transposing copy; every slot is written.
        self._region.unpack(position_bits(view, self.n, self.full))
        np.copyto(self._dst, self._scratch)


register_encoder("paper260", Paper260Encoder)
