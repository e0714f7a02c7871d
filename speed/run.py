"""hearts-env speed benchmarks, each printed beside a reference measured in the same run.

Run with ``make speed`` (or ``python speed/run.py [--seconds S] [--only NAME]``). These
machines are shared and noisy, so every figure is reported as a ratio to a reference
measured in the same process, alternating the two several times and keeping each one's best
round.

References: OpenSpiel's C++ hearts driven from a Python loop (``pyspiel``) and PettingZoo's
classic ``texas_holdem_v4`` through ``env()``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from hearts_env.engine import Deal
from hearts_env.rules import make_rules
from hearts_env.views import SeatView


def best_rate(fn: Callable[[], int | tuple[int, float]], seconds: float) -> float:
    """Units per second of ``fn`` (which returns how many units it did, or ``(units, seconds)`` when
    it times only part of its work itself), best of short rounds."""
    best = 0.0
    deadline = time.perf_counter() + seconds
    while True:
        t0 = time.perf_counter()
        units = fn()
        dt = time.perf_counter() - t0
        if isinstance(units, tuple):
            units, dt = units
        best = max(best, units / dt)
        if time.perf_counter() > deadline:
            return best


def compare(name: str, ours: Callable[[], int | tuple[int, float]], reference: Callable[[], int], unit: str,
            ref_name: str,
            seconds: float, rounds: int = 3) -> dict[str, float]:
    a = b = 0.0
    for _ in range(rounds):  # alternate so both see the same machine load
        a = max(a, best_rate(ours, seconds / rounds))
        b = max(b, best_rate(reference, seconds / rounds))
    print(f"{name:<44} {a:>12,.0f} {unit}   {ref_name:<30} {b:>10,.0f} {unit}   ratio {a / b:5.2f}x")
    return {"ours": a, "reference": b, "ratio": a / b}


# --- engine -------------------------------------------------------------------------------
def engine_step_api(deals: int = 200) -> Callable[[], int]:
    """Random legal play through the public step API: legal_mask() + apply()."""
    rules = make_rules("openspiel")
    rng = np.random.default_rng(0)
    bits = random.Random(0).getrandbits

    def run() -> int:
        for _ in range(deals):
            deal = Deal.random(rules, rng)
            while not deal.is_over:
                m = deal.legal_mask()
                k = bits(32) * m.bit_count() >> 32
                while k:
                    m &= m - 1
                    k -= 1
                deal.apply((m & -m).bit_length() - 1)
        return deals

    return run


def engine_playout(deals: int = 200) -> Callable[[], int]:
    """Random legal play with Deal.playout (the search agents' rollout path)."""
    rules = make_rules("openspiel")
    rng = np.random.default_rng(0)
    prng = random.Random(0)

    def run() -> int:
        for _ in range(deals):
            Deal.random(rules, rng).playout(prng)
        return deals

    return run


def openspiel_python_loop(deals: int = 100) -> Callable[[], int]:
    """OpenSpiel hearts (C++), random chance and random legal actions from a Python loop."""
    import pyspiel

    game = pyspiel.load_game("hearts")
    rnd = random.Random(0)

    def run() -> int:
        for _ in range(deals):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rnd.randrange(len(outcomes))][0])
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[rnd.randrange(len(legal))])
        return deals

    return run


# --- encoders ------------------------------------------------------------------------------
def encoder_costs(seconds: float) -> None:
    """Cost of each encoding per call, beside the cost of the engine step it follows (same run)."""
    from hearts_env.encoders import EncoderError, encoder_names, make_encoder
    from hearts_env.views import SeatView

    for preset in ("standard", "dutch"):
        rules = make_rules(preset)
        deals, views = [], []
        for seed in range(30):
            deal = Deal.random(rules, seed, pass_direction="left" if rules.has_passing else None)
            start = deal.clone()
            deal.playout(seed)
            deals.append((start, deal.history))
            replay = start.clone()
            for card in deal.history:
                views.append(SeatView.of(replay, replay.current))
                replay.apply(card)
        steps = sum(len(h) for _, h in deals)

        def step_run(deals=deals, steps=steps) -> int:
            for start, history in deals:
                d = start.clone()
                for card in history:
                    d.legal_mask()
                    d.apply(card)
            return steps

        def view_run(deals=deals, steps=steps) -> int:
            for start, history in deals:
                d = start.clone()
                for card in history:
                    SeatView.of(d, d.current)
                    d.apply(card)
            return steps

        step_us = 1e6 / best_rate(step_run, seconds / 4)
        view_us = 1e6 / best_rate(view_run, seconds / 4) - step_us
        print(f"[{preset}] engine step (legal_mask + apply): {step_us:.2f} us;  SeatView.of: {view_us:.2f} us")
        for name in encoder_names():
            for dtype in ("float32", "uint8"):
                try:
                    enc = make_encoder(name, rules, dtype)
                except EncoderError:
                    continue

                def enc_run(enc=enc, views=views) -> int:
                    for v in views:
                        enc.encode(v)
                    return len(views)

                us = 1e6 / best_rate(enc_run, seconds / 8)
                print(f"    encoder {name:<11} {dtype:<8} size {enc.size:>5}: {us:6.2f} us/encode"
                      f" = {us / step_us:5.2f}x the step")


