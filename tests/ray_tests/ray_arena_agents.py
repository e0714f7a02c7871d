"""Agents for tests/ray_tests: imported by Ray workers as ``ray_arena_agents:...`` (tests/ray_tests on their path)."""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from hearts_env.agents import Agent
from hearts_env.cards import iter_cards
from hearts_env.rules import Rules
from hearts_env.views import SeatView

SEEN: set[tuple[int, ...]] = set()
"""Every hand dealt to a SeenTwice agent in this process (module state: what isolation must not leak)."""


class SeenTwice(Agent):
    """Plays the lowest legal card; raises when its process deals it a hand it already held (the same deal
    in the same seat of another seating): under seating isolation this never happens."""

    name = "seen-twice"

    def reset(self, rules: Rules, seat: int, seed: int | Sequence[int] | None = None) -> None:
        super().reset(rules, seat, seed)
        self.first = True

    def act(self, view: SeatView) -> int:
        if self.first:
            self.first = False
            hand = tuple(iter_cards(view.hand))
            if hand in SEEN:
                raise RuntimeError(f"process {os.getpid()} saw this deal twice")
            SEEN.add(hand)
        return min(iter_cards(view.legal))


class SlowRandom(Agent):
    """A uniformly random legal card (from ``self.rng``), after sleeping ``$HEARTS_TEST_DELAY`` seconds:
    the delay slows a run down without changing its records or its spec."""

    name = "slow-random"

    def act(self, view: SeatView) -> int:
        time.sleep(float(os.environ.get("HEARTS_TEST_DELAY", "0")))
        return int(self.rng.choice(np.array(list(iter_cards(view.legal)))))


class Dies(Agent):
    """Ends its worker process at its first move (as a crash in native code would)."""

    name = "dies"

    def act(self, view: SeatView) -> int:
        os._exit(3)


class NodeNoted(Agent):
    """Plays the lowest legal card after ``delay`` seconds; at each reset, leaves an empty file named by the Ray node
    it plays on in ``folder`` (every node of the test cluster is this machine), or ``local`` outside Ray: where the
    run's games went."""

    name = "node-noted"

    def __init__(self, folder: str, delay: float = 0.0):
        super().__init__()
        self.folder, self.delay = Path(folder), delay

    def reset(self, rules: Rules, seat: int, seed: int | Sequence[int] | None = None) -> None:
        super().reset(rules, seat, seed)
        import ray

        (self.folder / (ray.get_runtime_context().get_node_id() if ray.is_initialized() else "local")).touch()

    def act(self, view: SeatView) -> int:
        time.sleep(self.delay)
        return min(iter_cards(view.legal))
