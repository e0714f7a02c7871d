"""The subagent player (paper 000 §4, Figure 1): how the networks choose cards, shared by the agent
``subagents`` and by self-play.

At a deal's first decision the moonshot decision network reads the dealt hand; above its threshold
the moonshot passing and playing networks play the deal, else the normal ones. While a single other
seat holds every penalty point taken so far, the breaker decision network reads the state before each
play; above its threshold the breaker playing network plays until the moon is no longer possible.

Card choice of a value network (the paper trains values of states, not of actions): a play is the
legal card whose **afterstate** (the card moved from my hand to "on the table by me") has the
highest value; a pass is the best set of ``pass_count`` cards by the value of the final passing state
(hand ‖ selected), chosen at the first pass call and handed out one card per call.

:class:`Brain` is one seat's logic for one deal at a time; :class:`SubagentPlayer` is the hearts-env
agent (spec ``subagents``) that plays a :class:`Brain` with the trained networks.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from hearts_baselines.subagents.networks import BUNDLED, NetSet, ValueNet, load
from hearts_baselines.subagents.samples import (
    HAND,
    MINE_ON_TABLE,
    N,
    dealt_positions,
    pass_row,
    play_positions,
    play_row,
)
from hearts_env.agents import Agent
from hearts_env.cards import mask_to_cards
from hearts_env.engine import Phase
from hearts_env.rules import Rules
from hearts_env.tables import tables_of
from hearts_env.views import SeatView

FORCED_STYLES = ("normal", "moon", "breaker")
UNIFORM_ROWS = 14
"""Exploration draws per seat and deal, drawn when the deal starts: row 0 for the pass, row
``1 + t`` for the play of trick ``t``; column 0 decides whether to explore (``u < ε``), column 1
picks the random choice (the ``floor(u · n)``-th of ``n``). The batched trainer reads the same
draws, so a batch of deals plays exactly what these seats would play one deal at a time."""


def afterstate_logits(net: ValueNet, pre: np.ndarray, cards: np.ndarray) -> np.ndarray:
    """``(B, K)`` output logits of the afterstates of playing ``cards[b, k]`` from the states whose
    hidden pre-activations are ``pre[b]``: the card moves from my hand to "on the table by me"."""
    delta = net.input_rows(5 * cards + MINE_ON_TABLE) - net.input_rows(5 * cards + HAND)
    return net.logits(pre[:, None, :] + delta)


def pass_set_logits(net: ValueNet, pre: np.ndarray, free: np.ndarray, combos: np.ndarray) -> np.ndarray:
    """``(B, C)`` output logits of passing the sets ``free[b, combos[c]]`` from hands whose passing
    state (nothing selected yet) has hidden pre-activations ``pre[b]``."""
    extra = net.input_rows(N + free)
    return net.logits(pre[:, None, :] + extra[:, combos].sum(axis=2))


@dataclass
class Records:
    """What one seat did in one deal, for building training samples once the deal is over."""

    plays: list[tuple[str, np.ndarray, int]] = field(default_factory=list)
    """(network, afterstate row, trick index) of every play."""
    passing: tuple[str, np.ndarray] | None = None
    moon_row: np.ndarray | None = None
    """The dealt-hand state the moonshot decision read."""
    threat_rows: list[tuple[np.ndarray, int]] = field(default_factory=list)
    """(state row, the one seat holding every point so far) at each play while a moon threatened."""


def penalty_mask(rules: Rules) -> int:
    """Hearts, Q♠, and every other single card that scores (:attr:`hearts_env.tables.RuleTables.penalty_cards`)."""
    return tables_of(rules).penalty_cards


class Brain:
    """One seat's subagent logic for one deal at a time.

    ``style=None`` lets the decision networks choose (the full player); ``"normal"``, ``"moon"``
    and ``"breaker"`` force a style for training (``"breaker"`` = normal play, with the breaker
    network whenever one other seat holds every point so far). ``epsilon`` explores (a random
    legal play, a random pass set); ``random_passes`` passes uniformly at random.
    """

    def __init__(self, nets: NetSet, *, style: str | None = None, epsilon: float = 0.0,
                 explore: frozenset[str] | None = None, random_passes: bool = False,
                 moon_threshold: float | None = None, breaker_threshold: float | None = None,
                 use_moon: bool = True, use_breaker: bool = True):
        if style is not None and style not in FORCED_STYLES:
            raise ValueError(f"style must be None or one of {FORCED_STYLES}, got {style!r}")
        self.nets = nets
        self.forced = style
        self.epsilon = epsilon
        self.explore = explore
        self.random_passes = random_passes
        self.moon_threshold = nets.moon_threshold if moon_threshold is None else moon_threshold
        self.breaker_threshold = nets.breaker_threshold if breaker_threshold is None else breaker_threshold
        self.use_moon = use_moon
        self.use_breaker = use_breaker
        self.new_deal(None)

    def new_deal(self, rng: np.random.Generator | None) -> None:
        """Start a deal; draws the deal's exploration uniforms from ``rng`` (see :data:`UNIFORM_ROWS`)."""
        self.uniforms = None if rng is None else rng.random((UNIFORM_ROWS, 2))
        self.records = Records()
        self.style: str | None = None
        self.moon_probability = float("nan")
        self.breaking = False
        self._pass_plan: list[int] = []
        self._penalty = -1

    # Decisions -------------------------------------------------------------------------------
    def _start(self, view: SeatView) -> None:
        self._penalty = penalty_mask(view.rules)
        row = play_row(dealt_positions(view.dealt))
        self.records.moon_row = row
        if self.forced is not None:
            self.style = self.forced
            return
        self.style = "normal"
        if self.use_moon:
            self.moon_probability = float(self.nets["decide_moon"].values_of_rows(row[None])[0])
            if self.moon_probability > self.moon_threshold:
                self.style = "moon"

    def act(self, view: SeatView) -> int:
        if self.style is None:
            self._start(view)
        if view.phase == Phase.PASS:
            return self._pass(view)
        return self._play(view)

    def _holders(self, view: SeatView) -> list[int]:
        return [s for s in range(4) if view.taken[s] & self._penalty]

    def _play_net(self, view: SeatView, row: np.ndarray) -> str:
        holders = self._holders(view)
        if self.style == "moon":
            return "play_moon" if all(h == view.seat for h in holders) else "play_normal"
        threat = len(holders) == 1 and holders[0] != view.seat
        if not threat:
            self.breaking = False
            return "play_normal"
        self.records.threat_rows.append((row, holders[0]))
        if self.style == "breaker":
            return "play_breaker"
        if self.use_breaker and not self.breaking:
            p = float(self.nets["decide_breaker"].values_of_rows(row[None])[0])
            self.breaking = p > self.breaker_threshold
        return "play_breaker" if self.breaking else "play_normal"

    def _play(self, view: SeatView) -> int:
        row = play_row(play_positions(view))
        name = self._play_net(view, row)
        legal = np.array(mask_to_cards(view.legal), dtype=np.int16)
        u = 1 + view.trick_index
        if len(legal) > 1 and self._explores(name, u):
            i = int(self._draw(u) * len(legal))
        elif len(legal) > 1:
            net: ValueNet = self.nets[name]
            i = int(np.argmax(afterstate_logits(net, net.hidden_pre_of_rows(row[None]), legal[None])[0]))
        else:
            i = 0
        card = int(legal[i])
        after = row.copy()
        after[card] = 5 * card + MINE_ON_TABLE
        self.records.plays.append((name, after, view.trick_index))
        return card

    def _pass(self, view: SeatView) -> int:
        if not self._pass_plan:
            hand = view.hand & ~view.passed
            k = view.rules.pass_count - view.passed.bit_count()
            self._pass_plan = self._choose_passes(view.hand, view.passed, mask_to_cards(hand), k)
            name = "pass_moon" if self.style == "moon" else "pass_normal"
            chosen = view.passed
            for c in self._pass_plan:
                chosen |= 1 << c
            self.records.passing = (name, pass_row(view.hand, chosen))
        return self._pass_plan.pop(0)

    def _explores(self, name: str, row: int) -> bool:
        if not self.epsilon or (self.explore is not None and name not in self.explore):
            return False
        return bool(self._uniforms()[row, 0] < self.epsilon)

    def _draw(self, row: int) -> float:
        return float(self._uniforms()[row, 1])

    def _uniforms(self) -> np.ndarray:
        if self.uniforms is None:
            raise RuntimeError("a Brain that explores needs new_deal(rng) at the start of each deal")
        return self.uniforms

    def _choose_passes(self, hand: int, passed: int, free: list[int], k: int) -> list[int]:
        combos = _combinations(len(free), k)
        name = "pass_moon" if self.style == "moon" else "pass_normal"
        if self.random_passes or self._explores(name, 0):
            pick = combos[int(self._draw(0) * len(combos))]
        else:
            net: ValueNet = self.nets[name]
            pre = net.hidden_pre_of_rows(pass_row(hand, passed)[None])
            pick = combos[int(np.argmax(pass_set_logits(net, pre, np.array(free)[None], combos)[0]))]
        return [free[i] for i in pick]


_COMBOS: dict[tuple[int, int], np.ndarray] = {}


def _combinations(n: int, k: int) -> np.ndarray:
    key = (n, k)
    if key not in _COMBOS:
        _COMBOS[key] = np.array(list(itertools.combinations(range(n), k)), dtype=np.int16).reshape(-1, k)
    return _COMBOS[key]


# The agent ------------------------------------------------------------------------------------
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
