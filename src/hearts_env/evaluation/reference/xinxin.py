"""xinxin, the field's reference program, as a hearts-env agent that runs it in a process of its own.

xinxin is Nathan Sturtevant's Hearts program (PIMC over UCT; github.com/nathansttt/hearts, GPL-3.0), the bot
OpenSpiel wraps as ``XinxinBot`` and the literature measures against. hearts-env never links it: ``make xinxin``
builds an unmodified copy of it (``third_party/xinxin``) with a small GPL-3.0 driver (``third_party/xinxin-driver``)
into ``third_party/xinxin-driver/build/xinxin_driver``, an executable that answers one decision per line over pipes.
Neither is in the Apache-2.0 wheel. This module is the hearts-env side:

- :class:`XinxinAgent` turns the seat's view into a request to the driver: a full deal *consistent with the
  view* (the other hands filled at random from the cards the seat cannot see, every card a seat played in
  that seat's hand, the passes the seat knows as they were), so xinxin cannot read a hidden hand — it is
  never sent one. It restarts a driver that misses its deadline or dies, and never plays a card our engine
  refuses (each such event is counted in :attr:`XinxinAgent.events` and logged on stderr).
- It is the registered agent ``xinxin``; ``hosted:xinxin`` seats it through the seat protocol, in a program of
  its own (the benchmark seats an agent under test that way by default; docs/reference.md).

Settings (:data:`SETTINGS`): ``openspiel`` (OpenSpiel's ``XinxinBot`` defaults: 50 UCT runs × 20 worlds, C 0.4:
1,000 playouts a decision), ``literature`` (2,000 runs × 50 worlds, C 0.4: GO-MCTS's and open-hearts'
opponent), ``upstream`` (upstream ``main.cpp``'s player: 10,000 playouts over 30 worlds, playout ε 0.1).
"""

from __future__ import annotations

import dataclasses
import os
import select
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from hearts_env.agents import Agent, AgentError
from hearts_env.cards import iter_cards, mask_to_cards
from hearts_env.openspiel_bridge import OpenSpielUnsupported, openspiel_params
from hearts_env.rules import Rules, make_rules
from hearts_env.views import SeatView
from hearts_env.worlds import sample_history

DRIVER_ENV = "HEARTS_ENV_XINXIN"
"""Environment variable naming the driver executable (default: ``third_party/xinxin-driver/build/xinxin_driver``
of the checkout)."""

DEADLINES = {"openspiel": 4.0, "upstream": 10.0, "literature": 30.0}
"""Seconds per request of each setting (about 15× its median time a decision here): a request the driver has not
answered by then is abandoned, the driver killed and restarted (its world sampler draws by rejection and can run
for minutes when a seat has shown voids in three suits)."""


ATTEMPTS = 2
"""Requests for one decision before the seat falls back to a rule-abiding card of its own."""


@dataclasses.dataclass(frozen=True)
class XinxinSettings:
    """xinxin's search: ``iimc_num_worlds`` sampled worlds, each searched by ``uct_num_runs`` UCT playouts with
    exploration constant ``uct_c_val``; ``playout_epsilon`` is the chance of a random move in a playout."""

    uct_num_runs: int
    uct_c_val: float
    iimc_num_worlds: int
    playout_epsilon: float = 0.0

    def __post_init__(self) -> None:
        if not (isinstance(self.uct_num_runs, int) and self.uct_num_runs >= 1):
            raise AgentError(f"xinxin: uct_num_runs must be an integer >= 1, got {self.uct_num_runs!r}")
        if not (isinstance(self.iimc_num_worlds, int) and self.iimc_num_worlds >= 1):
            raise AgentError(f"xinxin: iimc_num_worlds must be an integer >= 1, got {self.iimc_num_worlds!r}")
        if not (isinstance(self.uct_c_val, (int, float)) and self.uct_c_val > 0):
            raise AgentError(f"xinxin: uct_c_val must be a number > 0, got {self.uct_c_val!r}")
        if not (isinstance(self.playout_epsilon, (int, float)) and 0 <= self.playout_epsilon <= 1):
            raise AgentError(f"xinxin: playout_epsilon must be a number in [0, 1], got {self.playout_epsilon!r}")


