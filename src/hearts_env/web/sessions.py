"""What the page shows and does, without the web framework: games (play and watch), replays of arena
records, searcher hints, and the JSON-ready state of a table.

A table's state is built from :class:`~hearts_env.views.SeatView` when it is one seat's view, so the
page can never be sent a card that seat may not know; only the god view (watching, replaying) reads
the :class:`~hearts_env.engine.Deal` itself.
"""

from __future__ import annotations

import re
import secrets
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hearts_env.agents import Agent, AgentError, AgentSpec, agent_names, make_agent
from hearts_env.agents.failures import FailureReport, card_of, describe, first_line
from hearts_env.cards import card_name, iter_cards, to_mask
from hearts_env.engine import Deal, IllegalActionError, Phase, mask_points
from hearts_env.evaluation.arena import read_records, replay_record
from hearts_env.match import Match
from hearts_env.rules import Rules, make_rules
from hearts_env.views import SeatView

PERSON = "you"
"""The seat spec that marks the person's seat in a new game."""


class Refused(ValueError):
    """A request the server will not carry out; the message says why (HTTP 400)."""


class NotFound(LookupError):
    """An unknown session id, record file, game, deal or step (HTTP 404)."""


class Conflict(RuntimeError):
    """A request that does not fit the game's state: not your turn, deal not over... (HTTP 409)."""


# Agent specs a request may name -----------------------------------------------------------------
_WORD = re.compile(r"^[A-Za-z_][\w-]*$")
_FILE_WORDS = ("weight", "path", "file", "dir", "model", "load", "save", "out", "log", "zip")


class AgentSpecs:
    """Which agent specs requests may use: registered names (``heuristic``, ``pimc(n=100)``) with
    arguments that are numbers, booleans, None or plain words (nested agent specs included); no
    argument that names a file. Any other spec (``pkg.module:Factory(k=v)``, ``sb3:PATH``) only if
    given at start (``hearts-env serve --agent SPEC``): a request must not import code or read files."""

    def __init__(self, extra: Sequence[str] = ()):
        self.extra = list(dict.fromkeys(extra))

    def offered(self) -> list[str]:
        return [*agent_names(), *self.extra]

    def check(self, spec: object) -> str:
        """``spec`` if a request may use it, else :class:`Refused` saying why."""
        if not isinstance(spec, str):
            raise Refused(f"an agent spec must be a string, got {spec!r}")
        if spec in self.extra:
            return spec
        try:
            parsed = AgentSpec.parse(spec)
        except AgentError as e:
            raise Refused(str(e)) from None
        if parsed.imports_code:
            raise Refused(f"agent spec {spec!r} imports code or reads a file, which a request may not; "
                          "start the server with --agent 'SPEC' to offer it")
        name, kwargs = parsed.target, parsed.kwargs
        if name not in agent_names():
            raise Refused(f"agent {name!r} is not offered here; registered agents: {', '.join(agent_names())}"
                          + (f"; given at start: {', '.join(self.extra)}" if self.extra else "")
                          + " (start the server with --agent 'SPEC' to offer another spec)")
        for key, value in kwargs.items():
            if any(word in key.lower() for word in _FILE_WORDS):
                raise Refused(f"agent spec {spec!r}: argument {key!r} may name a file, which a request may not; "
                              "start the server with --agent 'SPEC' to offer this spec")
            if isinstance(value, str) and not _WORD.match(value):
                self.check(value)  # a nested agent spec (policy="pimc(n=10)"), checked the same way
            elif not isinstance(value, str | int | float | bool | type(None)):
                raise Refused(f"agent spec {spec!r}: argument {key!r} must be a number, a boolean, None or a word")
        return spec

    def build(self, spec: str) -> Agent:
        self.check(spec)
        try:
            return make_agent(spec)
        except (AgentError, ValueError) as e:
            raise Refused(f"agent {spec!r}: {e}") from None


def rules_of(spec: object) -> Rules:
    if not isinstance(spec, str):
        raise Refused(f"rules must be a preset or spec string, got {spec!r}")
    try:
        return make_rules(spec)
    except ValueError as e:
        raise Refused(str(e)) from None


