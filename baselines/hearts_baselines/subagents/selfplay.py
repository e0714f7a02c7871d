"""Self-play for training: the deals and seats of a training deal, played by
:class:`~hearts_baselines.subagents.agent.Brain` seats one deal at a time on the public engine (the
reference) or thousands at once on the batched engine (issue 21), and turned into
:class:`~hearts_baselines.subagents.samples.Samples` with the rewards of Tables 1 and 2.

**Deals.** Moon deals are **filtered** by the moonshot decision network (paper 000 §4.3: "the decision
agents are used to filter out some games ... to train on more balanced data"): half of them are the
most promising of ``FILTER_DRAWS`` random deals for the moon seat, half are plain random deals.

**Batched play.** :func:`play_batch` plays every row of a :class:`~hearts_env.vector.VectorDeals` to
its end, each seat following the configuration of a ``Brain`` — a forced style (``normal``, ``moon``,
``breaker``; the training styles) or the full player's (the moonshot decision network picks the style
from the dealt hand) — and the brain's exploration draws
(:data:`~hearts_baselines.subagents.agent.UNIFORM_ROWS`): the cards, the recorded states and the deal
facts are those the brains would produce one deal at a time with :func:`play_deal` (a test holds the
two to each other). Network calls are one per network per trick position for all rows: afterstate
values of every legal card, the best pass set among the C(13, 3) of every hand, the breaker decision
of every threatened seat.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from hearts_baselines.subagents.agent import Brain, _combinations, afterstate_logits, pass_set_logits
from hearts_baselines.subagents.networks import NetSet
from hearts_baselines.subagents.samples import (
    MINE_ON_TABLE,
    STYLE_OF,
    DealFacts,
    N,
    Samples,
    deal_facts,
    dealt_positions,
    play_row,
    play_target,
    terminal,
)
from hearts_env.engine import Deal, Phase
from hearts_env.rules import Rules
from hearts_env.tables import tables_of
from hearts_env.vector import VectorDeals, penalty_points
from hearts_env.vector.encoders import make_batch_encoder
from hearts_env.views import SeatView

# Deals and seats ----------------------------------------------------------------------------------
FILTER_DRAWS = 8


def random_deal(rules: Rules, rng: np.random.Generator) -> Deal:
    """A shuffled deal with a pass direction drawn uniformly (left, right, across, hold)."""
    return Deal.random(rules, rng, pass_direction=int(rng.integers(4)))


def moon_deal(rules: Rules, rng: np.random.Generator, nets: NetSet, seat: int, filtered: bool) -> Deal:
    """A deal for a moon attempt by ``seat``: with ``filtered``, half the time the best of several."""
    if not filtered or rng.random() < 0.5:
        return random_deal(rules, rng)
    deals = [random_deal(rules, rng) for _ in range(FILTER_DRAWS)]
    rows = np.array([play_row(dealt_positions(d.dealt[seat])) for d in deals])
    return deals[int(np.argmax(nets["decide_moon"].values_of_rows(rows)))]


def brains(nets: NetSet, styles: Sequence[str | None], epsilons: Sequence[float], random_passes: bool = False,
           explore: frozenset[str] | None = None) -> list[Brain]:
    """Four seats (style None: the full player); ``epsilon`` explores only in the networks named in
    ``explore`` (the learning ones)."""
    return [Brain(nets, style=s, epsilon=e, random_passes=random_passes, explore=explore)
            for s, e in zip(styles, epsilons)]


# One deal at a time (the reference) -----------------------------------------------------------
def play_deal(deal: Deal, brains: list[Brain], rng: np.random.Generator) -> list[DealFacts]:
    """Play ``deal`` to the end with one brain per seat; the deal facts of every seat."""
    for brain in brains:
        brain.new_deal(rng)
    while not deal.is_over:
        seat = deal.current
        deal.apply(brains[seat].act(SeatView.of(deal, seat)))
    return [deal_facts(SeatView.of(deal, s)) for s in range(4)]


def collect(brain: Brain, facts: DealFacts, learn: set[str], samples: Samples) -> None:
    """Add the seat's states of the networks in ``learn`` with their targets."""
    for name, row, trick in brain.records.plays:
        if name in learn:
            samples.add(name, row, play_target(STYLE_OF[name], facts, trick))
    if brain.records.passing is not None:
        name, row = brain.records.passing
        if name in learn:
            samples.add(name, row, terminal(STYLE_OF[name], facts))


