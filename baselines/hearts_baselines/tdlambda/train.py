"""Train paper 004's learners: ``python -m hearts_baselines.tdlambda.train``.

Deals of ``sturtevant(moon=off)`` (the paper's training rules) on the batched engine, ``--rows``
at a time (one deal per row). The learning seat plays max^n to the end of the trick with its own model (every seat
valued from its own perspective, perfect information, as in the paper's training); the others are
``heuristic`` (our stand-in for the paper's expert program PIE, which is not available) or, with
``--opponents self``, the same search with the same model. After each deal every learning seat's
trick-boundary positions (those with task points still to take) are swept backwards by TD(λ = 0.75)
(:func:`~hearts_baselines.tdlambda.kernels.td_update`). With ``--opponents self`` all four seats
learn from the deal.

Subcommands:

- ``q`` / ``hearts``: a single-task learner over one feature set (``--orders``, e.g. ``1,3``).
- ``full``: the game (Q♠ + hearts), over the ``--keep-q`` / ``--keep-hearts`` features of largest
  weight of two trained single-task models, initialised with their weights (whose sum predicts the
  deal's points) and trained on (against ``heuristic`` by default: in our runs self-play made the
  model weaker, docs/tdlambda.md).
- ``all``: the three in a row (seeds ``--seed``, +1, +2); with ``--bundle`` the full model becomes the
  package's ``weights/tdlambda.npz``: the recipe of the shipped agent, one command, reproducible.

Every ``--curve-every`` deals the run appends one line to ``<out>.curve.jsonl`` (the learner's and the
opponents' mean task points over the window; with ``--opponents self``, a separate match of the
current model against three ``heuristic`` seats on ``--eval-deals`` deals) and saves the model and
its random state, so ``--resume`` goes on where a killed run stopped and ends with the same weights.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np

from hearts_baselines.run_args import arg, parse
from hearts_baselines.tdlambda import kernels
from hearts_baselines.tdlambda.features import FeatureSet, parse_orders
from hearts_baselines.tdlambda.model import Model
from hearts_env.rules import make_rules
from hearts_env.vector import VectorDeals

TRAINING_RULES = "sturtevant(moon=off)"
LAMBDA = 0.75
BUNDLED = Path(__file__).resolve().parent.parent / "weights" / "tdlambda.npz"
TASK_MASKS = {"q": kernels.QS, "hearts": kernels.HEARTS, "full": kernels.QS | kernels.HEARTS}


@dataclass
class Args:
    task: Literal["q", "hearts", "full", "all"] = arg(positional=True)
    deals: int | None = arg(None, "training deals (default: q 60032, hearts 30016, full 40960; 'all' runs the three)")
    orders: str = arg("1,2,3", "conjunction orders of a q or hearts learner (default 1,2,3)")
    opponents: Literal["heuristic", "self"] = arg("heuristic", "the other three seats (default heuristic)")
    seed: int = 0
    out: Path = arg(Path("runs/tdlambda"), "folder of the run (default runs/tdlambda)")
    q_model: Path | None = arg(None, "full: the trained q model (default <out>/q.npz)")
    hearts_model: Path | None = arg(None, "full: the trained hearts model (default <out>/hearts.npz)")
    keep_q: int = arg(10000, "full: q features kept (paper 10,000)")
    keep_hearts: int = arg(2000, "full: hearts features kept (paper 2,000)")
    rows: int = arg(64, "deals played at once, one per row of the batch (default 64)")
    curve_every: int = 1024
    eval_deals: int = arg(512, "self-play: deals per check against heuristic")
    resume: bool = arg(False, "continue a killed run from its last save")
    bundle: bool = arg(False, "all: also write the package's weights/tdlambda.npz")


def task_points(taken: np.ndarray, task: str) -> np.ndarray:
    """Task points in masks of taken cards (any shape, uint64 or int64)."""
    t = taken.astype(np.uint64)
    hearts = np.bitwise_count(t & np.uint64(kernels.HEARTS)).astype(np.int64)
    queen = np.where(t & np.uint64(kernels.QS), 13, 0)
    return {"q": queen, "hearts": hearts, "full": hearts + queen}[task]


def play(model: Model, size: int, rng: np.random.Generator, opponents: str, learn: bool,
         rules: str = TRAINING_RULES) -> dict[str, np.ndarray]:
    """Play ``size`` deals at once: the learning seat (one per row, drawn; every seat under
    ``opponents="self"``) by the model's search, the others by ``heuristic`` or the model; then, if
    ``learn``, TD(λ) over the learners' positions. Returns per row the learner seat and every
    seat's task points."""
    k = kernels.compiled()
    P = model.params("off" if make_rules(rules).moon == "off" else make_rules(rules).moon)
    deals = VectorDeals.random(rules, size, rng, backend="numba")
    selfplay = opponents == "self"
    seats = rng.integers(0, 4, size).astype(np.int8)
    hand_size = deals.tables.hand_size
    hands = np.zeros((size, hand_size, 4), np.int64)
    taken = np.zeros((size, hand_size, 4), np.int64)
    leaders = np.zeros((size, hand_size), np.int64)
    counts = np.zeros(size, np.int64)
    task_mask = np.uint64(TASK_MASKS[model.task])
    dealt = deals.dealt.view(np.int64)
    cards = np.full(size, -1, np.int64)
    while not deals.done.all():
        live = ~deals.done
        out = np.bitwise_or.reduce(deals.hands, axis=1)
        record = np.flatnonzero(live & (deals.trick_count == 0) & ((out & task_mask) != 0))
        hands[record, counts[record]] = deals.hands[record].view(np.int64)
        taken[record, counts[record]] = deals.taken[record].view(np.int64)
        leaders[record, counts[record]] = deals.leader[record]
        counts[record] += 1
        searching = live if selfplay else live & (deals.current == seats)
        cards = np.full(size, -1, np.int64) if selfplay else deals.policy_actions(opponents)
        k.choose_rows(deals.hands.view(np.int64), dealt, deals.taken.view(np.int64), deals.leader,
                      deals.trick, deals.legal_masks().view(np.int64), searching, P, cards)
        deals.step(cards)
    points = task_points(deals.taken, model.task)
    if learn:
        if selfplay:
            episodes = np.repeat(np.arange(size), 4)
            learners = np.tile(np.arange(4), size)
        else:
            episodes, learners = np.arange(size), seats.astype(np.int64)
        k.td_episodes(hands[episodes], dealt[episodes], taken[episodes], leaders[episodes], counts[episodes],
                      learners, points[episodes, learners].astype(np.float64), LAMBDA, P)
    return {"seats": seats, "points": points}


