"""Search data: every decision of four ``pimc`` players, with the searcher's per-card values.

    python -m hearts_baselines.apprentice.data --out runs/apprentice-data --deals 20000 --jobs 2

Deal ``k`` is dealt from ``default_rng([NAMESPACE, seed, k])`` (never a deal of the arena or of
``hearts-bench``, which seed with two numbers) and passes ``left, right, across, hold``\\[k mod 4\\], so
the data holds every pass direction equally often. Four copies of the searcher (``--searcher``, by
default the ladder's ``pimc``) play it; each seat's agent is seeded ``[NAMESPACE, seed, k, seat]``.
Every decision with more than one legal card is recorded — passing decisions included (``pimc``
passes as ``heuristic``: their ``values`` are NaN). With ``--opponents SPEC`` the searcher takes one
seat only, ``(k // 4) mod 4`` (every seat with every pass direction once in 16 deals), three ``SPEC``
seats the others, and only the searcher's decisions are recorded: the positions an opponent's style
leads to (e.g. xinxin's moon shots), labelled by the searcher. With ``--player SPEC`` too, that agent plays
the recorded seat's cards while the searcher only labels each of its decisions (DAgger: the positions the
player's own play leads to, e.g. the moon races it lets through); ``points`` is then the player's.

Units of ``--unit-deals`` deals are written as ``unit-NNNNN.npz`` (atomically, as each finishes) and
depend only on (seed, unit index): ``--jobs`` changes the speed, never the data, and a run that stops
continues where it stopped (existing units are kept). Each unit holds, per recorded decision (row):

=========  ===========  =======================================================================
key        dtype/shape  meaning
=========  ===========  =======================================================================
obs        uint8 (620)  the deciding seat's ``rich`` observation, ``dtype="uint8"`` (the eight
                        scalar slots scaled by 255; docs/observations.md)
legal      bool (52)    the legal cards
action     int8         the searcher's choice
values     float32 (52) the searcher's estimate of the seat's points at the end of the deal after
                        each candidate card (NaN: not a candidate, or a passing decision)
points     int16        the seat's points when the deal ended (the return of the searcher's play)
deal       int32        deal index ``k``
seat       int8         the deciding seat
phase      int8         0 passing, 1 playing
=========  ===========  =======================================================================

``manifest.json`` records the format version, searcher, rules, seed, unit size and package version;
a folder made with other settings is refused.
"""

from __future__ import annotations

import functools
import json
import os
import zlib
from collections.abc import Callable, Iterator
from concurrent import futures
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import hearts_env
from hearts_baselines.apprentice.agent import legal_matrix
from hearts_baselines.run_args import arg, parse
from hearts_env import Deal, SeatView
from hearts_env.agents import make_agent
from hearts_env.encoders import make_encoder
from hearts_env.evaluation.arena.game import pass_direction_of
from hearts_env.match import Match
from hearts_env.rules import Rules, make_rules

FORMAT = 1
NAMESPACE = zlib.crc32(b"hearts-apprentice/data")
SEARCHER = "pimc(n=300, policy='heuristic', rank='heuristic', passing='heuristic')"  # the ladder's pimc
RULES = "standard(game=deal)"
KEYS = ("obs", "legal", "action", "values", "points", "deal", "seat", "phase")


@dataclass
class UnitArgs:
    """The options of every run that writes units of deals (this module's, :mod:`.outcomes`)."""

    out: str = arg(help="folder of the units (resumes if it exists)")
    deals: int = arg(20000, "deals in all (a multiple of --unit-deals)")
    seed: int = 0
    jobs: int = arg(1, "processes (the data does not depend on it)")
    unit_deals: int = arg(50, "deals per file")


@dataclass
class Args(UnitArgs):
    searcher: str = arg(SEARCHER, "agent spec of the four players")
    rules: str = RULES
    opponents: str | None = arg(None, "agent spec of three opponent seats (the searcher then plays one seat, the "
                                      "only one recorded)")
    player: str | None = arg(None, "with --opponents: the agent that plays the recorded seat (the searcher only "
                                   "labels its decisions)")


def decisions(deal: Deal) -> Iterator[tuple[int, SeatView]]:
    """The seat to play and its view at each decision of ``deal`` with more than one legal card, until the deal
    ends; the caller applies that seat's card before asking for the next; a lone legal card is played here."""
    while not deal.is_over:
        view = SeatView.of(deal, deal.current)
        if view.legal & (view.legal - 1) == 0:
            deal.apply(view.legal.bit_length() - 1)
        else:
            yield deal.current, view