# Thousands of deals at once on the batched engine --------------------------------------------
NETS = ("play_normal", "play_moon", "play_breaker", "pass_normal", "pass_moon")
"""Network codes of the records (index into this tuple)."""
NORMAL, MOON, BREAKER, DECIDE = range(4)
STYLE_CODE = {"normal": NORMAL, "moon": MOON, "breaker": BREAKER, None: DECIDE}
PASS_CHUNK = 64
"""Hands per pass-set evaluation (286 sets × hidden units each)."""


@dataclass
class Seats:
    """The four seats of every row: ``(B, 4)`` arrays of the brains' settings."""

    style: np.ndarray
    """Style codes; :data:`DECIDE`: the moonshot decision network chooses when the deal starts."""
    epsilon: np.ndarray
    explores: np.ndarray
    """``(B, 4, len(NETS))``: whether the seat explores in each network."""
    random_passes: np.ndarray
    use_breaker: np.ndarray
    breaker_threshold: np.ndarray
    use_moon: np.ndarray
    moon_threshold: np.ndarray
    uniforms: np.ndarray
    """``(B, 4, UNIFORM_ROWS, 2)``."""

    @classmethod
    def of(cls, brains: Sequence[Sequence[Brain]]) -> Seats:
        """The settings of ``brains[b][s]`` (each given ``new_deal(rng)``)."""
        flat = [brain for seating in brains for brain in seating]
        if any(b.uniforms is None for b in flat):
            raise ValueError("call new_deal(rng) on every brain before playing the batch")
        shape = (len(brains), 4)

        def grid(values: list, dtype: type) -> np.ndarray:
            return np.array(values, dtype=dtype).reshape(*shape, *np.shape(values[0]))

        explores = [[bool(b.epsilon) and (b.explore is None or name in b.explore) for name in NETS] for b in flat]
        return cls(grid([STYLE_CODE[b.forced] for b in flat], np.int8),
                   grid([b.epsilon for b in flat], np.float64), grid(explores, bool),
                   grid([b.random_passes for b in flat], bool), grid([b.use_breaker for b in flat], bool),
                   grid([b.breaker_threshold for b in flat], np.float64),
                   grid([b.use_moon for b in flat], bool), grid([b.moon_threshold for b in flat], np.float64),
                   grid([b.uniforms for b in flat], np.float64))


@dataclass
class Played:
    """What every seat of every row did, and how the deals ended."""

    play_rows: np.ndarray
    """``(B, 4, T, 52)`` int16 afterstate rows of every play."""
    play_net: np.ndarray
    """``(B, 4, T)`` int8 network code (:data:`NETS`) of every play."""
    pass_rows: np.ndarray
    """``(B, 4, 16)`` int16 passing states (hand ‖ selected)."""
    pass_net: np.ndarray
    """``(B, 4)`` int8 network code of the pass, -1 where the seat did not pass (hold deals)."""
    moon_rows: np.ndarray
    """``(B, 4, 52)`` int16 dealt-hand states (what the moonshot decision reads)."""
    styles: np.ndarray
    """``(B, 4)`` the style code each seat played (:data:`DECIDE` resolved to normal or moon)."""
    threats: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
    """(batch row, seat, index row before the play, the seat holding every point) of each threatened
    play, in the order they happened in each batch row."""
    facts: list[list[DealFacts]]
    points: np.ndarray
    """``(B, 4)`` final points."""


def _rows_of(dense: np.ndarray) -> np.ndarray:
    """``paper260`` vectors (one 1 per card) → their 52 index rows."""
    return (5 * np.arange(N) + dense.reshape(len(dense), N, 5).argmax(axis=2)).astype(np.int16)


def _bits(masks: np.ndarray) -> np.ndarray:
    raw = np.ascontiguousarray(masks.astype(np.uint64)).view(np.uint8).reshape(*masks.shape, 8)
    return np.unpackbits(raw, axis=-1, bitorder="little")[..., :N].astype(bool)


