"""Train paper 003's networks: ``python -m hearts_baselines.dutchnn.train``.

Self-play under the ``dutch`` rules on the batched engine (:mod:`.training`): ``--rows`` deals in
lockstep (one per row of the batch), all four seats the same network and all learning, plain SGD
(lr 0.001) on the Monte Carlo returns after every batch of deals, ε-greedy from 0.1 down by 0.001 per
epoch of 200 deals. The thesis's brains are checkpoints of one run, by epochs: ``nnai2`` 500
(100,000 deals), ``strongman`` 3,000 (600,000), ``strongman2`` 10,000 (2,000,000). A run to the last
brain writes each earlier one on the way (the exploration schedule depends only on the deals played,
so a shorter run from the same seed would end with the same weights).

Every ``--curve-every`` deals the run appends one line to ``<out>/curve.jsonl`` — the mean squared
error of the window's updates, and the greedy network in one seat against three ``heuristic`` and
against three ``random`` players on ``--eval-deals`` fixed deals in the four rotations — and saves the
network, the rows' game scores and the random state, so ``--resume`` goes on where a killed run
stopped and ends with the same weights. ``--bundle`` copies the brains to the package's weights
(float32): the recipe of the shipped ``dutchnn`` agents, one command::

    python -m hearts_baselines.dutchnn.train --brain strongman2 --seed 0 --out runs/dutchnn --bundle
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from hearts_baselines.dutchnn.model import DutchNet
from hearts_baselines.dutchnn.training import EPOCH_DEALS, check_rules, epsilon_at, learn, play_batch, versus
from hearts_baselines.run_args import arg, parse
from hearts_env.rules import Rules, make_rules
from hearts_env.vector import VectorDeals

BRAINS = {"nnai2": 500, "strongman": 3_000, "strongman2": 10_000}
"""The thesis's brains and their training epochs (§3.1, §5)."""
WEIGHTS = Path(__file__).resolve().parent.parent / "weights"
TRAINING_RULES = "dutch"


@dataclass
class Args:
    brain: str = arg("strongman2", "train to this brain, writing the earlier ones on the way (default strongman2)",
                     choices=BRAINS)
    deals: int | None = arg(None, "stop after this many deals instead (smoke runs; no brain is written unless reached)")
    seed: int = 0
    out: Path = Path("runs/dutchnn")
    rows: int = arg(50, "deals per batch, one per row (weights frozen within one; default 50, a quarter epoch)")
    curve_every: int = 20_000
    eval_deals: int = 1024
    resume: bool = arg(False, "continue a killed run from its last save")
    bundle: bool = arg(False, "also write the brains into the package's weights")


def bundled_path(brain: str) -> Path:
    return WEIGHTS / f"dutchnn-{brain}.npz"


def _new_deals(rules: Rules, scores: np.ndarray, dealers: np.ndarray, rng: np.random.Generator) -> VectorDeals:
    """Fresh shuffled deals in every row, each under its game's scores and dealer."""
    shuffled = VectorDeals.random(rules, len(dealers), rng)
    return VectorDeals(rules, shuffled.hands, shuffled.pass_direction, dealers, game_scores=scores)


