"""Arena: duplicate-deal tournaments with paired confidence intervals.

Hearts is noisy, so every deal is played in several seatings and agents are compared on the
same deals (DESIGN.md §6):

- one agent spec: four copies (the break-even check: every seat's mean must be the table mean);
- two specs: the 14 seatings that mix both types (Sturtevant & White 2006, §2.5);
- four specs: the 4 rotations of the given order.

Each (deal, seating) game is one JSONL record (seed, seating, points, moon, agent specs,
package version, the dealt hands and every pass and play, so :func:`replay_record` rebuilds
it); :func:`run_arena` streams records as they finish and, with ``resume=True``,
skips the ones already in the file, so an interrupted run loses nothing and counts nothing
twice. Per agent, :func:`summarize` gives the mean points per deal with a 95% bootstrap
interval over deals, and for each pair of agents the paired difference.
"""

from __future__ import annotations

import itertools
import json
import multiprocessing
import os
import sys
import time
import traceback
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from hearts_env import __version__
from hearts_env.agents import make_agent
from hearts_env.engine import Deal, IllegalActionError
from hearts_env.match import Match
from hearts_env.rules import PASS_NAMES, ROTATION, Rules, make_rules
from hearts_env.views import SeatView


def seatings(num_specs: int) -> list[tuple[int, ...]]:
    """Seatings as tuples of spec indices per seat (see the module docstring)."""
    if num_specs == 1:
        return [(0, 0, 0, 0)]
    if num_specs == 2:
        return [s for s in itertools.product((0, 1), repeat=4) if 0 < sum(s) < 4]
    if num_specs == 4:
        return [tuple((seat + r) % 4 for seat in range(4)) for r in range(4)]
    raise ValueError(f"an arena takes 1, 2 or 4 agent specs, got {num_specs}")


def pass_direction_of(rules: Rules, deal_index: int) -> int | None:
    """The pass offset of one-deal episode ``deal_index`` of a tournament: ``schedule[i % len(schedule)]``,
    so every direction of the schedule is played equally often and every seating of a deal passes the
    same way. None for games to the target (they follow the schedule deal by deal) and for
    ``passing="random"`` (drawn from the deal's seed, hence also the same in every seating)."""
    schedule = rules.pass_schedule
    if rules.game != "deal" or schedule is None:
        return None
    return schedule[deal_index % len(schedule)]


@dataclass(frozen=True)
class Game:
    deal_index: int
    seating_index: int


def play_game(specs: Sequence[str], rules: Rules, seed: int, deal_index: int, seating_index: int,
              move_time_limit: float | None = None) -> dict[str, Any]:
    """Play episode ``deal_index`` (one deal, or a game to the target) in seating ``seating_index``.

    The cards depend only on (seed, deal_index), so every seating sees the same deals; agent
    randomness depends on (seed, deal_index, seating_index, seat). A move slower than
    ``move_time_limit`` seconds (measured after it returns) ends the episode as a timeout.
    """
    seating = seatings(len(specs))[seating_index]
    match = Match(rules, seed=np.random.default_rng([seed, deal_index]),
                  pass_direction=pass_direction_of(rules, deal_index))
    agents = [_agent(specs[i], seat) for seat, i in enumerate(seating)]
    error = None
    details = []
    think = [0.0, 0.0, 0.0, 0.0]  # seconds each seat spent choosing, its slowest choice, and how many choices
    slowest = [0.0, 0.0, 0.0, 0.0]
    decisions = [0, 0, 0, 0]
    while error is None:
        deal = match.deal
        for seat, agent in enumerate(agents):
            agent.reset(rules, seat, seed=[seed, deal_index, seating_index, match.deal_index, seat])
        while not deal.is_over and error is None:
            error = _move(agents, deal, move_time_limit, think, decisions, slowest)
        if error is None:
            for seat, agent in enumerate(agents):
                agent.end_deal(SeatView.of(deal, seat))
        details.append({"hands": list(deal.dealt), "pass_direction": deal.pass_direction_name,
                        "dealer": deal.dealer, "history": deal.history, "points": deal.points})
        if error is not None:
            error["spec"] = specs[seating[error["seat"]]]
            break
        if match.next_deal() is None:
            break
    points = None if error else match.scores
    winners = [] if error else match.winners()
    return {"deal": deal_index, "seating_index": seating_index, "seating": [specs[i] for i in seating],
            "seed": seed, "rules": rules.spec(), "points": points, "winners": winners,
            "moons": [d.moon_shooter for d in match.history if d.moon_shooter is not None],
            "moon_attempts": [s for d in match.history for s in moon_attempts(d)],
            "error": error, "version": __version__, "think_seconds": think, "decisions": decisions,
            "slowest_move_seconds": slowest,
            "deals": details}