def _ascending(masks: np.ndarray, k: int) -> np.ndarray:
    """``(B, k)`` the lowest ``k`` cards of each mask in ascending order (masks hold at least ``k``)."""
    bits = _bits(masks)
    return np.argsort(~bits, axis=1, kind="stable")[:, :k]


def play_batch(nets: NetSet, deals: VectorDeals, seats: Seats, opponents: str | None = None,
               learner: np.ndarray | None = None, rng: np.random.Generator | None = None) -> Played:
    """Play every row of ``deals`` (fresh deals) to its end by the seats' settings; with
    ``opponents`` (a player the batched engine runs: ``random``, ``greedy``, ``heuristic``), only seat
    ``learner[b]`` is a subagent seat and the others are played by ``opponents`` (``rng`` for
    ``random``); :attr:`Played.facts` is then empty (it needs every trick's points)."""
    b, hand = deals.size, deals.tables.hand_size
    if deals.tables.size != N:
        raise ValueError(f"subagents play the 52-card deck; these deals use {deals.tables.size} cards")
    rules = deals.rules
    encoder = make_batch_encoder("paper260", rules)
    point_tables = tables_of(rules)
    penalty = np.uint64(point_tables.penalty_cards)
    out = Played(np.zeros((b, 4, hand, N), np.int16), np.full((b, 4, hand), -1, np.int8),
                 np.zeros((b, 4, 16), np.int16), np.full((b, 4), -1, np.int8), np.zeros((b, 4, N), np.int16),
                 seats.style.copy(),
                 (np.zeros(0, np.intp),) * 2 + (np.zeros((0, N), np.int16), np.zeros(0, np.intp)), [], deals.points)
    dealt = _bits(deals.dealt)  # (B, 4, 52)
    out.moon_rows[:] = 5 * np.arange(N) + np.where(dealt, 0, 1)
    decide = np.flatnonzero((seats.style == DECIDE).reshape(-1))
    if len(decide):  # the full player (Brain._start): the moonshot decision reads the dealt hand
        p = nets["decide_moon"].values_of_rows(out.moon_rows.reshape(-1, N)[decide])
        shoot = seats.use_moon.reshape(-1)[decide] & (p > seats.moon_threshold.reshape(-1)[decide])
        out.styles.reshape(-1)[decide] = np.where(shoot, MOON, NORMAL)
    seats = dataclasses.replace(seats, style=out.styles)
    plan = np.full((b, 4, 3), -1, np.int64)
    plan_used = np.zeros((b, 4), np.int64)
    breaking = np.zeros((b, 4), bool)
    trick_points = np.zeros((b, 4, hand), np.int64)
    threat_parts: list[tuple[np.ndarray, ...]] = []
    if opponents is not None and learner is None:
        raise ValueError("play_batch with opponents needs the learner seat of every row")
    while True:
        if opponents is not None:
            assert learner is not None  # checked above
            deals.advance(learner, opponents, rng if rng is not None else np.random.default_rng(0))
        if deals.done.all():
            break
        live = ~deals.done
        seat = deals.current.astype(np.intp)
        legal = deals.legal_masks()
        cards = np.full(b, -1, np.int64)
        passing = live & (deals.phase == int(Phase.PASS))
        if passing.any():
            _passes(nets, deals, seats, passing, seat, plan, out)
            idx = np.flatnonzero(passing)
            cards[idx] = plan[idx, seat[idx], plan_used[idx, seat[idx]]]
            plan_used[idx, seat[idx]] += 1
        playing = live & (deals.phase == int(Phase.PLAY))
        if playing.any():
            idx = np.flatnonzero(playing)
            cards[idx] = _plays(nets, deals, seats, idx, seat[idx], legal[idx], encoder, penalty, breaking, out,
                                threat_parts)
        before = penalty_points(deals.taken, point_tables)
        trick = deals.trick_index.astype(np.intp)
        deals.step(cards, only=live)
        gained = penalty_points(deals.taken, point_tables) - before
        hit = np.flatnonzero(playing)
        trick_points[hit, :, trick[hit]] += gained[hit]
    if threat_parts:
        out.threats = tuple(np.concatenate(part) for part in zip(*threat_parts))  # type: ignore[assignment]
    out.points = deals.points.copy()
    if opponents is not None:
        return out
    out.facts = _facts(deals, penalty_points(deals.taken, point_tables), trick_points)
    return out


