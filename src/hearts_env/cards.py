"""Cards, decks and card bitmasks.

A card's id is its **action id**: ``suit * ranks_per_suit + rank_index`` with suits ordered
clubs, diamonds, hearts, spades and ranks ascending inside the deck.

=================  ==========================================  ======================
deck               ids                                         example
=================  ==========================================  ======================
``standard`` (52)  2♣=0 … A♣=12, 2♦=13 … A♦=25, 2♥=26 … A♥=38,   Q♠ = 49, 2♣ = 0
                   2♠=39 … A♠=51
``dutch`` (32)     7♣=0 … A♣=7, 7♦=8 … A♦=15, 7♥=16 … A♥=23,      Q♠ = 29, 7♣ = 0
                   7♠=24 … A♠=31
=================  ==========================================  ======================

These ids are stable across releases. Because each suit occupies a contiguous block of
ids in rank order, a set of cards is an ``int`` bitmask (bit ``id`` set), a suit is a
contiguous bit range, and the highest card of a suit in a mask is its highest set bit.

>>> from hearts_env import cards
>>> cards.card_id("QS")
49
>>> cards.card_name(49)
'QS'
>>> cards.card_id("Q♠", deck="dutch")
29
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

SUITS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RANKS = "23456789TJQKA"
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
NUM_SEATS = 4
OPENSPIEL_NUM_SUITS = 4

_SYMBOL_TO_SUIT = {**{s: i for i, s in enumerate(SUITS)}, **{s: i for i, s in enumerate(SUIT_SYMBOLS)}}
_SYMBOL_TO_SUIT.update({"♧": 0, "♢": 1, "♡": 2, "♤": 3})


class CardError(ValueError):
    """A card name or id that does not exist in the deck."""


@dataclass(frozen=True)
class Deck:
    """A deck: which ranks it has; every suit has the same ranks."""

    name: str
    lowest_rank: int  # index into RANKS of the deck's lowest rank ("2" -> 0, "7" -> 5)

    @property
    def ranks_per_suit(self) -> int:
        return len(RANKS) - self.lowest_rank

    @property
    def size(self) -> int:
        return 4 * self.ranks_per_suit

    @property
    def hand_size(self) -> int:
        return self.size // NUM_SEATS

    @property
    def full_mask(self) -> int:
        return (1 << self.size) - 1

    def suit_mask(self, suit: int) -> int:
        n = self.ranks_per_suit
        return ((1 << n) - 1) << (suit * n)

    def card(self, suit: int, rank: str | int) -> int:
        """Id of the card of ``suit`` (0..3) and ``rank`` (a rank char or an index into RANKS)."""
        rank_index = RANKS.index(rank) if isinstance(rank, str) else rank
        if rank_index < self.lowest_rank or rank_index >= len(RANKS):
            raise CardError(f"rank {RANKS[rank_index] if 0 <= rank_index < 13 else rank!r} is not in the "
                            f"{self.name} deck (ranks {RANKS[self.lowest_rank:]})")
        return suit * self.ranks_per_suit + rank_index - self.lowest_rank

    def suit_of(self, card: int) -> int:
        return card // self.ranks_per_suit

    def rank_of(self, card: int) -> int:
        """Index into RANKS ("2" is 0, "A" is 12) of a card id."""
        return card % self.ranks_per_suit + self.lowest_rank


STANDARD = Deck("standard", 0)
DUTCH = Deck("dutch", 5)
DECKS: dict[str, Deck] = {d.name: d for d in (STANDARD, DUTCH)}


def get_deck(deck: str | Deck) -> Deck:
    if isinstance(deck, Deck):
        return deck
    try:
        return DECKS[deck]
    except KeyError:
        raise CardError(f"unknown deck {deck!r}; valid decks: {', '.join(DECKS)}") from None


def card_id(name: str, deck: str | Deck = STANDARD) -> int:
    """Action id of a card name such as ``"QS"``, ``"TD"``, ``"10h"``, ``"2♣"`` or ``"Q♠"``."""
    d = get_deck(deck)
    if not isinstance(name, str):
        raise CardError(f"a card name must be a string, got {name!r}")
    text = name.strip().upper()
    if len(text) < 2:
        raise CardError(f"{name!r} is not a card: use rank then suit, e.g. 'QS', 'TD', '2C', 'Q♠'")
    rank_text, suit_text = text[:-1], text[-1]
    if rank_text == "10":
        rank_text = "T"
    if rank_text not in RANKS or len(rank_text) != 1 or suit_text not in _SYMBOL_TO_SUIT:
        raise CardError(f"{name!r} is not a card: ranks are {RANKS} (or 10), suits are {SUITS} or {SUIT_SYMBOLS}")
    return d.card(_SYMBOL_TO_SUIT[suit_text], rank_text)


def card_name(card: int, deck: str | Deck = STANDARD, symbols: bool = False) -> str:
    """Name of an action id: ``"QS"``, or ``"Q♠"`` with ``symbols=True``."""
    d = get_deck(deck)
    if isinstance(card, bool) or not isinstance(card, numbers.Integral):  # NumPy integers are Integral
        raise CardError(f"card id {card!r} is not an integer (a Python or NumPy integer 0..{d.size - 1})")
    card = int(card)  # NumPy integers are the normal case: np.flatnonzero(mask) gives them
    if not 0 <= card < d.size:
        raise CardError(f"card id {card!r} is outside the {d.name} deck (0..{d.size - 1})")
    suit = card // d.ranks_per_suit
    return RANKS[d.rank_of(card)] + (SUIT_SYMBOLS if symbols else SUITS)[suit]


def parse_cards(text: str | Iterable[str | int], deck: str | Deck = STANDARD) -> list[int]:
    """Card ids from ``"QS TD 2C"``, ``"QS,TD"`` or an iterable of names or ids."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    d = get_deck(deck)
    out = []
    for item in items:
        if isinstance(item, str):
            out.append(card_id(item, d))
        else:
            card_name(item, d)  # validates
            out.append(int(item))
    return out


def to_mask(cards: Iterable[int]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def iter_cards(mask: int) -> Iterator[int]:
    """Card ids of a mask, ascending."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_to_cards(mask: int) -> list[int]:
    return list(iter_cards(mask))


def format_cards(mask_or_cards: int | Iterable[int], deck: str | Deck = STANDARD, symbols: bool = False) -> str:
    """Space-separated names, e.g. ``"2C 9H QS"``."""
    cards = iter_cards(mask_or_cards) if isinstance(mask_or_cards, int) else mask_or_cards
    return " ".join(card_name(c, deck, symbols) for c in cards)


def to_openspiel(card: int, deck: str | Deck = STANDARD) -> int:
    """OpenSpiel's hearts card id (``rank * 4 + suit``, ranks 2..A = 0..12) of an action id."""
    d = get_deck(deck)
    card_name(card, d)  # validates the id
    return d.rank_of(card) * OPENSPIEL_NUM_SUITS + card // d.ranks_per_suit


def from_openspiel(os_card: int, deck: str | Deck = STANDARD) -> int:
    """Action id of an OpenSpiel hearts card id."""
    if not 0 <= os_card < 52:
        raise CardError(f"OpenSpiel card id {os_card!r} is outside 0..51")
    return get_deck(deck).card(os_card % OPENSPIEL_NUM_SUITS, os_card // OPENSPIEL_NUM_SUITS)
