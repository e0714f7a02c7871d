"""Paper 004's player (spec ``tdlambda``): max^n to the end of the trick over sampled worlds, valued
by the learned linear model.

For each of ``worlds`` worlds consistent with what the seat has seen
(:func:`hearts_env.worlds.sample_worlds`; the paper: 20 Monte Carlo models), the compiled search
(:func:`~hearts_baselines.tdlambda.kernels.root_values`) values every legal card for the seat: the
rest of the trick is searched by max^n, and where the trick ends each seat is valued from its own
perspective by the model (exactly, once no points are left). The card of least mean value over the
worlds is played (the lowest card on ties). It plays any rules the features can value (the
52-card deck with hearts 1 and Q♠ 13 and no other scoring); the paper's are ``sturtevant``. The
paper's player does not pass: passes are made by ``passing`` (``heuristic`` by default). The same
search over a world is :class:`~hearts_baselines.search.maxn.MaxNAgent` with ``depth="trick"`` and
the model as ``evaluation`` — slower (Python) and tested to choose the same cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from hearts_baselines.search_common import SearchAgent
from hearts_baselines.tdlambda import kernels
from hearts_baselines.tdlambda.model import Model, search_inputs
from hearts_env import SeatView
from hearts_env.rules import Rules
from hearts_env.worlds import sample_worlds

BUNDLED = Path(__file__).resolve().parent.parent / "weights" / "tdlambda.npz"


def load(weights: str | Path | None) -> Model:
    """The model at ``weights`` (None: the bundled full-game model)."""
    return Model.load(BUNDLED if weights is None else weights)


class TDLambdaAgent(SearchAgent):
    """See the module docstring."""

    name = "tdlambda"

    def __init__(self, weights: str | None = None, worlds: int = 20, passing: str = "heuristic"):
        if not isinstance(worlds, int) or worlds < 1:
            raise ValueError(f"tdlambda: worlds must be a positive integer, got {worlds!r}")
        super().__init__(passing)
        self.weights_file = BUNDLED if weights is None else Path(weights)
        self.model = load(self.weights_file)
        self.worlds = worlds
        self._params: tuple | None = None
        self._kernels = kernels.compiled()

    def reset(self, rules: Rules, seat: int, seed: int | Sequence[int] | None = None) -> None:
        if self.rules != rules or self._params is None:
            self.model.check_rules(rules)
            self._params = self.model.params(rules.moon)
        super().reset(rules, seat, seed)

    def search(self, view: SeatView) -> int:
        assert self._params is not None, "reset() first"
        totals = np.zeros(52)
        out = np.zeros(52)
        for world in sample_worlds(view, self.rng, self.worlds):
            self._kernels.root_values(*search_inputs(world), self._params, out)  # legal: the view's, world by world
            totals += out
        legal = [c for c in range(52) if view.legal >> c & 1]
        return legal[int(np.argmin(totals[legal]))]