def _facts(deals: VectorDeals, taken: np.ndarray, trick_points: np.ndarray) -> list[list[DealFacts]]:
    """The :class:`DealFacts` of every seat of every row (as :func:`deal_facts`);
    ``trick_points[b, s, t]``: penalty points seat ``s`` took in trick ``t`` (0 where another won it)."""
    tricks = trick_points.shape[2]
    scored = trick_points > 0
    first = np.where(scored.any(axis=2), scored.argmax(axis=2), tricks)  # (B, 4) first trick with points
    order = np.argsort(first, axis=1, kind="stable")
    second = np.take_along_axis(first, order[:, 1:2], axis=1)[:, 0]  # the second seat to take points
    broken = (second < tricks).tolist()
    received, points, shooters = deals.points.tolist(), trick_points.tolist(), deals.moon_shooter.tolist()
    taken_l, second_l, seat_l = taken.tolist(), second.tolist(), order[:, 1].tolist()
    out = []
    for i in range(deals.size):
        brk = (second_l[i], seat_l[i]) if broken[i] else (None, None)
        shooter = shooters[i] if shooters[i] >= 0 else None
        out.append([DealFacts(s, received[i][s], taken_l[i][s], tuple(points[i][s]), shooter, *brk)
                    for s in range(4)])
    return out


def _passes(nets: NetSet, deals: VectorDeals, seats: Seats, passing: np.ndarray, seat: np.ndarray,
            plan: np.ndarray, out: Played) -> None:
    """Choose the pass sets of the seats passing for the first time (as ``Brain._choose_passes``)."""
    idx = np.flatnonzero(passing)
    s = seat[idx]
    new = idx[plan[idx, s, 0] < 0]
    if not len(new):
        return
    s = seat[new]
    k = deals.tables.pass_count
    size = deals.tables.hand_size
    hands = deals.hands[new, s]
    free = _ascending(hands, size)  # nothing passed yet: the whole hand
    combos = _combinations(size, k)
    moon = seats.style[new, s] == MOON
    u = seats.uniforms[new, s, 0]
    for code, name in ((3, "pass_normal"), (4, "pass_moon")):
        mine = (moon if name == "pass_moon" else ~moon)
        if not mine.any():
            continue
        sel = np.flatnonzero(mine)
        rnd = seats.random_passes[new[sel], s[sel]] | (seats.explores[new[sel], s[sel], code]
                                                       & (u[sel, 0] < seats.epsilon[new[sel], s[sel]]))
        pick = (u[sel, 1] * len(combos)).astype(np.int64)
        greedy = ~rnd
        if greedy.any():
            g = sel[greedy]
            net = nets[name]
            best = np.empty(len(g), np.int64)
            for start in range(0, len(g), PASS_CHUNK):
                part = g[start:start + PASS_CHUNK]
                pre = net.hidden_pre_of_rows(free[part])
                best[start:start + PASS_CHUNK] = pass_set_logits(net, pre, free[part], combos).argmax(axis=1)
            pick[greedy] = best
        chosen = np.take_along_axis(free[sel], combos[pick].astype(np.intp), axis=1)
        t, st = new[sel], s[sel]
        plan[t, st] = chosen
        out.pass_net[t, st] = code
        out.pass_rows[t, st, :size] = free[sel]
        out.pass_rows[t, st, size:size + k] = N + np.sort(chosen, axis=1)


