"""The default observation: ``"rich"``, seat-relative, one fixed space for passing and play.

Every per-seat block is ordered by **relative seat**: ``me`` (+0), ``left`` (+1, the next seat
to play after me), ``across`` (+2), ``right`` (+3). ``N`` is the deck size (52 standard, 32
Dutch); card blocks are indexed by action id (see :mod:`hearts_env.cards`). Size ``11*N + 48``:
620 for the standard deck, 400 for the Dutch deck.

===================  ===========================================================================
index                meaning
===================  ===========================================================================
``[0, N)``           my hand: cards I hold and have not chosen to pass
``[N, 2N)``          cards I chose to pass (stays set for the whole deal)
``[2N, 3N)``         cards I received (0 until every seat has chosen its passes)
``[3N + r*N, …+N)``  cards played this deal (current trick included) by relative seat ``r`` = 0..3
``[7N + r*N, …+N)``  cards of the current trick played by relative seat ``r``
``11N + 4r + s``     relative seat ``r`` has shown a void in suit ``s`` (clubs, diamonds, hearts,
                     spades), i.e. did not follow suit ``s``
``11N + 16 + r``     penalty points (hearts, Q♠, J♣; no moon, no bonus) taken by ``r``,
                     divided by ``rules.penalty_total`` (26 standard, 15 Dutch) → [0, 1]
``11N + 20 + r``     game score of ``r`` before this deal, divided by ``rules.target``,
                     clipped to [0, 1] (a negative score reads 0)
``11N + 24 + r``     ``r`` has taken J♦ (only with ``jd_bonus``; otherwise 0)
``11N + 28 + r``     ``r`` has won at least one trick
``11N + 32``         hearts broken (always 1 when ``must_break_hearts`` is off)
``11N + 33``         Q♠ still out: not yet played
``11N + 34 + k``     phase one-hot: k=0 passing, k=1 playing (both 0 once the deal is over)
``11N + 36 + d``     pass direction one-hot: d=0 hold, 1 left, 2 across, 3 right
``11N + 40 + r``     relative seat to act (all 0 once the deal is over)
``11N + 44 + r``     relative seat that led / leads the current trick (all 0 while passing and
                     once the deal is over)
===================  ===========================================================================

The only non-binary slots are the 8 scalars at ``11N + 16 … 11N + 23``. With ``dtype="uint8"``
they are quantized to ``round(255 * x)`` and the space's ``high`` is 255 on those 8 slots and 1
everywhere else; with ``float32`` the space is ``Box(0, 1)``.

Nothing hidden is encoded: opponents' hands appear only through what they played, voids they
showed, and (implicitly) the cards I passed to my target.

Implementation: every binary slot is packed into one Python ``int`` and unpacked by one table
look-up (:mod:`hearts_env.encoders._bits`); the 8 scalars are written by one ``struct.pack_into``.
Every slot is written on each call, so the buffer is not zeroed first.
"""

from __future__ import annotations

import struct

import numpy as np
from gymnasium import spaces

from hearts_env.encoders import Encoder, register_encoder
from hearts_env.encoders._common import box
from hearts_env.engine import Phase
from hearts_env.rules import Rules
from hearts_env.tables import tables_of
from hearts_env.views import SeatView


