"""One deal of Hearts as pure JAX functions: :class:`State`, :func:`init`, :func:`init_from_hands`,
:func:`step`, :func:`legal_action_mask`, :func:`legal_words` and :func:`random_legal_action`.

The same rules as :class:`hearts_env.engine.Deal` (tests/test_jax_engine.py replays card sequences through
both under every rule field): passing (each seat 0, 1, 2, 3 in turn chooses ``pass_count`` cards one at a
time; the cards change hands after the last one), the opening lead, following suit, the first-trick bar,
breaking hearts, the lone-Q♠ lead, scoring with every moon mode and both bonuses. Every function works on
one deal and is branch-free (``jnp.where`` selects), so ``jax.vmap`` batches it and ``jax.jit`` compiles it
once per deck size.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import jax  # type: ignore[import-not-found, unused-ignore]  # the optional jax extra
import jax.numpy as jnp  # type: ignore[import-not-found, unused-ignore]

from hearts_env.engine import Phase
from hearts_env.jax._rules import MOON_ADD, MOON_CHOICE, MOON_OFF, MOON_SUBTRACT, RulesData

PASS, PLAY, DONE = int(Phase.PASS), int(Phase.PLAY), int(Phase.DONE)
U32 = jnp.uint32
I32 = jnp.int32

__all__ = ["DONE", "PASS", "PLAY", "State", "deal_hands", "draw_direction", "init", "init_from_hands", "kth_card",
           "legal_action_mask", "legal_words", "penalty_points", "popcount", "random_legal_action", "score", "step",
           "to_mask", "to_words", "trick_points", "uniform_legal_action"]


class State(NamedTuple):
    """One deal (a pytree of arrays; stack them with ``vmap`` for a batch). Card sets are ``uint32[..., 4]``
    suit words (:mod:`hearts_env.jax._rules`). The fields mirror :class:`~hearts_env.engine.Deal`'s."""

    hands: Any  # uint32[4, 4] (seat, suit): the cards each seat holds (passes stay in until the exchange)
    passed: Any  # uint32[4, 4]: the cards each seat chose to pass
    played_by: Any  # uint32[4, 4]: the cards each seat played this deal (current trick included)
    taken: Any  # uint32[4, 4]: the cards in the tricks each seat won
    phase: Any  # int32: Phase.PASS / PLAY / DONE
    current: Any  # int32: the seat to act (-1 once the deal is over)
    leader: Any  # int32: the seat that leads the current trick (-1 while passing)
    trick: Any  # int32[4]: the cards of the current trick in play order (-1: none yet)
    trick_count: Any  # int32: cards on the table
    trick_index: Any  # int32: completed tricks
    hearts_broken: Any  # bool
    tricks_won: Any  # int32[4]
    voids: Any  # int32[4]: bit s = the seat did not follow suit s
    penalties: Any  # int32[4]: penalty points in the cards each seat took (no moon, no bonus), kept as tricks end
    trick_winners: Any  # int32[n / 4]: the winner of each completed trick (-1: not yet)
    points: Any  # int32[4]: the deal's points once it is over (moon and bonuses applied), else 0
    moon_shooter: Any  # int32: the seat that took every scoring card (-1: none)
    pass_direction: Any  # int32: 0 hold, 1 left, 2 across, 3 right
    dealer: Any  # int32
    game_scores: Any  # int32[4]: the game's scores before this deal (moon="shooter_choice" decides on them)


def popcount(words: Any) -> Any:
    """Cards in each set (``uint32[..., 4]`` → int32[...])."""
    return jax.lax.population_count(words).astype(I32).sum(-1)


def to_mask(words: Any, n: int) -> Any:
    """Suit words → ``bool[..., n]`` by card id."""
    rps = n // 4
    bits = (words[..., :, None] >> jnp.arange(rps, dtype=U32)) & U32(1)
    return bits.reshape(*words.shape[:-1], n).astype(bool)


def to_words(mask: Any) -> Any:
    """``bool[..., n]`` by card id → suit words."""
    n = mask.shape[-1]
    rps = n // 4
    bits = mask.reshape(*mask.shape[:-1], 4, rps).astype(U32) << jnp.arange(rps, dtype=U32)
    return bits.sum(-1, dtype=U32)


