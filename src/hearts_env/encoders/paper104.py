"""``"paper104"``: the passing-state representation of Demirdöver et al. (2022), paper 000 §4.1.

Two card blocks in action-id order (2♣ … A♠), size ``2 * N`` (104 standard, 64 Dutch):

==============  ==========================================================================
index           meaning
==============  ==========================================================================
``[0, N)``      the card is in my hand (1) or in another player's (0). While passing this is
                the dealt hand, the cards selected to pass included (the paper's "initial
                cards"); during play it is the current hand.
``[N, 2N)``     the card is selected to pass (stays set during play)
==============  ==========================================================================

All slots binary. Meant for passing decisions; ``"paper"`` combines it with ``"paper260"``
into one space for a whole deal.
"""

from __future__ import annotations

from hearts_env.encoders import BinaryEncoder, register_encoder
from hearts_env.rules import Rules
from hearts_env.views import SeatView


class Paper104Encoder(BinaryEncoder):
    """Paper 000's passing state: 52 in-my-hand + 52 selected-to-pass."""

    name = "paper104"

    @classmethod
    def vector_size(cls, rules: Rules) -> int:
        return 2 * rules.deck_obj.size

    def __init__(self, rules: Rules | str | None = None, dtype: str | type = "float32"):
        super().__init__(rules, dtype)
        self.n = self.rules.deck_obj.size

    def bits(self, view: SeatView) -> int:
        return view.hand | view.passed << self.n


register_encoder("paper104", Paper104Encoder)
