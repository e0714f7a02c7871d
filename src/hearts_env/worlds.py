"""Sample full deals ("worlds") consistent with what one seat knows — for search agents.

>>> import numpy as np
>>> from hearts_env import Deal, SeatView
>>> from hearts_env.worlds import sample_world
>>> deal = Deal.random("standard", 1)
>>> world = sample_world(SeatView.of(deal, deal.current), np.random.default_rng(0))
>>> world.hands[deal.current] == deal.hands[deal.current] and world.legal_mask() == deal.legal_mask()
True

A world agrees with the view on everything public and on the seat's private knowledge: its own
hand, the cards it passed (held by the target until played), the number of cards each seat holds,
every void a seat has shown (a seat that did not follow suit holds none of that suit) or implied
(leading a heart before hearts were broken), the penalty-only hand of a seat that led or discarded
a penalty card on a first trick that forbids points (:func:`possible_cards`), who holds the lowest
club while it is unplayed (the seat that opens the play, when the opening lead is a club), and the
legality of every card played (a world in which some past play would have been illegal is
rejected and redrawn).

Two samplers: :func:`sample_world` draws one world, dealing the unseen cards by a random greedy
assignment (with an exact matching as the fallback, so a consistent world is always found) that is
uniform when no void constrains them and close to, but not exactly, uniform otherwise.
:func:`sample_worlds` draws many at once, exactly uniformly among the consistent deals (a test
enumerates them) and an order of magnitude faster per world — what search agents use.

During passing (for the seat choosing its passes), the others' hands are the unseen cards split at
random, and the seats that chose their passes before this one (unknown cards) are given random
passes from their sampled hands.

:func:`sample_history` draws a world *with its past*: the hands as dealt, every pass and every play, in which
the seat passed and received exactly what it did — for programs that replay a deal from its start
(OpenSpiel's bots, xinxin), so they know the cards the seat passed and received.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from hearts_env.engine import Deal, IllegalActionError, Phase
from hearts_env.tables import tables_of
from hearts_env.vector import VectorDeals
from hearts_env.views import SeatView


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _constraints(view: SeatView) -> tuple[list[int], dict[int, int], list[int], dict[int, list[int]]]:
    """(known hands, places left per other seat, cards to deal, the seats each card may go to)."""
    me = view.seat
    others = [s for s in range(4) if s != me]
    hands = [0, 0, 0, 0]
    hands[me] = view.hand
    need = {}
    opener = -1  # the seat that opens the play holds the lowest club (when it must lead a club) until it plays it
    if view.rules.opening_lead == "lowest_club" and view.phase == Phase.PLAY and not view.played & 1:
        opener = _player(view, 0) if view.plays else view.current
    for s in others:
        known = view.known_held_by(s) | (1 if s == opener else 0)
        hands[s] = known
        need[s] = view.hand_size(s) - known.bit_count()
    cards = _bits(view.unseen & ~(1 if opener in others else 0))
    if sum(need.values()) != len(cards):
        raise ValueError(f"inconsistent view: {len(cards)} unseen cards for {sum(need.values())} places")
    may_hold = possible_cards(view)
    allowed = {c: [s for s in others if may_hold[s] >> c & 1] for c in cards}
    return hands, need, cards, allowed


def sample_hands(view: SeatView, rng: np.random.Generator) -> list[int]:
    """The four hands now, as masks: the seat's own, and the others' drawn as in the module docstring."""
    hands, need, cards, allowed = _constraints(view)
    assignment = _greedy(cards, allowed, need, rng) or _matching(cards, allowed, need, rng)
    for card, seat in assignment.items():
        hands[seat] |= 1 << card
    return hands


def inferred_voids(view: SeatView) -> list[int]:
    """Per seat, the suits (4-bit masks) it cannot hold: the voids it showed by not following suit,
    plus those implied by leading a heart before hearts were broken (it had nothing else to lead)."""
    voids = list(view.voids)
    rules = view.rules
    if not rules.must_break_hearts:
        return voids
    t = tables_of(rules)
    others = 0b1011 if not rules.can_lead_hearts_instead_of_qs else 0b0011  # ♣ ♦ (♠ unless Q♠ may be held)
    broken = False
    plays = view.plays
    for k, card in enumerate(plays):
        if k % 4 == 0 and t.hearts >> card & 1 and not broken and k > 0:
            voids[_player(view, k)] |= others
        if t.breaks_hearts >> card & 1:
            broken = True
    return voids


def possible_cards(view: SeatView) -> list[int]:
    """Per seat, a mask of the cards it may hold now as far as its plays tell: no card of a suit it
    is void in (:func:`inferred_voids`), and, under ``no_pts_on_first_trick``, no card allowed on
    the first trick if it led or discarded a penalty card there (it had no other choice)."""
    rules = view.rules
    t = tables_of(rules)
    voids = inferred_voids(view)
    out = []
    for s in range(4):
        mask = t.full
        for suit in range(4):
            if voids[s] >> suit & 1:
                mask &= ~t.suits[suit]
        out.append(mask)
    if not rules.no_pts_on_first_trick:
        return out
    penalty = t.penalty_cards
    plays = view.plays[:4]
    for k, card in enumerate(plays):
        forced_club = k == 0 and t.lead_lowest_club  # the opening lead follows its own rule
        off_suit = k == 0 or t.suit_of(card) != t.suit_of(plays[0])
        if penalty >> card & 1 and off_suit and not forced_club:
            out[_player(view, k)] &= penalty
    return out


def _player(view: SeatView, k: int) -> int:
    """Who played ``view.plays[k]``."""
    bit = 1 << view.plays[k]
    return next(s for s in range(4) if view.played_by[s] & bit)


def _greedy(cards: list[int], allowed: dict[int, list[int]], need: dict[int, int],
            rng: np.random.Generator) -> dict[int, int] | None:
    """Most constrained cards first, each to an allowed seat drawn in proportion to its free places
    (with no void anywhere this is a uniform random split)."""
    order = [cards[i] for i in rng.permutation(len(cards)).tolist()]
    order.sort(key=lambda c: len(allowed[c]))
    uniforms = rng.random(len(order)).tolist()
    free = dict(need)
    out = {}
    for card, u in zip(order, uniforms):
        seats = [s for s in allowed[card] if free[s] > 0]
        if not seats:
            return None
        pick = u * sum(free[s] for s in seats)
        for seat in seats:
            pick -= free[seat]
            if pick < 0:
                break
        out[card] = seat
        free[seat] -= 1
    return out


def _matching(cards: list[int], allowed: dict[int, list[int]], need: dict[int, int],
              rng: np.random.Generator) -> dict[int, int]:
    """A consistent assignment by augmenting paths (cards in random order): always found if one exists."""
    slots = [(s, k) for s in need for k in range(need[s])]
    owner: dict[tuple[int, int], int] = {}

    def place(card: int, seen: set[tuple[int, int]]) -> bool:
        for slot in rng.permutation(len(slots)).tolist():
            s, _ = slots[slot]
            key = slots[slot]
            if s not in allowed[card] or key in seen:
                continue
            seen.add(key)
            if key not in owner or place(owner[key], seen):
                owner[key] = card
                return True
        return False

    for card in rng.permutation(cards).tolist():
        if not place(card, set()):
            raise ValueError("no deal is consistent with this view (voids and hand sizes contradict)")
    return {card: slot[0] for slot, card in owner.items()}


def sample_world(view: SeatView, rng: np.random.Generator) -> Deal:
    """A full-information :class:`Deal` in the same state as the view's deal, hidden cards sampled."""
    rules = view.rules
    if view.phase == Phase.PASS:
        _check_passing_seat(view)
        return _pass_world(view, sample_hands(view, rng), rng.random((view.seat, view.rules.deck_obj.hand_size)))
    return _replayed(view, rng, lambda after: Deal.from_hands(rules, after, pass_direction="hold", dealer=view.dealer,
                                                              game_scores=view.game_scores))


