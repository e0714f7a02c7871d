"""Moon defence: the apprentice fine-tuned on the positions where an opponent may still shoot the moon.

    make xinxin        # xinxin's driver (GPL-3.0, built from third_party/; never in the wheel)
    python -m hearts_baselines.apprentice.moon --out runs/apprentice-moon --jobs 2

Against xinxin the apprentice loses most of its margin to moons (docs/learned.md): it was trained in
self-play, where nobody shoots. This stage shows it the positions where moons happen and how a searcher
plays them. Three folders of search data (:mod:`~hearts_baselines.apprentice.data`), each ``--deals``
deals, the searcher ``pimc(n=40, policy='apprentice')`` labelling every decision:

- ``OUT/self``: four searchers (seed 1; the first units of the second apprentice's data);
- ``OUT/xinxin``: the searcher in one seat against three xinxin seats at OpenSpiel's setting (seed 1);
- ``OUT/dagger``: the bundled apprentice plays that seat and the searcher labels its positions (seed 2).

Then the bundled weights are fitted on those folders' *moon positions* only (``supervised --other-weight 0``:
playing decisions at which one opponent alone has taken points), ``--epochs`` epochs at ``--lr``, into
``OUT/tuned/apprentice.npz``, played as ``apprentice(weights='OUT/tuned/apprentice.npz')``. Every stage
resumes; the data is a function of (seed, deal) whatever ``--jobs``, the fit of the data, seed and thread count.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hearts_baselines.apprentice import data, supervised
from hearts_baselines.apprentice.agent import BUNDLED
from hearts_baselines.run_args import arg, parse

TEACHER = "pimc(n=40, policy='apprentice')"
XINXIN = ("xinxin(setting='openspiel', uct_num_runs=50, uct_c_val=0.4, iimc_num_worlds=20, playout_epsilon=0.0, "
          "deadline=4.0)")  # the reference track's `xinxin` rung, played in this process


@dataclass
class Args:
    out: str = arg()
    deals: int = arg(1200, "deals of each of the three folders (a multiple of 50)")
    jobs: int = arg(1, "processes of the data stages (the data does not depend on it)")
    epochs: int = 10
    lr: float = 1e-4
    seed: int = 0
    unit_deals: int = arg(50, "deals per data file")
    eval_deals: int = arg(2000, "deals of the quick measure against heuristic after each epoch")


# the three data folders and the arguments of data.generate that make each
FOLDERS: dict[str, dict[str, Any]] = {
    "self": {"searcher": TEACHER, "seed": 1},
    "xinxin": {"searcher": TEACHER, "seed": 1, "opponents": XINXIN},
    "dagger": {"searcher": TEACHER, "seed": 2, "opponents": XINXIN, "player": "apprentice"}}


def main(argv: list[str] | None = None) -> None:
    args = parse(Args, argv, __doc__.split("\n\n")[0])
    out = Path(args.out)
    for name, how in FOLDERS.items():
        data.generate(out / name, args.deals, jobs=args.jobs, unit_deals=args.unit_deals, **how)
    summary = supervised.train(",".join(str(out / name) for name in FOLDERS), str(out / "tuned"), seed=args.seed,
                               epochs=args.epochs, lr=args.lr, init=str(BUNDLED), other_weight=0.0, resume=True,
                               eval_deals=args.eval_deals)
    print(f"tuned weights: {out / 'tuned' / 'apprentice.npz'} (quick measure vs heuristic "
          f"{summary['final']['eval_margin_vs_heuristic']:+.2f})")


if __name__ == "__main__":
    main()
