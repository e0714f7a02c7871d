"""Every mask and number derived from a :class:`~hearts_env.rules.Rules`, computed once per rules.

The scalar engine, the playout, both batched backends, the encoders, the agents and the world
sampler read these instead of deriving them again, so a rule's derived data lives in one place.

>>> from hearts_env.rules import make_rules
>>> t = tables_of(make_rules("standard"))
>>> t.qs, t.jd, t.penalty_total, bin(t.scoring_cards).count("1")
(49, 22, 26, 14)
>>> tables_of(make_rules("standard")) is t  # cached per rules
True

Two sets of "penalty" cards, each with one name:

- ``scoring_cards``: the cards worth points under these rules (hearts if ``heart_points > 0``, and each
  card of :data:`~hearts_env.rules.SINGLE_CARD_PENALTIES` whose field is above 0: Q♠, J♣, K♠, A♠);
  taking all of them is the moon;
- ``penalty_cards``: hearts, Q♠, and every other single card that scores — the cards
  ``no_pts_on_first_trick`` bars from the first trick and that the bundled players keep off their
  tricks, whatever their point values.

:meth:`RuleTables.pack` gives the two arrays the Numba kernels read; the names of their slots are
defined here, beside what fills them.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from hearts_env.cards import CLUBS, DIAMONDS, HEARTS, SPADES, Deck, parse_cards
from hearts_env.rules import SINGLE_CARD_PENALTIES, Rules

N_POINT_CARDS = len(SINGLE_CARD_PENALTIES)
# Slots of the uint64 array K of pack(): masks and counts.
K_N, K_RPS, K_HAND_SIZE, K_PASS_COUNT, K_HEARTS, K_QS_BIT, K_JD_BIT, K_SCORING, K_FIRST_TRICK_ONLY, K_BREAKS, \
    K_FLAGS, K_PENALTY_CARDS, K_KS_BIT, K_AS_BIT, K_SPADES, K_HIGH, K_OPENING_LEADS, K_LONE_QS_LEAD = range(18)
K_POINT_CARD = 18
K_SIZE = K_POINT_CARD + N_POINT_CARDS
# Bits of K[K_FLAGS]
FLAG_LOWEST_CLUB, FLAG_JD_BONUS, FLAG_AVOID_BONUS = 1, 2, 4
# Slots of the int64 array P of pack(): point values.
P_HEART, P_MOON, P_PENALTY_TOTAL, P_JD, P_AVOID, P_TARGET = range(6)
# The single-card penalties (rules.SINGLE_CARD_PENALTIES): slot K[K_POINT_CARD + j] holds the bit of the j-th
# card that scores and P[P_POINT_CARD + j] its points; unused slots hold 0 (no card, no points).
P_POINT_CARD = 6
P_SIZE = P_POINT_CARD + N_POINT_CARDS
# Values of P[P_MOON]
MOON_OFF, MOON_ADD, MOON_SUBTRACT, MOON_CHOICE = range(4)


@dataclass(frozen=True, eq=False)
class RuleTables:
    """The derived facts of one :class:`Rules` (build with :func:`tables_of`, which caches them)."""

    rules: Rules
    deck: Deck
    size: int
    """Cards in the deck (52 or 32)."""
    ranks_per_suit: int
    hand_size: int
    full: int
    """Mask of every card of the deck."""
    suits: tuple[int, int, int, int]
    """Suit masks indexed by :data:`~hearts_env.cards.CLUBS` … :data:`~hearts_env.cards.SPADES`."""
    suit_mask_of: tuple[int, ...]
    """The mask of each card's suit, by card id."""
    hearts: int
    clubs: int
    spades: int
    qs: int
    """Card id of Q♠ (K♠, A♠, J♦, J♣ likewise)."""
    ks: int
    as_: int
    jd: int
    jc: int
    qs_bit: int
    ks_bit: int
    as_bit: int
    jd_bit: int
    jc_bit: int
    high_cards: int
    """The five highest ranks of every suit (T and up in the 52-card deck)."""
    point_cards: tuple[tuple[int, int], ...]
    """``(bit, points)`` of each single penalty card that scores under these rules (Q♠, J♣, K♠, A♠)."""
    scoring_cards: int
    """Cards worth points under these rules; taking them all is the moon."""
    penalty_cards: int
    """Hearts, Q♠, and every other single card that scores (J♣, K♠, A♠): barred from the first trick,
    avoided by the bundled players."""
    first_trick_allowed: int
    """``full & ~penalty_cards``: what may be played to the first trick under ``no_pts_on_first_trick``."""
    breaks_hearts: int
    """Cards whose play breaks hearts: the hearts, and Q♠ under ``qs_breaks_hearts``."""
    pass_count: int
    """Cards each seat passes in a deal that passes (0 when the rules never pass)."""
    penalty_total: int
    lead_lowest_club: bool
    """The holder of the lowest club opens (else the seat left of the dealer)."""
    opening_leads: int
    """With ``lead_lowest_club``: the cards the opening lead may be (every club under
    ``can_lead_any_club``, else the lowest club alone)."""
    first_trick_only: int
    """Under ``no_pts_on_first_trick``, :attr:`first_trick_allowed` (a hand holding any of them plays
    one to the first trick); 0 without that rule (no restriction)."""
    lone_qs_lead: int
    """Under ``can_lead_hearts_instead_of_qs``, the lead mask (Q♠ alone) after which hearts may be
    led although unbroken; 0 without that rule (no lead that has a card equals it)."""
    card_bits: np.ndarray
    """``1 << card`` as uint64, by card id."""
    hand_starts: np.ndarray
    """Offsets of the four hands in a shuffled deck (for ``np.add.reduceat``)."""

    def suit_of(self, card: int) -> int:
        """The suit index (0 clubs … 3 spades) of a card id."""
        return card // self.ranks_per_suit

    def rank_of(self, card: int) -> int:
        """The rank index of a card within its suit (0 = the deck's lowest rank)."""
        return card % self.ranks_per_suit

    def points_of(self, mask: int) -> int:
        """Points of a set of cards: penalties minus the J♦ bonus (no moon, no trick bonus)."""
        r = self.rules
        return self.penalty_points_of(mask) - (r.jd_bonus_points if r.jd_bonus and mask & self.jd_bit else 0)

    def penalty_points_of(self, mask: int) -> int:
        """Penalty points of a set of cards, without the J♦ bonus."""
        points = (mask & self.hearts).bit_count() * self.rules.heart_points
        for bit, value in self.point_cards:
            if mask & bit:
                points += value
        return points

    def pack(self) -> tuple[np.ndarray, np.ndarray]:
        """``(K, P)``: uint64 masks and counts, int64 point values, for the Numba kernels (slots above)."""
        r = self.rules
        flags = ((FLAG_LOWEST_CLUB if self.lead_lowest_club else 0)
                 | (FLAG_JD_BONUS if r.jd_bonus else 0) | (FLAG_AVOID_BONUS if r.avoid_all_tricks_bonus else 0))
        k = [0] * K_SIZE
        k[K_N], k[K_RPS], k[K_HAND_SIZE] = self.size, self.ranks_per_suit, self.hand_size
        k[K_PASS_COUNT] = self.pass_count
        k[K_HEARTS], k[K_SPADES] = self.hearts, self.spades
        k[K_QS_BIT], k[K_JD_BIT], k[K_KS_BIT], k[K_AS_BIT] = self.qs_bit, self.jd_bit, self.ks_bit, self.as_bit
        k[K_SCORING], k[K_PENALTY_CARDS] = self.scoring_cards, self.penalty_cards
        k[K_FIRST_TRICK_ONLY], k[K_BREAKS], k[K_HIGH] = self.first_trick_only, self.breaks_hearts, self.high_cards
        k[K_OPENING_LEADS], k[K_LONE_QS_LEAD] = self.opening_leads, self.lone_qs_lead
        k[K_FLAGS] = flags
        # shooter_choice differs from add_to_others only in a game to the target (hearts_env.scoring.moon_choice)
        moon = {"off": MOON_OFF, "add_to_others": MOON_ADD, "subtract_from_shooter": MOON_SUBTRACT,
                "shooter_choice": MOON_CHOICE if r.game == "match" else MOON_ADD}[r.moon]
        p = [0] * P_SIZE
        p[P_HEART], p[P_MOON] = r.heart_points, moon
        p[P_PENALTY_TOTAL], p[P_JD], p[P_AVOID], p[P_TARGET] = \
            r.penalty_total, r.jd_bonus_points, r.avoid_all_tricks_points, r.target
        for j, (bit, value) in enumerate(self.point_cards):
            k[K_POINT_CARD + j], p[P_POINT_CARD + j] = bit, value
        return np.array(k, dtype=np.uint64), np.array(p, dtype=np.int64)


