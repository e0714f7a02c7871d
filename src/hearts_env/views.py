"""What one seat may know: its :class:`SeatView` of a deal.

Encoders and agents read a :class:`SeatView`, never a :class:`~hearts_env.engine.Deal`, so
what they can see is decided in one place. A view holds:

- private: the seat's hand, its dealt hand, the cards it chose to pass, and the cards it
  received (only once every seat has chosen its passes);
- public: every card played and by whom, the current trick, completed tricks and their
  winners, cards taken, points taken, voids shown (a seat that did not follow suit), hearts
  broken, the pass direction, game scores, the dealer and the seat to act.

A view is a snapshot: it copies ints and tuples and keeps no reference to the deal.
"""

from __future__ import annotations

from hearts_env.engine import Deal, Phase, mask_points
from hearts_env.rules import Rules
from hearts_env.tables import tables_of


class SeatView:
    """One seat's knowledge of a deal (see the module docstring). Read-only by convention.

    Built for every observation, so construction copies only ints and small tuples; the
    derived facts below are computed on demand.
    """

    __slots__ = ("rules", "seat", "phase", "pass_direction", "hand", "dealt", "passed", "received", "current",
                 "legal", "leader", "trick", "trick_index", "played_by", "taken", "tricks_won", "voids",
                 "hearts_broken", "trick_winners", "plays", "game_scores", "dealer", "final_points", "moon_shooter",
                 "_points_taken")

    rules: Rules
    seat: int
    phase: Phase
    pass_direction: int
    """Offset: seat ``s`` passes to ``(s + pass_direction) % 4``; 0 = hold."""
    hand: int
    """Cards in hand now. During passing this still includes the cards chosen to pass."""
    dealt: int
    passed: int
    """Cards this seat chose to pass (so far)."""
    received: int
    """Cards received; 0 until every pass is chosen."""
    current: int
    """Seat to act (-1 when the deal is over)."""
    legal: int
    """Legal cards if this seat is to act, else 0."""
    leader: int
    trick: tuple[int, ...]
    """Cards of the current trick in play order, starting with ``leader``'s."""
    trick_index: int
    played_by: tuple[int, int, int, int]
    taken: tuple[int, int, int, int]
    tricks_won: tuple[int, int, int, int]
    voids: tuple[int, int, int, int]
    """Per seat, a 4-bit mask of suits (bit = suit index) the seat has shown it lacks."""
    hearts_broken: bool
    trick_winners: tuple[int, ...]
    plays: tuple[int, ...]
    """Every card played this deal, in order (passes excluded)."""
    game_scores: tuple[int, ...]
    dealer: int
    final_points: tuple[int, ...] | None
    """The deal's points (moon and bonuses applied) once it is over, else None."""
    moon_shooter: int | None
    _points_taken: tuple[int, int, int, int] | None

    @classmethod
    def of(cls, deal: Deal, seat: int, game_scores: tuple[int, ...] | None = None) -> SeatView:
        """The view ``seat`` has of ``deal``. ``game_scores`` defaults to the deal's own."""
        if seat not in (0, 1, 2, 3):
            raise ValueError(f"seat must be 0..3, got {seat!r}")
        v = cls.__new__(cls)
        phase = deal.phase
        passing = phase == Phase.PASS
        over = phase == Phase.DONE
        v.rules = deal.rules
        v.seat = seat
        v.phase = phase
        v.pass_direction = deal.pass_direction
        v.hand = deal.hands[seat]
        v.dealt = deal.dealt[seat]
        v.passed = deal.passed[seat]
        v.received = 0 if passing else deal.received(seat)
        v.current = -1 if over else deal.current
        v.legal = deal.legal_mask() if not over and deal.current == seat else 0
        v.leader = deal.leader
        v.trick = tuple(deal.trick)
        v.trick_index = deal.trick_index
        v.played_by = tuple(deal.played_by)  # type: ignore[assignment]
        v.taken = tuple(deal.taken)  # type: ignore[assignment]
        v.tricks_won = tuple(deal.tricks_won)  # type: ignore[assignment]
        v.voids = tuple(deal.voids)  # type: ignore[assignment]
        v.hearts_broken = deal.hearts_broken
        v.trick_winners = tuple(deal.trick_winners)
        v.plays = () if passing else tuple(deal.history[4 * deal.rules.pass_count if deal.pass_direction else 0:])
        v.game_scores = tuple(game_scores) if game_scores is not None else deal.game_scores
        v.dealer = deal.dealer
        v.final_points = tuple(deal.points) if over else None  # type: ignore[arg-type]
        v.moon_shooter = deal.moon_shooter
        v._points_taken = None
        return v

    def __repr__(self) -> str:
        return (f"SeatView(seat={self.seat}, phase={self.phase.name}, trick_index={self.trick_index}, "
                f"current={self.current})")

    @property
    def trick_mask(self) -> int:
        """The cards of the trick on the table, as a mask."""
        mask = 0
        for card in self.trick:
            mask |= 1 << card
        return mask

    @property
    def winning_card(self) -> int:
        """The card winning the trick on the table so far (the highest of the suit led); -1 with no trick."""
        if not self.trick:
            return -1
        return (self.trick_mask & tables_of(self.rules).suit_mask_of[self.trick[0]]).bit_length() - 1

    @property
    def points_taken(self) -> tuple[int, int, int, int]:
        """Points of the cards each seat has taken so far, J♦ bonus included (no moon, no trick bonus)."""
        if self._points_taken is None:
            rules = self.rules
            a, b, c, d = (mask_points(rules, taken) for taken in self.taken)
            self._points_taken = (a, b, c, d)
        return self._points_taken

    # Derived knowledge ----------------------------------------------------------------------
    @property
    def played(self) -> int:
        p = self.played_by
        return p[0] | p[1] | p[2] | p[3]

    @property
    def pass_target(self) -> int:
        return (self.seat + self.pass_direction) & 3

    @property
    def pass_source(self) -> int:
        return (self.seat - self.pass_direction) & 3

    @property
    def unseen(self) -> int:
        """Cards whose holder this seat does not know for certain: not in its hand, not played,
        not passed by it (those sit with the pass target unless played)."""
        full = self.rules.deck_obj.full_mask
        return full & ~self.hand & ~self.played & ~self.known_held_by(self.pass_target)

    def known_held_by(self, other: int) -> int:
        """Cards this seat knows ``other`` holds now (cards it passed to ``other``, once passed, not yet played)."""
        if other == self.seat:
            return self.hand
        if self.pass_direction and other == self.pass_target and self.phase != Phase.PASS:
            return self.passed & ~self.played
        return 0

    def hand_size(self, other: int) -> int:
        """Cards ``other`` holds now (public: everybody sees how many cards each seat played)."""
        hs = self.rules.deck_obj.hand_size
        return hs - self.played_by[other].bit_count()

    def completed_tricks(self) -> list[tuple[int, tuple[int, ...], int]]:
        """(leader, cards in play order, winner) of every completed trick."""
        out = []
        leader = self._first_leader()
        for i, winner in enumerate(self.trick_winners):
            out.append((leader, self.plays[4 * i:4 * i + 4], winner))
            leader = winner
        return out

    def _first_leader(self) -> int:
        if not self.trick_winners:
            return self.leader
        first = self.plays[0]
        for s in range(4):
            if self.played_by[s] >> first & 1:
                return s
        return self.leader
