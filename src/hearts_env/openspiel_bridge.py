"""Mirror hearts-env deals into OpenSpiel's ``hearts`` game (``pip install hearts-env[oracle]``).

Used by the differential tests (our engine against OpenSpiel, move by move), by the ``openspiel``
observation encoding's tests, and by agents that ask OpenSpiel's bots for a move.

>>> from hearts_env import Deal, make_rules
>>> from hearts_env.openspiel_bridge import load_game, mirror_deal, legal_cards
>>> rules = make_rules("openspiel")
>>> deal = Deal.random(rules, seed=1, pass_direction="left")
>>> state = mirror_deal(load_game(rules), deal)
>>> legal_cards(state) == deal.legal_cards()
True

OpenSpiel facts relied on (docs/rules.md "OpenSpiel ids", docs/records.md on its action history; checked
by tests/test_openspiel_differential.py): card id = rank * 4 + suit; the first chance
action is the pass direction (0 none, 1 left, 2 across, 3 right: the same offsets as ours); the
next 52 chance actions deal card ``k`` of the sequence to seat ``k % 4``.
"""

from __future__ import annotations

import functools
from collections.abc import Collection
from dataclasses import fields
from typing import Any

from hearts_env.cards import from_openspiel, iter_cards, to_openspiel
from hearts_env.engine import Deal
from hearts_env.rules import Rules, make_rules

OPENSPIEL_FLAGS = ("no_pts_on_first_trick", "can_lead_any_club", "jd_bonus", "avoid_all_tricks_bonus",
                   "must_break_hearts", "qs_breaks_hearts", "can_lead_hearts_instead_of_qs")
"""Rule options that are OpenSpiel game parameters under the same names and semantics."""

EXPRESSED = (*OPENSPIEL_FLAGS, "passing", "game", "target", "preset")
"""Rules fields OpenSpiel can follow: its flags, the passing schedule (a chance outcome per deal, or
``pass_cards=False``), and the game framing around its single deal (kept on our side)."""


@functools.lru_cache(maxsize=1)
def fixed_values() -> dict[str, Any]:
    """Every other ``Rules`` field, at the value OpenSpiel's hearts has (the ``openspiel`` preset's):
    derived from the field list, so a new rule option is refused for OpenSpiel unless left at its default."""
    reference = make_rules("openspiel")
    return {f.name: getattr(reference, f.name) for f in fields(Rules) if f.name not in EXPRESSED}


def openspiel_mismatches(rules: Rules, ignore: Collection[str] = ()) -> list[tuple[str, Any, Any]]:
    """``(name, value, OpenSpiel's value)`` of every field of ``rules`` that OpenSpiel's hearts cannot
    express (fields in ``ignore`` excepted)."""
    return [(name, getattr(rules, name), value) for name, value in fixed_values().items()
            if name not in ignore and getattr(rules, name) != value]


class OpenSpielUnsupported(ValueError):
    """Rules that OpenSpiel's hearts cannot express."""


def _pyspiel() -> Any:
    try:
        import pyspiel
    except ImportError as e:  # pragma: no cover - exercised only without the extra
        raise ImportError("OpenSpiel is needed here: pip install 'hearts-env[oracle]' (package open-spiel)") from e
    return pyspiel


def openspiel_params(rules: Rules | str) -> dict[str, bool]:
    """OpenSpiel's eight hearts parameters for ``rules``; raises :class:`OpenSpielUnsupported`
    naming every option OpenSpiel cannot express. The pass direction is a chance outcome in
    OpenSpiel, so any schedule can be mirrored deal by deal; only "no passing at all" maps to
    ``pass_cards=False``."""
    rules = make_rules(rules)
    bad = [f"{name}={value!r} (OpenSpiel: {theirs!r})" for name, value, theirs in openspiel_mismatches(rules)]
    if bad:
        raise OpenSpielUnsupported("OpenSpiel's hearts cannot express " + ", ".join(bad))
    params = {name: getattr(rules, name) for name in OPENSPIEL_FLAGS}
    params["pass_cards"] = rules.has_passing
    return params


def load_game(rules: Rules | str) -> Any:
    """The ``pyspiel`` hearts game with the parameters of ``rules``."""
    return _pyspiel().load_game("hearts", openspiel_params(rules))


def mirror_deal(game: Any, deal: Deal) -> Any:
    """An OpenSpiel state with the deal's pass direction and dealt hands, and its history replayed
    (each action checked for legality by OpenSpiel)."""
    state = game.new_initial_state()
    state.apply_action(deal.pass_direction)
    hands = [list(iter_cards(hand)) for hand in deal.dealt]
    for k in range(deal.deck.hand_size):
        for seat in range(4):
            state.apply_action(to_openspiel(hands[seat][k]))
    for card in deal.history:
        state.apply_action_with_legality_check(to_openspiel(card))
    return state


def legal_cards(state: Any) -> list[int]:
    """OpenSpiel's legal actions in a decision state, as our card ids, ascending."""
    return sorted(from_openspiel(a) for a in state.legal_actions())


def points(state: Any) -> list[int]:
    """Final points per seat of a terminal OpenSpiel state (its returns are 26 − points)."""
    return [round(26 - r) for r in state.returns()]
