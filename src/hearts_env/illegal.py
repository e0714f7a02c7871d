"""Illegal actions: the rule a card breaks, said in words, and the error that carries it.

:func:`broken_rule` explains why a card is not legal from the deal's state; the scalar engine
raises :class:`IllegalActionError` with it. The legal masks themselves live in the engine: this
module only names the rule a refused card broke, and a property test checks every illegal card of
any state under any rules gets a name.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from enum import Enum
from typing import Any

from hearts_env.cards import SUIT_NAMES, card_name
from hearts_env.tables import RuleTables


class BrokenRule(str, Enum):
    """Which rule an illegal action broke (``IllegalActionError.rule``); equal to its string value."""

    NOT_A_CARD = "not a card"
    DEAL_OVER = "deal over"
    PASS = "pass"
    IN_HAND = "in hand"
    FOLLOW_SUIT = "follow suit"
    OPENING_LEAD = "opening lead"
    NO_PTS_ON_FIRST_TRICK = "no_pts_on_first_trick"
    MUST_BREAK_HEARTS = "must_break_hearts"
    HEARTS_INSTEAD_OF_QS = "can_lead_hearts_instead_of_qs"
    BATCH = "vector"
    """Raised by the batched engine, which names the table and the legal cards but not the rule."""

    def __str__(self) -> str:  # the value in messages and f-strings, on every Python version
        return str(self.value)


class IllegalActionError(ValueError):
    """A card that may not be played or passed now; names the broken rule and the legal cards."""

    def __init__(self, message: str, *, seat: int | None, card: Any, rule: BrokenRule, legal: Sequence[int]):
        super().__init__(message)
        self.seat = seat
        self.card = card
        self.rule = rule
        self.legal = list(legal)


def broken_pass(passed: int, card: int) -> tuple[BrokenRule, str]:
    """Why ``card`` may not be passed by a seat that has chosen ``passed`` so far."""
    if passed >> card & 1:
        return BrokenRule.PASS, "it is already chosen to pass"
    return BrokenRule.PASS, "it is not in the hand"


def broken_play(tables: RuleTables, hand: int, trick: Sequence[int], trick_index: int, hearts_broken: bool,
                card: int) -> tuple[BrokenRule, str]:
    """Why ``card`` may not be played from ``hand`` onto ``trick`` (the cards on the table, led first)
    in trick ``trick_index``; raises ``AssertionError`` for a card that breaks no rule."""
    c = tables
    bit = 1 << card
    if not hand & bit:
        return BrokenRule.IN_HAND, "it is not in the hand"
    if trick:
        led = trick[0] // c.ranks_per_suit
        if hand & c.suits[led]:
            return BrokenRule.FOLLOW_SUIT, f"the hand holds {SUIT_NAMES[led]}, the suit led"
    elif trick_index == 0 and c.lead_lowest_club:
        if c.rules.can_lead_any_club:
            return BrokenRule.OPENING_LEAD, "the first trick must be led with a club"
        return BrokenRule.OPENING_LEAD, f"the first trick must be led with {card_name(0, c.deck)}"
    if trick_index == 0 and c.rules.no_pts_on_first_trick and bit & ~c.first_trick_allowed:
        return BrokenRule.NO_PTS_ON_FIRST_TRICK, "no penalty card may be played on the first trick"
    if not trick and bit & c.hearts and not hearts_broken:
        return BrokenRule.MUST_BREAK_HEARTS, "hearts may not be led before they are broken"
    if not trick and c.rules.can_lead_hearts_instead_of_qs:
        return BrokenRule.HEARTS_INSTEAD_OF_QS, "a heart must be led rather than Q♠"
    raise AssertionError(f"card {card} is illegal for no known rule")  # the legal mask and this disagree


ILLEGAL_ACTIONS = ("terminate", "raise")
"""What an environment does with an illegal action: ``terminate`` ends the episode with a penalty to the offender
(PettingZoo's TerminateIllegalWrapper convention), ``raise`` raises :class:`IllegalActionError` and changes
nothing."""


def illegal_action_mode(value: str) -> str:
    """``value`` checked against :data:`ILLEGAL_ACTIONS`; ``"penalty"``, the old name of ``terminate`` in the
    Gymnasium envs, is accepted for one release with a DeprecationWarning."""
    if value == "penalty":
        warnings.warn('illegal_action="penalty" is deprecated: it is named "terminate" in every env',
                      DeprecationWarning, stacklevel=3)
        return "terminate"
    if value not in ILLEGAL_ACTIONS:
        raise ValueError(f"illegal_action={value!r} is not valid; valid values: {', '.join(ILLEGAL_ACTIONS)}")
    return value
