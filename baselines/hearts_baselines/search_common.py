"""What the search agents share — those of :mod:`hearts_baselines.search` and tdlambda's player — the
budget, passing by a rule player, and rollouts. A module of its own, below both: ``maxn`` can value its
leaves by tdlambda's model, so ``search`` sits above ``tdlambda`` (docs/architecture.md)."""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from hearts_env import Deal, Phase, SeatView
from hearts_env.agents import Agent, make_agent
from hearts_env.rules import Rules
from hearts_env.tables import tables_of
from hearts_env.vector import VectorDeals, policy_name, resolve_backend
from hearts_env.vector.numpy_backend import card_points


def check_budget(iterations: int | None, time_limit: float | None, unit: str = "iterations") -> None:
    """Refuse a budget that would fail or misbehave in play: ``iterations`` an integer >= 1 or None,
    ``time_limit`` a positive number of seconds or None, not both None."""
    if iterations is not None and (isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1):
        raise ValueError(f"{unit} must be an integer >= 1 (or None: time_limit alone), got {iterations!r}")
    if time_limit is not None and (isinstance(time_limit, bool) or not isinstance(time_limit, int | float)
                                   or not 0 < time_limit < math.inf):
        raise ValueError(f"time_limit must be a positive number of seconds (or None: {unit} alone), got {time_limit!r}")
    if iterations is None and time_limit is None:
        raise ValueError(f"a search needs {unit}=N or time_limit=seconds (both None given)")


