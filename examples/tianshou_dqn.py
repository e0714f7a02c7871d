"""Tianshou 2.x: one masked DQN shared by the four seats of hearts_v0 (self-play on one-deal episodes), then a
seeded evaluation of the greedy Q-network against three ``heuristic`` players.

    python examples/tianshou_dqn.py --epochs 5 --epoch-steps 5000 --eval-deals 200

How the pieces fit (Tianshou's own PettingZoo example, ``test/pettingzoo/tic_tac_toe.py``, has the same shape):

* ``PettingZooEnv`` turns the AEC env into a single-stream env: each step is the move of the seat to act, its
  observation is ``Batch(agent_id, obs, mask)`` (``mask`` = the legal cards) and its reward the vector of the
  four seats' rewards of that step. ``DummyVectorEnv`` runs several tables, ``Collector`` fills a
  ``VectorReplayBuffer``.
* ``MultiAgentOffPolicyAlgorithm`` sends each transition to the algorithm of the seat that acted, with that
  seat's column of the rewards. **One DQN is shared by the four seats**: the same ``DQN`` object is passed for
  each seat, so there is one Q-network and one optimizer seeing every seat's moves (the rich observation is
  seat-relative and the seats are symmetric, so four networks would only each get a quarter of the data).
* Masking: ``DiscreteQLearningPolicy`` pushes the Q-values of illegal cards below every legal one before the
  argmax, and its epsilon-greedy exploration draws among ``obs.mask`` only; the env is built with
  ``illegal_action="raise"``, so an illegal card would stop the run.
* The targets: in this single stream, the step after a seat's move is *another* seat's observation, so a 1-step
  TD target would bootstrap from the wrong player's value. With ``gamma=1`` and an n-step horizon as long as
  the longest deal (cards + passes), Tianshou's n-step return becomes the seat's own points until the end of
  the deal (the deal-end rewards reach every seat's column, whoever played the last card) and the terminal
  step stops any bootstrap: Monte-Carlo targets, so no target network. Collecting whole episodes
  (``collection_step_num_episodes``, at least one per table) keeps unfinished deals out of the buffer when
  it is sampled.

After training, the greedy network plays ``--eval-deals`` seeded deals through ``hearts_v0.env()`` itself, in
every seat in turn, against three ``heuristic`` players; the same deals are replayed with a uniformly random
legal player in its place as the reference. Lower points are better (26 per deal in all, 78 after a moon).
The test extra installs Tianshou (``pip install -e ".[test]" -c constraints.txt``).
"""

from __future__ import annotations

import argparse
import logging
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import torch
from tianshou.algorithm import DQN, MultiAgentOffPolicyAlgorithm
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.env.pettingzoo_env import PettingZooEnv
from tianshou.trainer import OffPolicyTrainerParams
from tianshou.utils.logger.logger_base import LazyLogger
from tianshou.utils.net.common import Net

from hearts_env import hearts_v0
from hearts_env.agents import make_agent
from hearts_env.views import SeatView

Chooser = Callable[[np.ndarray, np.ndarray], int]  # (observation, int8 mask) -> card


class LossLogger(LazyLogger):
    """Keeps the loss the trainer logs after every gradient step (its moving average over the last updates,
    one per seat: ``player_0/loss`` ...; one shared network, so they differ only by the seat's data)."""

    def __init__(self) -> None:
        super().__init__()
        self.losses: list[float] = []

    def log_update_data(self, log_data: dict, step: int) -> None:
        self.losses.append(float(np.mean(list(log_data["smoothed_loss"].values()))))


def make_env(rules: str) -> PettingZooEnv:
    return PettingZooEnv(hearts_v0.env(rules=rules, illegal_action="raise"))


def evaluate(choose: Chooser, rules: str, opponents: str, deals: int, seed: int) -> dict[str, float]:
    """Plays ``deals`` seeded deals of ``hearts_v0`` with ``choose`` in seat ``k % 4`` of deal ``k`` and the
    ``opponents`` agent in the three other seats; returns the mean points per deal of both sides."""
    env = hearts_v0.env(rules=rules, illegal_action="raise")
    learner_points, other_points = [], []
    for k in range(deals):
        learner = k % 4
        env.reset(seed=seed + k)
        rules_obj = env.unwrapped.rules
        others = {seat: make_agent(opponents) for seat in range(4) if seat != learner}
        for seat, agent in others.items():
            agent.reset(rules_obj, seat, seed=[seed, k, seat])
        info: dict[str, Any] = {}
        for name in env.agent_iter():
            obs, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            seat = int(name.rsplit("_", 1)[1])
            if seat == learner:
                card = choose(obs["observation"], obs["action_mask"])
            else:
                card = others[seat].act(SeatView.of(env.unwrapped.deal, seat))
            env.step(card)
        points = np.asarray(info["deal_points"])
        learner_points.append(points[learner])
        other_points.append(np.delete(points, learner).mean())
    env.close()
    return {"learner": float(np.mean(learner_points)), "opponents": float(np.mean(other_points))}


def greedy_chooser(net: torch.nn.Module) -> Chooser:
    """The trained network as a player: the legal card of highest Q-value."""

    def choose(observation: np.ndarray, mask: np.ndarray) -> int:
        with torch.no_grad():
            q = net(observation[None])[0][0].numpy()
        return int(np.flatnonzero(mask)[np.argmax(q[mask.astype(bool)])])

    return choose


