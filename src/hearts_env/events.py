"""What happens in a deal, as types: the :class:`Trick` a card completes, and the event log.

``Deal.apply`` returns the :class:`Trick` the card completed (``None`` for a pass or a card that
leaves the trick open); ``Deal.tricks()`` lists the completed tricks; ``Deal.events()`` is the
whole log as typed events (:class:`DealStarted`, :class:`Passed`, :class:`Received`,
:class:`Played`, :class:`TrickTaken`, :class:`Scored`), each with its ``kind`` string.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from hearts_env.tables import RuleTables


@dataclass(slots=True)  # not frozen: a frozen dataclass costs 4x to build, and apply builds one per trick
class Trick:
    """A completed trick (returned by ``Deal.apply``; treat as a value)."""

    index: int
    """0 for the first trick of the deal."""
    leader: int
    cards: tuple[int, ...]
    """In the order played, the led card first."""
    winner: int
    mask: int = field(repr=False)
    """The cards as a bit mask."""
    tables: RuleTables = field(repr=False, compare=False)
    """The rules' tables, for :attr:`points`."""

    @property
    def points(self) -> int:
        """Points of its cards (penalties minus the J♦ bonus; no moon, no trick bonus), computed on
        access: most callers of ``apply`` never read them."""
        return self.tables.points_of(self.mask)

    def __repr__(self) -> str:
        return (f"Trick(index={self.index}, leader={self.leader}, cards={self.cards}, winner={self.winner}, "
                f"points={self.points})")


@dataclass(frozen=True)
class Event:
    """One entry of a deal's event log: ``kind``, the acting ``seat`` (the trick winner for a
    trick; ``None`` for the deal and the score) and the ``cards`` involved; each kind adds its fields."""

    kind: ClassVar[str] = ""
    seat: int | None
    cards: tuple[int, ...]

    _ALIASES: ClassVar[dict[str, str]] = {}

    def get(self, key: str, default: Any = None) -> Any:
        """A field by name (``"from"`` for :attr:`Received.source`), or ``default``."""
        return getattr(self, self._ALIASES.get(key, key), default)


@dataclass(frozen=True)
class DealStarted(Event):
    kind: ClassVar[str] = "deal"
    hands: tuple[int, ...]
    pass_direction: str
    dealer: int


@dataclass(frozen=True)
class Passed(Event):
    kind: ClassVar[str] = "pass"
    seat: int  # a seat passes, receives, plays, takes the trick
    to: int


@dataclass(frozen=True)
class Received(Event):
    kind: ClassVar[str] = "receive"
    seat: int
    _ALIASES: ClassVar[dict[str, str]] = {"from": "source"}
    source: int
    """The seat the cards came from."""


@dataclass(frozen=True)
class Played(Event):
    kind: ClassVar[str] = "play"
    seat: int
    trick: int
    """The index of the trick the card went to."""


@dataclass(frozen=True)
class TrickTaken(Event):
    """A trick completed: ``seat`` won it, ``cards`` in the order played."""

    kind: ClassVar[str] = "trick"
    seat: int
    leader: int
    points: int
    index: int


@dataclass(frozen=True)
class Scored(Event):
    kind: ClassVar[str] = "score"
    points: tuple[int, ...]
    moon_shooter: int | None
