"""The game-record format ``hearts-record/1``: one Hearts game as JSON any tool can read and write.

A record holds the rules (a spec string), the players (any labels, seat order), and per deal the dealer,
the pass direction, the four hands as dealt, each seat's passes, the plays in order and the points; then
the final scores and winners. Cards are names (``"QS"``, ``"TD"``, ``"2C"``; rank then suit, ``T`` for
ten), so a record does not depend on any tool's card numbering. The JSON Schema ships in the package
(:func:`schema`, ``hearts_env/schemas/hearts-record-1.schema.json``); :func:`read_record` checks a record
by replaying every pass and play through the engine, so an illegal or inconsistent record is refused with
the deal and the move named. ``hearts-env replay`` shows records of this format and arena records alike.

Converters: :func:`record_of_deals` (finished ``Deal`` objects, e.g. a ``Match``'s history),
:func:`record_of_arena` (an arena JSONL record), :func:`deals_of_record` (back to ``Deal`` objects), and
OpenSpiel's ``hearts`` action history both ways (:func:`to_openspiel_actions`,
:func:`from_openspiel_actions`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib import resources
from typing import Any

from hearts_env import __version__
from hearts_env.cards import card_id, card_name, from_openspiel, iter_cards, to_openspiel
from hearts_env.engine import Deal, IllegalActionError, Phase
from hearts_env.evaluation.arena.game import replay_record
from hearts_env.rules import PASS_NAMES, Rules, RulesError, make_rules

FORMAT = "hearts-record/1"


class RecordError(ValueError):
    """A game record that is not valid ``hearts-record/1``, or whose moves the rules do not allow."""


def schema() -> dict[str, Any]:
    """The JSON Schema of ``hearts-record/1`` (draft 2020-12)."""
    return json.loads(resources.files("hearts_env").joinpath("schemas/hearts-record-1.schema.json").read_text())


def record_of_deals(deals: Sequence[Deal], players: Sequence[str] | None = None,
                    scores: Sequence[int] | None = None, winners: Sequence[int] | None = None) -> dict[str, Any]:
    """A record of finished deals of one game (``scores`` default to the sum of the deals' points, and
    ``winners`` to the seats with the fewest)."""
    if not deals:
        raise RecordError("a record needs at least one deal")
    rules = deals[0].rules
    entries = [_deal_entry(d) for d in deals]
    totals = list(scores) if scores is not None else [sum(e["points"][s] for e in entries) for s in range(4)]
    best = min(totals)
    return {"format": FORMAT, "rules": rules.spec(), "players": list(players) if players else None,
            "software": f"hearts-env {__version__}", "deals": entries, "scores": totals,
            "winners": list(winners) if winners is not None else [s for s in range(4) if totals[s] == best]}


def _deal_entry(deal: Deal) -> dict[str, Any]:
    if not deal.is_over:
        raise RecordError("a record holds finished deals only")
    deck = deal.deck
    names = [[card_name(c, deck) for c in iter_cards(hand)] for hand in deal.dealt]
    passes: list[list[str]] = [[], [], [], []]
    plays = []
    replay = Deal.from_hands(deal.rules, deal.dealt, pass_direction=deal.pass_direction, dealer=deal.dealer,
                             game_scores=deal.game_scores)
    for card in deal.history:
        if replay.phase == Phase.PASS:
            passes[replay.current].append(card_name(card, deck))
        else:
            plays.append(card_name(card, deck))
        replay.apply(card)
    assert deal.points is not None
    return {"dealer": deal.dealer, "pass_direction": deal.pass_direction_name, "hands": names, "passes": passes,
            "plays": plays, "points": list(deal.points)}


def record_of_arena(record: dict[str, Any], include_unfinished: bool = False) -> dict[str, Any]:
    """The game of one arena record (``hearts-env arena --out``) as ``hearts-record/1``: its players are
    the seats' agent specs. A game ended by an agent error has an unfinished last deal, which is left out
    unless ``include_unfinished`` (then the record is not a valid ``hearts-record/1``)."""
    deals = [replay_record(record, k) for k in range(len(record["deals"]))]
    finished = [d for d in deals if d.is_over or include_unfinished]
    out = record_of_deals(finished, players=record["seating"], scores=record["points"], winners=record["winners"])
    if record.get("error"):
        out["error"] = {k: record["error"][k] for k in ("seat", "kind", "message") if k in record["error"]}
    return out


def read_record(data: dict[str, Any] | str) -> dict[str, Any]:
    """A record (a dict, or its JSON text) after checking it: its fields, then every deal replayed."""
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as e:
            raise RecordError(f"not JSON ({e.msg} at line {e.lineno}, column {e.colno})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise RecordError(f"not a {FORMAT} record (format: {found!r})")
    missing = [k for k in ("rules", "deals", "scores", "winners") if k not in data]
    if missing:
        raise RecordError(f"the record lacks {', '.join(missing)}")
    deals_of_record(data)
    return data


def deals_of_record(record: dict[str, Any]) -> list[Deal]:
    """The record's deals replayed through the engine (each pass and play checked against the rules, each
    deal's points against the record's)."""
    try:
        rules = make_rules(record["rules"])
    except RulesError as e:
        raise RecordError(f"rules {record['rules']!r}: {e}") from None
    if not isinstance(record["deals"], list) or not record["deals"]:
        raise RecordError("the record has no deals")
    deals = []
    scores = [0, 0, 0, 0]  # before each deal: the shooter's choice under moon="shooter_choice" depends on them
    for k, entry in enumerate(record["deals"]):
        deals.append(_replay_entry(rules, entry, k, scores))
        scores = [s + p for s, p in zip(scores, entry["points"])]
    return deals


def _replay_entry(rules: Rules, entry: dict[str, Any], k: int, scores: list[int]) -> Deal:
    where = f"deal {k}"
    try:
        hands = [[card_id(name, rules.deck) for name in hand] for hand in entry["hands"]]
        passes = [[card_id(name, rules.deck) for name in seat] for seat in entry["passes"]]
        plays = [card_id(name, rules.deck) for name in entry["plays"]]
        deal = Deal.from_hands(rules, hands, pass_direction=entry["pass_direction"], dealer=entry["dealer"],
                               game_scores=scores)
    except (KeyError, TypeError) as e:
        raise RecordError(f"{where}: missing or malformed field ({e})") from None
    except ValueError as e:
        raise RecordError(f"{where}: {e}") from None
    if len(passes) != 4:
        raise RecordError(f"{where}: passes must list four seats, got {len(passes)}")
    try:
        while deal.phase == Phase.PASS:
            seat = deal.current
            if not passes[seat]:
                raise RecordError(f"{where}: seat {seat} passes fewer than {rules.pass_count} cards")
            deal.apply(passes[seat].pop(0))
        leftover = [s for s in range(4) if passes[s]]
        if leftover:
            raise RecordError(f"{where}: seat {leftover[0]} passes more cards than the rules allow "
                              f"({'no passing in this deal' if deal.pass_direction == 0 else rules.pass_count})")
        for n, card in enumerate(plays):
            if deal.is_over:
                raise RecordError(f"{where}: {len(plays) - n} plays after the deal ended")
            deal.apply(card)
    except IllegalActionError as e:
        raise RecordError(f"{where}: {e}") from None
    if not deal.is_over:
        raise RecordError(f"{where}: the deal is unfinished after {len(plays)} plays")
    if deal.points != list(entry["points"]):
        raise RecordError(f"{where}: the record says points {entry['points']}, the plays score {deal.points}")
    return deal


# OpenSpiel's action history -----------------------------------------------------------------------------
# OpenSpiel's `hearts` (docs/records.md on its action history, docs/rules.md "OpenSpiel ids"; checked against
# OpenSpiel by tests/test_records.py): the first chance action is the pass direction (0 none, 1 left,
# 2 across, 3 right: our offsets), the next 52 deal card k of the sequence to seat k % 4, then the passes
# and plays as card actions (rank * 4 + suit). It has no dealer: the holder of 2♣ opens.


def to_openspiel_actions(deal: Deal) -> list[int]:
    """The action history of OpenSpiel's ``hearts`` for this deal (52-card deck): apply it to
    ``pyspiel.load_game("hearts", ...).new_initial_state()`` to reach the same state."""
    if deal.rules.deck != "standard":
        raise RecordError(f"OpenSpiel's hearts deals the 52-card deck; this deal uses the {deal.rules.deck} deck")
    hands = [list(iter_cards(hand)) for hand in deal.dealt]
    dealt = [to_openspiel(hands[seat][k]) for k in range(13) for seat in range(4)]
    return [deal.pass_direction, *dealt, *(to_openspiel(c) for c in deal.history)]


def from_openspiel_actions(actions: Sequence[int], rules: Rules | str = "openspiel") -> Deal:
    """The deal an OpenSpiel ``hearts`` action history describes (pass direction, the 52 dealing chance
    actions, then passes and plays), replayed through our engine under ``rules``."""
    actions = [int(a) for a in actions]
    if len(actions) < 53:
        raise RecordError(f"an OpenSpiel hearts history starts with 53 chance actions; got {len(actions)} actions")
    if actions[0] not in (0, 1, 2, 3):
        raise RecordError(f"the first action is the pass direction 0..3; got {actions[0]}")
    hands: list[list[int]] = [[], [], [], []]
    for k, action in enumerate(actions[1:53]):
        hands[k % 4].append(from_openspiel(action))
    try:
        deal = Deal.from_hands(rules, hands, pass_direction=PASS_NAMES[actions[0]], dealer=0)
        for action in actions[53:]:
            deal.apply(from_openspiel(action))
    except (IllegalActionError, ValueError) as e:
        raise RecordError(f"the OpenSpiel history does not replay under {make_rules(rules).spec()}: {e}") from None
    return deal