def random_chooser(seed: int) -> Chooser:
    rng = np.random.default_rng(seed)
    return lambda observation, mask: int(rng.choice(np.flatnonzero(mask)))


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="standard(game=deal)", help="rules spec (one-deal episodes)")
    parser.add_argument("--epochs", type=int, default=5, help="trainer epochs")
    parser.add_argument("--epoch-steps", type=int, default=5000, help="environment steps per epoch")
    parser.add_argument("--num-envs", type=int, default=4, help="tables of the vector env")
    parser.add_argument("--episodes-per-collect", type=int, default=4,
                        help="deals collected per training step (at least --num-envs)")
    parser.add_argument("--updates-per-step", type=float, default=0.1, help="gradient steps per collected step")
    parser.add_argument("--batch-size", type=int, default=256, help="transitions per gradient step")
    parser.add_argument("--buffer-size", type=int, default=50_000, help="replay buffer size (transitions)")
    parser.add_argument("--hidden", type=int, nargs="+", default=[256, 256], help="hidden layer sizes")
    parser.add_argument("--lr", type=float, default=1e-3, help="Adam learning rate")
    parser.add_argument("--eps-start", type=float, default=1.0, help="exploration epsilon at the start")
    parser.add_argument("--eps-end", type=float, default=0.05, help="epsilon after the first half of training")
    parser.add_argument("--eval-deals", type=int, default=200, help="seeded deals of the final evaluation")
    parser.add_argument("--opponents", default="heuristic", help="agent spec of the evaluation opponents")
    parser.add_argument("--seed", type=int, default=0, help="seed of networks, tables and evaluation")
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--progress", action="store_true", help="show Tianshou's epoch progress bars")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    # the Collector summarises the (deals x 4 seats) returns before the trainer reduces them, and warns each time
    logging.getLogger("tianshou.data.stats").setLevel(logging.ERROR)
    np.random.seed(args.seed)  # Tianshou's epsilon-greedy draws from numpy's global generator
    torch.manual_seed(args.seed)
    start = time.perf_counter()

    probe = make_env(args.rules)
    if probe.env.unwrapped.rules.game != "deal":
        parser.error("--rules must play one-deal episodes, e.g. standard(game=deal)")
    obs_dim = probe.observation_space["observation"].shape[0]
    n_actions = int(probe.action_space.n)
    rules = probe.env.unwrapped.rules
    horizon = rules.deck_obj.size + 4 * rules.pass_count  # the longest deal, in steps

    net = Net(state_shape=obs_dim, action_shape=n_actions, hidden_sizes=args.hidden)
    policy = DiscreteQLearningPolicy(model=net, action_space=probe.action_space, eps_training=args.eps_start,
                                     eps_inference=0.0)
    dqn = DQN(policy=policy, optim=AdamOptimizerFactory(lr=args.lr), gamma=1.0, n_step_return_horizon=horizon,
              target_update_freq=0)
    algorithm = MultiAgentOffPolicyAlgorithm(algorithms=[dqn] * len(probe.agents), env=probe)

    envs = DummyVectorEnv([lambda: make_env(args.rules)] * args.num_envs)
    envs.seed([args.seed + i for i in range(args.num_envs)])
    buffer = VectorReplayBuffer(total_size=args.buffer_size, buffer_num=args.num_envs)
    collector = Collector(algorithm, envs, buffer, exploration_noise=True)
    total_steps = args.epochs * args.epoch_steps

    def set_eps(epoch: int, env_step: int) -> None:  # linear decay over the first half of training
        frac = min(1.0, env_step / max(1, total_steps // 2))
        policy.set_eps_training(args.eps_start + frac * (args.eps_end - args.eps_start))

    logger = LossLogger()
    trainer = algorithm.create_trainer(OffPolicyTrainerParams(
        training_collector=collector, max_epochs=args.epochs, epoch_num_steps=args.epoch_steps,
        collection_step_num_env_steps=None, collection_step_num_episodes=max(args.episodes_per_collect,
                                                                             args.num_envs),
        batch_size=args.batch_size, update_step_num_gradient_steps_per_sample=args.updates_per_step,
        training_fn=set_eps, logger=logger, verbose=False, show_progress=args.progress,
        multi_agent_return_reduction=lambda returns: returns.mean(axis=1)))
    trainer.reset()
    for epoch in range(1, args.epochs + 1):
        trainer.execute_epoch()
        print(f"epoch {epoch}: {collector.collect_step} steps, {collector.collect_episode} deals, "
              f"epsilon {policy.eps_training:.2f}, loss {logger.losses[-1]:.2f} (moving average; "
              f"{len(logger.losses)} updates)")

    # every move in the buffer was legal: the card played is in the acting seat's mask
    stored = buffer[buffer.sample_indices(0)]
    illegal = int((~stored.obs.mask[np.arange(len(stored)), stored.act]).sum())
    train_seconds = time.perf_counter() - start

    eval_seed = args.seed + 1_000_000
    net.eval()
    learned = evaluate(greedy_chooser(net), args.rules, args.opponents, args.eval_deals, eval_seed)
    reference = evaluate(random_chooser(args.seed), args.rules, args.opponents, args.eval_deals, eval_seed)
    print(f"DQN after {collector.collect_step} steps ({train_seconds:.0f}s) vs 3x {args.opponents} over "
          f"{args.eval_deals} deals: {learned['learner']:.2f} points/deal (opponents {learned['opponents']:.2f}); "
          f"random legal player on the same deals: {reference['learner']:.2f} "
          f"(opponents {reference['opponents']:.2f}); illegal moves in the buffer: {illegal}")
    return {"points": learned["learner"], "opponents": learned["opponents"], "random_points": reference["learner"],
            "losses": logger.losses, "illegal": illegal, "stored": len(buffer), "steps": collector.collect_step,
            "algorithm": algorithm, "buffer": buffer}


if __name__ == "__main__":
    main()
