"""The arena's games on a Ray cluster (``backend="ray"``): the same tasks as the local workers' — one seating's pass
per fresh worker process under isolation — spread over the cluster's nodes, each record streamed to the run's
process as its game ends (a Ray generator task), so a run killed or paused loses no finished game.

What a node needs is carried to it: the seats' options and, when the run has one, its sealed folder of compiled
kernels (:func:`~hearts_env.evaluation.seat.sandbox.kernel_files`), written afresh for each task on the node that
plays it. A seated agent's program runs in its sandbox on that node.

A node lost mid-run (:class:`ray.exceptions.NodeDiedError`: preempted, powered off, its raylet gone) is the dealer's
fault, not an agent's: the games its tasks had not finished are played again on other nodes (the one in play, if
any, from its start) and each loss is reported to ``faults`` — a benchmark writes it in its sittings, since the agent
may then have seen part of a deal twice. A game whose node is lost :data:`MOST_MOVES` times stops the run
(:class:`ClusterFault`: a machine that keeps failing under the same games is not a chance). A worker process that
dies on a live node stops the run as on one machine (:class:`~hearts_env.evaluation.arena.runner.WorkerDied`).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, NoReturn

from hearts_env.evaluation.arena.game import close_agents, play_game
from hearts_env.evaluation.arena.pause import PauseRequest
from hearts_env.evaluation.seat.sandbox import kernel_files, private_folder, write_kernel_files

MOST_MOVES = 3
"""Times a game's node may be lost before the run stops (:class:`ClusterFault`)."""
NODE_DEATH_SECONDS = 20.0
"""How long a worker's crash waits for its node to be seen dead (Ray's health checks) before it is the worker's."""
TASKS_PER_CPU = 2
"""Tasks in flight per CPU of the cluster: a node's next task is queued while its worker starts."""

Fault = dict[str, Any]


class ClusterFault(RuntimeError):
    """The cluster cannot play the run: a node lacks what a seat needs, or nodes keep being lost under a game."""


def say_fault(fault: Fault) -> None:
    """The default report of a lost node: one line on stderr."""
    print(f"hearts-env: Ray node {fault['node'][:12]} was lost; its {len(fault['games'])} unfinished game(s) are "
          f"played again on other nodes", file=sys.stderr)


def where_kept(path: Path | None) -> str:
    """Where a stopped run's finished games are, for its message."""
    return f"the finished games are in {path} (--resume continues)" if path is not None else \
        "pass --out to keep finished games"


def require_ray() -> None:
    """Raise ImportError, saying how to install it, where Ray is not installed."""
    if importlib.util.find_spec("ray") is None:
        raise ImportError("backend='ray' needs Ray: pip install 'hearts-env[ray]'")