_AGENTS: dict[tuple[str, int], Any] = {}


def _agent(spec: str, seat: int) -> Any:
    """One agent per (spec, seat) in each worker process, reset before every deal: building an
    agent can be costly (an SB3 model loads its zip), playing a deal with it is not."""
    agent = _AGENTS.get((spec, seat))
    if agent is None:
        agent = _AGENTS[(spec, seat)] = make_agent(spec)
    return agent


def _move(agents: Sequence[Any], deal: Deal, limit: float | None, think: list[float],
          decisions: list[int], slowest: list[float]) -> dict[str, Any] | None:
    seat = deal.current
    try:
        start = time.perf_counter()
        card = agents[seat].act(SeatView.of(deal, seat))
        elapsed = time.perf_counter() - start
        think[seat] += elapsed
        slowest[seat] = max(slowest[seat], elapsed)
        decisions[seat] += 1
        if limit is not None and elapsed > limit:
            return {"seat": seat, "kind": "timeout", "message": f"a move took {elapsed:.3f} s (limit {limit} s)"}
        deal.apply(card)
    except IllegalActionError as e:
        return {"seat": seat, "kind": "illegal", "message": str(e)}
    except Exception as e:  # an agent crashed: record it, keep the tournament going
        return {"seat": seat, "kind": "exception", "message": f"{type(e).__name__}: {e}",
                "traceback": traceback.format_exc(limit=5)}
    return None


def replay_record(record: dict[str, Any], deal: int = 0) -> Deal:
    """Deal number ``deal`` of an arena record, replayed through the engine (to its end, or its error)."""
    d = record["deals"][deal]
    rebuilt = Deal.from_hands(make_rules(record["rules"]), d["hands"], pass_direction=d["pass_direction"],
                              dealer=d["dealer"])
    return rebuilt.apply_all(d["history"])