# --- batched engine -------------------------------------------------------------------------
def vector_plays(size: int, backend: str) -> Callable[[], int]:
    """Card plays/s (passes included) of hearts_env.vector at batch size ``size``, random legal play
    (deal shuffling excluded: it is done once per deal, outside the step loop)."""
    from hearts_env.vector import VectorDeals

    rules = make_rules("openspiel")
    rng = np.random.default_rng(0)
    repeats = max(1, 4096 // size)
    VectorDeals.random(rules, 1, rng, backend=backend).random_step(rng)  # compile outside the timing

    def run() -> tuple[int, float]:
        batches = [VectorDeals.random(rules, size, rng, backend=backend) for _ in range(repeats)]
        t0 = time.perf_counter()
        steps = 0
        for tables in batches:
            while not tables.done.all():
                steps += int((tables.random_step(rng) >= 0).sum())
        return steps, time.perf_counter() - t0

    return run


def scalar_plays() -> Callable[[], int]:
    rules = make_rules("openspiel")
    rng = np.random.default_rng(0)
    prng = random.Random(0)

    def run() -> int:
        steps = 0
        for _ in range(200):
            deal = Deal.random(rules, rng)
            deal.playout(prng)
            steps += len(deal.history)
        return steps

    return run


def vector_env_steps(size: int, observation: str) -> Callable[[], int]:
    """Learner steps/s of gymnasium.make_vec("hearts_env/Hearts-v0") with random opponents, a
    random legal learner, observations built and autoreset included."""
    import gymnasium

    from hearts_env.vector import kth_cards

    envs = gymnasium.make_vec("hearts_env/Hearts-v0", num_envs=size, observation=observation, opponents="random")
    envs.reset(seed=0)
    rng = np.random.default_rng(0)

    def run() -> int:
        for _ in range(20):
            envs.step(kth_cards(envs.unwrapped.deals.legal_masks(), rng.random(size)))
        return 20 * size

    return run


def scalar_env_steps(observation: str) -> Callable[[], int]:
    """The same with gymnasium.make("hearts_env/Hearts-v0") (one table, random opponents)."""
    import gymnasium

    env = gymnasium.make("hearts_env/Hearts-v0", observation=observation, opponents="random")
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(0)

    def run() -> int:
        nonlocal info
        for _ in range(500):
            legal = np.flatnonzero(info["action_mask"])
            _, _, term, _, info = env.step(int(legal[rng.integers(len(legal))]))
            if term:
                _, info = env.reset()
        return 500

    return run


def _mid_deal() -> Deal:
    """One mid-deal position: passes done, two tricks played."""
    start = Deal.random(make_rules("standard(game=deal)"), 0)
    for _ in range(12 + 8):
        start.apply(start.legal_cards()[0])
    return start


def _mid_view() -> SeatView:
    """The view of the seat to play in :func:`_mid_deal`'s position."""
    deal = _mid_deal()
    return SeatView.of(deal, deal.current)


def playouts(kind: str, batch: int = 1024, policy: str = "random") -> Callable[[], int]:
    """Playouts/s from one mid-deal position, as search agents run them: ``"numba"``/``"numpy"`` =
    batched copies on the vector engine (the kernel and its NumPy reference; ``policy`` random,
    greedy or heuristic for every seat), ``"python"`` = random ``Deal.playout`` one at a time."""
    from hearts_env.vector import VectorDeals

    start = _mid_deal()
    rng = np.random.default_rng(0)
    if kind == "python":
        prng = random.Random(0)

        def run() -> int:
            for _ in range(200):
                start.clone().playout(prng)
            return 200

        return run
    VectorDeals.from_deals([start], backend=kind).random_step(rng)  # compile outside the timing

    def run_batch() -> int:
        tables = VectorDeals.from_deals([start] * batch, backend=kind)
        tables.advance(np.full(batch, -1, np.int8), policy, rng)
        return batch

    return run_batch


def world_sampling(batched: bool, count: int = 128) -> Callable[[], int]:
    """Worlds/s consistent with one seat's view of the mid-deal position: ``sample_worlds`` (all at
    once, exact uniform) or ``sample_world`` one at a time."""
    from hearts_env.worlds import sample_world, sample_worlds

    view = _mid_view()
    rng = np.random.default_rng(0)

    def run() -> int:
        if batched:
            sample_worlds(view, rng, count)
        else:
            for _ in range(count):
                sample_world(view, rng)
        return count

    return run


def world_batch(direct: bool, count: int = 300) -> Callable[[], int]:
    """Worlds/s made ready for rollouts on the batched engine (``pimc``'s 300 a move), from the view of
    the mid-deal position: ``sample_world_batch`` (a batch built from the sampled hands) or
    ``VectorDeals.from_deals(sample_worlds(...))`` (a ``Deal`` per world, then converted)."""
    from hearts_env.vector import VectorDeals
    from hearts_env.worlds import sample_world_batch, sample_worlds

    view = _mid_view()
    rng = np.random.default_rng(0)

    def run() -> int:
        if direct:
            sample_world_batch(view, rng, count)
        else:
            VectorDeals.from_deals(sample_worlds(view, rng, count))
        return count

    return run


def apprentice_rollouts(batched: bool, deals: int = 32) -> Callable[[], int]:
    """Rollouts/s of ``rollout_points(policy='apprentice')`` (``ismcts(rollout='apprentice')``'s and ``maxn``'s
    path), ``deals`` OpenSpiel deals from their 20th card to the end: the batched engine stepped by the agent's
    ``act_batch`` or, the reference, four Python apprentice agents a deal, card by card (the path before)."""
    from hearts_baselines.search_common import rollout_points

    rules = make_rules("openspiel")
    rng = np.random.default_rng(0)
    starts = []
    for _ in range(deals):
        deal = Deal.random(rules, rng, pass_direction=0)
        for _ in range(20):
            deal.apply(int(rng.choice(deal.legal_cards())))
        starts.append(deal)
    agents: dict = {} if batched else {-1: None}  # no batch player cached: the per-seat Python agents

    def run() -> int:
        rollout_points(starts, "apprentice", rng, agents)
        return deals

    return run


def apprentice_trunk(sparse: bool, rows: int = 256) -> Callable[[], int]:
    """Observations/s through the apprentice's trunk, a batch of ``rows`` positions of heuristic deals at every
    stage (a rollout step of ``pimc(policy='apprentice')``): the first layer over the nonzero inputs only
    (``NumpyNet.trunk`` with Numba) or NumPy's dense product for every layer (the reference)."""
    from hearts_baselines.apprentice.agent import ApprenticeAgent
    from hearts_env.agents import make_agent
    from hearts_env.encoders import make_encoder

    rules = make_rules("standard(game=deal)")
    net, encoder, player = ApprenticeAgent().net, make_encoder("rich", rules), make_agent("heuristic")
    rng = np.random.default_rng(0)
    observations = []
    while len(observations) < rows:
        deal = Deal.random(rules, rng)
        while not deal.is_over:
            view = SeatView.of(deal, deal.current)
            observations.append(encoder.encode(view))
            deal.apply(player.act(view))
    x = np.stack(observations[:rows]).astype(np.float32)

    def run() -> int:
        if sparse:
            net.trunk(x)
        else:
            h = x
            for w, b in net.hidden:
                h = np.maximum(h @ w + b, 0.0)
        return rows

    return run


def decisions(spec: str, rules: str = "openspiel(game=deal)", positions: int = 8) -> Callable[[], int]:
    """Decisions/s of an agent over mid-deal positions of random heuristic deals (the time per move
    that search agents are compared at)."""
    from hearts_env import SeatView
    from hearts_env.agents import make_agent

    rules_obj = make_rules(rules)
    views = []
    for seed in range(positions):
        deal = Deal.random(rules_obj, seed)
        player = make_agent("heuristic")
        while len(deal.history) < 12 + 4 * (seed % 10) or deal.legal_mask().bit_count() < 2:
            player.reset(rules_obj, deal.current, 0)
            deal.apply(player.act(SeatView.of(deal, deal.current)))
        views.append(SeatView.of(deal, deal.current))
    agent = make_agent(spec)

    def run() -> int:
        for view in views:
            agent.reset(rules_obj, view.seat, 0)
            agent.act(view)
        return len(views)

    return run


def ppo_training(vector: bool, opponents: str = "greedy") -> Callable[[], int]:
    """MaskablePPO env steps/s while learning (rollouts and updates), paper260 observations: the
    single-table env (as examples/train_maskable_ppo.py) or the vector env with 64 tables."""
    import gymnasium
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    if vector:
        from hearts_env.vector.sb3 import SB3VecEnv

        env = SB3VecEnv(num_envs=64, observation="paper260", opponents=opponents, seed=0)
        model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=512, seed=0, device="cpu")
    else:
        env = gymnasium.make("hearts_env/Hearts-v0", observation="paper260", opponents=opponents)
        model = MaskablePPO("MlpPolicy", env, n_steps=512, batch_size=128, seed=0, device="cpu")
    steps = 4096 if vector else 1024

    def run() -> int:
        model.learn(total_timesteps=steps, reset_num_timesteps=False)
        return steps

    return run


