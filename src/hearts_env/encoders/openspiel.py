"""``"openspiel"``: OpenSpiel's ``hearts`` information-state tensor, slot for slot (5,088 floats).

The layout of ``HeartsState::InformationStateTensor`` in OpenSpiel 2.0.2 (``hearts.cc``). It is
**absolute-seat** (seat 0 = OpenSpiel's North … seat 3 = West), not seat-relative, and every card
block uses **OpenSpiel's card ids** (``rank * 4 + suit``, see :func:`hearts_env.cards.to_openspiel`),
not action ids.

=================  ==============================================================================
index              meaning
=================  ==============================================================================
``[0, 4)``         pass direction one-hot: none, left, across, right
``[4, 56)``        my dealt hand
``[56, 108)``      cards I chose to pass (so far)
``[108, 160)``     cards I received (0 until every seat has chosen its passes)
``[160, 212)``     my current hand (while passing, without the cards chosen to pass)
``212 + 36 p + j`` point thermometer of seat ``p``: 1 for ``j < points_p + 10`` (offset by the J♦
                   bonus so that −10 fits); ``points_p`` is the running sum of the trick points
                   taken (J♦ −10 with ``jd_bonus``), plus, once the deal is over, the moon (+26 to
                   the others, −26 to the shooter) and the avoid-all-tricks bonus (−5)
``356 + 364 i``    trick ``i`` (0..12): 7 blocks of 52 for seats N E S W N E S; the card played by
``+ 52 b + c``     seat ``leader + j`` as the trick's ``j``-th card sits in block ``b = leader + j``
=================  ==============================================================================

Only rules OpenSpiel can express are accepted: the standard deck and OpenSpiel's scoring (hearts
1, Q♠ 13, no J♣ penalty, J♦ bonus 10 if on, avoid-all-tricks bonus 5 if on, moon
``add_to_others``) and 3-card passes. Play rules (``must_break_hearts`` etc.), the passing
schedule and ``game`` are free: they change which positions occur, not the layout. All slots are
binary. Tested equal to ``pyspiel``'s ``information_state_tensor(player)`` on random deals.
"""

from __future__ import annotations

from hearts_env.cards import to_openspiel
from hearts_env.encoders import BinaryEncoder, EncoderError, register_encoder
from hearts_env.openspiel_bridge import openspiel_mismatches
from hearts_env.rules import Rules
from hearts_env.tables import tables_of
from hearts_env.views import SeatView

NUM_CARDS = 52
MAX_SCORE = 36
POINTS_BASE = 212
HISTORY_BASE = POINTS_BASE + 4 * MAX_SCORE  # 356
TRICK_SIZE = 7 * NUM_CARDS  # 364
SIZE = HISTORY_BASE + 13 * TRICK_SIZE  # 5088

_OS = [to_openspiel(c) for c in range(NUM_CARDS)]
# A 13-bit suit block of action ids (rank bits) spread to OpenSpiel order (bit rank*4 of suit 0).
_SPREAD = [0] * 8192
for _x in range(1, 8192):
    _low = _x & -_x
    _SPREAD[_x] = _SPREAD[_x ^ _low] | 1 << 4 * (_low.bit_length() - 1)


def os_mask(mask: int) -> int:
    """An action-id card mask as an OpenSpiel-id card mask."""
    sp = _SPREAD
    return sp[mask & 8191] | sp[(mask >> 13) & 8191] << 1 | sp[(mask >> 26) & 8191] << 2 | sp[mask >> 39] << 3


class OpenSpielEncoder(BinaryEncoder):
    """OpenSpiel's hearts information-state tensor (see the module docstring)."""

    name = "openspiel"

    @classmethod
    def check_rules(cls, rules: Rules) -> None:
        # the tensor does not depend on who opens, nor on the pass size of a deal that never passes
        ignore = {"opening_lead"} | (set() if rules.has_passing else {"pass_count"})
        problems = [f"{name}={value!r} (needs {theirs!r})"
                    for name, value, theirs in openspiel_mismatches(rules, ignore)]
        if problems:
            raise EncoderError("the 'openspiel' encoding reproduces OpenSpiel's tensor and needs rules OpenSpiel "
                               "can express; these rules have " + ", ".join(problems)
                               + ". Use rules='openspiel' or another encoding (e.g. 'rich').")

    @classmethod
    def vector_size(cls, rules: Rules) -> int:
        return SIZE

    def __init__(self, rules: Rules | str | None = None, dtype: str | type = "float32"):
        super().__init__(rules, dtype)
        t = tables_of(self.rules)
        self.hearts = t.hearts
        self.openspiel_point_cards = t.hearts | t.qs_bit  # OpenSpiel's moon: every heart and Q♠ (it has no J♣ penalty)
        self.jd_bit = t.jd_bit
        self.avoid = self.rules.avoid_all_tricks_bonus
        self._hist_key: tuple[int, tuple[int, ...]] = (-1, ())
        self._hist_bits = 0

    def _history(self, view: SeatView) -> int:
        """Bits of the completed tricks (cached: within a deal the history only grows)."""
        plays = view.plays
        first = plays[0]
        pb = view.played_by
        first_leader = 0 if pb[0] >> first & 1 else 1 if pb[1] >> first & 1 else 2 if pb[2] >> first & 1 else 3
        key = plays[:4 * view.trick_index]
        cached_leader, cached_key = self._hist_key
        if first_leader == cached_leader and key[:len(cached_key)] == cached_key:
            if len(key) == len(cached_key):
                return self._hist_bits
            bits, start = self._hist_bits, len(cached_key) // 4
        else:
            bits, start = 0, 0
        winners = view.trick_winners
        leader = winners[start - 1] if start else first_leader
        os_ = _OS
        for i in range(start, view.trick_index):
            t = 0
            for j in range(4):
                t |= 1 << ((leader + j) * NUM_CARDS + os_[plays[4 * i + j]])
            bits |= t << (HISTORY_BASE + i * TRICK_SIZE)
            leader = winners[i]
        self._hist_key, self._hist_bits = (first_leader, key), bits
        return bits

    def _points(self, view: SeatView) -> list[int]:
        points = list(view.points_taken)
        if view.current < 0:  # deal over: moon and avoid-all-tricks bonus, as OpenSpiel's ComputeScore
            pm = self.openspiel_point_cards
            shooter = next((s for s in range(4) if view.taken[s] & pm == pm), None)
            if shooter is not None:
                points = [p - 26 if s == shooter else p + 26 for s, p in enumerate(points)]
            elif self.avoid:
                points = [p - 5 if not view.tricks_won[s] else p for s, p in enumerate(points)]
        return points

    def bits(self, view: SeatView) -> int:
        hand = view.hand & ~view.passed
        bits = (1 << view.pass_direction | os_mask(view.dealt) << 4 | os_mask(view.passed) << 56
                | os_mask(view.received) << 108 | os_mask(hand) << 160)
        therm = 0
        for p, pts in enumerate(self._points(view)):
            if pts > -10:
                therm |= ((1 << (pts + 10)) - 1) << (MAX_SCORE * p)
        bits |= therm << POINTS_BASE
        if view.plays:
            bits |= self._history(view)
            if view.trick:
                t = 0
                leader = view.leader
                for j, card in enumerate(view.trick):
                    t |= 1 << ((leader + j) * NUM_CARDS + _OS[card])
                bits |= t << (HISTORY_BASE + view.trick_index * TRICK_SIZE)
        return bits


register_encoder("openspiel", OpenSpielEncoder)
