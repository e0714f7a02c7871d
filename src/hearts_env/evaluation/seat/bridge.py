"""``hearts-env seat connect HOST:PORT --seat NAME -- COMMAND...``: join a dealer's run as remote seat ``NAME``
(:mod:`hearts_env.evaluation.seat.remote`) and, for each game the dealer gives this seat, run ``COMMAND`` with the
seat's messages on its stdin and stdout — so a program that speaks the seat protocol to a dealer that starts it
joins over the network unchanged.

The bridge keeps one joined connection spare while fewer than ``max_programs`` of its programs play (a run's worker
processes may need the seat at once); it ends, exit status 0, once the dealer closes its connections or stops
listening and its programs have ended; a refusal (a wrong token, another protocol) is one line and exit status 2.
The token is read from a file or the environment, never from the command line (which other users of a machine can
see).
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import socket
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from typing import Any

from hearts_env.evaluation.seat import shuttle
from hearts_env.evaluation.seat.protocol import PROTOCOL
from hearts_env.evaluation.seat.remote import JOIN_SECONDS, MAX_JOIN, SEND_SECONDS

TOKEN_VARIABLE = "HEARTS_ENV_SEAT_TOKEN"
"""The environment variable the bridge reads the seat's token from, when no file is given."""


class JoinRefused(Exception):
    """The dealer refused to seat this connection (its line says why)."""


class Bridge:
    """Joins ``host:port`` as ``seat`` with ``token`` (``tls``: verify the dealer's certificate, against ``cafile``
    when given) and runs ``command`` for each game (see the module docstring)."""

    def __init__(self, host: str, port: int, seat: str, token: str, command: Sequence[str], tls: bool = False,
                 cafile: str | None = None, max_programs: int = 8):
        if not command:
            raise ValueError("give the command to run for each game after --, e.g. -- node bot.js")
        self.host, self.port, self.seat, self.token = host, port, seat, token
        self.command = list(command)
        self.max_programs = max_programs
        self.games = 0
        self._tls = None
        if tls or cafile:
            self._tls = ssl.create_default_context(cafile=cafile)
        self._slots = threading.Semaphore(max_programs)
        self._threads: list[threading.Thread] = []

    def join(self) -> tuple[socket.socket, bytes]:
        """A connection the dealer has seated as :attr:`seat`, and what the dealer sent after its answer (the start of
        a game, when one was waiting for the seat) — ``JoinRefused``, or ``OSError`` when the dealer is gone."""
        conn = socket.create_connection((self.host, self.port), timeout=JOIN_SECONDS)
        try:
            if self._tls is not None:
                conn = self._tls.wrap_socket(conn, server_hostname=self.host)
            conn.sendall((json.dumps({"type": "join", "protocol": PROTOCOL, "seat": self.seat,
                                      "token": self.token}) + "\n").encode())
            line, early = _line(conn)
        except BaseException:
            conn.close()
            raise
        try:
            answer = json.loads(line)
        except ValueError:
            answer = None
        if not isinstance(answer, dict) or answer.get("type") != "joined":
            conn.close()
            why = answer.get("message") if isinstance(answer, dict) else None
            raise JoinRefused(str(why) if why else f"the dealer answered {line[:120]!r}")
        conn.settimeout(None)
        return conn, early

    def run(self) -> int:
        """Play until the dealer is done; the exit status."""
        self._slots.acquire()  # each joined connection, spare or playing, holds a slot
        try:
            spare: tuple[socket.socket, bytes] | None = self.join()
        except JoinRefused as e:
            print(f"hearts-env seat connect: refused: {e}", file=sys.stderr)
            return 2
        except (OSError, ssl.SSLError) as e:
            hint = "" if self._tls is not None or not isinstance(e, ConnectionResetError) else \
                " (if the dealer serves TLS, join with --tls or --cafile)"
            print(f"hearts-env seat connect: cannot join {self.host}:{self.port}: {e}{hint}", file=sys.stderr)
            return 2
        while spare is not None:
            conn, early = spare
            first = early or _wait_for_game(conn)
            if not first:  # the dealer closed it: the run is over
                conn.close()
                break
            thread = threading.Thread(target=self._play, args=(conn, first), daemon=True)
            thread.start()
            self._threads.append(thread)
            self.games += 1
            self._slots.acquire()  # the next spare waits while max_programs play
            spare = self._next()
        for thread in self._threads:
            thread.join()
        print(f"hearts-env seat connect: the dealer is done; {self.games} game(s) played as seat {self.seat!r}",
              file=sys.stderr)
        return 0

    def _next(self) -> tuple[socket.socket, bytes] | None:
        """The next spare connection, or None once the dealer no longer takes one: it stopped listening or refused.
        A join that fails otherwise (a busy dealer's timeout, a reset) is tried again, for up to a minute."""
        pause = 0.5
        for _ in range(7):
            try:
                return self.join()
            except (JoinRefused, ConnectionRefusedError):
                break
            except (OSError, ssl.SSLError):
                time.sleep(pause)
                pause *= 2
        self._slots.release()
        return None

    def _play(self, conn: socket.socket, first: bytes) -> None:
        """One game: the command, its stdin and stdout joined to ``conn`` until either ends."""
        try:
            program = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        except OSError as e:
            print(f"hearts-env seat connect: cannot start {self.command[0]}: {e}", file=sys.stderr)
            conn.close()
            self._slots.release()
            return
        assert program.stdin is not None and program.stdout is not None
        stdin, stdout = program.stdin, program.stdout

        def to_program(data: bytes) -> None:
            stdin.write(data)
            stdin.flush()

        # One thread passes both ways (the connection may be TLS, which two threads must never share: see shuttle).
        program_end = shuttle.Peer(stdout.fileno(), lambda: os.read(stdout.fileno(), shuttle.CHUNK), to_program)
        shuttle.shuttle(conn, program_end, SEND_SECONDS, first=first)
        shuttle.wake(conn)
        shuttle.close(conn)
        with contextlib.suppress(OSError):
            stdin.close()
        try:
            program.wait(timeout=5)
        except subprocess.TimeoutExpired:
            program.kill()
            program.wait()
        self._slots.release()


