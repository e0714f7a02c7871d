"""``apprentice``: the network trained on ``pimc``'s decisions (docs/learned.md), playing in NumPy.

    hearts-env arena apprentice heuristic --deals 1000
    hearts-env arena "apprentice(weights='runs/apprentice/warm/apprentice.npz')" heuristic
    hearts-env arena "apprentice(head='q')" heuristic        # the card of fewest predicted points

``head='policy'`` (default) plays the legal card of highest logit, passes included; ``head='q'`` the
legal card whose predicted points for the seat are fewest. No torch is needed to play: one decision
is three matrix products (about 0.1 ms). :meth:`ApprenticeAgent.act_batch` plays every row of a
:class:`~hearts_env.vector.VectorDeals` in one call, so ``pimc(policy='apprentice')`` rolls out with
it on the batched engine.

:func:`margin_vs_heuristic` is the trainers' quick measure of strength: one learner seat against three
``heuristic`` on the vector env. Not the arena's duplicate protocol (each deal is played once, the learner's
seat and the pass direction drawn per deal): a cheap, seeded learning curve. Claims are measured in the
arena (docs/learned.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from hearts_baselines.apprentice.net import NumpyNet
from hearts_env import SeatView
from hearts_env.agents import Agent
from hearts_env.encoders import make_encoder
from hearts_env.rules import Rules
from hearts_env.vector import VectorDeals
from hearts_env.vector.encoders import make_batch_encoder

BUNDLED = Path(__file__).resolve().parent.parent / "weights" / "apprentice.npz"
HEADS = ("policy", "q")
RULES = "standard(game=deal)"  # the trainers' rules: one deal per episode


def legal_matrix(masks: np.ndarray, n: int) -> np.ndarray:
    """(B,) uint64 legal masks → (B, n) bool."""
    return ((masks[:, None] >> np.arange(n, dtype=np.uint64)) & np.uint64(1)).astype(bool)


def choose(net: NumpyNet, x: np.ndarray, legal: np.ndarray, head: str) -> np.ndarray:
    """(B,) the card each row plays: highest legal logit (``policy``) or fewest predicted points (``q``)."""
    h = net.trunk(x)
    if head == "policy":
        return np.where(legal, net.head(h, "p"), -np.inf).argmax(axis=1)
    return np.where(legal, net.head(h, "q"), np.inf).argmin(axis=1)


class ApprenticeAgent(Agent):
    """See the module docstring."""

    name = "apprentice"

    def __init__(self, weights: str | None = None, head: str = "policy"):
        super().__init__()
        if head not in HEADS:
            raise ValueError(f"apprentice: head={head!r} is not one of {', '.join(HEADS)}")
        path = Path(weights) if weights is not None else BUNDLED
        self.net = NumpyNet.load(path)
        self.head = head
        self.weights = str(path)
        self.weights_file = path
        self._encoders: dict = {}

    def reset(self, rules: Rules, seat: int, seed: int | Sequence[int] | None = None) -> None:
        size = make_encoder("rich", rules).size
        if size != self.net.hidden[0][0].shape[0]:
            raise ValueError(f"apprentice: {self.weights} reads the {self.net.hidden[0][0].shape[0]}-slot rich "
                             f"observation of a {self.net.meta.get('deck_size', 52)}-card deck; these rules "
                             f"({rules.deck} deck) give {size} slots")
        super().reset(rules, seat, seed)

    def _encoder(self, rules: Rules, batch: bool):
        key = (rules, batch)
        if key not in self._encoders:
            self._encoders[key] = (make_batch_encoder if batch else make_encoder)("rich", rules)
        return self._encoders[key]

    def act(self, view: SeatView) -> int:
        n = view.rules.deck_obj.size
        x = self._encoder(view.rules, batch=False).encode(view)[None]
        legal = legal_matrix(np.array([view.legal], np.uint64), n)
        return int(choose(self.net, x, legal, self.head)[0])

    def act_batch(self, deals: VectorDeals) -> np.ndarray:
        """(B,) the card of the seat to act in each unfinished row (−1 in finished ones). A row with one legal
        card plays it without the network (a rollout's forced plays cost nothing)."""
        cards = np.full(deals.size, -1, np.int64)
        live = np.flatnonzero(~deals.done)
        if len(live) == 0:
            return cards
        legal = legal_matrix(deals.legal_masks()[live], deals.rules.deck_obj.size)
        forced = legal.sum(axis=1) == 1
        cards[live[forced]] = legal[forced].argmax(axis=1)
        chosen = live[~forced]
        if len(chosen):
            sub = deals.take(chosen) if len(chosen) < deals.size else deals
            x = self._encoder(deals.rules, batch=True).encode(sub, sub.current.astype(np.intp))
            cards[chosen] = choose(self.net, x, legal[~forced], self.head)
        return cards


def margin_vs_heuristic(learner: Callable[[Any, np.ndarray, np.ndarray], np.ndarray], deals: int, seed: int,
                        envs: int = 256) -> tuple[float, float]:
    """(mean margin, its standard error) of a learner in one seat against three ``heuristic`` over ``deals``
    seeded deals (seat and pass direction drawn) played ``envs`` at a time: heuristic's mean points per seat
    minus the learner's, per deal. ``learner(deals, obs, masks)`` gives the learner's card in every row of the
    batch ``deals`` (:class:`VectorDeals`)."""
    from hearts_env.vector.env import HeartsVectorEnv

    env = HeartsVectorEnv(num_envs=min(envs, deals), rules=RULES, opponents="heuristic", seat="random")
    obs, info = env.reset(seed=seed)
    margins: list[float] = []
    while len(margins) < deals:
        actions = learner(env.deals, obs, info["action_mask"])
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
