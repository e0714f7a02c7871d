"""What a language model reads and answers: a seat's view as text or JSON, and its answer as a card.

:func:`view_text` writes one seat's :class:`~hearts_env.views.SeatView` as compact English — the rules in force in
brief (:func:`rules_text`), the seat's hand, the pass, the trick on the table, every trick so far with who led and
who won it, the points each seat has taken, the voids shown, the score and the legal cards — and :func:`view_json` the
same view as JSON whose fields are the seat protocol's (docs/seat-protocol.md) with cards as names (``"QS"``). Both
read the view alone, so they hold nothing the seat may not know (tests/test_text.py checks it like every encoding).
:data:`TEXT_FORMAT` names the layout; a change to either text is a new version.

:func:`parse_answer` reads a card out of a model's answer: ``Final Answer: Q♠`` (the last one wins), a JSON object
``{"card": "QS"}``, or else an answer that names exactly one card. A card may be written ``QS``, ``Qs``, ``Q♠``,
``10H``, ``TH``, ``queen of spades`` or ``ten of hearts``; in running text a letter rank is a capital and an ace with a
suit letter all capitals (``AS``), so that the words *as*, *ah* and *ad* are not cards (after ``Final Answer:`` or in
the JSON, any case). What it cannot read, or an answer naming several cards, or a card
that is not legal now, raises :class:`AnswerError` with a reason to quote back to the model.

>>> from hearts_env import Deal, make_rules
>>> from hearts_env.views import SeatView
>>> deal = Deal.random(make_rules("standard(game=deal)"), seed=3, pass_direction="hold")
>>> view = SeatView.of(deal, deal.current)
>>> card_name_of = lambda card: format_card(card, deal.rules)
>>> card_name_of(parse_answer("I lead the two of clubs. Final Answer: 2C", deal.rules, view.legal))
'2C'
"""

from __future__ import annotations

import json
import re
import string
from typing import Any

import numpy as np
from gymnasium import spaces

from hearts_env.cards import RANKS, SUIT_NAMES, SUITS, CardError, card_name, iter_cards
from hearts_env.encoders import Encoder, make_encoder
from hearts_env.engine import Phase
from hearts_env.rules import PASS_NAMES, Rules
from hearts_env.views import SeatView

TEXT_FORMAT = "hearts-text/1"
"""The version of :func:`view_text`'s and :func:`view_json`'s layout."""

PLACES = ("You", "Left", "Across", "Right")
"""The text's names of seats ``seat``, ``seat + 1``, ... for ``seat``: play goes round from a seat to its left."""


class AnswerError(ValueError):
    """A model's answer that names no card, several, or one that may not be played now; ``kind`` is
    ``"unreadable"``, ``"ambiguous"`` or ``"illegal"``."""

    def __init__(self, kind: str, reason: str):
        super().__init__(reason)
        self.kind = kind


def format_card(card: int, rules: Rules) -> str:
    """A card as the text writes it: rank then suit letter, ``QS``, ``TH`` (ten of hearts)."""
    return card_name(card, rules.deck_obj)


def _cards(mask_or_cards: Any, rules: Rules) -> str:
    cards = list(iter_cards(mask_or_cards)) if isinstance(mask_or_cards, int) else list(mask_or_cards)
    return " ".join(format_card(c, rules) for c in cards) if cards else "none"


def _hand(mask: int, rules: Rules) -> str:
    """A hand by suit: ``clubs 2C 7C; diamonds none; ...``."""
    deck = rules.deck_obj
    return "; ".join(f"{SUIT_NAMES[s]} {_cards(mask & deck.suit_mask(s), rules)}" for s in range(4))


def _seat(seat: int, me: int) -> str:
    return PLACES[(seat - me) % 4]