def apprentice_ppo_training(ours: bool, tables: int = 64) -> Callable[[], int | tuple[int, float]]:
    """Env steps/s of masked PPO while learning (rollouts + 4 epochs of updates), ``rich`` observations,
    three ``heuristic`` opponents, ``tables`` tables, 32 steps per table per rollout, minibatches of 2,048:
    the apprentice's single-file trainer (:mod:`hearts_baselines.apprentice.ppo`) or sb3-contrib's
    MaskablePPO on :class:`~hearts_env.vector.sb3.SB3VecEnv`, with the same network (a shared 512-512
    ReLU trunk, linear policy and value heads)."""
    import tempfile

    import torch
    from torch import nn

    torch.set_num_threads(1)
    if ours:
        from hearts_baselines.apprentice import ppo
        from hearts_baselines.apprentice.net import to_numpy, torch_net

        torch.manual_seed(0)
        folder = tempfile.mkdtemp(prefix="bench-ppo-")
        to_numpy(torch_net(620, (512, 512), 52), {"hidden": [512, 512]}).save(f"{folder}/init.npz")

        def run_ours() -> tuple[int, float]:
            summary = ppo.train(f"{folder}/init.npz", f"{folder}/out", iterations=2, heuristic_rows=tables,
                                self_rows=0, pool_rows=0, rollout=32, epochs=4, minibatch=2048,
                                checkpoint_every=10**6, eval_every=0, log=False)
            return summary["steps"], summary["final"]["seconds"]

        return run_ours
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

    from hearts_env.vector.sb3 import SB3VecEnv

    class Trunk(BaseFeaturesExtractor):
        def __init__(self, space):  # type: ignore[no-untyped-def]
            super().__init__(space, 512)
            self.net = nn.Sequential(nn.Linear(space.shape[0], 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU())

        def forward(self, x):  # type: ignore[no-untyped-def]
            return self.net(x)

    env = SB3VecEnv(num_envs=tables, observation="rich", opponents="heuristic", seed=0)
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=2048, n_epochs=4, seed=0, device="cpu",
                        policy_kwargs={"features_extractor_class": Trunk, "net_arch": []})
    steps = 32 * tables * 2

    def run_sb3() -> int:
        model.learn(total_timesteps=steps, reset_num_timesteps=False)
        return steps

    return run_sb3


