"""Where a seat's program runs: an empty home, the folder it starts in (:attr:`Sandbox.workdir`), an environment and
argv that name nothing of the run, resource limits, and on Linux a bubblewrap sandbox (docs/benchmark.md, "Threat
model").

``bwrap`` mode (the default where ``bwrap`` is installed; Debian/Ubuntu package ``bubblewrap``): the
program sees the file system read-only, a private empty ``/tmp`` as its home, the paths
it is kept from (the run's output folder: its records and any held-out secret) covered by empty ones,
its own user (uid 65534, no capabilities), PID, network, IPC and UTS namespaces (no other process of
the machine, no network), and it dies with its dealer. It works as root in a container and as any user
where unprivileged user namespaces are allowed. Its
options reach bubblewrap through a file descriptor (``--args``), so the program cannot read from
``/proc`` even the paths it is kept from. ``basic`` mode keeps only the home, the working folder, the environment and
the limits: for machines without bubblewrap, and not for results others should trust.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import resource
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hearts_env.evaluation.seat import task_groups

MODES = ("auto", "bwrap", "basic")
NOBODY = 65534
KEPT_VARIABLES = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "LANG", "LC_ALL", "TZ")
"""Variables a seat keeps from the dealer's environment: machine facts that change no result, but without
which some libraries misbehave (OpenBLAS on some processors). Besides :data:`PROGRAM_VARIABLES`, nothing else passes."""
PROGRAM_VARIABLES = ("HEARTS_ENV_XINXIN",)  # = hearts_env.evaluation.reference.xinxin.DRIVER_ENV, written out:
# the sandbox imports no agent code; tests/test_xinxin.py seats xinxin through it by that variable
"""Variables naming a reference program that a seat starts (the xinxin driver, docs/reference.md): kept, and the
file each names kept visible, so that ``hosted:xinxin`` finds the driver a user pointed it at. They name nothing
of the run, and the program is one any seat could start anyway."""


class SandboxError(RuntimeError):
    """The sandbox asked for cannot be had on this machine."""


@dataclass(frozen=True)
class Sandbox:
    """How seat programs are confined (see the module docstring). Limits apply per seat process."""

    mode: str = "auto"
    memory_bytes: int | None = 8 << 30
    """Address-space limit (``RLIMIT_AS``); a program that needs more fails its allocation and, usually, dies."""
    cpu_seconds: int | None = 3600
    """CPU time one seat process may use in its life (``RLIMIT_CPU``; it plays at most 200 deals)."""
    tmp_bytes: int | None = 256 << 20
    """The size of each of the sandbox's memory file systems (``/tmp`` and ``/dev/shm``, ``bwrap --size``): what a
    program writes there is memory outside ``RLIMIT_AS``, so it is bounded here instead."""
    file_bytes: int | None = 256 << 20
    """The largest file a program may write (``RLIMIT_FSIZE``): its folder of compiled kernels is on the host's disk."""
    processes: int | None = 256
    """Tasks (processes and threads) a ``bwrap`` sandbox may hold at once (``RLIMIT_NPROC``, set inside its user
    namespace, where the kernel counts that namespace's tasks alone). The kernel exempts tasks whose host user is
    root: under a dealer run as root the program runs in a pids control group of this size instead, where the machine
    lets root make one (:mod:`.task_groups`), and nothing bounds them where it does not: :func:`processes_held`
    says."""
    hidden: tuple[str, ...] = ()
    """Paths the program must not see (the run's output folder or results file)."""
    visible: tuple[str, ...] = ()
    """Paths the program reads that the sandbox would cover (its own files under ``/tmp``): shown read-only."""
    log: str | None = None
    """A file the program's stderr is appended to (for debugging an agent); by default it is discarded."""
    workdir: str | None = None
    """The folder the program starts in: the command's folder (:func:`~hearts_env.evaluation.seat.schemes.seated_agent`
    sets it), so that a path an agent reads — ``weights='policy.npz'``, a ``config.json`` — means what it means to the
    user who typed it; read-only under ``bwrap``, the paths it is kept from covered as everywhere. ``None``: its empty
    home. It writes under ``$HOME`` (and ``$TMPDIR``), its own empty folder either way."""

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"sandbox mode {self.mode!r} is not valid; valid: {', '.join(MODES)}")
        for name in ("memory_bytes", "cpu_seconds", "tmp_bytes", "file_bytes", "processes"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise ValueError(f"Sandbox {name} must be an integer >= 1 (or None: no limit), got {value!r}")

    def resolved(self) -> str:
        """The mode this machine gives: ``auto`` is ``bwrap`` where it works, else ``basic``."""
        if self.mode == "basic":
            return "basic"
        if bwrap_works():
            return "bwrap"
        if self.mode == "bwrap":
            raise SandboxError("the bwrap sandbox needs bubblewrap on Linux (apt-get install bubblewrap) and user "
                               "namespaces (allowed for root, and for other users on most distributions); or choose "
                               "--sandbox basic")
        return "basic"

    def describe(self) -> str:
        """The mode in force and who the program runs as, for the run's manifest."""
        mode = self.resolved()
        return mode


_BWRAP_WORKS: bool | None = None


def bwrap_works() -> bool:
    """Whether a bubblewrap sandbox starts here (checked once per process)."""
    global _BWRAP_WORKS
    if _BWRAP_WORKS is None:
        _BWRAP_WORKS = False
        if sys.platform.startswith("linux") and shutil.which("bwrap"):
            try:
                probe = subprocess.run(["bwrap", "--ro-bind", "/", "/", "--unshare-all",
                                        "--die-with-parent", "true"], capture_output=True, timeout=30)
                _BWRAP_WORKS = probe.returncode == 0
            except (OSError, subprocess.TimeoutExpired):
                pass
    return _BWRAP_WORKS


class Launched:
    """A started seat program: its process and the folders made for it (removed by :meth:`cleanup`)."""

    def __init__(self, process: subprocess.Popen[bytes], folders: list[str], task_group: str | None = None):
        self.process = process
        self.folders = folders
        self.task_group = task_group  # its pids control group under a root dealer (task_groups)

    # The channel a seat's messages go through (:class:`~hearts_env.evaluation.seat.client.SeatAgent`): the
    # program's stdin and stdout here, a socket for a remote seat (:mod:`~hearts_env.evaluation.seat.remote`).
    def send(self, data: bytes) -> None:
        """Write ``data`` to the program (``OSError`` once it has ended)."""
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def fileno(self) -> int:
        """What the program's replies are read from."""
        assert self.process.stdout is not None
        return self.process.stdout.fileno()

    def status(self) -> str:
        """How the program ended (``exit status 1``, ``killed by signal 9``), once it has."""
        try:
            code = self.process.wait(timeout=2)
        except Exception:
            return "still running"
        return f"killed by signal {-code}" if code < 0 else f"exit status {code}"

    def goodbye(self, data: bytes) -> None:
        """Write the goodbye ``data`` and give the program two seconds to end (then :meth:`kill` ends it)."""
        with contextlib.suppress(Exception):
            if self.process.poll() is None:
                self.send(data)
                self.process.wait(timeout=2)

    def kill(self) -> None:
        """End the program and everything it started (its process group; the sandbox's PID namespace)."""
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, 9)
            except (ProcessLookupError, PermissionError):
                self.process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=10)
        self.cleanup()

    def cleanup(self) -> None:
        for folder in self.folders:
            shutil.rmtree(folder, ignore_errors=True)
        self.folders = []
        if self.task_group is not None and self.process.poll() is not None:
            task_groups.remove_group(self.task_group)
            self.task_group = None


