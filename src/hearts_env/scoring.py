"""Scoring a finished deal: penalty points, the moon (every variant), the J♦ and no-trick bonuses.

One function, :func:`score_deal`, used by the scalar engine for every way a deal ends (``apply``
and ``playout``); the batched kernels implement the same arithmetic over arrays and are pinned to
it by the equivalence tests.
"""

from __future__ import annotations

from collections.abc import Sequence

from hearts_env.tables import RuleTables


def score_deal(tables: RuleTables, taken: Sequence[int], tricks_won: Sequence[int],
               game_scores: Sequence[int]) -> tuple[list[int], int | None]:
    """``(points, moon_shooter)`` of a finished deal from the cards each seat took and its tricks.

    ``game_scores`` (the scores before this deal) matter only for ``moon="shooter_choice"``.
    """
    rules = tables.rules
    points = [tables.penalty_points_of(taken[s]) for s in range(4)]
    shooter = None
    if rules.moon != "off":
        for s in range(4):
            if taken[s] & tables.scoring_cards == tables.scoring_cards:
                shooter = s
    if shooter is not None:
        n = rules.penalty_total
        mode = rules.moon
        if mode == "shooter_choice":
            mode = moon_choice(tables, shooter, game_scores)
        if mode == "add_to_others":
            points = [0 if s == shooter else n for s in range(4)]
        else:
            points = [-n if s == shooter else 0 for s in range(4)]
    if rules.jd_bonus:
        for s in range(4):
            if taken[s] & tables.jd_bit:
                points[s] -= rules.jd_bonus_points
    if rules.avoid_all_tricks_bonus and shooter is None:
        for s in range(4):
            if not tricks_won[s]:
                points[s] -= rules.avoid_all_tricks_points
    return points, shooter


def moon_choice(tables: RuleTables, shooter: int, game_scores: Sequence[int]) -> str:
    """The shooter's choice under ``moon="shooter_choice"``: add the penalty total to the others
    unless that ends the game with the shooter not among the winners (then subtract it from the
    shooter). Outside a game (one-deal episodes) it always adds."""
    rules = tables.rules
    if rules.game != "match":
        return "add_to_others"
    n = rules.penalty_total
    after = [score + (0 if s == shooter else n) for s, score in enumerate(game_scores)]
    if max(after) >= rules.target and after[shooter] > min(after):
        return "subtract_from_shooter"
    return "add_to_others"
