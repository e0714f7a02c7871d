"""Culhane's player (spec ``culhane``): the legal card of highest Q(s, a) under the trained network.

``culhane()`` plays the bundled network (``python -m hearts_baselines.culhane.train --seed 0
--out runs/culhane --bundle``); ``culhane(weights='path.pt')`` any network that command wrote. The
paper has no passing: passes (with rules that have them) go to ``passing`` (``heuristic``). It plays
52-card rules (the 217 inputs). Torch runs one thread per process (an arena runs one per core).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from hearts_baselines.culhane import network
from hearts_baselines.culhane.train import BUNDLED, choose
from hearts_baselines.culhane.transitions import check_rules
from hearts_env import Phase, SeatView
from hearts_env.agents import Agent, AgentError, make_agent
from hearts_env.encoders import make_encoder
from hearts_env.encoders.culhane217 import state_action_rows
from hearts_env.rules import Rules


class CulhaneAgent(Agent):
    """See the module docstring."""

    name = "culhane"

    def __init__(self, weights: str | None = None, passing: str = "heuristic"):
        try:
            import torch
        except ImportError as e:
            raise AgentError(f"culhane plays a PyTorch network: it needs the train extra ({e}): "
                             f"pip install 'hearts-env[train]'") from None

        super().__init__()
        torch.set_num_threads(1)
        self.weights_file = Path(weights) if weights is not None else BUNDLED
        self.net, self.hidden, self.meta = network.load(self.weights_file)
        self.passer = make_agent(passing)
        self._encoders: dict = {}

    def reset(self, rules: Rules, seat: int, seed: int | Sequence[int] | None = None) -> None:
        if rules not in self._encoders:
            check_rules(rules)
            self._encoders[rules] = make_encoder("culhane217", rules, "float32")
        super().reset(rules, seat, seed)
        self.passer.reset(rules, seat, int(self.rng.integers(2**63)))

    def q_values(self, view: SeatView) -> dict[int, float]:
        """Q(s, a) of every legal card."""
        obs = self._encoders[view.rules].encode(view)
        values = network.q_values(self.net, state_action_rows(obs, view.legal))
        return dict(zip([c for c in range(52) if view.legal >> c & 1], values.tolist()))

    def act(self, view: SeatView) -> int:
        if view.phase == Phase.PASS:
            return self.passer.act(view)
        return choose(self.net, self._encoders[view.rules].encode(view), view.legal, 0.0, self.rng)
