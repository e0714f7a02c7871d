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
import traceback
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from hearts_env import __version__
from hearts_env.agents import make_agent
from hearts_env.engine import Deal, IllegalActionError
from hearts_env.rules import Rules, make_rules
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


@dataclass(frozen=True)
class Game:
    deal_index: int
    seating_index: int


def play_game(specs: Sequence[str], rules: Rules, seed: int, deal_index: int, seating_index: int) -> dict[str, Any]:
    """Play deal ``deal_index`` in seating ``seating_index``; the record of the result.

    The deal depends only on (seed, deal_index), so every seating sees the same cards; agent
    randomness depends on (seed, deal_index, seating_index, seat).
    """
    seating = seatings(len(specs))[seating_index]
    deal = Deal.random(rules, np.random.default_rng([seed, deal_index]))
    agents = [make_agent(specs[i]) for i in seating]
    for seat, agent in enumerate(agents):
        agent.reset(rules, seat, seed=[seed, deal_index, seating_index, seat])
    error = None
    while not deal.is_over:
        seat = deal.current
        try:
            card = agents[seat].act(SeatView.of(deal, seat))
            deal.apply(card)
        except IllegalActionError as e:
            error = {"seat": seat, "spec": specs[seating[seat]], "kind": "illegal", "message": str(e)}
            break
        except Exception as e:  # an agent crashed: record it, keep the tournament going
            error = {"seat": seat, "spec": specs[seating[seat]], "kind": "exception",
                     "message": f"{type(e).__name__}: {e}", "traceback": traceback.format_exc(limit=5)}
            break
    return {"deal": deal_index, "seating_index": seating_index, "seating": [specs[i] for i in seating],
            "seed": seed, "rules": rules.spec(), "pass_direction": deal.pass_direction_name,
            "points": deal.points, "moon_shooter": deal.moon_shooter, "error": error, "version": __version__,
            "hands": list(deal.dealt), "history": deal.history}


def replay_record(record: dict[str, Any]) -> Deal:
    """The deal of an arena record, replayed through the engine (to its end, or its error)."""
    deal = Deal.from_hands(make_rules(record["rules"]), record["hands"], pass_direction=record["pass_direction"])
    return deal.apply_all(record["history"])


def _play_game_args(args: tuple) -> dict[str, Any]:
    return play_game(*args)


def run_arena(specs: Sequence[str], deals: int, rules: Rules | str = "standard(game=deal)", seed: int = 0,
              jobs: int | None = None, out: str | os.PathLike | None = None, resume: bool = False,
              progress: bool = False) -> list[dict[str, Any]]:
    """Play ``deals`` duplicate deals; returns every record (those resumed from ``out`` included).

    ``jobs`` worker processes (default: all cores); results are identical for any ``jobs``.
    """
    rules = make_rules(rules)
    if rules.game != "deal":
        raise ValueError("the arena plays single deals: use rules with game=deal")
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
            done[(record["deal"], record["seating_index"])] = record
    todo = [(list(specs), rules, seed, d, s) for d in range(deals) for s in range(n_seatings) if (d, s) not in done]
    jobs = jobs or os.cpu_count() or 1
    sink = path.open("a") if path is not None else None
    bar = _progress_bar(len(todo), progress)
    try:
        results = (map(_play_game_args, todo) if jobs == 1 or len(todo) < 2
                   else multiprocessing.get_context("spawn").Pool(jobs).imap_unordered(_play_game_args, todo, 4))
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


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def _progress_bar(total: int, enabled: bool) -> Any:
    if not enabled:
        return _NoBar()
    try:
        from tqdm import tqdm
    except ImportError:
        return _NoBar()
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
        moons = sum(1 for r in records if r["moon_shooter"] is not None and r["seating"][r["moon_shooter"]] == spec)
        suffered = sum(r["seating"].count(spec) - (r["seating"][r["moon_shooter"]] == spec)
                       for r in records if r["moon_shooter"] is not None)
        agents[spec] = {"deals": len(values), "mean_points": float(values.mean()),
                        "ci95": bootstrap_interval(values), "moons_shot": moons, "moons_suffered": suffered,
                        "seat_games": int(sum(seats))}
    pairs = {}
    for a, b in itertools.combinations(sorted(per_deal), 2):
        common = sorted(set(per_deal[a]) & set(per_deal[b]))
        diff = np.array([per_deal[a][d] - per_deal[b][d] for d in common])
        if len(diff):
            pairs[f"{a} - {b}"] = {"deals": len(diff), "mean_difference": float(diff.mean()),
                                   "ci95": bootstrap_interval(diff)}
    errors = [r["error"] for r in records if r["error"] is not None]
    return {"agents": agents, "paired": pairs, "games": len(records), "errors": errors}


def format_summary(summary: dict[str, Any]) -> str:
    lines = [f"{'agent':<28} {'deals':>6} {'points/deal':>12} {'95% interval':>18} {'moons':>6} {'suffered':>9}"]
    for spec, a in sorted(summary["agents"].items(), key=lambda kv: kv[1]["mean_points"]):
        lo, hi = a["ci95"]
        lines.append(f"{spec:<28} {a['deals']:>6} {a['mean_points']:>12.3f} {f'[{lo:.3f}, {hi:.3f}]':>18} "
                     f"{a['moons_shot']:>6} {a['moons_suffered']:>9}")
    for pair, p in summary["paired"].items():
        lo, hi = p["ci95"]
        verdict = "different" if lo > 0 or hi < 0 else "not distinguishable"
        lines.append(f"paired {pair}: {p['mean_difference']:+.3f} points/deal, 95% [{lo:+.3f}, {hi:+.3f}] "
                     f"over {p['deals']} deals ({verdict})")
    if summary["errors"]:
        first = summary["errors"][0]["message"]
        lines.append(f"{len(summary['errors'])} game(s) ended by an agent error; first: {first}")
    return "\n".join(lines)
