"""The paper's evaluation of Culhane's network, and ours: ``python -m hearts_baselines.culhane.evaluate``.

One network seat against three copies of each opponent (``greedy`` — the paper's baseline —,
``random``, and our ``heuristic``), under the paper's rules ``standard(passing=none, game=deal)``,
``--deals`` duplicate deals each played in the four rotations (the arena's one-against-three format).
Reported per opponent: the paper's measure, the win rate per deal (the fewest points wins, ties share;
25 % is even), and ours, points per deal of each side with the paired difference and its 95 %
bootstrap interval. ``--untrained`` also evaluates a freshly initialised network (seed ``--seed``),
the paper's "untrained" reference point. Records go to ``--out`` (resumable).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hearts_baselines.culhane import network
from hearts_baselines.culhane.transitions import RULES
from hearts_baselines.run_args import arg, parse
from hearts_env.evaluation.arena import run_arena, solo_seatings
from hearts_env.evaluation.benchmark.stats import rung_figures

OPPONENTS = ("greedy", "random", "heuristic")


@dataclass
class Args:
    weights: str | None = arg(None, "a network file (default: the bundled one)")
    deals: int = 1000
    jobs: int | None = None
    seed: int = 0
    untrained: bool = arg(False, "also evaluate a freshly initialised network")
    out: Path = Path("runs/culhane-eval")


def evaluate(spec: str, deals: int, out: Path, jobs: int | None, seed: int = 0) -> dict[str, dict[str, Any]]:
    """Figures of ``spec`` against each of :data:`OPPONENTS` (see the module docstring)."""
    out.mkdir(parents=True, exist_ok=True)
    results = {}
    for opponent in OPPONENTS:
        path = out / f"{opponent}.jsonl"
        records = run_arena([spec, opponent], deals, RULES, seed=seed, jobs=jobs, out=path, resume=path.exists(),
                            only_seatings=solo_seatings())
        figures = rung_figures(records, deals)
        results[opponent] = {k: figures[k] for k in ("win_rate_deal", "agent_points", "opponent_points", "margin",
                                                      "seconds_per_decision", "seat_games")}
    return results


def main(argv: list[str] | None = None) -> None:
    import torch

    args = parse(Args, argv, __doc__)
    specs = {"trained": "culhane" if args.weights is None else f"culhane(weights={args.weights!r})"}
    if args.untrained:
        torch.manual_seed(args.seed)
        fresh = args.out / "untrained.pt"
        network.save(fresh, network.build(network.CPU_HIDDEN), network.CPU_HIDDEN, {"untrained": True})
        specs["untrained"] = f"culhane(weights={str(fresh)!r})"
    report = {name: evaluate(spec, args.deals, args.out / name, args.jobs) for name, spec in specs.items()}
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
