"""Batch observations equal the scalar encoders', slot by slot, at every decision of random deals."""

import numpy as np
import pytest

from hearts_env.encoders import EncoderError, make_encoder
from hearts_env.engine import Deal
from hearts_env.rules import make_rules
from hearts_env.vector import VectorDeals
from hearts_env.vector.encoders import make_batch_encoder
from hearts_env.views import SeatView


@pytest.mark.parametrize("name", ["paper260", "rich"])
@pytest.mark.parametrize("preset", ["standard", "openspiel(jd_bonus=true)", "dutch"])
@pytest.mark.parametrize("dtype", ["float32", "uint8"])
def test_batch_encoding_equals_scalar(name, preset, dtype):
    rules = make_rules(preset)
    size = 24
    tables = VectorDeals.random(rules, size, np.random.default_rng(0), pass_directions=np.arange(size) % 4)
    deals = [Deal.from_hands(rules, [int(h) for h in tables.hands[i]], pass_direction=int(tables.pass_direction[i]))
             for i in range(size)]
    batch = make_batch_encoder(name, rules, dtype)
    scalar = make_encoder(name, rules, dtype)
    assert batch.size == scalar.size and batch.space() == scalar.space()
    rng = np.random.default_rng(1)
    seat_rng = np.random.default_rng(2)
    while True:
        # the seat to act, and another seat: observations are for any seat, not just the actor
        for seats in (tables.current.astype(int), seat_rng.integers(0, 4, size)):
            obs = batch.encode(tables, seats)
            assert obs.dtype == scalar.dtype
            for i, deal in enumerate(deals):
                expected = scalar.encode(SeatView.of(deal, int(seats[i])))
                np.testing.assert_array_equal(obs[i], expected, err_msg=f"table {i}, history {deal.history}")
        if tables.done.all():
            break
        cards = tables.random_step(rng)
        for i, deal in enumerate(deals):
            if not deal.is_over:
                deal.apply(int(cards[i]))


def test_unsupported_encoding_is_a_clear_error():
    with pytest.raises(EncoderError, match="paper260, rich"):
        make_batch_encoder("culhane217", make_rules("standard"))
