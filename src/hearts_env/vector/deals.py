"""``VectorDeals``: B deals of one ``Rules`` in lockstep, as public state arrays, with two backends.

See :mod:`hearts_env.vector` for the overview. The rules run in the compiled kernels
(:mod:`._kernels`) or in the NumPy backend (:mod:`.numpy_backend`); this module holds the state,
builds batches, and dispatches.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from hearts_env.cards import format_cards
from hearts_env.engine import BrokenRule, Deal, IllegalActionError, Phase
from hearts_env.rules import Rules, draw_pass_directions, make_rules
from hearts_env.tables import tables_of
from hearts_env.vector import _kernels, numpy_backend
from hearts_env.vector.numpy_backend import kth_cards
from hearts_env.vector.policies import KernelPolicy, kernel_policy

BACKENDS = ("auto", "numba", "numpy")


def resolve_backend(backend: str) -> Callable[..., int] | None:
    """The compiled kernels for ``backend`` (None means the NumPy backend)."""
    if backend not in BACKENDS:
        raise ValueError(f"backend={backend!r} is not valid; valid values: {', '.join(BACKENDS)}")
    if backend == "numpy":
        return None
    jit = _kernels.compiled()
    if jit is None and backend == "numba":
        raise ImportError("backend='numba' needs Numba: pip install 'hearts-env[search]' (or use backend='numpy')")
    return jit


def numba_available() -> bool:
    """Whether the compiled backend can run here (the ``search`` extra installs Numba)."""
    return _kernels.compiled() is not None


U64 = np.uint64
STATE_FIELDS = ("hands", "passed", "played_by", "phase", "current", "leader", "trick", "trick_count", "trick_mask",
                "led_mask", "trick_index", "hearts_broken", "taken", "tricks_won", "voids", "trick_winners", "points",
                "moon_shooter", "pass_direction", "dealer", "game_scores")
"""The per-table state arrays, in the order the kernels unpack them. ``points`` and ``game_scores``
are int64: with point values up to :data:`~hearts_env.rules.MAX_POINTS` no sum can wrap."""


@functools.lru_cache(maxsize=64)
def _rule_constants(rules: Rules) -> dict[str, Any]:
    """The rules' tables as NumPy scalars and arrays for the NumPy backend, and packed for the kernels
    (cached: search agents build many small batches)."""
    t = tables_of(rules)
    k, p = t.pack()
    return {"_k": k, "_p": p, "n": t.size, "rps": t.ranks_per_suit, "hand_size": t.hand_size,
            "suit_mask_of": np.array(t.suit_mask_of, dtype=U64), "hearts": U64(t.hearts), "jd_bit": U64(t.jd_bit),
            "scoring_cards": U64(t.scoring_cards), "first_trick_only": U64(t.first_trick_only),
            "opening_leads": U64(t.opening_leads), "lone_qs_lead": U64(t.lone_qs_lead),
            "lead_lowest_club": t.lead_lowest_club,
            "breaks": U64(t.breaks_hearts), "pass_count": t.pass_count}


class VectorDeals:
    """B deals under one Rules object (see the module docstring)."""

    # per-rules constants, set from _rule_constants (shared by every batch of these rules)
    size: int
    _k: np.ndarray
    _p: np.ndarray
    n: int
    rps: int
    hand_size: int
    pass_count: int
    suit_mask_of: np.ndarray
    hearts: np.uint64
    jd_bit: np.uint64
    scoring_cards: np.uint64
    first_trick_only: np.uint64
    opening_leads: np.uint64
    lone_qs_lead: np.uint64
    lead_lowest_club: bool
    breaks: np.uint64

    def __init__(self, rules: Rules | str, hands: np.ndarray, pass_directions: np.ndarray | Sequence[int],
                 dealers: np.ndarray | Sequence[int] | int = 3, backend: str = "auto",
                 game_scores: np.ndarray | Sequence[Sequence[int]] | None = None):
        """``game_scores`` (B, 4): each table's game scores before the deal, which ``moon="shooter_choice"``
        decides against in a game to the target (default zeros), as :class:`~hearts_env.engine.Deal`."""
        self.rules = rules = make_rules(rules)
        self._jit = resolve_backend(backend)
        self.backend = "numpy" if self._jit is None else "numba"
        self.__dict__.update(_rule_constants(rules))
        hands = np.asarray(hands, dtype=U64)
        if hands.ndim != 2 or hands.shape[1] != 4:
            raise ValueError(f"hands must have shape (B, 4), got {hands.shape}")
        b = self.size = hands.shape[0]
        self.rows = np.arange(b)
        """``arange(size)``: the table indices, for indexing one seat per table."""

        self.hands = hands.copy()
        self.dealt = hands.copy()
        directions = np.asarray(pass_directions, dtype=np.int8) % 4
        self.pass_direction = directions if self.pass_count else np.zeros(b, np.int8)
        self.dealer = np.broadcast_to(np.asarray(dealers, dtype=np.int8), (b,)).copy()
        self.passed = np.zeros((b, 4), U64)
        self.played_by = np.zeros((b, 4), U64)
        # engine.Phase values; NumPy expressions on them take int(Phase.X), as NumPy 2 reads a member as an
        # int64 scalar, not a Python int: comparing the int8 array with it is 3-10 µs slower per operation
        self.phase = np.where(self.pass_direction != 0, int(Phase.PASS), int(Phase.PLAY)).astype(np.int8)
        self.current = np.zeros(b, np.int8)
        self.leader = np.zeros(b, np.int8)
        self.trick = np.full((b, 4), -1, np.int16)
        self.trick_count = np.zeros(b, np.int8)
        self.trick_mask = np.zeros(b, U64)
        self.led_mask = np.zeros(b, U64)
        self.trick_index = np.zeros(b, np.int8)
        self.hearts_broken = np.full(b, not rules.must_break_hearts)
        self.taken = np.zeros((b, 4), U64)
        self.tricks_won = np.zeros((b, 4), np.int8)
        self.voids = np.zeros((b, 4), np.uint8)
        self.trick_winners = np.full((b, self.hand_size), -1, np.int8)
        self.points = np.zeros((b, 4), np.int64)
        self.moon_shooter = np.full(b, -1, np.int8)
        self.game_scores = np.zeros((b, 4), np.int64)
        if game_scores is not None:
            scores = np.asarray(game_scores)
            if scores.dtype.kind not in "iu" or scores.shape not in ((4,), (b, 4)):
                raise ValueError(f"game_scores must be integers of shape (4,) or ({b}, 4), "
                                 f"got {scores.dtype} {scores.shape}")
            self.game_scores[:] = scores
        numpy_backend.start_play(self, self.phase == int(Phase.PLAY))

    @classmethod
    def random(cls, rules: Rules | str, size: int, rng: np.random.Generator,
               pass_directions: np.ndarray | Sequence[int] | int | None = None, backend: str = "auto") -> VectorDeals:
        """``size`` shuffled deals, each passing in a direction drawn uniformly from the rules' schedule
        (:func:`~hearts_env.rules.draw_pass_directions`, as one-deal episodes do) unless ``pass_directions``
        gives them."""
        rules = make_rules(rules)
        deck = rules.deck_obj
        order = np.argsort(rng.random((size, deck.size)), axis=1)
        bits = (U64(1) << order.astype(U64)).reshape(size, 4, deck.hand_size)
        hands = np.bitwise_or.reduce(bits, axis=2)
        if pass_directions is None:
            pass_directions = draw_pass_directions(rules, rng, size)
        return cls(rules, hands, np.broadcast_to(np.asarray(pass_directions), (size,)), backend=backend)

    @classmethod
    def from_deals(cls, deals: Sequence[Deal], backend: str = "auto") -> VectorDeals:
        """Tables in the states of scalar :class:`~hearts_env.engine.Deal` objects (any phase, same
        rules) — e.g. sampled worlds, to play many rollouts from them at once."""
        if not deals:
            raise ValueError("from_deals needs at least one deal")
        rules = deals[0].rules
        if any(d.rules is not rules and d.rules != rules for d in deals):  # identity first: eq reads every field
            raise ValueError("from_deals needs deals under one Rules object")
        b = len(deals)
        tables = cls(rules, np.array([d.dealt for d in deals], dtype=U64),
                     np.array([d.pass_direction for d in deals]), np.array([d.dealer for d in deals]),
                     backend=backend, game_scores=np.array([d.game_scores for d in deals], dtype=np.int64))
        tables.hands[:] = [d.hands for d in deals]
        tables.passed[:] = [d.passed for d in deals]
        tables.played_by[:] = [d.played_by for d in deals]
        tables.phase[:] = [d.phase for d in deals]
        tables.current[:] = [max(d.current, 0) for d in deals]
        tables.leader[:] = [max(d.leader, 0) for d in deals]
        for i, d in enumerate(deals):
            tables.trick[i, :len(d.trick)] = d.trick
            tables.trick_winners[i, :len(d.trick_winners)] = d.trick_winners
            if d.points is not None:
                tables.points[i] = d.points
                tables.moon_shooter[i] = -1 if d.moon_shooter is None else d.moon_shooter
        tables.trick_count[:] = [len(d.trick) for d in deals]
        tables.trick_mask[:] = [d.trick_mask for d in deals]
        tables.led_mask[:] = [d.led_mask for d in deals]
        tables.trick_index[:] = [d.trick_index for d in deals]
        tables.hearts_broken[:] = [d.hearts_broken for d in deals]
        tables.taken[:] = [d.taken for d in deals]
        tables.tricks_won[:] = [d.tricks_won for d in deals]
        tables.voids[:] = [d.voids for d in deals]
        assert b == tables.size
        return tables

    def take(self, rows: np.ndarray | Sequence[int]) -> VectorDeals:
        """A new batch whose table ``j`` is a copy of table ``rows[j]`` (rows may repeat) — e.g. one
        table per (sampled world, candidate card) for a search."""
        rows = np.asarray(rows, dtype=np.intp)
        new = VectorDeals.__new__(VectorDeals)
        new.__dict__.update(self.__dict__)  # rules, backend and per-rules constants
        for name in (*STATE_FIELDS, "dealt"):
            setattr(new, name, getattr(self, name)[rows])
        new.size = len(rows)
        new.rows = np.arange(new.size)
        return new

    def redeal(self, which: np.ndarray, rng: np.random.Generator) -> None:
        """Start a new shuffled deal at the tables where ``which`` is True (the others are untouched)."""
        rows = np.flatnonzero(which)
        if len(rows) == 0:
            return
        fresh = VectorDeals.random(self.rules, len(rows), rng, backend="numpy")
        for name in (*STATE_FIELDS, "dealt"):
            getattr(self, name)[rows] = getattr(fresh, name)

    def _state(self) -> tuple[np.ndarray, ...]:
        return tuple(getattr(self, name) for name in STATE_FIELDS)

    @property
    def done(self) -> np.ndarray:
        return self.phase == int(Phase.DONE)

    def legal_masks(self) -> np.ndarray:
        """(B,) uint64: the cards the seat to act may pass or play at each table (0 when done)."""
        if self._jit is not None:
            masks = np.zeros(self.size, U64)
            self._drive(_kernels.LEGAL, masks=masks)
            return masks
        return numpy_backend.legal_masks(self)

    def random_actions(self, rng: np.random.Generator) -> np.ndarray:
        """(B,) a uniformly random legal card per table (-1 where done): the k-th legal card for
        ``k = floor(u * count)``, ``u`` one uniform draw per table."""
        uniforms: np.ndarray = rng.random(self.size)
        return kth_cards(self.legal_masks(), uniforms)

    def random_step(self, rng: np.random.Generator) -> np.ndarray:
        """``step(random_actions(rng))`` in one pass (fused in the Numba backend); returns the cards."""
        uniforms: np.ndarray = rng.random(self.size)
        if self._jit is None:
            cards = kth_cards(self.legal_masks(), uniforms)
            self.step(cards)
            return cards
        out = np.full(self.size, -1, np.int64)
        self._drive(_kernels.RANDOM_PLAY, uniforms=uniforms[:, None], out=out)
        return out

    def greedy_actions(self) -> np.ndarray:
        """(B,) the card paper 002's greedy player (``"greedy"``) picks at each table (-1 where done).
        Numba backend only."""
        return self.policy_actions("greedy")

    def policy_actions(self, policy: str) -> np.ndarray:
        """(B,) the card a bundled rule player picks at each table (-1 where done), card for card
        what the scalar agent of that spec would pick: ``"greedy"`` (paper 002) or ``"heuristic"``
        with its parameters (e.g. ``"heuristic(moon_alarm=6, shoot=False)"``). Numba backend only."""
        player = kernel_policy(policy)
        if player.choice_mode is None:
            raise ValueError(f"vectorized policies with a choice are greedy and heuristic; got {policy!r}")
        self._require_jit(f"the vectorized {player.name} player")
        out = np.full(self.size, -1, np.int64)
        self._drive(player.choice_mode, out=out, params=player.params)
        return out

    def advance(self, learner: np.ndarray, opponents: str | KernelPolicy, rng: np.random.Generator) -> np.ndarray:
        """Let the other seats play (``"random"``, ``"greedy"`` or ``"heuristic"``, with parameters as in
        :meth:`policy_actions`) at every table until seat ``learner[i]`` is to act or the deal is over
        (``-1``: play every seat to the end); returns the number of cards played per table.
        ``"greedy"`` and ``"heuristic"`` need Numba."""
        learner = np.broadcast_to(np.asarray(learner, dtype=np.int8), (self.size,)).copy()
        player = opponents if isinstance(opponents, KernelPolicy) else kernel_policy(opponents)
        most = max(6, 3 * self.pass_count + 3)  # opponents' decisions between two of the learner's
        if (learner < 0).any():
            most = 4 * (self.hand_size + self.pass_count)
        uniforms = rng.random((self.size, most)) if player.name == "random" else np.zeros((self.size, 1))
        if self._jit is not None:
            counts = np.zeros(self.size, np.int64)
            self._drive(player.advance_mode, uniforms=uniforms, learner=learner, out=counts, params=player.params)
            return counts
        if player.name != "random":
            self._require_jit(f"the vectorized {player.name} player")
        counts = np.zeros(self.size, np.int64)
        while True:
            waiting = (self.phase != int(Phase.DONE)) & (self.current != learner)
            if not waiting.any():
                return counts
            cards = kth_cards(self.legal_masks(), uniforms[np.arange(self.size), np.minimum(counts, most - 1)])
            self.step(np.where(waiting, cards, -1), only=waiting)
            counts += waiting

    _NO_INT = np.zeros(1, np.int64)
    _NO_U64 = np.zeros(1, U64)
    _NO_FLOAT = np.zeros((1, 1))
    _NO_SEAT = np.zeros(1, np.int8)
    _NO_PARAMS = kernel_policy("random").params

    def _drive(self, mode: int, cards: np.ndarray = _NO_INT, uniforms: np.ndarray = _NO_FLOAT,
               learner: np.ndarray = _NO_SEAT, out: np.ndarray = _NO_INT, masks: np.ndarray = _NO_U64,
               params: np.ndarray = _NO_PARAMS) -> int:
        assert self._jit is not None  # callers check the backend first
        return int(self._jit(self._state(), self._k, self._p, params, mode, cards, uniforms, learner, out, masks))

    def _require_jit(self, what: str) -> None:
        if self._jit is None:
            raise NotImplementedError(f"{what} needs the Numba backend: pip install 'hearts-env[search]'")

    def step(self, cards: np.ndarray, only: np.ndarray | None = None) -> None:
        """Each unfinished table's seat to act passes or plays ``cards[i]`` (tables outside the
        boolean ``only``, when given, are left alone); raises :class:`IllegalActionError` naming the
        first offending table if any card is illegal, and then no table moves."""
        cards = np.asarray(cards, dtype=np.int64)
        if cards.shape != (self.size,):
            raise ValueError(f"step needs one card per table: shape ({self.size},), got {cards.shape}")
        if only is not None:
            cards = np.where(only | (self.phase == int(Phase.DONE)), cards, -2)
        if self._jit is not None:
            bad = self._drive(_kernels.CHECK, cards=cards)
            if bad >= 0:
                self._raise_illegal(bad, cards, self.legal_masks())
            self._drive(_kernels.PLAY, cards=cards)
            return
        legal = self.legal_masks()
        bad = numpy_backend.step(self, cards, legal)
        if bad >= 0:
            self._raise_illegal(bad, cards, legal)

    def _raise_illegal(self, i: int, cards: np.ndarray, legal: np.ndarray) -> None:
        seat = int(self.current[i])
        names = format_cards(int(legal[i]), self.rules.deck_obj)
        raise IllegalActionError(f"table {i}: card {int(cards[i])} is not legal for seat {seat}; legal cards: {names}",
                                 seat=seat, card=int(cards[i]), rule=BrokenRule.BATCH,
                                 legal=[c for c in range(self.n) if int(legal[i]) >> c & 1])