def check_count(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be an integer >= 1, got {value!r}")


def check_nonnegative(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < math.inf:
        raise ValueError(f"{name} must be a number >= 0, got {value!r}")


def check_policy(name: str, spec: str) -> None:
    """A rollout or ranking policy spec must build now, not fail at the first move."""
    try:
        make_agent(spec)
    except ValueError as e:
        raise ValueError(f"{name}={spec!r}: {e}") from None


class Budget:
    """Stops a search after ``iterations`` units or ``time_limit`` seconds, whichever is set
    (both: the first reached). At least one unit always runs."""

    def __init__(self, iterations: int | None, time_limit: float | None):
        if iterations is None and time_limit is None:
            raise ValueError("a search needs iterations=N or time_limit=seconds")
        self.iterations = iterations
        self.deadline = None if time_limit is None else time.perf_counter() + time_limit
        self.done = 0

    def more(self) -> bool:
        if self.done == 0:
            return True
        if self.iterations is not None and self.done >= self.iterations:
            return False
        return self.deadline is None or time.perf_counter() < self.deadline

    def next_batch(self, size: int) -> int:
        """How many units the next batch may hold (at most ``size``; never past ``iterations``)."""
        return size if self.iterations is None else max(1, min(size, self.iterations - self.done))


class SearchAgent(Agent):
    """Base: passes with a rule player (``passing=`` spec) unless the subclass searches passes too."""

    searches_passes = False

    def __init__(self, passing: str = "heuristic"):
        super().__init__()
        self.passer = make_agent(passing)
        warm_up()

    def reset(self, rules: Rules, seat: int, seed: int | Sequence[int] | None = None) -> None:
        super().reset(rules, seat, seed)
        self.passer.reset(rules, seat, int(self.rng.integers(2**63)))

    def act(self, view: SeatView) -> int:
        legal = view.legal
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1  # one legal card: nothing to search
        if view.phase == Phase.PASS and not self.searches_passes:
            return self.passer.act(view)
        return self.search(view)

    def search(self, view: SeatView) -> int:
        raise NotImplementedError


_WARM = False


def warm_up() -> None:
    """Load (or compile) the batched engine's kernel now, once per process, so that the first move
    does not pay for it (about half a second with Numba's cache; longer when it compiles)."""
    global _WARM
    if not _WARM:
        _WARM = True
        rng = np.random.default_rng(0)
        rollout_batch(VectorDeals.random("standard", 2, rng), "heuristic" if batched("heuristic") else "random", rng)


@runtime_checkable
class BatchPolicy(Protocol):
    """An agent that also plays whole batches: ``act_batch(deals)`` returns the card of the seat to act
    in every unfinished row of a :class:`~hearts_env.vector.VectorDeals` (−1 in finished ones). A
    rollout policy with this method plays the rollouts of a search on the batched engine."""

    def reset(self, rules: Rules, seat: int, seed: int | Sequence[int] | None = None) -> None: ...

    def act_batch(self, deals: VectorDeals) -> np.ndarray: ...


def batch_policy(spec: str) -> BatchPolicy | None:
    """The agent of ``spec`` if it plays batches (:class:`BatchPolicy`), else None."""
    if policy_name(spec) is not None:
        return None  # the rule players run inside the engine's kernels, faster still
    agent = make_agent(spec)
    return agent if isinstance(agent, BatchPolicy) else None


def batched(policy: str, backend: str = "auto") -> bool:
    """Whether the batched engine plays ``policy`` itself (``random`` always; ``greedy`` and
    ``heuristic`` with Numba); otherwise rollouts go through the Python agents of that spec."""
    name = policy_name(policy)
    return name == "random" or (name is not None and resolve_backend(backend) is not None)


def moon_racer(deals: VectorDeals, points: int) -> np.ndarray:
    """(B,) the seat that alone has taken penalty cards, worth ``points`` or more (J♦ bonus deducted), in each
    unfinished row in play, else −1 — where ``heuristic(chase=points)`` shoots with that seat and the others
    defend."""
    tables = tables_of(deals.rules)
    taken = deals.taken
    pointed = (taken & np.uint64(tables.penalty_cards)) != 0
    holder = pointed.argmax(axis=1)
    held = card_points(taken[np.arange(deals.size), holder], tables)
    race = (pointed.sum(axis=1) == 1) & (held >= points) & (deals.phase == int(Phase.PLAY))
    return np.where(race, holder, -1)


def moon_position(view: SeatView) -> bool:
    """Whether ``view`` is a playing decision at which exactly one other seat has taken penalty points and the seat
    none — where that seat may still shoot the moon (the positions of the apprentice's moon data,
    :func:`hearts_baselines.apprentice.supervised.moon_on`, read from the seat's view instead of its observation)."""
    if view.phase != Phase.PLAY:
        return False
    taken = [points > 0 for points in view.points_taken]
    return not taken[view.seat] and sum(taken) == 1


def moon_race(deals: VectorDeals, points: int) -> np.ndarray:
    """(B,) bool: the rows of a moon race (:func:`moon_racer`)."""
    return moon_racer(deals, points) >= 0


def rollout_points(deals: Sequence[Deal], policy: str, rng: np.random.Generator, agents: dict | None = None,
                   backend: str = "auto") -> np.ndarray:
    """(len(deals), 4) final points after playing every deal to its end with ``policy`` for every
    seat: one call of the batched engine when :func:`batched`, the batched engine stepped by the agent
    when it plays batches (:class:`BatchPolicy`, e.g. ``apprentice``), else the Python agents of that spec
    (slow). ``agents`` caches the agents made (per seat; the batch player under ``-1``). Finished deals keep
    their points."""
    if batched(policy, backend):
        return rollout_batch(VectorDeals.from_deals(deals, backend=backend), policy, rng)
    players = agents if agents is not None else {}
    if not deals:
        return np.zeros((0, 4), np.int64)
    if -1 not in players:
        players[-1] = batch_policy(policy)
    player = players[-1]
    if player is not None:
        if getattr(player, "rules", None) != deals[0].rules:  # reset once, not at every call of a search's loop
            player.reset(deals[0].rules, 0, int(rng.integers(2**63)))
        return rollout_batch(VectorDeals.from_deals(deals, backend=backend), player, rng)
    out = np.zeros((len(deals), 4), np.int64)
    for i, deal in enumerate(deals):
        deal = deal.clone()
        for seat in range(4):
            if seat not in players:
                players[seat] = make_agent(policy)
            players[seat].reset(deal.rules, seat, int(rng.integers(2**63)))
        while not deal.is_over:
            seat = deal.current
            deal.apply(players[seat].act(SeatView.of(deal, seat)))
        assert deal.points is not None
        out[i] = deal.points
    return out


def rollout_seat_apart(deals: VectorDeals, seat: int, own: str, others: str, rng: np.random.Generator) -> np.ndarray:
    """(B, 4) final points after ``seat`` plays by the rule player ``own`` and the other seats by ``others``
    (``"greedy"`` or ``"heuristic"``, with parameters) in every row, to the end."""
    seats = np.full(deals.size, seat, np.int8)
    while True:
        deals.advance(seats, others, rng)
        live = ~deals.done
        if not live.any():
            return deals.points.astype(np.int64)
        deals.step(deals.policy_actions(own), only=live)


def margins(points: np.ndarray, seat: int) -> np.ndarray:
    """The seat's margin, what the arena scores, in each row of four seats' ``points``: the others' mean minus
    the seat's own."""
    return (points.sum(axis=-1) - points[..., seat]) / (points.shape[-1] - 1) - points[..., seat]


def rollout_batch(deals: VectorDeals, policy: str | BatchPolicy, rng: np.random.Generator,
                  plies: int | None = None, chase: int | None = None, defend: bool = True) -> np.ndarray:
    """(B, 4) final points after ``policy`` — a rule player the engine runs (:func:`batched`) or a
    :class:`BatchPolicy` agent, reset beforehand — plays every row to its end; with ``plies``, a
    :class:`BatchPolicy` plays that many cards and ``heuristic`` the rest; with ``chase``, a
    :class:`BatchPolicy` gives way to ``heuristic(chase=N)`` in every row of a moon race (:func:`moon_race`):
    the seat alone holding N points or more goes for the moon and the others stop it, as that rule player does
    (with ``defend=False`` only that seat gives way: the others play on as ``policy`` does, and let it shoot)."""
    if isinstance(policy, str):
        deals.advance(np.full(deals.size, -1, np.int8), policy, rng)
        return deals.points.astype(np.int64)
    chaser = f"heuristic(chase={chase})"
    played = 0
    while not deals.done.all() and (plies is None or played < plies):
        cards = policy.act_batch(deals)
        if chase is not None:
            racer = moon_racer(deals, chase)
            race = (racer >= 0) & (defend | (racer == deals.current))
            if race.any():
                cards[race] = deals.policy_actions(chaser)[race]
        deals.step(cards)
        played += 1
    if not deals.done.all():
        deals.advance(np.full(deals.size, -1, np.int8), "heuristic", rng)
    return deals.points.astype(np.int64)
