"""Batched NumPy engine: B deals stepping in lockstep, one per row, over uint64 card masks.

>>> import numpy as np
>>> from hearts_env.vector import VectorDeals
>>> deals = VectorDeals.random("openspiel", 8, np.random.default_rng(0))
>>> rng = np.random.default_rng(1)
>>> while not deals.done.all():
...     deals.step(deals.random_actions(rng))
>>> bool((deals.points.sum(axis=1) % 26 == 0).all())
True

Every row follows exactly the scalar engine's rules (:class:`~hearts_env.engine.Deal`; a test
compares masks, trick winners and points deal by deal). ``step(cards)`` takes one card id per
row for the seat to act there; finished rows ignore their entry (pass ``-1``). Passing is
one card per step, seats 0..3 in order, as in the scalar engine, so deals with and without
passing can share a batch. The state is ``deals.state``
(:class:`~hearts_env.state.DealState`, one array per field), public and read-only by convention; each
array is also an attribute (``deals.hands``).

Two backends give identical results: ``"numba"`` runs compiled per-row loops
(:mod:`hearts_env.vector._kernels`, needs the ``search`` extra) and ``"numpy"`` runs whole-batch
array operations; ``backend="auto"`` (the default) takes Numba when it is installed.
"""

from hearts_env.vector.deals import (
    BACKENDS,
    STATE_FIELDS,
    SlowPathWarning,
    VectorDeals,
    numba_available,
    resolve_backend,
)
from hearts_env.vector.numpy_backend import kth_cards, penalty_points
from hearts_env.vector.policies import POLICIES, KernelPolicy, kernel_policy, policy_name

__all__ = ["BACKENDS", "POLICIES", "STATE_FIELDS", "KernelPolicy", "SlowPathWarning", "VectorDeals", "kernel_policy",
           "kth_cards",
           "numba_available", "penalty_points", "policy_name", "resolve_backend"]
