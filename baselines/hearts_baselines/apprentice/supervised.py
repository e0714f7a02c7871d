"""Warm start: the apprentice network fitted to search data (:mod:`hearts_baselines.apprentice.data`).

    python -m hearts_baselines.apprentice.supervised --data runs/apprentice/data --out runs/apprentice/warm
    python -m hearts_baselines.apprentice.supervised --data runs/apprentice2/data --out runs/apprentice2/warm \
        --init baselines/hearts_baselines/weights/apprentice.npz --lr 1e-4

Loss per decision: cross-entropy of the masked policy against the searcher's card, plus the squared
error of the ``q`` head against the searcher's per-card estimates (candidates only), plus the squared
error of ``v`` against the points the seat took by the deal's end (both in units of 5 points, the
order of a deal's spread). Adam, cosine-decayed learning rate, minibatches drawn by a seeded generator.
The deals with index ≡ 0 (mod 20) are held out: per epoch, ``metrics.jsonl`` records the held-out
agreement with the searcher (playing and passing), the ``q`` head's agreement (its argmin) and
errors, and the greedy policy's margin against three ``heuristic`` over ``--eval-deals`` seeded deals
(:func:`hearts_baselines.apprentice.agent.margin_vs_heuristic`).
``--data`` may name several folders, comma-separated (e.g. a searcher's self-play and its play against a
reference opponent, ``data --opponents``): their rows are pooled (each folder's deals held out alike); they
must share rules and observation. ``--moon-weight W`` weighs each playing decision at which one opponent alone has
taken penalty cards (:func:`moon_on`: a moon is still on for that seat) ``W`` times in the losses, and
``--other-weight`` every other decision (0: fine-tune on the moon positions only). ``--init`` starts from trained
weights (an ``apprentice.npz``, whose layer sizes then replace ``--hidden``) instead of random ones: a network
fitted again to a stronger searcher's data.
A checkpoint (network + optimizer + epoch) is written after every epoch and ``--resume``
continues from it; the end writes ``apprentice.npz`` (:class:`~hearts_baselines.apprentice.net.NumpyNet`).
Same data, seed and thread count → same weights.
"""

from __future__ import annotations

import copy
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from hearts_baselines.apprentice import data as D
from hearts_baselines.apprentice.agent import greedy_margin
from hearts_baselines.apprentice.net import (
    SCALE,
    NumpyNet,
    as_float,
    begin,
    checkpoint,
    finish,
    load_into,
    log_metrics,
    scalar_slots,
    to_numpy,
    torch_net,
)
from hearts_baselines.run_args import arg, parse
from hearts_env.engine import Phase
from hearts_env.rules import make_rules

HOLDOUT = 20  # deals k with k % HOLDOUT == 0 are held out


@dataclass
class Args:
    data: str = arg(help="folder of search data (or several, comma-separated, pooled)")
    out: str = arg()
    seed: int = 0
    epochs: int = 10
    batch: int = 1024
    lr: float = 1e-3
    hidden: str = arg("512,512", "hidden layer sizes, comma-separated")
    q_weight: float = 1.0
    v_weight: float = 0.5
    temperature: float = arg(0.0, "points; > 0: soft policy targets softmax(-values/T) where the searcher gave "
                                  "estimates")
    eval_deals: int = arg(2000, "deals against three heuristic after each epoch (0: none)")
    units: int | None = arg(None, "use only the first N units of each folder")
    threads: int = arg(1, "torch threads")
    resume: bool = False
    init: str | None = arg(None, "start from these weights (apprentice.npz; its layer sizes replace --hidden)")
    moon_weight: float = arg(1.0, "loss weight of playing decisions at which one opponent alone has taken points")
    other_weight: float = arg(1.0, "loss weight of every other decision")
    anchor: float | None = arg(None, "fit no card: minimise the policy's expected value over the per-card values "
                                     "plus ANCHOR x KL(init policy || policy) (needs --init; outcome data)")

    def __post_init__(self) -> None:  # refused in one line
        check_anchor(self.anchor, self.init)


def check_anchor(anchor: float | None, init: str | None) -> None:
    """Refuse an anchored fit without a policy to stay near, or a negative anchor."""
    if anchor is not None and not (anchor >= 0 and init is not None):
        raise ValueError(f"anchor={anchor!r}: needs a number >= 0 and --init (the policy it stays near)")