def environment(home: str) -> dict[str, str]:
    """The whole environment of a seat program: one thread per native pool, a writable home, nothing of
    the dealer's but :data:`KEPT_VARIABLES`."""
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "TMPDIR": home, "PYTHONDONTWRITEBYTECODE": "1",
           "PYTHONUNBUFFERED": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
           "NUMBA_NUM_THREADS": "1", "NUMBA_CACHE_DIR": f"{home}/numba-cache", "MPLBACKEND": "Agg"}
    env.update({k: os.environ[k] for k in (*KEPT_VARIABLES, *PROGRAM_VARIABLES) if k in os.environ})
    return env


def program_paths() -> list[str]:
    """The files that :data:`PROGRAM_VARIABLES` name here."""
    return [os.path.abspath(os.environ[k]) for k in PROGRAM_VARIABLES if os.environ.get(k)]


def launch(command: Sequence[str], sandbox: Sandbox, cache: str | None = None) -> Launched:
    """Start ``command`` as a seat program under ``sandbox``, its stdin and stdout pipes to the caller.
    ``cache``: a folder the program may write and keep between its restarts (Numba's compiled kernels);
    it is the program's own, never read by the dealer."""
    mode = sandbox.resolved()
    stderr: Any = subprocess.DEVNULL if sandbox.log is None else open(sandbox.log, "ab")  # noqa: SIM115
    limits = (sandbox.memory_bytes, sandbox.cpu_seconds, sandbox.file_bytes)
    if mode == "basic":
        home = tempfile.mkdtemp(prefix="hearts-seat-")
        env = environment(home)
        if cache is not None:
            env["NUMBA_CACHE_DIR"] = cache
        try:
            process = subprocess.Popen(list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=stderr, cwd=sandbox.workdir or home, env=env, close_fds=True,
                                       start_new_session=True, preexec_fn=lambda: _limit(*limits))
        finally:
            _close(stderr)
        return Launched(process, [home])
    home = "/tmp"
    size = [] if sandbox.tmp_bytes is None else ["--size", str(sandbox.tmp_bytes)]  # memory past RLIMIT_AS
    args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", *size, "--tmpfs", "/tmp", *size, "--tmpfs",
            "/dev/shm", "--unshare-all", "--unshare-user", "--uid", str(NOBODY), "--gid", str(NOBODY), "--cap-drop",
            "ALL", "--die-with-parent", "--new-session", "--clearenv"]
    env = environment(home)
    if cache is not None:
        args += ["--bind", cache, "/tmp/numba-cache"]
    workdir = home if sandbox.workdir is None else os.path.abspath(sandbox.workdir)
    shown = (*python_paths(), *program_paths(), *sandbox.visible, *([] if workdir == home else [workdir]))
    for path in dict.fromkeys(shown):  # under /tmp, which it covers
        if os.path.realpath(path).startswith("/tmp/") and os.path.exists(path):
            args += ["--ro-bind", path, path]
    for path in sandbox.hidden:  # a path made later is made before any program that must not see it starts
        if Path(path).is_dir():
            args += ["--size", "65536", "--tmpfs", path]
        elif Path(path).exists():
            args += ["--ro-bind", "/dev/null", path]
    args += ["--chdir", workdir]  # after the covers: a covered working folder is an empty one
    for name, value in env.items():
        args += ["--setenv", name, value]
    if sandbox.processes is not None:  # set inside the namespace: its tasks alone count, not the host user's
        command = [sys.executable, "-I", "-S", "-c", NPROC_WRAPPER, str(sandbox.processes), *command]
    # under a root dealer RLIMIT_NPROC does not bind: a pids control group does, where the machine gives one
    try:
        group = None if sandbox.processes is None or os.geteuid() != 0 else task_groups.make_group(sandbox.processes)
    except OSError as e:  # the dealer's machine failed, not the program: the run stops (and resumes), no forfeit
        raise SandboxError(f"cannot make the seat program's pids control group: {e}") from None

    def prepare() -> None:
        _limit(*limits)
        if group is not None:
            task_groups.join(group)

    read, write = os.pipe()
    os.write(write, b"".join(a.encode() + b"\0" for a in args))
    os.close(write)
    try:
        process = subprocess.Popen(["bwrap", "--args", str(read), "--", *command], stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, stderr=stderr, cwd="/", env={},
                                   pass_fds=(read,), start_new_session=True, preexec_fn=prepare)
    except BaseException:
        if group is not None:
            task_groups.remove_group(group)
        raise
    finally:
        os.close(read)
        _close(stderr)  # the program has its own copy
    return Launched(process, [], group)