SETTINGS: dict[str, XinxinSettings] = {
    "openspiel": XinxinSettings(50, 0.4, 20),
    "literature": XinxinSettings(2000, 0.4, 50),
    "upstream": XinxinSettings(10_000 // 30, 0.4, 30, 0.1),
}

# xinxin's rule bits (third_party/xinxin/Hearts.h), as OpenSpiel's XinxinBot::XinxinRules sets them.
_QUEEN_PENALTY, _JACK_BONUS, _NO_TRICK_BONUS = 0x0001, 0x0002, 0x0004
_LEAD_2_CLUBS, _LEAD_CLUBS, _NO_HEARTS_FIRST_TRICK, _NO_QUEEN_FIRST_TRICK = 0x0020, 0x0040, 0x0080, 0x0100
_QUEEN_BREAKS_HEARTS, _DO_PASS_CARDS, _MUST_BREAK_HEARTS = 0x0200, 0x0400, 0x0800
_PASS_DIRECTION = {0: 0, 1: 1, 2: 2, 3: -1}
"""Our pass offsets as xinxin's (hold, left, across, right = -1)."""


class XinxinUnsupported(AgentError):
    """Rules xinxin cannot play."""


def rule_bits(rules: Rules | str) -> int:
    """xinxin's rule bit set for ``rules`` (OpenSpiel's mapping); raises :class:`XinxinUnsupported` naming what
    xinxin cannot play: anything OpenSpiel's hearts cannot express, and ``can_lead_hearts_instead_of_qs``."""
    rules = make_rules(rules)
    try:
        params = openspiel_params(rules)
    except OpenSpielUnsupported as e:
        raise XinxinUnsupported(f"xinxin plays OpenSpiel's hearts rules only: {str(e).replace('OpenSpiel', 'it')}") \
            from None
    if params["can_lead_hearts_instead_of_qs"]:
        raise XinxinUnsupported("xinxin cannot play can_lead_hearts_instead_of_qs=true (OpenSpiel refuses it too)")
    bits = _QUEEN_PENALTY
    bits |= _DO_PASS_CARDS if params["pass_cards"] else 0
    bits |= _NO_HEARTS_FIRST_TRICK | _NO_QUEEN_FIRST_TRICK if params["no_pts_on_first_trick"] else 0
    bits |= _LEAD_CLUBS if params["can_lead_any_club"] else _LEAD_2_CLUBS
    bits |= _JACK_BONUS if params["jd_bonus"] else 0
    bits |= _NO_TRICK_BONUS if params["avoid_all_tricks_bonus"] else 0
    bits |= _QUEEN_BREAKS_HEARTS if params["qs_breaks_hearts"] else 0
    bits |= _MUST_BREAK_HEARTS if params["must_break_hearts"] else 0
    return bits


@dataclasses.dataclass(frozen=True)
class World:
    """A full deal consistent with one seat's view, as the driver replays it: the hands as dealt, then the
    passes and the plays as ``(seat, card)`` in the order xinxin applies them (seat 0's passes first)."""

    hands: tuple[tuple[int, ...], ...]
    passes: tuple[tuple[int, int], ...]
    plays: tuple[tuple[int, int], ...]


def world_of(view: SeatView, rng: np.random.Generator) -> World:
    """A deal consistent with everything ``view`` shows (:func:`hearts_env.worlds.sample_history`: the seat's own
    hand, passes and received cards exactly, every card played and by whom, the hidden cards drawn with every void
    respected), as the driver replays it. xinxin reads only what the seat knows (a test checks that its card does
    not depend on the draw), and is never sent the true hidden hands."""
    world = sample_history(view, rng)
    passes = [(seat, card) for seat in range(4) for card in sorted(iter_cards(world.passed[seat]), key=xinxin_id)]
    owner = {card: seat for seat in range(4) for card in iter_cards(view.played_by[seat])}
    return World(_hand_tuples(world.dealt), tuple(passes), tuple((owner[card], card) for card in view.plays))


def xinxin_id(card: int) -> int:
    """xinxin's id of our card (suits spades, diamonds, clubs, hearts; aces first). xinxin's search passes a seat's
    cards in ascending order of these ids (it enumerates sets, not sequences), so a seat's own passes are sent in
    that order; a seat part-way through passes xinxin did not choose can make it fail (then the seat falls back)."""
    return _XINXIN_SUIT[card // 13] * 16 + 12 - card % 13


_XINXIN_SUIT = (2, 1, 3, 0)
"""xinxin's suit index of our clubs, diamonds, hearts, spades."""


def _hand_tuples(hands: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(mask_to_cards(hand)) for hand in hands)


def request_line(seed: int, bits: int, view: SeatView, world: World) -> str:
    """The driver's request for ``view``'s decision (third_party/xinxin-driver/xinxin_driver.cpp)."""
    words = [seed & 0x7FFF_FFFF, bits, _PASS_DIRECTION[view.pass_direction], view.seat]
    for hand in world.hands:
        words.extend(hand)
    for moves in (world.passes, world.plays):
        words.append(len(moves))
        for seat, card in moves:
            words.extend((seat, card))
    return " ".join(map(str, words))


def find_driver() -> Path:
    """The driver executable: ``$HEARTS_ENV_XINXIN``, else ``third_party/xinxin-driver/build/xinxin_driver`` of the
    checkout this package runs from, else of the working folder."""
    named = os.environ.get(DRIVER_ENV)
    if named:
        path = Path(named)
        if not (path.is_file() and os.access(path, os.X_OK)):
            raise AgentError(f"{DRIVER_ENV}={named}: no executable file there")
        return path.resolve()
    candidates = [root / "third_party" / "xinxin-driver" / "build" / "xinxin_driver"
                  for root in (Path(__file__).resolve().parents[4], Path.cwd())]
    for path in candidates:
        if path.is_file() and os.access(path, os.X_OK):
            return path
    raise AgentError("xinxin is not built: run `make xinxin` in a checkout of hearts-env (it builds GPL-3.0 code "
                     f"that is never in the wheel), or set {DRIVER_ENV} to the driver's path "
                     f"(looked in {', '.join(str(p) for p in candidates)})")


@dataclasses.dataclass(frozen=True)
class Decision:
    """One decision: the card played, xinxin's own legal cards (None when it gave no answer) and where the
    card came from: ``xinxin``, or ``fallback`` (xinxin timed out, died, or chose a card our engine refuses)."""

    card: int
    xinxin_legal: tuple[int, ...] | None
    source: str


class XinxinDriver:
    """The driver process: one request, one reply, with a deadline; restarted when it misses one or dies."""

    def __init__(self, settings: XinxinSettings, path: Path | str | None = None, deadline: float = 4.0):
        self.settings = settings
        self.path = Path(path) if path is not None else find_driver()
        self.deadline = deadline
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> subprocess.Popen[bytes]:
        if self.process is None or self.process.poll() is not None:
            s = self.settings
            self.process = subprocess.Popen(
                [str(self.path), str(s.uct_num_runs), repr(float(s.uct_c_val)), str(s.iimc_num_worlds),
                 repr(float(s.playout_epsilon))],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                start_new_session=True)  # a Ctrl-C meant for the run (a pause) never reaches it mid-search
        return self.process

    def ask(self, line: str) -> str | None:
        """The driver's reply to ``line``, or None if it missed the deadline or died (it is then stopped)."""
        process = self.start()
        assert process.stdin is not None and process.stdout is not None
        try:
            process.stdin.write(line.encode() + b"\n")
            process.stdin.flush()
        except OSError:
            self.stop()
            return None
        end = time.monotonic() + self.deadline
        reply = b""
        fd = process.stdout.fileno()
        while not reply.endswith(b"\n"):
            left = end - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                self.stop()
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                self.stop()
                return None
            reply += chunk
        return reply.decode().strip()

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            for stream in (self.process.stdin, self.process.stdout):
                if stream is not None:
                    stream.close()
            self.process = None


class XinxinAgent(Agent):
    """xinxin at one seat (see the module docstring). ``setting``: a name of :data:`SETTINGS`; the keyword
    arguments of :class:`XinxinSettings` override it. ``driver``: the executable (default :func:`find_driver`);
    ``deadline``: seconds before a request is abandoned (default: the setting's, :data:`DEADLINES`)."""

    def __init__(self, setting: str = "openspiel", driver: str | None = None, deadline: float | None = None,
                 **overrides: Any):
        super().__init__()
        if setting not in SETTINGS:
            raise AgentError(f"xinxin: unknown setting {setting!r}; settings: {', '.join(SETTINGS)}")
        unknown = sorted(set(overrides) - {f.name for f in dataclasses.fields(XinxinSettings)})
        if unknown:
            raise AgentError(f"xinxin: unknown argument(s) {', '.join(unknown)}; arguments: setting, driver, "
                             f"deadline, {', '.join(f.name for f in dataclasses.fields(XinxinSettings))}")
        deadline = DEADLINES[setting] if deadline is None else deadline
        if isinstance(deadline, bool) or not (isinstance(deadline, (int, float)) and deadline > 0):
            raise AgentError(f"xinxin: deadline must be a number of seconds > 0, got {deadline!r}")
        self.settings = dataclasses.replace(SETTINGS[setting], **overrides)
        self.name = f"xinxin-{setting}" if not overrides else "xinxin"
        self.driver = XinxinDriver(self.settings, driver, deadline)
        self.events: Counter[str] = Counter()
        """Decisions by source (``xinxin``, ``fallback``), each failed request (``timeout_or_crash``: no answer
        by the deadline, or the driver died; ``driver_error``: xinxin failed, e.g. an assert), each card of xinxin
        our engine refuses (``illegal``) and each disagreement on the legal cards (``legal_disagreement``)."""
        self._bits: int | None = None
        self._at_reset: Counter[str] = Counter()

    def reset(self, rules: Rules, seat: int, seed: int | Sequence[int] | None = None) -> None:
        if rules != self.rules or self._bits is None:
            self._bits = rule_bits(rules)
        super().reset(rules, seat, seed)
        self._at_reset = Counter(self.events)

    def deal_notes(self) -> dict[str, int]:
        """What went wrong in this deal (since ``reset``), by kind: each decision that fell back to the lowest legal
        card (``fallback``) and each cause (:attr:`events`); empty when xinxin chose every card. The seat host sends
        it with its reply to ``end_deal``, and the dealer records it per game (a starved xinxin shows)."""
        return {kind: n - self._at_reset[kind] for kind, n in self.events.items()
                if kind != "xinxin" and n > self._at_reset[kind]}

    def act(self, view: SeatView) -> int:
        return self.decide(view).card

    def decide(self, view: SeatView) -> Decision:
        """xinxin's decision at ``view``, drawing the world and the seed from ``self.rng``."""
        if self._bits is None:
            self.reset(view.rules, view.seat)
        assert self._bits is not None
        legal = mask_to_cards(view.legal)
        reply = None
        for _ in range(ATTEMPTS):  # another seed and another world: the sampler's time and xinxin's asserts vary
            seed = int(self.rng.integers(1 << 31))
            reply = self.driver.ask(request_line(seed, self._bits, view, world_of(view, self.rng)))
            if reply is not None and reply.startswith("card "):
                break
            self._note("timeout_or_crash" if reply is None else "driver_error", reply or "")
        if reply is None or not reply.startswith("card "):
            return self._fallback(legal, None)
        words = [int(w) for w in reply.split()[1:]]
        card, theirs = words[0], tuple(sorted(words[2:2 + words[1]]))
        if list(theirs) != legal:
            self._note("legal_disagreement", f"xinxin {theirs} ours {tuple(legal)} at {view.plays}")
        if card not in legal:
            self._note("illegal")
            return self._fallback(legal, theirs)
        self.events["xinxin"] += 1
        return Decision(card, theirs, "xinxin")

    def _fallback(self, legal: list[int], theirs: tuple[int, ...] | None) -> Decision:
        """The lowest legal card: a rule-abiding move, never xinxin's, counted as a fallback."""
        self.events["fallback"] += 1
        return Decision(legal[0], theirs, "fallback")

    def _note(self, event: str, detail: str = "") -> None:
        self.events[event.split(":")[0]] += 1
        print(f"xinxin: {event} {detail}".rstrip(), file=sys.stderr, flush=True)

    def close(self) -> None:
        self.driver.stop()

    def __del__(self) -> None:
        driver = getattr(self, "driver", None)  # absent when __init__ refused its arguments
        if driver is not None:
            driver.stop()


__all__ = ["DEADLINES", "DRIVER_ENV", "SETTINGS", "Decision", "World", "XinxinAgent", "XinxinDriver",
           "XinxinSettings", "XinxinUnsupported", "find_driver", "request_line", "rule_bits", "world_of", "xinxin_id"]
