"""The Q-learning player of paper 002 §2.3 (spec ``qlearning``) and its learning rule.

Q is a 12 × 2 table (state × {good, bad}); the player takes the action with the higher value (good
on ties) and plays its card (:mod:`.states`). It passes as ``greedy`` does (the paper does not
describe passing). Learning (``learn=True``), per the paper's Eq. 2–3, at each of the seat's plays:

    sample = R(a) − θ·x + γ·max_a' Q(s', a'),   Q(s, a) ← (1 − α)·Q(s, a) + α·sample

for the previous decision (s, a), where s' is the state now (terminal at the deal's end: no
max term), x the points the seat took since that decision (the trick it played in), and R(a) the
paper's action reward after t finished tricks of the deal: R(good) = 20 + t(t+1)/4,
R(bad) = 25 − t(t+1)/4 (they start at 20 and 25 and move by t/2 after trick t, crossing after the
third trick: early tricks favour the long-term "bad" play). Exploration is ε-greedy.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from hearts_baselines.qlearning.states import ACTIONS, BAD, GOOD, NUM_STATES, action_card, state_of
from hearts_env.agents import Agent
from hearts_env.agents.basic import GreedyAgent
from hearts_env.engine import Phase
from hearts_env.rules import Rules
from hearts_env.tables import tables_of
from hearts_env.views import SeatView

FORMAT = "hearts_baselines.qlearning/1"
BUNDLED = Path(__file__).resolve().parent.parent / "weights" / "qlearning.json"


@dataclass(frozen=True)
class Hyper:
    """The learning constants the paper leaves open (our choices, docs/qlearning.md)."""

    alpha: float = 0.1
    gamma: float = 0.9
    theta: float = 10.0
    """Weight of the points taken (R(points) = −θ·x): chosen among 1, 3, 10 and 30 on validation deals
    (arena seed 100, 500 deals against ``greedy``; the reported figures use other deals). With θ ≤ 3
    the action rewards R(a) outweigh the points and the table learns to duck too little."""
    epsilon: float = 0.1
    """Exploration while learning (the player at test time: 0)."""


def action_reward(action: int, tricks_done: int) -> float:
    """The paper's R(a) after ``tricks_done`` finished tricks of the deal."""
    shift = tricks_done * (tricks_done + 1) / 4
    return 20.0 + shift if action == GOOD else 25.0 - shift


class QLearningAgent(Agent):
    """Paper 002's tabular Q-learning player (see the module docstring)."""

    name = "qlearning"

    def __init__(self, weights: str | None = None, learn: bool = False, epsilon: float | None = None,
                 alpha: float | None = None, gamma: float | None = None, theta: float | None = None):
        super().__init__()
        loaded = load_table(weights) if not learn or weights is not None else None
        self.q = loaded[0].copy() if loaded else np.zeros((NUM_STATES, 2))
        self.weights_file = (BUNDLED if weights is None else Path(weights)) if loaded else None
        base = loaded[1] if loaded else Hyper()
        self.hyper = Hyper(alpha=base.alpha if alpha is None else float(alpha),
                           gamma=base.gamma if gamma is None else float(gamma),
                           theta=base.theta if theta is None else float(theta),
                           epsilon=(base.epsilon if learn else 0.0) if epsilon is None else float(epsilon))
        if not 0.0 <= self.hyper.epsilon <= 1.0:
            raise ValueError(f"qlearning: epsilon must be in [0, 1], got {self.hyper.epsilon}")
        self.learn = bool(learn)
        self.choices = np.zeros((13, 2), np.int64)
        """How often each action was chosen, by trick (the paper's Fig. 8)."""
        self._greedy = GreedyAgent()
        self._pending: tuple[int, int, float, int] | None = None  # state, action, R(a), points before

    def reset(self, rules: Rules, seat: int, seed: int | Any = None) -> None:
        super().reset(rules, seat, seed)
        self._greedy.reset(rules, seat, seed)
        self._pending = None

    def act(self, view: SeatView) -> int:
        if view.phase == Phase.PASS:
            return self._greedy.act(view)
        legal = view.legal
        if not legal & (legal - 1):
            return legal.bit_length() - 1  # one legal card: no decision, nothing learned
        state = state_of(view)
        points = self._points(view)
        if self.learn and self._pending is not None:
            self._update(points, float(self.q[state - 1].max()))
        if self.hyper.epsilon and self.rng.random() < self.hyper.epsilon:
            action = int(self.rng.integers(2))
        else:
            action = BAD if self.q[state - 1, BAD] > self.q[state - 1, GOOD] else GOOD
        self.choices[min(view.trick_index, 12), action] += 1
        if self.learn:
            self._pending = (state, action, action_reward(action, view.trick_index), points)
        return action_card(view, state, action)

    def end_deal(self, view: SeatView) -> None:
        if self.learn and self._pending is not None:
            self._update(self._points(view), 0.0)
        self._pending = None

    def _points(self, view: SeatView) -> int:
        return tables_of(view.rules).points_of(view.taken[view.seat])

    def _update(self, points_now: int, best_next: float) -> None:
        assert self._pending is not None
        state, action, reward, points_before = self._pending
        h = self.hyper
        sample = reward - h.theta * (points_now - points_before) + h.gamma * best_next
        self.q[state - 1, action] = (1 - h.alpha) * self.q[state - 1, action] + h.alpha * sample

    def table_text(self) -> str:
        """The Q table as text, one row per state (docs/qlearning.md prints the bundled one)."""
        lines = [f"{'state':>5} {'Q(good)':>10} {'Q(bad)':>10}  plays"]
        for s in range(NUM_STATES):
            good, bad = self.q[s]
            lines.append(f"{s + 1:>5} {good:>10.2f} {bad:>10.2f}  {ACTIONS[BAD if bad > good else GOOD]}")
        return "\n".join(lines)


def save_table(path: str | Path, q: np.ndarray, hyper: Hyper, meta: dict[str, Any]) -> None:
    """Write a Q table with its constants and training metadata (JSON)."""
    doc = {"format": FORMAT, "q": np.asarray(q, float).round(6).tolist(), "hyper": asdict(hyper), **meta}
    Path(path).write_text(json.dumps(doc, indent=1) + "\n")


def load_table(path: str | None) -> tuple[np.ndarray, Hyper]:
    """A Q table and its constants from ``path`` (``None``: the bundled table); clear errors for a file
    that is not one."""
    where = f"the bundled {BUNDLED.name}" if path is None else repr(path)
    try:
        text = (BUNDLED if path is None else Path(path)).read_text()
    except OSError as e:
        raise ValueError(f"qlearning: cannot read the weights {where}: {e}") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"qlearning: {where} is not JSON ({e})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ValueError(f"qlearning: {where} is not a Q-learning table (format {FORMAT!r} expected)")
    q = np.asarray(doc["q"], float)
    if q.shape != (NUM_STATES, 2) or not np.isfinite(q).all():
        raise ValueError(f"qlearning: {where} holds a table of shape {q.shape}; expected ({NUM_STATES}, 2), finite")
    return q, Hyper(**doc["hyper"])
