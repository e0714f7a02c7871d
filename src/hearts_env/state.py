"""The deal's state fields, declared once: :class:`DealState`, one array per field over a batch of rows.

Every other form of the state is held to this declaration by ``tests/test_state.py``: the scalar
:class:`~hearts_env.engine.Deal` (its slots, ``__init__`` and ``clone``), a seat's
:class:`~hearts_env.views.SeatView`, and the compiled kernels of :mod:`hearts_env.vector`, which read
the fields by name. :class:`~hearts_env.vector.VectorDeals` holds one ``DealState``; building a fresh
batch (:func:`fresh_state`), copying rows (:func:`take_rows`) and converting scalar deals
(:func:`state_of_deals`) are derived from the declaration, so a new field is one line here plus its
rule in the engines.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal, NamedTuple, get_type_hints

import numpy as np

from hearts_env.engine import Phase
from hearts_env.tables import RuleTables

if TYPE_CHECKING:
    from hearts_env.engine import Deal

Shape = Literal["row", "seat", "trick", "deal"]
"""Per row: one value (``row``), one per seat (``seat``, 4), one per card of the trick in play order
(``trick``, 4), one per trick of the deal (``deal``, the hand size)."""


@dataclass(frozen=True)
class Field:
    """How a state field is stored in a batch and read from a scalar :class:`~hearts_env.engine.Deal`."""

    dtype: type[np.generic]
    shape: Shape
    fill: int = 0
    """A fresh row's value, and the value of a ``None`` or of missing entries of a shorter list in a ``Deal``."""
    seat_index: bool = False
    """A seat index that the ``Deal`` sets to -1 when no seat is meant; the batch keeps 0 there, so that
    the index can always index a seat's array."""
    of_deal: Callable[[Deal], Any] | None = None
    """How to read the field from a ``Deal`` when it is not the attribute of the same name."""


U64 = np.uint64
_I8, _I16, _I64 = np.int8, np.int16, np.int64


class DealState(NamedTuple):
    """The state of B deals of one ``Rules``, one array per field with the row first (see :data:`Shape`).

    Card sets are ``uint64`` masks (bit ``c`` = card ``c``); ``points`` and ``game_scores`` are int64,
    so that no sum of point values can wrap. A NamedTuple, so the compiled kernels take it whole."""

    dealt: Annotated[np.ndarray, Field(U64, "seat")]
    """The hands as dealt, before passing."""
    hands: Annotated[np.ndarray, Field(U64, "seat")]
    """The cards each seat holds now (while passing, still including the cards chosen to pass)."""
    passed: Annotated[np.ndarray, Field(U64, "seat")]
    """The cards each seat chose to pass."""
    played_by: Annotated[np.ndarray, Field(U64, "seat")]
    phase: Annotated[np.ndarray, Field(_I8, "row", fill=int(Phase.PLAY))]
    """:class:`~hearts_env.engine.Phase` values."""
    current: Annotated[np.ndarray, Field(_I8, "row", seat_index=True)]
    """The seat to act."""
    leader: Annotated[np.ndarray, Field(_I8, "row", seat_index=True)]
    """The seat that led the trick in play."""
    trick: Annotated[np.ndarray, Field(_I16, "trick", fill=-1)]
    """The trick's cards in play order (-1: not played yet)."""
    trick_count: Annotated[np.ndarray, Field(_I8, "row", of_deal=lambda d: len(d.trick))]
    trick_mask: Annotated[np.ndarray, Field(U64, "row")]
    led_mask: Annotated[np.ndarray, Field(U64, "row")]
    """The cards of the suit led (0 before the lead)."""
    trick_index: Annotated[np.ndarray, Field(_I8, "row")]
    hearts_broken: Annotated[np.ndarray, Field(np.bool_, "row")]
    taken: Annotated[np.ndarray, Field(U64, "seat")]
    tricks_won: Annotated[np.ndarray, Field(_I8, "seat")]
    voids: Annotated[np.ndarray, Field(np.uint8, "seat")]
    """Per seat, a mask of the suits it has shown it lacks (bit = suit index)."""
    trick_winners: Annotated[np.ndarray, Field(_I8, "deal", fill=-1)]
    points: Annotated[np.ndarray, Field(_I64, "seat")]
    """The deal's points once it is over (moon and bonuses applied)."""
    moon_shooter: Annotated[np.ndarray, Field(_I8, "row", fill=-1)]
    pass_direction: Annotated[np.ndarray, Field(_I8, "row")]
    dealer: Annotated[np.ndarray, Field(_I8, "row")]
    game_scores: Annotated[np.ndarray, Field(_I64, "seat")]
    """The game's scores before this deal (``moon="shooter_choice"`` decides against them)."""

    @property
    def size(self) -> int:
        """The number of rows."""
        return len(self.phase)


FIELDS: dict[str, Field] = {name: hint.__metadata__[0]
                            for name, hint in get_type_hints(DealState, include_extras=True).items()}
"""Each field of :class:`DealState` and how it is stored, in declaration order."""


def fresh_state(tables: RuleTables, rows: int) -> DealState:
    """``rows`` rows at every field's fill value (callers then deal the cards)."""
    shapes = {"row": (rows,), "seat": (rows, 4), "trick": (rows, 4), "deal": (rows, tables.hand_size)}
    arrays = []
    for f in FIELDS.values():  # zeros, then the few other fills: np.full costs 2 µs more per array
        array = np.zeros(shapes[f.shape], f.dtype)
        if f.fill:
            array.fill(f.fill)
        arrays.append(array)
    return DealState(*arrays)


def take_rows(state: DealState, rows: np.ndarray) -> DealState:
    """A new state whose row ``j`` is a copy of row ``rows[j]`` (rows may repeat)."""
    return DealState(*(array[rows] for array in state))


def put_rows(state: DealState, rows: np.ndarray, source: DealState) -> None:
    """Overwrite ``state``'s rows ``rows`` with ``source``'s rows, in order."""
    for mine, theirs in zip(state, source, strict=True):
        mine[rows] = theirs


def state_of_deals(deals: Sequence[Deal], tables: RuleTables) -> DealState:
    """The state of scalar deals (any phase, the rules of ``tables``), one row each."""
    state = fresh_state(tables, len(deals))
    for (name, field), array in zip(FIELDS.items(), state, strict=True):
        values = [field.of_deal(d) for d in deals] if field.of_deal else [getattr(d, name) for d in deals]
        if field.shape in ("trick", "deal"):  # lists as long as the deal has got
            for i, value in enumerate(values):
                array[i, :len(value)] = value
        elif field.seat_index:
            array[:] = [max(value, 0) for value in values]
        elif any(value is None for value in values):  # not known yet: the fill stays
            present = [i for i, value in enumerate(values) if value is not None]
            if present:
                array[present] = [values[i] for i in present]
        else:
            array[:] = values
    return state