NPROC_WRAPPER = ("import os, resource, sys; n = int(sys.argv[1]); resource.setrlimit(resource.RLIMIT_NPROC, (n, n)); "
                 "os.execvp(sys.argv[2], sys.argv[2:])")
"""Runs first inside a ``bwrap`` sandbox: the task limit, then the program itself (same process)."""


def processes_held(sandbox: Sandbox) -> bool:
    """Whether :attr:`Sandbox.processes` binds here: a ``bwrap`` sandbox under a dealer that is not root, or under a
    root dealer that may make pids control groups (:mod:`.task_groups`)."""
    return sandbox.processes is not None and sandbox.resolved() == "bwrap" and (
        os.geteuid() != 0 or task_groups.group_parent() is not None)


def _close(stream: Any) -> None:
    if hasattr(stream, "close"):
        stream.close()


def python_paths() -> list[str]:
    """Where this Python and its packages live (the interpreter, the environment, every import path): a
    seat's program needs them, and a checkout or virtual environment may sit under ``/tmp``."""
    paths = [os.path.dirname(sys.executable), os.path.dirname(os.path.realpath(sys.executable)), sys.prefix,
             sys.base_prefix, *sys.path]
    for package in ("hearts_env", "hearts_baselines"):  # an editable install maps them without a sys.path entry
        spec = importlib.util.find_spec(package)
        paths += [os.path.dirname(folder) for folder in (spec.submodule_search_locations or [])] if spec else []
    return [os.path.abspath(p) for p in paths if p and os.path.abspath(p) != "/tmp"]


