"""Paper 003's experiment: one rollout agent against three NN agents of the same brain, games to 100.

``python -m hearts_baselines.dutchnn.experiment run --brain strongman --n 200 --games 100`` plays
``--games`` games of the ``dutch`` rules (a multiple of 4: the rollout agent sits in each seat
equally often, the same deals in every rotation) between
``pimc(n=N, m=8, policy='dutchnn(brain=B)', rank='dutchnn(brain=B)')`` and three ``dutchnn(brain=B)``
seats, through the arena (records in ``<out>/<brain>-n<N>.jsonl``, resumable, ``--jobs`` workers).
``table`` turns every results file in ``--out`` into the thesis's tables (4.1–4.7): games won and
lost by the rollout agent, win probabilities (the lowest final score wins; ties share the win), mean /
σ / minimum final scores, the thesis's two-sample t-test (Welch) of the rollout agent's final scores
against the NN agents', and our paired difference per game (rollout − mean of the three NN seats) with
a 95 % bootstrap interval.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from hearts_baselines.dutchnn.train import BRAINS
from hearts_baselines.run_args import arg, parse
from hearts_env.evaluation.arena import bootstrap_interval, read_records, run_arena, solo_seatings

CANDIDATES = 8
"""The thesis's m: at most 8 candidate cards (in practice every legal card)."""


@dataclass
class Run:
    """play one (brain, n) cell"""

    brain: str = arg(choices=BRAINS)
    n: int = arg(help="rollouts per candidate (thesis: 200, 300, 400)")
    games: int = arg(100, "games to 100, a multiple of 4 (default 100)")
    epsilon: float = arg(0.0, "the NN agents' ε at play (thesis literal: 0.1)")
    seed: int = 0
    jobs: int | None = None
    out: Path = Path("runs/dutchnn-experiment")


@dataclass
class Table:
    """the tables of every cell played in --out"""

    out: Path = Path("runs/dutchnn-experiment")
    json: bool = False


def specs(brain: str, n: int, epsilon: float = 0.0) -> tuple[str, str]:
    """The rollout agent's and the NN agent's specs for ``brain``."""
    nn = f"dutchnn(brain={brain!r}, epsilon={epsilon})" if epsilon else f"dutchnn(brain={brain!r})"
    return f"pimc(n={n}, m={CANDIDATES}, policy={nn!r}, rank={nn!r})", nn


def run(brain: str, n: int, games: int, out: Path, jobs: int | None, seed: int = 0, epsilon: float = 0.0) -> Path:
    """Play (or resume) one cell of the experiment; returns its results file."""
    if games < 4 or games % 4:
        raise ValueError(f"games must be a positive multiple of 4 (the rollout agent's four seats), got {games}")
    rollout, nn = specs(brain, n, epsilon)
    path = out / f"{brain}-n{n}{f'-eps{epsilon}' if epsilon else ''}.jsonl"
    out.mkdir(parents=True, exist_ok=True)
    run_arena([rollout, nn], games // 4, "dutch", seed=seed, jobs=jobs, out=path, resume=path.exists(),
              progress=True, only_seatings=solo_seatings())
    return path


def cell(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The thesis's figures and ours for one (brain, n) from its game records."""
    from scipy import stats

    rollout_scores, nn_scores, paired, won, nn_won = [], [], [], 0.0, 0.0
    for r in records:
        if r["error"] is not None:
            raise ValueError(f"game {r['deal']} (seating {r['seating_index']}) ended in an error: {r['error']}")
        seat = next(s for s, spec in enumerate(r["seating"]) if spec.startswith("pimc("))
        points = r["points"]
        share = 1 / len(r["winners"])
        won += share if seat in r["winners"] else 0.0
        nn_won += sum(share for w in r["winners"] if w != seat)
        others = [points[s] for s in range(4) if s != seat]
        rollout_scores.append(points[seat])
        nn_scores.extend(others)
        paired.append(points[seat] - np.mean(others))
    games = len(rollout_scores)
    welch = stats.ttest_ind(rollout_scores, nn_scores, equal_var=False)
    ci = welch.confidence_interval(0.95)
    low, high = bootstrap_interval(np.array(paired))
    a, b = np.array(rollout_scores, float), np.array(nn_scores, float)
    return {"games": games, "won": won, "lost": games - won, "p_win_rollout": won / games,
            "p_win_rollout_ci95": list(stats.binomtest(round(won), games).proportion_ci(0.95)),
            "p_win_per_nn": nn_won / games / 3,
            "rollout_score": {"mean": a.mean(), "sd": a.std(ddof=1), "min": int(a.min())},
            "nn_score": {"mean": b.mean(), "sd": b.std(ddof=1), "min": int(b.min())},
            "welch_t": float(welch.statistic), "welch_p": float(welch.pvalue),
            "welch_ci95": [float(ci.low), float(ci.high)],
            "paired_mean": float(np.mean(paired)), "paired_ci95": [low, high]}


def table(out: Path) -> str:
    """Markdown tables of every results file in ``out``."""
    rows = []
    for path in sorted(out.glob("*.jsonl"), key=lambda p: ("-eps" in p.stem, p.stem)):
        brain, rest = path.stem.split("-n", 1)
        n, _, epsilon = rest.partition("-eps")
        rows.append((f"{brain} (ε = {epsilon})" if epsilon else brain, n, cell(list(read_records(path)))))
    lines = ["| brain | n | games | rollout won / lost | P(win) rollout [95 % CI] | P(win) per NN | "
             "final score rollout µ / σ / min | NN µ / σ / min | Welch t-test rollout − NN: p, 95 % CI | "
             "paired per game [95 % CI] |", "|" + "---|" * 10]
    for brain, n, c in rows:
        r, s = c["rollout_score"], c["nn_score"]
        lo, hi = c["p_win_rollout_ci95"]
        lines.append(f"| {brain} | {n} | {c['games']} | {c['won']:g} / {c['lost']:g} | {c['p_win_rollout']:.3f} "
                     f"[{lo:.2f}, {hi:.2f}] | {c['p_win_per_nn']:.3f} | {r['mean']:.2f} / {r['sd']:.2f} / {r['min']} | "
                     f"{s['mean']:.2f} / {s['sd']:.2f} / {s['min']} | {c['welch_p']:.2g}, "
                     f"{c['welch_ci95'][0]:+.2f} … {c['welch_ci95'][1]:+.2f} | {c['paired_mean']:+.2f} "
                     f"[{c['paired_ci95'][0]:+.2f}, {c['paired_ci95'][1]:+.2f}] |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    args = parse({"run": Run, "table": Table}, argv, __doc__)
    if isinstance(args, Run):
        path = run(args.brain, args.n, args.games, args.out, args.jobs, args.seed, args.epsilon)
        print(json.dumps(cell(list(read_records(path))), indent=1, default=float))
    elif args.json:
        print(json.dumps({p.stem: cell(list(read_records(p))) for p in sorted(args.out.glob("*.jsonl"))},
                         indent=1, default=float))
    else:
        print(table(args.out))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
