"""Observation encoders and their registry.

An encoder turns one seat's :class:`~hearts_env.views.SeatView` into a fixed-size vector.
Environments ask the registry by name (``hearts_v0.env(observation="rich")``); baselines and
search agents use the same encoders on hypothetical positions.

>>> from hearts_env.encoders import make_encoder, encoder_names
>>> "rich" in encoder_names()
True

Write a new encoding as a subclass of :class:`Encoder` (implement ``vector_size`` and
``write``, which sets every slot of ``self._buffer``) or of :class:`BinaryEncoder` (return the
0/1 slots as one int from ``bits``) in its own module, and register it with
:func:`register_encoder`; see docs/observations.md for every layout.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces

from hearts_env.rules import Rules, make_rules
from hearts_env.views import SeatView

DTYPES: dict[str, type[np.float32] | type[np.uint8]] = {"float32": np.float32, "uint8": np.uint8}


class EncoderError(ValueError):
    """An unknown encoder name, a bad dtype, or rules an encoding does not support."""


class Encoder:
    """Base class: subclasses set ``name``, ``vector_size(rules)`` and implement ``write``.

    ``write(view)`` must set every slot of ``self._buffer`` (a reused, preallocated vector);
    ``encode`` returns that buffer, or copies it into ``out``. Values must lie in ``[low, high]``
    of :meth:`space`. An encoder pickles (and deep-copies) as its class, rules and dtype: its buffers
    are views that do not pickle, so a copy builds fresh ones (a subclass whose constructor takes
    more than ``rules, dtype`` overrides ``__reduce__``).
    """

    name: ClassVar[str] = ""
    high: ClassVar[float] = 1.0
    low: ClassVar[float] = 0.0

    def __init__(self, rules: Rules | str | None = None, dtype: str | type = "float32"):
        from hearts_env.encoders._bits import BitBuffer

        self.rules = make_rules(rules)
        key = dtype if isinstance(dtype, str) else np.dtype(dtype).name
        if key not in DTYPES:
            raise EncoderError(f"dtype {dtype!r} is not supported; valid dtypes: {', '.join(DTYPES)}")
        self.dtype = DTYPES[key]
        self.check_rules(self.rules)
        self.size = self.vector_size(self.rules)
        self._bitbuffer = BitBuffer(self.size, self.dtype)
        self._buffer = self._bitbuffer.buffer

    def __reduce__(self) -> tuple[Any, tuple[Rules, str]]:
        return type(self), (self.rules, np.dtype(self.dtype).name)

    @classmethod
    def check_rules(cls, rules: Rules) -> None:
        """Raise :class:`EncoderError` if this encoding cannot represent deals under ``rules``."""

    @classmethod
    def vector_size(cls, rules: Rules) -> int:
        raise NotImplementedError

    def space(self) -> spaces.Box:
        return spaces.Box(low=self.low, high=self.high, shape=(self.size,), dtype=self.dtype)

    def encode(self, view: SeatView, out: np.ndarray | None = None) -> np.ndarray:
        """Encode ``view`` into this encoder's reused buffer and return it, or a copy in ``out``."""
        self.write(view)
        if out is None:
            return self._buffer
        out[:] = self._buffer
        return out

    def write(self, view: SeatView) -> None:
        """Set every slot of ``self._buffer`` from ``view``."""
        raise NotImplementedError


class BinaryEncoder(Encoder):
    """An encoding whose slots are all 0/1: subclasses return them as one int from ``bits``
    (bit ``i`` = slot ``i``), unpacked in one NumPy call."""

    def __init__(self, rules: Rules | str | None = None, dtype: str | type = "float32"):
        super().__init__(rules, dtype)
        self._region = self._bitbuffer.region(0, self.size)

    def bits(self, view: SeatView) -> int:
        raise NotImplementedError

    def write(self, view: SeatView) -> None:
        self._region.unpack(self.bits(view))


_REGISTRY: dict[str, Callable[..., Encoder]] = {}


def register_encoder(name: str, factory: Callable[..., Encoder]) -> None:
    """Register an encoder class (or factory taking ``rules, dtype``) under ``name``."""
    _REGISTRY[name] = factory


def encoder_names() -> list[str]:
    _load_builtin()
    return sorted(_REGISTRY)


def make_encoder(name: str, rules: Rules | str | None = None, dtype: str | type = "float32") -> Encoder:
    """The encoder registered as ``name`` for ``rules``; raises :class:`EncoderError` listing valid names."""
    _load_builtin()
    if name not in _REGISTRY:
        raise EncoderError(f"unknown observation encoding {name!r}; valid names: {', '.join(sorted(_REGISTRY))}")
    return _REGISTRY[name](rules, dtype)


def _load_builtin() -> None:
    # Imported lazily so that each encoding module can import this one.
    from hearts_env.encoders import culhane217, dutch107, openspiel, paper, paper104, paper260, rich  # noqa: F401