# JSON for the page --------------------------------------------------------------------------------
def card_json(card: int, deal: Deal) -> dict[str, Any]:
    label = card_name(card, deal.deck, symbols=True)
    return {"id": card, "name": card_name(card, deal.deck), "rank": label[:-1], "suit": label[-1],
            "red": label[-1] in "♥♦"}


def cards_json(cards: int | Sequence[int], deal: Deal) -> list[dict[str, Any]]:
    ids = list(iter_cards(cards)) if isinstance(cards, int) else list(cards)
    return [card_json(c, deal) for c in ids]


def table_state(deal: Deal, names: Sequence[str], viewer: int | None) -> dict[str, Any]:
    """The table as the page draws it: god view (``viewer=None``) or what seat ``viewer`` may know."""
    public = SeatView.of(deal, 0)  # the public fields are the same in every seat's view
    own = None if viewer is None else SeatView.of(deal, viewer)
    seats = []
    for s in range(4):
        entry: dict[str, Any] = {"seat": s, "name": names[s], "hand": None, "passed": None, "received": None,
                                 "hand_size": public.hand_size(s), "tricks": public.tricks_won[s],
                                 "points_taken": public.points_taken[s], "taken": cards_json(public.taken[s], deal)}
        if own is None:
            entry.update(hand=cards_json(deal.hands[s], deal), passed=cards_json(deal.passed[s], deal),
                         received=cards_json(deal.received(s), deal))
        elif s == viewer:
            entry.update(hand=cards_json(own.hand, deal), passed=cards_json(own.passed, deal),
                         received=cards_json(own.received, deal))
        seats.append(entry)
    legal = (deal.legal_mask() if not deal.is_over else 0) if own is None else own.legal
    tricks = public.completed_tricks()
    last = None
    if tricks:
        leader, cards, winner = tricks[-1]
        last = {"leader": leader, "winner": winner, "points": mask_points(deal.rules, to_mask(cards)),
                "cards": [{"seat": (leader + i) % 4, "card": card_json(c, deal)} for i, c in enumerate(cards)]}
    return {
        "phase": public.phase.name.lower(), "pass_direction": deal.pass_direction_name,
        "pass_count": deal.rules.pass_count if deal.pass_direction else 0,
        "viewer": viewer, "current": None if deal.is_over else public.current, "leader": public.leader,
        "trick_index": public.trick_index, "num_tricks": deal.num_tricks, "hearts_broken": public.hearts_broken,
        "trick": [{"seat": (public.leader + i) % 4, "card": card_json(c, deal)} for i, c in enumerate(public.trick)],
        "last_trick": last, "seats": seats, "legal": cards_json(legal, deal),
        "points": public.final_points, "moon_shooter": public.moon_shooter, "moon_possible": deal.moon_possible(),
        "dealer": public.dealer, "rules": deal.rules.spec(),
    }


# Hints --------------------------------------------------------------------------------------------
def hint(deal: Deal, seat: int, agent: Agent, spec: str, seed: int | Sequence[int]) -> dict[str, Any]:
    """What ``agent`` (a searcher) would play for ``seat`` now, from that seat's view only. With a
    searcher that has ``candidates(view)`` and ``evaluate(view, cards, n)`` (``pimc``), its estimate
    for every candidate card: the seat's mean points over sampled worlds (lower is better)."""
    if deal.is_over or deal.current != seat:
        raise Conflict(f"seat {seat} is not to act")
    agent.reset(deal.rules, seat, seed)
    view = SeatView.of(deal, seat)
    estimates = None
    candidates, evaluate = getattr(agent, "candidates", None), getattr(agent, "evaluate", None)
    if view.phase == Phase.PLAY and view.legal.bit_count() > 1 and callable(candidates) and callable(evaluate):
        cards = list(candidates(view))
        means = [float(x) for x in evaluate(view, cards, int(getattr(agent, "n", 100)))]
        order = sorted(range(len(cards)), key=lambda k: means[k])
        estimates = [{"card": card_json(cards[k], deal), "mean_points": round(means[k], 3)} for k in order]
        choice = cards[order[0]]
        note = f"{spec}: mean points of seat {seat} after each card over sampled worlds (lower is better)"
    else:
        choice = int(agent.act(view))
        note = (f"{spec} passes with its passing player" if view.phase == Phase.PASS else
                f"{spec} gives no per-card estimates here" if view.legal.bit_count() > 1 else "only one legal card")
    return {"spec": spec, "seat": seat, "card": card_json(choice, deal), "estimates": estimates, "note": note}