def _line(conn: socket.socket) -> tuple[bytes, bytes]:
    """The dealer's answer to a join, and the bytes that came after it in the same reads (a game's start)."""
    data = b""
    deadline = time.monotonic() + JOIN_SECONDS
    while b"\n" not in data and len(data) <= MAX_JOIN:
        conn.settimeout(max(0.01, deadline - time.monotonic()))
        chunk = conn.recv(MAX_JOIN)
        if not chunk:
            break
        data += chunk
    line, _, early = data.partition(b"\n")
    return line, early


def _wait_for_game(conn: socket.socket) -> bytes:
    """The first bytes the dealer sends on a joined connection (its hello), or b"" once it closes it."""
    while True:
        if isinstance(conn, ssl.SSLSocket) and conn.pending():
            break
        readable, _, _ = select.select([conn], [], [], 1.0)
        if readable:
            break
    try:
        return conn.recv(1 << 16)
    except (OSError, ssl.SSLError):
        return b""


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6) as a pair; ``ValueError`` naming what is wrong."""
    host, sep, port = text.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"expected HOST:PORT (e.g. 127.0.0.1:7777), got {text!r}")
    return host, int(port)


def read_token(path: str | None, environ: Any) -> str:
    """The seat's token: the first line of ``path``, else :data:`TOKEN_VARIABLE` (``ValueError`` naming both)."""
    if path is not None:
        try:
            with open(path, encoding="utf-8") as f:
                token = f.readline().strip()
        except OSError as e:
            raise ValueError(f"--token-file {path}: {e.strerror or e}") from None
        if not token:
            raise ValueError(f"--token-file {path}: its first line is empty")
        return token
    token = environ.get(TOKEN_VARIABLE, "").strip()
    if not token:
        raise ValueError(f"give the seat's token in a file (--token-file FILE) or in {TOKEN_VARIABLE}")
    return token
