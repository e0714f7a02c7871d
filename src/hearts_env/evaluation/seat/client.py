"""The dealer's side of a seat: :class:`SeatAgent` plays an agent that runs as a program of its own.

It behaves as an agent to the arena (``reset``, ``act``, ``end_deal``) and turns each call into one
request of the seat protocol (:mod:`hearts_env.evaluation.seat.protocol`), with a deadline. A program that
misses a deadline is killed, one that exits or breaks the protocol likewise; the call raises
:class:`SeatError` naming what happened (the arena charges the game as a forfeit), and the next
``reset`` starts the program again (counted in :attr:`SeatAgent.restarts`). Nothing the program does
reaches the dealer but the lines it writes, and each is read with a length limit and parsed as JSON.
"""

from __future__ import annotations

import hashlib
import os
import selectors
import shlex
import shutil
import sys
import time
from collections.abc import Sequence
from typing import Any, Protocol

from hearts_env import __version__
from hearts_env.evaluation.seat.protocol import (
    MAX_LINE,
    PROTOCOL,
    ProtocolError,
    deck_names,
    decode,
    encode,
    view_to_json,
)
from hearts_env.evaluation.seat.sandbox import Sandbox, copy_kernels, launch, private_folder
from hearts_env.rules import Rules
from hearts_env.views import SeatView

START_SECONDS = 120.0
"""Deadline of the handshake: a program may load its weights and compile its kernels."""
RESET_SECONDS = 60.0
"""Deadline of ``reset`` (the host warms an agent up on its first reset under new rules) and ``end_deal``."""


class Channel(Protocol):
    """What a seat's messages go through: a started program's stdin and stdout
    (:class:`~hearts_env.evaluation.seat.sandbox.Launched`) or a remote seat's connection
    (:class:`~hearts_env.evaluation.seat.remote.RemoteLink`)."""

    def send(self, data: bytes) -> None: ...
    def fileno(self) -> int: ...
    def status(self) -> str: ...
    def goodbye(self, data: bytes) -> None: ...
    def kill(self) -> None: ...


