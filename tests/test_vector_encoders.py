"""Batch observations equal the scalar encoders', slot by slot, at every decision of random deals."""

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from rule_strategies import SETTINGS, game_scores_strategy, rules_strategy

from hearts_env.encoders import EncoderError, make_encoder
from hearts_env.engine import Deal
from hearts_env.rules import make_rules
from hearts_env.vector import VectorDeals
from hearts_env.vector.encoders import BATCH_ENCODERS, make_batch_encoder
from hearts_env.views import SeatView

BATCH_ENCODINGS = sorted(BATCH_ENCODERS)


@SETTINGS
@given(rules=rules_strategy(), name=st.sampled_from(BATCH_ENCODINGS), dtype=st.sampled_from(["float32", "uint8"]),
       seed=st.integers(0, 2**32 - 1), data=st.data())
def test_batch_encoding_equals_scalar(rules, name, dtype, seed, data):
    """Every Rules field drawn (game scores too): the batch encoders equal the scalar ones slot by slot."""
    try:
        scalar = make_encoder(name, rules, dtype)
    except EncoderError:
        assume(False)  # the encoding cannot represent these rules (and says so): nothing to compare
    batch = make_batch_encoder(name, rules, dtype)
    assert batch.size == scalar.size and batch.space() == scalar.space()
    size = 12
    rng = np.random.default_rng(seed)
    shuffled = VectorDeals.random(rules, size, rng)
    scores = [data.draw(game_scores_strategy(rules)) for _ in range(size)]
    deals = [Deal.from_hands(rules, [int(h) for h in shuffled.hands[i]],
                             pass_direction=int(shuffled.pass_direction[i]), game_scores=scores[i])
             for i in range(size)]
    batch_deals = VectorDeals.from_deals(deals)
    seat_rng = np.random.default_rng(seed + 1)
    while True:
        # the seat to act, and another seat: observations are for any seat, not just the actor
        for seats in (batch_deals.current.astype(int), seat_rng.integers(0, 4, size)):
            obs = batch.encode(batch_deals, seats)
            assert obs.dtype == scalar.dtype
            # into a caller's array of any layout (here every other column of a wider one), and from the state
            wide = np.full((size, 2 * batch.size), 7, scalar.dtype)
            batch.encode(batch_deals.state, seats, out=wide[:, ::2])
            np.testing.assert_array_equal(wide[:, ::2], obs)
            assert (wide[:, 1::2] == 7).all()
            for i, deal in enumerate(deals):
                expected = scalar.encode(SeatView.of(deal, int(seats[i])))
                np.testing.assert_array_equal(obs[i], expected, err_msg=f"row {i}, history {deal.history}")
        if batch_deals.done.all():
            break
        cards = batch_deals.random_step(rng)
        for i, deal in enumerate(deals):
            if not deal.is_over:
                deal.apply(int(cards[i]))


def test_unsupported_encoding_is_a_clear_error():
    with pytest.raises(EncoderError, match="paper260, rich, dutch107"):
        make_batch_encoder("culhane217", make_rules("standard"))


@SETTINGS
@given(rules=rules_strategy(), dtype=st.sampled_from(["float32", "uint8"]), seed=st.integers(0, 2**32 - 1),
       data=st.data())
def test_dutch107_batch_equals_scalar_on_the_dutch_deck(rules, dtype, seed, data):
    """The test above with the deck forced to the 32-card one (every other field still drawn), so that
    ``dutch107`` is compared on every example, not only when the strategy happens to draw that deck."""
    import dataclasses

    try:
        rules = make_rules(dataclasses.replace(rules, deck="dutch", preset=None))
    except ValueError:
        assume(False)  # a field combination the 32-card deck cannot have
    test_batch_encoding_equals_scalar.hypothesis.inner_test(rules, "dutch107", dtype, seed, data)  # type: ignore[attr-defined]
