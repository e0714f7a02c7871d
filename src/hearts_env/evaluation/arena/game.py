"""One episode of a tournament: seatings, pass directions, playing a (deal, seating) game into a record.

A record is a JSON-ready dict (see :mod:`hearts_env.evaluation.arena`); :func:`replay_record` rebuilds its deals.
"""

from __future__ import annotations

import functools
import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from hearts_env import __version__
from hearts_env.agents import AgentSpec, make_agent
from hearts_env.agents.failures import card_of, describe
from hearts_env.engine import Deal, IllegalActionError
from hearts_env.evaluation.seat import Sandbox, SeatAgent, SeatError, seated_agent
from hearts_env.match import Match
from hearts_env.rules import Rules, make_rules
from hearts_env.views import SeatView


def seatings(num_specs: int) -> list[tuple[int, ...]]:
    """Seatings as tuples of spec indices per seat (see the module docstring)."""
    if num_specs == 1:
        return [(0, 0, 0, 0)]
    if num_specs == 2:
        return [s for s in itertools.product((0, 1), repeat=4) if 0 < sum(s) < 4]
    if num_specs == 4:
        return [tuple((seat + r) % 4 for seat in range(4)) for r in range(4)]
    raise ValueError(f"an arena takes 1, 2 or 4 agent specs, got {num_specs}")


def solo_seatings() -> list[int]:
    """Indices of the two-spec seatings that put the first spec in one seat and the second in the other
    three: the four rotations of one agent against three copies of another."""
    return [k for k, s in enumerate(seatings(2)) if s.count(0) == 1]


def pass_direction_of(rules: Rules, deal_index: int) -> int | None:
    """The pass offset of one-deal episode ``deal_index`` of a tournament: ``schedule[i % len(schedule)]``,
    so every direction of the schedule is played equally often and every seating of a deal passes the
    same way. None for games to the target (they follow the schedule deal by deal) and for
    ``passing="random"`` (drawn from the deal's seed, hence also the same in every seating)."""
    schedule = rules.pass_schedule
    if rules.game != "deal" or schedule is None:
        return None
    return schedule[deal_index % len(schedule)]


def episode_match(rules: Rules, seed: int, deal_index: int) -> Match:
    """Episode ``deal_index`` of a tournament seeded ``seed``, before any card is played: its cards
    depend only on ``(seed, deal_index)``, so every seating (and every machine) gets the same deal."""
    return Match(rules, seed=np.random.default_rng([seed, deal_index]),
                 pass_direction=pass_direction_of(rules, deal_index))


