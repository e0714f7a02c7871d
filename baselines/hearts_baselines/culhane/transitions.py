"""Culhane's transitions: (state-action, per-trick reward, the same player's next state) from deals.

Each decision of a seat in trick ``k`` becomes one transition: the ``culhane217`` state with the
played card in the action block; the reward of trick ``k``, the **point differential** — the points
the other three took in the trick minus the seat's own (the paper's example: taking 2 points gives
−2 to the taker and +2 to each other seat), so ``r = T_k`` for a seat that did not take the trick and
``−T_k`` for its taker (``T_k`` the trick's points); and the seat's next decision state with its legal
cards (none after the 13th trick: terminal). The moon is applied at the end of the deal: the last
reward is corrected so that a seat's rewards sum to ``Σ_{j≠i} P_j − P_i`` on the deal's final points
(without a moon that is what the tricks already sum to; with one the shooter's sum is 78 and the
others' 26). γ = 1: Q(s, a) estimates that sum from the decision on.

:class:`Recorder` builds the transitions as a deal is played (a seat's transition is complete when its
next decision is seen, or at the end); :func:`greedy_deals` plays the paper's pretraining data.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from hearts_env import Deal, Phase, SeatView
from hearts_env.agents import make_agent
from hearts_env.encoders import make_encoder
from hearts_env.rules import Rules, make_rules
from hearts_env.tables import tables_of

RULES = "standard(passing=none, game=deal)"
"""The paper's game: trick play with the moon, no passing, one deal per episode."""
ACTION = 165
"""Start of the action block in the 217-d vector (``3 * 52 + 9``)."""


def check_rules(rules: Rules | str) -> Rules:
    """Rules the 217-input network and the transitions can serve: the 52-card deck."""
    rules = make_rules(rules)
    if rules.deck_obj.size != 52:
        raise ValueError(f"culhane's network reads the 217-d vector of the 52-card deck; these rules use the "
                         f"{rules.deck_obj.size}-card {rules.deck!r} deck")
    return rules


@dataclass
class Transitions:
    """Arrays of N transitions (uint8 vectors keep a replay of millions small)."""

    rows: np.ndarray
    """(N, 217) uint8: state with the action one-hot."""
    rewards: np.ndarray
    """(N,) float64."""
    next_states: np.ndarray
    """(N, 217) uint8: the seat's next decision state (action block 0); zeros if terminal."""
    next_legal: np.ndarray
    """(N,) uint64: the legal cards there; 0 marks a terminal transition."""

    def __len__(self) -> int:
        return len(self.rewards)

    @classmethod
    def empty(cls) -> Transitions:
        return cls(np.zeros((0, 217), np.uint8), np.zeros(0), np.zeros((0, 217), np.uint8), np.zeros(0, np.uint64))

    @classmethod
    def of(cls, items: Sequence[tuple[np.ndarray, float, np.ndarray, int]]) -> Transitions:
        if not items:
            return cls.empty()
        rows, rewards, states, legal = zip(*items)
        return cls(np.array(rows, np.uint8), np.array(rewards, np.float64), np.array(states, np.uint8),
                   np.array(legal, np.uint64))

    @classmethod
    def concat(cls, parts: Sequence[Transitions]) -> Transitions:
        return cls(*(np.concatenate([getattr(p, f) for p in parts]) for f in
                     ("rows", "rewards", "next_states", "next_legal"))) if parts else cls.empty()

    def take(self, index: np.ndarray) -> Transitions:
        return Transitions(self.rows[index], self.rewards[index], self.next_states[index], self.next_legal[index])


def action_row(obs: np.ndarray, card: int) -> np.ndarray:
    row = obs.copy()
    row[ACTION:] = 0
    row[ACTION + card] = 1
    return row


