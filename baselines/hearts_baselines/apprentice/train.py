"""The apprentice's whole recipe in one command: search data → warm start → PPO with self-play.

    python -m hearts_baselines.apprentice.train --out runs/apprentice --seed 0 [--bundle]

Runs the three stages into ``OUT/data``, ``OUT/warm`` and ``OUT/ppo`` with the settings of the bundled
weights (docs/learned.md), each resumable: run the same command again after an interruption and every
stage continues where it stopped (finished stages are kept). ``--bundle`` copies the final weights into
the package (``hearts_baselines/weights/apprentice.npz``), the ``apprentice`` agent's default.
Stage options are those of :mod:`~hearts_baselines.apprentice.data`,
:mod:`~hearts_baselines.apprentice.supervised` and :mod:`~hearts_baselines.apprentice.ppo`.
"""

from __future__ import annotations

import json
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from hearts_baselines.apprentice import data, ppo, supervised
from hearts_baselines.apprentice.agent import BUNDLED
from hearts_baselines.apprentice.net import NumpyNet
from hearts_baselines.run_args import arg, parse

DEALS, UNIT_DEALS, EPOCHS, HIDDEN, ITERATIONS = 20000, 50, 20, (512, 512), 1000  # the bundled weights' recipe


@dataclass
class Args:
    out: str = arg()
    seed: int = 0
    jobs: int = arg(2, "processes of the data stage (the data does not depend on it)")
    deals: int = DEALS
    epochs: int = EPOCHS
    iterations: int = arg(ITERATIONS, "PPO iterations (8,192 steps each)")
    bundle: bool = arg(False, "copy the final weights into the package")


def main(argv: list[str] | None = None) -> None:
    args = parse(Args, argv, __doc__.split("\n\n")[0])
    out = Path(args.out)
    times = {}
    started = time.perf_counter()
    data.generate(out / "data", args.deals, args.seed, args.jobs, UNIT_DEALS)
    times["data"] = time.perf_counter() - started
    warm = out / "warm" / "apprentice.npz"
    supervised.train(str(out / "data"), str(out / "warm"), seed=args.seed, epochs=args.epochs, hidden=HIDDEN,
                     resume=True)
    times["warm start"] = time.perf_counter() - started - times["data"]
    ppo.train(str(warm), str(out / "ppo"), seed=args.seed, iterations=args.iterations, eval_every=50, resume=True)
    times["ppo"] = time.perf_counter() - started - times["data"] - times["warm start"]
    final = out / "ppo" / "apprentice.npz"
    (out / "times.json").write_text(json.dumps({k: round(v / 60, 1) for k, v in times.items()}, indent=1) + "\n")
    if args.bundle:
        NumpyNet.load(final)  # refuse to bundle a damaged file
        shutil.copyfile(final, BUNDLED)
        print(f"bundled {final} as {BUNDLED}")


if __name__ == "__main__":
    main()
