"""Scripted players in JAX: :func:`greedy_action`, paper 002's greedy player, card for card the package's
``greedy`` agent (:class:`hearts_env.agents.basic.GreedyAgent`, and the Numba kernel ``_greedy``), for
opponents inside a compiled learner."""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp  # type: ignore[import-not-found, unused-ignore]

from hearts_env.jax._engine import PASS, State, legal_action_mask, to_mask
from hearts_env.jax._rules import RulesData

__all__ = ["greedy_action"]


def _first(mask: Any) -> Any:
    return jnp.argmax(mask)


def _last(mask: Any) -> Any:
    return mask.shape[-1] - 1 - jnp.argmax(mask[::-1])


def greedy_action(state: State, rules_data: RulesData) -> Any:
    """The card the ``greedy`` agent picks for the seat to act (-1 once the deal is over).

    Passing: the most dangerous card (Q♠, then A♠ and K♠, then hearts, by rank). Leading: the lowest spade
    while Q♠ is out, else its highest non-heart (highest rank, lowest suit on ties). Following: the highest
    card under the trick's best (or the highest of the suit when last to play to a trick without points),
    else its lowest. Void: Q♠, else its highest rank."""
    n, rps = rules_data.n, rules_data.rps
    ids = jnp.arange(n)
    rank = ids % rps
    suit = ids // rps
    legal = legal_action_mask(state, rules_data)
    qs = ids == 3 * rps + rps - 3
    high_spade = (ids == 3 * rps + rps - 2) | (ids == 3 * rps + rps - 1)
    hearts, spades = suit == 2, suit == 3
    played = to_mask(state.played_by[0] | state.played_by[1] | state.played_by[2] | state.played_by[3], n)

    danger = rank + jnp.where(qs, 40, jnp.where(high_spade, 30, jnp.where(hearts, 6, 0)))
    pass_card = jnp.argmax(jnp.where(legal, danger, -1))

    def highest_rank(mask: Any) -> Any:  # max rank, lowest id on ties
        return jnp.argmax(jnp.where(mask, rank, -1))

    safe = legal & ~hearts
    safe = jnp.where(safe.any(), safe, legal)
    lead_spades = safe & spades
    lead_card = jnp.where(~(played & qs).any() & lead_spades.any(), _first(lead_spades), highest_rank(safe))

    tc = state.trick_count
    led = jnp.maximum(state.trick[0], 0) // rps
    following = legal & (suit == led)
    in_trick = (ids[:, None] == state.trick[None, :]).any(-1)
    points_in_trick = (in_trick & to_mask(rules_data.penalty_cards, n)).any()
    best = jnp.max(jnp.where(in_trick & (suit == led), ids, -1))
    safe_high = following & ~qs
    under = following & (ids < best)
    follow_card = jnp.where((tc == 3) & ~points_in_trick & safe_high.any(), _last(safe_high),
                            jnp.where(under.any(), _last(under), _first(following)))
    void_card = jnp.where((legal & qs).any(), _first(qs), highest_rank(legal))
    play_card = jnp.where(tc == 0, lead_card, jnp.where(following.any(), follow_card, void_card))
    card = jnp.where(state.phase == PASS, pass_card, play_card)
    return jnp.where(legal.any(), card, -1).astype(jnp.int32)
