"""``pimc``: perfect-information Monte Carlo (and the Dutch thesis's rollout agent, paper 003 §2.2).

For each of ``n`` sampled worlds consistent with what the seat knows
(:func:`hearts_env.worlds.sample_worlds`), every candidate card is played and the world finished by
``policy`` for all four seats; the card with the fewest points on average wins (the same worlds
for every candidate: common random numbers) — or, with ``reward="margin"``, the largest margin: the other three
seats' mean points minus the seat's own, what the arena and hearts-bench score (shooting the moon is then worth
its +26 and suffering one −8.67, where fewest points counts them 0 and 26). With ``m``, only the ``m`` cards
``rank`` prefers most are candidates (the thesis ranks by its network; here any agent spec ranks, by asking it
repeatedly with its previous picks removed).

Parameters (paper 003's names): ``n`` rollouts per candidate (one sampled world each), ``m``
candidates at most (None: every legal card), ``policy`` the rollout policy of all seats
(``"random"``, ``"greedy"`` and ``"heuristic"`` run on the batched engine: all worlds × candidates
in one call; any other agent spec works, slowly), ``rank`` the ranking agent spec for ``m``.
An agent that plays batches (:class:`~hearts_baselines.search_common.BatchPolicy`, e.g. paper 003's
network ``dutchnn``) also rolls out on the batched engine: the thesis's rollout agent is
``pimc(n=200, m=8, policy='dutchnn(brain=strongman)', rank='dutchnn(brain=strongman)')``.
``opponents`` (default: ``policy``) is the rollout policy of the other three seats when it must differ from the
seat's own, e.g. ``opponents="heuristic(chase=10)"``: opponents that go for the moon once they alone hold ten
points, so the search sees a moon coming (both rule players the engine runs).
``plies`` (default: None, the whole rollout) lets a ``policy`` that plays batches (e.g. ``"apprentice"``) play
only that many cards of each rollout, and ``heuristic`` the rest: most of the network's cost for the next tricks'
judgment. ``chase`` (default: None) does for such a policy what ``opponents="heuristic(chase=N)"`` does for the rule
players: in a rollout where one seat alone holds ``chase`` points or more, ``heuristic(chase=N)`` plays every seat
(that one goes for the moon, the others stop it), so the search sees moons the network's play would not try;
with ``defend=False`` only that seat gives way and the others play on as the network does, so the search sees a
moon nobody stops but the seat itself, now.
``elsewhere`` (default: None) names an agent that plays every decision outside a moon position, passes included
(:func:`~hearts_baselines.search_common.moon_position`: exactly one other seat has taken points and the seat none),
so that the search decides only where a moon may still be on: ``pimc(n=40, policy='apprentice',
elsewhere='apprentice')`` is the apprentice that searches its moon defence. ``confidence`` (a number of standard
errors, with ``elsewhere``) searches the other playing decisions too, but keeps ``elsewhere``'s card unless the
search's best card beats it by more than that many standard errors of their paired per-world difference: with more
time (more worlds) the search overrides the network more often, and only where its evidence is strong.
``time_limit`` (seconds) repeats rounds of ``n`` rollouts while time is left. ``belief`` weighs the worlds by
how likely the other seats' plays were in each (:mod:`hearts_baselines.search.beliefs`: ``"heuristic"`` or
``"apprentice"``, their plays mixed with a uniform legal card at weight ``epsilon``): each round draws
``proposals`` worlds (default 4·``n``) and resamples ``n`` of them by those weights. Passing is delegated
to ``passing`` (default ``heuristic``), or with ``passing="search"`` searched as a play is: each of the three cards
in turn, over worlds dealt from what the seat holds, the rollouts passing the rest. After each search,
``last_values`` maps every candidate card to its mean points for the seat, whatever the reward (what search data
records, :mod:`hearts_baselines.apprentice.data`).

    hearts-env arena "pimc(n=1000)" heuristic --deals 1000
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

import numpy as np

from hearts_baselines.search import beliefs
from hearts_baselines.search_common import (
    Budget,
    SearchAgent,
    batch_policy,
    batched,
    check_budget,
    check_count,
    check_nonnegative,
    check_policy,
    margins,
    moon_position,
    rollout_batch,
    rollout_points,
    rollout_seat_apart,
)
from hearts_env import Phase, SeatView
from hearts_env.agents import make_agent
from hearts_env.cards import iter_cards
from hearts_env.rules import Rules
from hearts_env.vector import VectorDeals, policy_name
from hearts_env.worlds import sample_world_batch, sample_worlds

REWARDS = ("points", "margin")
"""What ``pimc`` optimizes over its rollouts: the seat's fewest mean ``"points"``, or the largest ``"margin"`` (the
other seats' mean points minus the seat's own, linear in the points, so the margin of the means)."""


class PIMCAgent(SearchAgent):
    """See the module docstring."""

    name = "pimc"

    def __init__(self, n: int = 300, m: int | None = None, policy: str = "heuristic", rank: str = "heuristic",
                 time_limit: float | None = None, passing: str = "heuristic", backend: str = "auto",
                 belief: str | None = None, epsilon: float = 0.3, proposals: int | None = None,
                 opponents: str | None = None, reward: str = "points", plies: int | None = None,
                 chase: int | None = None, defend: bool = True, elsewhere: str | None = None,
                 confidence: float | None = None):
        super().__init__("heuristic" if passing == "search" else passing)
        self.elsewhere = None
        if confidence is not None:
            check_nonnegative("confidence (standard errors by which the search must beat elsewhere's card)", confidence)
            if elsewhere is None or m is not None:
                raise ValueError(f"confidence={confidence} weighs the search against elsewhere's card among every "
                                 f"legal card: it needs elsewhere= (the agent whose card is kept) and no m=")
        self.confidence = confidence
        if elsewhere is not None:
            check_policy("elsewhere", elsewhere)
            if passing != "heuristic":
                raise ValueError(f"elsewhere={elsewhere!r} plays the passes too (no moon position while passing), so "
                                 f"passing={passing!r} would go unused: leave passing out")
            self.elsewhere = make_agent(elsewhere)
        self.searches_passes = passing == "search"  # each pass card chosen by the search, as a play is
        if chase is not None:
            check_count("chase (points a lone holder needs to go for the moon in the rollouts)", chase)
            if batch_policy(policy) is None:
                raise ValueError(f"chase={chase} mixes heuristic(chase={chase}) into the rollouts of a policy that "
                                 f"plays batches (e.g. 'apprentice'); with policy={policy!r} use "
                                 f"policy='heuristic(chase={chase})' or opponents=")
            if not batched("heuristic", backend):
                raise ValueError(f"chase={chase} needs heuristic on the batched engine (Numba)")
        if not isinstance(defend, bool):
            raise ValueError(f"defend (whether the other seats stop a chasing seat's moon) must be true or false, "
                             f"got {defend!r}")
        if not defend and chase is None:
            raise ValueError("defend=False needs chase=N: it says who stops a moon race in the rollouts")
        self.chase, self.defend = chase, defend
        if plies is not None:
            check_count("plies (cards the rollout policy plays before heuristic finishes)", plies)
            if batch_policy(policy) is None or not batched("heuristic", backend):
                raise ValueError(f"plies={plies} needs policy={policy!r} to be an agent that plays batches (e.g. "
                                 "'apprentice') and heuristic on the batched engine (Numba) to finish the rollouts")
        self.plies = plies
        if reward not in REWARDS:
            raise ValueError(f"pimc: reward={reward!r} is not valid; valid values: {', '.join(REWARDS)}")
        self.reward = reward
        if opponents is not None:
            check_policy("opponents", opponents)
            for name, spec in (("policy", policy), ("opponents", opponents)):
                if not batched(spec, backend) or policy_name(spec) == "random":
                    raise ValueError(f"opponents={opponents!r} needs {name}={spec!r} to be greedy or heuristic "
                                     "(with parameters), the rule players the batched engine runs")
        self.opponents = opponents
        self.belief, self.epsilon, self.proposals = belief, epsilon, proposals
        self._model = None
        if belief is not None:
            beliefs.check_model(belief, epsilon)
            if proposals is not None:
                check_count("proposals (worlds drawn before resampling)", proposals)
            if not (policy_name(policy) is not None and batched(policy, backend)) and batch_policy(policy) is None:
                raise ValueError(f"belief={belief!r} needs rollouts on the batched engine; policy={policy!r} "
                                 "plays them one deal at a time")
            self._model = (beliefs.heuristic_model(epsilon) if belief == "heuristic"
                           else beliefs.apprentice_model(epsilon))
        check_budget(n, time_limit, unit="n (rollouts per candidate)")
        if m is not None:
            check_count("m (candidates at most, or None: all)", m)
        check_policy("policy", policy)
        check_policy("rank", rank)
        self.n, self.m, self.policy, self.time_limit, self.backend = n, m, policy, time_limit, backend
        self.ranker = make_agent(rank) if m is not None else None
        self.rollout_agent = batch_policy(policy)
        self._agents: dict = {}
        self.last_values: dict[int, float] = {}  # card -> mean points of the seat after it, at the last search
        self.last_effective_worlds: float | None = None  # with a belief: the weights' effective sample size

    def reset(self, rules: Rules, seat: int, seed: int | Sequence[int] | None = None) -> None:
        super().reset(rules, seat, seed)
        if self._model is not None and rules.deck_obj.size != 52 and self.belief == "apprentice":
            raise ValueError(f"pimc: belief='apprentice' reads the 52-card deck's observation; these rules use the "
                             f"{rules.deck} deck (belief='heuristic' plays every deck)")
        if self.rollout_agent is not None:  # also checks now that the policy plays these rules
            self.rollout_agent.reset(rules, seat, int(self.rng.integers(2**63)))
        if self.ranker is not None:  # checks the rules now; reseeded at every ranking
            self.ranker.reset(rules, seat, 0)
        if self.elsewhere is not None:
            self.elsewhere.reset(rules, seat, int(self.rng.integers(2**63)))

    def act(self, view: SeatView) -> int:
        if self.elsewhere is not None and not moon_position(view):
            legal = view.legal
            if self.confidence is None or view.phase != Phase.PLAY or legal & (legal - 1) == 0:
                self.last_values = {}  # no search: nothing valued
                return self.elsewhere.act(view)
            return self.search(view, kept=self.elsewhere.act(view))
        return super().act(view)

    def candidates(self, view: SeatView) -> list[int]:
        legal = list(iter_cards(view.legal))
        if self.m is None or self.m >= len(legal):
            return legal
        assert self.ranker is not None
        self.ranker.reset(view.rules, view.seat, int(self.rng.integers(2**63)))
        picks: list[int] = []
        remaining = view.legal
        while len(picks) < self.m:
            narrowed = copy.copy(view)
            narrowed.legal = remaining
            card = self.ranker.act(narrowed)
            picks.append(card)
            remaining &= ~(1 << card)
        return picks

    def search(self, view: SeatView, kept: int | None = None) -> int:
        """The best candidate card; with ``kept`` (``elsewhere``'s card, under ``confidence``), ``kept`` unless the
        best card's paired gain over it exceeds ``confidence`` standard errors."""
        cards = self.candidates(view)
        rounds = []
        budget = Budget(1 if self.time_limit is None else None, self.time_limit)
        while budget.more():
            rounds.append(self.world_points(view, cards, self.n))
            budget.done += 1
        points = np.concatenate(rounds, axis=1)  # (cards, worlds, seats)
        means = points.mean(axis=1)
        self.last_values = dict(zip(cards, means[:, view.seat].tolist()))
        # what each card is worth to the seat in each world, higher better
        worth = margins(points, view.seat) if self.reward == "margin" else -points[..., view.seat].astype(float)
        best = int(np.argmax(worth.mean(axis=1)))
        if kept is None or cards[best] == kept:
            return cards[best]
        gain = worth[best] - worth[cards.index(kept)]  # paired: the same worlds for every card
        error = gain.std(ddof=1) / np.sqrt(gain.size) if gain.size > 1 else np.inf
        assert self.confidence is not None
        return cards[best] if gain.mean() > self.confidence * error else kept

    def evaluate(self, view: SeatView, cards: list[int], n: int) -> np.ndarray:
        """Mean points of the seat after each card in ``cards``, over ``n`` fresh sampled worlds (what the web
        table's hints show)."""
        return self.evaluate_seats(view, cards, n)[:, view.seat]

    def evaluate_seats(self, view: SeatView, cards: list[int], n: int) -> np.ndarray:
        """Mean points of every seat (a row per card in ``cards``, a column per seat) after each card, over ``n``
        fresh sampled worlds."""
        return self.world_points(view, cards, n).mean(axis=1)

    def world_points(self, view: SeatView, cards: list[int], n: int) -> np.ndarray:
        """(cards, worlds, seats): every seat's points after each card in ``cards`` in each of ``n`` fresh sampled
        worlds (the same worlds for every card)."""
        k = len(cards)
        if self.rollout_agent is not None or batched(self.policy, self.backend):
            batch = self.worlds(view, n).take(np.tile(np.arange(n), k))
            batch.step(np.repeat(np.asarray(cards, dtype=np.int64), n))
            if self.opponents is not None:
                points = rollout_seat_apart(batch, view.seat, self.policy, self.opponents, self.rng)
            else:
                points = rollout_batch(batch, self.rollout_agent or self.policy, self.rng, self.plies, self.chase,
                                       self.defend)
        else:
            worlds = sample_worlds(view, self.rng, n)
            starts = []
            for card in cards:
                for world in worlds:
                    start = world.clone()
                    start.apply(card)
                    starts.append(start)
            points = rollout_points(starts, self.policy, self.rng, self._agents, self.backend)
        return points.reshape(k, n, 4)

    def worlds(self, view: SeatView, n: int) -> VectorDeals:
        """``n`` worlds the seat cannot rule out: uniform, or resampled by the belief's weights."""
        if self._model is None:
            return sample_world_batch(view, self.rng, n, self.backend)
        drawn = sample_world_batch(view, self.rng, self.proposals or 4 * n, self.backend)
        log_weights = beliefs.play_log_likelihoods(view, drawn, self._model, self.rng)
        self.last_effective_worlds = beliefs.effective_size(log_weights)
        return drawn.take(beliefs.resample(log_weights, n, self.rng))
