"""Train the subagents of paper 000 §4, stage by stage, resumable.

    python -m hearts_baselines.subagents.train --out runs/subagents --stage all --deals 40000

Stages (each a list of steps; ``--deals`` sizes the first step, the others in fixed proportions):

- ``play``: the normal playing agent in four-seat self-play; the moonshot playing agent (one
  moonshot seat among three normal ones). Passes are random: there is no passing agent yet.
- ``decide``: the early moonshot decision agent, on hands labelled by the moonshot playing agent.
- ``pass``: the normal passing agent with the pretrained normal playing agents; the moonshot passing
  agent with the moonshot playing agent on decision-filtered deals.
- ``finetune``: normal passing + playing trained together; moonshot passing + playing together
  (filtered deals); the final moonshot decision agent; the breaker playing agent against filtered
  moon attempts; the breaker decision agent.

Every step writes ``OUT/steps/NN_step.npz`` when done and ``.partial.npz`` every 5% of its deals; a
rerun skips finished steps and continues a partial one from its last checkpoint. ``OUT/curves.png``
plots the learning curves, ``OUT/summary.json`` the statistics, ``OUT/subagents.npz`` is the result
(bundle it with ``--bundle``).
"""

from __future__ import annotations

import os

# Small matrices: multithreaded BLAS is ~6x slower here on 2 busy cores. Set before NumPy loads.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import dataclasses
import json
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np

from hearts_baselines.run_args import arg, parse
from hearts_baselines.subagents import steps as S
from hearts_baselines.subagents.networks import BUNDLED, MOON_THRESHOLD, NetSet, WeightsError, load, save
from hearts_baselines.subagents.selfplay import versus
from hearts_baselines.subagents.steps import CALIBRATION_UNITS, Labeller, Replay
from hearts_env.rules import make_rules

STAGES = ("play", "decide", "pass", "finetune")
CHUNKS = 10
DEFAULT_DEALS = 150_000
DEFAULT_REPEATS = 2
EVAL_DEALS = 500
EARLIER_ROUND_DATA = 0.2
"""Decision datasets of the rounds before the last, as a fraction of ``--moon-samples`` / ``--breaker-samples``."""


@dataclass
class Args:
    out: str = arg("runs/subagents", "run directory (checkpoints, curves, result)")
    stage: str = arg("all", "stage to run (default all)", choices=("all", *STAGES))
    deals: int = arg(DEFAULT_DEALS, "deals of the first step; others in proportion")
    repeats: int = arg(DEFAULT_REPEATS,
                       "rounds of the whole pipeline, each from the previous round's networks (paper: repeated)")
    rules: str = arg("standard", "rules spec (paper 000 = standard)")
    hidden: int = arg(64, "hidden units of every network")
    lr: float = arg(1.0, "SGD learning rate")
    engine: Literal["batch", "scalar"] = arg(
        "batch", "self-play on the batched engine, or one deal at a time (the reference; same result)")
    batch_deals: int = arg(512, "deals played between SGD passes")
    minibatch: int = arg(32, "SGD minibatch size")
    eps_start: float = arg(0.3, "exploration (ε-greedy) at the start of each step")
    eps_end: float = arg(0.05, "exploration at the end of each step")
    replay: int = arg(200_000, "states kept per network for SGD minibatches")
    replay_ratio: float = arg(8.0, "SGD rows per new state")
    moon_samples: int = arg(1_000_000, "hands labelled for the moonshot decision network (paper: 1 M)")
    breaker_samples: int = arg(1_000_000, "threat states labelled for the breaker decision network (paper: 1 M)")
    label_batch: int = arg(4096, "deals per unit of decision data (each unit from its own seed; the data depend on it)")
    jobs: int = arg(2, "processes making decision data (the data do not depend on it); self-play uses one")
    calibration_hands: int = arg(100_000, "hands played both ways to calibrate the moonshot threshold")
    calibration_deals: int = arg(20_000, "deals played per candidate breaker threshold")
    decision_epochs: int = arg(10, "epochs of the decision classifiers")
    threshold: float = arg(MOON_THRESHOLD, "decision thresholds before calibration (paper: 0.96)")
    checkpoints: int = arg(CHUNKS, "checkpoints (and curve points) per step")
    eval_deals: int = arg(EVAL_DEALS, "deals (x 4 rotations) against three heuristic seats scoring each curve point "
                                      "of a normal step")
    seed: int = 0
    bundle: bool = arg(False, "copy the result to the package's bundled weights")
    quiet: bool = arg(False, "no progress bars")

    def __post_init__(self) -> None:
        for name in ("deals", "repeats", "jobs", "batch_deals", "minibatch", "moon_samples", "breaker_samples",
                     "label_batch", "calibration_hands", "calibration_deals", "checkpoints", "eval_deals", "hidden"):
            if getattr(self, name) < 1:
                raise ValueError(f"--{name.replace('_', '-')} must be at least 1, got {getattr(self, name)}")
        for name in ("eps_start", "eps_end"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"--{name.replace('_', '-')} is a probability in [0, 1], got {getattr(self, name)}")