class RichEncoder(Encoder):
    """Seat-relative encoding of everything one seat knows about the deal (see the module docstring)."""

    name = "rich"

    @classmethod
    def vector_size(cls, rules: Rules) -> int:
        return 11 * rules.deck_obj.size + 48

    def __init__(self, rules: Rules | str | None = None, dtype: str | type = "float32"):
        super().__init__(rules, dtype)
        r = self.rules
        t = tables_of(r)
        self.n = t.size
        self.qs_bit = t.qs_bit
        self.jd_bit = t.jd_bit if r.jd_bonus else 0
        self.jd_points = r.jd_bonus_points
        self.scalar0 = 11 * self.n + 16
        self.quantized = self.dtype == np.uint8
        q = 255.0 if self.quantized else 1.0
        self.pts_scale = q / r.penalty_total
        self.target = r.target
        self._score_cache: dict[tuple[int, tuple[int, ...]], tuple[float, ...]] = {}
        bb = self._bitbuffer
        self._region = bb.region(0, self.size)
        self._view = bb.bytes_view
        self._offset = self.scalar0 * self._buffer.itemsize
        self._pack = struct.Struct("<8B" if self.quantized else "<8f").pack_into

    def space(self) -> spaces.Box:
        return box(self.size, self.dtype, range(self.scalar0, self.scalar0 + 8))

    def write(self, view: SeatView) -> None:
        # Every slot is written (bits by one table look-up, scalars by one struct.pack_into).
        self._region.unpack(self._bits(view))
        self._pack(self._view, self._offset, *self._scalars(view))

    def _bits(self, view: SeatView) -> int:
        n = self.n
        seat = view.seat
        s1, s2, s3 = (seat + 1) & 3, (seat + 2) & 3, (seat + 3) & 3
        pb = view.played_by
        passed = view.passed
        bits = ((view.hand & ~passed) | passed << n | view.received << 2 * n
                | pb[seat] << 3 * n | pb[s1] << 4 * n | pb[s2] << 5 * n | pb[s3] << 6 * n)
        trick = view.trick
        if trick:
            rel = (view.leader - seat) & 3
            for card in trick:
                bits |= 1 << ((7 + rel) * n + card)
                rel = (rel + 1) & 3
        v = view.voids
        tw = view.tricks_won
        flags = (v[seat] | v[s1] << 4 | v[s2] << 8 | v[s3] << 12
                 | (tw[seat] > 0) << 28 | (tw[s1] > 0) << 29 | (tw[s2] > 0) << 30 | (tw[s3] > 0) << 31)
        jd = self.jd_bit
        if jd:
            taken = view.taken
            flags |= (((taken[seat] & jd) and 1 << 24) | ((taken[s1] & jd) and 1 << 25)
                      | ((taken[s2] & jd) and 1 << 26) | ((taken[s3] & jd) and 1 << 27))
        if view.hearts_broken:
            flags |= 1 << 32
        if not (pb[0] | pb[1] | pb[2] | pb[3]) & self.qs_bit:
            flags |= 1 << 33
        phase = view.phase
        if phase == Phase.PLAY:
            flags |= 1 << 35 | 1 << (44 + ((view.leader - seat) & 3))
        elif phase == Phase.PASS:
            flags |= 1 << 34
        flags |= 1 << (36 + view.pass_direction)
        if view.current >= 0:
            flags |= 1 << (40 + ((view.current - seat) & 3))
        return bits | flags << 11 * n

    def _scalars(self, view: SeatView) -> tuple[float, ...]:
        """The 8 non-binary slots at 11N+16 .. 11N+23, in order (no comprehensions: hot path)."""
        seat = view.seat
        s1, s2, s3 = (seat + 1) & 3, (seat + 2) & 3, (seat + 3) & 3
        pt = view.points_taken
        p0, p1, p2, p3 = pt[seat], pt[s1], pt[s2], pt[s3]
        jd = self.jd_bit
        if jd:  # points_taken includes the J♦ bonus: add it back
            taken, b = view.taken, self.jd_points
            if taken[seat] & jd:
                p0 += b
            elif taken[s1] & jd:
                p1 += b
            elif taken[s2] & jd:
                p2 += b
            elif taken[s3] & jd:
                p3 += b
        key = (seat, view.game_scores)
        scores = self._score_cache.get(key)
        if scores is None:
            scores = self._score_values(key)
        ps = self.pts_scale
        if self.quantized:
            return (round(p0 * ps), round(p1 * ps), round(p2 * ps), round(p3 * ps), *scores)
        return (p0 * ps, p1 * ps, p2 * ps, p3 * ps, *scores)

    def _score_values(self, key: tuple[int, tuple[int, ...]]) -> tuple[float, ...]:
        seat, gs = key
        t = self.target
        values = [0.0 if g <= 0 else (1.0 if g >= t else g / t) for g in (gs[(seat + r) & 3] for r in range(4))]
        out = tuple(round(255 * x) for x in values) if self.quantized else tuple(values)
        if len(self._score_cache) > 64:
            self._score_cache.clear()
        self._score_cache[key] = out
        return out


register_encoder("rich", RichEncoder)
