"""``hearts-env play``: a person plays one seat of a game in the terminal against agents, deal by deal, the
cards asked by name (``QS``, ``10D``, ``Q♠``) until a legal one is given."""

from __future__ import annotations

import secrets
import sys
from collections.abc import Callable, Sequence
from typing import Any

from hearts_env.agents import Agent, AgentError, make_agent
from hearts_env.agents.failures import FailureReport, card_of, describe, first_line
from hearts_env.cards import CardError, card_id, card_name, format_cards
from hearts_env.engine import Deal, IllegalActionError, Phase
from hearts_env.match import Match
from hearts_env.render import format_hand
from hearts_env.rules import PASS_NAMES, Rules, RulesError, make_rules
from hearts_env.views import SeatView

__all__ = ["CARD_FORMAT", "by_seat", "play"]


def play(rules_spec: str, opponent_specs: Sequence[str], me: int, seed: int | None) -> int:
    """``hearts-env play``: a person plays seat ``me`` against the agents ``opponent_specs`` (the other seats in
    order) under ``rules_spec``, the deals drawn from ``seed`` (None: a new one, printed). Bad input is asked
    again, end of input or Ctrl-C stops cleanly; returns the command's exit status."""
    try:
        rules = make_rules(rules_spec)
        opponents = [make_agent(spec) for spec in opponent_specs]
    except (RulesError, AgentError, ValueError) as e:
        print(f"hearts-env play: {e}", file=sys.stderr)
        return 2
    for spec, seat, agent in zip(opponent_specs, (s for s in range(4) if s != me), opponents):
        try:
            agent.reset(rules, seat, seed=0)  # an agent that cannot play these rules says so now, in one line
        except Exception as e:
            print(f"hearts-env play: agent {spec!r} cannot play {rules.spec()}: {first_line(describe(e))}",
                  file=sys.stderr)
            return 2
    seed = secrets.randbelow(10**6) if seed is None else seed
    print(f"seed {seed} (`--seed {seed}` deals these cards again)")
    try:
        return _play_game(rules, opponents, list(opponent_specs), me, seed)
    except KeyboardInterrupt:
        print("\ngame abandoned (Ctrl-C)")
        return 130
    except OpponentFailed as e:
        report = FailureReport()
        report.add(e.spec, e.kind, e.where, e.text)
        print(f"\nhearts-env play: the game stops: {e.spec} (seat {e.seat}) failed in {e.where}: "
              f"{first_line(e.text)}; its traceback in {report.log}", file=sys.stderr)
        return 3


class OpponentFailed(Exception):
    """An opponent's call raised, or it returned a card that is not one or not legal: the game cannot go on."""

    def __init__(self, seat: int, spec: str, where: str, error: BaseException):
        super().__init__(f"seat {seat} ({spec}) failed in {where}")
        self.seat, self.spec, self.where = seat, spec, where
        self.kind = "illegal" if isinstance(error, IllegalActionError) else "exception"
        self.text = str(error) if isinstance(error, IllegalActionError) else describe(error)


