"""Observations of one seat, bit for bit the NumPy encoders' (``float32``): :func:`observe` with
``"paper260"`` (:mod:`hearts_env.encoders.paper260`) and ``"rich"`` (:mod:`hearts_env.encoders.rich`).

``rich``'s eight scalars are ``p / penalty_total`` and ``clip(score / target, 0, 1)``. The NumPy encoders
compute them in float64 and round to float32, which is the correctly rounded float32 quotient (a quotient of
two integers below 2**24 whose denominator is at most 170,000 lies too far from every float32 rounding
midpoint for float64's error to cross one). XLA's float32 division is not correctly rounded (JAX 0.10.2 on CPU
missed by an ulp in 27% of 8.6 million quotients of whole arrays), so :func:`ratio` divides by integer long
division (four 13-bit digits) and builds the float32 from its bits: the same value on every backend, without
64-bit types.
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
    """``float32(p / q)`` correctly rounded (half to even), for int32 ``p`` and ``1 <= q < 2**18`` (penalty totals
    reach 170,000, targets 10,000); 0.0 where ``p <= 0`` and 1.0 where ``p >= q``.

    Four steps of integer long division by 13-bit digits give ``X = floor(p * 2**52 / q)`` as two 26-bit
    halves and the remainder; the float32 is the top 24 bits of ``X`` rounded by the next bit and the rest."""
    p, q = jnp.broadcast_arrays(jnp.asarray(p, jnp.int32), jnp.asarray(q, jnp.int32))
    r = jnp.clip(p, 0, q - 1)
    digits = []
    for _ in range(4):
        r = r << 13  # r < q < 2**18: no overflow
        digit = r // q
        r = r - digit * q
        digits.append(digit)
    hi, lo = (digits[0] << 13) | digits[1], (digits[2] << 13) | digits[3]  # X = hi * 2**26 + lo
    shift = 34 - jax.lax.clz(hi)  # 2 + bit length of hi: X >> shift keeps 24 bits (p/q > 2**-18: hi >= 2**8)
    from_hi = shift > 26
    m = jnp.where(from_hi, hi >> jnp.clip(shift - 26, 0, 31),
                  (hi << jnp.clip(26 - shift, 0, 31)) | (lo >> jnp.clip(shift, 0, 31)))
    half = shift - 1  # the place of the rounding bit
    half_in_hi = half >= 26
    round_bit = jnp.where(half_in_hi, hi >> jnp.clip(half - 26, 0, 31), lo >> jnp.clip(half, 0, 31)) & 1
    below = jnp.where(half_in_hi, (hi & ((1 << jnp.clip(half - 26, 0, 30)) - 1)) | lo,
                      lo & ((1 << jnp.clip(half, 0, 30)) - 1))
    up = (round_bit == 1) & ((below != 0) | (r != 0) | (m % 2 == 1))
    m = m + up
    carry = m == 1 << 24
    m, shift = jnp.where(carry, 1 << 23, m), jnp.where(carry, shift + 1, shift)
    bits = ((98 + shift) << 23) | (m - (1 << 23))  # m * 2**(shift - 52), m in [2**23, 2**24)
    value = jax.lax.bitcast_convert_type(bits.astype(jnp.uint32), jnp.float32)
    return jnp.where(p >= q, jnp.float32(1), jnp.where(p <= 0, jnp.float32(0), value))


def _trick_words(state: State, rps: int) -> Any:
    """``uint32[4, 4]``: the suit words of each card of the current trick, by play position (0: none)."""
    return jnp.stack([_card_words(state.trick[k], rps) for k in range(4)])


def _paper260(state: State, seat: Any, rules_data: RulesData) -> Any:
    n = rules_data.n
    played = state.played_by[0] | state.played_by[1] | state.played_by[2] | state.played_by[3]
    table = _trick_words(state, rules_data.rps).sum(0, dtype=jnp.uint32)
    mine = table & state.played_by[seat]
    hand = state.hands[seat] & ~state.passed[seat]
    pos = jnp.stack([hand, rules_data.full & ~hand & ~played, mine, table & ~mine, played & ~table])
    return to_mask(pos, n).T.reshape(5 * n).astype(jnp.float32)


def _rich(state: State, seat: Any, rules_data: RulesData) -> Any:
    n, rps = rules_data.n, rules_data.rps
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
    f = f.at[16:20].set(ratio(state.penalties[rel], rules_data.penalty_total))
    f = f.at[20:24].set(ratio(state.game_scores[rel], rules_data.target))  # 0 below 0, 1 from the target on
    f = f.at[24:28].set((rules_data.jd_bonus & ((taken & rules_data.jd) != 0).any(-1)).astype(jnp.float32))
    f = f.at[28:32].set((state.tricks_won[rel] > 0).astype(jnp.float32))
    played = state.played_by[0] | state.played_by[1] | state.played_by[2] | state.played_by[3]
    f = f.at[32].set(state.hearts_broken.astype(jnp.float32))
    f = f.at[33].set((~((played & rules_data.qs) != 0).any()).astype(jnp.float32))
    f = f.at[34].set((state.phase == PASS).astype(jnp.float32))
    f = f.at[35].set((state.phase == PLAY).astype(jnp.float32))
    slots = jnp.arange(4)
    f = f.at[36:40].set((slots == d).astype(jnp.float32))
    f = f.at[40:44].set(((slots == ((state.current - seat) & 3)) & (state.phase != DONE)).astype(jnp.float32))
    f = f.at[44:48].set(((slots == ((state.leader - seat) & 3)) & (state.phase == PLAY)).astype(jnp.float32))
    return jnp.concatenate([cards, f])


def observe(state: State, seat: Any, rules_data: RulesData, name: str = "rich") -> Any:
    """``float32[size]``: what seat ``seat`` observes, encoding ``name`` (``"rich"`` or ``"paper260"``),
    equal to the NumPy encoder's vector (``make_encoder(name, rules)``) in every slot."""
    seat = jnp.asarray(seat, jnp.int32)
    if name == "paper260":
        return _paper260(state, seat, rules_data)
    if name == "rich":
        return _rich(state, seat, rules_data)
    raise ValueError(f"hearts_env.jax observes {', '.join(OBSERVATIONS)}; got {name!r}")