def rules_text(rules: Rules) -> str:
    """The rules in force, in brief: the deck, the penalties, passing, leading, breaking hearts, the moon, the end."""
    deck = rules.deck_obj
    low_club = format_card(deck.card(0, deck.lowest_rank), rules)
    penalties = [f"each heart {rules.heart_points}"]
    for name, points in (("QS", rules.queen_of_spades_points), ("JC", rules.jack_of_clubs_points),
                         ("KS", rules.king_of_spades_points), ("AS", rules.ace_of_spades_points)):
        if points:
            penalties.append(f"{name} {points}")
    lines = [f"Hearts for four players with a {deck.size}-card deck ({RANKS[deck.lowest_rank]} to A in each suit; "
             f"{deck.hand_size} cards each). Taking a trick takes its cards; penalty points: {', '.join(penalties)}"
             f"{f'; JD counts -{rules.jd_bonus_points} (a bonus)' if rules.jd_bonus else ''}. Fewer points is better."]
    if rules.passing != "none":
        lines.append(f"Before play each player passes {rules.pass_count} cards ({_passing(rules.passing)}).")
    if rules.opening_lead == "lowest_club":
        lines.append(f"The holder of {low_club} leads it to the first trick"
                     f"{' (or any club)' if rules.can_lead_any_club else ''}; the winner of each trick leads the next.")
    else:
        lines.append("The player left of the dealer leads the first trick; the winner of each trick leads the next.")
    lines.append("You must follow the suit led if you can; the highest card of the suit led wins the trick.")
    if rules.no_pts_on_first_trick:
        lines.append("No penalty card may be played to the first trick unless you hold nothing else.")
    else:
        lines.append("Penalty cards may be played to the first trick.")
    if rules.must_break_hearts:
        breaks = "a heart (or QS) is played" if rules.qs_breaks_hearts else "a heart is played"
        lines.append(f"Hearts may not be led until {breaks}, unless you hold only hearts.")
        if rules.can_lead_hearts_instead_of_qs:
            lines.append("A leader holding only QS and hearts may lead a heart before hearts are broken.")
    else:
        lines.append("Hearts may be led at any time.")
    lines.append(_moon(rules))
    if rules.avoid_all_tricks_bonus:
        lines.append(f"A player who takes no trick scores -{rules.avoid_all_tricks_points}.")
    lines.append("The game is this one deal." if rules.game == "deal" else
                 f"Deals go on until a player reaches {rules.target} points; the lowest total then wins.")
    return " ".join(lines)


def _passing(passing: str) -> str:
    if passing == "rotate":
        return "to the left, the right, across, then no pass, in turn"
    if passing == "random":
        return "left, right, across or no pass, drawn each deal"
    if passing in ("left", "right", "across"):
        return f"always {'across' if passing == 'across' else 'to the ' + passing}"
    return f"in turn: {passing.replace(',', ', ')}"


def _moon(rules: Rules) -> str:
    if rules.moon == "off":
        return "Taking every penalty card has no special effect."
    total = "all the penalty points"
    if rules.moon == "add_to_others":
        return f"Shooting the moon (taking {total}): you score 0 and every other player scores them instead."
    if rules.moon == "subtract_from_shooter":
        return f"Shooting the moon (taking {total}): you score minus them and the others 0."
    return f"Shooting the moon (taking {total}): you choose to score minus them or to add them to every other player."


def view_text(view: SeatView, legal_moves: bool = True) -> str:
    """The seat's view as text (:data:`TEXT_FORMAT`); ``legal_moves``: end with the legal cards (Game Arena's two
    settings: with and without the list)."""
    rules, me = view.rules, view.seat
    out = [f"{TEXT_FORMAT}", f"Rules: {rules_text(rules)}",
           f"You are seat {me}. Left is seat {(me + 1) % 4} (plays after you), Across seat {(me + 2) % 4}, Right seat "
           f"{(me + 3) % 4}.", f"Your hand: {_hand(view.hand, rules)}."]
    if view.pass_direction:
        to = (me + view.pass_direction) % 4
        frm = (me - view.pass_direction) % 4
        passing = f"This deal passes {PASS_NAMES[view.pass_direction]}: you pass to {_seat(to, me)}"
        if view.phase == Phase.PASS:
            out.append(f"{passing}; chosen so far: {_cards(view.passed, rules)}.")
        else:
            out.append(f"{passing}. You passed {_cards(view.passed, rules)}; you received "
                       f"{_cards(view.received, rules)} from {_seat(frm, me)}.")
    else:
        out.append("No cards are passed this deal.")
    out += _tricks(view)
    if rules.game == "match":
        scores = ", ".join(f"{_seat(s, me)} {view.game_scores[s]}" for s in range(4))
        out.append(f"Game score before this deal: {scores}.")
    if view.phase == Phase.DONE:
        points = ", ".join(f"{_seat(s, me)} {p}" for s, p in enumerate(view.final_points or ()))
        out.append(f"The deal is over. Its points: {points}.")
    elif view.current == me:
        verb = "Choose a card to pass" if view.phase == Phase.PASS else "Choose the card to play"
        out.append(f"{verb}. Legal: {_cards(view.legal, rules)}." if legal_moves else f"{verb}.")
        out.append('Answer with one card, ending with a line "Final Answer: CARD" (e.g. Final Answer: QS).')
    else:
        out.append(f"{_seat(view.current, me)} is to play.")
    return "\n".join(out)


