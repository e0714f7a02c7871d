"""A game of Hearts: deals until a seat reaches the target score (or one deal).

The match owns what spans deals: the dealer rotation, the pass-direction schedule, the
cumulative scores, and the winners (lowest score wins; ties are shared).

>>> from hearts_env.match import Match
>>> m = Match("standard(target=30)", seed=3)
>>> while not m.is_over:
...     _ = m.deal.playout(0)
...     _ = m.next_deal()
>>> max(m.scores) >= 30
True
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from hearts_env.engine import Deal, direction_offset, validate_scores
from hearts_env.rules import Rules, make_rules


def check_seed(seed: object, where: str = "reset") -> None:
    """Refuse a seed an env's ``reset`` cannot take, in one line naming it: None or an integer >= 0."""
    if seed is None:
        return
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"{where}(seed=...) takes an integer >= 0 or None, got {seed!r}")


class Match:
    """A sequence of deals under one Rules; ``rules.game`` says whether it is one deal or a game to ``target``."""

    def __init__(self, rules: Rules | str | None = None, seed: int | np.random.Generator | None = None,
                 deals: Sequence[Deal] | None = None, pass_direction: int | str | None = None,
                 scores: Sequence[int] | None = None):
        """``seed`` drives every shuffle and every drawn pass direction. ``deals`` optionally gives
        explicit deals to play in order (shuffled deals follow if they run out). ``scores`` starts
        the game from given scores.

        Pass directions: a game (``rules.game == "match"``) follows the rules' schedule from its first
        entry (left, right, across, hold, …). A one-deal episode (``game == "deal"``) draws its
        direction uniformly from the schedule with ``seed`` (:func:`~hearts_env.rules.draw_pass_direction`),
        so one-deal episodes play every direction; ``pass_direction`` pins it instead (one-deal only).
        """
        self.rules = make_rules(rules)
        if not isinstance(seed, np.random.Generator | list | tuple):  # lists: the arena's seed sequences
            check_seed(seed, "Match")
        self.rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        if pass_direction is not None and self.rules.game != "deal":
            raise ValueError("pass_direction pins the direction of a one-deal episode (rules with game=deal); "
                             "a game to the target follows the rules' passing schedule")
        self._pinned_direction = pass_direction
        self.scores = list(validate_scores(scores))
        self.deal_index = 0
        self.history: list[Deal] = []
        self._explicit = list(deals or [])
        self.deal = self._new_deal()

    @property
    def dealer(self) -> int:
        """Dealer of the current deal: seat 3 deals first, so seat 0 is left of the first dealer."""
        return (3 + self.deal_index) % 4

    def pass_direction_for(self, deal_index: int) -> int | None:
        """Pass offset of deal ``deal_index`` of a game, or None when it is drawn (``passing="random"``,
        or any one-deal episode that ``pass_direction`` does not pin)."""
        if self.rules.game == "deal":
            return None if self._pinned_direction is None else direction_offset(self._pinned_direction)
        schedule = self.rules.pass_schedule
        return None if schedule is None else schedule[deal_index % len(schedule)]

    def _new_deal(self) -> Deal:
        if self._explicit:
            deal = self._explicit.pop(0)
            deal.game_scores = tuple(self.scores)  # shooter_choice decides against the match's scores
            return deal
        return Deal.random(self.rules, self.rng, pass_direction=self.pass_direction_for(self.deal_index),
                           dealer=self.dealer, game_scores=tuple(self.scores))

    @property
    def is_over(self) -> bool:
        """True when the last deal is finished and the game has ended."""
        if not self.deal.is_over:
            return False
        if self.rules.game == "deal":
            return True
        return max(self.scores_after_deal()) >= self.rules.target

    def scores_after_deal(self) -> list[int]:
        """Cumulative scores including the current deal's points once it is over."""
        if self.deal.is_over and len(self.history) == self.deal_index:
            return [a + b for a, b in zip(self.scores, self.deal.points)]  # type: ignore[arg-type]
        return list(self.scores)

    def next_deal(self) -> Deal | None:
        """Book the finished deal's points and start the next deal; None when the game is over."""
        if not self.deal.is_over:
            raise RuntimeError("the current deal is not finished")
        if len(self.history) == self.deal_index:
            self.scores = self.scores_after_deal()
            self.history.append(self.deal)
        if self.rules.game == "deal" or max(self.scores) >= self.rules.target:
            return None
        self.deal_index += 1
        self.deal = self._new_deal()
        return self.deal

    def winners(self) -> list[int]:
        """Seats with the lowest score (several on a tie); valid once the game is over."""
        scores = self.scores_after_deal()
        low = min(scores)
        return [s for s in range(4) if scores[s] == low]