@dataclass(frozen=True)
class Step:
    stage: str
    name: str
    fraction: float
    """Reinforcement steps: deals as a fraction of ``--deals``. Decision steps: samples as a fraction
    of ``--moon-samples`` / ``--breaker-samples``."""
    kind: str
    """``rl``, ``decide_moon`` or ``decide_breaker``."""
    make_deal: Callable[..., S.TrainingDeal] | None = None
    """Reinforcement steps: the maker of their training deals (:mod:`.steps`)."""
    net: str = ""
    options: tuple[bool, bool] = (False, False)
    """Decision steps on moon hands: (random passes, filtered deals)."""
    calibrate: bool = False
    """Decision steps: set the network's threshold by calibration (see :mod:`.steps`)."""


STEPS = (
    Step("play", "play_normal", 1.0, "rl", S.normal_deals({"play_normal"}, random_passes=True)),
    Step("play", "play_moon", 0.5, "rl", S.moon_deals({"play_moon"}, random_passes=True, filtered=False)),
    Step("decide", "decide_moon_early", 0.1, "decide_moon", net="decide_moon", options=(True, False)),
    Step("pass", "pass_normal", 0.5, "rl", S.normal_deals({"pass_normal"}, random_passes=False)),
    Step("pass", "pass_moon", 0.25, "rl", S.moon_deals({"pass_moon"}, random_passes=False, filtered=True)),
    Step("finetune", "finetune_normal", 0.75, "rl", S.normal_deals({"pass_normal", "play_normal"}, False)),
    Step("finetune", "finetune_moon", 0.4, "rl", S.moon_deals({"pass_moon", "play_moon"}, False, True)),
    Step("finetune", "decide_moon", 1.0, "decide_moon", net="decide_moon", options=(False, False), calibrate=True),
    Step("finetune", "play_breaker", 0.4, "rl", S.breaker_deal),
    Step("finetune", "decide_breaker", 1.0, "decide_breaker", net="decide_breaker", calibrate=True),
)
"""One round of the pipeline; ``--repeats`` runs it again from the previous round's networks."""


def steps_for(repeats: int) -> list[tuple[Step, int]]:
    """(step, round) of a run of ``repeats`` rounds; rounds after the first name their steps ``…_rN``."""
    return [(dataclasses.replace(step, name=step.name if r == 1 else f"{step.name}_r{r}"), r)
            for r in range(1, repeats + 1) for step in STEPS]


def _path(out: Path, index: int, step: Step, suffix: str = ".npz") -> Path:
    return out / "steps" / f"{index:02d}_{step.name}{suffix}"


def _start_nets(out: Path, index: int, args: Args) -> NetSet:
    plan = steps_for(args.repeats)
    if index == 0:
        nets = NetSet.fresh(args.hidden, args.seed)
        nets.moon_threshold = nets.breaker_threshold = args.threshold
        return nets
    prev = _path(out, index - 1, plan[index - 1][0])
    if not prev.exists():
        raise SystemExit(f"step {plan[index][0].name} needs {prev}: run stage {plan[index - 1][0].stage!r} first")
    return load(prev)


def _check(info: dict[str, Any], total: int, path: Path) -> None:
    if info.get("total") != total:
        raise SystemExit(f"{path} was made for {info.get('total')} deals or samples, this run asks {total}: "
                         "use the same sizes, or another --out")