def moon_attempts(deal: Deal) -> list[int]:
    """Seats that went for the moon in a finished deal: three quarters of the way through the
    tricks, the seat held every point taken so far and at least half of the deal's penalty
    total (a successful moon always counts)."""
    if deal.moon_shooter is not None:
        return [deal.moon_shooter]
    checkpoint = -(-3 * deal.num_tricks // 4)  # trick 10 of 13, 6 of 8
    points = [0, 0, 0, 0]
    for trick in deal.tricks()[:checkpoint]:
        points[trick.winner] += trick.points
    holders = [s for s in range(4) if points[s] > 0]
    return holders if len(holders) == 1 and points[holders[0]] * 2 >= deal.rules.penalty_total else []


def _play_game_args(args: tuple) -> dict[str, Any]:
    return play_game(*args)


def run_arena(specs: Sequence[str], deals: int, rules: Rules | str = "standard(game=deal)", seed: int = 0,
              jobs: int | None = None, out: str | os.PathLike | None = None, resume: bool = False,
              progress: bool = False, move_time_limit: float | None = None,
              backend: str = "processes") -> list[dict[str, Any]]:
    """Play ``deals`` duplicate episodes (deals, or games when ``rules.game == "match"``); returns
    every record, those resumed from ``out`` included.

    ``jobs`` workers (default: all cores) as local processes, or ``backend="ray"`` for a Ray
    cluster (``pip install 'hearts-env[ray]'``); results are identical for any ``jobs``.
    """
    rules = make_rules(rules)
    if backend not in ("processes", "ray"):
        raise ValueError(f"backend={backend!r} is not valid; valid: processes, ray")
    for spec in specs:
        make_agent(spec)  # fail early on a bad spec
    n_seatings = len(seatings(len(specs)))
    done: dict[tuple[int, int], dict[str, Any]] = {}
    path = Path(out) if out is not None else None
    if path is not None and path.exists():
        if not resume:
            raise FileExistsError(f"{path} exists: pass resume=True (--resume) to continue it, or choose another file")
        _drop_partial_last_line(path)
        for record in _read_records(path):
            if record["seating"] != [specs[i] for i in seatings(len(specs))[record["seating_index"]]] \
                    or record["seed"] != seed or record["rules"] != rules.spec():
                raise ValueError(f"{path} holds results of another tournament (agents, seed or rules differ)")
            direction = pass_direction_of(rules, record["deal"])
            if direction is not None and record["deals"][0]["pass_direction"] != PASS_NAMES[direction]:
                raise ValueError(f"{path} holds deals played under another pass-direction protocol (deal "
                                 f"{record['deal']} passed {record['deals'][0]['pass_direction']}, now "
                                 f"{PASS_NAMES[direction]}: hearts-env before 0.1.1 passed left in every one-deal "
                                 f"tournament); start a new file")
            done[(record["deal"], record["seating_index"])] = record
    todo = [(list(specs), rules, seed, d, s, move_time_limit)
            for d in range(deals) for s in range(n_seatings) if (d, s) not in done]
    jobs = jobs or os.cpu_count() or 1
    sink = path.open("a") if path is not None else None
    bar = _progress_bar(len(todo), progress)
    try:
        if backend == "ray":
            results = _ray_pool(jobs).imap_unordered(_play_game_args, todo)
        elif jobs == 1 or len(todo) < 2:
            results = map(_play_game_args, todo)
        else:
            results = multiprocessing.get_context("spawn").Pool(jobs).imap_unordered(_play_game_args, todo, 4)
        for record in results:
            done[(record["deal"], record["seating_index"])] = record
            if sink is not None:
                sink.write(json.dumps(record) + "\n")
                sink.flush()
            bar.update(1)
    finally:
        bar.close()
        if sink is not None:
            sink.close()
    return [done[key] for key in sorted(done) if key[0] < deals]


def _drop_partial_last_line(path: Path) -> None:
    """Cut a last line that an interruption left unfinished (its game is played again)."""
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        with path.open("r+b") as f:
            f.truncate(data.rfind(b"\n") + 1)


def _read_records(path: Path) -> Iterator[dict[str, Any]]:
    with path.open() as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            yield json.loads(line)


def _ray_pool(jobs: int) -> Any:
    try:
        from ray.util.multiprocessing import Pool
    except ImportError:
        raise ImportError("backend='ray' needs Ray: pip install 'hearts-env[ray]'") from None
    return Pool(jobs)


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


def bootstrap_interval(values: np.ndarray, confidence: float = 0.95, resamples: int = 4000,
                       seed: int = 0) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of ``values``."""
    values = np.asarray(values, dtype=float)
    if len(values) < 2:
        return (float("nan"), float("nan"))
    rng = np.random.default_rng(seed)
    means = values[rng.integers(0, len(values), size=(resamples, len(values)))].mean(axis=1)
    tail = (1 - confidence) / 2
    return float(np.quantile(means, tail)), float(np.quantile(means, 1 - tail))


def per_deal_points(records: Sequence[dict[str, Any]]) -> dict[str, dict[int, float]]:
    """Mean points per deal of each spec: over the seats it held in every seating of that deal."""
    sums: dict[str, dict[int, list[float]]] = {}
    for r in records:
        if r["error"] is not None or r["points"] is None:
            continue
        for seat, spec in enumerate(r["seating"]):
            sums.setdefault(spec, {}).setdefault(r["deal"], []).append(r["points"][seat])
    return {spec: {d: float(np.mean(v)) for d, v in by_deal.items()} for spec, by_deal in sums.items()}


def summarize(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Per-agent means with 95% bootstrap intervals, paired differences, moons and errors."""
    per_deal = per_deal_points(records)
    agents = {}
    for spec, by_deal in per_deal.items():
        values = np.array(list(by_deal.values()))
        seats = [r["seating"].count(spec) for r in records if r["error"] is None and r["points"] is not None]
        clean = [r for r in records if r["error"] is None]
        moons = sum(1 for r in clean for m in r["moons"] if r["seating"][m] == spec)
        attempts = sum(1 for r in clean for m in r["moon_attempts"] if r["seating"][m] == spec)
        suffered = sum(r["seating"].count(spec) - (r["seating"][m] == spec) for r in clean for m in r["moons"])
        shares = [1 / len(r["winners"]) if seat in r["winners"] else 0.0
                  for r in records if r["error"] is None for seat, s in enumerate(r["seating"]) if s == spec]
        timed = [(r["think_seconds"][seat], r["decisions"][seat]) for r in clean if "think_seconds" in r
                 for seat, s in enumerate(r["seating"]) if s == spec]
        moves = sum(n for _, n in timed)
        slowest = [r["slowest_move_seconds"][seat] for r in clean if "slowest_move_seconds" in r
                   for seat, s in enumerate(r["seating"]) if s == spec]
        agents[spec] = {"deals": len(values), "mean_points": float(values.mean()),
                        "seconds_per_move": sum(t for t, _ in timed) / moves if moves else None,
                        "slowest_move_seconds": max(slowest) if slowest else None,
                        "ci95": bootstrap_interval(values), "win_rate": float(np.mean(shares)) if shares else 0.0,
                        "moon_attempts": attempts, "moons_shot": moons, "moons_suffered": suffered,
                        "seat_games": int(sum(seats))}
    errors = [r["error"] for r in records if r["error"] is not None]
    unit = "game" if records and make_rules(records[0]["rules"]).game == "match" else "deal"
    by_direction: dict[str, dict[str, Any]] = {}
    if unit == "deal":  # one-deal tournaments: the paired differences of each pass direction
        directions = sorted({r["deals"][0]["pass_direction"] for r in records}, key=ROTATION.index)
        if len(directions) > 1:
            by_direction = {d: _paired([r for r in records if r["deals"][0]["pass_direction"] == d])
                            for d in directions}
    return {"agents": agents, "paired": _paired(records), "paired_by_pass_direction": by_direction,
            "games": len(records), "errors": errors, "unit": unit}


def _paired(records: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Paired differences of every two specs over the deals both played, with 95% bootstrap intervals."""
    per_deal = per_deal_points(records)
    pairs = {}
    for a, b in itertools.combinations(sorted(per_deal), 2):
        common = sorted(set(per_deal[a]) & set(per_deal[b]))
        diff = np.array([per_deal[a][d] - per_deal[b][d] for d in common])
        if len(diff):
            pairs[f"{a} - {b}"] = {"deals": len(diff), "mean_difference": float(diff.mean()),
                                   "ci95": bootstrap_interval(diff)}
    return pairs


def format_summary(summary: dict[str, Any]) -> str:
    unit = summary.get("unit", "deal")
    lines = [f"{'agent':<28} {unit + 's':>6} {'points/' + unit:>12} {'95% interval':>18} {'wins':>6} "
             f"{'moons/try':>9} {'suffered':>9} {'s/move':>8} {'slowest':>8}"]
    for spec, a in sorted(summary["agents"].items(), key=lambda kv: kv[1]["mean_points"]):
        lo, hi = a["ci95"]
        moons = f"{a['moons_shot']}/{a['moon_attempts']}"
        per_move, slowest = a.get("seconds_per_move"), a.get("slowest_move_seconds")
        lines.append(f"{spec:<28} {a['deals']:>6} {a['mean_points']:>12.3f} {f'[{lo:.3f}, {hi:.3f}]':>18} "
                     f"{a['win_rate']:>6.1%} {moons:>9} {a['moons_suffered']:>9} "
                     f"{'-' if per_move is None else f'{per_move:.4f}':>8} "
                     f"{'-' if slowest is None else f'{slowest:.3f}':>8}")
    for pair, p in summary["paired"].items():
        lo, hi = p["ci95"]
        verdict = "different" if lo > 0 or hi < 0 else "not distinguishable"
        lines.append(f"paired {pair}: {p['mean_difference']:+.3f} points/deal, 95% [{lo:+.3f}, {hi:+.3f}] "
                     f"over {p['deals']} deals ({verdict})")
    by_direction = summary.get("paired_by_pass_direction", {})
    if by_direction:  # one row per pair, one column per pass direction
        lines.append(f"{'paired, by pass direction':<28}" + "".join(f"{d:>22}" for d in by_direction))
        for pair in summary["paired"]:
            cells = []
            for pairs in by_direction.values():
                p = pairs.get(pair)
                cells.append("-" if p is None else
                             f"{p['mean_difference']:+.2f} [{p['ci95'][0]:+.2f}, {p['ci95'][1]:+.2f}]")
            lines.append(f"{pair:<28}" + "".join(f"{c:>22}" for c in cells))
    if summary["errors"]:
        first = summary["errors"][0]["message"]
        lines.append(f"{len(summary['errors'])} game(s) ended by an agent error; first: {first}")
    return "\n".join(lines)
