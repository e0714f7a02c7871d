"""Scenario tests: every rule and edge case of docs/rules.md ("Exact play rules", "Choices where the sources
are silent"; and each preset's differences) on explicit deals, with exact legal sets, trick winners and points.

Hands are written per seat; cards are named as in hearts_env.cards ("QS", "TD", "2C").
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from hearts_env.cards import CardError, card_id, format_cards, parse_cards, to_mask
from hearts_env.engine import Deal, DealError, IllegalActionError, Phase, mask_points
from hearts_env.rules import make_rules

# --- deals --------------------------------------------------------------------------------------

# Seat 0 holds every club, seat 1 every diamond, seat 2 every heart, seat 3 every spade. Whoever leads
# always leads their own suit and nobody else can follow, so the first leader wins all 13 tricks.
SUITS = [
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
]

# Every seat holds every suit: low cards at seat 0, high cards at seat 3.
LADDER = [
    "2C 3C 4C 5C 2D 3D 4D 2H 3H 4H 2S 3S 4S",
    "6C 7C 8C 9C 5D 6D 7D 5H 6H 7H 5S 6S 7S",
    "TC JC QC 8D 9D TD JD 8H 9H TH 8S 9S TS",
    "KC AC QD KD AD JH QH KH AH JS QS KS AS",
]

# Seat 1 is void in clubs and holds Q♠; seat 3 holds the high clubs and the high hearts.
VOID = [
    "2C 3C 4C 5C 6C 2D 3D 2H 3H 2S 3S 4S 5S",
    "4D 5D 6D 7D 8D 4H 5H 6H QS 6S 7S 8S 9S",
    "7C 8C 9C TC 9D TD JD 7H 8H 9H TS JS KS",
    "JC QC KC AC QD KD AD TH JH QH KH AH AS",
]

# Seat 0 holds every club; seat 1 holds only Q♠ and hearts; seat 2 only diamonds and A♥.
ONLY_POINTS = [
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    "QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
    "AH 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
    "AD 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS",
]

# Seat 1 wins trick 1 with A♣ and is then left with Q♠ and hearts only (hearts unbroken).
QS_AND_HEARTS = [
    "2C 3C 4C 5C 2D 3D 4D 5D 6D 2S 3S 4S 5S",
    "AC QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH",
    "6C 7C 8C 9C TC 7D 8D 9D TD JD 6S 7S 8S",
    "JC QC KC QD KD AD KH AH 9S TS JS KS AS",
]

# Seat 1 wins trick 1 with A♣ and is then left with hearts only (hearts unbroken).
ONLY_HEARTS = [
    "2C 3C 4C 5C 2D 3D 4D 5D 6D 2S 3S 4S 5S",
    "AC 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
    "6C 7C 8C 9C TC 7D 8D 9D TD JD 6S 7S 8S",
    "JC QC KC QD KD AD AH QS 9S TS JS KS AS",
]

# A whole deal under OpenSpiel's rules (Q♠ breaks hearts), every trick written out below. Seat 0 takes
# J♦ (trick 2), seat 1 Q♠ and one heart, seat 2 twelve hearts, seat 3 no trick at all.
FULL = [
    "2C 3C TC QC 6D QD AD 3H 6H 8H 3S 9S KS",
    "4C JC KC 2D 4D 7D 8D 4H 7H 9H 4S TS AS",
    "5C 8C AC 3D 9D KD JH QH KH AH 2S 5S 7S",
    "6C 7C 9C 5D TD JD 2H 5H TH 6S 8S JS QS",
]
FULL_TRICKS = [  # (cards in play order, leader, winner, penalty points)
    ("2C KC 5C 6C", 0, 1, 0),
    ("2D 3D JD AD", 1, 0, 0),
    ("3C 4C AC 7C", 0, 2, 0),
    ("2S QS 3S AS", 2, 1, 13),
    ("4D KD 5D 6D", 1, 2, 0),
    ("AH 2H 3H 4H", 2, 2, 4),
    ("KH 5H 6H 7H", 2, 2, 4),
    ("8C 9C TC JC", 2, 1, 0),
    ("4S 5S 6S KS", 1, 0, 0),
    ("QD 8D 9D TD", 0, 0, 0),
    ("8H 9H QH TH", 0, 2, 4),
    ("7S 8S 9S TS", 2, 1, 0),
    ("7D JH JS QC", 1, 1, 1),
]
FULL_PLAYS = " ".join(cards for cards, *_ in FULL_TRICKS)

# Seat 0 (leading under left_of_dealer, dealer 3) shoots the moon, but seat 1 takes a trick whose only
# card of value is J♦: seat 1 wins trick 1 with J♦, leads 2♥ into seat 0's A♥ (seat 2 discards Q♠), and
# seat 0 then runs its hearts.
MOON_JD_ELSEWHERE = [
    "2D 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "JD 2H 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC",
    "3D QS KC AC 2S 3S 4S 5S 6S 7S 8S 9S TS",
    "4D 5D 6D 7D 8D 9D TD QD KD AD JS KS AS",
]

# Dutch deck: every seat holds two cards of every suit; the whole deal is written out below.
DUTCH_FULL = [
    "7C TC QD AD 8H TH 8S AS",
    "JC QC 7D KD 9H JH 9S KS",
    "8C KC 8D TD QH AH 7S TS",
    "9C AC 9D JD 7H KH JS QS",
]
DUTCH_TRICKS = [  # (cards, leader, winner, points)
    ("7C JC 8C AC", 0, 3, 2),
    ("7H 8H 9H AH", 3, 2, 4),
    ("7S QS 8S KS", 2, 1, 5),
    ("7D 8D 9D AD", 1, 0, 0),
    ("TH JH QH KH", 0, 3, 4),
    ("9C TC QC KC", 3, 2, 0),
    ("TD JD QD KD", 2, 1, 0),
    ("9S TS JS AS", 1, 0, 0),
]
DUTCH_PLAYS = " ".join(cards for cards, *_ in DUTCH_TRICKS)

# Dutch deck: seat 1 is void in diamonds and holds J♣, hearts and Q♠.
DUTCH_VOID = [
    "7D 8D 9D TD 7C 8C 9C TC",
    "JC QC KC AC 7H 8H QS 7S",
    "JD QD KD AD 9H TH 8S 9S",
    "JH QH KH AH TS JS KS AS",
]

DUTCH_SUITS = [
    "7C 8C 9C TC JC QC KC AC",
    "7D 8D 9D TD JD QD KD AD",
    "7H 8H 9H TH JH QH KH AH",
    "7S 8S 9S TS JS QS KS AS",
]


def names(cards, deck="standard") -> str:
    return format_cards(cards, deck)


def legal(deal: Deal) -> str:
    """The legal cards as sorted names (ids ascending: suit by suit, rank by rank)."""
    return names(deal.legal_cards(), deal.deck)


def seq(text: str) -> list[str]:
    """Card names of a space-separated string, for ``apply_all``."""
    return text.split()


def ids(text: str, deck="standard") -> list[int]:
    return parse_cards(text, deck)


def finish_lowest(deal: Deal) -> Deal:
    """Play the lowest legal card until the deal ends."""
    while not deal.is_over:
        deal.apply(deal.legal_cards()[0])
    return deal


def illegal(deal: Deal, card) -> IllegalActionError:
    """The error of applying ``card`` (a name is converted to its id first)."""
    if isinstance(card, str):
        card = card_id(card, deck=deal.deck)
    with pytest.raises(IllegalActionError) as info:
        deal.apply(card)
    return info.value


def test_the_explicit_deals_are_valid():
    for hands, spec in [(SUITS, "standard"), (LADDER, "standard"), (VOID, "standard"), (ONLY_POINTS, "standard"),
                        (QS_AND_HEARTS, "standard"), (ONLY_HEARTS, "standard"), (FULL, "standard"),
                        (MOON_JD_ELSEWHERE, "standard"), (DUTCH_FULL, "dutch"), (DUTCH_VOID, "dutch"),
                        (DUTCH_SUITS, "dutch")]:
        deal = Deal.from_hands(spec, hands)
        assert sum(h.bit_count() for h in deal.hands) == deal.deck.size
        assert to_mask(range(deal.deck.size)) == deal.hands[0] | deal.hands[1] | deal.hands[2] | deal.hands[3]


# --- opening lead ---------------------------------------------------------------------------------


def test_opening_lead_is_the_two_of_clubs_only():
    deal = Deal.from_hands("standard", VOID)
    assert deal.phase is Phase.PLAY and deal.current == 0 and deal.leader == 0
    assert legal(deal) == "2C"
    error = illegal(deal, "3C")
    assert error.rule == "opening lead" and error.seat == 0 and error.card == card_id("3C")
    assert error.legal == [0]
    assert "2C" in str(error) and "opening lead" in str(error)


@pytest.mark.parametrize("seat", [1, 2, 3])
def test_the_two_of_clubs_holder_leads(seat):
    hands = VOID[-seat:] + VOID[:-seat]  # rotate the hands so that seat `seat` holds 2C
    deal = Deal.from_hands("openspiel", hands)
    assert deal.current == seat and legal(deal) == "2C"


def test_can_lead_any_club():
    deal = Deal.from_hands("openspiel(can_lead_any_club=true)", VOID)
    assert legal(deal) == "2C 3C 4C 5C 6C"
    error = illegal(deal, "2D")
    assert error.rule == "opening lead" and "club" in str(error)
    assert "2C 3C 4C 5C 6C" in str(error)
    deal.apply_all(["6C"])
    assert deal.trick == [card_id("6C")] and deal.current == 1


def test_can_lead_any_club_only_on_the_first_lead():
    deal = Deal.from_hands("openspiel(can_lead_any_club=true)", VOID).apply_all(seq("5C 4D TC AC"))
    assert deal.current == 3  # A♣ won
    assert legal(deal) == "JC QC KC QD KD AD AS"  # an ordinary lead: anything but unbroken hearts


def test_opening_lead_lowest_club_on_the_dutch_deck_is_the_seven():
    deal = Deal.from_hands("dutch(opening_lead=lowest_club)", DUTCH_VOID)
    assert deal.current == 0 and legal(deal) == "7C" and deal.legal_cards() == [0]
    error = illegal(deal, "7D")
    assert error.rule == "opening lead" and "7C" in str(error)
    rotated = Deal.from_hands("dutch(opening_lead=lowest_club)", DUTCH_VOID[1:] + DUTCH_VOID[:1])
    assert rotated.current == 3  # seat 3 now holds 7♣
    any_club = Deal.from_hands("dutch(opening_lead=lowest_club, can_lead_any_club=true)", DUTCH_VOID)
    assert names(any_club.legal_cards(), "dutch") == "7C 8C 9C TC"


@pytest.mark.parametrize(("dealer", "leader"), [(3, 0), (0, 1), (1, 2), (2, 3)])
def test_left_of_dealer_leads_anything(dealer, leader):
    deal = Deal.from_hands("sturtevant", SUITS, dealer=dealer)
    assert deal.dealer == dealer and deal.current == leader and deal.leader == leader
    assert legal(deal) == SUITS[leader]  # hearts and Q♠ included: no restriction at all


def test_left_of_dealer_with_standard_lead_restrictions():
    rules = "standard(opening_lead=left_of_dealer)"
    # seat 2 (dealer 1) holds 3 clubs, 3 diamonds, 4 hearts, 3 spades: no hearts, no Q♠ on trick 1
    deal = Deal.from_hands(rules, FULL, dealer=1)
    assert deal.current == 2 and legal(deal) == "5C 8C AC 3D 9D KD 2S 5S 7S"
    error = illegal(deal, "AH")
    assert error.rule == "no_pts_on_first_trick"
    # seat 3 (dealer 2) holds Q♠: not on trick 1
    deal = Deal.from_hands(rules, FULL, dealer=2)
    assert deal.current == 3 and legal(deal) == "6C 7C 9C 5D TD JD 6S 8S JS"
    # seat 1 of ONLY_POINTS holds Q♠ and hearts only: Q♠ is the only non-heart, hearts are unbroken
    deal = Deal.from_hands(rules, ONLY_POINTS, dealer=0)
    assert deal.current == 1 and legal(deal) == "QS"
    assert illegal(deal, "2H").rule == "no_pts_on_first_trick"
    # ... unless can_lead_hearts_instead_of_qs: then every card
    free = Deal.from_hands("standard(opening_lead=left_of_dealer, can_lead_hearts_instead_of_qs=true)",
                           ONLY_POINTS, dealer=0)
    assert legal(free) == "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH QS"


def test_the_dealer_is_ignored_by_lowest_club():
    for dealer in range(4):
        assert Deal.from_hands("standard", VOID, dealer=dealer).current == 0


# --- following suit, voids, the first trick -----------------------------------------------------------


def test_must_follow_suit():
    deal = Deal.from_hands("standard", VOID).apply_all(["2C", "8D"])
    assert deal.current == 2 and legal(deal) == "7C 8C 9C TC"
    error = illegal(deal, "9D")
    assert error.rule == "follow suit" and error.seat == 2
    assert "clubs" in str(error) and "7C 8C 9C TC" in str(error)
    assert error.legal == ids("7C 8C 9C TC")


def test_must_follow_suit_later_in_the_deal():
    deal = Deal.from_hands("standard", VOID).apply_all(seq("2C 8D TC AC QD"))
    assert deal.current == 0 and legal(deal) == "2D 3D"
    assert illegal(deal, "2S").rule == "follow suit"


def test_void_follower_may_discard_anything_but_points_on_the_first_trick():
    deal = Deal.from_hands("standard", VOID).apply_all(["2C"])
    assert deal.current == 1
    assert legal(deal) == "4D 5D 6D 7D 8D 6S 7S 8S 9S"  # no heart, no Q♠
    error = illegal(deal, "4H")
    assert error.rule == "no_pts_on_first_trick" and "4D 5D 6D 7D 8D 6S 7S 8S 9S" in str(error)
    assert illegal(deal, "QS").rule == "no_pts_on_first_trick"


def test_void_follower_may_discard_anything_without_the_first_trick_rule():
    deal = Deal.from_hands("openspiel(no_pts_on_first_trick=false)", VOID).apply_all(["2C"])
    assert legal(deal) == "4D 5D 6D 7D 8D 4H 5H 6H 6S 7S 8S 9S QS"  # the whole hand
    deal.apply_all(["QS"])  # Q♠ on trick 1 is allowed now
    deal.apply_all(["TC", "AC"])
    assert deal.trick_winners == [3] and deal.penalty_points(3) == 13


def test_void_follower_later_may_discard_anything():
    deal = Deal.from_hands("standard", VOID).apply_all(seq("2C 8D TC AC KC 6C"))
    assert deal.current == 1 and legal(deal) == names(deal.hands[1])  # hearts and Q♠ allowed now


def test_first_trick_allows_points_when_the_hand_holds_nothing_else():
    deal = Deal.from_hands("standard", ONLY_POINTS).apply_all(["2C"])
    assert deal.current == 1
    assert legal(deal) == names(deal.hands[1])  # Q♠ and twelve hearts: all of them
    deal.apply_all(["QS"])
    assert deal.current == 2 and legal(deal) == "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD"  # not A♥
    assert illegal(deal, "AH").rule == "no_pts_on_first_trick"
    deal.apply_all(["KD"])
    assert legal(deal) == names(deal.hands[3])  # A♦ and spades, no Q♠ to bar
    deal.apply_all(["AS"])
    # 2♣ wins: K♦ and A♠ are higher but off-suit
    assert deal.trick_winners == [0] and deal.current == 0 and deal.leader == 0
    assert deal.penalty_points(0) == 13


def test_first_trick_rule_bars_a_scoring_jack_of_clubs():
    rules = "dutch(no_pts_on_first_trick=true)"
    deal = Deal.from_hands(rules, DUTCH_VOID)
    assert deal.current == 0 and names(deal.legal_cards(), "dutch") == "7C 8C 9C TC 7D 8D 9D TD"
    deal.apply_all(["7D"])
    assert names(deal.legal_cards(), "dutch") == "QC KC AC 7S"  # no J♣ (2 points), hearts or Q♠
    error = illegal(deal, "JC")
    assert error.rule == "no_pts_on_first_trick" and "QC KC AC 7S" in str(error)
    # without J♣ points, J♣ is an ordinary card
    deal = Deal.from_hands("dutch(no_pts_on_first_trick=true, jack_of_clubs_points=0)", DUTCH_VOID).apply_all(["7D"])
    assert names(deal.legal_cards(), "dutch") == "JC QC KC AC 7S"
    # the Dutch preset itself has no first-trick rule
    deal = Deal.from_hands("dutch", DUTCH_VOID).apply_all(["7D"])
    assert deal.legal_mask() == deal.hands[1]


def test_first_trick_lead_may_not_be_a_scoring_jack_of_clubs():
    hands = [DUTCH_VOID[1], DUTCH_VOID[2], DUTCH_VOID[3], DUTCH_VOID[0]]  # seat 0 holds J♣, hearts, Q♠
    deal = Deal.from_hands("dutch(no_pts_on_first_trick=true)", hands)
    assert names(deal.legal_cards(), "dutch") == "QC KC AC 7S"
    deal = Deal.from_hands("dutch", hands)
    assert deal.legal_mask() == deal.hands[0]


# --- trick winners ------------------------------------------------------------------------------------


def test_trick_goes_to_the_highest_card_of_the_led_suit():
    deal = Deal.from_hands("standard", VOID).apply_all(["2C", "9S", "7C", "JC"])
    assert deal.trick_winners == [3] and deal.current == 3 and deal.leader == 3
    assert deal.tricks_won == [0, 0, 0, 1]
    assert deal.taken[3] == to_mask(ids("2C 9S 7C JC"))
    assert deal.trick == [] and deal.trick_index == 1


def test_off_suit_cards_never_win():
    deal = Deal.from_hands("sturtevant", SUITS, dealer=3).apply_all(["2C", "AD", "AH", "AS"])
    assert deal.trick_winners == [0]  # 2♣ beats three aces of other suits
    assert deal.points_taken(0) == 1


def test_winner_leads_the_next_trick():
    deal = Deal.from_hands("openspiel", FULL)
    for number, (cards, leader, winner, _points) in enumerate(FULL_TRICKS):
        assert deal.current == leader and deal.leader == leader and deal.trick_index == number
        deal.apply_all(cards.split())
        assert deal.trick_winners[-1] == winner
    assert deal.trick_winners == [w for *_, w, _ in FULL_TRICKS]


# --- leading hearts -----------------------------------------------------------------------------------


def test_hearts_cannot_be_led_until_broken():
    deal = Deal.from_hands("standard", VOID).apply_all(seq("2C 8D TC AC"))
    assert deal.current == 3 and not deal.hearts_broken
    assert legal(deal) == "JC QC KC QD KD AD AS"
    error = illegal(deal, "TH")
    assert error.rule == "must_break_hearts" and "JC QC KC QD KD AD AS" in str(error)
    assert "broken" in str(error)


def test_a_heart_discard_breaks_hearts():
    deal = Deal.from_hands("standard", VOID).apply_all(seq("2C 8D TC AC KC 6C"))
    deal.apply_all(["4H"])  # seat 1 is void in clubs
    assert deal.hearts_broken
    deal.apply_all(["9C"])
    assert deal.trick_winners == [3, 3] and deal.penalty_points(3) == 1
    assert legal(deal) == names(deal.hands[3])  # hearts may be led now
    assert "TH" in legal(deal)
    deal.apply_all(["TH"])
    assert deal.trick == [card_id("TH")]


@pytest.mark.parametrize(("spec", "broken"), [("openspiel", True), ("standard", False),
                                             ("openspiel(qs_breaks_hearts=false)", False),
                                             ("standard(qs_breaks_hearts=true)", True)])
def test_queen_of_spades_breaks_hearts_only_with_qs_breaks_hearts(spec, broken):
    deal = Deal.from_hands(spec, VOID).apply_all(seq("2C 8D TC AC KC 6C QS 9C"))
    assert deal.trick_winners == [3, 3] and deal.penalty_points(3) == 13
    assert deal.hearts_broken is broken
    if broken:
        assert legal(deal) == "JC QC QD KD AD TH JH QH KH AH AS"
    else:
        assert legal(deal) == "JC QC QD KD AD AS"
        assert illegal(deal, "AH").rule == "must_break_hearts"


def test_full_deal_shows_the_standard_and_openspiel_difference():
    # trick 6 of FULL leads A♥ right after Q♠ fell: legal under OpenSpiel, not under the standard preset
    plays = " ".join(cards for cards, *_ in FULL_TRICKS[:5]).split()
    openspiel = Deal.from_hands("openspiel", FULL).apply_all(plays)
    standard = Deal.from_hands("standard", FULL).apply_all(plays)
    assert openspiel.current == standard.current == 2
    assert openspiel.hearts_broken and not standard.hearts_broken
    assert legal(openspiel) == "8C 9D JH QH KH AH 5S 7S"
    assert legal(standard) == "8C 9D 5S 7S"
    assert illegal(standard, "AH").rule == "must_break_hearts"
    openspiel.apply_all(["AH"])


def test_leader_with_only_hearts_may_lead_them_unbroken():
    deal = Deal.from_hands("standard", ONLY_HEARTS).apply_all(seq("2C AC 6C JC"))
    assert deal.current == 1 and not deal.hearts_broken
    assert legal(deal) == "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
    deal.apply_all(["2H"])
    assert deal.hearts_broken


def test_leader_with_only_queen_of_spades_and_hearts_must_lead_the_queen():
    deal = Deal.from_hands("openspiel", QS_AND_HEARTS).apply_all(seq("2C AC 6C JC"))
    assert deal.current == 1 and not deal.hearts_broken
    assert legal(deal) == "QS"
    error = illegal(deal, "2H")
    assert error.rule == "must_break_hearts" and "legal cards: QS" in str(error)


def test_can_lead_hearts_instead_of_qs():
    deal = Deal.from_hands("openspiel(can_lead_hearts_instead_of_qs=true)", QS_AND_HEARTS)
    deal.apply_all(seq("2C AC 6C JC"))
    assert legal(deal) == "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH QS"  # every card, Q♠ included
    deal.apply_all(["5H"])
    assert deal.hearts_broken


def test_can_lead_hearts_instead_of_qs_needs_the_queen_to_be_the_only_non_heart():
    # the flag changes nothing when the leader holds other non-hearts
    deal = Deal.from_hands("openspiel(can_lead_hearts_instead_of_qs=true)", VOID).apply_all(seq("2C 8D TC AC"))
    assert legal(deal) == "JC QC KC QD KD AD AS"


def test_hearts_may_be_led_any_time_without_must_break_hearts():
    deal = Deal.from_hands("openspiel(must_break_hearts=false)", QS_AND_HEARTS)
    assert deal.hearts_broken  # nothing to break
    deal.apply_all(seq("2C AC 6C JC"))
    assert legal(deal) == names(deal.hands[1])
    deal = Deal.from_hands("openspiel(must_break_hearts=false)", VOID).apply_all(seq("2C 8D TC AC"))
    assert legal(deal) == "JC QC KC QD KD AD TH JH QH KH AH AS"


def test_must_break_hearts_false_keeps_the_first_trick_rule():
    deal = Deal.from_hands("openspiel(must_break_hearts=false)", VOID).apply_all(["2C"])
    assert legal(deal) == "4D 5D 6D 7D 8D 6S 7S 8S 9S"


# --- passing ---------------------------------------------------------------------------------------

PASSES = ["2C 3C 4C", "6C 7C 8C", "TC JC QC", "KC AC AS"]


@pytest.mark.parametrize(("direction", "offset"), [("left", 1), ("across", 2), ("right", 3)])
def test_passes_reach_the_right_seat_only_after_the_last_pass(direction, offset):
    deal = Deal.from_hands("standard", LADDER, pass_direction=direction)
    dealt = [to_mask(ids(h)) for h in LADDER]
    assert deal.phase is Phase.PASS and deal.pass_direction == offset and deal.pass_direction_name == direction
    for seat in range(4):
        assert deal.pass_target(seat) == (seat + offset) % 4
        assert deal.pass_source((seat + offset) % 4) == seat
    for seat, cards in enumerate(PASSES):
        for n, card in enumerate(cards.split()):
            assert deal.current == seat and deal.phase is Phase.PASS  # seats pass in order 0, 1, 2, 3
            assert deal.legal_mask() == dealt[seat] & ~to_mask(ids(" ".join(cards.split()[:n])))
            deal.apply(card_id(card))
            if (seat, n) != (3, 2):
                assert deal.hands == dealt  # nothing moves before the last pass
                assert all(deal.received(s) == 0 for s in range(4))
                assert not deal.passes_complete()
    assert deal.passes_complete() and deal.phase is Phase.PLAY
    for seat in range(4):
        source = (seat - offset) % 4
        got = to_mask(ids(PASSES[source]))
        gave = to_mask(ids(PASSES[seat]))
        assert deal.received(seat) == got
        assert deal.passed[seat] == gave
        assert deal.hands[seat] == (dealt[seat] & ~gave) | got
    holder = offset % 4  # seat 0 passed 2♣ to seat `offset`
    assert deal.current == holder and deal.leader == holder and legal(deal) == "2C"


def test_hold_skips_passing():
    deal = Deal.from_hands("standard", LADDER, pass_direction="hold")
    assert deal.phase is Phase.PLAY and deal.pass_direction == 0 and deal.current == 0
    assert all(deal.received(s) == 0 for s in range(4))
    assert Deal.from_hands("standard", LADDER, pass_direction=0).phase is Phase.PLAY
    assert Deal.from_hands("standard", LADDER, pass_direction="none").phase is Phase.PLAY


def test_pass_direction_offsets():
    for direction, offset in [("hold", 0), ("left", 1), ("across", 2), ("right", 3)]:
        assert Deal.from_hands("standard", LADDER, pass_direction=offset).pass_direction_name == direction


def test_pass_errors():
    deal = Deal.from_hands("standard", LADDER, pass_direction="left").apply_all(["2C"])
    error = illegal(deal, "2C")
    assert error.rule == "pass" and "already chosen" in str(error) and error.seat == 0
    assert "3C 4C 5C" in str(error)
    error = illegal(deal, "AS")
    assert error.rule == "pass" and "not in the hand" in str(error)


def test_pass_count_option():
    deal = Deal.from_hands("standard(pass_count=1)", LADDER, pass_direction="across")
    deal.apply_all(["2C", "6C", "TC", "KC"])
    assert deal.phase is Phase.PLAY and deal.current == 2  # 2♣ went across
    assert deal.received(2) == to_mask([card_id("2C")])


def test_passed_cards_are_playable_by_the_receiver():
    deal = Deal.from_hands("standard", LADDER, pass_direction="left").apply_all(" ".join(PASSES).split())
    deal.apply_all(["2C"])  # seat 1 leads the 2♣ it received
    assert deal.played_by[1] == 1 and deal.current == 2


def test_playout_completes_the_passes():
    deal = Deal.from_hands("standard", LADDER, pass_direction="right").apply_all(["2C", "3C"])
    deal.playout(1)
    assert deal.is_over and deal.passed[0] & to_mask(ids("2C 3C")) == to_mask(ids("2C 3C"))
    assert sum(p.bit_count() for p in deal.passed) == 12


# --- scoring ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("spec", "points"), [
    ("openspiel", [0, 14, 12, 0]),
    ("openspiel(jd_bonus=true)", [-10, 14, 12, 0]),
    ("openspiel(avoid_all_tricks_bonus=true)", [0, 14, 12, -5]),
    ("openspiel(jd_bonus=true, avoid_all_tricks_bonus=true)", [-10, 14, 12, -5]),
    ("openspiel(jd_bonus=true, jd_bonus_points=3, avoid_all_tricks_bonus=true, avoid_all_tricks_points=2)",
     [-3, 14, 12, -2]),
    ("openspiel(heart_points=2, queen_of_spades_points=10)", [0, 12, 24, 0]),
    ("openspiel(moon=off)", [0, 14, 12, 0]),
])
def test_full_deal_points(spec, points):
    deal = Deal.from_hands(spec, FULL).apply_all(FULL_PLAYS.split())
    assert deal.is_over and deal.phase is Phase.DONE and deal.current_or_none is None
    assert deal.points == points
    assert deal.moon_shooter is None
    assert deal.tricks_won == [3, 5, 5, 0]
    if "heart_points" not in spec:
        assert [deal.penalty_points(s) for s in range(4)] == [0, 14, 12, 0]
    assert deal.legal_cards() == [] and deal.legal_mask() == 0


def test_full_deal_trick_points_and_taken_cards():
    deal = Deal.from_hands("openspiel", FULL)
    for cards, _leader, winner, points in FULL_TRICKS:
        before = deal.penalty_points(winner)
        deal.apply_all(cards.split())
        assert deal.penalty_points(winner) - before == points
    assert deal.taken[3] == 0
    assert deal.taken[0] == to_mask(ids("2D 3D JD AD 4S 5S 6S KS QD 8D 9D TD"))
    assert deal.points_taken(0) == 0
    jd = Deal.from_hands("openspiel(jd_bonus=true)", FULL).apply_all(FULL_PLAYS.split())
    assert jd.points_taken(0) == -10 and jd.penalty_points(0) == 0
    assert mask_points(jd.rules, to_mask(ids("2D 3D JD AD"))) == -10
    assert mask_points(jd.rules, to_mask(ids("2S QS 3S AS"))) == 13
    assert mask_points(deal.rules, to_mask(ids("JD QS 2H"))) == 14


@pytest.mark.parametrize(("spec", "points", "shooter"), [
    ("standard", [0, 26, 26, 26], 0),
    ("openspiel", [0, 26, 26, 26], 0),
    ("standard(moon=add_to_others)", [0, 26, 26, 26], 0),
    ("standard(moon=subtract_from_shooter)", [-26, 0, 0, 0], 0),
    ("standard(moon=off)", [26, 0, 0, 0], None),
    # OpenSpiel's moon semantics with jd_bonus: the shooter who took J♦ scores 0 - 10
    ("openspiel(jd_bonus=true)", [-10, 26, 26, 26], 0),
    ("standard(jd_bonus=true, moon=subtract_from_shooter)", [-36, 0, 0, 0], 0),
    ("standard(jd_bonus=true, moon=off)", [16, 0, 0, 0], None),
    # no avoid-all-tricks bonus on a moon deal, even though seats 1-3 took no trick
    ("openspiel(avoid_all_tricks_bonus=true)", [0, 26, 26, 26], 0),
    ("standard(avoid_all_tricks_bonus=true, moon=subtract_from_shooter)", [-26, 0, 0, 0], 0),
    # with the moon off there is no moon deal: the bonus applies
    ("openspiel(avoid_all_tricks_bonus=true, moon=off)", [26, -5, -5, -5], None),
    ("standard(heart_points=2)", [0, 39, 39, 39], 0),
    ("standard(jack_of_clubs_points=2)", [0, 28, 28, 28], 0),
    ("standard(king_of_spades_points=10, ace_of_spades_points=7)", [0, 43, 43, 43], 0),
])
def test_moon_modes(spec, points, shooter):
    deal = finish_lowest(Deal.from_hands(spec, SUITS))
    assert deal.tricks_won == [13, 0, 0, 0]
    assert deal.points == points
    assert deal.moon_shooter == shooter


def test_moon_with_jack_of_diamonds_taken_by_another_seat():
    rules = "sturtevant(jd_bonus=true)"
    deal = Deal.from_hands(rules, MOON_JD_ELSEWHERE, dealer=3)
    deal.apply_all(seq("2D JD 3D 4D"))  # seat 0 leads 2♦, seat 1's J♦ wins
    assert deal.trick_winners == [1] and deal.points_taken(1) == -10
    deal.apply_all(seq("2H QS 5D AH"))  # seat 1 leads 2♥, seat 2 sheds Q♠, A♥ wins
    assert deal.trick_winners == [1, 0] and deal.penalty_points(0) == 15
    finish_lowest(deal)
    assert deal.tricks_won == [12, 1, 0, 0]
    assert deal.moon_shooter == 0  # the J♦-only trick does not spoil the moon
    assert deal.points == [0, 16, 26, 26]  # OpenSpiel: seat 1 has -10 + 26
    plain = finish_lowest(Deal.from_hands("sturtevant", MOON_JD_ELSEWHERE).apply_all(seq("2D JD 3D 4D 2H QS 5D AH")))
    assert plain.points == [0, 26, 26, 26] and plain.moon_shooter == 0
    sub = finish_lowest(Deal.from_hands("sturtevant(jd_bonus=true, moon=subtract_from_shooter)",
                                        MOON_JD_ELSEWHERE).apply_all(seq("2D JD 3D 4D 2H QS 5D AH")))
    assert sub.points == [-26, -10, 0, 0]


@pytest.mark.parametrize(("scores", "points"), [
    ((0, 0, 0, 0), [0, 26, 26, 26]),  # adding ends nothing
    ((80, 75, 50, 60), [-26, 0, 0, 0]),  # adding: 80, 101, 76, 86 -> the game ends, seat 2 wins: subtract
    ((50, 75, 80, 90), [0, 26, 26, 26]),  # adding: 50, 101, 106, 116 -> the shooter wins: add
    ((76, 75, 50, 60), [0, 26, 26, 26]),  # adding: 76, 101, 76, 86 -> the shooter shares the win: add
    ((90, 10, 20, 30), [0, 26, 26, 26]),  # adding: 90, 36, 46, 56 -> nobody reaches 100: add
    ((10, 20, 30, 74), [0, 26, 26, 26]),  # adding: 10, 46, 56, 100 -> the game ends, the shooter wins: add
    ((40, 20, 10, 74), [-26, 0, 0, 0]),  # adding: 40, 46, 36, 100 -> the game ends, seat 2 (36) would win
])
def test_shooter_choice(scores, points):
    deal = finish_lowest(Deal.from_hands("standard(moon=shooter_choice)", SUITS, game_scores=scores))
    assert deal.game_scores == scores
    assert deal.moon_shooter == 0 and deal.points == points


def test_shooter_choice_uses_the_target_and_the_game_mode():
    scores = (80, 75, 50, 60)
    high = finish_lowest(Deal.from_hands("standard(moon=shooter_choice, target=200)", SUITS, game_scores=scores))
    assert high.points == [0, 26, 26, 26]
    one_deal = finish_lowest(Deal.from_hands("openspiel(moon=shooter_choice)", SUITS, game_scores=scores))
    assert one_deal.points == [0, 26, 26, 26]  # game="deal": always add


def test_dutch_full_deal():
    deal = Deal.from_hands("dutch", DUTCH_FULL, dealer=3)
    for number, (cards, leader, winner, points) in enumerate(DUTCH_TRICKS):
        assert deal.current == leader and deal.trick_index == number
        if number == 1:
            assert "7H" in names(deal.legal_cards(), "dutch")  # hearts led before any heart fell
        before = deal.penalty_points(winner)
        deal.apply_all(cards.split())
        assert deal.trick_winners[-1] == winner
        assert deal.penalty_points(winner) - before == points
    assert deal.is_over and deal.num_tricks == 8
    assert deal.points == [0, 5, 4, 6] and sum(deal.points) == 15
    assert deal.moon_shooter is None


def test_dutch_moon_gives_the_others_fifteen():
    deal = finish_lowest(Deal.from_hands("dutch", DUTCH_SUITS, dealer=3))
    assert deal.tricks_won == [8, 0, 0, 0]
    assert deal.moon_shooter == 0 and deal.points == [0, 15, 15, 15]


def test_dutch_moon_needs_the_jack_of_clubs():
    # seat 1 wins trick 1 with J♣ (2 points); seat 0 then takes every heart and Q♠: no moon
    hands = ["9C TC QC KC AC AD KS AS", "JC 7D 8D 9D TD JD QD KD",
             "7C 7H 8H 9H TH JH QH KH", "8C AH 7S 8S 9S TS JS QS"]
    deal = Deal.from_hands("dutch", hands, dealer=0)
    assert deal.current == 1
    deal.apply_all(["JC", "7C", "8C", "9C"])
    assert deal.trick_winners == [1] and deal.penalty_points(1) == 2
    deal.apply_all(["7D", "7H", "QS", "AD"])
    assert deal.trick_winners == [1, 0] and deal.penalty_points(0) == 6
    finish_lowest(deal)
    assert deal.tricks_won == [7, 1, 0, 0]
    assert deal.moon_shooter is None and deal.points == [13, 2, 0, 0]
    # when J♣ scores nothing, the same play is a moon (13 points a deal)
    free = Deal.from_hands("dutch(jack_of_clubs_points=0)", hands, dealer=0)
    finish_lowest(free.apply_all(seq("JC 7C 8C 9C 7D 7H QS AD")))
    assert free.moon_shooter == 0 and free.points == [0, 13, 13, 13]


# --- illegal inputs ----------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [-1, 52, 1000, "QS", None, True, False, 3.0, np.bool_(True), [0]])
def test_non_card_inputs_raise_clearly(bad):
    deal = Deal.from_hands("standard", VOID)
    with pytest.raises(IllegalActionError) as info:
        deal.apply(bad)  # apply takes ids only: a name is rejected too (apply_all parses names)
    error = info.value
    assert error.rule == "not a card"
    assert "0..51" in str(error) and "legal now: 2C" in str(error)
    assert error.legal == [0] and error.card is bad and error.seat == 0
    assert deal.history == []  # nothing changed


def test_numpy_integers_are_accepted():
    deal = Deal.from_hands("standard", VOID)
    deal.apply(np.int64(0))
    deal.apply(np.int32(card_id("8D")))
    assert deal.history == [0, card_id("8D")]


def test_non_card_inputs_on_the_dutch_deck():
    deal = Deal.from_hands("dutch", DUTCH_VOID)
    error = illegal(deal, 32)
    assert error.rule == "not a card" and "0..31" in str(error)


def test_a_card_not_in_the_hand():
    deal = Deal.from_hands("standard", VOID).apply_all(["2C"])
    error = illegal(deal, "7C")  # seat 2's club, seat 1 to play
    assert error.rule == "in hand" and error.seat == 1 and "not in the hand" in str(error)
    deal.apply_all(["8D", "TC", "AC"])
    assert illegal(deal, "2C").rule == "in hand"  # already played


def test_playing_after_the_deal_is_over():
    deal = finish_lowest(Deal.from_hands("standard", SUITS))
    error = illegal(deal, 0)
    assert error.rule == "deal over" and error.legal == [] and error.seat is None
    assert "over" in str(error)
    assert illegal(deal, 52).rule == "not a card"


def test_apply_all_accepts_names_and_ids_and_rejects_bad_names():
    deal = Deal.from_hands("standard", VOID).apply_all([0, "8D", card_id("TC")])
    assert deal.history == ids("2C 8D TC")
    with pytest.raises(CardError):
        deal.apply_all(["XX"])


def test_illegal_action_error_is_a_value_error():
    assert issubclass(IllegalActionError, ValueError)
    assert issubclass(DealError, ValueError)


# --- bad explicit deals ---------------------------------------------------------------------------


def test_deal_needs_four_hands():
    with pytest.raises(DealError, match="4 hands, got 3"):
        Deal.from_hands("standard", LADDER[:3])


def test_hand_sizes():
    with pytest.raises(DealError, match="hand 0 has 12 cards; each hand needs 13"):
        Deal.from_hands("standard", [LADDER[0][3:], *LADDER[1:]])
    with pytest.raises(DealError, match="hand 2 has 14 cards"):
        Deal.from_hands("standard", [LADDER[0], LADDER[1], LADDER[2] + " 2C", LADDER[3]])
    with pytest.raises(DealError, match="each hand needs 8"):
        Deal.from_hands("dutch", [DUTCH_VOID[0] + " JC", *DUTCH_VOID[1:]])


def test_duplicates_in_a_hand():
    with pytest.raises(DealError, match="hand 1 lists a card twice"):
        Deal.from_hands("standard", [LADDER[0], "6C 6C 7C 8C 9C 5D 6D 7D 5H 6H 7H 5S 6S", *LADDER[2:]])


def test_overlapping_hands():
    swapped = [LADDER[0], LADDER[1].replace("6C", "2C"), *LADDER[2:]]
    with pytest.raises(DealError, match="hand 1 repeats cards held by another hand: 2C"):
        Deal.from_hands("standard", swapped)


def test_masks_and_lists_as_hands():
    masks = [to_mask(ids(h)) for h in LADDER]
    assert Deal.from_hands("standard", masks).dealt == tuple(masks)
    assert Deal.from_hands("standard", [ids(h) for h in LADDER]).dealt == tuple(masks)
    assert Deal.from_hands("standard", [h.split() for h in LADDER]).dealt == tuple(masks)
    with pytest.raises(DealError, match="outside the standard deck"):
        Deal.from_hands("standard", [masks[0] | 1 << 52, *masks[1:]])
    with pytest.raises(DealError, match="outside"):
        Deal.from_hands("standard", [-1, *masks[1:]])
    with pytest.raises(DealError, match="hand 0 has"):
        Deal.from_hands("standard", [masks[0] >> 1, *masks[1:]])


def test_cards_outside_the_dutch_deck():
    with pytest.raises(CardError, match="789TJQKA"):
        Deal.from_hands("dutch", ["2C 8C 9C TC 7D 8D 9D TD", *DUTCH_VOID[1:]])


def test_pass_direction_needs_passing():
    with pytest.raises(DealError, match="no passing") as info:
        Deal.from_hands("sturtevant", SUITS, pass_direction="left")
    assert "hold" in str(info.value)
    with pytest.raises(DealError, match="no passing"):
        Deal.from_hands("dutch", DUTCH_SUITS, pass_direction=2)
    assert Deal.from_hands("sturtevant", SUITS, pass_direction="hold").phase is Phase.PLAY


@pytest.mark.parametrize("direction", ["up", "clockwise", 4, -1])
def test_bad_pass_direction(direction):
    with pytest.raises(DealError) as info:
        Deal.from_hands("standard", LADDER, pass_direction=direction)
    assert "left" in str(info.value) or "0..3" in str(info.value)


@pytest.mark.parametrize("dealer", [4, -1])
def test_bad_dealer(dealer):
    with pytest.raises(DealError, match=r"dealer must be a seat 0\.\.3"):
        Deal.from_hands("standard", LADDER, dealer=dealer)


def test_rules_may_be_a_spec_string_or_an_object():
    rules = make_rules("openspiel(jd_bonus=true)")
    assert Deal.from_hands(rules, FULL).rules is rules
    assert Deal.from_hands("openspiel(jd_bonus=true)", FULL).rules == rules


# --- clones, pickles, events -----------------------------------------------------------------------


def test_clone_is_independent():
    deal = Deal.from_hands("standard", LADDER, pass_direction="left").apply_all(" ".join(PASSES).split())
    deal.apply_all(["2C", "6C"])  # seat 1 leads the 2♣ it received, seat 2 follows with a received club
    copy = deal.clone()
    snapshot = (list(deal.hands), list(deal.trick), list(deal.history), deal.legal_mask(), list(deal.played_by))
    finish_lowest(copy)
    assert copy.is_over and not deal.is_over
    assert (deal.hands, deal.trick, deal.history, deal.legal_mask(), deal.played_by) == snapshot
    assert deal.taken == [0, 0, 0, 0] and deal.points is None
    other = deal.clone()
    deal.apply(deal.legal_cards()[-1])
    assert other.history == snapshot[2] and other.trick == snapshot[1]
    finish_lowest(deal)
    finish_lowest(other)
    assert deal.history != other.history  # they diverged at the third card


def test_clone_of_a_finished_deal():
    deal = finish_lowest(Deal.from_hands("openspiel(jd_bonus=true)", FULL))
    copy = deal.clone()
    assert copy.points == deal.points and copy.points is not deal.points
    copy.points[0] = 999
    assert deal.points[0] != 999


@pytest.mark.parametrize("cut", [0, 5, 14, 30, 52])
def test_pickled_deal_continues_identically(cut):
    deal = Deal.from_hands("openspiel(jd_bonus=true)", FULL).apply_all(FULL_PLAYS.split()[:cut])
    again = pickle.loads(pickle.dumps(deal))
    for name in Deal.__slots__:
        if name != "_c":
            assert getattr(again, name) == getattr(deal, name), name
    assert again.legal_cards() == deal.legal_cards()
    rest = FULL_PLAYS.split()[cut:]
    deal.apply_all(rest)
    again.apply_all(rest)
    assert again.points == deal.points == [-10, 14, 12, 0]


def test_pickle_during_passing():
    deal = Deal.from_hands("standard", LADDER, pass_direction="across").apply_all(["2C", "3C"])
    again = pickle.loads(pickle.dumps(deal))
    assert again.phase is Phase.PASS and again.current == 0 and again.legal_mask() == deal.legal_mask()
    again.apply_all(["4C", *" ".join(PASSES[1:]).split()])
    assert again.current == 2  # 2♣ went across


def test_events_of_a_passing_deal():
    deal = Deal.from_hands("standard", LADDER, pass_direction="left")
    deal.apply_all(" ".join(PASSES).split())
    deal.apply_all(["2C", "6C", "TC", "5C"])  # seat 1 leads the 2♣ it received; seat 3's T♣ wins
    events = deal.events()
    kinds = [e.kind for e in events]
    assert kinds == ["deal"] + ["pass"] * 12 + ["receive"] * 4 + ["play"] * 4 + ["trick"]
    first = events[0]
    assert first.get("hands") == deal.dealt and first.get("pass_direction") == "left" and first.get("dealer") == 3
    passes = events[1:13]
    assert [e.seat for e in passes] == [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]
    assert [e.cards[0] for e in passes] == ids(" ".join(PASSES))
    assert [e.get("to") for e in passes] == [1, 1, 1, 2, 2, 2, 3, 3, 3, 0, 0, 0]
    receives = events[13:17]
    assert [e.seat for e in receives] == [0, 1, 2, 3]
    assert [e.get("from") for e in receives] == [3, 0, 1, 2]
    assert [sorted(e.cards) for e in receives] == [sorted(ids(PASSES[s])) for s in (3, 0, 1, 2)]
    plays = events[17:21]
    assert [e.seat for e in plays] == [1, 2, 3, 0]
    assert [e.cards for e in plays] == [(c,) for c in ids("2C 6C TC 5C")]
    assert all(e.get("trick") == 0 for e in plays)
    trick = events[21]
    assert trick.seat == 3 and trick.cards == tuple(ids("2C 6C TC 5C"))
    assert trick.get("leader") == 1 and trick.get("points") == 0 and trick.get("index") == 0
    assert trick.get("missing", "default") == "default"


def test_events_of_a_full_deal():
    deal = Deal.from_hands("openspiel(jd_bonus=true, avoid_all_tricks_bonus=true)", FULL)
    deal.apply_all(FULL_PLAYS.split())
    events = deal.events()
    assert events[0].kind == "deal" and events[0].get("pass_direction") == "hold"
    assert "pass" not in {e.kind for e in events} and "receive" not in {e.kind for e in events}
    plays = [e for e in events if e.kind == "play"]
    tricks = [e for e in events if e.kind == "trick"]
    assert [e.cards[0] for e in plays] == ids(FULL_PLAYS)
    assert [e.get("trick") for e in plays] == [i // 4 for i in range(52)]
    assert len(tricks) == 13
    expected_points = [p for *_, p in FULL_TRICKS]
    expected_points[1] = -10  # the J♦ trick
    assert [e.get("points") for e in tricks] == expected_points
    assert [e.seat for e in tricks] == [w for *_, w, _ in FULL_TRICKS]
    assert [e.get("leader") for e in tricks] == [leader for _, leader, _, _ in FULL_TRICKS]
    assert [e.get("index") for e in tricks] == list(range(13))
    assert [e.cards for e in tricks] == [tuple(ids(c)) for c, *_ in FULL_TRICKS]
    score = events[-1]
    assert score.kind == "score"
    assert score.get("points") == (-10, 14, 12, -5) and score.get("moon_shooter") is None
    assert events == deal.events()  # the log is a pure function of the deal


def test_events_record_the_moon_shooter():
    deal = finish_lowest(Deal.from_hands("standard", SUITS))
    score = deal.events()[-1]
    assert score.kind == "score" and score.get("points") == (0, 26, 26, 26) and score.get("moon_shooter") == 0


def test_events_before_any_action():
    deal = Deal.from_hands("standard", LADDER, pass_direction="across")
    events = deal.events()
    assert [e.kind for e in events] == ["deal"]
    assert events[0].get("pass_direction") == "across"


# --- preset differences on one deal -----------------------------------------------------------------


def test_preset_differences_on_one_deal():
    standard = Deal.from_hands("standard", VOID)
    openspiel = Deal.from_hands("openspiel", VOID)
    sturtevant = Deal.from_hands("sturtevant", VOID)
    # standard and openspiel: 2♣ opens; sturtevant: left of dealer (seat 0 here) leads anything
    assert legal(standard) == legal(openspiel) == "2C"
    assert sturtevant.legal_mask() == sturtevant.hands[0]
    # first trick: sturtevant allows points
    for deal in (standard, openspiel, sturtevant):
        deal.apply_all(["2C"])
    assert legal(standard) == legal(openspiel) == "4D 5D 6D 7D 8D 6S 7S 8S 9S"
    assert sturtevant.legal_mask() == sturtevant.hands[1]
    # Q♠ on trick 2: breaks hearts under openspiel only; sturtevant never restricts
    for deal in (standard, openspiel, sturtevant):
        deal.apply_all(seq("8D TC AC KC 6C QS 9C"))
        assert deal.current == 3
    assert "AH" not in legal(standard) and "AH" in legal(openspiel) and "AH" in legal(sturtevant)


def test_preset_passing_differences():
    assert Deal.from_hands("standard", LADDER, pass_direction="left").phase is Phase.PASS
    assert Deal.from_hands("openspiel", LADDER, pass_direction="left").phase is Phase.PASS
    for spec, hands in [("sturtevant", LADDER), ("dutch", DUTCH_VOID)]:
        with pytest.raises(DealError):
            Deal.from_hands(spec, hands, pass_direction="left")
    # Deal.random draws from the schedule (standard's rotation, openspiel's uniform draw); the others never pass
    assert {Deal.random("standard", seed).pass_direction for seed in range(40)} == {0, 1, 2, 3}
    assert Deal.random("standard", 0, pass_direction="left").pass_direction == 1
    assert Deal.random("sturtevant", 0).pass_direction == 0
    assert Deal.random("dutch", 0).pass_direction == 0
    assert {Deal.random("openspiel", seed).pass_direction for seed in range(40)} == {0, 1, 2, 3}


BLACK_MARIA = "standard(king_of_spades_points=10, ace_of_spades_points=7, passing=none)"


def test_black_maria_penalties_for_the_king_and_ace_of_spades():
    """Black Maria's K♠ (10) and A♠ (7) beside Q♠ (13): scored, counted in the moon's total (43), barred
    from the first trick like Q♠, and scored the same by both batched backends."""
    rules = make_rules(BLACK_MARIA)
    assert rules.penalty_total == 13 + 13 + 10 + 7
    assert mask_points(rules, to_mask(parse_cards("KS AS 2H"))) == 18
    from hearts_env.vector import VectorDeals

    for seed in range(6):  # random deals: each seat scores exactly the cards it took, in every engine
        start = Deal.random(rules, seed)
        deal = start.clone()
        deal.playout(seed)
        if deal.moon_shooter is None:
            assert deal.points == [mask_points(rules, deal.taken[s]) for s in range(4)]
            assert sum(deal.points) == 43
        for backend in ("numpy", "numba"):
            tables = VectorDeals.from_deals([start], backend=backend)
            for card in deal.history:
                tables.step(np.array([card]))
            assert tables.points[0].tolist() == deal.points
    # the first trick bars K♠ now that it scores: seat 1, void in clubs, may not discard it (nor Q♠, hearts)
    hands = [VOID[0], VOID[1].replace("9S", "KS"), VOID[2].replace("KS", "9S"), VOID[3]]
    void = Deal.from_hands(rules, hands).apply_all(["2C"])
    assert void.current == 1 and legal(void) == "4D 5D 6D 7D 8D 6S 7S 8S"
    plain = Deal.from_hands(BLACK_MARIA.replace("king_of_spades_points=10", "king_of_spades_points=0"), hands)
    assert legal(plain.apply_all(["2C"])) == "4D 5D 6D 7D 8D 6S 7S 8S KS"  # K♠ worth nothing: allowed
    # a moon needs the spade honours too
    moon = finish_lowest(Deal.from_hands(rules, SUITS))
    assert moon.moon_shooter == 0 and moon.points == [0, 43, 43, 43]