def play_game(specs: Sequence[str], rules: Rules, seed: int, deal_index: int, seating_index: int,
              move_time_limit: float | None = None, agent_seed: int | None = None,
              seats: SeatOptions | None = None) -> dict[str, Any]:
    """Play episode ``deal_index`` (one deal, or a game to the target) in seating ``seating_index``.

    The cards depend only on (seed, deal_index), so every seating sees the same deals; agent
    randomness depends on (agent_seed, deal_index, seating_index, seat), ``agent_seed`` defaulting to
    ``seed``. Agents receive that seed, so with the default they can re-deal the cards: a tournament
    whose deals must stay hidden from its agents gives them an ``agent_seed`` that does not reveal
    ``seed`` (the benchmark's held-out deals). Seated agents (``seat:``, ``hosted:``) receive one
    64-bit digest of it and ``seats.secret`` instead (:func:`~hearts_env.evaluation.seat.seat_seed`).

    A move slower than ``move_time_limit`` seconds ends the episode as a timeout: a seated agent's
    program is killed at the limit; an in-process agent is measured after its move returns.
    Anything an agent's call raises, and any way a seated agent's program ends, is recorded and
    charged to the agent as a forfeit (:func:`forfeit`).
    """
    seating = seatings(len(specs))[seating_index]
    match = episode_match(rules, seed, deal_index)
    agents = [_agent(specs[i], seat, seats) for seat, i in enumerate(seating)]
    error = None
    details = []
    think = [0.0, 0.0, 0.0, 0.0]  # seconds each seat spent choosing, its slowest choice, and how many choices
    slowest = [0.0, 0.0, 0.0, 0.0]
    decisions = [0, 0, 0, 0]
    notes: dict[str, dict[str, int]] = {}  # what seated programs reported of their deals (xinxin's fallbacks)
    while error is None:
        deal = match.deal
        for seat, agent in enumerate(agents):
            error = error or _call(seat, agent.reset, rules, seat,
                                   seed=[seed if agent_seed is None else agent_seed, deal_index, seating_index,
                                         match.deal_index, seat])
        while not deal.is_over and error is None:
            error = _move(agents, deal, move_time_limit, think, decisions, slowest)
        played = error is None
        if played:
            for seat, agent in enumerate(agents):
                error = error or _call(seat, agent.end_deal, SeatView.of(deal, seat))
        transcripts = {}
        for seat, agent in enumerate(agents):
            counts, transcript = _deal_account(agent, played)
            if counts is not None:  # a seat that reported nothing wrong is kept too: it reported (xinxin, no fallback)
                kept = notes.setdefault(str(seat), {})
                for kind, n in counts.items():
                    kept[kind] = kept.get(kind, 0) + n
            if transcript is not None:
                transcripts[str(seat)] = transcript
        details.append({"hands": list(deal.dealt), "pass_direction": deal.pass_direction_name,
                        "dealer": deal.dealer, "history": deal.history, "points": deal.points,
                        **({"transcripts": transcripts} if transcripts else {})})
        if error is not None:
            error["spec"] = specs[seating[error["seat"]]]
            break
        if match.next_deal() is None:
            break
    if error is None:
        points, winners = list(match.scores), match.winners()
    else:
        points, winners = forfeit(match.scores, error["seat"], rules.penalty_total)
    return {"deal": deal_index, "seating_index": seating_index, "seating": [specs[i] for i in seating],
            "seed": seed, "rules": rules.spec(), "points": points, "winners": winners,
            "moons": [d.moon_shooter for d in match.history if d.moon_shooter is not None],
            "moon_attempts": [s for d in match.history for s in moon_attempts(d)],
            "error": error, "version": __version__, "think_seconds": think, "decisions": decisions,
            "slowest_move_seconds": slowest, "move_time_limit": move_time_limit,
            **({} if agent_seed is None else {"agent_seed": agent_seed}), **({"notes": notes} if notes else {}),
            "deals": details}


def _deal_account(agent: Any, played: bool) -> tuple[dict[str, int] | None, list[dict[str, Any]] | None]:
    """What an agent reported of the deal just played: counts by kind (a seated program's ``notes`` with its reply to
    ``end_deal``; an in-process agent's ``deal_notes()``, also of a deal its error ended — a model's tokens are spent
    either way) and an in-process agent's ``deal_transcript()`` (a language model's prompts and answers)."""
    if isinstance(agent, SeatAgent):
        return (agent.notes if played else None), None  # None unless its end_deal was answered
    counts = agent.deal_notes() if callable(getattr(agent, "deal_notes", None)) else None
    transcript = agent.deal_transcript() if callable(getattr(agent, "deal_transcript", None)) else None
    return counts, transcript


def forfeit(scores: Sequence[int], offender: int, penalty_total: int) -> tuple[list[int], list[int]]:
    """The scores and winners of an episode ended by ``offender``'s error (an exception, an illegal card
    or a timeout): the deal in play is scored ``penalty_total`` (the most a deal costs: 26 standard) to
    the offender and 0 to the others, on top of the deals already finished, and the offender cannot
    win. So erring never pays: finishing the deal costs the offender at most as much, and a game it
    could have won is lost."""
    points = [score + (penalty_total if seat == offender else 0) for seat, score in enumerate(scores)]
    low = min(p for seat, p in enumerate(points) if seat != offender)
    return points, [seat for seat, p in enumerate(points) if seat != offender and p == low]


@dataclass(frozen=True)
class SeatOptions:
    """How the arena seats agents that play from a program of their own (``seat:``, ``hosted:`` specs):
    the sandbox their programs run in, the secret mixed into the seeds they are sent, and a folder their
    programs keep compiled kernels in across the run's worker processes (None: one per program)."""

    sandbox: Sandbox = field(default_factory=Sandbox)
    secret: int | None = None
    cache: str | None = None


_AGENTS: dict[tuple[str, int, SeatOptions | None], Any] = {}


def _agent(spec: str, seat: int, seats: SeatOptions | None = None) -> Any:
    """One agent per (spec, seat) in each worker process, reset before every deal: building an
    agent can be costly (an SB3 model loads its zip, a seated agent starts its program), playing a
    deal with it is not."""
    key = (spec, seat, seats if _seated(spec) else None)
    agent = _AGENTS.get(key)
    if agent is None:
        agent = _AGENTS[key] = build_agent(spec, seats)
    return agent