# Games: play (one seat is the person) and watch (four agents) -----------------------------------
class Game:
    """A game (one deal or to the target) at one table: agents in some seats, at most one person."""

    def __init__(self, rules: Rules, agents: Sequence[Agent | None], specs: Sequence[str], seed: int,
                 failures: FailureReport | None = None):
        self.id = secrets.token_urlsafe(12)
        self.failures = failures  # the server's log of the agents' failures, their tracebacks
        self.lock = threading.Lock()
        self.rules, self.seed, self.specs = rules, seed, list(specs)
        self.agents = list(agents)
        persons = [s for s, a in enumerate(self.agents) if a is None]
        self.person = persons[0] if persons else None
        self.names = [PERSON if a is None else f"seat {s}: {specs[s]}" for s, a in enumerate(self.agents)]
        self.match = Match(rules, seed=seed)
        self.log: list[str] = []
        self.error: str | None = None
        self._start_deal()

    def _start_deal(self) -> None:
        deal = self.match.deal
        self._say(f"deal {self.match.deal_index + 1}: pass {deal.pass_direction_name}")
        for seat, agent in enumerate(self.agents):
            if agent is not None and self.error is None:
                self._agent(seat, "reset", agent.reset, self.rules, seat, seed=[self.seed, self.match.deal_index, seat])

    def _agent(self, seat: int, where: str, call: Callable[..., Any], *args: Any, **kwargs: Any) -> bool:
        """``call(*args, **kwargs)`` of seat ``seat``'s agent; whatever it raises stops the game: its line on the page
        (and the server's terminal), its traceback in the server's log. Whether it returned without an error."""
        try:
            call(*args, **kwargs)
            return True
        except Exception as e:
            illegal = isinstance(e, IllegalActionError)
            text = str(e) if illegal else describe(e)
            spec = self.specs[seat]
            self.error = f"seat {seat} ({spec}) failed in {where}, deal {self.match.deal_index + 1}: {first_line(text)}"
            self._say(self.error)
            if self.failures is not None:
                self.failures.add(spec, "illegal" if illegal else "exception",
                                  f"game {self.id}, deal {self.match.deal_index + 1}, {where}", text)
                print(f"hearts-env serve: {self.error}; its traceback in {self.failures.log}", file=sys.stderr)
            return False

    def _say(self, line: str) -> None:
        self.log = [*self.log[-29:], line]

    @property
    def deal(self) -> Deal:
        return self.match.deal

    def _name(self, seat: int) -> str:
        return PERSON if seat == self.person else f"seat {seat}"

    def _apply(self, seat: int, card: int) -> None:
        deal = self.deal
        passing = deal.phase == Phase.PASS
        trick = deal.apply(card)  # IllegalActionError for an illegal card: nothing changed
        label = card_name(card, deal.deck, symbols=True)
        if passing:
            if seat == self.person:
                self._say(f"you pass {label}")
            if deal.phase != Phase.PASS:
                self._say("the passed cards are exchanged")
        else:
            self._say(f"{self._name(seat)} {'play' if seat == self.person else 'plays'} {label}")
        if trick is not None:
            self._say(f"{self._name(trick.winner)} {'take' if trick.winner == self.person else 'takes'} "
                      f"trick {trick.index + 1} ({trick.points} point{'' if trick.points == 1 else 's'})")
        if deal.is_over:
            for s, agent in enumerate(self.agents):
                if agent is not None and self.error is None:
                    self._agent(s, "end_deal", agent.end_deal, SeatView.of(deal, s))
            moon = f"; {self._name(deal.moon_shooter)} shot the moon!" if deal.moon_shooter is not None else ""
            self._say(f"deal over: points {deal.points}{moon}")
            if self.match.is_over:
                self._say(f"game over: scores {self.match.scores_after_deal()}, "
                          f"winner(s) {', '.join(self._name(w) for w in self.match.winners())}")

    def move(self, card: int) -> None:
        """The person's card (a pass or a play)."""
        deal = self.deal
        if self.person is None:
            raise Conflict("this game has no person's seat: agents play every card (step)")
        if deal.is_over:
            raise Conflict("the deal is over" + ("; start the next deal" if not self.match.is_over else ""))
        if deal.current != self.person:
            raise Conflict(f"it is seat {deal.current}'s turn, not yours: let the agents play (step)")
        self._apply(self.person, card)

    def step(self) -> None:
        """One card by the agent to act."""
        deal = self.deal
        if self.error is not None:
            raise Conflict(f"the game stopped: {self.error}")
        if deal.is_over:
            raise Conflict("the deal is over" + ("; start the next deal" if not self.match.is_over else ""))
        seat = deal.current
        agent = self.agents[seat]
        if agent is None:
            raise Conflict("it is your turn")

        def play() -> None:
            card = card_of(agent.act(SeatView.of(deal, seat)), deal.deck.size - 1)
            self._apply(seat, card)  # an illegal card (IllegalActionError) is the agent's failure too

        self._agent(seat, "act", play)

    def next_deal(self) -> None:
        if not self.deal.is_over:
            raise Conflict("the deal is not over")
        if self.match.next_deal() is None:
            raise Conflict("the game is over")
        self._start_deal()

    def state(self, viewer: int | None) -> dict[str, Any]:
        """``viewer`` None: god view (refused while a person plays); else that seat's view."""
        if self.person is not None and viewer != self.person:
            raise Refused("while you play, the page shows your seat's view only")
        deal = self.deal
        state = table_state(deal, self.names, viewer)
        state.update(id=self.id, kind="play" if self.person is not None else "watch", person=self.person,
                     specs=self.specs, seed=self.seed, deal_index=self.match.deal_index, game=self.rules.game,
                     target=self.rules.target, scores=list(self.match.scores),
                     scores_after=self.match.scores_after_deal(), game_over=self.match.is_over,
                     winners=self.match.winners() if self.match.is_over else None,
                     your_turn=self.person is not None and deal.current == self.person and not deal.is_over,
                     error=self.error, log=self.log)
        return state


