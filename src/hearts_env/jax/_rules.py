"""The rules as data: :class:`RulesData`, a pytree of arrays built from :func:`hearts_env.tables.tables_of`.

Every rule option becomes an array leaf (masks as four 32-bit suit words, counts, point values, flags), so
the engine's functions take the rules as an argument (``rules_data``) and one compiled program serves every
rule set of a deck. The deck size is the pytree's one static field: the deck fixes the shapes (the action mask has one
slot per card), so each deck (52 or 32 cards) compiles once.

Cards are the action ids of :mod:`hearts_env.cards` (``suit * ranks_per_suit + rank``); a set of cards is
``uint32[4]``, one word per suit, bit ``rank`` of word ``suit``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import jax  # type: ignore[import-not-found, unused-ignore]  # the optional jax extra
import jax.numpy as jnp  # type: ignore[import-not-found, unused-ignore]
import numpy as np

from hearts_env.rules import Rules, make_rules
from hearts_env.tables import (
    MOON_ADD,
    MOON_CHOICE,
    MOON_OFF,
    MOON_SUBTRACT,
    N_POINT_CARDS,
    tables_of,
)

MAX_SCHEDULE = 64
"""Longest passing schedule (comma-separated directions) that :func:`rules_data` accepts."""

__all__ = ["MAX_SCHEDULE", "MOON_ADD", "MOON_CHOICE", "MOON_OFF", "MOON_SUBTRACT", "RulesData", "rules_data",
           "suit_words"]


def suit_words(mask: int, rps: int) -> np.ndarray:
    """A card-id bitmask (Python int) as ``uint32[4]`` suit words."""
    low = (1 << rps) - 1
    return np.array([(mask >> (s * rps)) & low for s in range(4)], dtype=np.uint32)


class _Leaves(NamedTuple):
    pass_count: Any  # int32: cards each seat passes (0: the rules never pass)
    one_deal_directions: Any  # int32[MAX_SCHEDULE]: the directions a one-deal episode draws from
    n_one_deal: Any  # int32: how many of them
    schedule: Any  # int32[MAX_SCHEDULE]: the pass offset of deal k of a game is schedule[k % n_schedule]
    n_schedule: Any  # int32 (0 for passing="random": every deal draws from one_deal_directions)
    full: Any  # uint32[4]: every card of the deck
    hearts: Any  # uint32[4]
    breaks_hearts: Any  # uint32[4]: cards whose play breaks hearts
    first_trick_only: Any  # uint32[4]: under no_pts_on_first_trick, the cards allowed on trick 1 (else 0)
    opening_leads: Any  # uint32[4]: with lead_lowest_club, what the opening lead may be
    lone_qs_lead: Any  # uint32[4]: under can_lead_hearts_instead_of_qs, Q♠ alone (else 0)
    scoring: Any  # uint32[4]: the cards worth points; taking them all is the moon
    penalty_cards: Any  # uint32[4]: hearts, Q♠ and every other single card that scores (RuleTables.penalty_cards)
    qs: Any  # uint32[4]: Q♠
    jd: Any  # uint32[4]: J♦
    point_cards: Any  # uint32[N_POINT_CARDS, 4]: the single penalty cards that score (unused rows 0)
    point_values: Any  # int32[N_POINT_CARDS]
    heart_points: Any  # int32
    penalty_total: Any  # int32
    moon: Any  # int32: MOON_OFF / MOON_ADD / MOON_SUBTRACT / MOON_CHOICE (tables.pack's values)
    jd_bonus: Any  # bool
    jd_points: Any  # int32
    avoid_bonus: Any  # bool
    avoid_points: Any  # int32
    target: Any  # int32
    match: Any  # bool: game="match" (a game to target) rather than one deal
    lead_lowest_club: Any  # bool
    must_break_hearts: Any  # bool


@jax.tree_util.register_pytree_node_class
class RulesData:
    """The rules of one :class:`~hearts_env.rules.Rules` as arrays (see the module docstring).

    ``n`` (the deck size) is static; every other field is an array leaf, in ``leaves`` (a NamedTuple whose
    fields are named and commented in :mod:`hearts_env.jax._rules`). Attribute access reads the leaves:
    ``rules_data.pass_count``. A batch of rule sets (stacked leaves, one deck) can be ``vmap``-ed over.
    """

    __slots__ = ("leaves", "n")

    def __init__(self, n: int, leaves: _Leaves):
        self.n = n
        self.leaves = leaves

    @property
    def rps(self) -> int:
        """Ranks per suit, which is also the hand size and the number of tricks (13 or 8)."""
        return self.n // 4

    def __getattr__(self, name: str) -> Any:
        if name in _Leaves._fields:
            return getattr(self.leaves, name)
        raise AttributeError(name)

    def tree_flatten(self) -> tuple[tuple[Any, ...], int]:
        return tuple(self.leaves), self.n

    @classmethod
    def tree_unflatten(cls, n: int, children: Any) -> RulesData:
        return cls(n, _Leaves(*children))

    def __repr__(self) -> str:
        return f"RulesData(n={self.n})"


def rules_data(rules: Rules | str | None = None) -> RulesData:
    """The :class:`RulesData` of ``rules`` (a Rules, a preset or spec string; None: ``standard``)."""
    rules = make_rules(rules)
    t = tables_of(rules)
    rps = t.ranks_per_suit
    one_deal = rules.one_deal_directions
    schedule = rules.pass_schedule or ()
    if max(len(one_deal), len(schedule)) > MAX_SCHEDULE:
        raise ValueError(f"hearts_env.jax handles passing schedules of up to {MAX_SCHEDULE} deals, "
                         f"got {len(schedule)}")

    def padded(values: tuple[int, ...]) -> np.ndarray:
        out = np.zeros(MAX_SCHEDULE, np.int32)
        out[:len(values)] = values
        return out

    point_cards = np.zeros((N_POINT_CARDS, 4), np.uint32)
    point_values = np.zeros(N_POINT_CARDS, np.int32)
    for j, (bit, value) in enumerate(t.point_cards):
        point_cards[j] = suit_words(bit, rps)
        point_values[j] = value
    moon = {"off": MOON_OFF, "add_to_others": MOON_ADD, "subtract_from_shooter": MOON_SUBTRACT,
            "shooter_choice": MOON_CHOICE if rules.game == "match" else MOON_ADD}[rules.moon]
    words = {name: suit_words(value, rps) for name, value in (
        ("full", t.full), ("hearts", t.hearts), ("breaks_hearts", t.breaks_hearts),
        ("first_trick_only", t.first_trick_only), ("opening_leads", t.opening_leads),
        ("lone_qs_lead", t.lone_qs_lead), ("scoring", t.scoring_cards), ("penalty_cards", t.penalty_cards),
        ("qs", t.qs_bit), ("jd", t.jd_bit))}
    leaves = _Leaves(
        pass_count=np.int32(t.pass_count), one_deal_directions=padded(one_deal), n_one_deal=np.int32(len(one_deal)),
        schedule=padded(schedule), n_schedule=np.int32(len(schedule)),
        **words, point_cards=point_cards, point_values=point_values,
        heart_points=np.int32(rules.heart_points), penalty_total=np.int32(rules.penalty_total), moon=np.int32(moon),
        jd_bonus=np.bool_(rules.jd_bonus), jd_points=np.int32(rules.jd_bonus_points),
        avoid_bonus=np.bool_(rules.avoid_all_tricks_bonus), avoid_points=np.int32(rules.avoid_all_tricks_points),
        target=np.int32(rules.target), match=np.bool_(rules.game == "match"),
        lead_lowest_club=np.bool_(t.lead_lowest_club), must_break_hearts=np.bool_(rules.must_break_hearts))
    return RulesData(t.size, _Leaves(*(jnp.asarray(v) for v in leaves)))
