"""The seat protocol, version 1: how a program takes a seat at a dealer's table.

One JSON object per line, UTF-8, over the program's stdin (dealer → seat) and stdout (seat → dealer).
The dealer speaks first and every request gets exactly one reply:

========================================  =============================================
dealer → seat                             seat → dealer
========================================  =============================================
``{"type": "hello", "protocol": 1, …}``   ``{"type": "hello", "protocol": 1, "agent": {…}}``
``{"type": "reset", "rules", "seat", …}`` ``{"type": "ready"}``
``{"type": "act", "view": {…}}``          ``{"type": "card", "card": 17}``
``{"type": "end_deal", "view": {…}}``     ``{"type": "ready"}``
``{"type": "goodbye"}``                   (none: the program exits)
========================================  =============================================

Any request may instead be answered ``{"type": "error", "message": "…"}`` (the agent failed: the game
is forfeited, the program keeps its seat). The JSON Schema is ``schemas/hearts-seat-1.schema.json``;
docs/seat-protocol.md explains it. Cards are ids (``reset`` lists the deck's names in id order) and a
view carries exactly what :class:`~hearts_env.views.SeatView` holds, as card lists.
"""

from __future__ import annotations

import json
from typing import Any

from hearts_env.cards import card_name, iter_cards, to_mask
from hearts_env.engine import Phase
from hearts_env.rules import Rules
from hearts_env.views import SeatView

PROTOCOL = 1
"""The protocol version this package speaks; a program that answers ``hello`` with another is refused."""

MAX_LINE = 1 << 16
"""The longest line (bytes) either side accepts: a view is about 1.5 kB."""

CARD_LISTS = ("hand", "dealt", "passed", "received", "legal")
"""View fields that are sets of cards: sent as sorted card-id lists."""
PER_SEAT_CARD_LISTS = ("played_by", "taken")
"""View fields with a set of cards per seat: four card-id lists."""
PLAIN = ("seat", "pass_direction", "current", "leader", "trick_index", "tricks_won", "voids", "hearts_broken",
         "trick_winners", "game_scores", "dealer", "moon_shooter")
"""View fields sent as they are (ints, bools, lists of ints, or null)."""
SEQUENCES = ("trick", "plays")
"""View fields that are card ids in play order."""


class ProtocolError(ValueError):
    """A message that is not valid under the seat protocol."""


def encode(message: dict[str, Any]) -> bytes:
    """One protocol line: compact strict JSON and a newline."""
    return json.dumps(message, separators=(",", ":"), allow_nan=False).encode() + b"\n"


def decode(line: bytes) -> dict[str, Any]:
    """The message of one line, or :class:`ProtocolError` naming what is wrong with it."""
    if len(line) > MAX_LINE:
        raise ProtocolError(f"a line of {len(line)} bytes (at most {MAX_LINE})")
    try:
        message = json.loads(line, parse_constant=_no_constant)
    except Exception as e:  # any failure to parse a line, at any depth (RecursionError too), is the line's fault
        raise ProtocolError(f"not a JSON line ({type(e).__name__}: {str(e)[:120]}): {line[:80]!r}") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ProtocolError(f"not a message object with a 'type': {line[:80]!r}")
    return message


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def deck_names(rules: Rules) -> list[str]:
    """The deck's card names in id order (``reset`` sends them, so a program needs no table of its own)."""
    deck = rules.deck_obj
    return [card_name(c, deck) for c in range(deck.size)]


def view_to_json(view: SeatView) -> dict[str, Any]:
    """A seat's view as the protocol sends it (see the module docstring)."""
    out: dict[str, Any] = {"phase": view.phase.name}
    for name in CARD_LISTS:
        out[name] = list(iter_cards(getattr(view, name)))
    for name in PER_SEAT_CARD_LISTS:
        out[name] = [list(iter_cards(mask)) for mask in getattr(view, name)]
    for name in PLAIN:
        value = getattr(view, name)
        out[name] = list(value) if isinstance(value, tuple) else value
    for name in SEQUENCES:
        out[name] = list(getattr(view, name))
    out["final_points"] = None if view.final_points is None else list(view.final_points)
    return out


def view_from_json(data: Any, rules: Rules) -> SeatView:
    """The :class:`SeatView` a view message describes, for Python agents behind the host; a malformed view
    is a :class:`ProtocolError`."""
    try:
        v = SeatView.__new__(SeatView)
        v.rules = rules
        v.phase = Phase[data["phase"]]
        for name in CARD_LISTS:
            setattr(v, name, to_mask(_ints(data[name])))
        for name in PER_SEAT_CARD_LISTS:
            setattr(v, name, tuple(to_mask(_ints(cards)) for cards in data[name]))
        for name in PLAIN:
            value = data[name]
            setattr(v, name, tuple(_ints(value)) if isinstance(value, list) else value)
        for name in SEQUENCES:
            setattr(v, name, tuple(_ints(data[name])))
        final = data["final_points"]
        v.final_points = None if final is None else tuple(_ints(final))
        v._points_taken = None
    except (KeyError, TypeError, ValueError) as e:
        raise ProtocolError(f"a malformed view ({type(e).__name__}: {e})") from None
    return v


def _ints(values: Any) -> list[int]:
    if not isinstance(values, list) or not all(isinstance(x, int) and not isinstance(x, bool) for x in values):
        raise ValueError(f"expected a list of integers, got {values!r:.60}")
    return values