def learner_and_others(result: dict[str, np.ndarray]) -> tuple[float, float]:
    """Mean task points of the learning seat and of the other three seats."""
    points, seats = result["points"], result["seats"].astype(np.intp)
    mine = points[np.arange(len(seats)), seats]
    return float(mine.mean()), float((points.sum(axis=1) - mine).mean() / 3)


def train(model: Model, deals: int, seed: int, out: Path, opponents: str = "heuristic", rows: int = 64,
          curve_every: int = 1000, eval_deals: int = 500, resume: bool = False, quiet: bool = False) -> Model:
    """Train ``model`` in place for ``deals`` deals, ``rows`` at a time (see the module docstring); returns it.
    A run saved before ``rows`` had its name (its state says ``tables``) resumes as well."""
    if opponents not in ("heuristic", "self"):
        raise ValueError(f"opponents must be 'heuristic' or 'self', got {opponents!r}")
    if deals < 1 or rows < 1 or curve_every < rows or curve_every % rows:
        raise ValueError(f"need deals >= 1, rows >= 1 and curve_every a multiple of rows; got deals={deals}, "
                         f"rows={rows}, curve_every={curve_every}")
    rng = np.random.default_rng(seed)
    state_path, curve_path = out.with_suffix(".state.json"), out.with_suffix(".curve.jsonl")
    done = 0
    if resume and state_path.exists():
        state = json.loads(state_path.read_text())
        saved_rows = state["rows"] if "rows" in state else state["tables"]  # "tables": saved before the rename
        if state["seed"] != seed or state["opponents"] != opponents or saved_rows != rows:
            raise ValueError(f"{state_path} is a run with seed {state['seed']}, opponents {state['opponents']!r}, "
                             f"rows {saved_rows}: resume it with the same settings")
        model.weights[:] = Model.load(out).weights
        rng.bit_generator.state = state["rng"]
        done = state["deals"]
    elif curve_path.exists():
        curve_path.unlink()
    start = time.perf_counter()
    window: list[tuple[float, float]] = []
    while done < deals:
        result = play(model, rows, rng, opponents, learn=True)
        done += rows
        window.append(learner_and_others(result))
        if done % curve_every == 0 or done >= deals:
            row: dict[str, Any] = {"deals": done, "seconds": round(time.perf_counter() - start, 1)}
            if opponents == "self":
                check = np.random.default_rng([seed, done])
                scores = [learner_and_others(play(model, rows, check, "heuristic", learn=False))
                          for _ in range(max(1, eval_deals // rows))]
                row["learner"], row["opponents"] = np.mean(scores, axis=0).round(3).tolist()
                row["versus"] = "heuristic"
            else:
                row["learner"], row["opponents"] = np.mean(window, axis=0).round(3).tolist()
                row["versus"] = "heuristic (training deals)"
            window = []
            with curve_path.open("a") as f:
                f.write(json.dumps(row) + "\n")
            model.save(out)
            state_path.write_text(json.dumps({"seed": seed, "opponents": opponents, "rows": rows, "deals": done,
                                              "rng": rng.bit_generator.state}))
            if not quiet:
                print(json.dumps(row), file=sys.stderr, flush=True)
    return model


def full_model(q: Model, hearts: Model, keep_q: int, keep_hearts: int) -> Model:
    """The game's learner over the features of largest weight of the two single-task learners,
    initialised with their weights."""
    if q.task != "q" or hearts.task != "hearts":
        raise ValueError(f"full_model needs a q model and a hearts model; got {q.task!r} and {hearts.task!r}")
    q_keep, h_keep = q.top(keep_q), hearts.top(keep_hearts)
    weights = np.concatenate([q.weights[q_keep], hearts.weights[h_keep]])
    return Model("full", q.q, hearts.hearts, weights, q_keep, h_keep)


def main(argv: list[str] | None = None) -> None:
    args = parse(Args, argv, __doc__)
    defaults = {"q": 60_032, "hearts": 30_016, "full": 40_960}
    run: dict[str, Any] = dict(rows=args.rows, curve_every=args.curve_every, eval_deals=args.eval_deals,
                               resume=args.resume)
    orders = parse_orders(args.orders)
    args.out.mkdir(parents=True, exist_ok=True)
    tasks = ["q", "hearts", "full"] if args.task == "all" else [args.task]
    for i, task in enumerate(tasks):
        deals = args.deals if args.deals is not None and args.task != "all" else defaults[task]
        seed = args.seed + i
        rng = np.random.default_rng([seed, 1])
        if task in ("q", "hearts"):
            fs = FeatureSet(kernels.Q_SPACE if task == "q" else kernels.HEARTS_SPACE, orders)
            model = Model.initial(task, fs if task == "q" else None, fs if task == "hearts" else None, rng)
            opponents = args.opponents
        else:
            model = full_model(Model.load(args.q_model or args.out / "q.npz"),
                               Model.load(args.hearts_model or args.out / "hearts.npz"), args.keep_q, args.keep_hearts)
            opponents = args.opponents
        model.meta = {"command": " ".join(["python -m hearts_baselines.tdlambda.train", *(argv or sys.argv[1:])]),
                      "task": task, "deals": deals, "seed": seed, "opponents": opponents, "rules": TRAINING_RULES}
        train(model, deals, seed, args.out / f"{task}.npz", opponents, **run)
        if task == "full" and args.bundle:
            model.save(BUNDLED)
            print(f"bundled {BUNDLED}", file=sys.stderr)


if __name__ == "__main__":
    main()
