"""Bundled players: ``random``, ``greedy`` (paper 002 §2.1) and ``heuristic`` (a hand-written expert).

All three read only their :class:`~hearts_env.views.SeatView` and return a legal card.

``greedy`` follows Cai et al. 2024 §2.1 ("play high cards whenever possible while avoiding
taking points"): leading, it avoids hearts, leads its lowest spade while Q♠ is out, and
otherwise its highest card; following, it plays the highest card that stays under the trick's
winning card (else its lowest), and when void it dumps Q♠, else its highest card; last to play
on a trick without points, it takes the trick with its highest card (never Q♠). The paper does
not describe passing; ``greedy`` passes its most dangerous cards: Q♠, A♠, K♠, then the highest
hearts, then the highest cards.

``heuristic`` adds what experienced players do: it keeps Q♠/A♠/K♠ when its spades guard them
and passes them otherwise, voids a short minor suit, sheds high hearts; it ducks under the
winning card, takes a point-free trick late in position with a high card to shed it, dumps Q♠
and then dangerous high cards when void, leads low in safe suits and flushes Q♠ with low spades,
and stops a moon: when one opponent has taken every point so far (at least 8 of them), it
keeps penalty cards off that opponent's tricks and takes a trick with points itself when it can.
It shoots the moon (``shoot=True``) with a hand that can take it — at least five hearts topped
by A♥ K♥ and six tenths of its cards T or higher, judged on its hand after the exchange — and keeps
at it while no other seat holds a point: it then leads and follows high and discards non-penalty
cards. With ``chase=N`` (default 0: off) it also shoots, whatever its hand, once it alone holds points and at
least ``N`` of them — the moon a searcher's rollouts must see coming from a seat that has started one. It
keeps no state between moves (every choice is a function of the view), which is what lets the batched
engine reproduce it card for card (``VectorDeals.policy_actions("heuristic")``).
"""

from __future__ import annotations

from hearts_env.agents import Agent, register_agent
from hearts_env.cards import CLUBS, DIAMONDS, HEARTS, SPADES, iter_cards
from hearts_env.engine import Phase
from hearts_env.tables import RuleTables, tables_of
from hearts_env.views import SeatView


class RandomAgent(Agent):
    """Uniformly random legal card."""

    name = "random"

    def act(self, view: SeatView) -> int:
        legal = list(iter_cards(view.legal))
        return legal[int(self.rng.integers(len(legal)))]


class GreedyAgent(Agent):
    """Paper 002 §2.1's greedy player (see the module docstring).

    ``paper=True`` follows the paper's lead rule to the letter: it avoids leading a heart only while
    no heart has been played and its lowest card is not a heart (the default always avoids it).
    """

    name = "greedy"

    def __init__(self, paper: bool = False):
        super().__init__()
        if not isinstance(paper, bool):
            raise ValueError(f"greedy: paper must be True or False, got {paper!r}")
        self.paper = paper

    def act(self, view: SeatView) -> int:
        c = tables_of(view.rules)
        legal = list(iter_cards(view.legal))
        if view.phase == Phase.PASS:
            return max(legal, key=lambda card: pass_danger(card, view.hand, c, guard=False))
        qs_out = not (view.played >> c.qs) & 1
        if not view.trick:
            safe = [card for card in legal if c.suit_of(card) != HEARTS] or legal
            if self.paper and (view.played & c.hearts or _lowest_only_in_hearts(view.hand, c)):
                safe = legal
            spades = [card for card in safe if c.suit_of(card) == SPADES]
            if qs_out and spades:
                return min(spades)
            return max(safe, key=c.rank_of)
        led = c.suit_of(view.trick[0])
        following = [card for card in legal if c.suit_of(card) == led]
        if not following:
            return c.qs if c.qs in legal else max(legal, key=c.rank_of)
        winning = view.winning_card
        under = [card for card in following if card < winning]
        last = len(view.trick) == 3
        table = view.trick_mask
        if last and not table & c.penalty_cards:
            safe_high = [card for card in following if card != c.qs]
            if safe_high:
                return max(safe_high)
        return max(under) if under else min(following)


def _lowest_only_in_hearts(hand: int, c: RuleTables) -> bool:
    """The hand's lowest rank is held in hearts only (the paper's "the smallest card is a heart")."""
    low = min(c.rank_of(card) for card in iter_cards(hand))
    return all(c.suit_of(card) == HEARTS for card in iter_cards(hand) if c.rank_of(card) == low)


def pass_danger(card: int, hand: int, c: RuleTables, guard: bool) -> float:
    """How much a card wants to be passed (higher = pass first)."""
    suit, rank = c.suit_of(card), c.rank_of(card)
    score = float(rank)
    if card in (c.qs, c.ks, c.as_):
        low_spades = (hand & c.suits[SPADES] & ~(1 << c.qs | 1 << c.ks | 1 << c.as_)).bit_count()
        if not guard or low_spades < 3:
            score += 40 if card == c.qs else 30
    elif suit == HEARTS:
        score += 6
    elif guard and suit in (CLUBS, DIAMONDS) and (hand & c.suits[suit]).bit_count() <= 2:
        score += 20  # void a short minor suit
    return score


