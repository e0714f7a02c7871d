"""Outcome data: the moon positions of a player's deals against real opponents, each card valued by playing on.

    make xinxin
    python -m hearts_baselines.apprentice.outcomes --out runs/apprentice-outcomes --deals 1200 --jobs 2

The searcher of :mod:`~hearts_baselines.apprentice.data` values a card by rollouts in which its own policy plays
every seat, so it cannot see a moon that the real opponents would shoot (docs/learned.md). Here the teacher is the
game itself: ``--player`` (by default the bundled apprentice) plays one seat of deal ``k``, ``(k // 4) mod 4``,
against three ``--opponents`` seats (by default xinxin at OpenSpiel's setting, the moon stage's opponent); at each
of the player's *moon positions* (:func:`~hearts_baselines.apprentice.supervised.moon_on`: a playing decision
at which one opponent alone has taken points and the player none) every legal card is played in a copy of the
deal and the deal finished ``--rollouts`` times by the same seats — the player itself, the opponents with their
own search. ``values`` is the player's mean points at the end after each card, ``action`` the card with the
fewest (the first of equals); the deal then goes on with the player's own card. Only moon positions are
recorded, in the units and format of :mod:`~hearts_baselines.apprentice.data` (``points``: what the player took
in the deal as played), so ``supervised --data …`` reads them as it reads search data; ``--anchor B`` fits the
policy to the values rather than to the one card (docs/learned.md).

The values are the true deal's, not a sampled world's: the hidden cards decide each outcome. Averaged over the
positions that look the same to the seat — the deals differ where the seat cannot see — a card's mean is its
value at that information set (the opponents' cards drawn as they are in play), which is what a fit of the
policy's expected value over the card values (``supervised --anchor``) improves; one position's argmin alone
would be a hindsight label.

Deal ``k`` is dealt from ``default_rng([NAMESPACE, seed, k])`` (this module's namespace: no deal of the arena,
``hearts-bench`` or the search data) and passes ``left, right, across, hold``\\[k mod 4\\]; each seat's agent is
seeded ``[NAMESPACE, seed, k, seat]`` and plays the rollouts too, so the seats must keep no state between decisions
beyond their random stream (the apprentice, the rule players and xinxin keep none; a rollout only advances it).
Units are functions of (seed, unit index), whatever ``--jobs``; a run resumes.
"""

from __future__ import annotations

import functools
import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np

import hearts_env
from hearts_baselines.apprentice import data as D
from hearts_baselines.apprentice.agent import legal_matrix
from hearts_baselines.apprentice.moon import XINXIN
from hearts_baselines.apprentice.supervised import moon_on
from hearts_baselines.run_args import arg, parse
from hearts_env import SeatView
from hearts_env.agents import make_agent
from hearts_env.cards import iter_cards
from hearts_env.encoders import make_encoder
from hearts_env.engine import Deal
from hearts_env.evaluation.arena.game import pass_direction_of
from hearts_env.match import Match
from hearts_env.rules import Rules, make_rules

FORMAT = 1
NAMESPACE = zlib.crc32(b"hearts-apprentice/outcomes")
TEACHER = "outcomes"  # the manifest's searcher: the game played on


@dataclass
class Args(D.UnitArgs):
    deals: int = arg(1200, "deals in all (a multiple of --unit-deals)")
    unit_deals: int = arg(25, "deals per file")
    player: str = arg("apprentice", "agent spec of the recorded seat (it also plays that seat in the rollouts)")
    opponents: str = arg(XINXIN, "agent spec of the three other seats")
    rollouts: int = arg(2, "deals finished per legal card at each moon position")
    rules: str = D.RULES

    def __post_init__(self) -> None:  # refused in one line, before any folder is made
        check(self.deals, self.unit_deals, self.jobs, self.rollouts, self.rules, (self.player, self.opponents))


def check(deals: int, unit_deals: int, jobs: int, rollouts: int, rules: str, specs: tuple[str, ...]) -> None:
    """Refuse what a run cannot use (a ValueError naming it): counts, rules, agent specs."""
    D.check_counts(deals, unit_deals, jobs)
    if isinstance(rollouts, bool) or not isinstance(rollouts, int) or rollouts < 1:
        raise ValueError(f"rollouts must be an integer >= 1, got {rollouts!r}")
    make_rules(rules)
    for spec in specs:
        D.close_agent(make_agent(spec))