def _plays(nets: NetSet, deals: VectorDeals, seats: Seats, idx: np.ndarray, seat: np.ndarray, legal: np.ndarray,
           encoder, penalty: np.uint64, breaking: np.ndarray, out: Played, threat_parts: list) -> np.ndarray:
    """The cards of the seats to play at deals ``idx`` (as ``Brain._play``)."""
    dense = encoder.encode(deals, deals.current)[idx]
    rows = _rows_of(dense)
    holds = (deals.taken[idx] & penalty) != 0  # (n, 4)
    n_holders = holds.sum(axis=1)
    holder = holds.argmax(axis=1)
    style = seats.style[idx, seat]
    me_only = (n_holders == 0) | ((n_holders == 1) & (holder == seat))
    threat = (n_holders == 1) & (holder != seat)
    net_code = np.zeros(len(idx), np.int64)  # play_normal
    net_code[(style == MOON) & me_only] = 1
    nonmoon = style != MOON
    breaking[idx[nonmoon & ~threat], seat[nonmoon & ~threat]] = False
    watched = nonmoon & threat
    if watched.any():
        w = np.flatnonzero(watched)
        threat_parts.append((idx[w], seat[w], rows[w], holder[w]))
        forced = style[w] == BREAKER
        net_code[w[forced]] = 2
        ask = w[~forced]
        ask = ask[seats.use_breaker[idx[ask], seat[ask]] & ~breaking[idx[ask], seat[ask]]]
        if len(ask):
            p = nets["decide_breaker"].values_of_rows(rows[ask])
            breaking[idx[ask], seat[ask]] = p > seats.breaker_threshold[idx[ask], seat[ask]]
        rest = w[~forced]
        net_code[rest[breaking[idx[rest], seat[rest]]]] = 2
    count = np.bitwise_count(legal).astype(np.int64)
    hand = deals.tables.hand_size
    cand = _ascending(legal, hand)  # the legal cards first, ascending
    valid = np.arange(hand)[None, :] < count[:, None]
    trick = deals.trick_index[idx].astype(np.intp)
    u = seats.uniforms[idx, seat, 1 + trick]
    explore = (count > 1) & seats.explores[idx, seat, net_code] & (u[:, 0] < seats.epsilon[idx, seat])
    choice = (u[:, 1] * count).astype(np.int64)
    greedy = np.flatnonzero((count > 1) & ~explore)
    for code in np.unique(net_code[greedy]):
        g = greedy[net_code[greedy] == code]
        net = nets[NETS[code]]
        logits = afterstate_logits(net, net.hidden_pre(dense[g]), cand[g])
        choice[g] = np.where(valid[g], logits, -np.inf).argmax(axis=1)
    choice[count <= 1] = 0
    card = cand[np.arange(len(idx)), choice]
    after = rows.copy()
    after[np.arange(len(idx)), card] = 5 * card + MINE_ON_TABLE
    out.play_rows[idx, seat, trick] = after
    out.play_net[idx, seat, trick] = net_code
    return card


def collect_batch(played: Played, learners: Sequence[dict[int, set[str]]], samples: Samples) -> None:
    """Add the training samples of the learning seats (``learners[b]``: seat → networks it learns),
    in :func:`collect`'s order: row by row, seat by seat, plays then the pass."""
    for i, learning in enumerate(learners):
        for s, learn in learning.items():
            facts = played.facts[i][s]
            for t, code in enumerate(played.play_net[i, s]):
                name = NETS[code] if code >= 0 else ""
                if name in learn:
                    samples.add(name, played.play_rows[i, s, t], play_target(STYLE_OF[name], facts, t))
            code = played.pass_net[i, s]
            if code >= 0 and NETS[code] in learn:
                samples.add(NETS[code], played.pass_rows[i, s], terminal(STYLE_OF[NETS[code]], facts))


def versus(nets: NetSet, opponents: str = "heuristic", deals: int = 1024, seed: int = 0,
           rules: str = "standard", style: str = "normal", random_passes: bool = False) -> tuple[float, float]:
    """Mean points per deal of one subagent seat playing ``style`` (no exploration, no decision
    networks; ``random_passes``: passes at random) against three ``opponents`` (``random``,
    ``greedy``, ``heuristic``), and of the opponents' seats, over ``deals`` deals each played in the
    four rotations (duplicate): the training curves' check."""
    from hearts_env.rules import make_rules

    rng = np.random.default_rng(seed)
    base = VectorDeals.random(make_rules(rules), deals, rng)
    brain = Brain(nets, style=style, random_passes=random_passes)
    brain.new_deal(rng)
    seats = Seats.of([[brain] * 4] * deals)
    mine, others = [], []
    for seat in range(4):
        played = play_batch(nets, base.take(base.rows), seats, opponents, np.full(deals, seat, np.int8), rng)
        points = played.points.astype(np.float64)
        mine.append(points[:, seat].mean())
        others.append((points.sum(axis=1) - points[:, seat]).mean() / 3)
    return float(np.mean(mine)), float(np.mean(others))
