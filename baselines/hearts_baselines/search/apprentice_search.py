"""``apprentice-search``: the apprentice, searching where a moon may still be on.

The bundled ``apprentice`` network plays every decision, passes included, except at a *moon position* — a playing
decision at which exactly one other seat has taken penalty points and the seat none
(:func:`~hearts_baselines.search_common.moon_position`) — where ``pimc`` decides: ``n`` sampled worlds, every legal
card played in each and the world finished by the apprentice for all four seats, fewest mean points wins. It is
exactly ``pimc(n=40, policy='apprentice', elsewhere='apprentice')`` under a name of its own (a test holds the two
card for card), the searcher of docs/search.md's "Searching only where a moon may still be on": about a fifth of its
decisions searched against xinxin, 9 ms a decision (its rows in docs/benchmark.md and docs/reference.md).

    hearts-env arena apprentice-search apprentice --deals 1000
    hearts-env arena "apprentice-search(n=80, time_limit=0.5)" heuristic

``weights`` (default: the bundled apprentice) is the network of both the play and the rollouts; the result files of
hearts-bench record its SHA-256 as the agent's weights.
"""

from __future__ import annotations

from hearts_baselines.search.pimc import PIMCAgent


class ApprenticeSearchAgent(PIMCAgent):
    """See the module docstring."""

    name = "apprentice-search"

    def __init__(self, n: int = 40, weights: str | None = None, time_limit: float | None = None):
        network = "apprentice" if weights is None else f"apprentice(weights={weights!r})"
        super().__init__(n=n, policy=network, elsewhere=network, time_limit=time_limit)
        assert self.elsewhere is not None
        self.weights_file = self.elsewhere.weights_file