class Recorder:
    """Transitions of one deal as it is played (see the module docstring): call :meth:`decide` at
    every play decision, :meth:`finish` when the deal is over."""

    def __init__(self, deal: Deal):
        self.deal = deal
        self.tables = tables_of(deal.rules)
        self.pending: list[tuple[np.ndarray, int] | None] = [None] * 4
        """Per seat: (state-action row, trick index) of its decision awaiting its next state."""

    def trick_reward(self, k: int, seat: int) -> float:
        """The point differential of completed trick ``k`` for ``seat``."""
        deal = self.deal
        played = 4 * len(deal.trick_winners) + len(deal.trick)  # the card plays end the history (passes start it)
        start = len(deal.history) - played + 4 * k
        points = self.tables.penalty_points_of(sum(1 << c for c in deal.history[start:start + 4]))
        return float(-points if self.deal.trick_winners[k] == seat else points)

    def decide(self, seat: int, obs: np.ndarray, legal: int, card: int) -> list[tuple]:
        """Record ``seat`` playing ``card`` from state ``obs``; returns its previous transition, now complete."""
        obs = np.array(obs, np.uint8)  # a copy: encoders reuse their output buffer
        done = []
        previous = self.pending[seat]
        if previous is not None:
            row, k = previous
            done.append((row, self.trick_reward(k, seat), obs, legal))
        self.pending[seat] = (action_row(obs, card), self.deal.trick_index)
        return done

    def finish(self) -> list[tuple]:
        """The four terminal transitions, the moon correction in their rewards."""
        deal = self.deal
        assert deal.is_over and deal.points is not None
        final = np.asarray(deal.points, np.float64)
        zeros = np.zeros(217, np.uint8)
        out = []
        for seat in range(4):
            pending = self.pending[seat]
            assert pending is not None
            row, k = pending
            rewards = [self.trick_reward(t, seat) for t in range(len(deal.trick_winners))]
            want = final.sum() - 2 * final[seat]
            out.append((row, rewards[k] + want - sum(rewards), zeros, 0))
        return out


def greedy_deals(count: int, seed: int, rules: Rules | str = RULES, policy: str = "greedy") -> Transitions:
    """All four seats' transitions of ``count`` deals played by ``policy`` at every seat (the paper's
    pretraining data: deals of its baseline player)."""
    rules = check_rules(rules)
    encoder = make_encoder("culhane217", rules, "uint8")
    rng = np.random.default_rng(seed)
    players = [make_agent(policy) for _ in range(4)]
    items: list[tuple] = []
    for _ in range(count):
        deal = Deal.random(rules, rng)
        for seat, player in enumerate(players):
            player.reset(rules, seat, int(rng.integers(2**63)))
        recorder = Recorder(deal)
        while not deal.is_over:
            seat = deal.current
            view = SeatView.of(deal, seat)
            card = players[seat].act(view)
            if view.phase == Phase.PLAY:
                items += recorder.decide(seat, encoder.encode(view), view.legal, card)
            deal.apply(card)
        items += recorder.finish()
    return Transitions.of(items)


def next_rows(t: Transitions) -> tuple[np.ndarray, np.ndarray]:
    """(rows, owner): one state-action row per legal card of every non-terminal next state, and the
    index of the transition each row belongs to (ascending, contiguous)."""
    raw = t.next_legal.astype("<u8").view(np.uint8).reshape(-1, 8)
    bits = np.unpackbits(raw, axis=1, bitorder="little")[:, :52]
    owner, cards = np.nonzero(bits)
    rows = t.next_states[owner]
    rows[np.arange(len(owner)), ACTION + cards] = 1
    return rows, owner


def targets(q: object, t: Transitions) -> np.ndarray:
    """``y = r + max_{a'} Q(s', a')`` (γ = 1; ``r`` alone at terminal transitions); ``q`` maps
    (R, 217) rows to (R,) values."""
    rows, owner = next_rows(t)
    y = t.rewards.copy()
    if len(rows):
        values = q(rows)  # type: ignore[operator]
        starts = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])
        y[owner[starts]] += np.maximum.reduceat(values, starts)
    return y
