"""``subagents``: the paper 000 §4 subagent player as a hearts-env agent (spec ``subagents``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from hearts_baselines.subagents.policy import Brain
from hearts_baselines.subagents.weights import BUNDLED, NetSet, load
from hearts_env.agents import Agent
from hearts_env.rules import Rules
from hearts_env.views import SeatView

_CACHE: dict[str | None, NetSet] = {}


class SubagentPlayer(Agent):
    """Plays with the trained subagent networks (bundled weights unless ``weights=PATH``).

    ``moon=False`` / ``breaker=False`` turn off the moonshot / breaker styles (the paper's
    ablations); ``moon_threshold`` / ``breaker_threshold`` override the decision thresholds
    stored with the weights (0.96 by default, paper 000 §5.2).
    """

    name = "subagents"

    def __init__(self, weights: str | None = None, moon: bool = True, breaker: bool = True,
                 moon_threshold: float | None = None, breaker_threshold: float | None = None):
        super().__init__()
        self.weights_file = Path(weights) if weights is not None else BUNDLED
        if weights not in _CACHE:
            _CACHE[weights] = load(self.weights_file)
        self.brain = Brain(_CACHE[weights], moon_threshold=moon_threshold, breaker_threshold=breaker_threshold,
                           use_moon=moon, use_breaker=breaker)

    def reset(self, rules: Rules, seat: int, seed: int | Sequence[int] | None = None) -> None:
        super().reset(rules, seat, seed)
        deck = rules.deck_obj
        if deck.size != 52:
            raise ValueError(f"subagents are trained on the 52-card deck; these rules use the {deck.name} deck")
        self.brain.new_deal(self.rng)

    def act(self, view: SeatView) -> int:
        return self.brain.act(view)
