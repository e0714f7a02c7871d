"""Running a tournament: the games to play, worker pools (processes or Ray), streaming and resuming results."""

from __future__ import annotations

import json
import multiprocessing
import os
import queue
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from pathlib import Path
from typing import Any, NoReturn, cast

from hearts_env.agents import AgentError, AgentSpec
from hearts_env.engine import IllegalActionError
from hearts_env.evaluation.arena.game import (
    SeatOptions,
    build_agent,
    close_agents,
    episode_match,
    pass_direction_of,
    play_game,
    replay_record,
    seatings,
)
from hearts_env.evaluation.arena.on_ray import Fault, on_ray, require_ray, say_fault, where_kept
from hearts_env.evaluation.arena.owner import owning
from hearts_env.evaluation.arena.pause import PauseRequest, RunPaused, ignore_signals, pausable
from hearts_env.evaluation.seat import SeatAgent, SeatError
from hearts_env.rules import PASS_NAMES, Rules, make_rules


def run_arena(specs: Sequence[str | AgentSpec], deals: int, rules: Rules | str = "standard(game=deal)", seed: int = 0,
              jobs: int | None = None, out: str | os.PathLike | None = None, resume: bool = False,
              progress: bool = False, move_time_limit: float | None = None,
              backend: str = "processes", isolation: str = "seating",
              only_seatings: Sequence[int] | None = None, agent_seed: int | None = None,
              seats: SeatOptions | None = None, games: Sequence[tuple[int, int]] | None = None,
              watch: Callable[[dict[str, Any]], str | None] | None = None,
              faults: Callable[[Fault], None] | None = None) -> list[dict[str, Any]]:
    """Play ``deals`` duplicate episodes (deals, or games when ``rules.game == "match"``); returns
    every record, those resumed from ``out`` included.

    ``jobs`` workers (default: all cores) as local processes, or ``backend="ray"`` for a Ray
    cluster (``pip install 'hearts-env[ray]'``, :mod:`~hearts_env.evaluation.arena.on_ray`); results are identical
    for any ``jobs`` and either backend. On Ray, a node lost mid-run is the dealer's fault: its unfinished games are
    played again on other nodes and ``faults`` hears of each loss (default: a line on stderr).

    ``isolation="seating"`` (the default) plays each seating's pass over the deals in fresh
    processes (up to :data:`PASS_CHUNK` deals each) that play nothing else, so no agent process sees a
    deal twice: an agent that remembers deals (in its object, its class or its module) gains nothing
    from the other seatings. ``isolation="none"`` plays any game in any worker (or in this process
    for ``jobs=1``): faster for cheap agents, for agents you trust.

    ``only_seatings`` plays a subset of the seatings (indices into :func:`seatings`; records keep
    those indices): with two specs, the four that seat the first spec once make the one-against-three
    format of the benchmark (:func:`solo_seatings`). ``games`` plays exactly these (deal, seating) pairs
    instead (each deal below ``deals``, each seating among ``only_seatings``): the benchmark's ``once`` format
    plays each deal in one seating.

    Agents' random seeds derive from ``agent_seed`` (default: ``seed``) and the game, and agents see
    them: with the default, an agent can re-deal the cards (see :func:`play_game`).

    Agents whose spec starts ``seat:`` or ``hosted:`` play from programs of their own through the seat
    protocol, under ``seats`` (their sandbox, the secret of their seeds): docs/seat-protocol.md.
    Resuming replays every record of ``out`` through the engine first (:func:`check_record`).

    The first SIGINT or SIGTERM pauses the run: no game starts, the games in play
    finish and are written, and :class:`~hearts_env.evaluation.arena.pause.RunPaused` is raised (``resume``
    continues); a second signal stops at once (``KeyboardInterrupt``). ``watch`` sees each record as it is written
    and may pause the run the same way by returning its reason (the benchmark's token budget).
    """
    specs = cast(list[str], [s.text if isinstance(s, AgentSpec) else s for s in specs])  # records keep the text
    rules, seats, chosen = _checked_arguments(specs, deals, rules, jobs, out, resume, move_time_limit, backend,
                                              isolation, only_seatings, agent_seed, seats)
    done: dict[tuple[int, int], dict[str, Any]] = {}
    path = Path(out) if out is not None else None
    existed = path is not None and path.exists()
    if existed and not resume:
        raise FileExistsError(f"{path} exists: pass resume=True (--resume) to continue it, or choose another file")
    wanted = [(d, s) for d in range(deals) for s in chosen] if games is None else _checked_games(games, deals, chosen)
    with owning(path):  # a second command writing this file is refused: its games would be recorded twice
        if existed and path is not None:
            _drop_partial_last_line(path)
            for record in read_records(path):
                if record["seating"] != [specs[i] for i in seatings(len(specs))[record["seating_index"]]] \
                        or record["seed"] != seed or record["rules"] != rules.spec():
                    raise ValueError(f"{path} holds results of another tournament (agents, seed or rules differ)")
                direction = pass_direction_of(rules, record["deal"])
                if direction is not None and record["deals"][0]["pass_direction"] != PASS_NAMES[direction]:
                    raise ValueError(f"{path} holds deals played under another pass-direction protocol (deal "
                                     f"{record['deal']} passed {record['deals'][0]['pass_direction']}, now "
                                     f"{PASS_NAMES[direction]}: hearts-env before 0.1.1 passed left in every one-deal "
                                     f"tournament); start a new file")
                if record.get("agent_seed") != agent_seed:
                    raise ValueError(f"{path} was played with other agent seeds: one file would mix two settings")
                if record.get("move_time_limit") != move_time_limit:
                    raise ValueError(f"{path} was played with move_time_limit={record.get('move_time_limit')!r}, not "
                                     f"{move_time_limit!r}: one file would mix two settings")
                if record["error"] is not None and record["points"] is None:
                    raise ValueError(f"{path} holds a game ended by an agent error without the forfeit charged (deal "
                                     f"{record['deal']}: hearts-env before 0.1.2 left such games out of the figures); "
                                     f"start a new file")
                check_record(record, path)
                done[(record["deal"], record["seating_index"])] = record
        todo = [(list(specs), rules, seed, d, s, move_time_limit, agent_seed, seats)
                for d, s in wanted if (d, s) not in done]
        jobs = jobs or os.cpu_count() or 1
        sink = path.open("a") if path is not None else None
        bar = _progress_bar(len(todo), progress)
        written = 0
        try:
            with pausable() as pause:
                if backend == "ray":
                    chunks = seating_passes(todo) if isolation == "seating" else _chunks(todo)
                    results = on_ray(chunks, jobs, isolation, path, pause, _died, faults or say_fault)
                elif isolation == "seating":
                    results = _isolated(seating_passes(todo), jobs, path, pause)
                elif jobs == 1 or len(todo) < 2:
                    results = _here(todo, pause)
                else:
                    results = _in_processes(todo, jobs, path, pause)
                why = None
                for record in results:
                    done[(record["deal"], record["seating_index"])] = record
                    if sink is not None:
                        sink.write(json.dumps(record) + "\n")
                        sink.flush()
                    written += 1
                    bar.update(1)
                    if watch is not None and why is None and (why := watch(record)) is not None:
                        pause.asked = True  # no game starts; those in play finish and are written
                if pause.asked and written < len(todo):
                    then = f"{path} holds them; resume continues" if path is not None else "no results file to resume"
                    raise RunPaused(f"paused{f' ({why})' if why else ''}: the games in play were finished ({written} "
                                    f"game(s) of this tournament "
                                    f"played by this call, {len(todo) - written} left); {then}")
        finally:
            bar.close()
            if sink is not None:
                sink.close()
    kept = set(wanted)
    return [done[key] for key in sorted(done) if key in kept]