def on_ray(chunks: list[list[tuple]], jobs: int, isolation: str, path: Path | None, pause: PauseRequest,
           died: Callable[[list[tuple], Path | None], NoReturn],
           faults: Callable[[Fault], None] = say_fault) -> Iterator[dict[str, Any]]:
    """Records of ``chunks`` (each a task's games: ``play_game``'s arguments) played as Ray tasks, as they end; under
    ``isolation="seating"`` each task in a worker process of its own (``max_calls=1``). Joins the cluster named by
    ``RAY_ADDRESS`` (its CPUs decide, ``jobs`` is unused), or one the caller already connected to with ``ray.init``;
    else starts a private local instance of ``jobs`` CPUs. After a pause no task starts and no task starts another
    game; the games in play finish. ``died`` raises for the games a dead worker left (on a live node)."""
    require_ray()
    import ray
    import ray.util.scheduling_strategies

    if not ray.is_initialized():
        if os.environ.get("RAY_ADDRESS"):
            ray.init()  # Ray refuses num_cpus when it joins an existing cluster
        else:
            ray.init(address="local", num_cpus=jobs)
    play = ray.remote(max_calls=1 if isolation == "seating" else 0, max_retries=0,
                      num_returns="streaming")(_stream_games)
    seats = next((args[7] for chunk in chunks for args in chunk if args[7] is not None), None)
    kernels = ray.put(kernel_files(seats.cache)) if seats is not None and seats.cache is not None else None
    here = ray.util.scheduling_strategies.NodeAffinitySchedulingStrategy(ray.get_runtime_context().get_node_id(),
                                                                         soft=False)
    stop = ray.remote(num_cpus=0, scheduling_strategy=here)(_Stop).remote()  # on the dealer's node: no loss takes it
    crashed = (ray.exceptions.NodeDiedError, ray.exceptions.WorkerCrashedError, ray.exceptions.LocalRayletDiedError)
    room = TASKS_PER_CPU * max(1, int(ray.cluster_resources().get("CPU", jobs)))
    waiting = list(reversed(chunks))
    streams: dict[Any, list[tuple]] = {}
    played: dict[Any, int] = {}
    nodes: dict[Any, str] = {}
    moves: dict[tuple[int, int], int] = {}
    stopped = False
    while (waiting and not pause.asked) or streams:
        if pause.asked and not stopped:
            ray.get(stop.ask.remote())  # no task begins another game
            stopped = True
        while waiting and len(streams) < room and not pause.asked:
            chunk = waiting.pop()
            stream = play.remote(chunk, kernels, stop)
            streams[stream], played[stream] = chunk, 0
        ready, _ = ray.wait(list(streams), num_returns=1, timeout=1.0)  # a pause is seen within a second
        if not ready:
            continue
        stream = ready[0]
        try:
            item = ray.get(next(stream))
        except StopIteration:
            del streams[stream]
            continue
        except crashed as e:  # a worker that died with its node (Ray may say either first) is a node lost
            if not isinstance(e, ray.exceptions.NodeDiedError) and not _node_died(ray, nodes.get(stream)):
                unfinished = [args for s, chunk in streams.items() for args in chunk[played[s]:]]
                _cancel(ray, streams)
                died(unfinished + [args for chunk in waiting for args in chunk], path)
            lost = streams.pop(stream)[played[stream]:]
            for args in lost:
                key = (args[3], args[4])
                moves[key] = moves.get(key, 0) + 1
                if moves[key] >= MOST_MOVES:
                    _cancel(ray, streams)
                    raise ClusterFault(f"the node playing deal {key[0]}, seating {key[1]} was lost {MOST_MOVES} "
                                       f"times; {where_kept(path)}") from None
            faults({"fault": "node lost", "node": nodes.get(stream, "unknown"),
                    "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                    "games": [[args[3], args[4]] for args in lost]})
            if lost:
                waiting.append(lost)  # next, in a fresh task elsewhere
            continue
        except ray.exceptions.RayTaskError as e:
            _cancel(ray, streams)
            if isinstance(e.cause, ClusterFault):  # one line, not the task's traceback
                raise ClusterFault(str(e.cause)) from None
            raise
        if isinstance(item, str):  # a task's first item: the node it runs on
            nodes[stream] = item
            continue
        played[stream] += 1
        yield item


def _node_died(ray: Any, node: str | None) -> bool:
    """Whether ``node`` is (or within :data:`NODE_DEATH_SECONDS` is found) dead: a worker's crash reported before its
    node's death is the node's loss, not the worker's."""
    deadline = time.monotonic() + NODE_DEATH_SECONDS
    while node is not None:
        if not any(n["NodeID"] == node and n["Alive"] for n in ray.nodes()):
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.5)
    return False


def _cancel(ray: Any, streams: dict[Any, list[tuple]]) -> None:
    for other in streams:
        ray.cancel(other, force=True)


class _Stop:
    """A Ray actor the run's tasks ask before each game: whether the run is pausing."""

    def __init__(self) -> None:
        self.asked = False

    def ask(self) -> None:
        self.asked = True

    def is_asked(self) -> bool:
        return self.asked


def _stream_games(chunk: list[tuple], kernels: list[tuple[str, bytes]] | None, stop: Any) -> Iterator[Any]:
    """A Ray generator task: the node it runs on, then each game's record as it ends; no game begins after a pause.
    A node without the folder a seat's program starts in cannot seat it: :class:`ClusterFault`, the dealer's."""
    import ray

    yield ray.get_runtime_context().get_node_id()
    folder = None
    seats = chunk[0][7] if chunk else None
    if seats is not None:
        workdir = seats.sandbox.workdir
        if workdir is not None and not os.path.isdir(workdir):
            raise ClusterFault(f"node {ray.get_runtime_context().get_node_id()[:12]} has no folder {workdir}, where "
                               "the agent's program starts: on a cluster, every node needs the agent's files at the "
                               "paths the dealer's machine has them")
        if kernels is not None:  # this task's own copy of the run's kernels, wherever it runs
            folder = private_folder("hearts-seat-cache-")
            write_kernel_files(kernels, folder)
            mine = replace(seats, cache=folder)
            chunk = [(*args[:7], mine, *args[8:]) for args in chunk]
    try:
        for args in chunk:
            if ray.get(stop.is_asked.remote()):
                return
            yield play_game(*args)
    finally:
        close_agents()
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
