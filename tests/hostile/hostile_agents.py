"""Agents written by a submitter who wants a better number (tests/test_seat_attacks.py).

Each plays exactly like ``heuristic`` unless its trick works; when it works, the agent plays its lowest
legal card instead, so any success shows as a result different from honest ``heuristic``'s. The
crashing ones end their seat in the ways the old in-process benchmark could not survive.
"""

from __future__ import annotations

import contextlib
import gc
import glob
import inspect
import os
import sys
import time
from typing import Any

from hearts_env.agents.basic import HeuristicAgent
from hearts_env.cards import iter_cards


class Hostile(HeuristicAgent):
    """Heuristic, until :meth:`trick` returns True. The crashing ones hold back while the host warms them up
    (seed 0) and in the benchmark's start-up check, so that they crash in the games."""

    live = False

    def reset(self, rules: Any, seat: int, seed: Any = None) -> None:
        super().reset(rules, seat, seed)
        self.live = seed not in (0, None)

    def trick(self, view: Any) -> bool:
        return False

    def act(self, view: Any) -> int:
        if self.trick(view):
            return min(iter_cards(view.legal))
        return super().act(view)


class StackWalker(Hostile):
    """Walks the call stack and the heap for the true deal: a ``Deal`` that dealt this seat its hand."""

    def trick(self, view: Any) -> bool:
        from hearts_env.engine import Deal

        def true_deal(value: Any) -> bool:
            return isinstance(value, Deal) and value.dealt[view.seat] == view.dealt

        frame = inspect.currentframe()
        while frame is not None:
            if any(true_deal(v) for v in frame.f_locals.values()):
                return True
            frame = frame.f_back
        return any(true_deal(o) for o in gc.get_objects())


_HEURISTIC_ACT = HeuristicAgent.act


class LadderPatcher(Hostile):
    """Makes the ladder's agents play their highest card by patching their classes, and plays honestly."""

    def act(self, view: Any) -> int:
        from hearts_env.agents import basic

        basic.HeuristicAgent.act = lambda self, v: max(iter_cards(v.legal))  # type: ignore[method-assign]
        basic.GreedyAgent.act = lambda self, v: max(iter_cards(v.legal))  # type: ignore[method-assign]
        return _HEURISTIC_ACT(self, view)


class Snoop(Hostile):
    """Looks for the run's records, manifest and held-out secret on disk and in /proc, and tries to
    rewrite the package's code that later dealer processes import."""

    def __init__(self, out: str = "") -> None:
        super().__init__()
        self.out = out

    def trick(self, view: Any) -> bool:
        found = False
        for path in glob.glob(os.path.join(self.out, "*")) if self.out else []:
            try:
                with open(path, "rb") as f:
                    found |= bool(f.read(1))
            except OSError:
                pass
        for cmdline in glob.glob("/proc/[0-9]*/cmdline"):
            try:
                with open(cmdline, "rb") as f:
                    text = f.read()
                found |= b"holdout" in text
            except OSError:
                pass
        found |= any("holdout" in a for a in sys.argv)
        found |= any("holdout" in v or (self.out and self.out in v) for v in os.environ.values())
        import hearts_env.evaluation.arena.game as game

        try:
            with open(game.__file__, "a"):  # opening it to append is proof enough: nothing is written, since a
                found = True  # run outside the sandbox (isolation "none") would write to the source tree
        except OSError:
            pass
        return found


class ExitWhenLosing(Hostile):
    """Leaves the process when it has taken points, hoping the game is played again."""

    def act(self, view: Any) -> int:
        if self.live and view.points_taken[view.seat] > 0:
            os._exit(1)
        return super().act(view)


class RaisesSystemExit(Hostile):
    def act(self, view: Any) -> int:
        if self.live and view.plays:
            raise SystemExit(0)
        return super().act(view)


class RaisesKeyboardInterrupt(Hostile):
    def act(self, view: Any) -> int:
        if self.live and view.plays:
            raise KeyboardInterrupt
        return super().act(view)


class _Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no message for you")


class RaisesUnprintable(Hostile):
    def act(self, view: Any) -> int:
        if self.live and view.plays:
            raise _Unprintable
        return super().act(view)


class Hangs(Hostile):
    """Never returns its first move of the play (a move time limit must end it)."""

    def act(self, view: Any) -> int:
        if self.live and view.plays:
            while True:
                time.sleep(1)
        return super().act(view)


class Prints(Hostile):
    """Prints garbage on stdout and stderr at every decision, and plays honestly."""

    def act(self, view: Any) -> int:
        print("{garbage", flush=True)
        print('{"type": "card", "card": 0}', flush=True)
        sys.stderr.write("noise\n")
        return super().act(view)


class Slow(Hostile):
    """Honest, and slow enough (``delay`` seconds a decision; only in the first ``games`` games of its program
    if given) for a test to stop its run halfway."""

    played = 0  # live games of this program

    def __init__(self, delay: float = 0.02, games: int | None = None) -> None:
        super().__init__()
        self.delay, self.games = delay, games

    def reset(self, rules: Any, seat: int, seed: Any = None) -> None:
        super().reset(rules, seat, seed)
        if self.live:
            type(self).played += 1

    def act(self, view: Any) -> int:
        if self.games is None or type(self).played <= self.games:
            time.sleep(self.delay)
        return super().act(view)


class FigurePatcher(Hostile):
    """From its constructor, rewrites the figures the harness computes: every margin +5, every interval with it."""

    def __init__(self) -> None:
        super().__init__()
        from hearts_env.evaluation.benchmark import stats

        honest = stats.paired
        stats.paired = lambda differences: honest([d + 5 for d in differences])  # type: ignore[assignment]