class WorkerDied(RuntimeError):
    """A worker process died mid-tournament (killed, ``os._exit``, a crash in native code, out of memory)."""


BACKENDS = ("processes", "ray")
"""Where the arena's workers run (``backend=``): local processes, or the tasks of a Ray cluster."""
WORKER_ISOLATION = ("seating", "none")
"""How the arena's worker processes keep games apart (``isolation=``): fresh processes per seating pass, or none."""
CHUNK = 4
"""Games per task sent to a worker without isolation (amortizes the inter-process traffic of cheap games)."""
PASS_CHUNK = 200
"""Deals of one seating's pass that one fresh process plays (isolation): each start costs ~0.3 s."""


def _checked_arguments(specs: Sequence[str], deals: int, rules: Rules | str, jobs: int | None,
                       out: str | os.PathLike | None, resume: bool, move_time_limit: float | None, backend: str,
                       isolation: str, only_seatings: Sequence[int] | None, agent_seed: int | None,
                       seats: SeatOptions | None) -> tuple[Rules, SeatOptions | None, Sequence[int]]:
    """:func:`run_arena`'s arguments checked, each refusal one line naming what is allowed, and every agent
    probed: the rules, the seats' options (the results file hidden from seated programs) and the seatings to play."""
    rules = make_rules(rules)
    check_backend(backend, specs)
    if isolation not in WORKER_ISOLATION:
        raise ValueError(f"isolation={isolation!r} is not valid; valid: {', '.join(WORKER_ISOLATION)}")
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise ValueError(f"deals must be a positive integer, got {deals!r}")
    check_jobs(jobs)
    if move_time_limit is not None and not (isinstance(move_time_limit, int | float) and move_time_limit > 0):
        raise ValueError(f"move_time_limit must be a positive number of seconds (or None: no limit), "
                         f"got {move_time_limit!r}")
    if agent_seed is not None and (isinstance(agent_seed, bool) or not isinstance(agent_seed, int) or agent_seed < 0):
        raise ValueError(f"agent_seed must be an integer >= 0 (or None: the deals' seed), got {agent_seed!r}")
    if resume and out is None:
        raise ValueError("resume needs the results file to continue (out=, --out)")
    if out is not None and Path(out).is_dir():
        raise ValueError(f"{out} is a folder; out= (--out) names the results file to write, e.g. runs/games.jsonl")
    if out is not None:
        Path(out).parent.mkdir(parents=True, exist_ok=True)  # runs/… in a fresh clone
    if out is not None and any(AgentSpec.parse(spec).seated for spec in specs):  # seated programs never see the results
        options = seats or SeatOptions()
        hidden = (*options.sandbox.hidden, str(Path(out).absolute()))
        seats = replace(options, sandbox=replace(options.sandbox, hidden=hidden))
    for spec in dict.fromkeys(specs):  # a bad spec, or rules an agent cannot play, fails here, not game after game
        probe_agent(spec, rules, seats)
    n_seatings = len(seatings(len(specs)))
    chosen = range(n_seatings) if only_seatings is None else sorted(set(only_seatings))
    if not chosen or any(isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < n_seatings for s in chosen):
        raise ValueError(f"only_seatings must be indices of seatings 0..{n_seatings - 1} of {len(specs)} specs, "
                         f"got {only_seatings!r}")
    return rules, seats, chosen