def searcher_seat(k: int) -> int:
    """The searcher's seat in deal ``k`` when it plays against opponents (deal ``k`` passes direction ``k mod 4``)."""
    return k // 4 % 4


def play_deal(rules: Rules, searcher: str, seed: int, k: int, opponents: str | None = None,
              player: str | None = None) -> dict[str, np.ndarray]:
    """The recorded decisions of deal ``k`` (see the module docstring)."""
    if player is not None and opponents is None:
        raise ValueError("a player (who plays the searcher's seat) needs opponents")
    match = Match(rules, seed=np.random.default_rng([NAMESPACE, seed, k]),
                  pass_direction=pass_direction_of(rules, k))
    deal = match.deal
    recorded = set(range(4)) if opponents is None else {searcher_seat(k)}
    agents = [make_agent(searcher if seat in recorded else str(opponents)) for seat in range(4)]
    for seat, agent in enumerate(agents):
        agent.reset(rules, seat, seed=[NAMESPACE, seed, k, seat])
    players = {}
    if player is not None:
        players = {seat: make_agent(player) for seat in recorded}
        for seat, agent in players.items():
            agent.reset(rules, seat, seed=[NAMESPACE, seed, k, seat, 1])
    encoder = make_encoder("rich", rules, dtype="uint8")
    n = rules.deck_obj.size
    rows: dict[str, list] = {key: [] for key in KEYS}
    try:
        for seat, view in decisions(deal):
            legal = view.legal
            agent = agents[seat]
            if seat not in recorded:
                deal.apply(agent.act(view))
                continue
            if hasattr(agent, "last_values"):
                agent.last_values = {}
            card = agent.act(view)
            values = np.full(n, np.nan, np.float32)
            for c, v in getattr(agent, "last_values", {}).items():
                values[c] = v
            rows["obs"].append(encoder.encode(view).copy())
            rows["legal"].append(legal_matrix(np.array([legal], np.uint64), n)[0])
            rows["action"].append(card)
            rows["values"].append(values)
            rows["deal"].append(k)
            rows["seat"].append(seat)
            rows["phase"].append(view.phase)
            deal.apply(players[seat].act(view) if players else card)
    finally:  # an outside program's seat (xinxin) ends with its deal, whatever happened
        for agent in [*agents, *players.values()]:
            close_agent(agent)
    assert deal.points is not None
    rows["points"] = [deal.points[s] for s in rows["seat"]]
    return rows_to_arrays(rows, n, encoder.size)


def close_agent(agent: Any) -> None:
    """End an agent that holds an outside program (xinxin's driver); others have nothing to end."""
    close = getattr(agent, "close", None)
    if close is not None:
        close()


def rows_to_arrays(rows: dict[str, list], n: int, size: int) -> dict[str, np.ndarray]:
    """One deal's recorded rows (lists per key) as the arrays of a unit (the table above)."""
    dtypes = {"obs": np.uint8, "legal": bool, "action": np.int8, "values": np.float32, "points": np.int16,
              "deal": np.int32, "seat": np.int8, "phase": np.int8}
    shapes = {"obs": (size,), "legal": (n,), "values": (n,)}
    return {key: np.asarray(rows[key], dtypes[key]).reshape((len(rows[key]), *shapes.get(key, ())))
            for key in KEYS}


def make_unit(out: str, rules_spec: str, index: int, unit_deals: int,
              play: Callable[..., dict[str, np.ndarray]]) -> int:
    """Play unit ``index`` (deals ``index*unit_deals …``, each by ``play(rules, k=k)``) and write it; returns its row
    count."""
    rules = make_rules(rules_spec)
    parts = [play(rules, k=k) for k in range(index * unit_deals, (index + 1) * unit_deals)]
    data = {key: np.concatenate([p[key] for p in parts]) for key in KEYS}
    path = Path(out) / f"unit-{index:05d}.npz"
    tmp = path.with_suffix(".tmp.npz")
    savez: Any = np.savez_compressed  # typed as if every keyword were allow_pickle
    savez(tmp, **data)
    os.replace(tmp, path)
    return len(data["action"])


def manifest(rules_spec: str, searcher: str, seed: int, unit_deals: int, opponents: str | None = None,
             player: str | None = None) -> dict:
    return {"format": FORMAT, "searcher": searcher, "rules": rules_spec, "seed": seed, "unit_deals": unit_deals,
            "observation": "rich", "observation_dtype": "uint8", "hearts_env": hearts_env.__version__,
            **({"opponents": opponents} if opponents is not None else {}),
            **({"player": player} if player is not None else {})}


