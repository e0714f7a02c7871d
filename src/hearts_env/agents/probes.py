"""Probes: players that look for one weakness of the agents they sit with, no training needed.

They measure robustness (``hearts-env exploit``, docs/reference.md): one probe seat against three copies of an
agent, on duplicate deals. Each plays as ``heuristic`` except where it presses its one idea:

- ``moon-seeker`` tries to shoot the moon in every deal: it passes its lowest cards (they win no trick), and while no
  other seat has taken a scoring card it leads and follows high and discards non-penalty cards; once the moon
  is gone it plays on as ``heuristic``. How often it shoots against an agent is how well the agent stops a moon.
- ``queen-dumper`` tries to hand Q♠ to the others: it never passes Q♠ while it has another card to pass, and
  plays Q♠ on any trick it cannot win with it (a void in the led suit, or spades led and K♠ or A♠ already on the
  trick). How much it gains is how well the agent guards against the queen.
"""

from __future__ import annotations

from hearts_env.agents import register_agent
from hearts_env.agents.basic import HeuristicAgent, pass_danger
from hearts_env.cards import HEARTS, SPADES, iter_cards
from hearts_env.engine import Phase
from hearts_env.tables import RuleTables, tables_of
from hearts_env.views import SeatView


class _Probe(HeuristicAgent):
    """``heuristic`` with no parameters, except at the decisions where :meth:`press` returns a card."""

    def __init__(self) -> None:
        super().__init__()

    def act(self, view: SeatView) -> int:
        c = tables_of(view.rules)
        legal = list(iter_cards(view.legal))
        if len(legal) == 1:
            return legal[0]
        card = self.press(view, legal, c)
        return super().act(view) if card is None else card

    def press(self, view: SeatView, legal: list[int], c: RuleTables) -> int | None:
        """The probe's own card at this decision, or None to play as ``heuristic``."""
        raise NotImplementedError


class MoonSeekerAgent(_Probe):
    """Tries to shoot the moon in every deal (see the module docstring)."""

    name = "moon-seeker"

    def press(self, view: SeatView, legal: list[int], c: RuleTables) -> int | None:
        if view.phase == Phase.PASS:  # keep the high cards (of equal ranks, pass a heart last)
            return min(legal, key=lambda card: (c.rank_of(card), c.suit_of(card) == HEARTS))
        if any(view.taken[s] & c.scoring_cards for s in range(4) if s != view.seat):  # the moon is gone
            return None
        return self._shoot(view, legal, c)


class QueenDumperAgent(_Probe):
    """Tries to hand Q♠ to the other seats (see the module docstring)."""

    name = "queen-dumper"

    def press(self, view: SeatView, legal: list[int], c: RuleTables) -> int | None:
        if view.phase == Phase.PASS:
            keep = [card for card in legal if card != c.qs] or legal
            return max(keep, key=lambda card: pass_danger(card, view.hand & ~view.passed, c, guard=True))
        if c.qs in legal and view.trick and (c.suit_of(view.trick[0]) != SPADES or view.winning_card > c.qs):
            return c.qs  # it cannot win this trick: whoever does takes the queen
        return None


register_agent("moon-seeker", MoonSeekerAgent)
register_agent("queen-dumper", QueenDumperAgent)