def tdlambda_training(compiled: bool, orders: tuple[int, ...] = (1, 2, 3)) -> Callable[[], int]:
    """Paper 004's training deals/s (learner's max^n to the end of the trick + TD(λ) after the deal,
    three ``heuristic`` opponents, q task): the compiled trainer on 64 tables at once, or the
    plain-Python reference (:mod:`hearts_baselines.tdlambda.plain`) one deal at a time."""
    from hearts_baselines.tdlambda import kernels, plain
    from hearts_baselines.tdlambda.features import FeatureSet
    from hearts_baselines.tdlambda.model import Model
    from hearts_baselines.tdlambda.train import TRAINING_RULES, play
    from hearts_env.agents import make_agent
    from hearts_env.views import SeatView

    rng = np.random.default_rng(0)
    if compiled:
        model = Model.initial("q", FeatureSet(kernels.Q_SPACE, orders), None, rng)
        return lambda: len(play(model, 64, rng, "heuristic", learn=True)["seats"])
    ref = plain.PlainModel("q", {"q": orders}, {})
    opponents = make_agent("heuristic")

    def four_deals() -> int:  # the same four deals every round: best-of rounds would pick the quickest deal
        for seed in range(4):
            one_deal(seed)
        return 4

    def one_deal(seed: int) -> None:
        deal = Deal.random(TRAINING_RULES, seed)
        seat = seed % 4
        positions = []
        while not deal.is_over:
            if not deal.trick and sum(deal.hands) >> 49 & 1:
                positions.append(deal.clone())
            if deal.current == seat:
                deal.apply(ref.search(deal)[0])
            else:
                opponents.reset(deal.rules, deal.current, 0)
                deal.apply(opponents.act(SeatView.of(deal, deal.current)))
        ref.update(positions, seat, float(plain.points(deal.taken[seat], "q")), 0.75)

    return four_deals


