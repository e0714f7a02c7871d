"""The ladder's own cards, re-derived: every card a ladder seat played in a run's records is the card that ladder
agent plays from that seat's view and its recorded seed.

The ladder agents play in the dealer's process, deterministically from the seeds the records and the suite name
(``[agent seed, deal, seating, deal of the game, seat]``, :func:`~hearts_env.evaluation.arena.game.play_game`), so
replaying a game through fresh copies of them, in the order the arena calls them (``reset`` before each deal, ``act``
at each decision, ``end_deal`` after), gives their cards again. A record whose ladder seats played anything else —
a forged row whose cards are all legal and whose points are all the engine's — is named at its first such card.
Reference seats (xinxin, OpenSpiel's ISMCTS) are not deterministic from their seeds and are not replayed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from hearts_env.agents import make_agent
from hearts_env.cards import card_name
from hearts_env.evaluation.arena.game import episode_match
from hearts_env.rules import make_rules
from hearts_env.views import SeatView


def ladder_deviation(record: dict[str, Any], ladder_spec: str) -> str | None:
    """The first card a seat of ``ladder_spec`` played in ``record`` that the agent would not have played (as a
    sentence naming the game, the seat and both cards), or None when every one is the agent's."""
    rules = make_rules(record["rules"])
    match = episode_match(rules, record["seed"], record["deal"])
    seeds_from = record.get("agent_seed", record["seed"])
    agents = {seat: make_agent(spec) for seat, spec in enumerate(record["seating"]) if spec == ladder_spec}
    game = f"deal {record['deal']}, seating {record['seating_index']}"
    for recorded in record["deals"]:
        deal = match.deal
        if list(deal.dealt) != list(recorded["hands"]):
            return f"{game}: the recorded hands are not the deal's"
        for seat, agent in agents.items():
            agent.reset(rules, seat, seed=[seeds_from, record["deal"], record["seating_index"], match.deal_index, seat])
        for n, card in enumerate(recorded["history"]):
            seat = deal.current
            if seat in agents:
                chosen = agents[seat].act(SeatView.of(deal, seat))
                if chosen != card:
                    deck = rules.deck_obj
                    return (f"{game}, deal {match.deal_index} of the game, card {n + 1}: seat {seat} ({ladder_spec}) "
                            f"plays {card_name(chosen, deck)}, the record shows {card_name(card, deck)}")
            deal.apply(card)
        if not deal.is_over:  # the game ended at an error; its cards so far are checked
            break
        for seat, agent in agents.items():
            agent.end_deal(SeatView.of(deal, seat))
        if match.next_deal() is None:
            break
    return None


def sample_games(records: list[dict[str, Any]], fraction: float, seed: int) -> list[dict[str, Any]]:
    """``fraction`` of ``records`` (all of them at 1), drawn by ``seed`` so that anyone can name the same sample."""
    if fraction >= 1:
        return records
    chosen = sorted(random.Random(seed).sample(range(len(records)), round(len(records) * fraction)))
    return [records[k] for k in chosen]


def first_deviation(games: Iterable[tuple[str, dict[str, Any]]]) -> str | None:
    """The first ladder card, over ``(ladder spec, record)`` pairs, that the ladder agent would not have played."""
    for spec, record in games:
        found = ladder_deviation(record, spec)
        if found is not None:
            return found
    return None
