"""The JAX engine's state is held to the deal's one declaration (:class:`hearts_env.state.DealState`): a field
added there is added here too, or named below with the reason it is not."""

import pytest

pytest.importorskip("jax")

from hearts_env.jax import State
from hearts_env.state import DealState

JAX_ONLY = {"penalties": "the penalty points of the cards each seat took, kept as tricks end (scoring and rich "
                         "read them instead of recounting the cards)"}
NOT_IN_JAX = {"dealt": "no record of the hands as dealt: a learner's episode needs none",
              "trick_mask": "the cards of trick, derived where needed",
              "led_mask": "the suit of trick[0], derived where needed"}


def test_the_jax_state_holds_every_declared_field_or_says_why_not():
    assert set(State._fields) - set(DealState._fields) == set(JAX_ONLY)
    assert set(DealState._fields) - set(State._fields) == set(NOT_IN_JAX)