MAX_ATTEMPTS = 200


def sample_history(view: SeatView, rng: np.random.Generator) -> Deal:
    """A full-information :class:`Deal` replayed from its start to the view's state: the hands as dealt, the
    passes and the plays, hidden cards sampled with the guarantees of :func:`sample_world`.

    The seat's own passes and the cards it received are the true ones; the passes it never saw are drawn among
    the cards their receivers held after the exchange. Its view of the result is its view of the true deal
    (tests/test_worlds.py)."""
    if view.phase == Phase.PASS:
        return sample_world(view, rng)
    return _replayed(view, rng, lambda after: _with_passes(view, after, rng))


def _with_passes(view: SeatView, after: list[int], rng: np.random.Generator) -> Deal:
    """The deal that reaches the hands ``after`` the exchange: the seat's own passes and received cards as they
    were, every other pass drawn among the cards its receiver holds after the exchange, the passes applied."""
    offset, me = view.pass_direction, view.seat
    passes = {me: view.passed, (me - offset) % 4: view.received} if offset else {s: 0 for s in range(4)}
    for seat in range(4):
        if seat not in passes:
            held = _bits(after[(seat + offset) % 4])
            passes[seat] = sum(1 << held[k] for k in rng.choice(len(held), view.rules.pass_count, replace=False))
    dealt = [after[s] & ~passes[(s - offset) % 4] | passes[s] for s in range(4)]
    world = Deal.from_hands(view.rules, dealt, pass_direction=offset, dealer=view.dealer, game_scores=view.game_scores)
    for seat in range(4) if offset else ():
        for card in _bits(passes[seat]):
            world.apply(card)
    return world


