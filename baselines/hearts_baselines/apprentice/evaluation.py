"""The trainers' quick measure of strength: one learner seat against three ``heuristic`` on the vector env.

Not the arena's duplicate protocol (each deal is played once, the learner's seat and the pass direction
drawn per deal): a cheap, seeded learning curve. Claims are measured in the arena (docs/learned.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from hearts_baselines.apprentice.agent import choose
from hearts_baselines.apprentice.net import NumpyNet
from hearts_env.vector.env import HeartsVectorEnv

RULES = "standard(game=deal)"


def margin_vs_heuristic(choose: Callable[[Any, np.ndarray, np.ndarray], np.ndarray], deals: int, seed: int,
                        envs: int = 256) -> tuple[float, float]:
    """(mean margin, its standard error) of a learner in one seat against three ``heuristic`` over ``deals``
    seeded deals (seat and pass direction drawn) played ``envs`` at a time: heuristic's mean points per seat
    minus the learner's, per deal. ``choose(deals, obs, masks)`` gives the learner's card in every row of the
    batch ``deals`` (:class:`VectorDeals`)."""
    env = HeartsVectorEnv(num_envs=min(envs, deals), rules=RULES, opponents="heuristic", seat="random")
    obs, info = env.reset(seed=seed)
    margins: list[float] = []
    while len(margins) < deals:
        actions = choose(env.deals, obs, info["action_mask"])
        seats = env.seats.astype(np.intp).copy()
        obs, _, term, _, info = env.step(actions)
        if term.any():
            pts = info["points"][term].astype(float)
            me = pts[np.arange(len(pts)), seats[term]]
            margins.extend(((pts.sum(axis=1) - me) / 3 - me).tolist())
    m = np.asarray(margins[:deals])
    return float(m.mean()), float(m.std(ddof=1) / np.sqrt(len(m)))


def greedy_margin(net: NumpyNet, deals: int, seed: int) -> tuple[float, float]:
    """:func:`margin_vs_heuristic` of ``net``'s greedy policy."""
    return margin_vs_heuristic(lambda _, obs, masks: choose(net, obs, masks, "policy"), deals, seed)