def _tricks(view: SeatView) -> list[str]:
    """The tricks so far (leader, cards in play order, winner), the trick on the table, points, voids."""
    rules, me = view.rules, view.seat
    if view.phase == Phase.PASS:
        return []
    owner = {card: seat for seat in range(4) for card in iter_cards(view.played_by[seat])}
    done = [view.plays[4 * k:4 * k + 4] for k in range(len(view.trick_winners))]
    out = []
    for k, cards in enumerate(done):
        out.append(f"Trick {k + 1}: {_seat(owner[cards[0]], me)} led; "
                   + ", ".join(f"{_seat(owner[c], me)} {format_card(c, rules)}" for c in cards)
                   + f"; won by {_seat(view.trick_winners[k], me)}.")
    if view.phase == Phase.PLAY:
        number = f"Trick {view.trick_index + 1} of {rules.deck_obj.hand_size}"
        if view.trick:
            on_table = ", ".join(f"{_seat(owner[c], me)} {format_card(c, rules)}" for c in view.trick)
            out.append(f"{number}, on the table: {on_table}.")
        else:
            out.append(f"{number}: {_seat(view.leader, me)} to lead.")
        out.append(f"Hearts broken: {'yes' if view.hearts_broken else 'no'}.")
    taken = ", ".join(f"{_seat(s, me)} {view.points_taken[s]}" for s in range(4))
    out.append(f"Penalty points taken this deal: {taken}.")
    voids = [f"{_seat(s, me)}: {', '.join(SUIT_NAMES[k] for k in range(4) if view.voids[s] >> k & 1)}"
             for s in range(4) if s != me and view.voids[s]]
    if voids:
        out.append(f"Shown out of a suit: {'; '.join(voids)}.")
    return out


def view_json(view: SeatView) -> dict[str, Any]:
    """The seat's view as JSON: the seat protocol's fields (docs/seat-protocol.md), each card as its name."""
    rules = view.rules

    def names(mask: int) -> list[str]:
        return [format_card(c, rules) for c in iter_cards(mask)]

    out: dict[str, Any] = {"format": TEXT_FORMAT, "seat": view.seat, "phase": view.phase.name,
                           "pass_direction": view.pass_direction}
    for name in ("hand", "dealt", "passed", "received", "legal"):
        out[name] = names(getattr(view, name))
    for name in ("played_by", "taken"):
        out[name] = [names(mask) for mask in getattr(view, name)]
    out["trick"] = [format_card(c, rules) for c in view.trick]
    out["plays"] = [format_card(c, rules) for c in view.plays]
    for name in ("current", "leader", "trick_index", "hearts_broken", "dealer", "moon_shooter"):
        out[name] = getattr(view, name)
    for name in ("tricks_won", "voids", "trick_winners", "game_scores"):
        out[name] = list(getattr(view, name))
    out["final_points"] = None if view.final_points is None else list(view.final_points)
    return out


class TextObservation:
    """``observation="text"`` in ``hearts_v0`` and the Gymnasium env: the observing seat's :func:`view_text`, in a
    Gymnasium ``Text`` space of printable ASCII. ``legal_moves``: whether it ends with the legal cards (the action
    mask is in the observation either way)."""

    name = "text"
    MAX_LENGTH = 8192  # a whole deal's text is about 2,500 characters

    def __init__(self, rules: Rules, legal_moves: bool = True):
        self.rules = rules
        self.legal_moves = legal_moves

    def space(self) -> spaces.Text:
        return spaces.Text(max_length=self.MAX_LENGTH, min_length=1, charset=CHARSET)

    def encode(self, view: SeatView) -> str:
        return view_text(view, self.legal_moves)


CHARSET = frozenset(string.printable)
"""The characters the text is written in (printable ASCII and whitespace)."""


def make_observation(name: str, rules: Rules, dtype: str = "float32") -> Encoder | TextObservation:
    """The observation ``name`` gives the envs and policy adapters: ``"text"`` (:class:`TextObservation`), or a
    registered encoding (:func:`~hearts_env.encoders.make_encoder`, which names the valid ones)."""
    if name == TextObservation.name:
        return TextObservation(rules)
    return make_encoder(name, rules, dtype)