def train(net: DutchNet, deals: int, seed: int, out: Path, rows: int = 50, curve_every: int = 20_000,
          eval_deals: int = 1024, resume: bool = False, checkpoints: dict[int, str] | None = None,
          rules: Rules | str = TRAINING_RULES, quiet: bool = False) -> DutchNet:
    """Train ``net`` (float64) in place for ``deals`` deals, ``rows`` at a time (see the module docstring);
    returns it. ``checkpoints`` maps deal counts to file names written into ``out`` when the run passes them.
    A run saved before ``rows`` had its name (its settings say ``tables``) resumes as well."""
    rules = check_rules(rules)
    if rules.game != "match":
        rules = make_rules(rules, game="match")
    if deals < 1 or rows < 1 or curve_every < rows or curve_every % rows or deals % rows:
        raise ValueError(f"need deals and curve_every multiples of rows >= 1; got deals={deals}, rows={rows}, "
                         f"curve_every={curve_every}")
    checkpoints = dict(checkpoints or {})
    if any(at % curve_every for at in checkpoints):
        raise ValueError(f"checkpoints {sorted(checkpoints)} must be multiples of curve_every={curve_every}")
    out.mkdir(parents=True, exist_ok=True)
    net_path, state_path, curve_path = out / "last.npz", out / "state.npz", out / "curve.jsonl"
    settings = {"seed": seed, "rows": rows, "rules": rules.spec()}
    rng = np.random.default_rng(seed)
    scores = np.zeros((rows, 4), np.int64)
    dealers = rng.integers(0, 4, rows).astype(np.int8)
    done = 0
    if resume and state_path.exists():
        with np.load(state_path, allow_pickle=False) as state:
            saved = json.loads(str(state["header"]))
            if "tables" in saved["settings"]:  # saved before the rename
                saved["settings"] = {("rows" if k == "tables" else k): v for k, v in saved["settings"].items()}
            if saved["settings"] != settings:
                raise ValueError(f"{state_path} is a run with {saved['settings']}; resume it with the same settings "
                                 f"(asked: {settings})")
            scores, dealers = state["scores"], state["dealers"]
        loaded = DutchNet.load(net_path)
        for name in ("w1", "b1", "w2", "b2"):
            getattr(net, name)[...] = getattr(loaded, name)
        rng.bit_generator.state = saved["rng"]
        done = saved["deals"]
    elif curve_path.exists():
        curve_path.unlink()
    start, errors = time.perf_counter(), []
    while done < deals:
        batch = _new_deals(rules, scores, dealers, rng)
        samples = play_batch(net, batch, epsilon_at(done), rng)
        errors.append(learn(net, samples))
        scores += batch.points
        scores[(scores >= rules.target).any(axis=1)] = 0  # that game is over: the next deal starts a new one
        dealers = (dealers + 1) % 4
        done += rows
        if done % curve_every == 0 or done >= deals:
            row: dict[str, Any] = {"deals": done, "epochs": done / EPOCH_DEALS, "epsilon": epsilon_at(done - rows),
                                   "mse": round(float(np.mean(errors)), 4),
                                   "seconds": round(time.perf_counter() - start, 1)}
            errors = []
            for opponents in ("heuristic", "random"):
                row[f"vs_{opponents}"] = [round(v, 3) for v in versus(net, opponents, eval_deals, seed=10_000 + seed)]
            with curve_path.open("a") as f:
                f.write(json.dumps(row) + "\n")
            net.meta.update(deals=done, epochs=done / EPOCH_DEALS)
            net.save(net_path)
            header = {"settings": settings, "deals": done, "rng": rng.bit_generator.state}
            with open(state_path, "wb") as f:
                np.savez(f, header=np.array(json.dumps(header)), scores=scores, dealers=dealers)
            if done in checkpoints:
                net.save(out / checkpoints[done])
            if not quiet:
                print(json.dumps(row), file=sys.stderr, flush=True)
    return net


def main(argv: list[str] | None = None) -> None:
    args = parse(Args, argv, __doc__)
    last = BRAINS[args.brain]
    deals = args.deals if args.deals is not None else last * EPOCH_DEALS
    checkpoints = {epochs * EPOCH_DEALS: f"{brain}.npz" for brain, epochs in BRAINS.items() if epochs <= last}
    checkpoints = {at: name for at, name in checkpoints.items() if at <= deals and at % args.curve_every == 0}
    net = DutchNet.initial(np.random.default_rng([args.seed, 1]))
    net.meta = {"command": " ".join(["python -m hearts_baselines.dutchnn.train", *(sys.argv[1:] if argv is None
                                                                                      else argv)]),
                "seed": args.seed, "rules": TRAINING_RULES, "rows": args.rows, "epoch_deals": EPOCH_DEALS}
    train(net, deals, args.seed, args.out, args.rows, args.curve_every, args.eval_deals, args.resume,
          checkpoints)
    if args.bundle:
        for name in checkpoints.values():
            brain = DutchNet.load(args.out / name)
            brain.meta["brain"] = name.removesuffix(".npz")
            brain.save(bundled_path(brain.meta["brain"]), dtype=np.float32)
            print(f"bundled {bundled_path(brain.meta['brain'])}", file=sys.stderr)


if __name__ == "__main__":
    main()
