"""A task bound that holds under a dealer run as root: one pids control group per seat program.

``RLIMIT_NPROC`` (set inside the sandbox, :data:`~hearts_env.evaluation.seat.sandbox.NPROC_WRAPPER`) binds only tasks
whose host user is not root; the kernel exempts root's. A dealer run as root (a container, a CI machine) may instead
make a child of its own control group in the ``pids`` controller, set its ``pids.max``, and start the sandbox inside
it: every task the program starts, threads included, counts there, and one fork past the bound fails (``EAGAIN``)
whoever the user. The machine must give root a writable ``pids`` hierarchy: cgroup v1's ``pids`` controller, or a
cgroup v2 group whose ``cgroup.subtree_control`` delegates ``pids``. Where none is found, :func:`group_parent` is
``None`` and the run's manifest says the bound does not hold (``processes_held``).
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import os
import secrets
import time
from pathlib import Path

PREFIX = "hearts-seat-"
"""The name of each seat program's group begins with this, then the dealer's PID, a count and a random part (a
group left behind by a dealer that was killed never meets a later one that has its PID)."""

_made = 0
_busy: list[str] = []  # groups whose last tasks had not yet gone when their program ended: removed later


def _mounts() -> list[tuple[str, str, set[str]]]:
    """(mount point, file system type, super options) of each cgroup mount (``/proc/self/mountinfo``)."""
    found = []
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/mountinfo").read_text().splitlines():
            left, _, right = line.partition(" - ")
            fields, tail = left.split(), right.split()
            if len(fields) >= 5 and len(tail) >= 3 and tail[0] in ("cgroup", "cgroup2"):
                found.append((fields[4], tail[0], set(tail[2].split(","))))
    return found


def _own_groups() -> dict[str, str]:
    """This process's group in each hierarchy (``/proc/self/cgroup``): controllers (``""`` for v2) to path."""
    groups = {}
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            groups[controllers] = path
    return groups


def _candidates() -> list[str]:
    own = _own_groups()
    found = []
    for point, kind, options in _mounts():
        if kind == "cgroup" and "pids" in options:
            path = next((p for c, p in own.items() if "pids" in c.split(",")), None)
            if path is not None:
                found.append(os.path.join(point, path.lstrip("/")))
        elif kind == "cgroup2" and "" in own:
            folder = os.path.join(point, own[""].lstrip("/"))
            with contextlib.suppress(OSError):
                if "pids" in Path(folder, "cgroup.subtree_control").read_text().split():
                    found.append(folder)
    return found


@functools.lru_cache(maxsize=1)
def group_parent() -> str | None:
    """The group under which this dealer makes its seat programs' groups, or ``None`` (not root, or no writable
    ``pids`` hierarchy). Found once per process, by making and removing a probe group."""
    if os.geteuid() != 0:
        return None
    for parent in _candidates():
        probe = os.path.join(parent, f"{PREFIX}{os.getpid()}-probe")
        try:
            os.mkdir(probe)
        except OSError:
            continue
        try:
            if os.path.exists(os.path.join(probe, "pids.max")):
                _remove_left_behind(parent)
                return parent
        finally:
            with contextlib.suppress(OSError):
                os.rmdir(probe)
    return None


def make_group(tasks: int) -> str | None:
    """A new group holding at most ``tasks`` tasks, or ``None`` where :func:`group_parent` is ``None``."""
    global _made
    parent = group_parent()
    if parent is None:
        return None
    _remove_busy()
    _made += 1
    group = os.path.join(parent, f"{PREFIX}{os.getpid()}-{_made}-{secrets.token_hex(4)}")
    os.mkdir(group)
    try:
        Path(group, "pids.max").write_text(str(tasks))
    except OSError:
        os.rmdir(group)
        raise
    return group


def join(group: str) -> None:
    """Runs in the child between ``fork`` and ``exec``: it and everything it starts count in ``group``."""
    with open(os.path.join(group, "cgroup.procs"), "w") as procs:
        procs.write(str(os.getpid()))


def remove_group(group: str) -> None:
    """Remove a program's group once it has ended; tasks the kernel has not yet reaped keep it a moment, so a group
    still busy after a short wait is removed at a later launch."""
    for _ in range(20):
        try:
            os.rmdir(group)
            return
        except FileNotFoundError:
            return
        except OSError:
            time.sleep(0.05)
    _busy.append(group)


def _remove_busy() -> None:
    for group in list(_busy):
        try:
            os.rmdir(group)
        except FileNotFoundError:
            pass
        except OSError:
            continue
        _busy.remove(group)


atexit.register(_remove_busy)  # a worker's last programs' groups, emptied by now


def _remove_left_behind(parent: str) -> None:
    """Remove the empty groups of dealers that are gone (killed before they could): a group whose dealer's PID no
    longer runs. A group with tasks in it stays (``rmdir`` refuses it)."""
    with contextlib.suppress(OSError):
        for entry in os.scandir(parent):
            pid = entry.name[len(PREFIX):].split("-", 1)[0]
            if not (entry.name.startswith(PREFIX) and pid.isdigit() and entry.is_dir()):
                continue
            try:
                os.kill(int(pid), 0)
            except ProcessLookupError:
                with contextlib.suppress(OSError):
                    os.rmdir(entry.path)
            except PermissionError:
                pass
