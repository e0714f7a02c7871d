"""Observations of one seat, bit for bit the NumPy encoders' (``float32``): :func:`observe` with
``"paper260"`` (:mod:`hearts_env.encoders.paper260`) and ``"rich"`` (:mod:`hearts_env.encoders.rich`).

``rich``'s eight scalars are ``p / penalty_total`` and ``clip(score / target, 0, 1)``. The NumPy encoders
compute them in float64 and round to float32, which is the correctly rounded float32 quotient (a quotient of
two integers below 2**24 whose denominator is at most 170,000 lies too far from every float32 rounding
midpoint for float64's error to cross one). XLA's float32 division is not correctly rounded (on CPU a
vectorized division is off by an ulp in about one quotient in ten), so :func:`ratio` divides by integer long
division and builds the float32 from its bits: the same value on every backend, without 64-bit types.
tests/test_jax_observe.py checks it against the float64 computation.
"""

from __future__ import annotations

from typing import Any

import jax  # type: ignore[import-not-found, unused-ignore]  # the optional jax extra
import jax.numpy as jnp  # type: ignore[import-not-found, unused-ignore]

from hearts_env.jax._engine import DONE, PASS, PLAY, State, _card_words, to_mask
from hearts_env.jax._rules import RulesData

OBSERVATIONS = ("paper260", "rich")

__all__ = ["OBSERVATIONS", "observation_size", "observe", "ratio"]


def observation_size(name: str, n: int) -> int:
    """Length of observation ``name`` for an ``n``-card deck."""
    if name == "paper260":
        return 5 * n
    if name == "rich":
        return 11 * n + 48
    raise ValueError(f"hearts_env.jax observes {', '.join(OBSERVATIONS)}; got {name!r}")


def ratio(p: Any, q: Any) -> Any:
    """``float32(p / q)`` correctly rounded (half to even), for int32 ``0 <= p`` and ``1 <= q < 2**24``;
    1.0 where ``p >= q``."""
    p, q = jnp.asarray(p, jnp.int32), jnp.asarray(q, jnp.int32)
    p, q = jnp.broadcast_arrays(p, q)
    zero = jnp.zeros_like(p)

    def digit(_: Any, carry: tuple[Any, ...]) -> tuple[Any, ...]:
        r, m, count, lead, rest = carry  # remainder, bits so far, significant bits, first one's place
        r = 2 * r
        bit = (r >= q).astype(jnp.int32)
        r = r - bit * q
        take = (count < 24) & ((count > 0) | (bit == 1))
        m = jnp.where(take, 2 * m + bit, m)
        lead = jnp.where((count == 0) & take, _ + 1, lead)
        count = count + take
        rest = jnp.where(take & (count == 24), r, rest)  # the remainder after the 24th bit decides rounding
        return r, m, count, lead, rest

    _, m, _, lead, rest = jax.lax.fori_loop(0, 49, digit, (jnp.minimum(p, q), zero, zero, zero, zero))
    up = (2 * rest > q) | ((2 * rest == q) & (m % 2 == 1))
    m = m + up
    carry = m == 1 << 24
    m, lead = jnp.where(carry, 1 << 23, m), jnp.where(carry, lead - 1, lead)
    bits = ((127 - lead) << 23) | (m - (1 << 23))  # m * 2**-(lead + 23), m in [2**23, 2**24)
    value = jax.lax.bitcast_convert_type(bits.astype(jnp.uint32), jnp.float32)
    return jnp.where(p >= q, jnp.float32(1), jnp.where(p <= 0, jnp.float32(0), value))


def _trick_words(state: State, rps: int) -> Any:
    """``uint32[4, 4]``: the suit words of each card of the current trick, by play position (0: none)."""
    return jnp.stack([_card_words(state.trick[k], rps) for k in range(4)])


def _paper260(state: State, seat: Any, rules: RulesData) -> Any:
    n = rules.n
    played = state.played_by[0] | state.played_by[1] | state.played_by[2] | state.played_by[3]
    table = _trick_words(state, rules.rps).sum(0, dtype=jnp.uint32)
    mine = table & state.played_by[seat]
    hand = state.hands[seat] & ~state.passed[seat]
    pos = jnp.stack([hand, rules.full & ~hand & ~played, mine, table & ~mine, played & ~table])
    return to_mask(pos, n).T.reshape(5 * n).astype(jnp.float32)


def _rich(state: State, seat: Any, rules: RulesData) -> Any:
    n, rps = rules.n, rules.rps
    rel = (seat + jnp.arange(4)) & 3  # absolute seat of relative seat r
    passed = state.passed[seat]
    d = state.pass_direction
    received = jnp.where((state.phase != PASS) & (d != 0), state.passed[(seat - d) & 3], jnp.uint32(0))
    trick = _trick_words(state, rps)  # by play position k, played by relative seat (leader + k - seat) & 3
    by_rel = (state.leader + jnp.arange(4) - seat) & 3
    current_trick = jnp.stack([jnp.where((by_rel == r)[:, None], trick, jnp.uint32(0)).sum(0, dtype=jnp.uint32)
                               for r in range(4)])
    masks = jnp.concatenate([jnp.stack([state.hands[seat] & ~passed, passed, received]),
                             state.played_by[rel], current_trick])  # (11, 4)
    cards = to_mask(masks, n).reshape(11 * n).astype(jnp.float32)
    f = jnp.zeros(48, jnp.float32)
    voids = (state.voids[rel][:, None] >> jnp.arange(4)) & 1
    f = f.at[0:16].set(voids.reshape(16).astype(jnp.float32))
    taken = state.taken[rel]
    f = f.at[16:20].set(ratio(state.penalties[rel], rules.penalty_total))
    f = f.at[20:24].set(ratio(state.game_scores[rel], rules.target))  # 0 below 0, 1 from the target on
    f = f.at[24:28].set((rules.jd_bonus & ((taken & rules.jd) != 0).any(-1)).astype(jnp.float32))
    f = f.at[28:32].set((state.tricks_won[rel] > 0).astype(jnp.float32))
    played = state.played_by[0] | state.played_by[1] | state.played_by[2] | state.played_by[3]
    f = f.at[32].set(state.hearts_broken.astype(jnp.float32))
    f = f.at[33].set((~((played & rules.qs) != 0).any()).astype(jnp.float32))
    f = f.at[34].set((state.phase == PASS).astype(jnp.float32))
    f = f.at[35].set((state.phase == PLAY).astype(jnp.float32))
    slots = jnp.arange(4)
    f = f.at[36:40].set((slots == d).astype(jnp.float32))
    f = f.at[40:44].set(((slots == ((state.current - seat) & 3)) & (state.phase != DONE)).astype(jnp.float32))
    f = f.at[44:48].set(((slots == ((state.leader - seat) & 3)) & (state.phase == PLAY)).astype(jnp.float32))
    return jnp.concatenate([cards, f])


def observe(state: State, seat: Any, rules: RulesData, name: str = "rich") -> Any:
    """``float32[size]``: what seat ``seat`` observes, encoding ``name`` (``"rich"`` or ``"paper260"``),
    equal to the NumPy encoder's vector (``make_encoder(name, rules)``) in every slot."""
    seat = jnp.asarray(seat, jnp.int32)
    if name == "paper260":
        return _paper260(state, seat, rules)
    if name == "rich":
        return _rich(state, seat, rules)
    raise ValueError(f"hearts_env.jax observes {', '.join(OBSERVATIONS)}; got {name!r}")