def finish(deal: Deal, agents: list[Any]) -> None:
    """Play ``deal`` to its end, every seat by its agent."""
    for seat, view in D.decisions(deal):
        deal.apply(agents[seat].act(view))


def card_values(deal: Deal, view: SeatView, agents: list[Any], rollouts: int) -> dict[int, float]:
    """Each legal card of the seat to play in ``deal`` (``view``: its view) → the seat's mean points when copies of
    the deal, that card played, are finished ``rollouts`` times by ``agents``."""
    seat = view.seat
    values = {}
    for card in iter_cards(view.legal):
        total = 0
        for _ in range(rollouts):
            copy = deal.clone()
            copy.apply(card)
            finish(copy, agents)
            assert copy.points is not None
            total += copy.points[seat]
        values[card] = total / rollouts
    return values


def play_deal(rules: Rules, k: int, seed: int, player: str, opponents: str, rollouts: int) -> dict[str, np.ndarray]:
    """The recorded moon positions of deal ``k`` (see the module docstring)."""
    match = Match(rules, seed=np.random.default_rng([NAMESPACE, seed, k]), pass_direction=pass_direction_of(rules, k))
    deal = match.deal
    me = D.searcher_seat(k)
    agents = [make_agent(player if seat == me else opponents) for seat in range(4)]
    encoder = make_encoder("rich", rules, dtype="uint8")
    n = rules.deck_obj.size
    rows: dict[str, list] = {key: [] for key in D.KEYS}
    try:
        for seat, agent in enumerate(agents):
            agent.reset(rules, seat, seed=[NAMESPACE, seed, k, seat])
        for seat, view in D.decisions(deal):
            legal = view.legal
            if seat == me:
                obs = encoder.encode(view).copy()
                if moon_on(obs[None], np.array([view.phase]), rules)[0]:
                    values = card_values(deal, view, agents, rollouts)
                    row = np.full(n, np.nan, np.float32)
                    for c, v in values.items():
                        row[c] = v
                    rows["obs"].append(obs)
                    rows["legal"].append(legal_matrix(np.array([legal], np.uint64), n)[0])
                    rows["action"].append(min(values, key=values.__getitem__))
                    rows["values"].append(row)
                    rows["deal"].append(k)
                    rows["seat"].append(seat)
                    rows["phase"].append(view.phase)
            deal.apply(agents[seat].act(view))
    finally:  # an outside program's seat (xinxin) ends with its deal, whatever happened
        for agent in agents:
            D.close_agent(agent)
    assert deal.points is not None
    rows["points"] = [deal.points[s] for s in rows["seat"]]
    return D.rows_to_arrays(rows, n, encoder.size)


def generate(out: str, deals: int, seed: int = 0, jobs: int = 1, unit_deals: int = 25, player: str = "apprentice",
             opponents: str = XINXIN, rollouts: int = 2, rules: str = D.RULES, progress: bool = True) -> int:
    """Write units until ``deals`` deals are recorded in ``out``; returns the number of units written now."""
    check(deals, unit_deals, jobs, rollouts, rules, (player, opponents))  # before any folder is made
    meta = {"format": FORMAT, "searcher": TEACHER, "rules": rules, "seed": seed, "unit_deals": unit_deals,
            "observation": "rich", "observation_dtype": "uint8", "hearts_env": hearts_env.__version__,
            "player": player, "opponents": opponents, "rollouts": rollouts, "recorded": "moon positions"}
    play = functools.partial(play_deal, seed=seed, player=player, opponents=opponents, rollouts=rollouts)
    return D.write_units(out, meta, deals, jobs, play, progress)


def main(argv: list[str] | None = None) -> None:
    args = parse(Args, argv, __doc__.split("\n\n")[0])
    made = generate(args.out, args.deals, args.seed, args.jobs, args.unit_deals, args.player, args.opponents,
                    args.rollouts, args.rules)
    print(f"{made} units written to {args.out}")


if __name__ == "__main__":
    main()
