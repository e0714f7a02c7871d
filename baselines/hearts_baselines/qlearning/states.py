"""The 12 states of paper 002 §2.3 and the card each abstract action plays in them.

States (the seat's position in the trick, then a condition; "Q♠ in hand" and "can follow" from the
seat's own cards):

====  ==========  =========================================================================
 s    seat        condition
====  ==========  =========================================================================
 1    leader      Q♠ not yet played, no spade below Q♠ in hand
 2    leader      Q♠ not yet played, at least one spade below Q♠ in hand
 3    leader      Q♠ already played
 4    2nd / 3rd   void in the led suit, Q♠ in hand
 5    2nd / 3rd   void in the led suit, no Q♠
 6    2nd / 3rd   can follow with a card below the trick's winning card
 7    2nd / 3rd   can follow only above the winning card
 8    last        void, Q♠ in hand
 9    last        void, no Q♠
 10   last        can follow; neither Q♠ nor a heart on the table
 11   last        can follow; Q♠ or a heart on the table; holds a card below the winning card
 12   last        can follow; Q♠ or a heart on the table; only cards above the winning card
====  ==========  =========================================================================

The paper words states 1 and 2 so that they overlap (a hand can hold small spades *and* K♠); we
split them by "some spade below Q♠". Actions: ``GOOD`` is the paper's greedy choice (§2.1; our
``greedy``) except in state 3, where the paper defines it as the smallest legal card. ``BAD`` is the
"long-term" alternative; the paper defines it for states 2 and 3 only, the others are ours
(docs/qlearning.md lists each). "Early" is the paper's "round < 4": the first three tricks.
"""

from __future__ import annotations

from hearts_env.agents.basic import GreedyAgent
from hearts_env.cards import HEARTS, RANKS, SPADES, iter_cards
from hearts_env.tables import RuleTables, tables_of
from hearts_env.views import SeatView

NUM_STATES = 12
GOOD, BAD = 0, 1
ACTIONS = ("good", "bad")

_GREEDY = GreedyAgent()  # stateless: its choice is a function of the view


def state_of(view: SeatView) -> int:
    """The paper's state (1..12) of the seat to act in the play phase."""
    c = tables_of(view.rules)
    hand = view.hand
    if not view.trick:
        if view.played >> c.qs & 1:
            return 3
        below_queen = hand & c.suits[SPADES] & (c.qs_bit - 1)
        return 2 if below_queen else 1
    led = c.suits[c.suit_of(view.trick[0])]
    following = hand & led
    last = len(view.trick) == 3
    if not following:
        holds_queen = bool(hand & c.qs_bit)
        if last:
            return 8 if holds_queen else 9
        return 4 if holds_queen else 5
    winning = view.winning_card
    below = following & ((1 << winning) - 1)
    if not last:
        return 6 if below else 7
    table = view.trick_mask
    if not table & (c.qs_bit | c.hearts):
        return 10
    return 11 if below else 12


def action_card(view: SeatView, state: int, action: int) -> int:
    """The legal card ``action`` (``GOOD`` or ``BAD``) plays in ``state``."""
    c = tables_of(view.rules)
    legal = list(iter_cards(view.legal))
    greedy = _GREEDY.act(view)
    if action == GOOD:
        return min(legal, key=c.rank_of) if state == 3 else greedy
    early = view.trick_index < 3
    hand = view.hand
    if state == 1:  # build a void: the highest card of the shortest suit that is neither spades nor hearts
        side = [card for card in legal if c.suit_of(card) not in (SPADES, HEARTS)]
        if side:
            return max(side, key=lambda card: (-(hand & c.suits[c.suit_of(card)]).bit_count(), c.rank_of(card)))
        return greedy
    if state == 2:  # early: shed the highest spade below Q♠, keep the low ones as later exits
        spades = [card for card in legal if c.suit_of(card) == SPADES and card < c.qs]
        return max(spades) if early and spades else greedy
    if state == 3:
        spades = [card for card in legal if c.suit_of(card) == SPADES]
        if spades:
            return max(spades)
        small_hearts = [card for card in legal if c.suit_of(card) == HEARTS and c.rank_of(card) <= _rank_6(c)]
        if small_hearts:
            return min(small_hearts)
        if early:
            plain = [card for card in legal if c.suit_of(card) != HEARTS] or legal
            return max(plain, key=c.rank_of)
        return greedy
    if state in (4, 8):  # keep Q♠ for later: discard the highest heart, else the highest other card
        others = [card for card in legal if card != c.qs] or legal
        hearts = [card for card in others if c.suit_of(card) == HEARTS]
        return max(hearts) if hearts else max(others, key=c.rank_of)
    if state in (5, 9):  # the highest card of the shortest suit
        return max(legal, key=lambda card: (-(hand & c.suits[c.suit_of(card)]).bit_count(), c.rank_of(card)))
    following = [card for card in legal if c.suit_of(card) == c.suit_of(view.trick[0])]
    if state == 6:  # early and no points on the table: shed the highest card of the suit
        points_on_table = view.trick_mask & c.penalty_cards
        return max(following) if early and not points_on_table else greedy
    if state in (7, 12):  # the trick is lost anyway: shed the highest card instead of the lowest
        return max(following)
    return min(following)  # states 10 and 11: the lowest card, keeping the middle ones


def _rank_6(c: RuleTables) -> int:
    """The rank index of the six (the paper's "small heart": 6♥ or lower); negative in a deck without it."""
    return RANKS.index("6") - c.deck.lowest_rank
