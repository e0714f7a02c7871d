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
(leading a heart before hearts were broken), who holds the lowest club when it must open the first
trick, and the legality of every card played (a world in which some past play would have been
illegal is rejected and redrawn). The
unseen cards are dealt at random among the other seats under those constraints: uniformly when no
void constrains them; with voids, by a random greedy assignment (with an exact matching as the
fallback, so a consistent world is always found) that is close to, but not exactly, uniform.

During passing (for the seat choosing its passes), the others' hands are the unseen cards split at
random, and the seats that chose their passes before this one (unknown cards) are given random
passes from their sampled hands.
"""

from __future__ import annotations

import numpy as np

from hearts_env.engine import Deal, IllegalActionError, Phase
from hearts_env.views import SeatView


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def sample_hands(view: SeatView, rng: np.random.Generator) -> list[int]:
    """The four hands now, as masks: the seat's own, and the others' drawn as in the module docstring."""
    deck = view.rules.deck_obj
    rps = deck.ranks_per_suit
    me = view.seat
    others = [s for s in range(4) if s != me]
    hands = [0, 0, 0, 0]
    hands[me] = view.hand
    need = {}
    opener = -1  # before the first card, the seat to lead holds the lowest club (when it must lead it)
    if view.rules.opening_lead == "lowest_club" and view.phase == Phase.PLAY and not view.plays:
        opener = view.current
    for s in others:
        known = view.known_held_by(s) | (1 if s == opener else 0)
        hands[s] = known
        need[s] = view.hand_size(s) - known.bit_count()
    cards = _bits(view.unseen & ~(1 if opener in others else 0))
    if sum(need.values()) != len(cards):
        raise ValueError(f"inconsistent view: {len(cards)} unseen cards for {sum(need.values())} places")
    voids = inferred_voids(view)
    allowed = {c: [s for s in others if not voids[s] >> (c // rps) & 1] for c in cards}
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
    deck = rules.deck_obj
    rps = deck.ranks_per_suit
    qs = deck.card(3, "Q")
    others = 0b1011 if not rules.can_lead_hearts_instead_of_qs else 0b0011  # ♣ ♦ (♠ unless Q♠ may be held)
    broken = False
    plays = view.plays
    for k, card in enumerate(plays):
        if k % 4 == 0 and card // rps == 2 and not broken and k > 0:
            voids[_player(view, k)] |= others
        if card // rps == 2 or (card == qs and rules.qs_breaks_hearts):
            broken = True
    return voids


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
    hands = sample_hands(view, rng)
    if view.phase == Phase.PASS:
        if view.current != view.seat:
            raise ValueError("during passing, worlds are sampled for the seat choosing its passes "
                             f"(seat {view.current}), not seat {view.seat}")
        world = Deal.from_hands(rules, hands, pass_direction=view.pass_direction, dealer=view.dealer,
                                game_scores=view.game_scores)
        for seat in range(view.seat):  # their passes are chosen but unknown: random ones
            for card in rng.choice(_bits(hands[seat]), rules.pass_count, replace=False).tolist():
                world.apply(int(card))
        for card in _bits(view.passed):
            world.apply(card)
        return world
    for _ in range(MAX_ATTEMPTS):
        start = [hands[s] | view.played_by[s] for s in range(4)]  # hands after the exchange, before any play
        world = Deal.from_hands(rules, start, pass_direction="hold", dealer=view.dealer, game_scores=view.game_scores)
        try:
            return world.apply_all(view.plays)
        except IllegalActionError:  # a rarer inference (e.g. first-trick discards) ruled this world out
            hands = sample_hands(view, rng)
    raise ValueError(f"no world consistent with the plays found in {MAX_ATTEMPTS} samples")


MAX_ATTEMPTS = 200