def _checked_games(games: Sequence[tuple[int, int]], deals: int, chosen: Sequence[int]) -> list[tuple[int, int]]:
    """``games`` as (deal, seating) pairs, each deal below ``deals`` and each seating among ``chosen``, in order."""
    checked = []
    for game in games:
        if not (isinstance(game, tuple | list) and len(game) == 2 and all(
                isinstance(x, int) and not isinstance(x, bool) for x in game)
                and 0 <= game[0] < deals and game[1] in chosen):
            raise ValueError(f"games must be (deal, seating) pairs with a deal 0..{deals - 1} and a seating among "
                             f"{list(chosen)}, got {game!r}")
        checked.append((game[0], game[1]))
    return sorted(set(checked))


def seating_passes(todo: list[tuple]) -> list[list[tuple]]:
    """The games grouped by seating, in deal order, cut into runs of at most :data:`PASS_CHUNK`: one run
    per fresh process, so no process plays a deal twice."""
    by_seating: dict[int, list[tuple]] = {}
    for args in todo:
        by_seating.setdefault(args[4], []).append(args)
    return [games[i:i + PASS_CHUNK] for _, games in sorted(by_seating.items())
            for i in range(0, len(games), PASS_CHUNK)]


def threads_per_worker(jobs: int) -> int:
    """Threads each of ``jobs`` worker processes may use so that together they fill the cores once."""
    return max(1, (os.cpu_count() or 1) // jobs)


THREAD_VARIABLES = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")


def limit_threads(threads: int) -> None:
    """Cap the native thread pools of this (worker) process at ``threads``, unless the user chose a count
    in the environment: torch and BLAS start one thread per core in every process, so ``jobs`` workers
    running network agents would otherwise run ``jobs`` x cores threads and slow each other down."""
    if any(name in os.environ for name in THREAD_VARIABLES):
        return
    for name in THREAD_VARIABLES:  # read by the libraries when they load (agents import them lazily)
        os.environ[name] = str(threads)
    torch = sys.modules.get("torch")  # already loaded (imported by the __main__ that spawned us)
    if torch is not None:
        torch.set_num_threads(threads)


def probe_agent(spec: str, rules: Rules, seats: SeatOptions | None) -> None:
    """Build agent ``spec`` and reset it under ``rules`` once (a seated one: start its program, shake hands,
    then end it), so that a bad spec or rules it cannot play fail before any game, in one line."""
    try:
        probe = build_agent(spec, seats)
    except SeatError as e:
        raise ValueError(f"agent {spec!r} cannot take a seat: {e}") from None
    except AgentError as e:  # the spec, its module or its factory: the error names which
        raise ValueError(str(e)) from None
    try:
        probe.reset(rules, 0, seed=0)
    except SeatError as e:
        raise ValueError(f"agent {spec!r} cannot take a seat: {e}") from None
    except ValueError as e:
        raise ValueError(f"agent {spec!r} cannot play rules {rules.spec()}: {e}") from None
    finally:
        if isinstance(probe, SeatAgent):
            probe.close()


def check_record(record: dict[str, Any], path: str | os.PathLike | None = None) -> None:
    """A record is what its own cards make it: each deal re-dealt from the record's seed and index has the
    recorded hands, pass direction and dealer, replays legally through the engine, and scores the
    recorded points; the record's points are its deals' plus any forfeit. ``ValueError`` names the first
    difference (an edited or damaged record)."""
    where = f"{path}: " if path is not None else ""
    game = f"deal {record.get('deal')}, seating {record.get('seating_index')}"
    try:
        rules = make_rules(record["rules"])
        match = episode_match(rules, record["seed"], record["deal"])
        total = [0, 0, 0, 0]
        for k, d in enumerate(record["deals"]):
            if k == 0:
                dealt = match.deal
                if (list(dealt.dealt), dealt.pass_direction_name, dealt.dealer) != \
                        (d["hands"], d["pass_direction"], d["dealer"]):
                    raise ValueError("its cards are not the ones this seed and deal index deal")
            replayed = replay_record(record, k)
            finished = replayed.is_over
            last = k == len(record["deals"]) - 1
            if not finished and not (last and record["error"] is not None):
                raise ValueError(f"its deal {k} stops before the end without an error")
            points = replayed.points
            if finished and points is not None:
                if list(points) != list(d["points"]):
                    raise ValueError(f"its deal {k} scores {list(points)} when replayed, not the recorded "
                                     f"{d['points']}")
                if not (last and record["error"] is not None):  # the deal an error ended is scored as the forfeit
                    total = [t + p for t, p in zip(total, points)]
        if record["error"] is not None:
            offender = record["error"]["seat"]
            if not (isinstance(offender, int) and 0 <= offender < 4):
                raise ValueError(f"its error names seat {offender!r}")
            total = [t + (rules.penalty_total if seat == offender else 0) for seat, t in enumerate(total)]
        if list(record["points"]) != total:
            raise ValueError(f"its points {record['points']} are not its deals' (and forfeit's) {total}")
    except ValueError as e:
        raise ValueError(f"{where}{game} does not replay: {e}") from None
    except (KeyError, TypeError, IllegalActionError, IndexError) as e:
        raise ValueError(f"{where}{game} does not replay ({type(e).__name__}: {e})") from None


def _here(todo: list[tuple], pause: PauseRequest) -> Iterator[dict[str, Any]]:
    """The games played in this process, one after another, until a pause; seated agents' programs end after
    the last."""
    try:
        for args in todo:
            if pause.asked:
                return
            yield play_game(*args)
    finally:
        close_agents()


def _play_pass(task: int, games: list[tuple], results: Any, threads: int = 1, stop: Any = None) -> None:
    """Worker of an isolated run: plays its games, sending each record as it finishes, then ``None``; plays
    no further game once ``stop`` is set (a pause); stops if the tournament's process is gone (killed: no
    one would read the records)."""
    ignore_signals()
    limit_threads(threads)
    parent = multiprocessing.parent_process()
    for args in games:
        if parent is not None and not parent.is_alive():
            results.cancel_join_thread()  # records no one reads must not hold the exit
            return
        if stop is not None and stop.is_set():
            break
        results.put((task, play_game(*args)))
    close_agents()
    results.put((task, None))


def _isolated(tasks: list[list[tuple]], jobs: int, path: Path | None, pause: PauseRequest) -> Iterator[
        dict[str, Any]]:
    """Records of ``tasks``, each played by its own fresh (spawned) process, at most ``jobs`` at a time,
    as they finish; after a pause, those of the games in play. A process that ends without finishing its
    games (killed, ``os._exit``, a crash in native code, out of memory) stops the run with
    :class:`WorkerDied`."""
    context = multiprocessing.get_context("spawn")
    threads = threads_per_worker(min(jobs, len(tasks)) or 1)
    results = context.Queue()
    stop = context.Event()
    waiting = list(enumerate(tasks))[::-1]
    running: dict[int, Any] = {}
    left = {task: len(games) for task, games in enumerate(tasks)}
    try:
        while (waiting and not pause.asked) or running:
            if pause.asked:
                stop.set()
            while waiting and len(running) < jobs and not pause.asked:
                task, games = waiting.pop()
                running[task] = context.Process(target=_play_pass, args=(task, games, results, threads, stop),
                                                daemon=True)
                running[task].start()
            try:
                task, record = results.get(timeout=0.2)
            except queue.Empty:
                dead = [t for t, process in running.items() if not process.is_alive()]
                if dead:  # its last messages may still be in flight: read them before judging
                    try:
                        while True:
                            task, record = results.get(timeout=0.5)
                            if record is None:
                                running.pop(task).join()
                            else:
                                left[task] -= 1
                                yield record
                    except queue.Empty:
                        pass
                    if any(t in running for t in dead):
                        _died([args for t in running for args in tasks[t][len(tasks[t]) - left[t]:]]
                              + [args for _, games in waiting for args in games], path)
                continue
            if record is None:
                running.pop(task).join()
            else:
                left[task] -= 1
                yield record
    finally:
        for process in running.values():
            process.kill()


def _died(unfinished: list[tuple], path: Path | None) -> NoReturn:
    games = sorted((args[3], args[4]) for args in unfinished)
    kept = where_kept(path)
    raise WorkerDied(f"a worker process died (killed, os._exit, a crash in native code or out of memory) while "
                     f"playing one of {len(games)} unfinished games (deal, seating), first {games[:4]}; {kept}; run "
                     f"with --jobs 1 to see which agent ends its process") from None


def _play_games(chunk: list[tuple]) -> list[dict[str, Any]]:
    return [play_game(*args) for args in chunk]



def _in_processes(todo: list[tuple], jobs: int, path: Path | None, pause: PauseRequest) -> Iterator[
        dict[str, Any]]:
    """Records as the worker processes finish them (after a pause, those of the chunks in play); a dead
    worker stops the run with :class:`WorkerDied` (a plain multiprocessing pool would wait for its games
    forever)."""
    chunks = _chunks(todo)
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"), initializer=_pool_worker,
                             initargs=(threads_per_worker(jobs),)) as pool:
        futures = {pool.submit(_play_games, chunk): chunk for chunk in chunks}
        try:
            for future in as_completed(futures):
                if pause.asked:
                    for other in futures:
                        other.cancel()  # only those not yet started: the chunks in play finish
                if future.cancelled():
                    continue
                yield from future.result()
        except BrokenProcessPool:
            _died([args for f, chunk in futures.items() if not f.done() or f.exception() is not None
                   for args in chunk], path)


