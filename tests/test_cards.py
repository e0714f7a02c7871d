"""Cards: ids, names, decks, masks and the OpenSpiel id mapping (hearts_env.cards)."""

from __future__ import annotations

import pytest

from hearts_env import cards
from hearts_env.cards import (
    DUTCH,
    STANDARD,
    CardError,
    card_id,
    card_name,
    format_cards,
    from_openspiel,
    get_deck,
    iter_cards,
    mask_to_cards,
    parse_cards,
    to_mask,
    to_openspiel,
)

# --- stable ids --------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "expected"), [
    ("2C", 0), ("AC", 12), ("2D", 13), ("AD", 25), ("2H", 26), ("AH", 38), ("2S", 39),
    ("QS", 49), ("KS", 50), ("AS", 51), ("TD", 21), ("JD", 22), ("JC", 9), ("10H", 34),
])
def test_standard_ids_are_stable(name, expected):
    assert card_id(name) == expected
    assert card_name(expected) == name.replace("10", "T")


@pytest.mark.parametrize(("name", "expected"), [
    ("7C", 0), ("AC", 7), ("7D", 8), ("JD", 12), ("7H", 16), ("AH", 23), ("7S", 24), ("QS", 29), ("AS", 31),
    ("JC", 4),
])
def test_dutch_ids_are_stable(name, expected):
    assert card_id(name, deck="dutch") == expected
    assert card_id(name, deck=DUTCH) == expected
    assert card_name(expected, "dutch") == name


@pytest.mark.parametrize("text", ["QS", "qs", "Qs", "qS", " QS ", "Q♠", "q♠", "Q♤"])
def test_spellings_of_the_queen_of_spades(text):
    assert card_id(text) == 49


@pytest.mark.parametrize(("text", "expected"), [
    ("TD", 21), ("td", 21), ("10D", 21), ("10d", 21), ("10h", 34), ("10♥", 34), ("T♡", 34),
    ("2C", 0), ("2c", 0), ("2♣", 0), ("2♧", 0), ("A♦", 25), ("A♢", 25),
])
def test_ten_and_suit_symbol_spellings(text, expected):
    assert card_id(text) == expected


def test_names_with_symbols():
    assert card_name(49, symbols=True) == "Q♠"
    assert card_name(0, symbols=True) == "2♣"
    assert card_name(21, symbols=True) == "T♦"
    assert card_name(34, symbols=True) == "T♥"
    assert card_name(29, "dutch", symbols=True) == "Q♠"
    assert card_name(0, "dutch", symbols=True) == "7♣"


@pytest.mark.parametrize("deck", ["standard", "dutch"])
def test_round_trip_every_card(deck):
    d = get_deck(deck)
    for card in range(d.size):
        assert card_id(card_name(card, deck), deck) == card
        assert card_id(card_name(card, deck, symbols=True), deck) == card
        assert card_id(card_name(card, deck).lower(), deck) == card
    assert len({card_name(c, deck) for c in range(d.size)}) == d.size


# --- decks -------------------------------------------------------------------------------------


def test_deck_geometry():
    assert (STANDARD.size, STANDARD.ranks_per_suit, STANDARD.hand_size) == (52, 13, 13)
    assert (DUTCH.size, DUTCH.ranks_per_suit, DUTCH.hand_size) == (32, 8, 8)
    assert STANDARD.full_mask == (1 << 52) - 1
    assert DUTCH.full_mask == (1 << 32) - 1
    assert STANDARD.suit_mask(cards.HEARTS) == sum(1 << c for c in range(26, 39))
    assert DUTCH.suit_mask(cards.SPADES) == sum(1 << c for c in range(24, 32))
    assert sum(STANDARD.suit_mask(s) for s in range(4)) == STANDARD.full_mask
    assert STANDARD.card(cards.SPADES, "Q") == 49
    assert STANDARD.card(cards.SPADES, 10) == 49  # rank index into RANKS
    assert DUTCH.card(cards.CLUBS, "7") == 0
    assert DUTCH.card(cards.SPADES, "Q") == 29
    assert STANDARD.suit_of(49) == cards.SPADES and STANDARD.rank_of(49) == cards.RANKS.index("Q")
    assert DUTCH.suit_of(29) == cards.SPADES and DUTCH.rank_of(29) == cards.RANKS.index("Q")
    assert DUTCH.rank_of(0) == cards.RANKS.index("7")
    assert get_deck("dutch") is DUTCH and get_deck(STANDARD) is STANDARD


def test_each_suit_is_a_contiguous_rank_ordered_block():
    for deck in (STANDARD, DUTCH):
        for suit in range(4):
            ids = mask_to_cards(deck.suit_mask(suit))
            assert ids == list(range(ids[0], ids[0] + deck.ranks_per_suit))
            assert [deck.rank_of(c) for c in ids] == list(range(deck.lowest_rank, 13))
            assert {deck.suit_of(c) for c in ids} == {suit}


# --- parsing lists, masks ------------------------------------------------------------------------


def test_parse_cards_accepts_strings_commas_and_iterables():
    assert parse_cards("QS TD 2C") == [49, 21, 0]
    assert parse_cards("QS,TD, 2C") == [49, 21, 0]
    assert parse_cards(["QS", 21, "2♣"]) == [49, 21, 0]
    assert parse_cards("") == []
    assert parse_cards("7C QS", deck="dutch") == [0, 29]


def test_masks():
    ids = [0, 13, 49, 51]
    mask = to_mask(ids)
    assert mask == (1 << 0) | (1 << 13) | (1 << 49) | (1 << 51)
    assert list(iter_cards(mask)) == ids
    assert mask_to_cards(mask) == ids
    assert mask_to_cards(0) == []
    assert to_mask([]) == 0
    assert mask_to_cards(to_mask([51, 0, 13])) == [0, 13, 51]  # ascending
    assert mask_to_cards(STANDARD.full_mask) == list(range(52))