# --- answers ---------------------------------------------------------------------------------------------------
_RANK_WORDS = {"two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8",
               "nine": "9", "ten": "T", "jack": "J", "queen": "Q", "king": "K", "ace": "A"}
_SUIT_WORDS = {"club": "C", "diamond": "D", "heart": "H", "spade": "S"}
_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
_WORDY = re.compile(r"\b(?P<rank>two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace|10|[2-9tjqka])"
                    r"\s+of\s+(?P<suit>club|diamond|heart|spade)s?\b", re.IGNORECASE)
_SYMBOLIC = re.compile(r"(?<![\w])(?P<rank>10|[2-9TJQKAtjqka])\s?(?P<suit>[♣♦♥♠♤♡♢♧])")
_LETTERED = re.compile(r"(?<![\w])(?P<rank>10|[2-9TJQK]|[tjqk](?=[CDHS])|A(?=[CDHS]))(?P<suit>[CDHScdhs])(?![\w])")
_ANY_CASE = re.compile(r"(?<![\w])(?P<rank>10|[2-9tjqka])(?P<suit>[cdhs])(?![\w])", re.IGNORECASE)
_FINAL = re.compile(r"final\s+answer\s*[:=-]\s*(?P<rest>.*)", re.IGNORECASE)


def _mentions(text: str, rules: Rules, slot: bool) -> list[int]:
    """Every card ``text`` names, in order (a rank this deck lacks counts as a name too: -1). ``slot``: ``text`` is
    where the answer puts its card (after ``Final Answer:``, a JSON ``card``), so ``qs`` and ``as`` are cards there."""
    found: list[tuple[int, int]] = []
    for pattern in (_WORDY, _SYMBOLIC, _ANY_CASE if slot else _LETTERED):
        for m in pattern.finditer(text):
            rank = m.group("rank")
            rank = _RANK_WORDS.get(rank.lower(), "T" if rank == "10" else rank.upper())
            suit = m.group("suit")
            suit = _SYMBOLS.get(suit) or _SUIT_WORDS.get(suit.lower()) or suit.upper()
            try:
                card = rules.deck_obj.card(SUITS.index(suit), rank)
            except CardError:
                card = -1  # a rank this deck lacks (a 2 in the Dutch deck)
            found.append((m.start(), card))
    return [card for _, card in sorted(found)]


def parse_answer(answer: str, rules: Rules, legal: int | Any) -> int:
    """The card a model's ``answer`` plays under ``rules`` when ``legal`` may be played (a mask of card bits, as
    :attr:`SeatView.legal`, or an env's ``action_mask``); :class:`AnswerError` says why not (the module docstring
    says what is read)."""
    if not isinstance(legal, int):
        legal = sum(1 << int(c) for c in np.flatnonzero(np.asarray(legal)))
    if not isinstance(answer, str) or not answer.strip():
        raise AnswerError("unreadable", "the answer is empty: name one card, e.g. Final Answer: QS")
    finals = list(_FINAL.finditer(answer))
    where = finals[-1].group("rest").strip() if finals else _json_card(answer)
    text = where if where is not None else answer
    cards = list(dict.fromkeys(_mentions(text, rules, slot=where is not None)))
    if not cards:
        raise AnswerError("unreadable", f"no card is named in {_quote(text)}: write one like QS, 10H or queen of "
                                        f"spades, e.g. Final Answer: QS")
    if len(cards) > 1:
        named = ", ".join("a card not in this deck" if c < 0 else format_card(c, rules) for c in cards)
        raise AnswerError("ambiguous", f"the answer names several cards ({named}): end with one, e.g. Final Answer: "
                                       f"{named.split(', ')[0]}")
    card = cards[0]
    if card < 0:
        raise AnswerError("unreadable", f"{_quote(text)} names a card that is not in the {rules.deck} deck")
    if not legal >> card & 1:
        raise AnswerError("illegal", f"{format_card(card, rules)} may not be played now; legal: "
                                     f"{_cards(legal, rules)}")
    return card


def _json_card(answer: str) -> str | None:
    """The ``card`` of an answer that is a JSON object (in a code fence or not), else None."""
    body = answer.strip()
    fence = re.match(r"^```(?:json)?\s*(.*?)\s*```$", body, re.DOTALL)
    if fence:
        body = fence.group(1)
    try:
        data = json.loads(body)
    except ValueError:
        return None
    if isinstance(data, dict) and isinstance(data.get("card"), str):
        return str(data["card"])
    return None


def _quote(text: str) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= 80 else text[:77] + "...")
