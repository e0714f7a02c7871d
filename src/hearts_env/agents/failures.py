"""An agent's failure, told the same way by every command (the arena, the benchmark, the exploit track, ``play`` and
``serve``): one line naming the agent, the game and what happened — the first of each kind, with the count — and the
full tracebacks in a log file that the line names.

>>> try:
...     raise ValueError("no\\nluck")
... except ValueError as error:
...     text = describe(error)
>>> first_line(text).startswith("ValueError: no luck (")
True
>>> import numpy as np
>>> card_of(7, 51), card_of(np.int64(3), 51)
(7, 3)
>>> try:
...     card_of(6.9, 51)
... except NotACard as error:
...     print(error)
act returned 6.9, not a card id: an integer 0..51 (a float, a bool or None is not one)
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import traceback
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hearts_env.actions import integer_action

__all__ = ["ERRORS_LOG", "FailureReport", "Forfeit", "NotACard", "card_of", "describe", "errors_log_beside",
           "first_line", "place"]

ERRORS_LOG = "errors.log"
"""The log of a run folder's failures (the benchmark's, the exploit track's)."""
MAX_TEXT = 4000
"""Characters kept of one failure's description (its line and traceback)."""
HEADLINE = 300
"""Characters of a failure's line."""
LOGGED_IN_FULL = 20
"""Failures of each agent and kind whose whole description the log keeps; the rest get their line."""


class Forfeit(RuntimeError):
    """An agent's own, worded forfeit of a game (a language model's answers past their retries): an outcome the agent
    defines, not a crash, so its record is its line alone, with no traceback and no path of the machine."""


def errors_log_beside(path: str | os.PathLike | None) -> Path | None:
    """The failures' log of a results file (``runs/games.jsonl`` -> ``runs/games.errors.log``), or None."""
    return None if path is None else Path(path).with_name(Path(path).stem + ".errors.log")


def describe(error: BaseException, frames: int = 8) -> str:
    """What ``error`` says, never raising (an exception's ``__str__`` may): its first line ``Type: message (file,
    line N)``, the message's whitespace collapsed and the place the innermost frame raised it, then the traceback's
    last ``frames`` frames. An :class:`~hearts_env.agents.AgentError` is a refusal already worded: its line alone."""
    from hearts_env.agents.spec import AgentError

    try:
        message = " ".join(str(error.msg if isinstance(error, SyntaxError) else error).split())
        text = f"{type(error).__name__}: {message}" if message else type(error).__name__
    except BaseException:
        text = f"{type(error).__name__} (its message could not be read)"
    if isinstance(error, AgentError | NotACard):
        return text.partition(": ")[2][:MAX_TEXT] or text
    if isinstance(error, Forfeit):
        return text[:MAX_TEXT]
    with contextlib.suppress(BaseException):
        text += place(error)
        text += "\n" + "".join(traceback.format_tb(error.__traceback__)[-frames:]).rstrip()
    return text[:MAX_TEXT]


def place(error: BaseException) -> str:
    """`` (file, line N)``: where ``error`` was raised (a syntax error: the place of the bad code), or nothing."""
    if isinstance(error, SyntaxError):
        return f" ({error.filename}, line {error.lineno})"
    frames = traceback.extract_tb(error.__traceback__)
    return f" ({frames[-1].filename}, line {frames[-1].lineno})" if frames else ""


def first_line(text: str, width: int = HEADLINE) -> str:
    """The first line of a failure's description, cut to ``width`` characters."""
    first = text.split("\n", 1)[0].strip()
    return first if len(first) <= width else first[:width - 1] + "…"


class NotACard(TypeError):
    """What an agent's ``act`` returned is not a card id (its message says what it was and what is allowed)."""


def card_of(value: Any, largest: int) -> int:
    """The card id an agent's ``act`` returned, taken the same way everywhere: a Python or NumPy integer (or a
    one-element integer array), never a float truncated (``6.9`` is not card 6), nor a bool or ``None`` read as one.
    Whether the card is in the deck and legal is the engine's to say (an illegal card)."""
    card = integer_action(value)
    if card is None:
        raise NotACard(f"act returned {_shown(value)}, not a card id: an integer 0..{largest} (a float, a bool or "
                        "None is not one)")
    return card


def _shown(value: Any) -> str:
    try:
        text = repr(value)
    except BaseException:
        text = f"a {type(value).__name__}"
    text = " ".join(text.split())
    return text if len(text) <= 60 else text[:59] + "…"


@dataclass
class _Kind:
    count: int = 0
    first: str = ""


@dataclass
class FailureReport:
    """Failures tallied by agent and kind, the first of each kept for the line, every one written to a log file
    (made when the first failure comes: ``path``, or a new file in the system's temporary folder)."""

    path: str | Path | None = None
    kinds: dict[tuple[str, str], _Kind] = field(default_factory=dict)
    log: Path | None = None

    def add(self, agent: str, kind: str, where: str, text: str) -> None:
        """One failure of ``agent`` (its spec) of ``kind`` (exception, illegal, timeout, crash, protocol) in
        ``where`` (the game: ``deal 3, seating 1``), ``text`` its description."""
        tally = self.kinds.setdefault((agent, kind), _Kind())
        tally.count += 1
        if tally.count == 1:
            tally.first = f"{where}: {first_line(text)}"
        with self._open() as out:
            if tally.count <= LOGGED_IN_FULL:
                out.write(f"== {agent}, {kind}, {where}\n{text}\n\n")
            else:
                out.write(f"== {agent}, {kind}, {where}: {first_line(text)}\n")

    def add_records(self, records: Iterable[dict[str, Any]], agents: Iterable[str] | None = None) -> FailureReport:
        """The failures of arena records (each game's ``error``), in (deal, seating) order; only those of the
        specs ``agents`` when given."""
        wanted = None if agents is None else set(agents)
        for r in sorted(records, key=lambda r: (r["deal"], r["seating_index"])):
            error = r.get("error")
            if error is None:
                continue
            spec = str(error.get("spec", r["seating"][error["seat"]]))
            if wanted is None or spec in wanted:
                text = str(error.get("message", ""))
                if error.get("traceback"):  # records written before the message carried it
                    text += "\n" + str(error["traceback"]).rstrip()
                self.add(spec, str(error["kind"]), f"deal {r['deal']}, seating {r['seating_index']}", text)
        return self

    @property
    def total(self) -> int:
        return sum(k.count for k in self.kinds.values())

    def line(self) -> str:
        """Each agent's failures by kind — the count and the first — and the log that holds them all."""
        parts = [f"{agent}: {kind} in {k.count} game(s), the first {k.first}"
                 for (agent, kind), k in self.kinds.items()]
        return "; ".join(parts) + (f"; every traceback in {self.log}" if self.log is not None else "")

    def _open(self) -> Any:
        if self.log is None:
            if self.path is None:
                handle, name = tempfile.mkstemp(prefix="hearts-env-", suffix=".errors.log")
                os.close(handle)
                self.path = name
            self.log = Path(self.path)
            self.log.parent.mkdir(parents=True, exist_ok=True)
            self.log.write_text("", encoding="utf-8")
        return self.log.open("a", encoding="utf-8")