def test_format_cards():
    assert format_cards(to_mask([0, 21, 49])) == "2C TD QS"
    assert format_cards([49, 0]) == "QS 2C"  # an iterable keeps its order
    assert format_cards(to_mask([0, 49]), symbols=True) == "2♣ Q♠"
    assert format_cards(to_mask([0, 29]), "dutch") == "7C QS"
    assert format_cards(0) == ""


# --- OpenSpiel ids ------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "os_id"), [
    ("2C", 0), ("2D", 1), ("2H", 2), ("2S", 3), ("3C", 4), ("QS", 43), ("AC", 48), ("AS", 51), ("JD", 37),
])
def test_openspiel_ids(name, os_id):
    # OpenSpiel id = rank * 4 + suit, ranks 2..A = 0..12, suits C, D, H, S
    assert to_openspiel(card_id(name)) == os_id
    assert from_openspiel(os_id) == card_id(name)


def test_openspiel_mapping_is_a_bijection_both_ways():
    for card in range(52):
        rank, suit = STANDARD.rank_of(card), STANDARD.suit_of(card)
        assert to_openspiel(card) == rank * 4 + suit
        assert from_openspiel(to_openspiel(card)) == card
    assert sorted(to_openspiel(c) for c in range(52)) == list(range(52))
    for os_id in range(52):
        assert to_openspiel(from_openspiel(os_id)) == os_id


def test_openspiel_mapping_on_the_dutch_deck():
    # the Dutch cards keep their real ranks: 7♣ is OpenSpiel's 7♣ (rank 5 * 4 + 0)
    assert to_openspiel(0, "dutch") == 20
    assert to_openspiel(29, "dutch") == 43  # Q♠
    for card in range(32):
        assert from_openspiel(to_openspiel(card, "dutch"), "dutch") == card
    with pytest.raises(CardError, match="not in the dutch deck"):
        from_openspiel(0, "dutch")  # 2♣


@pytest.mark.parametrize("bad", [-1, 52, 100])
def test_from_openspiel_rejects_ids_outside_0_51(bad):
    with pytest.raises(CardError, match=r"0\.\.51"):
        from_openspiel(bad)


@pytest.mark.parametrize(("bad", "deck"), [(-1, "standard"), (52, "standard"), (32, "dutch")])
def test_to_openspiel_rejects_ids_outside_the_deck(bad, deck):
    # BUG (src): to_openspiel does not validate, e.g. to_openspiel(52) returns 4 and
    # to_openspiel(-1) returns 47, silently mapping garbage onto real OpenSpiel cards.
    with pytest.raises(CardError, match=f"0..{get_deck(deck).size - 1}"):
        to_openspiel(bad, deck)


# --- errors --------------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["", "Q", "S", "1S", "QX", "QQS", "11H", "ZS", "Q S", "♠Q", "2CC"])
def test_bad_names_raise_card_error_naming_valid_ranks_and_suits(bad):
    with pytest.raises(CardError) as info:
        card_id(bad)
    message = str(info.value)
    assert repr(bad) in message
    assert "QS" in message or "23456789TJQKA" in message


def test_bad_name_message_lists_ranks_and_suits():
    with pytest.raises(CardError, match="23456789TJQKA") as info:
        card_id("XS")
    assert "CDHS" in str(info.value) and "♣♦♥♠" in str(info.value)


@pytest.mark.parametrize("bad", [49, None, 4.0, b"QS"])
def test_card_id_needs_a_string(bad):
    with pytest.raises(CardError, match="must be a string"):
        card_id(bad)


@pytest.mark.parametrize("name", ["2C", "6H", "2S"])
def test_ranks_missing_from_the_dutch_deck(name):
    with pytest.raises(CardError, match="789TJQKA"):
        card_id(name, deck="dutch")


@pytest.mark.parametrize(("bad", "deck", "allowed"), [
    (-1, "standard", "0..51"), (52, "standard", "0..51"), (32, "dutch", "0..31"), ("QS", "standard", "0..51"),
    (None, "standard", "0..51"), (1.0, "standard", "0..51"),
])
def test_card_name_rejects_bad_ids_naming_the_range(bad, deck, allowed):
    with pytest.raises(CardError, match=allowed.replace(".", r"\.")):
        card_name(bad, deck)


def test_parse_cards_validates_ids_and_names():
    with pytest.raises(CardError, match=r"0\.\.51"):
        parse_cards([52])
    with pytest.raises(CardError, match=r"0\.\.31"):
        parse_cards([40], deck="dutch")
    with pytest.raises(CardError):
        parse_cards("QS XX")


def test_unknown_deck_lists_the_decks():
    with pytest.raises(CardError, match="standard, dutch"):
        get_deck("tarot")
    with pytest.raises(CardError, match="standard, dutch"):
        card_id("QS", deck="tarot")


def test_card_error_is_a_value_error():
    assert issubclass(CardError, ValueError)


def test_card_name_takes_numpy_integers_and_refuses_what_is_not_an_integer():
    """NumPy integers are the normal case (np.flatnonzero(mask)); bools and floats are not card ids."""
    import numpy as np

    assert card_name(np.int64(49)) == "QS" and card_name(np.uint8(0), symbols=True) == "2♣"
    for bad in (True, np.bool_(True), 3.0):
        with pytest.raises(CardError, match="not an integer"):
            card_name(bad)
    for bad in (52, np.int64(-1)):
        with pytest.raises(CardError, match="outside the standard deck"):
            card_name(bad)
