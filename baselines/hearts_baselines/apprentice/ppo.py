"""Reinforcement learning from the warm start: masked PPO on the batched vector env (single file, CleanRL style).

    python -m hearts_baselines.apprentice.ppo --init runs/apprentice/warm/apprentice.npz --out runs/apprentice/ppo

The learner sits in a random seat of every row (``HeartsVectorEnv(seat="random")``, one deal per
episode, every pass direction). Reward: ``zero_sum`` (the mean of the deal's points minus the learner's,
¾ of the arena's margin, so a moon shot is worth what it is worth there), in units of 5 points. **Opponent
pool** — the rows (deals played at once) are split into three groups, each one env:

- ``--heuristic-rows`` against three ``heuristic`` (run by the engine's kernels, card for card), or three of the
  rule player ``--heuristic`` names (e.g. ``heuristic(chase=6)``: seats that go for the moon once they alone
  hold 6 points — the races self-play never shows);
- ``--self-rows`` against three copies of the *current* policy (its weights at the start of each
  rollout; opponents sample from it);
- ``--pool-rows`` against a *frozen snapshot*: every ``--snapshot-every`` iterations the current
  weights join a pool (the warm start is its first member; the oldest leaves beyond ``--pool-size``),
  and each rollout draws one member uniformly for the whole group.

PPO: ``--rollout`` steps per row, GAE (γ = 1, λ = 0.95), ``--epochs`` passes of minibatches of
``--minibatch`` rows, clipped ratio 0.1, value loss ½·MSE, masked entropy bonus. The critic is the
network's ``v`` head (points the seat will take: value = (6.5 − v)/5, exact for deals without a moon),
so the warm start's critic is used from the first update. The ``q`` head is not trained here (it keeps
the warm start's weights and is stale against the new trunk: play PPO weights with ``head='policy'``).

Reproducible: every random draw of iteration *i* comes from generators seeded ``[seed, i, …]`` and at
every checkpoint (``--checkpoint-every`` iterations) the envs restart from deals seeded
``[seed, i]``, so a run resumed with ``--resume`` from ``OUT/checkpoint.pt`` is the run that was not
interrupted (same thread count). ``metrics.jsonl`` gets one line per iteration; every ``--eval-every``
iterations the greedy policy plays ``--eval-deals`` seeded deals against three ``heuristic`` (one
learner seat per deal, the seat and pass direction drawn) and the margin — heuristic's points per
seat minus the learner's — is logged. The end writes ``OUT/apprentice.npz``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from hearts_baselines.apprentice.agent import RULES, greedy_margin
from hearts_baselines.apprentice.net import SCALE, NumpyNet, as_torch, begin, checkpoint, finish, log_metrics, to_numpy
from hearts_baselines.run_args import arg, parse
from hearts_env.vector.env import HeartsVectorEnv


@dataclass
class Args:
    init: str = arg(help="warm-start weights (apprentice.npz)")
    out: str = arg()
    seed: int = 0
    iterations: int = 300
    heuristic_rows: int = arg(128, "rows (deals at once) against three heuristic")
    heuristic: str = arg("heuristic", "the rule player of those rows (a vector opponent, e.g. heuristic(chase=6))")
    self_rows: int = arg(64, "rows against three copies of the current policy")
    pool_rows: int = arg(64, "rows against a snapshot from the pool")
    rollout: int = arg(32, "steps per row per iteration")
    epochs: int = 4
    minibatch: int = 2048
    lr: float = 1e-4
    clip: float = 0.1
    ent_coef: float = 0.003
    snapshot_every: int = 20
    pool_size: int = 5
    checkpoint_every: int = 10
    eval_every: int = 20
    eval_deals: int = 2000
    threads: int = 1
    resume: bool = False


def sample(weights: np.ndarray, masks: np.ndarray, u: np.ndarray) -> np.ndarray:
    """(B,) one card per row drawn with probability proportional to ``weights`` (zero on illegal cards) by
    the uniforms ``u``; a row whose draw lands on an illegal card (rounding) takes its heaviest legal card."""
    cum = np.cumsum(weights, axis=1)
    cards = np.minimum((cum < u[:, None] * cum[:, -1:]).sum(axis=1), masks.shape[1] - 1)
    rows = np.arange(len(cards))
    return np.where(masks[rows, cards], cards, np.argmax(np.where(masks, weights, -np.inf), axis=1))


class Opponent:
    """Opponents sampling from a network's masked policy, ``(obs, masks) -> actions``; the network and
    the generator are set before each rollout (the env keeps this one callable)."""

    def set(self, net: NumpyNet, rng: np.random.Generator) -> None:
        self.net, self.rng = net, rng

    def __call__(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        logits = np.where(masks, self.net.policy_logits(obs), -np.inf)
        return sample(np.exp(logits - logits.max(axis=1, keepdims=True)), masks, self.rng.random(len(obs)))


def update(net: Any, opt: Any, flat: dict[str, np.ndarray], epochs: int, minibatch: int, clip: float, vf_coef: float,
           ent_coef: float, offset: float, order_rng: np.random.Generator,
           target_kl: float | None = None) -> dict[str, float]:
    """PPO's update of ``net`` from one rollout: ``epochs`` passes of shuffled minibatches of ``minibatch`` rows
    (a remainder smaller than one is left out) of ``flat`` (``obs``, ``mask``, ``act``, ``logp``, ``adv``,
    ``ret``), clipped ratio, value loss on the ``v`` head read as (``offset`` − v)/SCALE, masked entropy bonus;
    with ``target_kl``, no further pass once a pass's mean approximate KL exceeds it (many passes over costly
    data, kept near the policy that played it). Returns the mean of each loss term, the approximate KL, the
    clipped fraction and the passes made."""
    import torch

    stats: dict[str, list[float]] = {"pg": [], "vf": [], "ent": [], "kl": [], "clipfrac": []}
    rows = len(flat["act"])
    passes, per_pass = 0, rows // minibatch
    for _ in range(epochs):
        if target_kl is not None and passes and per_pass and np.mean(stats["kl"][-per_pass:]) > target_kl:
            break
        passes += 1
        order = order_rng.permutation(rows)
        for s in range(0, rows - minibatch + 1, minibatch):
            idx = order[s:s + minibatch]
            b = {k: torch.from_numpy(v[idx]) for k, v in flat.items()}
            logits, _, v = net(b["obs"])
            logits = logits.masked_fill(~b["mask"], -1e9)
            logp_t = torch.log_softmax(logits, dim=1)
            logp = logp_t.gather(1, b["act"][:, None]).squeeze(1)
            ratio = (logp - b["logp"]).exp()
            a = b["adv"]
            a = (a - a.mean()) / (a.std() + 1e-8)
            pg = torch.max(-a * ratio, -a * ratio.clamp(1 - clip, 1 + clip)).mean()
            vf = 0.5 * (((offset - v) / SCALE) - b["ret"]).pow(2).mean()
            ent = -(logp_t.exp() * logp_t.masked_fill(~b["mask"], 0.0)).sum(1).mean()
            loss = pg + vf_coef * vf - ent_coef * ent
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 0.5)
            opt.step()
            with torch.no_grad():
                stats["pg"].append(pg.item())
                stats["vf"].append(vf.item())
                stats["ent"].append(ent.item())
                stats["kl"].append(((ratio - 1) - (logp - b["logp"])).mean().item())
                stats["clipfrac"].append(((ratio - 1).abs() > clip).float().mean().item())
    return {**{k: float(np.mean(v)) if v else float("nan") for k, v in stats.items()}, "epochs": passes}


def train(init: str, out: str, seed: int = 0, iterations: int = 300, heuristic_rows: int = 128,
          self_rows: int = 64, pool_rows: int = 64, rollout: int = 32, epochs: int = 4, minibatch: int = 2048,
          lr: float = 1e-4, clip: float = 0.1, ent_coef: float = 0.003, vf_coef: float = 0.5, lam: float = 0.95,
          snapshot_every: int = 20, pool_size: int = 5, checkpoint_every: int = 10, eval_every: int = 20,
          eval_deals: int = 2000, threads: int = 1, resume: bool = False, log: bool = True,
          heuristic: str = "heuristic") -> dict[str, Any]:
    import torch

    torch.set_num_threads(threads)
    folder = Path(out)
    state = begin(folder, resume)
    start_net = NumpyNet.load(init)
    net = as_torch(start_net)
    opt = torch.optim.Adam(net.parameters(), lr=lr, eps=1e-5)
    pool: list[NumpyNet] = [start_net]
    first = 0
    if state is not None:
        net.load_state_dict(state["net"])
        opt.load_state_dict(state["opt"])
        pool = [NumpyNet(p, start_net.meta) for p in state["pool"]]
        first = state["iteration"]
    groups: list[tuple[str, HeartsVectorEnv, Opponent | None]] = []
    for name, count in (("heuristic", heuristic_rows), ("self", self_rows), ("pool", pool_rows)):
        if count:
            opponent = None if name == "heuristic" else Opponent()
            env = HeartsVectorEnv(num_envs=count, rules=RULES, opponents=opponent or heuristic, seat="random",
                                  reward="zero_sum")
            groups.append((name, env, opponent))
    n = sum(env.num_envs for _, env, _ in groups)
    group_of = np.repeat([name for name, _, _ in groups], [env.num_envs for _, env, _ in groups])
    offset = groups[0][1].rules.penalty_total / 4  # the mean of a deal's points when no one shoots the moon
    size = start_net.hidden[0][0].shape[0]
    actions_n = start_net.heads["p"][0].shape[1]
    shape: dict[str, Any] = {k: start_net.meta[k] for k in ("rules", "observation", "deck_size", "hidden")
                             if k in start_net.meta}
    warm = {k: v for k, v in start_net.meta.items() if k not in ("format", "warm_start")}
    meta: dict[str, Any] = {**shape, "stage": "ppo", "warm_start": start_net.meta.get("warm_start", warm),
                            "init": str(init), "seed": seed, "iterations": iterations,
            "rows": {name: env.num_envs for name, env, _ in groups}, "rollout": rollout, "epochs": epochs,
            **({"heuristic": heuristic} if heuristic != "heuristic" else {}),
            "minibatch": minibatch, "lr": lr, "clip": clip, "ent_coef": ent_coef, "vf_coef": vf_coef, "lambda": lam,
            "snapshot_every": snapshot_every, "pool_size": pool_size}

    def restart(it: int) -> tuple[np.ndarray, np.ndarray]:
        parts = [env.reset(seed=int(np.random.default_rng([seed, it, g]).integers(2**31)))
                 for g, (_, env, _) in enumerate(groups)]
        return np.concatenate([o for o, _ in parts]), np.concatenate([i["action_mask"] for _, i in parts])

    def step(actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        outs, at = [], 0
        for _, env, _ in groups:
            outs.append(env.step(actions[at:at + env.num_envs]))
            at += env.num_envs
        return (np.concatenate([o[0] for o in outs]), np.concatenate([o[1] for o in outs]),
                np.concatenate([o[2] for o in outs]), np.concatenate([o[4]["action_mask"] for o in outs]))

    started = time.perf_counter()
    steps_done = first * rollout * n
    for it in range(first, iterations):
        rng = np.random.default_rng([seed, it, 100])
        current = to_numpy(net, meta)
        for name, _, opponent in groups:
            if opponent is not None:
                member = current if name == "self" else pool[int(rng.integers(len(pool)))]
                opponent.set(member, np.random.default_rng([seed, it, 200 + len(name)]))
        if it == first or it % checkpoint_every == 0:  # fresh deals, after the opponents of this iteration are set
            obs, masks = restart(it)
        buf_obs = np.zeros((rollout, n, size), np.float32)
        buf_mask = np.zeros((rollout, n, actions_n), bool)
        buf_act = np.zeros((rollout, n), np.int64)
        buf_logp = np.zeros((rollout, n), np.float32)
        buf_val = np.zeros((rollout + 1, n), np.float32)
        buf_rew = np.zeros((rollout, n), np.float32)
        buf_done = np.zeros((rollout, n), bool)
        finished: dict[str, list[float]] = {name: [] for name, _, _ in groups}
        for t in range(rollout):
            with torch.no_grad():
                logits, _, v = net(torch.from_numpy(obs))
                logits = logits.masked_fill(~torch.from_numpy(masks), -1e9)
                logp_all = torch.log_softmax(logits, dim=1).numpy()
            act = sample(np.exp(logp_all), masks, rng.random(n))
            buf_obs[t], buf_mask[t], buf_act[t] = obs, masks, act
            buf_logp[t] = logp_all[np.arange(n), act]
            buf_val[t] = (offset - v.numpy()) / SCALE
            obs, reward, done, masks = step(act)
            buf_rew[t] = reward / SCALE
            buf_done[t] = done
            for name in finished:  # zero_sum -> the arena's margin (opponents' mean points - the learner's)
                finished[name].extend((reward[done & (group_of == name)] * 4 / 3).tolist())
        with torch.no_grad():
            buf_val[rollout] = (offset - net(torch.from_numpy(obs))[2].numpy()) / SCALE
        adv = np.zeros((rollout, n), np.float32)
        last = np.zeros(n, np.float32)
        for t in reversed(range(rollout)):
            live = 1.0 - buf_done[t]
            delta = buf_rew[t] + buf_val[t + 1] * live - buf_val[t]
            last = delta + lam * live * last
            adv[t] = last
        ret = adv + buf_val[:rollout]
        flat = {"obs": buf_obs.reshape(-1, size), "mask": buf_mask.reshape(-1, actions_n), "act": buf_act.reshape(-1),
                "logp": buf_logp.reshape(-1), "adv": adv.reshape(-1), "ret": ret.reshape(-1)}
        stats = update(net, opt, flat, epochs, minibatch, clip, vf_coef, ent_coef, offset,
                       np.random.default_rng([seed, it, 300]))
        rows = len(flat["act"])
        steps_done += rows
        row: dict[str, Any] = {"iteration": it + 1, "steps": steps_done,
                               **stats,
                               **{f"margin_{k}": float(np.mean(v)) if v else None for k, v in finished.items()},
                               "seconds": round(time.perf_counter() - started, 1)}
        if snapshot_every and (it + 1) % snapshot_every == 0:
            pool.append(to_numpy(net, meta))
            pool = pool[-pool_size:]
        if eval_every and ((it + 1) % eval_every == 0 or it + 1 == iterations):
            row["eval_margin_vs_heuristic"], row["eval_se"] = greedy_margin(to_numpy(net, meta), eval_deals, seed + 1)
        log_metrics(folder, row, log)
        if (it + 1) % checkpoint_every == 0 or it + 1 == iterations:
            checkpoint(folder, {"net": net.state_dict(), "opt": opt.state_dict(), "iteration": it + 1,
                                "pool": [p.params() for p in pool]})
    return finish(folder, to_numpy(net, {**meta, "steps": steps_done}))


def main(argv: list[str] | None = None) -> None:
    args = parse(Args, argv, __doc__.split("\n\n")[0])
    train(args.init, args.out, args.seed, args.iterations, args.heuristic_rows, args.self_rows, args.pool_rows,
          args.rollout, args.epochs, args.minibatch, args.lr, args.clip, args.ent_coef, 0.5, 0.95, args.snapshot_every,
          args.pool_size, args.checkpoint_every, args.eval_every, args.eval_deals, args.threads, args.resume,
          heuristic=args.heuristic)


if __name__ == "__main__":
    main()