_BY_ID: dict[int, tuple[Rules, RuleTables]] = {}  # the hot path: this very Rules object seen before


def tables_of(rules: Rules) -> RuleTables:
    """The :class:`RuleTables` of ``rules`` (cached: equal rules share one object)."""
    hit = _BY_ID.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    tables = _tables_of(rules)
    if len(_BY_ID) > 1024:
        _BY_ID.clear()
    _BY_ID[id(rules)] = (rules, tables)  # the entry keeps its rules alive, so the id is not reused
    return tables


@functools.lru_cache(maxsize=1024)
def _tables_of(rules: Rules) -> RuleTables:
    deck = rules.deck_obj
    rps = deck.ranks_per_suit
    suits = (deck.suit_mask(CLUBS), deck.suit_mask(DIAMONDS), deck.suit_mask(HEARTS), deck.suit_mask(SPADES))
    qs, ks, as_ = deck.card(SPADES, "Q"), deck.card(SPADES, "K"), deck.card(SPADES, "A")
    jd, jc = deck.card(DIAMONDS, "J"), deck.card(CLUBS, "J")
    hearts, qs_bit, jc_bit = suits[HEARTS], 1 << qs, 1 << jc
    point_cards = tuple((1 << parse_cards([card], deck)[0], getattr(rules, field))
                        for field, card in SINGLE_CARD_PENALTIES.items() if getattr(rules, field))
    singles = sum(bit for bit, _ in point_cards)
    scoring = (hearts if rules.heart_points else 0) | singles
    penalty = hearts | qs_bit | singles
    first_trick_allowed = deck.full_mask & ~penalty
    return RuleTables(
        rules=rules, deck=deck, size=deck.size, ranks_per_suit=rps, hand_size=deck.hand_size, full=deck.full_mask,
        suits=suits, suit_mask_of=tuple(suits[card // rps] for card in range(deck.size)),
        hearts=hearts, clubs=suits[CLUBS], spades=suits[SPADES],
        qs=qs, ks=ks, as_=as_, jd=jd, jc=jc, qs_bit=qs_bit, ks_bit=1 << ks, as_bit=1 << as_, jd_bit=1 << jd,
        jc_bit=jc_bit,
        high_cards=sum(1 << (suit * rps + rank) for suit in range(4) for rank in range(rps - 5, rps)),
        point_cards=point_cards, scoring_cards=scoring, penalty_cards=penalty,
        first_trick_allowed=first_trick_allowed,
        breaks_hearts=hearts | (qs_bit if rules.qs_breaks_hearts else 0),
        pass_count=rules.pass_count if rules.has_passing else 0, penalty_total=rules.penalty_total,
        lead_lowest_club=rules.opening_lead == "lowest_club",
        opening_leads=suits[CLUBS] if rules.can_lead_any_club else 1,
        first_trick_only=first_trick_allowed if rules.no_pts_on_first_trick else 0,
        lone_qs_lead=qs_bit if rules.can_lead_hearts_instead_of_qs else 0,
        card_bits=np.left_shift(np.uint64(1), np.arange(deck.size, dtype=np.uint64)),
        hand_starts=np.arange(0, deck.size, deck.hand_size))