FOLDER_STRIDE = 100_000_000  # deal numbers of the i-th folder are offset by i * this (a multiple of HOLDOUT)


def load_data(data_dir: str, units: int | None = None) -> tuple[dict[str, np.ndarray], list[dict[str, Any]]]:
    """The rows of every comma-separated folder of ``data_dir`` pooled (deal numbers made distinct per folder) and
    their manifests; folders of other rules or observations are refused."""
    folders = [f for f in data_dir.split(",") if f]
    if not folders:
        raise ValueError("--data names no folder")
    manifests = []
    for folder in folders:
        path = Path(folder) / "manifest.json"
        if not path.is_file():
            raise FileNotFoundError(f"{path} not found: {folder} is not a folder of search data")
        manifests.append(json.loads(path.read_text()))
    for folder, m in zip(folders[1:], manifests[1:]):
        for key in ("rules", "observation", "observation_dtype"):
            if m.get(key) != manifests[0].get(key):
                raise ValueError(f"{folder} holds {key} {m.get(key)!r} but {folders[0]} {manifests[0].get(key)!r}: "
                                 f"pooled folders must agree")
    parts = [D.load(folder, units) for folder in folders]
    for i, part in enumerate(parts):
        part["deal"] = part["deal"] + i * FOLDER_STRIDE
    return {key: np.concatenate([p[key] for p in parts]) for key in D.KEYS}, manifests


def moon_on(obs: np.ndarray, phase: np.ndarray, rules: Any) -> np.ndarray:
    """(B,) bool: playing decisions (uint8 ``rich`` rows) at which exactly one opponent has taken penalty points
    and the deciding seat none — the positions where that opponent may still shoot the moon."""
    start = scalar_slots(rules).start  # points taken by relative seat r at start + r (0 = the deciding seat)
    taken = obs[:, start:start + 4] > 0
    return (phase == int(Phase.PLAY)) & ~taken[:, 0] & (taken[:, 1:].sum(axis=1) == 1)


