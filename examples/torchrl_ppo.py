"""TorchRL 0.14: masked PPO with one policy shared by the four seats of hearts_v0 (self-play on one-deal episodes),
then a seeded evaluation of the greedy policy against three ``heuristic`` players.

    python examples/torchrl_ppo.py --iterations 20 --frames-per-batch 2048 --eval-deals 200

How the pieces fit (TorchRL's multi-agent PPO tutorial, ``tutorials/sphinx-tutorials/multiagent_ppo.py``, has
the same shape):

* ``PettingZooWrapper(env, use_mask=True, group_map=MarlGroupMapType.ALL_IN_ONE_GROUP)`` puts the four seats in
  one group, ``"agents"`` (by default an AEC env gets one group per agent). Every step carries all four seats:
  ``("agents", "observation", "observation")`` (4 × 620), ``("agents", "action_mask")`` (the legal cards of the
  seat to act, all True for the others), ``("agents", "mask")`` (True for the seat to act only) and
  ``("agents", "reward")``: each seat's own reward of that step, whoever acted. ``check_env_specs`` checks it.
* One MLP applied to each seat's row is the shared actor (the rich observation is seat-relative, so the seats
  are interchangeable); its logits feed a ``MaskedCategorical`` over ``("agents", "action_mask")``, so an
  illegal card has probability 0 when sampling and is never the greedy choice. A second MLP is the critic.
* ``Collector`` (called ``SyncDataCollector`` before TorchRL 0.14) steps the env with the sampling policy and resets
  it after each deal. The wrapper asks every seat for an action at every step and plays only the acting
  seat's, so GAE runs over every seat's whole stream of observations and rewards (``gamma=1``: the deal's
  points), and then only the rows ``("agents", "mask")`` marks, the moves actually played, go to
  ``ClipPPOLoss``.
* The env is built with ``illegal_action="raise"``: an illegal card would stop the run.

Per iteration the script prints the mean reward per seat and deal of the collected deals (self-play: the four
seats share 26 points per deal, so this stays near -6.5 and moves only with moons: the learning shows in the
evaluation) and the losses. After training, the greedy policy plays ``--eval-deals`` seeded deals through
``hearts_v0.env()`` itself, in every seat in turn, against three ``heuristic`` players; the same deals are
replayed with a uniformly random legal player in its place as the reference. Lower points are better.
The test extra installs TorchRL (``pip install -e ".[test]" -c constraints.txt``).
"""

from __future__ import annotations

import argparse
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import torch
from tensordict import TensorDict
from tensordict.nn import TensorDictModule
from torchrl.collectors import Collector
from torchrl.envs.libs.pettingzoo import PettingZooWrapper
from torchrl.envs.utils import MarlGroupMapType, check_env_specs
from torchrl.modules import MLP, MaskedCategorical, ProbabilisticActor
from torchrl.objectives import ClipPPOLoss, ValueEstimators

from hearts_env import hearts_v0
from hearts_env.agents import make_agent
from hearts_env.views import SeatView

GROUP = "agents"
OBS = (GROUP, "observation", "observation")
Chooser = Callable[[np.ndarray, np.ndarray], int]  # (observation, int8 mask) -> card


def make_env(rules: str, seed: int) -> PettingZooWrapper:
    return PettingZooWrapper(env=hearts_v0.env(rules=rules, illegal_action="raise"), use_mask=True, seed=seed,
                             group_map=MarlGroupMapType.ALL_IN_ONE_GROUP)


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


def greedy_chooser(actor_net: torch.nn.Module) -> Chooser:
    """The trained actor as a player: the legal card of highest logit."""

    def choose(observation: np.ndarray, mask: np.ndarray) -> int:
        with torch.no_grad():
            logits = actor_net(torch.as_tensor(observation)).numpy()
        return int(np.flatnonzero(mask)[np.argmax(logits[mask.astype(bool)])])

    return choose