class RulesRigger(Hostile):
    """Rigs the rule data the dealing and scoring code read (the presets every rules spec starts from): the
    moon off and hearts worth nothing, where the old in-process benchmark would have dealt later deals by it."""

    def __init__(self) -> None:
        super().__init__()
        from hearts_env import rules

        for preset in rules.PRESETS.values():  # frozen dataclasses, mutated in place for every holder
            object.__setattr__(preset, "heart_points", 0)


class SearchWeakener(Hostile):
    """Finds every search agent object it can reach and cuts its budget to one world."""

    def act(self, view: Any) -> int:
        for obj in gc.get_objects():
            if not str(getattr(type(obj), "__module__", "")).startswith(("hearts_baselines", "hearts_env.agents")) \
                    or obj is self or isinstance(obj, type):
                continue
            for budget in ("n", "worlds", "iterations", "num_worlds"):
                if hasattr(obj, budget):
                    with contextlib.suppress(Exception):
                        setattr(obj, budget, 1)
        return super().act(view)


class Memorizer(Hostile):
    """Remembers every deal it finished (all four hands, from the end-of-deal view) in the one folder it may
    write and keep, and looks its hand up there: a deal met again in another seating would be an open book."""

    def _folder(self) -> str:
        return os.environ.get("NUMBA_CACHE_DIR", "/tmp")

    def end_deal(self, view: Any) -> None:
        played = [p for p in view.played_by]
        with open(os.path.join(self._folder(), f"deal-{view.dealt}-{len(os.listdir(self._folder()))}"), "w") as f:
            f.write(" ".join(str(p) for p in played))

    def trick(self, view: Any) -> bool:
        for name in os.listdir(self._folder()):
            if name.startswith("deal-"):
                with open(os.path.join(self._folder(), name)) as f:
                    if str(view.dealt) in f.read().split():
                        return True
        return False


class Hog(Hostile):
    """Takes 12 GiB of memory for its first move of the play (the sandbox allows a seat 8 GiB)."""

    def act(self, view: Any) -> int:
        if self.live and view.plays:
            self.ballast = bytearray(12 << 30)
        return super().act(view)


class SeedRecogniser(Hostile):
    """Recognises which published deal it plays from the seed its program is sent, by digesting every seed list
    the arena could have given it (the suite's seed is public) without a secret; a deal it knows is an open
    book (all four hands re-dealt from the published suite)."""

    def __init__(self, suite_seed: int = 0, deals: int = 8) -> None:
        super().__init__()
        self.suite_seed, self.deals = suite_seed, deals

    def reset(self, rules: Any, seat: int, seed: Any = None) -> None:
        from hearts_env.evaluation.seat import seat_seed

        super().reset(rules, seat, seed)
        self.known = any(seed == seat_seed([self.suite_seed, d, s, 0, seat]) for d in range(self.deals)
                         for s in range(14))

    def trick(self, view: Any) -> bool:
        return self.known


class CachePlanter(Hostile):
    """Plants in its folder of compiled kernels, which the benchmark's start-up check fills for the run's programs:
    a named pipe (copying it blocks or fails), a link to a file of the machine, and with ``sparse`` two sparse
    files of 200 MiB (each under the file-size limit) that cost no disk here but are written out in full wherever
    they are copied. Plays as ``heuristic``."""

    def __init__(self, sparse: bool = False) -> None:
        super().__init__()
        folder = os.environ.get("NUMBA_CACHE_DIR")
        if not folder or not os.path.isdir(folder):
            return
        with contextlib.suppress(OSError):
            os.mkfifo(os.path.join(folder, "planted.fifo"))
        with contextlib.suppress(OSError):
            os.symlink("/etc/hostname", os.path.join(folder, "planted.link"))
        for k in range(2 if sparse else 0):
            with contextlib.suppress(OSError), open(os.path.join(folder, f"planted{k}.sparse"), "wb") as f:
                f.truncate(200 << 20)


class TmpFiller(Hostile):
    """Writes 320 MiB into its sandbox's /tmp and /dev/shm, one MiB a file (each file under the file-size limit):
    memory outside its address-space limit, so an unbounded tmpfs lets a seat take the host's RAM. If that much
    fits in either, the trick worked."""

    filled: bool | None = None

    def trick(self, view: Any) -> bool:
        if self.live and self.filled is None:
            self.filled = False
            for folder in ("/tmp", "/dev/shm"):
                written = 0
                try:
                    for k in range(320):
                        with open(os.path.join(folder, f"fill{k}"), "wb") as f:
                            f.write(b"\0" * (1 << 20))
                        written += 1
                except OSError:
                    pass
                self.filled = self.filled or written == 320
                for k in range(written + 1):
                    with contextlib.suppress(OSError):
                        os.unlink(os.path.join(folder, f"fill{k}"))
        return bool(self.filled)


class DiskFiller(Hostile):
    """Writes one file of 300 MiB into its folder of compiled kernels, which is on the host's disk. If it fits, the
    trick worked."""

    filled: bool | None = None

    def trick(self, view: Any) -> bool:
        if self.live and self.filled is None:
            self.filled = False
            path = os.path.join(os.environ.get("NUMBA_CACHE_DIR", "/tmp"), "fill")
            try:
                with open(path, "wb") as f:
                    for _ in range(300):
                        f.write(b"\0" * (1 << 20))
                self.filled = True
            except OSError:
                pass
            with contextlib.suppress(OSError):
                os.unlink(path)
        return bool(self.filled)


class ReturnsAFraction(Hostile):
    """Returns its card id plus 0.9 (a legal card 6 as 6.9): a host that truncated would play card 6 for it."""

    def act(self, view: Any) -> Any:
        card = super().act(view)
        return card + 0.9 if self.live else card


class ReturnsNone(Hostile):
    def act(self, view: Any) -> Any:
        return None if self.live else super().act(view)