class SeatError(RuntimeError):
    """A seat's program failed a request: ``kind`` is ``timeout``, ``crash`` (it exited or was killed),
    ``protocol`` (a reply that is not the protocol's) or ``exception`` (the agent reported an error)."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


def seat_seed(seed: int | Sequence[int] | None, secret: int | None = None) -> int:
    """The one 64-bit seed a seat's program receives for a deal: a SHA-256 digest of the arena's seed (a
    list such as ``[agent_seed, deal, seating, deal_of_game, seat]``) and of ``secret``. Without the
    secret no program can tell from its seed which deal it plays."""
    text = repr((secret, list(seed) if isinstance(seed, Sequence) else seed)).encode()
    return int.from_bytes(hashlib.sha256(b"hearts-seat/" + text).digest()[:8], "big")


def host_command(spec: str, paths: Sequence[str] = ()) -> list[str]:
    """The command that runs a Python agent spec behind the seat protocol (:mod:`hearts_env.evaluation.seat.host`)."""
    return [sys.executable, "-m", "hearts_env.evaluation.seat.host", *(f"--path={p}" for p in paths), spec]


class SeatAgent:
    """An agent played by a program speaking the seat protocol (see the module docstring).

    ``command``: the program and its arguments (a list, or one string split as a shell would). Every
    program it starts runs under ``sandbox``; ``secret`` goes into every seed it is sent
    (:func:`seat_seed`).

    ``cache``: a folder of compiled kernels (Numba's) that each program it starts gets a fresh copy of,
    to write as it likes; nothing a program writes reaches another program, so nothing it learned of a
    deal outlives it. With ``fill_cache`` the program writes the folder itself: the benchmark's start-up
    check, which plays no deal of the run, fills it once for the run's programs. Without ``cache`` the
    programs keep a folder of this seat's own between restarts (one seat, one worker: no deal twice)."""

    name = "seat"
    weights_file = None

    def __init__(self, command: str | Sequence[str], sandbox: Sandbox | None = None, secret: int | None = None,
                 cache: str | None = None, fill_cache: bool = False):
        self.command = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.command:
            raise ValueError("a seat needs a command to run")
        self.sandbox = sandbox or Sandbox()
        self.secret = secret
        self.restarts = 0
        self.info: dict[str, Any] | None = None
        self._launched: Channel | None = None
        self._buffer = b""
        self._cache = cache
        self._own_cache = cache is None
        self._fill_cache = fill_cache
        self._rules: Rules | None = None
        self.notes: dict[str, int] | None = None
        """What the program reported of the last deal with its reply to ``end_deal`` (``notes``: counts by kind,
        e.g. xinxin's fallbacks), or None: it reports nothing. Its own word, recorded for the reference seats."""

    # The agent protocol --------------------------------------------------------------------------
    def reset(self, rules: Rules, seat: int, seed: int | Sequence[int] | None = None) -> None:
        if self._launched is None:
            self.start()
        self._rules = rules
        self.notes = None
        self._call({"type": "reset", "rules": rules.spec(), "deck": deck_names(rules), "seat": seat,
                    "seed": seat_seed(seed, self.secret)}, "ready", RESET_SECONDS)

    def act(self, view: SeatView, timeout: float | None = None) -> int:
        reply = self._call({"type": "act", "view": view_to_json(view)}, "card", timeout)
        card = reply.get("card")
        if isinstance(card, int) and not isinstance(card, bool):
            return card
        return self._fail("protocol", f"a card reply without an integer card: {reply!r:.120}")

    def end_deal(self, view: SeatView) -> None:
        reply = self._call({"type": "end_deal", "view": view_to_json(view)}, "ready", RESET_SECONDS)
        notes = reply.get("notes")
        if notes is not None and not _valid_notes(notes):
            self._fail("protocol", f"notes that are not counts by kind: {notes!r:.120}")
        self.notes = notes


    # The program ----------------------------------------------------------------------------------
    def start(self) -> dict[str, Any]:
        """Start the program and shake hands; returns what it says of its agent (``name``, ``weights``)."""
        if self._launched is not None:
            return self.info or {}
        if self._cache is None:
            self._cache = private_folder("hearts-seat-cache-")
            self._own_cache = True
        cache = self._cache
        if not (self._own_cache or self._fill_cache):  # a copy of the run's kernels for this program alone
            cache = private_folder("hearts-seat-cache-")
            try:
                copy_kernels(self._cache, cache)
            except OSError as e:  # whatever went wrong, it is this seat's, never the run's
                shutil.rmtree(cache, ignore_errors=True)
                raise SeatError("crash", f"cannot give the program its compiled kernels: {e}") from None
        try:
            launched = launch(self.command, self.sandbox, cache)
        except OSError as e:
            raise SeatError("crash", f"cannot start {shlex.join(self.command)}: {e}") from None
        if cache != self._cache:
            launched.folders.append(cache)
        self._launched = launched
        return self._shake_hands()

    def _shake_hands(self) -> dict[str, Any]:
        """The handshake with a program just started (or joined): what it says of its agent."""
        self._buffer = b""
        try:
            reply = self._call({"type": "hello", "protocol": PROTOCOL, "dealer": f"hearts-env {__version__}"},
                               "hello", START_SECONDS)
        except SeatError:  # no agent behind it (it could not be built): the next reset starts a new program
            if self._launched is not None:
                self._launched.kill()
                self._launched = None
            raise
        if reply.get("protocol") != PROTOCOL:
            self._fail("protocol", f"the program speaks seat protocol {reply.get('protocol')!r}; this dealer speaks "
                                   f"{PROTOCOL}")
        agent = reply.get("agent")
        self.info = agent if isinstance(agent, dict) else {}
        return self.info

    def close(self) -> None:
        """Say goodbye and end the program."""
        launched, self._launched = self._launched, None
        if launched is None:
            return
        launched.goodbye(encode({"type": "goodbye"}))
        launched.kill()

    def __del__(self) -> None:
        try:
            self.close()
            if self._cache is not None and self._own_cache:
                shutil.rmtree(self._cache, ignore_errors=True)
        except Exception:
            pass

    def _fail(self, kind: str, message: str) -> Any:
        """Kill the program (the next reset starts it again) and raise."""
        if self._launched is not None:
            self._launched.kill()
            self._launched = None
            self.restarts += 1
        raise SeatError(kind, message)

    def _call(self, message: dict[str, Any], expected: str, timeout: float | None) -> dict[str, Any]:
        launched = self._launched
        if launched is None:
            raise SeatError("crash", "the seat's program is not running")
        try:
            launched.send(encode(message))
        except OSError:
            self._fail("crash", f"the program ended before {message['type']} ({launched.status()})")
        line = self._read_line(timeout, message["type"])
        try:
            reply = decode(line)
        except ProtocolError as e:
            self._fail("protocol", f"reply to {message['type']}: {e}")
        if reply["type"] == "error":
            text = reply.get("message")
            raise SeatError("exception", text if isinstance(text, str) else repr(text)[:2000])
        if reply["type"] != expected:
            self._fail("protocol", f"{reply['type']!r} in reply to {message['type']} (expected {expected!r})")
        return reply

    def _read_line(self, timeout: float | None, request: str) -> bytes:
        launched = self._launched
        assert launched is not None
        fd = launched.fileno()
        deadline = None if timeout is None else time.monotonic() + timeout
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                if len(self._buffer) > MAX_LINE:
                    self._fail("protocol", f"a reply to {request} longer than {MAX_LINE} bytes")
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    self._fail("timeout", f"no reply to {request} within {timeout:g} s (the program was killed)")
                if not selector.select(left):
                    continue
                try:
                    chunk = os.read(fd, 1 << 16)
                except OSError:  # a remote seat's connection reset
                    chunk = b""
                if not chunk:
                    self._fail("crash", f"the program ended during {request} ({launched.status()})")
                self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line


MAX_NOTES = 16
"""Kinds a program may report per deal (``notes``), each name at most 40 characters."""


class RemoteSeatAgent(SeatAgent):
    """A seat played by a program elsewhere that joined the run's seat server (``remote:NAME``,
    :mod:`~hearts_env.evaluation.seat.remote`): each start takes one joined connection of seat ``NAME`` and shakes
    hands through it as with a program started here; everything after is the same protocol, deadlines and forfeits."""

    name = "remote"

    def __init__(self, seat: str, secret: int | None = None):
        super().__init__([f"remote:{seat}"], secret=secret)
        self.seat = seat

    def start(self) -> dict[str, Any]:
        if self._launched is not None:
            return self.info or {}
        from hearts_env.evaluation.seat.remote import connect_broker

        try:
            self._launched = connect_broker(self.seat)
        except OSError as e:
            raise SeatError("crash", str(e)) from None
        return self._shake_hands()


def _valid_notes(notes: Any) -> bool:
    """Whether ``notes`` is what the protocol allows: a few counts (integers >= 0) by short kind names."""
    return isinstance(notes, dict) and len(notes) <= MAX_NOTES and all(
        isinstance(k, str) and 0 < len(k) <= 40 and isinstance(v, int) and not isinstance(v, bool) and v >= 0
        for k, v in notes.items())