def random_chooser(seed: int) -> Chooser:
    rng = np.random.default_rng(seed)
    return lambda observation, mask: int(rng.choice(np.flatnonzero(mask)))


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="standard(game=deal)", help="rules spec (one-deal episodes)")
    parser.add_argument("--iterations", type=int, default=20, help="collection + PPO update rounds")
    parser.add_argument("--frames-per-batch", type=int, default=2048, help="env steps collected per iteration")
    parser.add_argument("--ppo-epochs", type=int, default=4, help="passes over each batch")
    parser.add_argument("--minibatch-size", type=int, default=256, help="moves per gradient step")
    parser.add_argument("--hidden", type=int, nargs="+", default=[256, 256], help="hidden layer sizes")
    parser.add_argument("--lr", type=float, default=3e-4, help="Adam learning rate")
    parser.add_argument("--clip-epsilon", type=float, default=0.2, help="PPO clipping")
    parser.add_argument("--entropy-coeff", type=float, default=0.01, help="entropy bonus")
    parser.add_argument("--lmbda", type=float, default=0.95, help="GAE lambda")
    parser.add_argument("--eval-deals", type=int, default=200, help="seeded deals of the final evaluation")
    parser.add_argument("--opponents", default="heuristic", help="agent spec of the evaluation opponents")
    parser.add_argument("--seed", type=int, default=0, help="seed of networks, env and evaluation")
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    warnings.filterwarnings("ignore", "PettingZoo in TorchRL is tested using version", UserWarning)
    start = time.perf_counter()

    env = make_env(args.rules, args.seed)
    if env._env.unwrapped.rules.game != "deal":
        parser.error("--rules must play one-deal episodes, e.g. standard(game=deal)")
    check_env_specs(env)
    assert list(env.group_map) == [GROUP]
    obs_dim = env.observation_spec[OBS].shape[-1]
    n_actions = env.full_action_spec[GROUP, "action"].space.n

    actor_net = MLP(in_features=obs_dim, out_features=n_actions, num_cells=args.hidden)  # shared by the seats
    policy = ProbabilisticActor(
        TensorDictModule(actor_net, in_keys=[OBS], out_keys=[(GROUP, "logits")]),
        in_keys={"logits": (GROUP, "logits"), "mask": (GROUP, "action_mask")},
        out_keys=[(GROUP, "action")], distribution_class=MaskedCategorical,
        return_log_prob=True, log_prob_key=(GROUP, "action_log_prob"))
    critic = TensorDictModule(MLP(in_features=obs_dim, out_features=1, num_cells=args.hidden),
                              in_keys=[OBS], out_keys=[(GROUP, "state_value")])

    loss_module = ClipPPOLoss(actor_network=policy, critic_network=critic, clip_epsilon=args.clip_epsilon,
                              entropy_coeff=args.entropy_coeff, normalize_advantage=True)
    loss_module.set_keys(action=(GROUP, "action"), sample_log_prob=(GROUP, "action_log_prob"),
                         value=(GROUP, "state_value"), advantage=(GROUP, "advantage"),
                         value_target=(GROUP, "value_target"), reward=(GROUP, "reward"),
                         done=(GROUP, "done"), terminated=(GROUP, "terminated"))
    loss_module.make_value_estimator(ValueEstimators.GAE, gamma=1.0, lmbda=args.lmbda)
    optim = torch.optim.Adam(loss_module.parameters(), args.lr)

    collector = Collector(env, policy, frames_per_batch=args.frames_per_batch,
                          total_frames=args.frames_per_batch * args.iterations,
                          auto_register_policy_transforms=False)  # a feed-forward policy: no InitTracker needed
    history: list[dict[str, float]] = []
    illegal = moves = 0
    for iteration, batch in enumerate(collector, start=1):
        group = batch[GROUP]  # batch [T], group [T, 4]
        acting = group["mask"]  # [T, 4]: the seat whose card was played
        legal = group["action_mask"].gather(-1, group["action"].unsqueeze(-1)).squeeze(-1)
        illegal += int((acting & ~legal).sum())
        moves += int(acting.sum())

        with torch.no_grad():
            loss_module.value_estimator(batch, params=loss_module.critic_network_params,
                                        target_params=loss_module.target_critic_network_params)
        played = TensorDict({GROUP: batch[GROUP][acting]}, batch_size=[int(acting.sum())])  # the moves played
        losses = []
        for _ in range(args.ppo_epochs):
            for idx in torch.randperm(played.shape[0]).split(args.minibatch_size):
                loss_vals = loss_module(played[idx])
                loss = loss_vals["loss_objective"] + loss_vals["loss_critic"] + loss_vals["loss_entropy"]
                optim.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(loss_module.parameters(), 1.0)
                optim.step()
                losses.append([loss_vals[k].item() for k in ("loss_objective", "loss_critic", "loss_entropy")])
        collector.update_policy_weights_()

        deals = int(batch["next", "done"].sum())
        reward = float(batch["next", GROUP, "reward"].sum() / max(deals, 1) / 4)
        objective, critic_loss, entropy_loss = np.mean(losses, axis=0)
        history.append({"reward": reward, "deals": deals, "loss_objective": objective, "loss_critic": critic_loss,
                        "loss_entropy": entropy_loss})
        print(f"iteration {iteration}: {deals} deals, mean reward per seat and deal {reward:.2f}, "
              f"losses: objective {objective:.3f}, critic {critic_loss:.3f}, entropy {entropy_loss:.3f}")
    collector.shutdown()
    train_seconds = time.perf_counter() - start

    eval_seed = args.seed + 1_000_000
    actor_net.eval()
    learned = evaluate(greedy_chooser(actor_net), args.rules, args.opponents, args.eval_deals, eval_seed)
    reference = evaluate(random_chooser(args.seed), args.rules, args.opponents, args.eval_deals, eval_seed)
    print(f"PPO after {args.iterations * args.frames_per_batch} steps ({train_seconds:.0f}s) vs 3x {args.opponents} "
          f"over {args.eval_deals} deals: {learned['learner']:.2f} points/deal (opponents "
          f"{learned['opponents']:.2f}); random legal player on the same deals: {reference['learner']:.2f} "
          f"(opponents {reference['opponents']:.2f}); illegal moves collected: {illegal} of {moves}")
    return {"points": learned["learner"], "opponents": learned["opponents"], "random_points": reference["learner"],
            "history": history, "illegal": illegal, "moves": moves}


if __name__ == "__main__":
    main()
