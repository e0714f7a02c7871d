"""hearts_env.jax.observe against the NumPy encoders: ``paper260`` and ``rich`` (float32), every seat, at every step
of card sequences replayed through ``Deal`` and the JAX engine, under every ``Rules`` field (bit for bit)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from rule_strategies import SETTINGS, game_scores_strategy, rules_strategy

jax = pytest.importorskip("jax")

from hearts_env import jax as hj  # noqa: E402
from hearts_env.encoders import make_encoder  # noqa: E402
from hearts_env.engine import Deal  # noqa: E402
from hearts_env.rules import Rules, make_rules  # noqa: E402
from hearts_env.views import SeatView  # noqa: E402

_init = jax.jit(jax.vmap(hj.init_from_hands, in_axes=(0, None, 0, 0, 0)))
_step = jax.jit(jax.vmap(hj.step, in_axes=(0, 0, None)))
_every_seat = jax.vmap(jax.vmap(hj.observe, in_axes=(None, 0, None, None)), in_axes=(0, None, None, None))
_observe = {name: jax.jit(lambda s, r, name=name: _every_seat(s, np.arange(4), r, name)) for name in hj.OBSERVATIONS}


def replay_observations(deals: list[Deal], rules: Rules, picker: random.Random) -> int:
    """Random legal play through both engines; every seat's observations compared at every step. Returns
    the number of observations compared."""
    data = hj.rules_data(rules)
    rps = rules.deck_obj.ranks_per_suit
    hands = np.stack([np.stack([hj.suit_words(h, rps) for h in d.dealt]) for d in deals])
    state = _init(hands, data, np.array([d.pass_direction for d in deals], np.int32),
                  np.array([d.dealer for d in deals], np.int32), np.array([d.game_scores for d in deals], np.int32))
    encoders = {name: make_encoder(name, rules) for name in hj.OBSERVATIONS}
    compared = 0
    while True:
        for name, encoder in encoders.items():
            got = np.asarray(_observe[name](state, data))
            assert got.dtype == np.float32 and got.shape == (len(deals), 4, encoder.size)
            for i, d in enumerate(deals):
                for seat in range(4):
                    want = encoder.encode(SeatView.of(d, seat))
                    bad = np.flatnonzero(got[i, seat].view(np.uint32) != want.view(np.uint32))
                    assert not len(bad), (name, i, seat, d.history, bad[:8], got[i, seat, bad[:8]], want[bad[:8]])
                    compared += 1
        if all(d.is_over for d in deals):
            return compared
        cards = np.array([picker.choice(d.legal_cards()) if not d.is_over else 0 for d in deals], np.int32)
        for d, card in zip(deals, cards):
            if not d.is_over:
                d.apply(int(card))
        state = _step(state, cards, data)


@SETTINGS
@given(rules_strategy(), st.integers(0, 2**32 - 1), st.data())
def test_observations_are_the_numpy_encoders(rules, seed, data):
    rng = np.random.default_rng(seed)
    deals = [Deal.random(rules, rng, dealer=data.draw(st.integers(0, 3)),
                         game_scores=data.draw(game_scores_strategy(rules))) for _ in range(3)]
    replay_observations(deals, rules, random.Random(seed))


@pytest.mark.parametrize("rules", ["standard", "openspiel(jd_bonus=true)", "dutch"])
def test_observations_at_a_moon_and_high_scores(rules):
    """A finished deal whose game scores straddle the target (clipped slots) and every direction of passing."""
    rules = make_rules(rules)
    rng = np.random.default_rng(3)
    scores = (-5, rules.target - 1, rules.target + 7, 0)
    directions = [0, 1, 2, 3] if rules.has_passing else [0]
    deals = [Deal.random(rules, rng, pass_direction=directions[i % len(directions)], game_scores=scores)
             for i in range(4)]
    assert replay_observations(deals, rules, random.Random(4)) > 0


def test_ratio_rounds_as_float64_does():
    """``ratio(p, q)`` equals float64's ``p * (1 / q)`` (the encoders' arithmetic) rounded to float32: every
    numerator from -2 to the denominator + 2 for each denominator up to 600, and 600 numerators each of a spread
    of larger denominators up to 170,000 (the largest penalty total), in one call; then every numerator of a few
    large denominators."""
    rng = np.random.default_rng(0)
    small = np.arange(1, 601)
    large = rng.integers(601, 170_001, 60)
    q = np.concatenate([small, large])[:, None]
    p = np.concatenate([np.broadcast_to(np.arange(-2, 603), (len(small), 605)),
                        np.concatenate([rng.integers(0, large[:, None], (len(large), 600)),
                                        large[:, None] + np.arange(-2, 3)], axis=1)])
    want = np.clip(p * (1.0 / q), 0.0, 1.0).astype(np.float32)
    got = np.asarray(jax.jit(hj.ratio)(p.astype(np.int32), q.astype(np.int32)))
    bad = np.argwhere(want.view(np.uint32) != got.view(np.uint32))
    assert not len(bad), [(int(p[i, j]), int(q[i, 0])) for i, j in bad[:5]]
    for q in (9_999, 10_000, 65_535, 65_536, 131_071, 169_999, 170_000):  # every numerator of a few large ones
        p = np.arange(q + 1)
        want = (p * (1.0 / q)).astype(np.float32)
        got = np.asarray(jax.jit(hj.ratio)(p.astype(np.int32), np.int32(q)))
        assert (want.view(np.uint32) == got.view(np.uint32)).all(), q


def test_observe_refuses_other_encodings():
    rules_data = hj.rules_data("standard")
    with pytest.raises(ValueError, match="paper260, rich"):
        hj.observe(hj.init(jax.random.key(0), rules_data), 0, rules_data, "dutch107")
