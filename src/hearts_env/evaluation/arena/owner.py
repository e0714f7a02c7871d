"""One command writes a run at a time: an exclusive lock on its output, held while the command runs.

Two commands appending to one results file (a second ``--resume`` while the first still plays) would each play the
games the other has not written yet and record them twice: the run could then never verify. The lock is the kernel's
(``flock``) on the output itself — the results file, or the run's folder — so it needs no file of its own and a
command that crashed or was killed leaves nothing held.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path


class OutputInUse(ValueError):
    """Another command holds the output (a results file or a run's folder)."""


@contextlib.contextmanager
def owning(path: Path | None, folder: bool = False) -> Iterator[None]:
    """Hold ``path`` for the ``with`` block, or raise :class:`OutputInUse` naming it. ``folder``: ``path`` is a run's
    folder, made (with the folders holding it, mode 0700) when missing; otherwise a results file, made empty when
    missing. ``None``: nothing to hold."""
    if path is None:
        yield
        return
    path.parent.mkdir(parents=True, exist_ok=True)  # runs/… in a fresh clone
    if folder:
        with contextlib.suppress(FileExistsError):  # a file of that name is held too: the caller names it
            path.mkdir(mode=0o700)
        descriptor = os.open(path, os.O_RDONLY)
    else:
        descriptor = os.open(path, os.O_RDONLY | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise OutputInUse(f"{path} is being written by another command that has not ended: wait for it or "
                              f"stop it first (two commands writing one run would play and record its games "
                              f"twice)") from None
        yield
    finally:
        os.close(descriptor)