class HeuristicAgent(Agent):
    """A hand-written expert (see the module docstring)."""

    name = "heuristic"

    def __init__(self, moon_alarm: int = 8, shoot: bool = True, chase: int = 0):
        super().__init__()
        if isinstance(moon_alarm, bool) or not isinstance(moon_alarm, int) or not 0 <= moon_alarm < 2**31:
            raise ValueError(f"heuristic: moon_alarm must be a number of points, an integer 0..2**31-1 "
                             f"(the batched engine holds it in int64), got {moon_alarm!r}")
        if not isinstance(shoot, bool):
            raise ValueError(f"heuristic: shoot must be True or False, got {shoot!r}")
        if isinstance(chase, bool) or not isinstance(chase, int) or not 0 <= chase < 2**31:
            raise ValueError(f"heuristic: chase must be a number of points (0: off), an integer 0..2**31-1, "
                             f"got {chase!r}")
        self.moon_alarm = moon_alarm
        self.shoot = shoot
        self.chase = chase

    def act(self, view: SeatView) -> int:
        c = tables_of(view.rules)
        legal = list(iter_cards(view.legal))
        if len(legal) == 1:
            return legal[0]
        if view.phase == Phase.PASS:
            return max(legal, key=lambda card: pass_danger(card, view.hand & ~view.passed, c, guard=True))
        if not any(view.taken[s] & c.penalty_cards for s in range(4) if s != view.seat) and (  # nobody else has a point
                (self.shoot and self._strong_enough(view, c))
                or (self.chase and view.points_taken[view.seat] >= self.chase)):
            return self._shoot(view, legal, c)
        shooter = self._moon_threat(view)
        if not view.trick:
            return self._lead(view, legal, c)
        return self._follow(view, legal, c, shooter)

    def _strong_enough(self, view: SeatView, c: RuleTables) -> bool:
        """The hand after the exchange can take every point: at least 5 hearts topped by A♥ K♥,
        and six tenths of its cards T or higher."""
        hand = view.hand | view.played_by[view.seat]
        hearts = hand & c.suits[HEARTS]
        top = 3 << (c.suits[HEARTS].bit_length() - 2)
        if hearts.bit_count() < 5 or hearts & top != top:
            return False
        high = sum(1 for card in iter_cards(hand) if c.rank_of(card) >= c.ranks_per_suit - 5)
        return high * 10 >= 6 * hand.bit_count()

    def _shoot(self, view: SeatView, legal: list[int], c: RuleTables) -> int:
        if not view.trick:
            return max(legal, key=lambda card: (c.rank_of(card), c.suit_of(card) != HEARTS))
        led = c.suit_of(view.trick[0])
        following = [card for card in legal if c.suit_of(card) == led]
        if following:
            return max(following)
        keep = [card for card in legal if not (c.penalty_cards >> card) & 1]
        return min(keep or legal, key=c.rank_of)

    def _moon_threat(self, view: SeatView) -> int | None:
        pts = view.points_taken
        scorers = [s for s in range(4) if view.taken[s] & view.rules.deck_obj.full_mask
                   and pts[s] > 0]
        if len(scorers) == 1 and scorers[0] != view.seat and pts[scorers[0]] >= self.moon_alarm:
            return scorers[0]
        return None

    def _lead(self, view: SeatView, legal: list[int], c: RuleTables) -> int:
        qs_out = not (view.played >> c.qs) & 1
        mine = view.hand
        holds_high_spade = mine & (1 << c.qs | 1 << c.ks | 1 << c.as_)
        spades = [card for card in legal if c.suit_of(card) == SPADES and card < c.qs]
        if qs_out and spades and not holds_high_spade:
            return min(spades)  # flush the queen
        non_hearts = [card for card in legal if c.suit_of(card) != HEARTS and not (
            c.suit_of(card) == SPADES and mine >> c.qs & 1)] or legal
        # lead low in the suit where the lowest card is lowest relative to what is still out
        return min(non_hearts, key=lambda card: (c.rank_of(card), (mine & c.suits[c.suit_of(card)]).bit_count()))

    def _follow(self, view: SeatView, legal: list[int], c: RuleTables, shooter: int | None) -> int:
        led = c.suit_of(view.trick[0])
        winning = view.winning_card
        winner_seat = (view.leader + view.trick.index(winning)) & 3
        table = view.trick_mask
        following = [card for card in legal if c.suit_of(card) == led]
        last = len(view.trick) == 3
        if shooter is not None and table & c.penalty_cards and winner_seat == shooter:
            above = [card for card in following if card > winning]
            if above:
                return min(above)  # take the points away from the shooter
        if following:
            under = [card for card in following if card < winning]
            if last and not table & c.penalty_cards and not (led == SPADES and c.qs in following and winning < c.qs):
                safe = [card for card in following if card != c.qs]
                return max(safe or following)  # a free trick: shed a high card
            if under:
                return max(under)
            if led == SPADES and c.qs in following and len(following) > 1:
                following.remove(c.qs)
            return max(following) if last else min(following)
        # void in the led suit: discard
        if shooter is not None and winner_seat == shooter:
            clean = [card for card in legal if not (c.penalty_cards >> card) & 1]
            if clean:
                return max(clean, key=c.rank_of)
        if c.qs in legal:
            return c.qs
        qs_out = not (view.played >> c.qs) & 1
        for danger in (c.as_, c.ks):
            if qs_out and danger in legal and not view.hand >> c.qs & 1:
                return danger
        hearts = [card for card in legal if c.suit_of(card) == HEARTS]
        if hearts:
            return max(hearts)
        return max(legal, key=lambda card: (c.rank_of(card), -(view.hand & c.suits[c.suit_of(card)]).bit_count()))


register_agent("random", RandomAgent)
register_agent("greedy", GreedyAgent)
register_agent("heuristic", HeuristicAgent)
