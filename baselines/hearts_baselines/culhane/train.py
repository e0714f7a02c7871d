"""Train Culhane's deep Q-network: ``python -m hearts_baselines.culhane.train``.

The paper's recipe (§3), on ``standard(passing=none, game=deal)``:

1. **Pretraining** on deals of the baseline player: ``--pretrain-deals`` deals of ``greedy`` at every
   seat (paper: 5,000), all four seats' transitions (:mod:`.transitions`); ``--cycles`` cycles
   (paper: 13) of recomputing every target ``y = r + max Q(s', a')`` with the current network, then
   ``--epochs`` passes (paper: 20) over the data in minibatches of 800.
2. **Self-play**: four seats ε-greedy (``--epsilon`` 0.1) on the one network; the transitions go
   to a FIFO replay of ``--replay`` (paper: 5,200 = 100 deals); after every trick a minibatch of
   800 is drawn (with replacement while the replay is not full), its targets recomputed, and one
   gradient step taken (the paper found one epoch best). Stop after ``--selfplay-deals`` (paper:
   5,000) or when the minibatch loss changed by less than 0.1 for 5 tricks in a row (the paper's
   rule; it stopped after 200–500 deals).

Optimiser: Adam (lr 1e-3, β 0.9/0.999), L2 1e-4 (``weight_decay``) and gradient norm clipping at 1.0 (the
paper names both without values), MSE loss; Adam's ε is the paper's 0.1 in self-play and 1e-8 in pretraining
(``--adam-eps``; see :data:`CPU_ADAM_EPS`). The paper's run is ``--hidden paper --epochs 20 --selfplay-deals
5000 --adam-eps 0.1`` (nine hidden layers, 5.7 M weights: a GPU's job); the defaults —
:data:`~.network.CPU_HIDDEN`, 4 epochs per cycle, at most 500 self-play deals (the paper's runs stopped after
200–500), Adam ε 1e-8 in pretraining — are the scaled-down run that fits 60 minutes on two CPU cores
(docs/culhane.md).

Every ``--check-every`` self-play deals (and once before them) a line goes to ``<out>/curve.jsonl``
(the window's mean loss, and the greedy network's win rate per deal against three ``greedy`` — the
paper's measure — on ``--check-deals`` fixed deals in the four rotations) and a checkpoint is saved
(network, optimiser, replay, random states): ``--resume`` continues a killed run to the same weights.
The run's result is the network of the best check, the pretrained one included (**ours**: the paper
keeps the last; in our runs self-play drifted below the pretrained network, docs/culhane.md).
``--bundle`` copies the result to the package's ``weights/culhane.pt``.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from hearts_baselines.culhane import network
from hearts_baselines.culhane.transitions import (
    RULES,
    Recorder,
    Transitions,
    check_rules,
    greedy_deals,
    targets,
)
from hearts_baselines.run_args import arg, parse
from hearts_env import Deal, Phase, SeatView
from hearts_env.agents import make_agent
from hearts_env.encoders import make_encoder
from hearts_env.encoders.culhane217 import state_action_rows

BUNDLED = Path(__file__).resolve().parent.parent / "weights" / "culhane.pt"
BATCH = 800
LR, ADAM_EPS, L2, CLIP = 1e-3, 0.1, 1e-4, 1.0
CPU_ADAM_EPS = 1e-8
"""Adam's ε of the scaled-down pretraining (PyTorch's default): the paper's 0.1 damps the steps too much
for a run with a fifth of its updates (docs/culhane.md)."""
TOLERANCE, PATIENCE = 0.1, 5


@dataclass
class Args:
    hidden: str = arg("cpu", "'cpu' (default), 'paper' or sizes like 512,256")
    pretrain_deals: int = arg(5000, "greedy deals to pretrain on (paper 5000)")
    cycles: int = arg(13, "pretraining cycles (paper 13)")
    epochs: int = arg(4, "epochs per pretraining cycle (paper 20)")
    selfplay_deals: int = arg(500, "self-play deals at most (paper 5000)")
    replay: int = arg(5200, "replay capacity (paper 5200)")
    epsilon: float = arg(0.1, "self-play exploration")
    adam_eps: float = arg(CPU_ADAM_EPS, "Adam's ε in pretraining (default 1e-8; paper 0.1)")
    selfplay_adam_eps: float = arg(ADAM_EPS, "Adam's ε in self-play (paper 0.1)")
    seed: int = 0
    out: Path = Path("runs/culhane")
    check_every: int = 50
    check_deals: int = 100
    resume: bool = False
    bundle: bool = arg(False, "also write the package's weights/culhane.pt")


def optimizer(net: Any, eps: float = ADAM_EPS) -> Any:
    """Adam as the paper (lr 1e-3, ε 0.1 unless ``eps``), with L2 as weight decay."""
    import torch

    return torch.optim.Adam(net.parameters(), lr=LR, eps=eps, weight_decay=L2)


def gradient_step(net: Any, opt: Any, rows: np.ndarray, y: np.ndarray) -> float:
    """One Adam step on the MSE of Q(rows) against ``y``; returns the loss before the step."""
    import torch

    x = torch.as_tensor(rows, dtype=torch.float32)
    target = torch.as_tensor(y, dtype=torch.float32)
    loss = torch.nn.functional.mse_loss(net(x)[:, 0], target)
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(net.parameters(), CLIP)
    opt.step()
    return loss.item()


def pretrain(net: Any, opt: Any, data: Transitions, cycles: int, epochs: int, rng: np.random.Generator,
             log: Any = None) -> list[float]:
    """The paper's pretraining (see the module docstring); returns the mean loss of each cycle's last epoch."""
    losses = []
    start = time.perf_counter()
    for cycle in range(cycles):
        y = targets(lambda rows: network.q_values(net, rows), data)
        for _ in range(epochs):
            order = rng.permutation(len(data))
            epoch = [gradient_step(net, opt, data.rows[order[i:i + BATCH]], y[order[i:i + BATCH]])
                     for i in range(0, len(data), BATCH)]
        losses.append(float(np.mean(epoch)))
        if log:
            log({"phase": "pretrain", "cycle": cycle + 1, "loss": round(losses[-1], 4),
                 "seconds": round(time.perf_counter() - start, 1)})
    return losses


class Replay:
    """FIFO replay of at most ``capacity`` transitions."""

    def __init__(self, capacity: int):
        self.capacity = capacity
        self.data = Transitions.empty()

    def add(self, items: list[tuple]) -> None:
        if items:
            self.data = Transitions.concat([self.data, Transitions.of(items)])
            if len(self.data) > self.capacity:
                self.data = self.data.take(np.arange(len(self.data) - self.capacity, len(self.data)))

    def sample(self, size: int, rng: np.random.Generator) -> Transitions:
        full = len(self.data) >= self.capacity
        return self.data.take(rng.choice(len(self.data), size, replace=not full or size > len(self.data)))


def choose(net: Any, obs: np.ndarray, legal: int, epsilon: float, rng: np.random.Generator) -> int:
    """ε-greedy over Q(s, ·) of the legal cards (the lowest card on ties)."""
    cards = [c for c in range(52) if legal >> c & 1]
    if epsilon and rng.random() < epsilon:
        return cards[int(rng.integers(len(cards)))]
    return cards[int(np.argmax(network.q_values(net, state_action_rows(obs, legal))))]


def win_rate(net: Any, opponents: str, deals: int, seed: int) -> float:
    """The paper's measure: the share of deals in which the greedy network has the fewest points
    (ties share), one network seat against three ``opponents``, every deal in the four rotations."""
    from hearts_env.rules import make_rules

    rules = make_rules(RULES)
    encoder = make_encoder("culhane217", rules, "uint8")
    rng = np.random.default_rng(seed)
    players = [make_agent(opponents) for _ in range(4)]
    wins = 0.0
    for d in range(deals):
        dealt = Deal.random(rules, np.random.default_rng([seed, d]))
        for me in range(4):
            deal = dealt.clone()
            for seat, p in enumerate(players):
                p.reset(rules, seat, int(rng.integers(2**63)))
            while not deal.is_over:
                seat = deal.current
                view = SeatView.of(deal, seat)
                if seat == me and view.phase == Phase.PLAY:
                    deal.apply(choose(net, encoder.encode(view), view.legal, 0.0, rng))
                else:
                    deal.apply(players[seat].act(view))
            points = np.asarray(deal.points)
            best = points == points.min()
            wins += best[me] / best.sum()
    return float(wins) / (4 * deals)


def self_play(net: Any, opt: Any, out: Path, deals: int, capacity: int, epsilon: float, seed: int,
              check_every: int, check_deals: int, resume: bool, log: Any = None) -> dict[str, Any]:
    """The paper's self-play phase (see the module docstring), checkpointed every ``check_every`` deals."""
    import torch

    rules = check_rules(RULES)
    encoder = make_encoder("culhane217", rules, "uint8")
    rng = np.random.default_rng([seed, 2])
    replay = Replay(capacity)
    state_path, curve_path, best_path = out / "selfplay.pt", out / "curve.jsonl", out / "best.pt"
    done, calm, last_loss, window = 0, 0, None, []
    stopped = "deals"
    best = -1.0
    if resume and state_path.exists():
        state = torch.load(state_path, map_location="cpu", weights_only=False)  # our own checkpoint
        net.load_state_dict(state["net"])
        opt.load_state_dict(state["opt"])
        replay.data = Transitions(*state["replay"])
        rng.bit_generator.state = state["rng"]
        done, calm, last_loss, best = state["deals"], state["calm"], state["last_loss"], state["best"]
        if state.get("stopped"):
            return {"deals": done, "stopped": state["stopped"], "best_check": best}
    else:
        if curve_path.exists():
            curve_path.unlink()
        best = _check(net, 0, [], check_deals, seed, curve_path, best_path, best, 0.0, log)  # the pretrained network
    start = time.perf_counter()
    while done < deals:
        deal = Deal.random(rules, rng)
        recorder = Recorder(deal)
        tricks = 0
        while not deal.is_over:
            seat = deal.current
            view = SeatView.of(deal, seat)
            obs = encoder.encode(view)
            card = choose(net, obs, view.legal, epsilon, rng)
            replay.add(recorder.decide(seat, obs, view.legal, card))
            deal.apply(card)
            if deal.is_over:
                replay.add(recorder.finish())
            if len(deal.trick_winners) > tricks and len(replay.data):  # a trick ended: one step on a fresh minibatch
                tricks = len(deal.trick_winners)
                batch = replay.sample(BATCH, rng)
                y = targets(lambda rows: network.q_values(net, rows), batch)
                loss = gradient_step(net, opt, batch.rows, y)
                window.append(loss)
                calm = calm + 1 if last_loss is not None and abs(loss - last_loss) < TOLERANCE else 0
                last_loss = loss
                if calm >= PATIENCE:
                    stopped = f"loss changed by < {TOLERANCE} for {PATIENCE} tricks"
                    break
        done += 1
        finished = calm >= PATIENCE
        if done % check_every == 0 or done >= deals or finished:
            best = _check(net, done, window, check_deals, seed, curve_path, best_path, best,
                          time.perf_counter() - start, log)
            window = []
            torch.save({"net": net.state_dict(), "opt": opt.state_dict(), "rng": rng.bit_generator.state,
                        "replay": (replay.data.rows, replay.data.rewards, replay.data.next_states,
                                   replay.data.next_legal),
                        "deals": done, "calm": calm, "last_loss": last_loss, "best": best,
                        "stopped": stopped if finished else None}, state_path)
        if finished:
            break
    return {"deals": done, "stopped": stopped, "best_check": best}