class Sessions:
    """Games in memory, keyed by a random id; the oldest are dropped beyond ``limit``."""

    def __init__(self, limit: int = 64):
        self.limit = limit
        self.failures = FailureReport()  # the agents' failures of every game, their tracebacks (made at the first)
        self._games: OrderedDict[str, Game] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, game: Game) -> Game:
        with self._lock:
            self._games[game.id] = game
            while len(self._games) > self.limit:
                self._games.popitem(last=False)
        return game

    def get(self, game_id: str) -> Game:
        with self._lock:
            game = self._games.get(game_id)
        if game is None:
            raise NotFound(f"no game with id {game_id!r} (games live in this server's memory until it stops, "
                           "the oldest beyond 64 dropped): start a new one")
        return game


def new_game(seats: Sequence[object], rules: object, seed: object, specs: AgentSpecs,
             failures: FailureReport | None = None) -> Game:
    """A game from four seat specs: agent specs, and :data:`PERSON` for the person's seat (at most one); its
    agents' failures logged in ``failures``."""
    if not isinstance(seats, list | tuple) or len(seats) != 4:
        raise Refused(f"give four seats (agent specs, or {PERSON!r} for your seat), got {seats!r}")
    if sum(s == PERSON for s in seats) > 1:
        raise Refused(f"at most one seat can be {PERSON!r}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63):
        raise Refused(f"seed must be an integer 0 <= seed < 2**63 or null, got {seed!r}")
    chosen = rules_of(rules)
    agents = [None if s == PERSON else specs.build(str(s)) for s in seats]
    for seat, agent in enumerate(agents):
        if agent is not None:
            try:
                agent.reset(chosen, seat, seed=0)  # an agent that cannot play these rules is refused now
            except Exception as e:
                raise Refused(f"agent {seats[seat]!r} cannot play {chosen.spec()}: {first_line(describe(e))}") from None
    return Game(chosen, agents, [str(s) for s in seats], secrets.randbelow(10**6) if seed is None else seed,
                failures)


# Replays of arena records -------------------------------------------------------------------------
@dataclass
class RecordFile:
    """One ``--records`` file, read when first asked for (again when it changed on disk)."""

    path: Path
    records: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None
    stamp: tuple[float, int] | None = None

    def load(self) -> RecordFile:
        try:
            st = self.path.stat()
            if self.stamp == (st.st_mtime, st.st_size):
                return self
            self.records, self.error = list(read_records(self.path)), None
            self.stamp = (st.st_mtime, st.st_size)
        except (OSError, ValueError) as e:  # the page shows the file's name, not where it lives
            self.records, self.error, self.stamp = [], str(e).replace(str(self.path), self.path.name), None
        return self

    def summary(self, index: int) -> dict[str, Any]:
        self.load()
        return {"index": index, "name": self.path.name, "games": len(self.records), "error": self.error}


class Records:
    """The record files given at start, by index: a request never names a path."""

    def __init__(self, paths: Sequence[Path]):
        self.files = [RecordFile(Path(p)) for p in paths]

    def summaries(self) -> list[dict[str, Any]]:
        return [f.summary(k) for k, f in enumerate(self.files)]

    def file(self, index: int) -> RecordFile:
        if not 0 <= index < len(self.files):
            raise NotFound(f"no record file {index}: the server was given {len(self.files)} (0..{len(self.files) - 1})"
                           if self.files else f"no record file {index}: the server was started without --records")
        loaded = self.files[index].load()
        if loaded.error:
            raise NotFound(f"record file {index} cannot be read: {loaded.error}")
        return loaded

    def games(self, index: int) -> list[dict[str, Any]]:
        return [{"index": k, "deal": r["deal"], "seating_index": r["seating_index"], "seating": r["seating"],
                 "rules": r["rules"], "points": r.get("points"), "deals": len(r["deals"]),
                 "error": (r["error"] or {}).get("message")} for k, r in enumerate(self.file(index).records)]

    def replay(self, index: int, game: int, deal: int) -> Replay:
        records = self.file(index).records
        if not 0 <= game < len(records):
            raise NotFound(f"record file {index} has no game {game} (it holds {len(records)})")
        record = records[game]
        if not 0 <= deal < len(record["deals"]):
            raise NotFound(f"game {game} has no deal {deal} (it holds {len(record['deals'])})")
        return Replay(record, deal)


class Replay:
    """Deal ``deal`` of an arena record, at any step of its history (passes and plays)."""

    def __init__(self, record: dict[str, Any], deal: int):
        self.record, self.deal_index = record, deal
        try:
            self.final = replay_record(record, deal)  # validates the whole deal through the engine
        except (ValueError, KeyError, TypeError) as e:
            raise NotFound(f"game deal {deal} cannot be replayed: {e}") from None
        self.history = list(record["deals"][deal]["history"])
        done = [d["points"] for d in record["deals"][:deal] if d.get("points") is not None]
        self.scores = [sum(p[s] for p in done) for s in range(4)]
        self.names = [f"seat {s}: {spec}" for s, spec in enumerate(record["seating"])]

    def at(self, step: int) -> Deal:
        if not 0 <= step <= len(self.history):
            raise NotFound(f"step {step} is outside this deal's history (0..{len(self.history)})")
        f = self.final
        return Deal(f.rules, f.dealt, f.pass_direction, f.dealer, f.game_scores).apply_all(self.history[:step])

    def state(self, step: int, viewer: int | None) -> dict[str, Any]:
        deal = self.at(step)
        state = table_state(deal, self.names, viewer)
        last = self.history[step - 1] if step else None
        last_seat = self.at(step - 1).current if step else None
        error = self.record.get("error") if self.deal_index == len(self.record["deals"]) - 1 else None
        state.update(kind="replay", step=step, steps=len(self.history), deal_index=self.deal_index,
                     deals=len(self.record["deals"]), scores=self.scores, seating=self.record["seating"],
                     record_points=self.record["deals"][self.deal_index].get("points"),
                     last_move=None if last is None else {"seat": last_seat, "card": card_json(last, deal)},
                     next_move=card_json(self.history[step], deal) if step < len(self.history) else None,
                     error=error["message"] if error and step == len(self.history) else None)
        return state
