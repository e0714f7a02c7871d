"""``"paper"``: paper 000's two representations in one fixed space for a whole deal.

Size ``7 * N + 1`` (365 standard, 225 Dutch):

================  ==============================================================================
index             meaning
================  ==============================================================================
``[0, 5N)``       the ``"paper260"`` playing state (card-major, ``5 * card + position``);
                  all 0 while passing
``[5N, 7N)``      the ``"paper104"`` passing state (in my hand, selected to pass); all 0 once
                  passing is over (and throughout a deal without passing)
``7N``            phase bit: 1 while passing, 0 during play and once the deal is over
================  ==============================================================================

Why concatenate rather than embed the 104 inside the 260: each half keeps the paper's exact
meaning slot by slot, so ``obs[:5N]`` and ``obs[5N:7N]`` are bit-for-bit the paper's two inputs
(feed them to separate networks as the paper does, or one network over the whole vector); a
vector whose slots change meaning with the phase would force a single network to untangle
that. The phase bit is redundant (the 260 part has exactly N ones during play, the 104 part
has at least one 1 while passing) but makes the switch explicit for a single network. All
slots binary.
"""

from __future__ import annotations

import numpy as np

from hearts_env.encoders import Encoder, register_encoder
from hearts_env.encoders._bits import BitBuffer
from hearts_env.encoders.paper260 import position_bits
from hearts_env.engine import Phase
from hearts_env.rules import Rules
from hearts_env.views import SeatView


class PaperEncoder(Encoder):
    """``paper260 | paper104 | passing`` (see the module docstring)."""

    name = "paper"

    @classmethod
    def vector_size(cls, rules: Rules) -> int:
        return 7 * rules.deck_obj.size + 1

    def __init__(self, rules: Rules | str | None = None, dtype: str | type = "float32"):
        super().__init__(rules, dtype)
        n = self.n = self.rules.deck_obj.size
        self.full = self.rules.deck_obj.full_mask
        bb = self._bitbuffer
        self._head = self._buffer[:5 * n]
        self._tail = self._buffer[5 * n:]
        self._pass_region = bb.region(5 * n, 2 * n + 1)
        self._dst = self._head.reshape(n, 5).T
        scratch = BitBuffer(5 * n, self.dtype)
        self._play_region = scratch.region(0, 5 * n)
        self._scratch = scratch.buffer.reshape(5, n)

    def write(self, view: SeatView) -> None:
        if view.phase == Phase.PASS:
            self._head.fill(0)
            self._pass_region.unpack(view.hand | view.passed << self.n | 1 << 2 * self.n)
        else:
            self._play_region.unpack(position_bits(view, self.n, self.full))
            np.copyto(self._dst, self._scratch)
            self._tail.fill(0)


register_encoder("paper", PaperEncoder)