def _replayed(view: SeatView, rng: np.random.Generator, start: Callable[[list[int]], Deal]) -> Deal:
    """A world of the play phase: each try draws the hands after the exchange (:func:`sample_hands` plus what each
    seat has played), builds the deal ``start`` makes of them and replays the plays; a world in which a play is
    illegal (a rarer inference, e.g. first-trick discards, ruled it out) is redrawn."""
    for _ in range(MAX_ATTEMPTS):
        after = [hand | played for hand, played in zip(sample_hands(view, rng), view.played_by)]
        try:
            return start(after).apply_all(view.plays)
        except IllegalActionError:
            continue
    raise ValueError(f"no world consistent with the plays found in {MAX_ATTEMPTS} samples")


def _check_passing_seat(view: SeatView) -> None:
    if view.current != view.seat:
        raise ValueError("during passing, worlds are sampled for the seat choosing its passes "
                         f"(seat {view.current}), not seat {view.seat}")


def _pass_world(view: SeatView, hands: list[int], uniforms: np.ndarray) -> Deal:
    """The world during passing: ``hands`` as dealt; the seats before this one pass random cards
    (chosen but unknown to it; ``uniforms[seat]`` orders their hands) and this seat its own."""
    world = Deal.from_hands(view.rules, hands, pass_direction=view.pass_direction, dealer=view.dealer,
                            game_scores=view.game_scores)
    count = view.rules.pass_count
    for seat in range(view.seat):
        cards = _bits(hands[seat])
        for k in np.argsort(uniforms[seat, :len(cards)])[:count].tolist():
            world.apply(cards[k])
    for card in _bits(view.passed):
        world.apply(card)
    return world


def sample_worlds(view: SeatView, rng: np.random.Generator, count: int) -> list[Deal]:
    """``count`` worlds with the guarantees of :func:`sample_world`, drawn together (a few µs a world
    instead of tens): the hidden cards of all worlds are dealt at once, exactly uniformly among the
    deals that respect hand sizes, the seat's passes and every inference of :func:`possible_cards`
    (:func:`_uniform_hands`); when some play may say more than those (:func:`_plays_imply_more_than_voids`)
    all are checked at once by replaying the plays on the batched engine. The worlds are copies of
    one replayed world with the hands swapped in (:meth:`~hearts_env.engine.Deal.with_hands`); if
    the replay rules out too many, the rest come from :func:`sample_world`."""
    if count <= 0:
        return []
    if view.phase == Phase.PASS:
        return _pass_worlds(view, rng, count)
    template, hands = _play_hands(view, rng, count)
    worlds: list[Deal] = []
    if template is not None:
        # the rows satisfy with_hands by construction (hand sizes, the cards still out): skip its checks
        worlds = [template] + [template.with_hands(row, check=False) for row in hands[1:].tolist()]
    while len(worlds) < count:
        worlds.append(sample_world(view, rng))
    return worlds


