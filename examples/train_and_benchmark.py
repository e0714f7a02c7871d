"""Train your own agent on hearts-env with Stable-Baselines3, then benchmark it against the bundled ladder.

    python examples/train_and_benchmark.py                                  # 200k steps, the quick tier
    python examples/train_and_benchmark.py --timesteps 2000000 --tier full  # a result for a paper

The path a researcher takes with this package, in four steps: make the Gymnasium env (one seat, the
other three played by a bundled agent), train a masked policy on it (sb3-contrib's MaskablePPO reads
the env's ``action_masks()``), save it, and hand the saved model to ``hearts-bench`` as the agent spec
``sb3:PATH`` — the same deals, opponents and statistics as every other result on the leaderboard
(docs/benchmark.md). Needs the train and benchmark extras:
``pip install -e ".[train,benchmark]" -c constraints.txt``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--timesteps", type=int, default=200_000, help="environment steps of training")
    parser.add_argument("--opponents", default="heuristic", help="agent spec of the three other seats")
    parser.add_argument("--tier", default="quick", choices=("smoke", "quick", "full"), help="benchmark tier")
    parser.add_argument("--rungs", default=None, help="comma-separated ladder opponents (default: all)")
    parser.add_argument("--out", type=Path, default=Path("runs/my-agent"))
    parser.add_argument("--jobs", type=int, default=None)
    args = parser.parse_args(argv)

    import gymnasium
    import torch
    from sb3_contrib import MaskablePPO

    import hearts_env  # noqa: F401  (registers hearts_env/Hearts-v0)
    from hearts_env.evaluation.benchmark import markdown, run_benchmark

    torch.set_num_threads(1)  # one thread per process: these machines have two cores

    # 1. The env: one learning seat, three opponents; one deal per episode, every pass direction.
    env = gymnasium.make("hearts_env/Hearts-v0", rules="standard(game=deal)", opponents=args.opponents,
                         seat="random")
    # 2. Train a masked policy (illegal cards are never sampled).
    model = MaskablePPO("MlpPolicy", env, seed=0, verbose=0)
    model.learn(total_timesteps=args.timesteps)
    # 3. Save it: the file is an agent spec the arena and the benchmark accept.
    args.out.mkdir(parents=True, exist_ok=True)
    model.save(args.out / "model.zip")
    # 4. Benchmark it: the suite's fixed deals against the ladder, paired 95 % intervals.
    result = run_benchmark(f"sb3:{args.out / 'model.zip'}", tier=args.tier, out=args.out / "bench", jobs=args.jobs,
                           rungs=args.rungs.split(",") if args.rungs else None)
    print(markdown(result))
    print(json.dumps(result["headline"]))
    return result


if __name__ == "__main__":
    main()