def _opponent(seat: int, spec: str, where: str, call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``call(*args, **kwargs)``, whatever it raises an :class:`OpponentFailed` of ``seat``."""
    try:
        return call(*args, **kwargs)
    except Exception as e:
        raise OpponentFailed(seat, spec, where, e) from e


def _play_game(rules: Rules, opponents: list[Agent], specs: list[str], me: int, seed: int) -> int:
    others = [s for s in range(4) if s != me]
    agents = dict(zip(others, opponents))
    match = Match(rules, seed=seed)
    names = ["you" if s == me else f"seat {s} ({specs[others.index(s)]})" for s in range(4)]
    spec_of = {seat: specs[others.index(seat)] for seat in others}
    while True:
        deal = match.deal
        number = f"deal {match.deal_index + 1}"
        for seat, agent in agents.items():
            _opponent(seat, spec_of[seat], f"{number} (reset)", agent.reset, rules, seat,
                      seed=[seed, match.deal_index, seat])
        print(f"\n=== deal {match.deal_index + 1}: pass {deal.pass_direction_name}; scores: "
              f"{by_seat(match.scores, names)}")
        while not deal.is_over:
            seat = deal.current
            passing = deal.phase == Phase.PASS
            if seat != me:
                where = f"{number}, trick {deal.trick_index + 1}" if not passing else f"{number}, passing"
                card = _opponent(seat, spec_of[seat], where, _checked_act, agents[seat], deal)
                trick = _opponent(seat, spec_of[seat], where, deal.apply, card)
                if not passing:
                    print(f"{names[seat]} plays {card_name(card, deal.deck, symbols=True)}")
            else:
                asked = _ask(deal, me)
                if asked is None:
                    print("\nend of input: game abandoned")
                    return 1
                trick = deal.apply(asked)
            if passing and deal.phase != Phase.PASS:
                _announce_exchange(deal, me, names)
            if trick is not None:
                verb = "take" if trick.winner == me else "takes"
                points = f"{trick.points} point{'' if trick.points == 1 else 's'}"
                print(f"  -> {names[trick.winner]} {verb} the trick ({points})")
        for seat, agent in agents.items():
            _opponent(seat, spec_of[seat], f"{number} (end_deal)", agent.end_deal, SeatView.of(deal, seat))
        moon = f"; {names[deal.moon_shooter]} shot the moon" if deal.moon_shooter is not None else ""
        assert deal.points is not None  # the deal is over
        print(f"deal points: {by_seat(deal.points, names)}{moon}")
        if match.next_deal() is None:
            winners = match.winners()
            print(f"game over: scores: {by_seat(match.scores, names)}; "
                  f"{'you win' if winners == [me] else 'winner(s): ' + ', '.join(names[w] for w in winners)}")
            return 0


def _checked_act(agent: Agent, deal: Deal) -> int:
    """The card ``agent`` plays now, taken as every command takes one (:func:`~hearts_env.agents.failures.card_of`)."""
    return card_of(agent.act(SeatView.of(deal, deal.current)), deal.deck.size - 1)


def by_seat(points: Sequence[int], names: list[str]) -> str:
    """Numbers by seat in one line: ``you 3, seat 1 (heuristic) 0, ...``."""
    return ", ".join(f"{name} {p}" for name, p in zip(names, points))


def _announce_exchange(deal: Deal, me: int, names: list[str]) -> None:
    """After the last pass: what the person gave and got, and from whom."""
    view = SeatView.of(deal, me)
    deck = deal.deck
    offset = deal.pass_direction
    print(f"you passed {format_cards(view.passed, deck, symbols=True)} to {names[(me + offset) % 4]}; "
          f"you received {format_cards(view.received, deck, symbols=True)} from {names[(me - offset) % 4]}")


CARD_FORMAT = "rank then suit: QS, TD or 10D, 2C, Q♠"


def _ask(deal: Deal, me: int) -> int | None:
    """The person's card, asked until it is a legal one; None at end of input."""
    view = SeatView.of(deal, me)
    deck = deal.deck
    if deal.phase == Phase.PASS:
        target = PASS_NAMES[deal.pass_direction]
        print(f"your hand: {format_hand(view.hand & ~view.passed, deck)}")
        prompt = f"card to pass {target} ({view.passed.bit_count() + 1} of {deal.rules.pass_count}) > "
    else:
        trick = " ".join(card_name(c, deck, symbols=True) for c in view.trick) or "(you lead)"
        print(f"trick {view.trick_index + 1}: {trick}")
        print(f"your hand: {format_hand(view.hand, deck)}")
        prompt = "your card > "
    print(f"legal: {format_cards(view.legal, deck, symbols=True)}   ({CARD_FORMAT})")
    while True:
        try:
            line = input(prompt)
        except EOFError:
            return None
        if not sys.stdin.isatty():  # a script's input is not echoed by a terminal: show it
            print(line)
        try:
            card = card_id(line.strip(), deck)
        except CardError as e:
            print(f"  {e}")
            continue
        if not view.legal >> card & 1:
            try:
                deal.clone().apply(card)
            except IllegalActionError as e:
                print(f"  {e}")
            continue
        return card
