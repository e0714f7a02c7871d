"""Batch observations from a :class:`~hearts_env.vector.VectorDeals`'s state: one row per deal.

``BatchEncoder.encode(deals, seats)`` gives, for every row ``i``, exactly what the scalar
encoder of the same name writes for ``SeatView.of(deal_i, seats[i])`` (a test checks this slot by
slot), computed with whole-batch NumPy operations: the per-row card sets are built as uint64
masks and unpacked with one ``np.unpackbits``; ``rich``'s game scores come from ``deals.game_scores``.

Encodings built in batch: ``paper260``, ``rich`` (the default) and ``dutch107``.
"""

from __future__ import annotations

import numpy as np

from hearts_env.encoders import EncoderError, make_encoder
from hearts_env.engine import Phase
from hearts_env.rules import Rules
from hearts_env.state import DealState
from hearts_env.tables import tables_of
from hearts_env.vector.deals import VectorDeals
from hearts_env.vector.numpy_backend import penalty_points

U64 = np.uint64


def unpack_masks(masks: np.ndarray, n: int) -> np.ndarray:
    """uint64 card masks of shape S → their first ``n`` bits, uint8 of shape (*S, n), contiguous (bit ``c``
    of each mask at index ``c``)."""
    raw = np.ascontiguousarray(masks, dtype="<u8").view(np.uint8).reshape(*masks.shape, 8)  # low byte first
    return np.unpackbits(raw, axis=-1, count=n, bitorder="little")


def _seat_values(per_seat: np.ndarray, flat: np.ndarray) -> np.ndarray:
    """Values of a (B, 4) per-seat array at flat indices ``4 * row + seat`` (any shape)."""
    return per_seat.reshape(-1)[flat]


def _blocks(out: np.ndarray, k: int, n: int) -> np.ndarray:
    """``out[:, :k * n]`` seen as (B, k, n): a view whatever ``out``'s strides, so writes land in ``out``
    (a reshape would copy a non-contiguous ``out`` silently), and no copy of the bits is made between."""
    s0, s1 = out.strides
    return np.lib.stride_tricks.as_strided(out, (len(out), k, n), (s0, n * s1, s1))