def split(data: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    held = data["deal"] % HOLDOUT == 0
    return np.flatnonzero(~held), np.flatnonzero(held)


def batch_tensors(data: dict[str, np.ndarray], rows: np.ndarray, rules: Any,
                  weights: tuple[float, float] = (1.0, 1.0)) -> dict[str, Any]:
    """The minibatch of ``rows``; ``weights`` (moon, other): each row's loss weight (:func:`moon_on`)."""
    import torch

    values = data["values"][rows]
    has = ~np.isnan(values)
    moon = moon_on(data["obs"][rows], data["phase"][rows], rules)
    return {"x": torch.from_numpy(as_float(data["obs"][rows], rules)),
            "w": torch.from_numpy(np.where(moon, weights[0], weights[1]).astype(np.float32)),
            "legal": torch.from_numpy(data["legal"][rows]),
            "action": torch.from_numpy(data["action"][rows].astype(np.int64)),
            "values": torch.from_numpy(np.nan_to_num(values)), "has": torch.from_numpy(has),
            "points": torch.from_numpy(data["points"][rows].astype(np.float32))}


def losses(net: Any, b: dict[str, Any], q_weight: float, v_weight: float,
           temperature: float = 0.0, anchor: float | None = None) -> tuple[Any, dict[str, float]]:
    """The loss of one minibatch. ``temperature`` > 0: on decisions with per-card estimates the policy's
    target is ``softmax(-values / temperature)`` over the candidates instead of the searcher's one card
    (cards whose estimates are within the searcher's noise of the best share the target). ``anchor``: no target
    card at all — the policy's expected value ``sum_a pi(a) values(a)`` (in units of 5 points, candidates only)
    plus ``anchor`` × ``KL(prior || pi)``, ``b["prior"]`` the starting policy's logits: a policy-improvement step
    that leaves decisions whose candidates are valued alike where the prior had them (the ``ce`` column then
    holds the KL)."""
    import torch

    logits, q, v = net(b["x"])
    logits = logits.masked_fill(~b["legal"], -1e9)
    has = b["has"]
    w = b["w"]
    w_has = has * w[:, None]
    expected = None
    if anchor is not None:
        log_pi = torch.log_softmax(logits, dim=1)
        log_prior = torch.log_softmax(b["prior"].masked_fill(~b["legal"], -1e9), dim=1)
        ce_rows = (log_prior.exp() * (log_prior - log_pi)).masked_fill(~b["legal"], 0.0).sum(dim=1)
        expected_rows = (log_pi.exp() * b["values"] / SCALE).masked_fill(~has, 0.0).sum(dim=1)
        expected = (expected_rows * w).sum() / w.sum().clamp(min=1e-9)
    elif temperature > 0:
        target = torch.nn.functional.one_hot(b["action"], logits.shape[1]).float()
        soft = torch.softmax((-b["values"] / temperature).masked_fill(~has, -1e9), dim=1)
        target = torch.where(has.any(dim=1, keepdim=True), soft, target)
        ce_rows = -(target * torch.log_softmax(logits, dim=1)).sum(dim=1)
    else:
        ce_rows = torch.nn.functional.cross_entropy(logits, b["action"], reduction="none")
    total_w = w.sum().clamp(min=1e-9)
    ce = (ce_rows * w).sum() / total_w
    q_err = (((q - b["values"]) / SCALE).pow(2) * w_has).sum() / w_has.sum().clamp(min=1e-9)
    v_err = (((v - b["points"]) / SCALE).pow(2) * w).sum() / total_w
    policy = ce if expected is None else expected + (anchor or 0.0) * ce
    parts = {"ce": ce.item(), "q_mse": q_err.item(), "v_mse": v_err.item()}
    if expected is not None:
        parts["expected"] = expected.item() * SCALE
    return policy + q_weight * q_err + v_weight * v_err, parts


def evaluate(net: Any, data: dict[str, np.ndarray], rows: np.ndarray, rules: Any, size: int = 8192) -> dict[str, float]:
    """Held-out figures: the searcher's card agreed by the policy (play, pass) and by the q head's argmin,
    the q head's mean absolute error on candidates (points), v's (points), and ``value_play``: the mean of the
    per-card values of the policy's own card (its argmax) over the playing decisions that have them — the points
    the policy would take there by the searcher's (or the outcomes') reckoning."""
    import torch

    agree = {"play": [0, 0], "pass": [0, 0], "q_play": [0, 0]}
    q_abs, q_n, v_abs = 0.0, 0, 0.0
    own_value, own_n = 0.0, 0
    with torch.no_grad():
        for start in range(0, len(rows), size):
            r = rows[start:start + size]
            b = batch_tensors(data, r, rules)
            logits, q, v = net(b["x"])
            pick = logits.masked_fill(~b["legal"], -1e9).argmax(1)
            qpick = q.masked_fill(~b["legal"], 1e9).argmin(1)
            ok = (pick == b["action"]).numpy()
            play = data["phase"][r] == int(Phase.PLAY)
            for key, sel in (("play", play), ("pass", ~play)):
                agree[key][0] += int(ok[sel].sum())
                agree[key][1] += int(sel.sum())
            agree["q_play"][0] += int((qpick == b["action"]).numpy()[play].sum())
            agree["q_play"][1] += int(play.sum())
            has = b["has"]
            q_abs += float((q - b["values"]).abs().masked_fill(~has, 0.0).sum())
            q_n += int(has.sum())
            v_abs += float((v - b["points"]).abs().sum())
            valued = has.any(dim=1).numpy() & play
            own = b["values"].gather(1, pick[:, None])[:, 0].numpy()
            own_value += float(own[valued].sum())
            own_n += int(valued.sum())
    out = {f"agree_{k}": a / max(n, 1) for k, (a, n) in agree.items()}
    out["q_mae"] = q_abs / max(q_n, 1)
    out["v_mae"] = v_abs / max(len(rows), 1)
    if own_n:
        out["value_play"] = own_value / own_n
    return out


def train(data_dir: str, out: str, seed: int = 0, epochs: int = 10, batch: int = 1024, lr: float = 1e-3,
          hidden: tuple[int, ...] = (512, 512), q_weight: float = 1.0, v_weight: float = 0.5,
          temperature: float = 0.0, eval_deals: int = 2000, units: int | None = None, threads: int = 1,
          resume: bool = False, log: bool = True, init: str | None = None, moon_weight: float = 1.0,
          other_weight: float = 1.0, anchor: float | None = None) -> dict[str, Any]:
    """Fit, write ``OUT/apprentice.npz`` and ``OUT/summary.json``; returns the summary. ``init``: the weights to start
    from (their layer sizes replace ``hidden``)."""
    import torch

    torch.set_num_threads(threads)
    folder = Path(out)
    state = begin(folder, resume)
    data, manifests = load_data(data_dir, units)
    manifest = manifests[0]
    rules = make_rules(manifest["rules"])
    for name, value in (("moon_weight", moon_weight), ("other_weight", other_weight)):
        if not value >= 0:
            raise ValueError(f"{name} must be >= 0, got {value!r}")
    check_anchor(anchor, init)
    if moon_weight == other_weight == 0:
        raise ValueError("moon_weight and other_weight are both 0: no decision would be learned from")
    train_rows, held_rows = split(data)
    if other_weight == 0:  # only the moon positions weigh: draw minibatches from them alone
        train_rows = train_rows[moon_on(data["obs"][train_rows], data["phase"][train_rows], rules)]
    torch.manual_seed(seed)
    start = NumpyNet.load(init) if init is not None else None
    if start is not None:
        hidden = tuple(int(w.shape[1]) for w, _ in start.hidden)
        if start.hidden[0][0].shape[0] != data["obs"].shape[1]:
            raise ValueError(f"{init} reads {start.hidden[0][0].shape[0]} observation slots; the data in {data_dir} "
                             f"has {data['obs'].shape[1]}")
    net = torch_net(data["obs"].shape[1], hidden, data["legal"].shape[1])
    prior = None
    if start is not None:
        load_into(net, start)
        if anchor is not None:
            prior = copy.deepcopy(net).eval()  # the starting policy, frozen
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    steps_per_epoch = len(train_rows) // batch
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=max(1, epochs * steps_per_epoch))
    first = 0
    if state is not None:
        net.load_state_dict(state["net"])
        opt.load_state_dict(state["opt"])
        sched.load_state_dict(state["sched"])
        first = state["epoch"]
    started = time.perf_counter()
    for epoch in range(first, epochs):
        order = np.random.default_rng([seed, epoch]).permutation(train_rows)
        net.train()
        sums: dict[str, float] = {}
        for i in range(steps_per_epoch):
            b = batch_tensors(data, order[i * batch:(i + 1) * batch], rules, (moon_weight, other_weight))
            if prior is not None:
                with torch.no_grad():
                    b["prior"] = prior(b["x"])[0]
            loss, parts = losses(net, b, q_weight, v_weight, temperature, anchor)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            for k, v in parts.items():
                sums[k] = sums.get(k, 0.0) + v
        net.eval()
        row = {"epoch": epoch + 1, **{k: v / max(steps_per_epoch, 1) for k, v in sums.items()},
               **evaluate(net, data, held_rows, rules), "seconds": round(time.perf_counter() - started, 1)}
        if eval_deals:
            row["eval_margin_vs_heuristic"], row["eval_se"] = greedy_margin(to_numpy(net, {}), eval_deals, seed + 1)
        log_metrics(folder, row, log)
        checkpoint(folder, {"net": net.state_dict(), "opt": opt.state_dict(), "sched": sched.state_dict(),
                            "epoch": epoch + 1})
    meta = {"rules": manifest["rules"], "observation": "rich", "deck_size": int(data["legal"].shape[1]),
            "hidden": list(hidden), "stage": "warm start", "data": str(data_dir),
            "data_manifest": manifest if len(manifests) == 1 else manifests,
            "rows": len(data["action"]), "deals": len(np.unique(data["deal"])), "seed": seed,
            "epochs": epochs, "batch": batch, "lr": lr, "q_weight": q_weight, "v_weight": v_weight,
            "temperature": temperature, **({"init": str(init)} if init is not None else {}),
            **({"anchor": anchor} if anchor is not None else {}),
            **({"moon_weight": moon_weight, "other_weight": other_weight}
               if (moon_weight, other_weight) != (1.0, 1.0) else {})}
    return finish(folder, to_numpy(net, meta))


def main(argv: list[str] | None = None) -> None:
    args = parse(Args, argv, __doc__.split("\n\n")[0])
    hidden = tuple(int(h) for h in args.hidden.split(","))
    train(args.data, args.out, args.seed, args.epochs, args.batch, args.lr, hidden, args.q_weight, args.v_weight,
          args.temperature, args.eval_deals, args.units, args.threads, args.resume, init=args.init,
          moon_weight=args.moon_weight, other_weight=args.other_weight, anchor=args.anchor)


if __name__ == "__main__":
    main()