def sample_world_batch(view: SeatView, rng: np.random.Generator, count: int, backend: str = "auto") -> VectorDeals:
    """The worlds of :func:`sample_worlds` (the same ones, for the same ``rng`` state) as a batch of
    deals on the batched engine, one world per row, built without a :class:`Deal` per world — what rollout searches use
    (``VectorDeals.from_deals(sample_worlds(...))`` costs more than the worlds' rollouts)."""
    if count <= 0:
        raise ValueError(f"count must be a positive number of worlds, got {count}")
    if view.phase == Phase.PASS:
        return VectorDeals.from_deals(_pass_worlds(view, rng, count), backend=backend)
    template, hands = _play_hands(view, rng, count)
    rest = [sample_world(view, rng) for _ in range(count - len(hands))]
    if template is None:
        return VectorDeals.from_deals(rest, backend=backend)
    deals = VectorDeals.from_deals([template, *rest], backend=backend)
    deals = deals.take(np.concatenate([np.zeros(len(hands), np.intp), np.arange(1, len(rest) + 1)]))
    deals.hands[:len(hands)] = hands
    deals.dealt[:len(hands)] = hands | deals.played_by[:len(hands)]
    return deals


def _pass_worlds(view: SeatView, rng: np.random.Generator, count: int) -> list[Deal]:
    _check_passing_seat(view)
    uniforms = rng.random((count, view.seat, view.rules.deck_obj.hand_size))
    return [_pass_world(view, row, uniforms[i]) for i, row in enumerate(_uniform_hands(view, rng, count).tolist())]


def _play_hands(view: SeatView, rng: np.random.Generator, count: int) -> tuple[Deal | None, np.ndarray]:
    """At most ``count`` rows of hands now (uint64, (rows, 4)) drawn by :func:`_uniform_hands` and, when
    the plays may say more than the voids, kept only if they replay legally; and the first row's world
    with the plays applied (None when no row is left), the template the other rows are copies of."""
    if view.phase != Phase.PLAY:
        raise ValueError("the deal is over: there is nothing to sample")
    hands = _uniform_hands(view, rng, count)
    if len(hands) and _plays_imply_more_than_voids(view):
        hands = hands[_replays_legally(view, hands)]
    if not len(hands):
        return None, hands
    starts = hands[0] | np.array(view.played_by, dtype=np.uint64)
    template = Deal.from_hands(view.rules, [int(h) for h in starts], pass_direction="hold",
                               dealer=view.dealer, game_scores=view.game_scores).apply_all(view.plays)
    return template, hands


def _uniform_hands(view: SeatView, rng: np.random.Generator, count: int) -> np.ndarray:
    """``count`` rows of four hand masks (uint64), each drawn uniformly among the deals of the hidden
    cards that respect hand sizes, known cards and voids — exactly, without rejection.

    A card's allowed seats depend only on its suit (voids), so the cards fall into groups with one
    allowed set each. Cards every other seat may hold are "free". For each way of splitting the
    constrained groups among their seats (few: at most three groups of at most 13 cards), the number
    of deals is a product of multinomials; a split is drawn with that weight, then the cards of each
    group and the free cards are dealt to their places in random order."""
    known, need, cards, allowed = _constraints(view)
    others = sorted(need)
    groups: dict[tuple[int, ...], list[int]] = {}
    for card in cards:
        groups.setdefault(tuple(allowed[card]), []).append(card)
    free = groups.pop(tuple(others), [])
    if () in groups:
        raise ValueError("no deal is consistent with this view (a card no seat may hold)")
    fixed = dict.fromkeys(others, 0)
    split: list[tuple[int, int, list[int]]] = []  # (first seat, second seat, cards) of two-seat groups
    for seats, members in groups.items():
        if len(seats) == 1:
            fixed[seats[0]] += len(members)
        else:
            split.append((seats[0], seats[1], members))
    # every split of the two-seat groups: how many of each group's cards its first seat gets
    grids = np.meshgrid(*[np.arange(len(m) + 1) for _, _, m in split], indexing="ij")
    firsts = np.stack([g.ravel() for g in grids], axis=1) if split else np.zeros((1, 0), np.int64)
    rest = np.tile(np.array([need[s] - fixed[s] for s in others], np.int64), (len(firsts), 1))
    log_weight = np.zeros(len(firsts))
    lf = _log_factorials(len(cards))
    for g, (a, b, members) in enumerate(split):
        x = firsts[:, g]
        rest[:, others.index(a)] -= x
        rest[:, others.index(b)] -= len(members) - x
        log_weight -= lf[x] + lf[len(members) - x]
    valid = (rest >= 0).all(axis=1)
    if not valid.any():
        raise ValueError("no deal is consistent with this view (voids and hand sizes contradict)")
    log_weight = np.where(valid, log_weight - lf[np.maximum(rest, 0)].sum(axis=1), -np.inf)
    weight = np.exp(log_weight - log_weight.max())
    pick = rng.choice(len(firsts), size=count, p=weight / weight.sum())
    rows = np.tile(np.array(known, dtype=np.uint64), (count, 1))
    for seats, members in groups.items():
        if len(seats) == 1:
            rows[:, seats[0]] |= np.uint64(sum(1 << c for c in members))
    for g, (a, b, members) in enumerate(split):
        _deal_in_order(rows, members, [a, b], np.stack([firsts[pick, g], len(members) - firsts[pick, g]], 1), rng)
    if free:
        _deal_in_order(rows, free, others, rest[pick], rng)
    return rows