def _card_words(card: Any, rps: int) -> Any:
    """The suit words of one card id."""
    return jnp.where(jnp.arange(4) == card // rps, U32(1) << (card % rps).astype(U32), U32(0))


def _suit_words(suit: Any) -> Any:
    """Every card of ``suit`` (all 32 bits of its word)."""
    return jnp.where(jnp.arange(4) == suit, U32(0xFFFFFFFF), U32(0))


def _any(words: Any) -> Any:
    return (words != 0).any(-1)


def _first_player(hands: Any, dealer: Any, rules_data: RulesData) -> Any:
    """The opening leader: the holder of the deck's lowest club, or the seat left of the dealer."""
    holder = jnp.argmax((hands[:, 0] & U32(1)) != 0).astype(I32)
    return jnp.where(rules_data.lead_lowest_club, holder, (dealer + 1) & 3).astype(I32)


def init_from_hands(hands: Any, rules_data: RulesData, pass_direction: Any = 0, dealer: Any = 3,
                    game_scores: Any = None) -> State:
    """A deal from four hands (``uint32[4, 4]`` suit words, or ``bool[4, n]`` by card id), as
    :meth:`Deal.from_hands <hearts_env.engine.Deal.from_hands>` (no validation: pass valid hands). A pass
    direction under rules that never pass is taken as hold."""
    hands = jnp.asarray(hands)
    if hands.dtype == jnp.bool_:
        hands = to_words(hands)
    hands = hands.astype(U32)
    rps = rules_data.rps
    direction = jnp.where(rules_data.pass_count > 0, jnp.asarray(pass_direction, I32), 0)
    dealer = jnp.asarray(dealer, I32)
    scores = jnp.zeros(4, I32) if game_scores is None else jnp.asarray(game_scores, I32)
    passing = direction != 0
    first = _first_player(hands, dealer, rules_data)
    zeros = jnp.zeros((4, 4), U32)
    return State(
        hands=hands, passed=zeros, played_by=zeros, taken=zeros,
        phase=jnp.where(passing, PASS, PLAY).astype(I32),
        current=jnp.where(passing, 0, first).astype(I32), leader=jnp.where(passing, -1, first).astype(I32),
        trick=jnp.full(4, -1, I32), trick_count=jnp.zeros((), I32), trick_index=jnp.zeros((), I32),
        hearts_broken=~jnp.asarray(rules_data.must_break_hearts), tricks_won=jnp.zeros(4, I32),
        voids=jnp.zeros(4, I32), penalties=jnp.zeros(4, I32), trick_winners=jnp.full(rps, -1, I32),
        points=jnp.zeros(4, I32), moon_shooter=jnp.asarray(-1, I32), pass_direction=direction, dealer=dealer,
        game_scores=scores)


def draw_direction(key: Any, rules_data: RulesData) -> Any:
    """A pass direction drawn uniformly from the rules' one-deal directions (as
    :func:`~hearts_env.rules.draw_pass_direction`: every entry of the schedule counts)."""
    k = jnp.floor(jax.random.uniform(key) * rules_data.n_one_deal).astype(I32)
    return rules_data.one_deal_directions[jnp.minimum(k, rules_data.n_one_deal - 1)]


def deal_hands(key: Any, n: int) -> Any:
    """Four shuffled hands (suit words): seat ``s`` gets cards ``perm[s*n/4 : (s+1)*n/4]``."""
    perm = jax.random.permutation(key, n)
    owner = jnp.zeros(n, I32).at[perm].set(jnp.arange(n, dtype=I32) // (n // 4))
    return to_words(owner[None, :] == jnp.arange(4)[:, None])


def init(key: Any, rules_data: RulesData, pass_direction: Any = None, dealer: Any = 3,
         game_scores: Any = None) -> State:
    """A shuffled deal. ``pass_direction=None`` draws it uniformly from the rules' one-deal directions (as
    :meth:`Deal.random <hearts_env.engine.Deal.random>`); give it (0..3) to pin it."""
    k_deal, k_dir = jax.random.split(key)
    direction = draw_direction(k_dir, rules_data) if pass_direction is None else pass_direction
    return init_from_hands(deal_hands(k_deal, rules_data.n), rules_data, direction, dealer, game_scores)


def legal_words(state: State, rules_data: RulesData) -> Any:
    """The cards the seat to act may pass or play, as suit words (0 once the deal is over)."""
    seat = jnp.maximum(state.current, 0)
    hand = state.hands[seat]
    tc, first_trick = state.trick_count, state.trick_index == 0
    zero = jnp.zeros(4, U32)
    led = jnp.maximum(state.trick[0], 0) // rules_data.rps
    legal = jnp.where(tc > 0, hand & _suit_words(led), zero)
    legal = jnp.where((tc == 0) & first_trick & rules_data.lead_lowest_club, hand & rules_data.opening_leads, legal)
    legal = jnp.where(~_any(legal) & first_trick, hand & rules_data.first_trick_only, legal)
    lead = jnp.where(state.hearts_broken, hand, hand & ~rules_data.hearts)
    lead_ok = _any(lead) & _any(lead != rules_data.lone_qs_lead)
    legal = jnp.where(~_any(legal) & (tc == 0) & lead_ok, lead, legal)
    legal = jnp.where(_any(legal), legal, hand)
    legal = jnp.where(state.phase == PASS, hand & ~state.passed[seat], legal)
    return jnp.where(state.phase == DONE, zero, legal)


def legal_action_mask(state: State, rules_data: RulesData) -> Any:
    """``bool[n]``: the legal cards by card id (all False once the deal is over)."""
    return to_mask(legal_words(state, rules_data), rules_data.n)


def random_legal_action(key: Any, state: State, rules_data: RulesData) -> Any:
    """A uniformly random legal card: :func:`uniform_legal_action` of one uniform draw; -1 once the deal is over."""
    return uniform_legal_action(jax.random.uniform(key), state, rules_data)


def uniform_legal_action(u: Any, state: State, rules_data: RulesData) -> Any:
    """The ``floor(u * count)``-th legal card (``0 <= u < 1``), as the batched engine picks a random card; -1
    once the deal is over. Draw the uniforms of many steps at once: one draw per step is the costly part."""
    return kth_card(legal_words(state, rules_data), u, rules_data.rps)


def kth_card(words: Any, u: Any, rps: int) -> Any:
    """The ``floor(u * count)``-th lowest card of a set (-1 for an empty set), by popcounts: the suit from the
    four words' counts, then the rank by halving the word."""
    counts = jax.lax.population_count(words).astype(I32)
    total = counts.sum()
    k = jnp.minimum(jnp.floor(u * total).astype(I32), total - 1)
    ends = jnp.cumsum(counts)
    suit = (ends <= k).sum()
    k = k - (ends - counts)[jnp.minimum(suit, 3)]
    word = words[jnp.minimum(suit, 3)]
    rank = jnp.zeros((), I32)
    for width in (8, 4, 2, 1):  # ranks 0..15: enough for 13
        low = jax.lax.population_count(word & U32((1 << width) - 1)).astype(I32)
        take = k >= low
        k = jnp.where(take, k - low, k)
        rank = jnp.where(take, rank + width, rank)
        word = jnp.where(take, word >> U32(width), word)
    return jnp.where(total > 0, suit * rps + rank, -1).astype(I32)


def penalty_points(taken: Any, rules_data: RulesData) -> Any:
    """Penalty points of card sets ``uint32[..., 4]`` (no moon, no bonus), as ``RuleTables.penalty_points_of``."""
    points = popcount(taken & rules_data.hearts) * rules_data.heart_points
    held = _any(taken[..., None, :] & rules_data.point_cards)  # (..., N_POINT_CARDS)
    return points + (held * rules_data.point_values).sum(-1)


def trick_points(cards: Any, rules_data: RulesData) -> Any:
    """Points of a set of cards: penalties minus the J♦ bonus (``Trick.points``)."""
    jd = rules_data.jd_bonus & _any(cards & rules_data.jd)
    return penalty_points(cards, rules_data) - jnp.where(jd, rules_data.jd_points, 0)


def score(taken: Any, tricks_won: Any, game_scores: Any, rules_data: RulesData) -> tuple[Any, Any]:
    """``(points int32[4], moon_shooter)`` of a finished deal, as :func:`hearts_env.scoring.score_deal`."""
    return _score(penalty_points(taken, rules_data), _any(taken & rules_data.jd), tricks_won, game_scores, rules_data)


def _score(penalties: Any, jd_taken: Any, tricks_won: Any, game_scores: Any, rules_data: RulesData) -> tuple[Any, Any]:
    """:func:`score` from each seat's penalty points and whether it took J♦. A seat took every scoring card
    exactly when its penalty points are the penalty total: every scoring card is worth more than 0, the others 0."""
    shoots = (rules_data.moon != MOON_OFF) & (penalties == rules_data.penalty_total)
    shooter = jnp.where(shoots.any(), jnp.argmax(shoots), -1).astype(I32)  # one seat at most
    seats = jnp.arange(4)
    n = rules_data.penalty_total
    after = game_scores + jnp.where(seats == shooter, 0, n)
    choose_subtract = (after.max() >= rules_data.target) & (after[jnp.maximum(shooter, 0)] > after.min())
    mode = jnp.where(rules_data.moon == MOON_CHOICE, jnp.where(choose_subtract, MOON_SUBTRACT, MOON_ADD),
                     rules_data.moon)
    moon_points = jnp.where(mode == MOON_ADD, jnp.where(seats == shooter, 0, n), jnp.where(seats == shooter, -n, 0))
    points = jnp.where(shooter >= 0, moon_points, penalties)
    points = points - jnp.where(rules_data.jd_bonus & jd_taken, rules_data.jd_points, 0)
    avoid = rules_data.avoid_bonus & (shooter < 0) & (tricks_won == 0)
    points = points - jnp.where(avoid, rules_data.avoid_points, 0)
    return points.astype(I32), shooter


def step(state: State, card: Any, rules_data: RulesData) -> State:
    """The seat to act passes or plays ``card`` (a legal card id: nothing is checked; check with
    :func:`legal_action_mask`). A finished deal is returned unchanged."""
    card = jnp.asarray(card, I32)
    rps = rules_data.rps
    seat = jnp.maximum(state.current, 0)
    seats = jnp.arange(4)
    me = seats == seat
    word = _card_words(card, rps)

    # passing
    passed = jnp.where(me[:, None], state.passed | word, state.passed)
    seat_done = popcount(passed[seat]) >= rules_data.pass_count
    exchange = seat_done & (seat == 3)
    d = state.pass_direction
    swapped = (state.hands & ~passed) | passed[(seats - d) & 3]
    first = _first_player(swapped, state.dealer, rules_data)
    passing = state._replace(
        passed=passed,
        hands=jnp.where(exchange, swapped, state.hands),
        phase=jnp.where(exchange, PLAY, PASS).astype(I32),
        current=jnp.where(exchange, first, jnp.where(seat_done, seat + 1, seat)).astype(I32),
        leader=jnp.where(exchange, first, state.leader).astype(I32))

    # playing
    tc = state.trick_count
    hands = jnp.where(me[:, None], state.hands ^ word, state.hands)
    played_by = jnp.where(me[:, None], state.played_by | word, state.played_by)
    trick = jnp.where(jnp.arange(4) == tc, card, state.trick)
    broken = state.hearts_broken | _any(word & rules_data.breaks_hearts)
    led = trick[0] // rps
    voids = jnp.where(me & (tc > 0) & (card // rps != led), state.voids | (1 << led), state.voids)
    full = tc == 3
    follows = (trick // rps) == led
    best = jnp.argmax(jnp.where(follows, trick, -1))
    winner = ((state.leader + best) & 3).astype(I32)
    trick_cards = jax.vmap(lambda c: _card_words(c, rps))(trick).sum(0, dtype=U32)  # the four distinct cards
    wins = full & (seats == winner)
    taken = jnp.where(wins[:, None], state.taken | trick_cards, state.taken)
    penalties = state.penalties + jnp.where(wins, penalty_points(trick_cards, rules_data), 0)
    tricks_won = state.tricks_won + wins
    trick_index = state.trick_index + full
    trick_winners = jnp.where(full & (jnp.arange(rps) == state.trick_index), winner, state.trick_winners)
    over = full & (trick_index == rps)
    points, shooter = _score(penalties, _any(taken & rules_data.jd), tricks_won, state.game_scores, rules_data)
    playing = state._replace(
        hands=hands, played_by=played_by, taken=taken, penalties=penalties.astype(I32),
        trick=jnp.where(full, -1, trick), trick_count=jnp.where(full, 0, tc + 1).astype(I32),
        trick_index=trick_index.astype(I32), hearts_broken=broken, tricks_won=tricks_won.astype(I32),
        voids=voids.astype(I32), trick_winners=trick_winners.astype(I32),
        leader=jnp.where(full, winner, state.leader).astype(I32),
        current=jnp.where(over, -1, jnp.where(full, winner, (seat + 1) & 3)).astype(I32),
        phase=jnp.where(over, DONE, PLAY).astype(I32),
        points=jnp.where(over, points, state.points).astype(I32),
        moon_shooter=jnp.where(over, shooter, state.moon_shooter).astype(I32))

    phase = state.phase
    return jax.tree_util.tree_map(
        lambda p, q, s: jnp.where(phase == PASS, p, jnp.where(phase == PLAY, q, s)), passing, playing, state)