def _total(step: Step, round_: int, args: Args) -> int:
    if step.kind == "rl":
        return max(args.checkpoints, round(step.fraction * args.deals))
    base = args.moon_samples if step.kind == "decide_moon" else args.breaker_samples
    scale = 1.0 if round_ == args.repeats else EARLIER_ROUND_DATA
    return max(args.checkpoints, round(step.fraction * base * scale))


def run_step(out: Path, index: int, args: Args, ctx: S.Context, labeller: Labeller) -> dict[str, Any]:
    """Run (or resume, or skip if done) step ``index``; its info. ``labeller`` makes the decision data."""
    from tqdm import tqdm

    step, round_ = steps_for(args.repeats)[index]
    final = _path(out, index, step)
    if final.exists():
        return load(final).info
    total = _total(step, round_, args)
    partial = _path(out, index, step, ".partial.npz")
    data_path = _path(out, index, step, ".data.npz")
    if partial.exists():
        nets = load(partial)
        info = nets.info
        _check(info, total, partial)
    else:
        nets = _start_nets(out, index, args)
        info = {"step": step.name, "stage": step.stage, "round": round_, "total": total, "done": 0, "deals": 0,
                "curve": [], "seconds": 0.0}
    data: dict[str, list[np.ndarray]] = {"rows": [], "labels": []}
    if step.kind != "rl" and data_path.exists() and info["done"]:
        with np.load(data_path) as d:
            data = {"rows": [d["rows"]], "labels": [d["labels"]]}
    bar = tqdm(total=total, initial=info["done"], desc=f"{step.stage}/{step.name}",
               unit="deal" if step.kind == "rl" else "sample", disable=args.quiet, dynamic_ncols=True)
    size = -(-total // args.checkpoints)
    replay = Replay(args.replay)  # not checkpointed: a resumed step refills it
    while info["done"] < total:
        t0 = time.perf_counter()
        start, stop = info["done"], min(total, info["done"] + size)
        if step.kind == "rl":
            rng = np.random.default_rng([args.seed, index, start])
            loss, score = S.rl_chunk(ctx, nets, step.make_deal, start, stop, total, rng, bar.update,  # type: ignore[arg-type]
                                     replay)
            if np.isnan(score):
                mine, others = versus(nets, "heuristic", args.eval_deals, seed=args.seed, rules=args.rules,
                                      random_passes=step.stage == "play")
                score = mine - others
            info["curve"].append([stop, loss, score])
            bar.set_postfix(loss=f"{loss:.4f}", score=f"{score:.3f}")
        else:
            want, got = stop - start, 0
            while got < want:
                first = info["deals"] // args.label_batch
                count = -(-(want - got) // args.label_batch) if step.kind == "decide_moon" else args.jobs
                for chunk in labeller.units(step.kind, ctx, nets, args.seed, index, first, count, args.label_batch,
                                            step.options):
                    if got == want:
                        break  # a unit computed ahead and not needed: the next run starts there
                    keep = min(len(chunk["labels"]), want - got)
                    data["rows"].append(chunk["rows"][:keep])
                    data["labels"].append(chunk["labels"][:keep])
                    got += keep
                    info["deals"] += args.label_batch
                    bar.update(keep)
            data = {k: [np.concatenate(v)] for k, v in data.items()}  # one piece: the next checkpoint appends
            np.savez(data_path, rows=data["rows"][0], labels=data["labels"][0])
        info["done"] = stop
        info["seconds"] += time.perf_counter() - t0
        nets.info = info
        save(nets, partial)
    bar.close()
    if step.kind != "rl":
        t0 = time.perf_counter()
        rng = np.random.default_rng([args.seed, index, total])
        rows, labels = np.concatenate(data["rows"]), np.concatenate(data["labels"])
        threshold = nets.moon_threshold if step.net == "decide_moon" else nets.breaker_threshold
        info["classifier"] = S.fit_classifier(nets[step.net], rows, labels, ctx, args.decision_epochs, threshold, rng)
        if step.calibrate and step.kind == "decide_moon":
            units = labeller.units(step.kind, ctx, nets, args.seed, index, CALIBRATION_UNITS,
                                   -(-args.calibration_hands // args.label_batch), args.label_batch, step.options,
                                   counterfactual=True)
            hands = {k: np.concatenate([u[k] for u in units])[:args.calibration_hands] for k in units[0]}
            info["calibration"] = S.calibrate_moon(nets[step.net], hands)
            nets.moon_threshold = info["calibration"]["threshold"]
        elif step.calibrate:
            info["calibration"] = S.calibrate_breaker(ctx, nets, (args.seed, index, CALIBRATION_UNITS),
                                                      args.calibration_deals, map_fn=labeller.map)
            nets.breaker_threshold = float(info["calibration"]["threshold"])
        info["seconds"] += time.perf_counter() - t0
    nets.info = info
    save(nets, final)
    partial.unlink(missing_ok=True)
    return info


def plot(out: Path, infos: list[dict[str, Any]]) -> None:
    """``OUT/curves.png``: loss and score per reinforcement step."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rl = [i for i in infos if i.get("curve")]
    if not rl:
        return
    fig, axes = plt.subplots(2, len(rl), figsize=(3.2 * len(rl), 5.5), squeeze=False)
    labels = {"normal": "points - 3 heuristic seats", "moon": "moon success rate", "breaker": "moons by others"}
    for col, info in enumerate(rl):
        curve = np.array(info["curve"], dtype=float)
        kind = "moon" if "moon" in info["step"] else "breaker" if "breaker" in info["step"] else "normal"
        axes[0, col].plot(curve[:, 0], curve[:, 1])
        axes[0, col].set_title(info["step"], fontsize=9)
        axes[0, col].set_ylabel("training MSE" if col == 0 else "")
        axes[1, col].plot(curve[:, 0], curve[:, 2], color="C1")
        axes[1, col].set_ylabel(labels[kind], fontsize=8)
        axes[1, col].set_xlabel("deals")
    fig.tight_layout()
    fig.savefig(out / "curves.png", dpi=90)
    plt.close(fig)


def main(argv: list[str] | None = None) -> Path:
    args = parse(Args, argv, __doc__)
    out = Path(args.out)
    (out / "steps").mkdir(parents=True, exist_ok=True)
    ctx = S.Context(make_rules(args.rules), args.lr, args.batch_deals, args.minibatch, args.eps_start, args.eps_end,
                    args.replay, args.replay_ratio, args.engine)
    plan = steps_for(args.repeats)
    infos = []
    worked = False
    for index, (step, round_) in enumerate(plan):
        final = _path(out, index, step)
        waiting = index > 0 and not _path(out, index - 1, plan[index - 1][0]).exists()
        if args.stage == step.stage and round_ > 1 and waiting:
            print(f"{step.name}: round {round_} waits for the earlier stages of its round")
            continue
        if args.stage in ("all", step.stage):
            worked |= not final.exists()
            with Labeller(args.jobs if step.kind != "rl" else 1) as labeller:
                infos.append(run_step(out, index, args, ctx, labeller))
        elif final.exists():
            infos.append(load(final).info)
        if worked and (index + 1 == len(plan) or plan[index + 1][0].stage != step.stage):
            plot(out, infos)  # once per stage that trained something
            worked = False
    (out / "summary.json").write_text(json.dumps(infos, indent=1))
    last = _path(out, len(plan) - 1, plan[-1][0])
    if not last.exists():
        return out
    nets = load(last)
    nets.info = {"steps": {i["step"]: {k: v for k, v in i.items() if k != "curve"} for i in infos},
                 "seconds": sum(i.get("seconds", 0.0) for i in infos),
                 "args": {k: v for k, v in vars(args).items() if k not in ("bundle", "quiet", "out", "stage")},
                 "command": " ".join(["python -m hearts_baselines.subagents.train",
                                      *(sys.argv[1:] if argv is None else argv)])}
    result = save(nets, out / "subagents.npz")
    print(f"wrote {result} ({sum(i.get('seconds', 0.0) for i in infos) / 60:.1f} min of training)")
    if args.bundle:
        BUNDLED.parent.mkdir(exist_ok=True)
        shutil.copyfile(result, BUNDLED)
        load(BUNDLED)
        print(f"bundled as {BUNDLED}")
    return result


if __name__ == "__main__":
    try:
        main()
    except WeightsError as e:
        raise SystemExit(f"error: {e}") from None