def _chunks(todo: list[tuple]) -> list[list[tuple]]:
    """The games without isolation, :data:`CHUNK` to a task."""
    return [todo[i:i + CHUNK] for i in range(0, len(todo), CHUNK)]


def _pool_worker(threads: int) -> None:
    ignore_signals()
    limit_threads(threads)


def check_backend(backend: object, specs: Sequence[str] = ()) -> None:
    """Refuse, before anything is played (or trained), a backend other than :data:`BACKENDS`' names, a remote seat
    among ``specs`` on Ray, and Ray where it is not installed."""
    if backend == "ray" and any(AgentSpec.parse(spec).scheme == "remote" for spec in specs):
        raise ValueError("a remote seat plays with backend 'processes': the seat server hands its connections to the "
                         "workers of the dealer's own machine")
    if backend not in BACKENDS:
        raise ValueError(f"backend={backend!r} is not valid; valid: {', '.join(BACKENDS)}")
    if backend == "ray":
        require_ray()


def check_jobs(jobs: object) -> None:
    """Refuse a worker count other than a positive integer or None (all cores), before anything is played."""
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
        raise ValueError(f"jobs must be a positive integer (or None: all cores), got {jobs!r}")


def _drop_partial_last_line(path: Path) -> None:
    """Cut a last line that an interruption left unfinished (its game is played again)."""
    data = path.read_bytes()
    try:
        data.decode()
    except UnicodeDecodeError:
        return  # not a results file at all: read_records names it, and nothing of it is cut
    if data and not data.endswith(b"\n"):
        with path.open("r+b") as f:
            f.truncate(data.rfind(b"\n") + 1)


