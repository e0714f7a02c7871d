"""The deal: phases pass → play → done, legal-move masks, ``apply``, scoring and events.

A :class:`Deal` is one hand of Hearts under a :class:`~hearts_env.rules.Rules`. Cards are
action ids (see :mod:`hearts_env.cards`) and sets of cards are ``int`` bitmasks. Everything is
pure Python over ints: this class is the hot loop of search agents and of the environments.

>>> from hearts_env.engine import Deal
>>> from hearts_env.rules import make_rules
>>> deal = Deal.random(make_rules("openspiel"), seed=0)
>>> while not deal.is_over:
...     trick = deal.apply(deal.legal_cards()[0])  # the trick the card completed, or None
>>> trick.index, sum(trick.cards) >= 0
(12, True)
>>> sum(deal.points) in (26, 78)
True

Passing: each seat in order 0, 1, 2, 3 chooses ``pass_count`` cards one at a time; the cards
reach their receivers only after the last pass is chosen (OpenSpiel's order). A pass
direction of 0 (hold) skips passing.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Sequence
from enum import IntEnum
from random import Random
from typing import Any

import numpy as np

from hearts_env.cards import NUM_SEATS, Deck, card_name, format_cards, iter_cards, parse_cards, to_mask
from hearts_env.events import DealStarted, Event, Passed, Played, Received, Scored, Trick, TrickTaken
from hearts_env.illegal import BrokenRule, IllegalActionError, broken_pass, broken_play
from hearts_env.playout import pass_randomly, play_randomly
from hearts_env.rules import PASS_NAMES, PASS_OFFSETS, Rules, draw_pass_direction, make_rules
from hearts_env.scoring import score_deal
from hearts_env.tables import RuleTables, tables_of

__all__ = ["BrokenRule", "Deal", "DealError", "Event", "IllegalActionError", "Phase", "Trick", "direction_offset",
           "mask_points", "validate_scores"]


class Phase(IntEnum):
    """The phase of a deal, the one spelling of it everywhere: :attr:`Deal.phase`, :attr:`SeatView.phase`,
    the int8 ``phase`` arrays of :mod:`hearts_env.vector` (NumPy expressions take ``int(Phase.PLAY)``: NumPy 2
    reads a member as an int64 scalar, several times slower against an int8 array), the Numba kernels (which
    freeze the members as constants) and ``info["phase"]`` of the environments (the members' int values)."""

    PASS = 0
    PLAY = 1
    DONE = 2


# The members bound to module globals, for the per-move methods of Deal only (apply, the legal mask,
# is_over...): on Python 3.10/3.11 reading ``Phase.PASS`` goes through EnumType.__getattr__'s hook
# (~90 ns, ~5x a global), which made a legal/apply loop 15% slower than these bindings. They are the
# members themselves (``_PASS is Phase.PASS``); no other module defines or imports them.
_PASS, _PLAY, _DONE = Phase.PASS, Phase.PLAY, Phase.DONE

_DEPRECATED_PHASES = {"PHASE_PASS": Phase.PASS, "PHASE_PLAY": Phase.PLAY, "PHASE_DONE": Phase.DONE}


def deprecated_phase(module: str, name: str) -> Phase:
    """A module's ``__getattr__`` for ``PHASE_PASS``, ``PHASE_PLAY``, ``PHASE_DONE``: the deprecated aliases of
    :class:`Phase`'s members (plain ints before 0.1.3) that this module and ``hearts_v0`` keep for one release."""
    phase = _DEPRECATED_PHASES.get(name)
    if phase is None:
        raise AttributeError(f"module {module!r} has no attribute {name!r}")
    warnings.warn(f"{module}.{name} is deprecated: use hearts_env.Phase.{phase.name}", DeprecationWarning,
                  stacklevel=3)
    return phase


def __getattr__(name: str) -> Phase:
    return deprecated_phase(__name__, name)


class DealError(ValueError):
    """An explicit deal that is not a valid deal under the rules (wrong hand sizes, overlaps...)."""


class Deal:
    """One deal of Hearts. Create with :meth:`random` or :meth:`from_hands`."""

    __slots__ = ("_c", "rules", "dealt", "hands", "pass_direction", "dealer", "game_scores", "_phase",
                 "current", "leader", "trick", "trick_mask", "led_mask", "trick_index", "hearts_broken",
                 "played_by", "taken", "tricks_won", "voids", "passed", "history", "trick_winners",
                 "points", "moon_shooter", "_legal")

    def __init__(self, rules: Rules, hands: Sequence[int], pass_direction: int = 0, dealer: int = 3,
                 game_scores: Sequence[int] | None = None):
        """Start a deal from four hand masks. Prefer :meth:`from_hands`, which validates."""
        c = tables_of(rules)
        self._c = c
        self.rules = rules
        self.dealt: tuple[int, ...] = tuple(hands)
        self.hands: list[int] = list(hands)
        self.pass_direction = pass_direction if c.pass_count else 0
        self.dealer = dealer
        self.game_scores: tuple[int, ...] = tuple(game_scores) if game_scores is not None else (0, 0, 0, 0)
        self.trick: list[int] = []
        self.trick_mask = 0
        self.led_mask = 0
        self.trick_index = 0
        self.hearts_broken = not rules.must_break_hearts
        self.played_by = [0, 0, 0, 0]
        self.taken = [0, 0, 0, 0]
        self.tricks_won = [0, 0, 0, 0]
        self.voids = [0, 0, 0, 0]
        self.passed = [0, 0, 0, 0]
        self.history: list[int] = []
        self.trick_winners: list[int] = []
        self.points: list[int] | None = None
        self.moon_shooter: int | None = None
        self._legal = -1
        if self.pass_direction:
            self._phase = Phase.PASS
            self.current = 0
            self.leader = -1
        else:
            self._start_play()

    # Construction -----------------------------------------------------------------------
    @classmethod
    def from_hands(cls, rules: Rules | str, hands: Sequence[int | str | Iterable[int | str]],
                   pass_direction: int | str = "hold", dealer: int = 3,
                   game_scores: Sequence[int] | None = None) -> Deal:
        """An explicit deal: four hands (masks, card-name strings or lists of names/ids).

        ``pass_direction`` is ``"left"``, ``"right"``, ``"across"``, ``"hold"`` or the offset 0..3.
        """
        rules = make_rules(rules) if isinstance(rules, str) else rules
        c = tables_of(rules)
        if len(hands) != NUM_SEATS:
            raise DealError(f"a deal needs {NUM_SEATS} hands, got {len(hands)}")
        masks = []
        for seat, hand in enumerate(hands):
            if isinstance(hand, int):
                if hand < 0 or hand >> c.size:
                    raise DealError(f"hand {seat} mask has bits outside the {c.deck.name} deck (0..{c.size - 1})")
                mask = hand
            else:
                ids = parse_cards(hand, c.deck)
                mask = to_mask(ids)
                if len(ids) != mask.bit_count():
                    raise DealError(f"hand {seat} lists a card twice: {hand!r}")
            if mask.bit_count() != c.hand_size:
                raise DealError(f"hand {seat} has {mask.bit_count()} cards; each hand needs {c.hand_size}")
            masks.append(mask)
        union = 0
        for seat, mask in enumerate(masks):
            if union & mask:
                raise DealError(f"hand {seat} repeats cards held by another hand: {format_cards(union & mask, c.deck)}")
            union |= mask
        direction = _passable_direction(rules, pass_direction)
        return cls(rules, masks, direction, _seat(dealer), validate_scores(game_scores, "game_scores"))

    @classmethod
    def random(cls, rules: Rules | str, seed: int | np.random.Generator | None = None,
               pass_direction: int | str | None = None, dealer: int = 3,
               game_scores: Sequence[int] | None = None) -> Deal:
        """A shuffled deal. ``pass_direction=None`` draws the direction uniformly from the rules'
        schedule (:func:`~hearts_env.rules.draw_pass_direction`: every direction of a rotation, all
        four for ``passing="random"``), as a deal played on its own would."""
        rules = make_rules(rules) if isinstance(rules, str) else rules
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        c = tables_of(rules)
        direction = draw_pass_direction(rules, rng) if pass_direction is None else \
            _passable_direction(rules, pass_direction)
        shuffled = c.card_bits.copy()
        rng.shuffle(shuffled)
        hands = np.add.reduceat(shuffled, c.hand_starts).tolist()
        return cls(rules, hands, direction, _seat(dealer), validate_scores(game_scores, "game_scores"))

    def clone(self) -> Deal:
        """An independent copy (fast: shares only immutable data)."""
        new = Deal.__new__(Deal)
        new._c = self._c
        new.rules = self.rules
        new.dealt = self.dealt
        new.hands = self.hands[:]
        new.pass_direction = self.pass_direction
        new.dealer = self.dealer
        new.game_scores = self.game_scores
        new._phase = self._phase
        new.current = self.current
        new.leader = self.leader
        new.trick = self.trick[:]
        new.trick_mask = self.trick_mask
        new.led_mask = self.led_mask
        new.trick_index = self.trick_index
        new.hearts_broken = self.hearts_broken
        new.played_by = self.played_by[:]
        new.taken = self.taken[:]
        new.tricks_won = self.tricks_won[:]
        new.voids = self.voids[:]
        new.passed = self.passed[:]
        new.history = self.history[:]
        new.trick_winners = self.trick_winners[:]
        new.points = None if self.points is None else self.points[:]
        new.moon_shooter = self.moon_shooter
        new._legal = self._legal
        return new

    def with_hands(self, hands: Sequence[int], check: bool = True) -> Deal:
        """A copy in the same state with the cards still held redistributed: ``hands`` are four masks
        holding, between them, exactly the cards the seats hold now, each seat as many as now. For
        sampling hidden cards (:mod:`hearts_env.worlds`); only in the play phase of a deal without
        passes (the copy's dealt hands become ``hands`` plus the cards each seat played).
        ``check=False`` skips the checks, for callers that built ``hands`` to satisfy them."""
        hands = hands if type(hands) is list else list(hands)
        if check:
            self._check_redistribution(hands)
        new = self.clone()
        new.hands = hands
        p = self.played_by
        new.dealt = (hands[0] | p[0], hands[1] | p[1], hands[2] | p[2], hands[3] | p[3])
        new._legal = -1
        return new

    def _check_redistribution(self, hands: list[int]) -> None:
        if self._phase != Phase.PLAY or self.passed != [0, 0, 0, 0]:
            raise DealError("with_hands needs a deal in its play phase with no passes")
        if len(hands) != NUM_SEATS:
            raise DealError(f"with_hands needs {NUM_SEATS} hands, got {len(hands)}")
        union = 0
        for seat in range(NUM_SEATS):
            if hands[seat].bit_count() != self.hands[seat].bit_count() or union & hands[seat]:
                raise DealError(f"with_hands: hand {seat} must hold {self.hands[seat].bit_count()} cards "
                                "that no other hand holds")
            union |= hands[seat]
        if union != self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3]:
            raise DealError("with_hands: the hands must hold exactly the cards not yet played")

    def __getstate__(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__slots__ if k != "_c"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for k, v in state.items():
            setattr(self, k, v)
        self._phase = Phase(self._phase)  # a pickle of an older version holds a plain int
        self._c = tables_of(self.rules)

    # Queries ----------------------------------------------------------------------------
    @property
    def deck(self) -> Deck:
        return self._c.deck

    @property
    def played(self) -> int:
        """Mask of every card played so far (the current trick included)."""
        p = self.played_by
        return p[0] | p[1] | p[2] | p[3]

    def playout(self, rng: Random | int | None = None) -> list[int]:
        """Finish the deal with uniformly random legal passes and plays; returns the points.

        The hot loop of Monte Carlo search: :mod:`hearts_env.playout` plays each phase in one function over
        local variables. It implements the same rules as :meth:`legal_mask`/:meth:`apply` (a test replays
        every playout through :meth:`apply`) and leaves the deal in the same state.
        """
        bits = (rng if isinstance(rng, Random) else Random(rng)).getrandbits
        if self._phase == _PASS:
            self._legal = -1
            pass_randomly(self, bits)
            self._exchange_passes()
        if self._phase == _PLAY:
            play_randomly(self, bits)
            self._legal = -1
            self._finish()
        return self.points  # type: ignore[return-value]

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def is_over(self) -> bool:
        return self._phase == _DONE

    @property
    def num_tricks(self) -> int:
        return self._c.hand_size

    @property
    def tables(self) -> RuleTables:
        """The derived masks and numbers of this deal's rules (:mod:`hearts_env.tables`)."""
        return self._c

    @property
    def pass_direction_name(self) -> str:
        return PASS_NAMES[self.pass_direction]

    def passes_complete(self) -> bool:
        """True once every pass has been chosen (received cards are then in the hands)."""
        return self._phase != _PASS

    def pass_target(self, seat: int) -> int:
        return (seat + self.pass_direction) & 3

    def pass_source(self, seat: int) -> int:
        return (seat - self.pass_direction) & 3

    def received(self, seat: int) -> int:
        """Mask of the cards ``seat`` received (0 until every pass is chosen)."""
        if self._phase == _PASS or not self.pass_direction:
            return 0
        return self.passed[self.pass_source(seat)]

    def legal_mask(self) -> int:
        """Mask of the cards the seat to act may pass or play now (0 when the deal is over)."""
        legal = self._legal
        if legal < 0:
            legal = self._legal = self._compute_legal()
        return legal

    def legal_cards(self) -> list[int]:
        mask = self.legal_mask()
        out = []
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out

    def _compute_legal(self) -> int:
        phase = self._phase
        if phase == _PLAY:
            c = self._c
            hand = self.hands[self.current]
            trick = self.trick
            if trick:
                follow = hand & self.led_mask
                if follow:
                    return follow
            elif self.trick_index == 0 and c.lead_lowest_club:
                return hand & c.opening_leads
            if self.trick_index == 0:
                safe = hand & c.first_trick_only
                if safe:
                    return safe
            if not trick:
                lead = hand if self.hearts_broken else hand & ~c.hearts
                if lead and lead != c.lone_qs_lead:
                    return lead
            return hand
        if phase == _PASS:
            return self.hands[self.current] & ~self.passed[self.current]
        return 0

    def penalty_points(self, seat: int) -> int:
        """Penalty points in the cards ``seat`` has taken so far (no moon or bonuses)."""
        return self._c.penalty_points_of(self.taken[seat])

    def points_taken(self, seat: int) -> int:
        """Points of the cards ``seat`` has taken so far, J♦ bonus included (no moon, no trick bonus)."""
        return self._c.points_of(self.taken[seat])

    def moon_possible(self) -> bool:
        """True while one seat could still take every penalty card."""
        holders = [s for s in range(4) if self.taken[s] & self._c.scoring_cards]
        return len(holders) <= 1

    # Acting -----------------------------------------------------------------------------
    def apply(self, card: int) -> Trick | None:
        """Pass or play ``card`` for the seat to act; returns the :class:`~hearts_env.events.Trick` it
        completed, if any. Raises :class:`IllegalActionError` if the card is not allowed."""
        if type(card) is not int:
            card = self._coerce(card)
        legal = self._legal
        if legal < 0:
            legal = self._compute_legal()
        if card < 0 or not (legal >> card) & 1:
            self._raise_illegal(card)
        # the move itself (inline: apply is the hot loop of search agents and of the environments)
        bit = 1 << card
        self._legal = -1
        self.history.append(card)
        if self._phase == _PASS:
            self._pass(bit)
            return None
        c = self._c
        seat = self.current
        self.hands[seat] ^= bit
        self.played_by[seat] |= bit
        trick = self.trick
        trick.append(card)
        if bit & c.breaks_hearts:
            self.hearts_broken = True
        n = len(trick)
        if n == 1:
            self.led_mask = c.suit_mask_of[card]
            self.trick_mask = bit
            self.current = (seat + 1) & 3
            return None
        led_mask = self.led_mask
        if not bit & led_mask:
            self.voids[seat] |= 1 << (trick[0] // c.ranks_per_suit)
        trick_mask = self.trick_mask | bit
        if n < 4:
            self.trick_mask = trick_mask
            self.current = (seat + 1) & 3
            return None
        winner = (self.leader + trick.index((trick_mask & led_mask).bit_length() - 1)) & 3
        done = Trick(self.trick_index, self.leader, tuple(trick), winner, trick_mask, c)
        self.taken[winner] |= trick_mask
        self.tricks_won[winner] += 1
        self.trick_winners.append(winner)
        self.trick_index += 1
        self.trick = []
        self.trick_mask = self.led_mask = 0
        self.leader = self.current = winner
        if self.trick_index == c.hand_size:
            self._finish()
        return done

    def _coerce(self, card: Any) -> int:
        if isinstance(card, (bool, np.bool_)) or not isinstance(card, (int, np.integer)):
            self._raise_illegal(card)
        return int(card)

    def apply_all(self, cards: Iterable[int | str]) -> Deal:
        """Apply a sequence of passes and plays (ids or names); returns self for chaining."""
        for card in cards:
            self.apply(card if isinstance(card, int) else parse_cards([card], self._c.deck)[0])
        return self

    def _pass(self, bit: int) -> None:
        seat = self.current
        self.passed[seat] |= bit
        if self.passed[seat].bit_count() < self._c.pass_count:
            return
        if seat < 3:
            self.current = seat + 1
            return
        self._exchange_passes()

    def _exchange_passes(self) -> None:
        d = self.pass_direction
        hands = self.hands
        for s in range(4):
            hands[s] &= ~self.passed[s]
        for s in range(4):
            hands[(s + d) & 3] |= self.passed[s]
        self._start_play()

    def _start_play(self) -> None:
        self._phase = Phase.PLAY
        if self._c.lead_lowest_club:
            hands = self.hands
            first = 0 if hands[0] & 1 else 1 if hands[1] & 1 else 2 if hands[2] & 1 else 3
        else:
            first = (self.dealer + 1) & 3
        self.current = self.leader = first

    def _finish(self) -> None:
        self.points, self.moon_shooter = score_deal(self._c, self.taken, self.tricks_won, self.game_scores)
        self._phase = Phase.DONE
        self.current = -1

    def _raise_illegal(self, card: Any) -> None:
        c = self._c
        legal = self.legal_cards()
        legal_names = format_cards(legal, c.deck)
        if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < c.size:
            raise IllegalActionError(f"{card!r} is not a card id of the {c.deck.name} deck (0..{c.size - 1}); "
                                     f"legal now: {legal_names}", seat=self.current_or_none, card=card,
                                     rule=BrokenRule.NOT_A_CARD, legal=legal)
        if self._phase == Phase.DONE:
            raise IllegalActionError("the deal is over; no card can be played", seat=None, card=card,
                                     rule=BrokenRule.DEAL_OVER, legal=[])
        seat = self.current
        name = card_name(card, c.deck)
        if self._phase == Phase.PASS:
            rule, why = broken_pass(self.passed[seat], card)
        else:
            rule, why = broken_play(c, self.hands[seat], self.trick, self.trick_index, self.hearts_broken, card)
        raise IllegalActionError(f"seat {seat} cannot {'pass' if self._phase == Phase.PASS else 'play'} {name}: "
                                 f"{why} (rule: {rule}); legal cards: {legal_names}",
                                 seat=seat, card=card, rule=rule, legal=legal)

    @property
    def current_or_none(self) -> int | None:
        return None if self._phase == _DONE else self.current

    # Events -----------------------------------------------------------------------------
    def tricks(self) -> list[Trick]:
        """The completed tricks, in order (the one on the table is :attr:`trick`)."""
        plays = self.history[len(self.history) - self.played.bit_count():]
        out: list[Trick] = []
        leader = self._first_leader(plays)
        for k, winner in enumerate(self.trick_winners):
            cards = tuple(plays[4 * k:4 * k + 4])
            out.append(Trick(k, leader, cards, winner, to_mask(cards), self._c))
            leader = winner
        return out

    def _first_leader(self, plays: list[int]) -> int:
        if not plays:
            return self.leader
        first = 1 << plays[0]
        return next(s for s in range(4) if self.played_by[s] & first)

    def events(self) -> list[Event]:
        """The event log so far: deal, passes, receives, plays, tricks and the score (typed events
        of :mod:`hearts_env.events`)."""
        replay = Deal(self.rules, self.dealt, self.pass_direction, self.dealer, self.game_scores)
        log: list[Event] = [DealStarted(None, (), self.dealt, PASS_NAMES[self.pass_direction], self.dealer)]
        for card in self.history:
            seat = replay.current
            if replay._phase == Phase.PASS:
                replay.apply(card)
                log.append(Passed(seat, (card,), replay.pass_target(seat)))
                if replay._phase != Phase.PASS:
                    log.extend(Received(s, tuple(iter_cards(replay.received(s))), replay.pass_source(s))
                               for s in range(4))
                continue
            trick_index = replay.trick_index
            done = replay.apply(card)
            log.append(Played(seat, (card,), trick_index))
            if done is not None:
                log.append(TrickTaken(done.winner, done.cards, done.leader, done.points, done.index))
        if self.points is not None:
            log.append(Scored(None, (), tuple(self.points), self.moon_shooter))
        return log

    def __repr__(self) -> str:
        return (f"Deal(phase={self._phase.name}, pass={self.pass_direction_name}, trick={self.trick_index}, "
                f"current={self.current_or_none}, points={self.points})")


def mask_points(rules: Rules, mask: int) -> int:
    """Points of a set of cards under ``rules`` (penalties minus the J♦ bonus; no moon, no trick bonus)."""
    return tables_of(rules).points_of(mask)


def validate_scores(scores: Sequence[int] | None, what: str = "scores") -> tuple[int, ...]:
    """Four integer game scores as a tuple of ints (``None``: all zero); raises :class:`DealError`
    for another length or a non-integer value (a float or a bool is refused, not truncated)."""
    if scores is None:
        return (0, 0, 0, 0)
    values = list(scores) if not isinstance(scores, str | bytes) else None
    if values is None or len(values) != NUM_SEATS:
        raise DealError(f"{what} needs one integer score per seat (4 values), got {scores!r}")
    for v in values:
        if isinstance(v, bool | np.bool_) or not isinstance(v, int | np.integer):
            raise DealError(f"{what} must be integers, got {v!r} in {scores!r}")
    return tuple(int(v) for v in values)


def _passable_direction(rules: Rules, direction: int | str) -> int:
    """The offset of ``direction``, refused when it passes under rules that never pass."""
    offset = direction_offset(direction)
    if offset and not tables_of(rules).pass_count:
        raise DealError(f"these rules have no passing (passing={rules.passing!r}); use pass_direction='hold'")
    return offset


def _seat(dealer: Any) -> int:
    if isinstance(dealer, bool | float) or dealer not in range(NUM_SEATS):
        raise DealError(f"dealer must be a seat 0..3, got {dealer!r}")
    return int(dealer)


def direction_offset(direction: int | str) -> int:
    """A pass direction (``"left"``, ``"right"``, ``"across"``, ``"hold"``/``"none"``, or 0..3) as its offset."""
    if isinstance(direction, str):
        key = "hold" if direction.lower() == "none" else direction.lower()
        if key not in PASS_OFFSETS:
            raise DealError(f"pass direction {direction!r} is not valid; valid: {', '.join(PASS_OFFSETS)}")
        return PASS_OFFSETS[key]
    if isinstance(direction, bool) or not isinstance(direction, int | np.integer) or direction not in range(4):
        raise DealError(f"pass direction offset must be 0..3 (hold, left, across, right), got {direction!r}")
    return int(direction)
