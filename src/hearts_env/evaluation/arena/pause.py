"""Pausing a run cleanly: the first SIGINT or SIGTERM lets the games in play finish and be written, then the
run stops with :class:`RunPaused` (``resume`` continues it); a second signal stops at once.

A game abandoned mid-play is played again from its start when the run resumes, so a run stopped that way
could keep the replay it liked better: hearts-bench refuses a leaderboard row with an abandoned game
(:func:`hearts_env.evaluation.benchmark.verify.verify_run`). A pause abandons none.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

SIGNALS = (signal.SIGINT, signal.SIGTERM)
_active: PauseRequest | None = None


class RunPaused(Exception):
    """The run stopped at a pause: every game in play was finished and written; ``resume`` continues it."""


class PauseRequest:
    """Whether a pause was asked for (:attr:`asked`). As the signal handler of the run's process, the first
    signal asks and says so on stderr; a second raises ``KeyboardInterrupt`` there and then."""

    def __init__(self) -> None:
        self.asked = False

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        if self.asked:
            raise KeyboardInterrupt
        self.asked = True
        os.write(2, f"\n{signal.Signals(signum).name}: pausing once the games in play are finished and written "
                    f"(signal again to stop at once, abandoning them)\n".encode())


@contextmanager
def pausable() -> Iterator[PauseRequest]:
    """Handle SIGINT and SIGTERM with a :class:`PauseRequest` for the block (outside the main thread, where
    Python cannot set handlers, the request is never asked), then put the handlers back. Inside another
    such block, the outer request."""
    global _active
    if _active is not None:  # a block inside another (a benchmark's rungs): the outer request serves
        yield _active
        return
    request = PauseRequest()
    if threading.current_thread() is not threading.main_thread():
        yield request
        return
    previous = {s: signal.signal(s, request) for s in SIGNALS}
    _active = request
    try:
        yield request
    finally:
        _active = None
        for s, handler in previous.items():
            signal.signal(s, handler)


def ignore_signals() -> None:
    """In a worker process: leave SIGINT and SIGTERM to the run's process, which decides (a Ctrl-C in a
    terminal reaches the whole process group; the worker must not die mid-game)."""
    for s in SIGNALS:
        signal.signal(s, signal.SIG_IGN)
