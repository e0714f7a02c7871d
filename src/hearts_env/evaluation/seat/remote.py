"""Seats over the network: an agent that runs elsewhere joins a dealer's run over TCP (TLS when the dealer has a
certificate) and plays through the seat protocol, byte for byte the messages of a program's stdin and stdout.

The dealer's command holds a :class:`SeatServer`: it listens on a port, reads each joining connection's first line
(``{"type": "join", "protocol": 1, "seat": NAME, "token": TOKEN}``, within :data:`JOIN_SECONDS`, at most
:data:`MAX_JOIN` bytes), checks the seat's token in constant time and answers ``{"type": "joined"}`` — or
``{"type": "refused", "message": ...}`` and closes, for a wrong token, an unknown seat, another protocol, a line too
long or too slow, or a seat with :data:`MAX_WAITING` connections waiting already. A joined connection waits until a
game needs that seat: the arena's ``remote:NAME`` spec (:class:`RemoteSeatAgent`, in any of the run's worker
processes) asks the server, through a Unix socket only this
machine's dealer can reach (its path in :data:`BROKER_VARIABLE`), for one, and the server passes the seat's messages
both ways from then on: the dealer's ``hello`` is the first thing the joined program hears. Everything after the join
is the seat protocol as the dealer speaks it to a program it started — the same deadlines, the same limits, the same
forfeits; a dropped connection is the program ending (the seat's ``crash``), and the next deal takes another joined
connection (counted as a restart).

``hearts-env seat connect HOST:PORT --seat NAME --token-file FILE -- COMMAND...`` (:mod:`hearts_env.evaluation.seat.
bridge`) joins and runs ``COMMAND`` for each game, so any program that speaks the protocol on stdin and stdout today
joins unchanged; or a program speaks it over the socket itself.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import os
import select
import shutil
import socket
import ssl
import sys
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from hearts_env.evaluation.seat import shuttle
from hearts_env.evaluation.seat.protocol import PROTOCOL
from hearts_env.evaluation.seat.sandbox import private_folder
from hearts_env.evaluation.seat.schemes import REMOTE_NAME

JOIN_SECONDS = 10.0
"""How long a joining connection has for its TLS handshake and its join line, in all (a slow drip is cut there)."""
MAX_JOIN = 4096
"""Bytes of a join line."""
PAIR_SECONDS = 120.0
"""How long a game waits for a joined connection of its seat (as long as a started program's handshake)."""
SEND_SECONDS = 60.0
"""How long the server waits to pass bytes on to a side that does not read (then the connection is dropped)."""
BROKER_VARIABLE = "HEARTS_ENV_SEAT_BROKER"
"""The environment variable naming the server's Unix socket, inherited by the run's worker processes."""
NAME = REMOTE_NAME
"""A remote seat's name: what ``remote:NAME`` and the join line say."""
MIN_TOKEN = 16
"""Characters of a seat's token, at least."""
MAX_WAITING = 16
"""Joined connections a seat may hold waiting for games (a bridge keeps one spare; a flood is refused past this)."""


class SeatServer:
    """The dealer's listener for remote seats (see the module docstring): ``tokens`` maps each seat's name to its
    token; ``certfile`` and ``keyfile`` (PEM) make it TLS. ``with SeatServer(...) as server:`` listens, names its
    broker to the run's workers, and closes every connection at the end. :attr:`refusals` lists what it refused, each
    one line (also written to stderr); a refusal never stops the run."""

    def __init__(self, tokens: Mapping[str, str], host: str = "127.0.0.1", port: int = 0,
                 certfile: str | None = None, keyfile: str | None = None, pair_seconds: float = PAIR_SECONDS,
                 join_seconds: float = JOIN_SECONDS):
        for name, token in tokens.items():
            if not NAME.fullmatch(name):
                raise ValueError(f"remote seat name {name!r}: letters, digits, '_', '.', '-', at most 64")
            if not isinstance(token, str) or len(token) < MIN_TOKEN:
                raise ValueError(f"remote seat {name!r}: a token of at least {MIN_TOKEN} characters (e.g. "
                                 "`python -c 'import secrets; print(secrets.token_urlsafe())'`)")
        if not tokens:
            raise ValueError("a seat server needs at least one remote seat and its token")
        self.tokens = dict(tokens)
        self.pair_seconds = pair_seconds
        self.join_seconds = join_seconds
        self._tls: ssl.SSLContext | None = None
        if certfile is not None:
            self._tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            try:
                self._tls.load_cert_chain(certfile, keyfile)
            except (OSError, ssl.SSLError) as e:
                raise ValueError(f"the seat server's certificate {certfile}: {e}") from None
        try:
            self._listener = socket.create_server((host, port))
        except OSError as e:
            raise ValueError(f"cannot listen on {host}:{port} for remote seats: {e.strerror or e}") from None
        self.address: tuple[str, int] = self._listener.getsockname()[:2]
        self._folder = private_folder("hearts-seat-broker-")
        self.broker = str(Path(self._folder) / "broker.sock")
        self._broker = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._broker.bind(self.broker)
        self._broker.listen(64)
        self._idle: dict[str, list[socket.socket]] = {name: [] for name in tokens}
        self._playing: set[socket.socket] = set()
        self._lock = threading.Condition()
        self._closed = False
        self.refusals: list[str] = []
        self._previous: str | None = None

    # Lifetime ---------------------------------------------------------------------------------------
    def __enter__(self) -> SeatServer:
        for target in (self._accept_remote, self._accept_worker):
            threading.Thread(target=target, daemon=True).start()
        self._previous = os.environ.get(BROKER_VARIABLE)
        os.environ[BROKER_VARIABLE] = self.broker
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        """Stop listening and close every connection, joined or playing."""
        with self._lock:
            self._closed = True
            idle = [c for waiting in self._idle.values() for c in waiting]
            playing = list(self._playing)
            self._lock.notify_all()
        for sock in (self._listener, self._broker, *idle):
            shuttle.wake(sock)
            shuttle.close(sock)
        for sock in playing:  # its relay closes it, in the relay's own thread
            shuttle.wake(sock)
        shutil.rmtree(self._folder, ignore_errors=True)
        if os.environ.get(BROKER_VARIABLE) == self.broker:
            if self._previous is None:
                os.environ.pop(BROKER_VARIABLE, None)
            else:
                os.environ[BROKER_VARIABLE] = self._previous

    # Joining ------------------------------------------------------------------------------------------
    def _accept_remote(self) -> None:
        while not self._closed:
            try:
                conn, peer = self._listener.accept()
            except OSError:
                return
            threading.Thread(target=self._join, args=(conn, peer), daemon=True).start()

    def _join(self, conn: socket.socket, peer: Any) -> None:
        deadline = time.monotonic() + self.join_seconds
        who = f"{peer[0]}:{peer[1]}"
        try:
            conn.settimeout(self.join_seconds)
            if self._tls is not None:
                conn = self._tls.wrap_socket(conn, server_side=True)
            line = _read_line(conn, MAX_JOIN, deadline)
            name = self._admit(line)
        except _Refused as e:
            self._refuse(conn, who, str(e))
            return
        except ssl.SSLError as e:
            self._refuse(conn, who, f"no TLS handshake (this dealer serves TLS: join with --tls or --cafile): "
                                    f"{e.reason or e}")
            return
        except (OSError, ValueError) as e:
            self._refuse(conn, who, f"no join line: {e}")
            return
        with self._lock:
            if self._closed:
                conn.close()
                return
            waiting = len(self._idle[name]) >= MAX_WAITING and len(self._prune(name)) >= MAX_WAITING
            if not waiting:
                conn.settimeout(None)
                _send(conn, {"type": "joined", "seat": name})
                self._idle[name].append(conn)
                self._lock.notify_all()
        if waiting:
            self._refuse(conn, who, f"seat {name!r} has {MAX_WAITING} connections waiting for a game already")

    def _admit(self, line: bytes) -> str:
        """The seat a join line names, or :class:`_Refused` saying why not."""
        try:
            message = json.loads(line)
        except ValueError:
            raise _Refused("the first line is not a JSON join message") from None
        if not isinstance(message, dict) or message.get("type") != "join":
            raise _Refused('the first line must be {"type": "join", "protocol": ..., "seat": ..., "token": ...}')
        if message.get("protocol") != PROTOCOL:
            theirs = str(message.get("protocol"))[:20]
            raise _Refused(f"this dealer speaks seat protocol {PROTOCOL}, the program {theirs}")
        name, token = message.get("seat"), message.get("token")
        if not isinstance(name, str) or name not in self.tokens:
            raise _Refused(f"no remote seat {str(name)[:64]!r} in this run")
        if not isinstance(token, str) or not hmac.compare_digest(token.encode(), self.tokens[name].encode()):
            raise _Refused(f"wrong token for seat {name!r}")
        return name

    def _refuse(self, conn: socket.socket, who: str, why: str) -> None:
        said = f"refused a remote seat from {who}: {why}"
        self.refusals.append(said)
        print(f"hearts-env seat server: {said}", file=sys.stderr)
        with contextlib.suppress(OSError, ssl.SSLError, ValueError):
            conn.settimeout(1.0)
            _send(conn, {"type": "refused", "message": why})
        with contextlib.suppress(OSError):
            conn.close()

    # Pairing a game's seat with a joined connection ----------------------------------------------------
    def _accept_worker(self) -> None:
        while not self._closed:
            try:
                worker, _ = self._broker.accept()
            except OSError:
                return
            threading.Thread(target=self._pair, args=(worker,), daemon=True).start()

    def _pair(self, worker: socket.socket) -> None:
        try:
            name = _read_line(worker, 128, time.monotonic() + 5).decode()
        except (OSError, ValueError, UnicodeDecodeError):
            worker.close()
            return
        remote = self._take(name)
        if remote is None:
            with contextlib.suppress(OSError):
                worker.sendall(b"none\n")
                worker.close()
            return
        with contextlib.suppress(OSError):
            worker.sendall(b"ok\n")
        _relay(worker, remote, lambda: self._done(remote))

    def _take(self, name: str) -> socket.socket | None:
        """A joined connection of seat ``name`` still open, waiting up to :attr:`pair_seconds` for one."""
        deadline = time.monotonic() + self.pair_seconds
        with self._lock:
            while not self._closed:
                idle = self._idle.get(name)
                if idle is None:
                    return None
                if self._prune(name):
                    conn = idle.pop(0)
                    self._playing.add(conn)
                    return conn
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._lock.wait(left)
        return None

    def _prune(self, name: str) -> list[socket.socket]:
        """Seat ``name``'s waiting connections, those that closed dropped and those that spoke out of turn refused
        (a program speaks when spoken to: the dealer's hello comes first); called holding the lock."""
        kept = []
        for conn in self._idle[name]:
            state = _waited(conn)
            if state == "quiet":
                kept.append(conn)
                continue
            if state == "spoke":
                self._refuse(conn, _peer(conn), "it spoke before its game began (a program speaks when spoken to: "
                                                "the dealer's hello comes first)")
            with contextlib.suppress(OSError):
                conn.close()
        self._idle[name][:] = kept
        return kept

    def _done(self, conn: socket.socket) -> None:
        with self._lock:
            self._playing.discard(conn)


class _Refused(Exception):
    """Why a joining connection is refused (one line, sent to it and logged)."""


def _send(conn: socket.socket, message: dict[str, Any]) -> None:
    conn.sendall((json.dumps(message) + "\n").encode())


def _read_line(conn: socket.socket, limit: int, deadline: float) -> bytes:
    """One line of at most ``limit`` bytes, all of it before ``deadline`` (a slow drip is cut there)."""
    data = b""
    while b"\n" not in data:
        left = deadline - time.monotonic()
        if left <= 0:
            raise _Refused("the join line did not come in time")
        conn.settimeout(left)
        try:
            chunk = conn.recv(limit + 1 - len(data))
        except TimeoutError:
            raise _Refused("the join line did not come in time") from None
        if not chunk:
            raise ValueError("the connection closed before its first line")
        data += chunk
        if len(data) > limit and b"\n" not in data:
            raise _Refused(f"a first line longer than {limit} bytes")
    return data.split(b"\n", 1)[0]


def _waited(conn: socket.socket) -> str:
    """How a joined connection waited for its game: ``quiet`` (open, nothing sent: a program speaks only when spoken
    to), ``spoke`` (it sent something) or ``closed``."""
    try:
        if not (isinstance(conn, ssl.SSLSocket) and conn.pending()):
            readable, _, _ = select.select([conn], [], [], 0)
            if not readable:
                return "quiet"
        conn.settimeout(0.5)
        return "spoke" if conn.recv(1) else "closed"
    except (OSError, ValueError, ssl.SSLError):
        return "closed"


def _peer(conn: socket.socket) -> str:
    try:
        host, port = conn.getpeername()[:2]
        return f"{host}:{port}"
    except OSError:
        return "a closed connection"


def _relay(worker: socket.socket, remote: socket.socket, done: Any) -> None:
    """Pass bytes both ways until either side closes, then close both (all in this thread: see
    :mod:`~hearts_env.evaluation.seat.shuttle`). A side that does not read within :data:`SEND_SECONDS` is dropped
    (its seat's next read sees the end: a crash, charged to the seat)."""

    def to_worker(data: bytes) -> None:
        worker.settimeout(SEND_SECONDS)
        worker.sendall(data)

    worker_end = shuttle.Peer(worker.fileno(), lambda: worker.recv(shuttle.CHUNK), to_worker)
    try:
        shuttle.shuttle(remote, worker_end, SEND_SECONDS)
    finally:
        for sock in (worker, remote):
            shuttle.wake(sock)
            shuttle.close(sock)
        done()


class RemoteLink:
    """The channel of a remote seat in a worker process (what :class:`~hearts_env.evaluation.seat.sandbox.Launched` is
    to a started program): the broker's socket, carrying the seat's messages to and from its joined connection."""

    def __init__(self, sock: socket.socket, name: str):
        self.sock = sock
        self.name = name
        self.folders: list[str] = []

    def send(self, data: bytes) -> None:
        self.sock.settimeout(SEND_SECONDS)
        self.sock.sendall(data)

    def fileno(self) -> int:
        return self.sock.fileno()

    def status(self) -> str:
        return f"remote seat {self.name!r}: its connection closed"

    def goodbye(self, data: bytes) -> None:
        with contextlib.suppress(OSError):
            self.send(data)

    def kill(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(OSError):
            self.sock.close()


def connect_broker(name: str) -> RemoteLink:
    """A worker's link to a joined connection of remote seat ``name`` (``OSError`` saying why there is none)."""
    path = os.environ.get(BROKER_VARIABLE)
    if not path:
        raise OSError(f"remote seat {name!r}: this run has no seat server (hearts-env arena --seat-server HOST:PORT "
                      "--seat-tokens FILE)")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(path)
        sock.sendall(name.encode() + b"\n")
        answer = _read_line(sock, 16, time.monotonic() + PAIR_SECONDS + 10)
    except (OSError, ValueError, _Refused) as e:
        sock.close()
        raise OSError(f"remote seat {name!r}: the seat server did not answer ({e})") from None
    if answer != b"ok":
        sock.close()
        raise OSError(f"remote seat {name!r}: no program joined within {PAIR_SECONDS:g} s")
    sock.settimeout(None)
    return RemoteLink(sock, name)
