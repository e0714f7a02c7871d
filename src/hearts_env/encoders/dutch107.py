"""``"dutch107"``: the 107 MLP inputs of the Dutch-rules agent of paper 003 (§2.1).

32-card decks only (``deck="dutch"``). Card blocks in action-id order (7♣ … A♣, 7♦ …, 7♥ …,
7♠ … A♠). Per-seat values are **seat-relative** (me, left, across, right), as in ``"rich"``.

=============  ==================================================================================
index          meaning
=============  ==================================================================================
``[0, 32)``    my hand (cards held and not chosen to pass)
``[32, 64)``   discard pile: cards of completed tricks
``[64, 96)``   cards on the table: the current trick
``96``         my turn in the current trick: 0 = I lead, 1/3, 2/3, 1 = I play last
               (``((seat - leader) mod 4) / 3``); 0 while passing and once the deal is over
``97 + r``     game score of relative seat ``r`` before this deal ÷ ``rules.target`` (100),
               clipped to [0, 1]
``101 + s``    cards of suit ``s`` (clubs, diamonds, hearts, spades) not yet played (the current
               trick counts as played) ÷ 8
``105``        shooting the moon still possible for some seat: the moon rule is on and at most
               one seat has taken penalty cards (binary)
``106``        penalty points of the cards in my hand ÷ ``rules.penalty_total`` (15): hearts 1,
               J♣ 2, Q♠ 5 under the Dutch preset
=============  ==================================================================================

Readings the paper leaves open, decided here: "which turn the agent has in the current round"
is the position in the current trick ("round" is the paper's word for a trick); "penalty points
the agent has in its hand" is read literally, the penalty value of the cards held (points
already taken are not in the paper's list); scores are scaled to [0, 1] by the target (the paper
does not give its scaling). The paper's rules have no passing; with passing enabled, the
vector while passing holds only the hand (minus the cards chosen to pass), the scores, the
per-suit counts, the moon bit and the hand's penalty points.

dtype: the 10 non-binary slots (96–104 and 106) are stored as ``round(255 * x)`` in ``uint8``
(space ``high`` 255 there, 1 elsewhere), as in every built-in encoding.
"""

from __future__ import annotations

import struct

import numpy as np
from gymnasium import spaces

from hearts_env.encoders import Encoder, EncoderError, register_encoder
from hearts_env.encoders._common import box
from hearts_env.engine import Phase
from hearts_env.rules import Rules
from hearts_env.tables import tables_of
from hearts_env.views import SeatView

SCALAR_SLOTS = (96, 97, 98, 99, 100, 101, 102, 103, 104, 106)


class Dutch107Encoder(Encoder):
    """Paper 003's 107 inputs (see the module docstring)."""

    name = "dutch107"

    @classmethod
    def check_rules(cls, rules: Rules) -> None:
        if rules.deck_obj.size != 32:
            raise EncoderError(f"the 'dutch107' encoding needs the 32-card Dutch deck (deck='dutch'); these "
                               f"rules use the {rules.deck_obj.size}-card {rules.deck!r} deck. Use "
                               f"rules='dutch' or another encoding (e.g. 'rich').")

    @classmethod
    def vector_size(cls, rules: Rules) -> int:
        return 107

    def __init__(self, rules: Rules | str | None = None, dtype: str | type = "float32"):
        super().__init__(rules, dtype)
        r = self.rules
        self.tables = t = tables_of(r)
        self.suit_masks = t.suits
        self.rps = t.ranks_per_suit
        self.scoring_cards = t.scoring_cards
        self.moon_on = r.moon != "off"
        self.quantized = self.dtype == np.uint8
        self.penalty_total = r.penalty_total
        self.target = r.target
        self._score_cache: dict[tuple[int, tuple[int, ...]], tuple[float, ...]] = {}
        bb = self._bitbuffer
        self._region = bb.region(0, self.size)
        self._bytes = bb.bytes_view
        item = self._buffer.itemsize
        fmt = "B" if self.quantized else "f"
        self._pack_a = struct.Struct(f"<9{fmt}").pack_into
        self._pack_b = struct.Struct(f"<{fmt}").pack_into
        self._off_a, self._off_b = 96 * item, 106 * item

    def space(self) -> spaces.Box:
        return box(self.size, self.dtype, SCALAR_SLOTS)

    def write(self, view: SeatView) -> None:
        pb = view.played_by
        played = pb[0] | pb[1] | pb[2] | pb[3]
        table = view.trick_mask
        hand = view.hand & ~view.passed
        bits = hand | (played & ~table) << 32 | table << 64
        taken = view.taken
        if self.moon_on:
            pm = self.scoring_cards
            holders = (taken[0] & pm != 0) + (taken[1] & pm != 0) + (taken[2] & pm != 0) + (taken[3] & pm != 0)
            if holders <= 1:
                bits |= 1 << 105
        self._region.unpack(bits)
        seat = view.seat
        turn = ((seat - view.leader) & 3) / 3 if view.phase == Phase.PLAY else 0.0
        key = (seat, view.game_scores)
        scores = self._score_cache.get(key)
        if scores is None:
            scores = self._score_values(key)
        c, d, h, s = self.suit_masks
        rps = self.rps
        pts = self.tables.penalty_points_of(hand) / self.penalty_total
        values = (turn, *scores, (rps - (played & c).bit_count()) / rps, (rps - (played & d).bit_count()) / rps,
                  (rps - (played & h).bit_count()) / rps, (rps - (played & s).bit_count()) / rps)
        if self.quantized:
            values = tuple(round(255 * x) for x in values)
            pts = round(255 * pts)
        self._pack_a(self._bytes, self._off_a, *values)
        self._pack_b(self._bytes, self._off_b, pts)

    def _score_values(self, key: tuple[int, tuple[int, ...]]) -> tuple[float, ...]:
        seat, gs = key
        t = self.target
        out = tuple(0.0 if g <= 0 else (1.0 if g >= t else g / t) for g in (gs[(seat + r) & 3] for r in range(4)))
        if len(self._score_cache) > 64:
            self._score_cache.clear()
        self._score_cache[key] = out
        return out


register_encoder("dutch107", Dutch107Encoder)