def _check(net: Any, deals: int, losses: list[float], check_deals: int, seed: int, curve_path: Path,
           best_path: Path, best: float, seconds: float, log: Any) -> float:
    """One line of the curve; the network goes to ``best_path`` if its check beats every earlier one."""
    import torch

    rate = float(win_rate(net, "greedy", check_deals, seed=10_000 + seed))
    row = {"phase": "selfplay", "deals": deals, "loss": round(float(np.mean(losses)), 4) if losses else None,
           "win_rate_vs_greedy": round(rate, 4), "seconds": round(seconds, 1)}
    with curve_path.open("a") as f:
        f.write(json.dumps(row) + "\n")
    if log:
        log(row)
    if rate > best:
        torch.save({"net": net.state_dict(), "deals": deals, "win_rate_vs_greedy": rate}, best_path)
        return rate
    return best


def main(argv: list[str] | None = None) -> None:
    import torch

    args = parse(Args, argv, __doc__)
    hidden = {"cpu": network.CPU_HIDDEN, "paper": network.PAPER_HIDDEN}.get(args.hidden) or \
        tuple(int(h) for h in args.hidden.split(","))
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)

    def log(row: dict[str, Any]) -> None:
        print(json.dumps(row), file=sys.stderr, flush=True)

    given = [a for a in (sys.argv[1:] if argv is None else argv) if a != "--resume"]  # a resumed run is the same run
    command = " ".join(["python -m hearts_baselines.culhane.train", *given])
    meta: dict[str, Any] = {"command": command, "seed": args.seed, "rules": RULES,
                            **{k: getattr(args, k) for k in ("pretrain_deals", "cycles", "epochs", "selfplay_deals",
                                                              "replay", "epsilon", "adam_eps",
                                                              "selfplay_adam_eps")}}
    net = network.build(hidden)
    opt = optimizer(net, args.adam_eps)
    pretrained = args.out / "pretrained.pt"
    start = time.perf_counter()
    if args.resume and pretrained.exists():
        net, _, _ = network.load(pretrained)
        net.train()
    else:
        data = greedy_deals(args.pretrain_deals, args.seed)
        log({"phase": "data", "transitions": len(data), "seconds": round(time.perf_counter() - start, 1)})
        pretrain(net, opt, data, args.cycles, args.epochs, np.random.default_rng([args.seed, 1]), log)
        network.save(pretrained, net, hidden, {**meta, "phase": "pretrained"})
    opt = optimizer(net, args.selfplay_adam_eps)  # the paper resets the replay after pretraining; a fresh optimiser too
    result = self_play(net, opt, args.out, args.selfplay_deals, args.replay, args.epsilon, args.seed,
                       args.check_every, args.check_deals, args.resume, log)
    chosen = torch.load(args.out / "best.pt", map_location="cpu", weights_only=True)
    net.load_state_dict(chosen["net"])
    meta.update(result, chosen_deals=chosen["deals"], chosen_win_rate_vs_greedy=chosen["win_rate_vs_greedy"],
                seconds=round(time.perf_counter() - start, 1))
    network.save(args.out / "culhane.pt", net, hidden, meta)
    log({"phase": "done", **result})
    if args.bundle:
        network.save(BUNDLED, net, hidden, meta)
        log({"bundled": str(BUNDLED)})


if __name__ == "__main__":
    main()
