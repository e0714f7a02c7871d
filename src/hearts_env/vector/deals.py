"""``VectorDeals``: B deals of one ``Rules`` in lockstep, as public state arrays, with two backends.

See :mod:`hearts_env.vector` for the overview. The rules run in the compiled kernels
(:mod:`._kernels`) or in the NumPy backend (:mod:`.numpy_backend`); this module holds the state,
builds batches, and dispatches.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Sequence

import numpy as np

from hearts_env.cards import format_cards
from hearts_env.engine import BrokenRule, Deal, IllegalActionError, Phase
from hearts_env.rules import Rules, draw_pass_directions, make_rules
from hearts_env.state import FIELDS, DealState, fresh_state, put_rows, state_of_deals, take_rows
from hearts_env.tables import RuleTables, tables_of
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
    global _told_slow
    if jit is None and not _told_slow:  # "auto" falls back: say so once per process, with the fix
        _told_slow = True
        warnings.warn(SLOW_PATH, SlowPathWarning, stacklevel=2)
    return jit


_told_slow = False


class SlowPathWarning(UserWarning):
    """The batched engine runs on NumPy because Numba is not installed (the ``search`` extra)."""


SLOW_PATH = ("Numba is not installed, so the batched engine (the search agents' playouts, HeartsVectorEnv) runs on "
             "NumPy: pimc takes about 0.3 s a move instead of 0.004 s. pip install 'hearts-env[search]' compiles it")
"""What the first fallback of a process says (:class:`SlowPathWarning`), once."""


def numba_available() -> bool:
    """Whether the compiled backend can run here (the ``search`` extra installs Numba)."""
    return _kernels.compiled() is not None


U64 = np.uint64
STATE_FIELDS = DealState._fields
"""The names of the state arrays (:class:`~hearts_env.state.DealState`)."""

# old names of per-rules numbers, read from ``deals.tables`` now (deprecated; removed in 0.3)
_DEPRECATED_NUMBERS = {"n": "size", "rps": "ranks_per_suit", "hand_size": "hand_size", "pass_count": "pass_count"}


@functools.lru_cache(maxsize=64)
def _packed(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """The rules packed for the kernels (cached: search agents build many small batches)."""
    return tables_of(rules).pack()


class VectorDeals:
    """B deals under one Rules object (see the module docstring): ``rules``, their ``tables``
    (:class:`~hearts_env.tables.RuleTables`) and ``state`` (:class:`~hearts_env.state.DealState`, one
    array per field, a row per deal). Each state array is also an attribute: ``deals.hands`` is
    ``deals.state.hands``."""

    __slots__ = ("rules", "tables", "_state", "_arrays", "rows", "backend", "_jit", "_k", "_p")
    rules: Rules
    tables: RuleTables
    _state: DealState
    _arrays: tuple[np.ndarray, ...]
    rows: np.ndarray
    """``arange(size)``: the row indices, for indexing one seat per row."""
    backend: str
    """``"numba"`` or ``"numpy"``."""
    _jit: Callable[..., int] | None
    _k: np.ndarray
    _p: np.ndarray

    def __init__(self, rules: Rules | str, hands: np.ndarray, pass_directions: np.ndarray | Sequence[int],
                 dealers: np.ndarray | Sequence[int] | int = 3, backend: str = "auto",
                 game_scores: np.ndarray | Sequence[Sequence[int]] | None = None):
        """``game_scores`` (B, 4): each row's game scores before the deal, which ``moon="shooter_choice"``
        decides against in a game to the target (default zeros), as :class:`~hearts_env.engine.Deal`."""
        rules = make_rules(rules)
        hands = np.asarray(hands, dtype=U64)
        if hands.ndim != 2 or hands.shape[1] != 4:
            raise ValueError(f"hands must have shape (B, 4), got {hands.shape}")
        b = hands.shape[0]
        tables = tables_of(rules)
        state = fresh_state(tables, b)
        state.dealt[:] = hands
        state.hands[:] = hands
        if tables.pass_count:
            state.pass_direction[:] = np.asarray(pass_directions, dtype=np.int8) % 4
        state.dealer[:] = np.asarray(dealers, dtype=np.int8)
        # engine.Phase values; NumPy expressions on them take int(Phase.X), as NumPy 2 reads a member as an
        # int64 scalar, not a Python int: comparing the int8 array with it is 3-10 µs slower per operation
        state.phase[:] = np.where(state.pass_direction != 0, int(Phase.PASS), int(Phase.PLAY))
        state.hearts_broken[:] = not rules.must_break_hearts
        if game_scores is not None:
            scores = np.asarray(game_scores)
            if scores.dtype.kind not in "iu" or scores.shape not in ((4,), (b, 4)):
                raise ValueError(f"game_scores must be integers of shape (4,) or ({b}, 4), "
                                 f"got {scores.dtype} {scores.shape}")
            state.game_scores[:] = scores
        numpy_backend.start_play(tables, state, state.phase == int(Phase.PLAY))
        self._hold(rules, state, backend)

    def _hold(self, rules: Rules, state: DealState, backend: str | None = None,
              like: VectorDeals | None = None) -> None:
        """Hold ``state`` under ``rules`` with ``backend`` (or ``like``'s backend and rules)."""
        if like is not None:
            self.rules, self.tables, self.backend = like.rules, like.tables, like.backend
            self._jit, self._k, self._p = like._jit, like._k, like._p
        else:
            self.rules, self.tables = rules, tables_of(rules)
            self._jit = resolve_backend(backend or "auto")
            self.backend = "numpy" if self._jit is None else "numba"
            self._k, self._p = _packed(rules)
        self._state = state
        self._arrays = tuple(state)  # what the kernels take (see _kernels.drive); the arrays are never replaced
        self.rows = np.arange(state.size)

    def __getattr__(self, name: str) -> np.ndarray:
        """A state array by its field's name (``deals.hands``); the old per-rules numbers, deprecated."""
        if name in FIELDS:
            return getattr(self.state, name)
        if name in _DEPRECATED_NUMBERS:
            new = _DEPRECATED_NUMBERS[name]
            warnings.warn(f"VectorDeals.{name} is deprecated: use .tables.{new}", DeprecationWarning, stacklevel=2)
            return getattr(self.tables, new)
        raise AttributeError(f"'VectorDeals' object has no attribute {name!r}")

    @property
    def state(self) -> DealState:
        """The state: one array per field, a row per deal (the arrays are changed in place, never replaced)."""
        return self._state

    @property
    def size(self) -> int:
        """The number of rows (deals)."""
        return len(self.rows)

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
        """Rows in the states of scalar :class:`~hearts_env.engine.Deal` objects (any phase, same
        rules) — e.g. sampled worlds, to play many rollouts from them at once."""
        if not deals:
            raise ValueError("from_deals needs at least one deal")
        rules = deals[0].rules
        if any(d.rules is not rules and d.rules != rules for d in deals):  # identity first: eq reads every field
            raise ValueError("from_deals needs deals under one Rules object")
        new = cls.__new__(cls)
        new._hold(rules, state_of_deals(deals, tables_of(rules)), backend)
        return new

    def take(self, rows: np.ndarray | Sequence[int]) -> VectorDeals:
        """A new batch whose row ``j`` is a copy of row ``rows[j]`` (rows may repeat) — e.g. one
        row per (sampled world, candidate card) for a search."""
        new = VectorDeals.__new__(VectorDeals)
        new._hold(self.rules, take_rows(self.state, np.asarray(rows, dtype=np.intp)), like=self)
        return new

    def redeal(self, which: np.ndarray, rng: np.random.Generator) -> None:
        """Start a new shuffled deal at the rows where ``which`` is True (the others are untouched)."""
        rows = np.flatnonzero(which)
        if len(rows) == 0:
            return
        put_rows(self.state, rows, VectorDeals.random(self.rules, len(rows), rng, backend="numpy").state)

    @property
    def done(self) -> np.ndarray:
        return self.state.phase == int(Phase.DONE)

    def legal_masks(self) -> np.ndarray:
        """(B,) uint64: the cards the seat to act may pass or play in each row (0 when done)."""
        if self._jit is not None:
            masks = np.zeros(self.size, U64)
            self._drive(_kernels.LEGAL, masks=masks)
            return masks
        return numpy_backend.legal_masks(self.tables, self.state)

    def random_actions(self, rng: np.random.Generator) -> np.ndarray:
        """(B,) a uniformly random legal card per row (-1 where done): the k-th legal card for
        ``k = floor(u * count)``, ``u`` one uniform draw per row."""
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
        """(B,) the card paper 002's greedy player (``"greedy"``) picks in each row (-1 where done).
        Numba backend only."""
        return self.policy_actions("greedy")

    def policy_actions(self, policy: str) -> np.ndarray:
        """(B,) the card a bundled rule player picks in each row (-1 where done), card for card
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
        :meth:`policy_actions`) in every row until seat ``learner[i]`` is to act or the deal is over
        (``-1``: play every seat to the end); returns the number of cards played per row.
        ``"greedy"`` and ``"heuristic"`` need Numba."""
        learner = np.broadcast_to(np.asarray(learner, dtype=np.int8), (self.size,)).copy()
        player = opponents if isinstance(opponents, KernelPolicy) else kernel_policy(opponents)
        most = max(6, 3 * self.tables.pass_count + 3)  # opponents' decisions between two of the learner's
        if (learner < 0).any():
            most = 4 * (self.tables.hand_size + self.tables.pass_count)
        uniforms = rng.random((self.size, most)) if player.name == "random" else np.zeros((self.size, 1))
        if self._jit is not None:
            counts = np.zeros(self.size, np.int64)
            self._drive(player.advance_mode, uniforms=uniforms, learner=learner, out=counts, params=player.params)
            return counts
        if player.name != "random":
            self._require_jit(f"the vectorized {player.name} player")
        counts = np.zeros(self.size, np.int64)
        while True:
            waiting = (self.state.phase != int(Phase.DONE)) & (self.state.current != learner)
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
        return int(self._jit(self._arrays, self._k, self._p, params, mode, cards, uniforms, learner, out, masks))

    def _require_jit(self, what: str) -> None:
        if self._jit is None:
            raise NotImplementedError(f"{what} needs the Numba backend: pip install 'hearts-env[search]'")

    def step(self, cards: np.ndarray, only: np.ndarray | None = None) -> None:
        """In each unfinished row the seat to act passes or plays ``cards[i]`` (rows outside the
        boolean ``only``, when given, are left alone); raises :class:`IllegalActionError` naming the
        first offending row if any card is illegal, and then no row moves."""
        cards = np.asarray(cards, dtype=np.int64)
        if cards.shape != (self.size,):
            raise ValueError(f"step needs one card per row: shape ({self.size},), got {cards.shape}")
        if only is not None:
            cards = np.where(only | (self.state.phase == int(Phase.DONE)), cards, -2)
        if self._jit is not None:
            bad = self._drive(_kernels.CHECK, cards=cards)
            if bad >= 0:
                self._raise_illegal(bad, cards, self.legal_masks())
            self._drive(_kernels.PLAY, cards=cards)
            return
        legal = self.legal_masks()
        bad = numpy_backend.step(self.tables, self.state, cards, legal)
        if bad >= 0:
            self._raise_illegal(bad, cards, legal)

    def _raise_illegal(self, i: int, cards: np.ndarray, legal: np.ndarray) -> None:
        seat = int(self.state.current[i])
        names = format_cards(int(legal[i]), self.rules.deck_obj)
        raise IllegalActionError(f"row {i}: card {int(cards[i])} is not legal for seat {seat}; legal cards: {names}",
                                 seat=seat, card=int(cards[i]), rule=BrokenRule.BATCH,
                                 legal=[c for c in range(self.tables.size) if int(legal[i]) >> c & 1])