def dutchnn_training(batched: bool, tables: int = 50) -> Callable[[], int]:
    """Paper 003's self-play training deals/s (all four seats the network, ε = 0.1, then one SGD
    step per decision): ``tables`` deals at once on the batched engine, or one deal at a time on the
    scalar engine (SeatView + the scalar ``dutch107`` encoder + one network call per decision)."""
    from hearts_baselines.dutchnn.model import DutchNet
    from hearts_baselines.dutchnn.training import learn, play_batch, play_deal
    from hearts_env.vector import VectorDeals

    rng = np.random.default_rng(0)
    net = DutchNet.initial(rng)
    if batched:
        return lambda: (learn(net, play_batch(net, VectorDeals.random("dutch", tables, rng), 0.1, rng)), tables)[1]

    def four_deals() -> int:
        for seed in range(4):
            learn(net, play_deal(net, Deal.random("dutch", seed), 0.1, rng))
        return 4

    return four_deals


def subagents_training(engine: str, tables: int = 512) -> Callable[[], int]:
    """Paper 000's subagent self-play training deals/s (``play_normal`` + ``pass_normal`` learning
    in four-seat self-play, ε = 0.2, the SGD passes included): ``tables`` deals between SGD passes
    on the batched engine, or — the training before the batched engine — one deal at a time on the
    scalar engine, an SGD pass every 16 deals, by the dense NumPy SGD (``engine="scalar"``)."""
    from hearts_baselines.subagents import steps
    from hearts_baselines.subagents.networks import NetSet, sgd_rows_reference
    from hearts_baselines.subagents.steps import Replay
    from hearts_env.rules import make_rules

    batch = tables if engine == "batch" else 16
    ctx = steps.Context(make_rules("standard"), 1.0, batch, 32, 0.2, 0.2, 200_000, 8.0, engine)
    nets, replay, rng = NetSet.fresh(64, 0), Replay(200_000), np.random.default_rng(0)
    make = steps.normal_deals({"play_normal", "pass_normal"}, random_passes=False)
    done = [0]

    def dense_sgd(net, rows, y, lr, minibatch):  # type: ignore[no-untyped-def]
        return sgd_rows_reference(net.W1, net.b1, net.w2, net.b2, rows, y, lr, minibatch) / -(-len(y) // minibatch)

    def run() -> int:
        kernel = steps.train_rows
        if engine == "scalar":
            steps.train_rows = dense_sgd  # type: ignore[assignment]
        try:
            steps.rl_chunk(ctx, nets, make, done[0], done[0] + batch, 10**9, rng, lambda k: None, replay)
        finally:
            steps.train_rows = kernel  # type: ignore[assignment]
        done[0] += batch
        return batch

    return run


# --- environments -------------------------------------------------------------------------
def aec_steps(make_env: Callable[[], object], steps: int = 5000) -> Callable[[], int]:
    """Steps/s of a PettingZoo AEC env under random legal play (mask-sampled), resets included."""
    env = make_env()
    env.reset(seed=0)  # type: ignore[attr-defined]
    rng = np.random.default_rng(0)

    def run() -> int:
        done = 0
        while done < steps:
            env.reset(seed=int(rng.integers(1 << 30)))  # type: ignore[attr-defined]
            for _agent in env.agent_iter():  # type: ignore[attr-defined]
                obs, _, term, trunc, _ = env.last()  # type: ignore[attr-defined]
                if term or trunc:
                    action = None
                else:
                    legal = np.flatnonzero(obs["action_mask"])
                    action = int(legal[rng.integers(len(legal))])
                env.step(action)  # type: ignore[attr-defined]
                done += 1
        return done

    return run


def arena_games(capped: bool, spec: str = "ppo", deals: int = 100, jobs: int = 2) -> Callable[[], int]:
    """Games/s of a network agent (one seat against three ``greedy``) in the arena with ``jobs`` worker
    processes, their torch/BLAS threads capped at cores / jobs (the arena's default) or left at one per core
    in every worker (what the arena did before: ``OMP_NUM_THREADS`` = cores). Worker start-up is included."""
    import os
    from unittest import mock

    from hearts_env.evaluation.arena import run_arena, solo_seatings
    from hearts_env.evaluation.arena.runner import THREAD_VARIABLES

    def run() -> int:
        with mock.patch.dict(os.environ):  # the workers inherit this environment; restored afterwards
            for name in THREAD_VARIABLES:
                os.environ.pop(name, None)
                if not capped:
                    os.environ[name] = str(os.cpu_count() or 1)
            return len(run_arena([spec, "greedy"], deals=deals, jobs=jobs, isolation="none",
                                 only_seatings=solo_seatings()))

    return run


def seat_round_trips(spec: str = "heuristic", decisions: int = 600) -> None:
    """The seat protocol's cost: the median time of one decision of ``spec`` through a seated program
    (``hosted:SPEC`` under the bwrap sandbox: view to JSON, pipe, host, agent, card back) against the same
    decision called in-process, on the same views, alternating the two."""
    import statistics

    from hearts_env.agents import make_agent
    from hearts_env.evaluation.seat import seated_agent

    here, seated = make_agent(spec), seated_agent(f"hosted:{spec}")
    try:
        times = _alternating_decisions({"seated": seated, "here": here}, decisions)
    finally:
        seated.close()
    a, b = statistics.median(times["seated"]), statistics.median(times["here"])
    print(f"{'seat protocol: ' + spec + ' decision, median (ms)':<44} {1000 * a:>12.3f} ms   "
          f"{'the same call in-process':<30} {1000 * b:>10.3f} ms   ratio {a / b:5.1f}x (+{1000 * (a - b):.3f} ms)")


def _alternating_decisions(agents: dict[str, Any], decisions: int) -> dict[str, list[float]]:
    """Seconds of each of ``agents``' decisions on the same views (40 deals played with the lowest legal card),
    the agents taking turns on each view."""
    rules, views = _views(40)
    times: dict[str, list[float]] = {name: [] for name in agents}
    for view in views[:decisions]:
        for name, agent in agents.items():
            agent.reset(rules, view.seat, seed=[0, view.seat])
            t0 = time.perf_counter()
            agent.act(view)
            times[name].append(time.perf_counter() - t0)
    return times


def _views(deals: int) -> tuple[Any, list[SeatView]]:
    """The rules and every decision's view of ``deals`` deals played with the lowest legal card."""
    rules = make_rules("standard(game=deal)")
    views = []
    for seed in range(deals):
        deal = Deal.random(rules, seed=seed, pass_direction=("left", "right", "across", "hold")[seed % 4])
        while not deal.is_over:
            views.append(SeatView.of(deal, deal.current))
            deal.apply(deal.legal_cards()[0])
    return rules, views


LOAD_CLIENTS = """
import json, socket, sys, threading
host, port, tokens = json.loads(sys.stdin.readline())
def seat(name, token):
    conn = socket.create_connection((host, port))
    conn.sendall((json.dumps({"type": "join", "protocol": 1, "seat": name, "token": token}) + "\\n").encode())
    lines = conn.makefile("rb")
    lines.readline()  # joined
    for line in lines:
        request = json.loads(line)
        kind = request["type"]
        if kind == "goodbye":
            break
        answer = {"hello": {"type": "hello", "protocol": 1, "agent": {"name": "load", "weights": None}},
                  "act": {"type": "card", "card": min(request.get("view", {}).get("legal", [0]))}}.get(kind,
                                                                                                  {"type": "ready"})
        conn.sendall((json.dumps(answer) + "\\n").encode())
threads = [threading.Thread(target=seat, args=item) for item in tokens.items()]
for t in threads: t.start()
for t in threads: t.join()
"""
"""The remote programs of :func:`remote_load`: one process, a thread per seat, each speaking the seat protocol over its
own connection (the lowest legal card), as a program that joins without the bridge does."""


def remote_load(seats: int = 64, decisions: int = 50) -> None:
    """Many remote seats on one dealer at once (loopback, plain TCP): ``seats`` programs joined to one seat server, each
    asked ``decisions`` decisions by its own dealer thread, all at once — decisions a second, the slowest round trip,
    the dealer's memory and anything lost — against one remote seat asked alone, in the same run."""
    import secrets
    import statistics
    import subprocess
    import threading

    from hearts_env.evaluation.seat import seated_agent
    from hearts_env.evaluation.seat.remote import SeatServer

    rules, views = _views(40)

    def play(count: int) -> tuple[float, list[float], int, int, list[str]]:
        tokens = {f"load{k}": secrets.token_urlsafe() for k in range(count)}
        with SeatServer(tokens) as server:
            clients = subprocess.Popen([sys.executable, "-c", LOAD_CLIENTS], stdin=subprocess.PIPE, text=True)
            assert clients.stdin is not None
            clients.stdin.write(json.dumps(["127.0.0.1", server.address[1], tokens]) + "\n")
            clients.stdin.close()
            times: list[list[float]] = [[] for _ in range(count)]
            wrong = [0]
            before = _rss_kib()

            def seat(k: int) -> None:
                agent = seated_agent(f"remote:load{k}")
                try:
                    for view in views[k:k + decisions]:
                        agent.reset(rules, view.seat, seed=[0, view.seat])
                        t0 = time.perf_counter()
                        card = agent.act(view)
                        times[k].append(time.perf_counter() - t0)
                        wrong[0] += not (view.legal >> card) & 1
                finally:
                    agent.close()

            threads = [threading.Thread(target=seat, args=(k,)) for k in range(count)]
            t0 = time.perf_counter()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            wall = time.perf_counter() - t0
            grown = _rss_kib() - before
            server.close()
            clients.wait(timeout=60)
            return wall, [t for seat_times in times for t in seat_times], wrong[0], grown, server.refusals

    wall, times, wrong, grown, refusals = play(seats)
    lost = seats * decisions - len(times) + wrong + len(refusals)
    alone_wall, alone, _, _, _ = play(1)
    rate, alone_rate = len(times) / wall, len(alone) / alone_wall
    print(f"{f'{seats} remote seats at once (resets+acts/s)':<44} {rate:>12.1f} /s   {'one remote seat alone':<30} "
          f"{alone_rate:>10.1f} /s   ratio {rate / alone_rate:5.2f}x")
    print(f"{f'{seats} remote seats: slowest round trip (ms)':<44} {1000 * max(times):>12.3f} ms   "
          f"{'one seat alone, median':<30} {1000 * statistics.median(alone):>10.3f} ms   "
          f"dealer memory +{grown / 1024:.1f} MiB, lost {lost}")


def _rss_kib() -> int:
    """This process's resident memory (KiB)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def remote_round_trips(spec: str = "heuristic", decisions: int = 600) -> None:
    """A remote seat's cost over loopback: the median decision of ``spec`` through the seat server and `hearts-env seat
    connect` running the host program, against the same program started by the dealer here (``hosted:SPEC``,
    sandboxed), on the same views, alternating the two."""
    import secrets
    import statistics
    import subprocess
    import tempfile

    from hearts_env.evaluation.seat import seated_agent
    from hearts_env.evaluation.seat.remote import SeatServer

    token = secrets.token_urlsafe()
    with tempfile.TemporaryDirectory() as folder, SeatServer({"speed": token}) as server:
        Path(folder, "token").write_text(token + "\n")
        bridge = subprocess.Popen([sys.executable, "-m", "hearts_env.cli", "seat", "connect",
                                   f"127.0.0.1:{server.address[1]}", "--seat", "speed", "--token-file",
                                   f"{folder}/token", "--", sys.executable, "-m", "hearts_env.evaluation.seat.host",
                                   spec], stderr=subprocess.DEVNULL)
        remote, local = seated_agent("remote:speed"), seated_agent(f"hosted:{spec}")
        try:
            times = _alternating_decisions({"remote": remote, "local": local}, decisions)
        finally:
            remote.close()
            local.close()
            server.close()
            bridge.wait(timeout=60)
    a, b = statistics.median(times["remote"]), statistics.median(times["local"])
    print(f"{'remote seat (loopback): ' + spec + ', median (ms)':<44} {1000 * a:>12.3f} ms   "
          f"{'a seat program started here':<30} {1000 * b:>10.3f} ms   ratio {a / b:5.1f}x (+{1000 * (a - b):.3f} ms)")


def dealer_wall_time(spec: str = "heuristic", tier: str = "quick", jobs: int = 2) -> None:
    """Wall time of one whole benchmark run of ``spec`` with the agent seated in its sandboxed program
    (``--isolation process``, the default) against the agent inside the dealer's workers (``seating``, the
    benchmark before the seat protocol), one after the other in this process (minutes: ``--only dealer``)."""
    import tempfile

    from hearts_env.evaluation.benchmark import run_benchmark

    seconds = {}
    for isolation in ("seating", "process"):
        with tempfile.TemporaryDirectory() as folder:
            t0 = time.perf_counter()
            run_benchmark(spec, tier=tier, out=f"{folder}/run", jobs=jobs, isolation=isolation, agent_secret=1)
            seconds[isolation] = time.perf_counter() - t0
    a, b = seconds["process"], seconds["seating"]
    print(f"{f'benchmark {spec} --tier {tier} --jobs {jobs}, seated (s)':<44} {a:>12.1f} s    "
          f"{'agent in the workers (seating)':<30} {b:>10.1f} s    ratio {a / b:5.2f}x")


def main(argv: list[str] | None = None, prog: str | None = None) -> None:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=6.0, help="time budget per comparison")
    parser.add_argument("--only", choices=["engine", "vector", "jax", "encoders", "env", "search", "arena", "seat",
                                               "dealer", "train"],
                        help="run one group only (train: PPO steps/s, needs the train extra; dealer: a quick-tier "
                             "benchmark run seated and not, minutes)")
    args = parser.parse_args(argv)
    print(f"{'measurement':<44} {'ours':>12}         {'reference':<30} {'':>10}")
    if args.only in (None, "engine"):
        compare("engine: random play, step API (deals/s)", engine_step_api(), openspiel_python_loop(),
                "/s", "OpenSpiel, Python loop", args.seconds)
        compare("engine: random play, Deal.playout (deals/s)", engine_playout(), openspiel_python_loop(),
                "/s", "OpenSpiel, Python loop", args.seconds)
    if args.only in (None, "vector"):
        from hearts_env.vector import numba_available

        backends = ["numba", "numpy"] if numba_available() else ["numpy"]
        for backend in backends:
            for size in (1, 64, 1024, 16384):
                compare(f"vector engine {backend}, B={size} (plays/s)", vector_plays(size, backend), scalar_plays(),
                        "/s", "scalar Deal.playout", args.seconds / 2, rounds=2)
        for observation in ("paper260", "rich"):
            compare(f"make_vec B=4096, {observation} (steps/s)", vector_env_steps(4096, observation),
                    scalar_env_steps(observation), "/s", "make(), one table", args.seconds / 2, rounds=2)
    if args.only in (None, "jax"):  # hearts_env.jax beside the Numba engine: speed/jax_speed.py, the jax extra
        import importlib.util

        if importlib.util.find_spec("jax") is None:
            print("jax rows skipped: no JAX here (pip install 'hearts-env[jax]'; make test-jax builds .venv-jax)")
        else:
            from jax_speed import rows

            rows(args.seconds)
    if args.only in (None, "search"):
        from hearts_env.vector import numba_available

        for kind in (["numba"] if numba_available() else []) + ["numpy"]:
            compare(f"playouts from a mid-deal state, {kind} x1024 (/s)", playouts(kind), playouts("python"),
                    "/s", "Deal.playout, one at a time", args.seconds / 2, rounds=2)
        if numba_available():
            compare("heuristic playouts, numba x1024 (/s)", playouts("numba", policy="heuristic"), playouts("python"),
                    "/s", "Deal.playout (random), one at a time", args.seconds / 2, rounds=2)
        compare("worlds, sample_worlds x128 (/s)", world_sampling(True), world_sampling(False), "/s",
                "sample_world, one at a time", args.seconds / 2, rounds=2)
        compare("worlds as a batch, sample_world_batch x300 (/s)", world_batch(True), world_batch(False), "/s",
                "from_deals(sample_worlds(...))", args.seconds / 2, rounds=2)
        if numba_available():
            compare("tdlambda training, triples (deals/s)", tdlambda_training(True), tdlambda_training(False), "/s",
                    "the pure-Python reference", args.seconds, rounds=2)
            compare("dutchnn training, 50 tables (deals/s)", dutchnn_training(True), dutchnn_training(False), "/s",
                    "the scalar engine, one deal", args.seconds, rounds=2)
            compare("subagents training, 512 tables (deals/s)", subagents_training("batch"),
                    subagents_training("scalar"), "/s", "scalar engine + dense SGD (before)", args.seconds, rounds=2)
            compare("apprentice trunk, 256 positions (obs/s)", apprentice_trunk(True), apprentice_trunk(False), "/s",
                    "dense NumPy product, every layer", args.seconds / 2, rounds=2)
        compare("apprentice rollouts, 32 from card 20 (/s)", apprentice_rollouts(True), apprentice_rollouts(False),
                "/s", "four Python agents a deal", args.seconds / 2, rounds=2)
        for spec in ("pimc", "pimc(n=40, policy='apprentice')", "mcts", "ismcts", "maxn", "tdlambda"):
            compare(f"{spec} decisions (/s)", decisions(spec), decisions("openspiel-ismcts"), "/s",
                    "openspiel-ismcts (1000 sims)", args.seconds, rounds=2)
    if args.only in (None, "encoders"):
        encoder_costs(args.seconds)
    if args.only in (None, "env"):
        from pettingzoo.classic import texas_holdem_v4

        from hearts_env import hearts_v0

        compare("hearts_v0.env(), rich obs (steps/s)", aec_steps(lambda: hearts_v0.env(rules="openspiel")),
                aec_steps(lambda: texas_holdem_v4.env()), "/s", "texas_holdem_v4.env()", args.seconds)
    if args.only in (None, "arena"):
        compare("arena, ppo vs greedy, --jobs 2 (games/s)", arena_games(True), arena_games(False), "/s",
                "threads not capped (a thread per core each)", args.seconds * 2, rounds=2)
    if args.only in (None, "seat"):
        from hearts_env.evaluation.seat.sandbox import bwrap_works

        if bwrap_works():
            seat_round_trips("heuristic")
            seat_round_trips("apprentice")
            remote_round_trips("heuristic")
        remote_load()
    if args.only == "dealer":  # two whole benchmark runs: minutes, only on request
        dealer_wall_time()
    if args.only in (None, "train"):
        compare("apprentice PPO (CleanRL-style), 64 tables", apprentice_ppo_training(True),
                apprentice_ppo_training(False), "/s", "MaskablePPO, SB3VecEnv, same net", args.seconds * 4, rounds=2)
    if args.only == "train":  # minutes of training: only on request
        compare("MaskablePPO, SB3VecEnv 64 tables (steps/s)", ppo_training(True), ppo_training(False), "/s",
                "MaskablePPO, make(), 1 table", args.seconds * 4, rounds=2)


if __name__ == "__main__":
    main()
