"""``openspiel-ismcts``: OpenSpiel's C++ ISMCTS bot as an agent (external reference; the ``oracle`` extra).

At each decision the agent samples a world consistent with its own view *with its past*
(:func:`hearts_env.worlds.sample_history`: the hands as dealt, the seat's true passes and received cards, every
play; so it never sees hidden cards), replays it into ``pyspiel``'s hearts game
(:mod:`hearts_env.openspiel_bridge`) and asks ``pyspiel.ISMCTSBot`` for the move; the bot resamples
worlds from the information state itself, which is therefore the seat's true one (the cards it passed and
received included: before 2026-11-27 the world was a deal without passing, and the bot knew neither). It
plays passes too (see ``_world`` for how). Rules must be expressible in OpenSpiel (the ``openspiel`` preset
and its flag variations); others give :class:`~hearts_env.openspiel_bridge.OpenSpielUnsupported`.

Defaults: ``simulations=1000``, ``uct_c=2.0`` (OpenSpiel's example value), random-rollout evaluator
with ``rollouts=1``, final move by maximum visit count.

Its seed does not fix its play: ``ISMCTSBot`` breaks ties between equally valued children by their order
in an ``absl::flat_hash_map``, which Abseil salts per table, so one seed and one position can give
different cards (docs/benchmark.md: its quick and full runs agree in their margins, not card for card).
"""

from __future__ import annotations

from collections.abc import Sequence

from hearts_env.agents import Agent
from hearts_env.cards import from_openspiel, iter_cards
from hearts_env.engine import Deal, Phase
from hearts_env.openspiel_bridge import load_game, mirror_deal
from hearts_env.rules import Rules
from hearts_env.views import SeatView
from hearts_env.worlds import sample_hands, sample_history


class OpenSpielISMCTSAgent(Agent):
    """See the module docstring."""

    name = "openspiel-ismcts"

    def __init__(self, simulations: int = 1000, uct_c: float = 2.0, rollouts: int = 1,
                 time_limit: float | None = None):
        super().__init__()
        self.simulations, self.uct_c, self.rollouts, self.time_limit = simulations, uct_c, rollouts, time_limit
        self._game = None
        self._rules: Rules | None = None

    def reset(self, rules: Rules, seat: int, seed: int | Sequence[int] | None = None) -> None:
        super().reset(rules, seat, seed)
        if self._rules != rules:
            self._game = load_game(rules)  # raises OpenSpielUnsupported for rules OpenSpiel lacks
            self._rules = rules

    def act(self, view: SeatView) -> int:
        import pyspiel

        legal = view.legal
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1
        seed = int(self.rng.integers(2**31))
        evaluator = pyspiel.RandomRolloutEvaluator(self.rollouts, seed)
        args = [seed, evaluator, self.uct_c, self.simulations, -1, pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
                False, False]
        if self.time_limit is not None:  # ISMCTSBot's max_wall_clock_time: open-spiel 2.0 and later
            args.append(self.time_limit)
        try:
            bot = pyspiel.ISMCTSBot(*args)
        except TypeError as e:
            if self.time_limit is None:
                raise
            raise RuntimeError("openspiel-ismcts(time_limit=...) needs open-spiel >= 2.0") from e
        state = mirror_deal(self._game, self._world(view))
        card = from_openspiel(bot.step(state))
        if not legal >> card & 1:
            raise RuntimeError(f"OpenSpiel's ISMCTS returned card {card}, not legal here")
        return card

    def _world(self, view: SeatView) -> Deal:
        """A world for the bot. While passing, seats are rotated so that this seat is seat 0 and
        chooses first: OpenSpiel's ISMCTS crashes (segfault, open-spiel 2.0.2) resampling the
        information state of a seat whose predecessors have already passed. Pass choices of the
        others are unknown to this seat anyway, so the rotation hides nothing and shows nothing."""
        if view.phase != Phase.PASS:
            return sample_history(view, self.rng)
        hands = sample_hands(view, self.rng)
        rotated = [hands[(view.seat + i) % 4] for i in range(4)]
        world = Deal.from_hands(view.rules, rotated, pass_direction=view.pass_direction)
        for card in iter_cards(view.passed):
            world.apply(card)
        return world
