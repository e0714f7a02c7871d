"""Shared hypothesis strategies (``from rule_strategies import ...``; ``tests/`` is on pytest's
``pythonpath``): every ``Rules`` field, game scores and moon deals, for every equivalence and
property test (scalar vs NumPy vs Numba engines, playouts, worlds, encoders).

``RULE_FIELDS`` holds one strategy per field of :class:`~hearts_env.rules.Rules`;
``test_rules_strategy_draws_every_field`` fails when a field is added without one, so no
equivalence test can silently skip a rule again.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from hearts_env.engine import Deal
from hearts_env.rules import MAX_POINTS, MOON_MODES, PASS_OFFSETS, SINGLE_CARD_PENALTIES, Rules

# derandomized: the same examples every run (CI-stable); no example database written to the tree
SETTINGS = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow])

_points = st.one_of(st.integers(0, 15), st.integers(0, MAX_POINTS))
_directions = st.sampled_from([d for d in PASS_OFFSETS if d != "hold"] + ["hold"])
_schedule = st.lists(_directions, min_size=1, max_size=5).map(",".join)

RULE_FIELDS: dict[str, st.SearchStrategy[Any]] = {
    "deck": st.sampled_from(["standard", "dutch"]),
    "heart_points": _points,
    "queen_of_spades_points": _points,
    "jack_of_clubs_points": _points,
    "king_of_spades_points": _points,
    "ace_of_spades_points": _points,
    "jd_bonus": st.booleans(),
    "jd_bonus_points": _points,
    "passing": st.one_of(st.sampled_from(["rotate", "none", "random", "left", "right", "across"]), _schedule),
    "pass_count": st.integers(1, 8),  # 8 = a Dutch hand
    "opening_lead": st.sampled_from(["lowest_club", "left_of_dealer"]),
    "no_pts_on_first_trick": st.booleans(),
    "can_lead_any_club": st.booleans(),
    "avoid_all_tricks_bonus": st.booleans(),
    "avoid_all_tricks_points": _points,
    "must_break_hearts": st.booleans(),
    "qs_breaks_hearts": st.booleans(),
    "can_lead_hearts_instead_of_qs": st.booleans(),
    "moon": st.sampled_from(MOON_MODES),
    "game": st.sampled_from(["deal", "match"]),
    "target": st.one_of(st.integers(1, 130), st.integers(1, MAX_POINTS)),
}


@st.composite
def rules_strategy(draw: st.DrawFn) -> Rules:
    """Rules with every field drawn (valid combinations only)."""
    values = {name: draw(strategy) for name, strategy in RULE_FIELDS.items()}
    if values["opening_lead"] != "lowest_club":
        values["can_lead_any_club"] = False
    if not any(values[k] for k in ("heart_points", *SINGLE_CARD_PENALTIES)):
        values["heart_points"] = 1
    return Rules(**values)


@st.composite
def game_scores_strategy(draw: st.DrawFn, rules: Rules) -> tuple[int, ...]:
    """Four game scores of a game still running (each below the target; a moon can make one negative),
    half the time all within two moons of the target, where ``moon="shooter_choice"`` has to choose."""
    top = rules.target - 1
    near = draw(st.booleans())
    low = max(0, top - 2 * rules.penalty_total) if near else -rules.penalty_total  # moons can make scores negative
    return tuple(draw(st.integers(low, top)) for _ in range(4))


def moon_deal(rules: Rules, order: list[int], dealer: int, game_scores: tuple[int, ...]) -> Deal:
    """One suit per seat, no passing: the first leader wins every trick and shoots the moon."""
    deck = rules.deck_obj
    return Deal.from_hands(rules, [deck.suit_mask(order[s]) for s in range(4)], dealer=dealer, game_scores=game_scores)