class BatchEncoder:
    """Base class: ``name``, ``size``, ``dtype``, ``space()`` as the scalar encoder of that name."""

    name = ""

    def __init__(self, rules: Rules, dtype: str | type = "float32"):
        self.scalar = make_encoder(self.name, rules, dtype)
        self.rules = rules
        self.size = self.scalar.size
        self.dtype = self.scalar.dtype
        self.n = rules.deck_obj.size

    def space(self):
        return self.scalar.space()

    def encode(self, deals: VectorDeals | DealState, seats: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """(B, size) observations of seat ``seats[i]`` in row ``i`` (``deals``: a batch or its state)."""
        raise NotImplementedError


class Paper260Batch(BatchEncoder):
    """``paper260`` in batch (card-major: slot ``5 * card + position``)."""

    name = "paper260"

    def encode(self, deals: VectorDeals | DealState, seats: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        b = deals.size
        rows = np.arange(b)
        seats = np.asarray(seats, dtype=np.intp)
        pb = deals.played_by
        played = pb[:, 0] | pb[:, 1] | pb[:, 2] | pb[:, 3]
        trick = deals.trick_mask
        mine = trick & pb[rows, seats]
        hand = deals.hands[rows, seats] & ~deals.passed[rows, seats]
        full = U64(self.rules.deck_obj.full_mask)
        pos = np.stack([hand, full & ~hand & ~played, mine, trick & ~mine, played & ~trick], axis=1)
        bits = unpack_masks(pos, self.n)  # (B, 5, N)
        if out is None:
            out = np.empty((b, self.size), self.dtype)
        _blocks(out, self.n, 5)[...] = bits.transpose(0, 2, 1)
        return out


class RichBatch(BatchEncoder):
    """``rich`` in batch (see :mod:`hearts_env.encoders.rich` for the layout)."""

    name = "rich"

    def __init__(self, rules: Rules, dtype: str | type = "float32"):
        super().__init__(rules, dtype)
        self.tables = t = tables_of(rules)
        self.qs_bit, self.jd_bit = U64(t.qs_bit), U64(t.jd_bit)
        self.scale = (255.0 if self.dtype == np.uint8 else 1.0) / rules.penalty_total

    def encode(self, deals: VectorDeals | DealState, seats: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        r, n, b = self.rules, self.n, deals.size
        rows = np.arange(b)[:, None]
        seats = np.asarray(seats, dtype=np.intp)
        rel = (seats[:, None] + np.arange(4)) & 3  # (B, 4): absolute seat of relative seat r
        me = seats
        # per-seat fields are read through flat indices into their (B, 4) arrays: a tenth of the time of
        # arr[rows, rel], which builds the broadcast index pair at every read
        first = 4 * rows[:, 0]
        by_seat = first[:, None] + rel
        passed = _seat_values(deals.passed, first + me)
        masks = np.zeros((b, 11), U64)
        masks[:, 0] = _seat_values(deals.hands, first + me) & ~passed
        masks[:, 1] = passed
        source = (me - deals.pass_direction) & 3
        received = _seat_values(deals.passed, first + source)
        masks[:, 2] = np.where((deals.phase != int(Phase.PASS)) & (deals.pass_direction != 0), received, U64(0))
        masks[:, 3:7] = _seat_values(deals.played_by, by_seat)
        trick = deals.trick.astype(np.int64)  # (B, 4), -1 = empty
        by_rel = (deals.leader[:, None] + np.arange(4) - me[:, None]) & 3
        card_bits = np.where(trick >= 0, U64(1) << np.maximum(trick, 0).astype(U64), U64(0))
        # trick position j was played by relative seat by_rel[:, j]: a permutation of 0..3 in each row, so
        # one scatter puts each card (or nothing, for an empty position) in its seat's block
        masks[rows, 7 + by_rel] = card_bits
        if out is None:
            out = np.empty((b, self.size), self.dtype)
        _blocks(out, 11, n)[...] = unpack_masks(masks, n)
        f = out[:, 11 * n:]
        f[...] = 0
        voids = _seat_values(deals.voids, by_seat)  # (B, 4) uint8
        f[:, :16] = np.unpackbits(voids[:, :, None], axis=2, bitorder="little")[:, :, :4].reshape(b, 16)
        taken = _seat_values(deals.taken, by_seat)  # (B, 4)
        points = penalty_points(taken, self.tables) * self.scale
        f[:, 16:20] = np.round(points) if self.dtype == np.uint8 else points
        scores = np.clip(_seat_values(deals.game_scores, by_seat) / r.target, 0.0, 1.0)  # (B, 4): before this deal
        f[:, 20:24] = np.round(255 * scores) if self.dtype == np.uint8 else scores
        if r.jd_bonus:
            f[:, 24:28] = (taken & self.jd_bit) != 0
        f[:, 28:32] = _seat_values(deals.tricks_won, by_seat) > 0
        f[:, 32] = deals.hearts_broken
        pb = deals.played_by
        f[:, 33] = ((pb[:, 0] | pb[:, 1] | pb[:, 2] | pb[:, 3]) & self.qs_bit) == 0
        phase = deals.phase
        f[:, 34] = phase == int(Phase.PASS)
        f[:, 35] = phase == int(Phase.PLAY)
        f[rows[:, 0], 36 + deals.pass_direction.astype(np.intp)] = 1
        live = phase != int(Phase.DONE)
        cur = (deals.current.astype(np.intp) - me) & 3
        f[rows[live, 0], 40 + cur[live]] = 1
        playing = phase == int(Phase.PLAY)
        lead = (deals.leader.astype(np.intp) - me) & 3
        f[rows[playing, 0], 44 + lead[playing]] = 1
        return out


class Dutch107Batch(BatchEncoder):
    """``dutch107`` in batch (see :mod:`hearts_env.encoders.dutch107` for the layout)."""

    name = "dutch107"

    def __init__(self, rules: Rules, dtype: str | type = "float32"):
        super().__init__(rules, dtype)  # the scalar encoder refuses decks other than the Dutch one
        self.tables = t = tables_of(rules)
        self.suits = np.array(t.suits, dtype=U64)
        self.scoring_cards = U64(t.scoring_cards)
        self.moon_on = rules.moon != "off"

    def encode(self, deals: VectorDeals | DealState, seats: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        r, b = self.rules, deals.size
        rows = np.arange(b)
        seats = np.asarray(seats, dtype=np.intp)
        pb = deals.played_by
        played = pb[:, 0] | pb[:, 1] | pb[:, 2] | pb[:, 3]
        trick = deals.trick_mask
        hand = deals.hands[rows, seats] & ~deals.passed[rows, seats]
        if out is None:
            out = np.empty((b, self.size), self.dtype)
        _blocks(out, 3, 32)[...] = unpack_masks(np.stack([hand, played & ~trick, trick], axis=1), 32)
        # the scalar slots in float64, as the scalar encoder computes them, then stored (rounded for uint8)
        x = np.zeros((b, 10))  # slots 96–104, then 106 (105, the moon bit, is binary)
        playing = deals.phase == int(Phase.PLAY)
        x[:, 0] = np.where(playing, ((seats - deals.leader) & 3) / 3, 0.0)
        rel = (seats[:, None] + np.arange(4)) & 3
        x[:, 1:5] = np.clip(deals.game_scores[rows[:, None], rel] / r.target, 0.0, 1.0)
        rps = self.tables.ranks_per_suit
        x[:, 5:9] = (rps - np.bitwise_count(played[:, None] & self.suits)) / rps
        x[:, 9] = penalty_points(hand, self.tables) / r.penalty_total
        if self.dtype == np.uint8:
            x = np.round(255 * x)
        out[:, 96:105] = x[:, :9]
        out[:, 106] = x[:, 9]
        if self.moon_on:
            holders = ((deals.taken & self.scoring_cards) != 0).sum(axis=1)
            out[:, 105] = holders <= 1
        else:
            out[:, 105] = 0
        return out


BATCH_ENCODERS: dict[str, type[BatchEncoder]] = {"paper260": Paper260Batch, "rich": RichBatch,
                                                 "dutch107": Dutch107Batch}


def make_batch_encoder(name: str, rules: Rules, dtype: str | type = "float32") -> BatchEncoder:
    """The batch encoder ``name`` (``paper260``, ``rich`` or ``dutch107``); a clear error for the others."""
    if name not in BATCH_ENCODERS:
        raise EncoderError(f"observation {name!r} has no batch encoder; vector envs support: "
                           f"{', '.join(BATCH_ENCODERS)} (use the single-table env for the others)")
    return BATCH_ENCODERS[name](rules, dtype)