def build_agent(spec: str, seats: SeatOptions | None = None, fill_cache: bool = False) -> Any:
    """The agent of ``spec``: a seated one (``seat:``, ``hosted:``) under ``seats``, else built here."""
    if not _seated(spec):
        return make_agent(spec)
    options = seats or SeatOptions()
    return seated_agent(spec, sandbox=options.sandbox, secret=options.secret, cache=options.cache,
                        fill_cache=fill_cache)


@functools.lru_cache(maxsize=256)
def _seated(spec: str) -> bool:
    """Whether ``spec`` plays from a program of its own: asked for every seat of every game, parsed once."""
    return AgentSpec.parse(spec).seated


def close_agents() -> None:
    """End the programs of every seated agent this process started (a worker does at its end)."""
    for agent in _AGENTS.values():
        if isinstance(agent, SeatAgent):
            agent.close()
    _AGENTS.clear()


def _call(seat: int, method: Any, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
    """Call an agent's ``reset`` or ``end_deal``; what it raises is the seat's error (a forfeit)."""
    try:
        method(*args, **kwargs)
    except BaseException as e:  # sorted by _failure
        return _failure(seat, getattr(method, "__self__", None), e)
    return None


def _failure(seat: int, agent: Any, error: BaseException) -> dict[str, Any]:
    """The error record of what an agent's call raised: a seat's program failing (timed out, ended, broke
    the protocol, reported an error), an illegal card, or anything an in-process agent raised, ``SystemExit``
    included. Ctrl-C, and anything else a seated agent's dealer side raises (the dealer's own failure), is
    raised again."""
    if isinstance(error, SeatError):
        return {"seat": seat, "kind": error.kind, "message": str(error)}
    if isinstance(error, IllegalActionError):
        return {"seat": seat, "kind": "illegal", "message": str(error)}
    if isinstance(error, KeyboardInterrupt) or isinstance(agent, SeatAgent):
        raise error
    return _exception(seat, error)


def _exception(seat: int, error: BaseException) -> dict[str, Any]:
    """The record of an exception an agent raised: its description, as a seat's program reports one."""
    return {"seat": seat, "kind": "exception", "message": describe(error)}


def _move(agents: Sequence[Any], deal: Deal, limit: float | None, think: list[float],
          decisions: list[int], slowest: list[float]) -> dict[str, Any] | None:
    seat = deal.current
    agent = agents[seat]
    try:
        view = SeatView.of(deal, seat)
        start = time.perf_counter()
        card = agent.act(view, timeout=limit) if isinstance(agent, SeatAgent) else \
            card_of(agent.act(view), deal.deck.size - 1)
        elapsed = time.perf_counter() - start
        think[seat] += elapsed
        slowest[seat] = max(slowest[seat], elapsed)
        decisions[seat] += 1
        if limit is not None and elapsed > limit:
            return {"seat": seat, "kind": "timeout", "message": f"a move took {elapsed:.3f} s (limit {limit} s)"}
        deal.apply(card)
    except BaseException as e:  # sorted by _failure
        return _failure(seat, agent, e)
    return None


def replay_record(record: dict[str, Any], deal: int = 0) -> Deal:
    """Deal number ``deal`` of an arena record, replayed through the engine (to its end, or its error)."""
    d = record["deals"][deal]
    rebuilt = Deal.from_hands(make_rules(record["rules"]), d["hands"], pass_direction=d["pass_direction"],
                              dealer=d["dealer"])
    return rebuilt.apply_all(d["history"])


def moon_attempts(deal: Deal) -> list[int]:
    """Seats that went for the moon in a finished deal: three quarters of the way through the
    tricks, the seat held every point taken so far and at least half of the deal's penalty
    total (a successful moon always counts)."""
    if deal.moon_shooter is not None:
        return [deal.moon_shooter]
    checkpoint = -(-3 * deal.num_tricks // 4)  # trick 10 of 13, 6 of 8
    points = [0, 0, 0, 0]
    for trick in deal.tricks()[:checkpoint]:
        points[trick.winner] += trick.points
    holders = [s for s in range(4) if points[s] > 0]
    return holders if len(holders) == 1 and points[holders[0]] * 2 >= deal.rules.penalty_total else []