CACHE_BYTES = 256 << 20
"""The most a seat's folder of compiled kernels may hold (files' apparent sizes: a sparse file counts in full)."""
CACHE_ENTRIES = 20_000
"""The most files and folders it may hold."""


def copy_kernels(source: str, target: str) -> None:
    """Copy a seat's folder of compiled kernels into ``target``: regular files and folders only, read without
    following a link (a link, a named pipe, a socket or a device the program made is left behind, never opened), at
    most :data:`CACHE_BYTES` and :data:`CACHE_ENTRIES`. Past either, :class:`OSError` naming the limit, before
    anything large is written: the program's doing, charged to its seat by the caller."""
    budget = [CACHE_BYTES, CACHE_ENTRIES]

    def copy(src: str, dst: str) -> None:
        with os.scandir(src) as entries:
            for entry in entries:
                budget[1] -= 1
                if budget[1] < 0:
                    raise OSError(f"its folder of compiled kernels holds more than {CACHE_ENTRIES} entries")
                info = entry.stat(follow_symlinks=False)
                out = os.path.join(dst, entry.name)
                if stat.S_ISDIR(info.st_mode):
                    os.mkdir(out, 0o700)
                    copy(entry.path, out)
                elif stat.S_ISREG(info.st_mode):
                    budget[0] -= info.st_size
                    if budget[0] < 0:
                        raise OSError(f"its folder of compiled kernels holds more than {CACHE_BYTES >> 20} MiB")
                    _copy_file(entry.path, out, info.st_size)

    copy(source, target)


def seal_kernels(folder: str) -> None:
    """Leave in ``folder`` only what :func:`copy_kernels` copies from it: once the program that filled it has
    ended, nothing it planted there (a link, a pipe, a device, a file past the limits) reaches another program.
    :class:`OSError` past the limits, the folder then emptied."""
    sealed = tempfile.mkdtemp(prefix="hearts-seat-cache-", dir=os.path.dirname(folder) or None)
    try:
        try:
            copy_kernels(folder, sealed)
        finally:
            for entry in os.scandir(folder):  # removed without following anything
                if entry.is_dir(follow_symlinks=False):
                    shutil.rmtree(entry.path)
                else:
                    os.unlink(entry.path)
        for name in os.listdir(sealed):
            os.rename(os.path.join(sealed, name), os.path.join(folder, name))
    finally:
        shutil.rmtree(sealed, ignore_errors=True)


def kernel_files(folder: str) -> list[tuple[str, bytes]]:
    """A sealed folder of compiled kernels (:func:`seal_kernels`: regular files and folders, within the limits) as
    (path inside it, contents): how a run on a cluster carries the run's kernels to nodes that lack the folder."""
    files = []
    for root, folders, names in os.walk(folder):
        folders.sort()  # the same list on every machine
        for name in sorted(names):
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                files.append((os.path.relpath(path, folder), f.read()))
    return files


def write_kernel_files(files: Sequence[tuple[str, bytes]], target: str) -> None:
    """Write what :func:`kernel_files` read into the (empty) folder ``target``."""
    for name, data in files:
        path = os.path.join(target, name)
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        with open(path, "xb") as f:
            f.write(data)


def _copy_file(src: str, dst: str, size: int) -> None:
    """Copy ``size`` bytes of the regular file ``src``, opened without following a link and without blocking."""
    fd = os.open(src, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped for something else since it was listed
            return
        with os.fdopen(os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as out:
            left = size
            while left > 0:
                chunk = os.read(fd, min(left, 1 << 20))
                if not chunk:
                    break
                out.write(chunk)
                left -= len(chunk)
    finally:
        os.close(fd)


def private_folder(prefix: str) -> str:
    """A new folder for a seat program's own files (the dealer never reads it)."""
    return tempfile.mkdtemp(prefix=prefix)


def _limit(memory: int | None, cpu: int | None, file: int | None) -> None:
    """Runs in the child before ``exec``: the resource limits, and no core files."""
    for which, value in ((resource.RLIMIT_AS, memory), (resource.RLIMIT_CPU, cpu), (resource.RLIMIT_FSIZE, file),
                         (resource.RLIMIT_CORE, 0)):
        if value is not None:
            resource.setrlimit(which, (value, value))


def describe_limits(sandbox: Sandbox) -> dict[str, Any]:
    """The limits in force, for the run's manifest."""
    return {"sandbox": sandbox.describe(), "memory_bytes": sandbox.memory_bytes, "cpu_seconds": sandbox.cpu_seconds,
            "tmp_bytes": sandbox.tmp_bytes, "file_bytes": sandbox.file_bytes, "processes": sandbox.processes,
            "processes_held": processes_held(sandbox)}
