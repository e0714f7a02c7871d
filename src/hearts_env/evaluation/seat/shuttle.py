"""Passing a remote seat's bytes both ways between a network connection and the other end of its game (the dealer's
worker, or the program a bridge started), in **one** thread.

A TLS connection is an OpenSSL object, which is not safe to read in one thread while another writes or closes it;
the two-thread relay this replaced let a ``recv`` and a ``sendall`` (or a ``close``) meet there, in the dealer's
process. Here the one thread waits on both ends with a selector, reads the connection without blocking (what a TLS
record already decrypted holds counts as readable) and writes each end with a deadline.
"""

from __future__ import annotations

import contextlib
import selectors
import socket
import ssl
from collections.abc import Callable
from dataclasses import dataclass

CHUNK = 1 << 16


@dataclass
class Peer:
    """The other end: ``fileno`` to wait on, ``read`` (b"" once it has ended; it is called only when the end is
    readable, so it does not block) and ``write`` (may raise ``OSError``, which ends the shuttle)."""

    fileno: int
    read: Callable[[], bytes]
    write: Callable[[bytes], None]


def shuttle(conn: socket.socket, peer: Peer, send_seconds: float, first: bytes = b"") -> None:
    """Pass bytes between ``conn`` and ``peer`` (``first`` to the peer before anything) until either ends or
    ``conn`` is shut down (:func:`wake`), or a side does not take bytes within ``send_seconds``; then return, leaving
    both open (the caller closes them, in this same thread)."""
    with contextlib.suppress(OSError, ValueError):
        if first:
            peer.write(first)
        conn.setblocking(False)
        with selectors.DefaultSelector() as selector:
            selector.register(conn, selectors.EVENT_READ, "conn")
            selector.register(peer.fileno, selectors.EVENT_READ, "peer")
            while True:
                for key, _ in selector.select():
                    if key.data == "peer":
                        chunk = peer.read()
                        if not chunk:
                            return
                        _send(conn, chunk, send_seconds)
                    elif not _drain(conn, peer):
                        return


def _drain(conn: socket.socket, peer: Peer) -> bool:
    """Pass on what ``conn`` holds now; False once it has ended."""
    while True:
        try:
            chunk = conn.recv(CHUNK)
        except (ssl.SSLWantReadError, ssl.SSLWantWriteError, BlockingIOError):
            return True  # nothing more yet (a TLS record still arriving, or one that carried no data)
        if not chunk:
            return False
        peer.write(chunk)


def _send(conn: socket.socket, data: bytes, seconds: float) -> None:
    conn.settimeout(seconds)
    try:
        conn.sendall(data)
    finally:
        conn.setblocking(False)


def wake(conn: socket.socket) -> None:
    """Shut ``conn`` down at the operating system's level, from any thread: its shuttle sees the end and returns. (The
    TLS object is left alone: only the shuttle's thread touches it.)"""
    with contextlib.suppress(OSError):
        socket.socket.shutdown(conn, socket.SHUT_RDWR)


def close(conn: socket.socket) -> None:
    """Close ``conn`` (in the thread that used it), saying nothing more."""
    with contextlib.suppress(OSError, ValueError):
        conn.close()