def check_counts(deals: int, unit_deals: int, jobs: int) -> None:
    """Refuse counts a run of units cannot have, in one line naming the value."""
    for name, value in (("deals", deals), ("unit_deals", unit_deals), ("jobs", jobs)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
    if deals % unit_deals:
        raise ValueError(f"deals ({deals}) must be a multiple of unit_deals ({unit_deals}) so that every unit "
                         f"is whole and the pass directions balance")


def generate(out: str | Path, deals: int, seed: int = 0, jobs: int = 1, unit_deals: int = 50,
             searcher: str = SEARCHER, rules: str = RULES, progress: bool = True, opponents: str | None = None,
             player: str | None = None) -> int:
    """Write units until ``deals`` deals are recorded in ``out`` (a multiple of ``unit_deals``; existing units
    are kept); returns the number of units written now."""
    check_counts(deals, unit_deals, jobs)
    if player is not None and opponents is None:
        raise ValueError("--player needs --opponents: the player takes the searcher's one seat against them")
    make_rules(rules)
    for spec in (searcher, opponents, player):
        if spec is not None:
            close_agent(make_agent(spec))  # a bad spec is refused before any folder is made
    meta = manifest(rules, searcher, seed, unit_deals, opponents, player)
    play = functools.partial(play_deal, searcher=searcher, seed=seed, opponents=opponents, player=player)
    return write_units(out, meta, deals, jobs, play, progress)


def write_units(out: str | Path, meta: dict[str, Any], deals: int, jobs: int,
                play: Callable[..., dict[str, np.ndarray]], progress: bool = True) -> int:
    """Write the units of ``deals`` deals missing from ``out`` (``meta``: its manifest, ``rules`` and ``unit_deals``
    among it; a folder made with another manifest is refused), each deal by ``play(rules, k=k)`` (picklable for
    ``jobs`` > 1); returns the number of units written now."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    meta_path = folder / "manifest.json"
    if meta_path.exists():
        old = json.loads(meta_path.read_text())
        differ = {k: (old.get(k), meta.get(k)) for k in {*meta, *old}
                  if k != "hearts_env" and old.get(k) != meta.get(k)}
        if differ:
            raise ValueError(f"{folder} holds search data made with other settings {differ} (old, new): "
                             f"use another --out")
    else:
        meta_path.write_text(json.dumps(meta, indent=1) + "\n")
    unit_deals = meta["unit_deals"]
    todo = [i for i in range(deals // unit_deals) if not (folder / f"unit-{i:05d}.npz").exists()]
    args = (str(folder), meta["rules"])
    from tqdm import tqdm

    bar = tqdm(total=len(todo), unit="unit", desc="search data", disable=not progress)
    if jobs == 1:
        for i in todo:
            make_unit(*args, i, unit_deals, play)
            bar.update(1)
    else:
        with futures.ProcessPoolExecutor(jobs) as pool:
            for job in futures.as_completed([pool.submit(make_unit, *args, i, unit_deals, play) for i in todo]):
                job.result()
                bar.update(1)
    bar.close()
    return len(todo)


def load(folder: str | Path, units: int | None = None) -> dict[str, np.ndarray]:
    """Every unit of ``folder`` (or its first ``units``) concatenated, in unit order."""
    paths = sorted(Path(folder).glob("unit-[0-9][0-9][0-9][0-9][0-9].npz"))
    if not paths:
        raise FileNotFoundError(f"{folder} holds no search data (unit-NNNNN.npz files); "
                                f"make some with python -m hearts_baselines.apprentice.data --out {folder}")
    if units is not None:
        paths = paths[:units]
    parts = list(_read(paths))
    return {key: np.concatenate([p[key] for p in parts]) for key in KEYS}


def _read(paths: list[Path]) -> Iterator[dict[str, np.ndarray]]:
    for path in paths:
        with np.load(path) as f:
            missing = [k for k in KEYS if k not in f]
            if missing:
                raise ValueError(f"{path} is not a unit of search data (missing {missing})")
            yield {k: f[k] for k in KEYS}


def main(argv: list[str] | None = None) -> None:
    args = parse(Args, argv, __doc__.split("\n\n")[0])
    made = generate(args.out, args.deals, args.seed, args.jobs, args.unit_deals, args.searcher, args.rules,
                    opponents=args.opponents, player=args.player)
    print(f"{made} units written to {args.out}")


if __name__ == "__main__":
    main()