RECORD_KEYS = ("deal", "seating_index", "seating", "rules", "deals", "error")
"""What every arena record holds (:func:`hearts_env.evaluation.arena.game.play_game`)."""


def read_records(path: str | os.PathLike) -> Iterator[dict[str, Any]]:
    """The records of an arena results file (``hearts-env arena --out``, a benchmark's ``<opponent>.jsonl``);
    a line that is not JSON or not an arena record is named by its number (a file edited by hand, damaged,
    or another kind of file)."""
    with Path(path).open() as f:
        for number, raw in enumerate(_lines(f, path), 1):
            line = raw.strip()
            if not line:
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as e:
                if not raw.endswith("\n"):  # only the last line may lack its newline
                    raise ValueError(f"{path} ends in the middle of line {number}: the file was cut (a run stopped "
                                     f"while writing it, or a copy was truncated); `--resume` plays that game "
                                     f"again") from None
                raise ValueError(f"{path} line {number} is not JSON ({e.msg} at column {e.colno}): not an arena "
                                 f"results file, or damaged") from None
            missing = [k for k in RECORD_KEYS if not isinstance(record, dict) or k not in record]
            if missing:
                raise ValueError(f"{path} line {number} is not an arena record (it lacks {', '.join(missing)}): "
                                 f"hearts-env arena --out writes them, and a benchmark's <opponent>.jsonl")
            yield record


def _lines(f: Any, path: str | os.PathLike) -> Iterator[str]:
    try:
        yield from f
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not a text file: not an arena results file, or damaged") from None


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


class _PlainBar:
    """Progress on stderr every 10% when tqdm (the ``arena`` extra) is not installed."""

    def __init__(self, total: int):
        self.total, self.done, self.start, self.next = total, 0, time.perf_counter(), 0.1

    def update(self, n: int) -> None:
        self.done += n
        if self.total and self.done / self.total >= self.next:
            elapsed = time.perf_counter() - self.start
            eta = elapsed * (self.total - self.done) / self.done
            print(f"{self.done}/{self.total} games, ETA {eta:.0f} s", file=sys.stderr)
            self.next += 0.1

    def close(self) -> None:
        pass


def _progress_bar(total: int, enabled: bool) -> Any:
    if not enabled:
        return _NoBar()
    try:
        from tqdm import tqdm
    except ImportError:
        return _PlainBar(total)
    return tqdm(total=total, unit="game")