def _deal_in_order(rows: np.ndarray, members: list[int], seats: list[int], counts: np.ndarray,
                   rng: np.random.Generator) -> None:
    """Shuffle ``members`` once per row and give the first ``counts[r, 0]`` to ``seats[0]``, the next
    ``counts[r, 1]`` to ``seats[1]``, and so on."""
    order = np.argsort(rng.random((len(rows), len(members))), axis=1)
    bits = np.array([1 << c for c in members], dtype=np.uint64)[order]
    position = np.arange(len(members))[None, :]
    upper = np.cumsum(counts, axis=1)
    lower = upper - counts
    for k, seat in enumerate(seats):
        mine = (position >= lower[:, k:k + 1]) & (position < upper[:, k:k + 1])
        rows[:, seat] |= np.bitwise_or.reduce(np.where(mine, bits, np.uint64(0)), axis=1)


def _log_factorials(n: int) -> np.ndarray:
    return np.concatenate([[0.0], np.cumsum(np.log(np.arange(1, n + 1)))])


def _plays_imply_more_than_voids(view: SeatView) -> bool:
    """Whether some play may say more about a hand than :func:`possible_cards` does, so that worlds
    are replayed to be sure: a penalty card led or discarded on the first trick under
    ``no_pts_on_first_trick``, or a heart led before hearts broke when Q♠ may be held back
    (``can_lead_hearts_instead_of_qs``). Every other play is legal in any world that respects the
    voids: following suit always is, a discard is once the void is respected, and a lead is unless
    it is a heart before hearts broke (then the seat held only hearts: voids)."""
    rules = view.rules
    t = tables_of(rules)
    broken = not rules.must_break_hearts
    plays = view.plays
    for k, card in enumerate(plays):
        if (k < 4 and rules.no_pts_on_first_trick and t.penalty_cards >> card & 1
                and (k == 0 or t.suit_of(card) != t.suit_of(plays[0]))):
            return True
        if k % 4 == 0 and t.hearts >> card & 1 and not broken and rules.can_lead_hearts_instead_of_qs:
            return True
        if t.breaks_hearts >> card & 1:
            broken = True
    return False


def _replays_legally(view: SeatView, hands: np.ndarray) -> np.ndarray:
    """Which rows of ``hands`` (the hands now) make every play of the deal legal, replayed at once."""
    starts = hands | np.array(view.played_by, dtype=np.uint64)
    deals = VectorDeals(view.rules, starts, np.zeros(len(hands), np.int8), dealers=view.dealer)
    alive = np.ones(len(hands), bool)
    column = np.zeros(len(hands), np.int64)
    one = np.uint64(1)
    for card in view.plays:
        alive &= (deals.legal_masks() >> np.uint64(card)) & one == one
        column[:] = card
        deals.step(column, only=alive)
    return alive
