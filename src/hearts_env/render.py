"""Text rendering of a deal: pure functions over a :class:`~hearts_env.engine.Deal`.

This is a **god view**: it shows every seat's hand. Use it for humans watching a game, for
debugging and for logs, never as an agent's input (agents read a
:class:`~hearts_env.views.SeatView`). The environments' ``render()`` and the CLI use it.

>>> from hearts_env.engine import Deal
>>> from hearts_env.render import format_hand
>>> deal = Deal.from_hands("sturtevant", ["2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
...                                       "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
...                                       "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
...                                       "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"])
>>> format_hand(deal.hands[0] | 1 << 49, deal.deck)
'♣ 2 3 4 5 6 7 8 9 T J Q K A  ♦ -  ♥ -  ♠ Q'
>>> format_hand(deal.hands[0], deal.deck, symbols=False)
'C 2 3 4 5 6 7 8 9 T J Q K A  D -  H -  S -'
"""

from __future__ import annotations

from collections.abc import Sequence

from hearts_env.cards import RANKS, SUIT_SYMBOLS, SUITS, Deck, card_name, get_deck
from hearts_env.engine import Deal, Phase
from hearts_env.rules import PASS_NAMES

__all__ = ["format_cards_line", "format_hand", "render_deal", "render_trick", "seat_name"]


def seat_name(seat: int, names: Sequence[str] | None = None) -> str:
    """``"player_0"`` … ``"player_3"`` (the PettingZoo agent names), or ``names[seat]``."""
    return names[seat] if names is not None else f"player_{seat}"


def format_hand(mask: int, deck: Deck | str = "standard", symbols: bool = True) -> str:
    """A hand grouped by suit, ranks ascending: ``"♣ 2 9 K  ♦ -  ♥ 3 Q  ♠ A"``."""
    d = get_deck(deck)
    n = d.ranks_per_suit
    letters = SUIT_SYMBOLS if symbols else SUITS
    parts = []
    for suit in range(4):
        bits = (mask >> (suit * n)) & ((1 << n) - 1)
        ranks = [RANKS[d.lowest_rank + r] for r in range(n) if bits >> r & 1]
        parts.append(f"{letters[suit]} {' '.join(ranks) if ranks else '-'}")
    return "  ".join(parts)


def format_cards_line(cards: Sequence[int] | int, deck: Deck | str = "standard", symbols: bool = True) -> str:
    """Cards (a mask or a sequence of ids) as names in order: ``"2♣ Q♠"``; ``"-"`` when empty."""
    d = get_deck(deck)
    if isinstance(cards, int):
        ids = [c for c in range(d.size) if cards >> c & 1]
    else:
        ids = list(cards)
    return " ".join(card_name(c, d, symbols=symbols) for c in ids) or "-"


def render_trick(deal: Deal, symbols: bool = True, names: Sequence[str] | None = None) -> str:
    """The current trick: ``"trick 3, led by player_2: player_2 7♥, player_3 9♥"``."""
    number = deal.trick_index + 1
    if deal.phase != Phase.PLAY:
        return f"trick {number}: -" if deal.phase == Phase.PASS else "no trick (the deal is over)"
    if not deal.trick:
        return f"trick {number}: {seat_name(deal.current, names)} to lead"
    plays = ", ".join(f"{seat_name((deal.leader + i) & 3, names)} {card_name(c, deal.deck, symbols=symbols)}"
                      for i, c in enumerate(deal.trick))
    return f"trick {number}, led by {seat_name(deal.leader, names)}: {plays}"


def _last_trick(deal: Deal, symbols: bool, names: Sequence[str] | None) -> str | None:
    tricks = deal.tricks()
    if not tricks:
        return None
    last = tricks[-1]
    plays = ", ".join(f"{seat_name((last.leader + i) & 3, names)} {card_name(c, deal.deck, symbols=symbols)}"
                      for i, c in enumerate(last.cards))
    return f"last trick ({len(tricks)}): {plays} -> won by {seat_name(last.winner, names)}"


def render_deal(deal: Deal, scores: Sequence[int] | None = None, *, deal_index: int | None = None,
                symbols: bool = True, names: Sequence[str] | None = None, title: str | None = None) -> str:
    """A multi-line god view of ``deal``: every hand, passes, the current and last trick, points
    taken, tricks won, hearts broken and the game scores.

    ``scores`` are the game scores before this deal (default: the deal's own ``game_scores``);
    ``deal_index`` (0-based) is printed as ``deal k+1`` when given; ``names`` replaces the
    ``player_i`` labels.
    """
    rules = deal.rules
    deck = deal.deck
    scores = tuple(deal.game_scores if scores is None else scores)
    phase = deal.phase
    head = [title or "Hearts", f"rules {rules.spec()}"]
    if deal_index is not None:
        head.append(f"deal {deal_index + 1}")
    head.append(f"pass {PASS_NAMES[deal.pass_direction]}")
    head.append({Phase.PASS: "passing", Phase.PLAY: "playing", Phase.DONE: "deal over"}[phase])
    lines = [" | ".join(head) + "   (god view: every hand is shown)"]
    width = max(len(seat_name(s, names)) for s in range(4))
    hands = [format_hand(deal.hands[s] & ~deal.passed[s] if phase == Phase.PASS else deal.hands[s], deck, symbols)
             for s in range(4)]
    hand_width = max(len(h) for h in hands)
    for s in range(4):
        marker = ">" if phase != Phase.DONE and deal.current == s else " "
        line = f"{marker} {seat_name(s, names):<{width}}  {hands[s]:<{hand_width}}"
        extra = []
        if phase == Phase.PASS:
            target = seat_name(deal.pass_target(s), names)
            extra.append(f"passing to {target}: {format_cards_line(deal.passed[s], deck, symbols)}")
        elif deal.pass_direction and deal.passes_complete():
            extra.append(f"received {format_cards_line(deal.received(s), deck, symbols)}")
        if extra:
            line += "   " + "  ".join(extra)
        lines.append(line.rstrip())
    if phase == Phase.PLAY:
        lines.append(render_trick(deal, symbols, names))
    last = _last_trick(deal, symbols, names)
    if last:
        lines.append(last)
    if phase != Phase.PASS:
        lines.append("hearts broken" if deal.hearts_broken else "hearts not broken")
    taken = "  ".join(f"{seat_name(s, names)} {deal.points_taken(s)} ({deal.tricks_won[s]} tricks)"
                      for s in range(4))
    lines.append(f"points taken: {taken}")
    if deal.points is not None:
        pts = "  ".join(f"{seat_name(s, names)} {deal.points[s]}" for s in range(4))
        moon = f"   moon shot by {seat_name(deal.moon_shooter, names)}" if deal.moon_shooter is not None else ""
        lines.append(f"deal points: {pts}{moon}")
    if rules.game == "match" or any(scores):
        game = "  ".join(f"{seat_name(s, names)} {scores[s]}" for s in range(4))
        lines.append(f"game scores before this deal (game to {rules.target}): {game}")
        if deal.points is not None:
            after = [scores[s] + deal.points[s] for s in range(4)]
            game = "  ".join(f"{seat_name(s, names)} {after[s]}" for s in range(4))
            lines.append(f"game scores after this deal: {game}")
    return "\n".join(lines)
