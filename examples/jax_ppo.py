"""Masked PPO on hearts_env.jax, the whole training loop inside one ``jax.jit`` (PureJaxRL style), one file.

Seat 0 learns against three scripted seats (``random``: a uniform legal card; ``lowest``: the lowest legal
card; ``greedy``: the package's ``greedy`` agent, :func:`hearts_env.jax.greedy_action`) that play inside the
environment step; every table resets itself when its episode ends. The policy is
the apprentice's network (an MLP over the ``rich`` observation, ReLU trunk, policy and value heads), so the
result is saved as an ``apprentice-1`` weights file that the arena and hearts-bench play::

    .venv-jax/bin/python examples/jax_ppo.py --updates 200 --out runs/jax_ppo/policy.npz
    hearts-env arena "apprentice(weights='runs/jax_ppo/policy.npz')" random --deals 200

(its ``q`` head is zero: ``head='q'`` means nothing for it). ``--smoke`` is the CI run (seconds).
Prints learner steps/s (the learner's decisions, opponents' moves and resets included, compilation
excluded), the mean return per episode (points, negative) in the first and last update, and that of the
trained policy (greedy) and of a uniformly random one against the same opponents.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from hearts_env import jax as hj


def build(rules: str, opponents: str):
    """``reset(key)`` and ``step(state, action, key) -> (state, reward, done)`` of seat 0's environment: the
    other seats play ``opponents`` until seat 0 is to act; a finished episode is replaced by a fresh one."""
    env = hj.HeartsJaxEnv(rules, observation="rich", reward="points")
    scale = 1.0 / float(env.rules.penalty_total)

    def opponent(key: Any, state: hj.EnvState) -> Any:
        if opponents == "lowest":
            return jnp.argmax(state.legal_action_mask)
        if opponents == "greedy":
            return hj.greedy_action(state.deal, env.rules_data)
        return jax.random.categorical(key, jnp.where(state.legal_action_mask, 0.0, -jnp.inf))

    def advance(state: hj.EnvState, key: Any) -> tuple[hj.EnvState, Any]:
        """The opponents play until seat 0 is to act or the episode is over (no observation built)."""
        def waiting(carry: tuple[Any, ...]) -> Any:
            return ~carry[0].terminated & (carry[0].current_player != 0)

        def play(carry: tuple[Any, ...]) -> tuple[Any, ...]:
            s, k, earned = carry
            k, k_act = jax.random.split(k)
            s = env.step_unobserved(s, opponent(k_act, s))
            return s, k, earned + s.rewards[0]

        state, _, earned = jax.lax.while_loop(waiting, play, (state, key, jnp.float32(0)))
        return state, earned

    def reset(key: Any) -> hj.EnvState:
        k_init, k_play = jax.random.split(key)
        return env.observed(advance(env.init_unobserved(k_init), k_play)[0])

    def step(state: hj.EnvState, action: Any, key: Any) -> tuple[hj.EnvState, Any, Any]:
        k_play, k_reset, k_fresh = jax.random.split(key, 3)
        state = env.step_unobserved(state, action)
        reward = state.rewards[0]
        state, earned = advance(state, k_play)
        done = state.terminated
        # a finished table starts a fresh episode, whose opening opponents' moves the next advance plays
        fresh = env.init_unobserved(k_fresh)
        state = jax.tree_util.tree_map(lambda a, b: jnp.where(done, a, b), fresh, state)
        state, _ = advance(state, k_reset)  # nothing to do unless the episode is fresh: no reward yet there
        return env.observed(state), (reward + earned) * scale, done

    return env, reset, step


def init_params(key: Any, inputs: int, hidden: tuple[int, ...], actions: int) -> dict[str, Any]:
    sizes = (inputs, *hidden)
    params = {}
    keys = jax.random.split(key, len(hidden) + 2)
    for i in range(len(hidden)):
        params[f"w{i}"] = jax.random.normal(keys[i], (sizes[i], sizes[i + 1])) * jnp.sqrt(2.0 / sizes[i])
        params[f"b{i}"] = jnp.zeros(sizes[i + 1])
    params["wp"] = jax.random.normal(keys[-2], (sizes[-1], actions)) * 0.01
    params["bp"] = jnp.zeros(actions)
    params["wv"] = jax.random.normal(keys[-1], (sizes[-1], 1)) * 1.0 / jnp.sqrt(sizes[-1])
    params["bv"] = jnp.zeros(1)
    return params


def forward(params: dict[str, Any], x: Any) -> tuple[Any, Any]:
    depth = sum(1 for k in params if k[0] == "w" and k[1:].isdigit())
    for i in range(depth):
        x = jax.nn.relu(x @ params[f"w{i}"] + params[f"b{i}"])
    return x @ params["wp"] + params["bp"], (x @ params["wv"] + params["bv"])[..., 0]


def masked(logits: Any, mask: Any) -> Any:
    return jnp.where(mask, logits, -1e9)


def make_train(args: argparse.Namespace):
    env, reset, step = build(args.rules, args.opponents)
    b, t = args.tables, args.steps
    minibatch = b * t // args.minibatches

    def adam(params: Any, grads: Any, opt: Any, lr: float) -> tuple[Any, Any]:
        m, v, count = opt
        count = count + 1
        m = jax.tree_util.tree_map(lambda m, g: 0.9 * m + 0.1 * g, m, grads)
        v = jax.tree_util.tree_map(lambda v, g: 0.999 * v + 0.001 * g * g, v, grads)
        c1, c2 = 1 - 0.9 ** count, 1 - 0.999 ** count
        params = jax.tree_util.tree_map(lambda p, m, v: p - lr * (m / c1) / (jnp.sqrt(v / c2) + 1e-8), params, m, v)
        return params, (m, v, count)

    def loss(params: Any, batch: dict[str, Any]) -> Any:
        logits, value = forward(params, batch["obs"])
        logp_all = jax.nn.log_softmax(masked(logits, batch["mask"]))
        logp = jnp.take_along_axis(logp_all, batch["action"][:, None], axis=1)[:, 0]
        ratio = jnp.exp(logp - batch["logp"])
        adv = (batch["adv"] - batch["adv"].mean()) / (batch["adv"].std() + 1e-8)
        policy = -jnp.minimum(ratio * adv, jnp.clip(ratio, 1 - args.clip, 1 + args.clip) * adv).mean()
        value_loss = 0.5 * ((value - batch["ret"]) ** 2).mean()
        entropy = -(jnp.where(batch["mask"], jnp.exp(logp_all) * logp_all, 0.0)).sum(-1).mean()
        return policy + args.vf * value_loss - args.ent * entropy

    def update(carry: tuple[Any, ...], _: Any) -> tuple[tuple[Any, ...], Any]:
        params, opt, states, key = carry

        def act(c: tuple[Any, ...], _: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
            states, key = c
            key, k_act, k_step = jax.random.split(key, 3)
            logits, value = forward(params, states.observation)
            logits = masked(logits, states.legal_action_mask)
            action = jax.random.categorical(k_act, logits)
            logp = jnp.take_along_axis(jax.nn.log_softmax(logits), action[:, None], axis=1)[:, 0]
            new, reward, done = jax.vmap(step)(states, action, jax.random.split(k_step, b))
            row = {"obs": states.observation, "mask": states.legal_action_mask, "action": action, "logp": logp,
                   "value": value, "reward": reward, "done": done}
            return (new, key), row

        (states, key), rows = jax.lax.scan(act, (states, key), None, t)
        _, last_value = forward(params, states.observation)

        def gae(c: tuple[Any, Any], row: dict[str, Any]) -> tuple[tuple[Any, Any], Any]:
            advantage, next_value = c
            live = 1.0 - row["done"]
            delta = row["reward"] + args.gamma * next_value * live - row["value"]
            advantage = delta + args.gamma * args.lam * live * advantage
            return (advantage, row["value"]), advantage

        _, adv = jax.lax.scan(gae, (jnp.zeros(b), last_value), rows, reverse=True)
        data = {**{k: rows[k] for k in ("obs", "mask", "action", "logp")}, "adv": adv, "ret": adv + rows["value"]}
        data = jax.tree_util.tree_map(lambda x: x.reshape(b * t, *x.shape[2:]), data)

        def epoch(c: tuple[Any, ...], _: Any) -> tuple[tuple[Any, ...], Any]:
            params, opt, key = c
            key, k_perm = jax.random.split(key)
            order = jax.random.permutation(k_perm, b * t).reshape(args.minibatches, minibatch)

            def minibatch_step(c: tuple[Any, Any], idx: Any) -> tuple[tuple[Any, Any], Any]:
                params, opt = c
                value, grads = jax.value_and_grad(loss)(params, jax.tree_util.tree_map(lambda x: x[idx], data))
                params, opt = adam(params, grads, opt, args.lr)
                return (params, opt), value

            (params, opt), losses = jax.lax.scan(minibatch_step, (params, opt), order)
            return (params, opt, key), losses.mean()

        key, k_epochs = jax.random.split(key)
        (params, opt, _), losses = jax.lax.scan(epoch, (params, opt, k_epochs), None, args.epochs)
        episodes = rows["done"].sum()
        return (params, opt, states, key), (losses.mean(), rows["reward"].sum() / jnp.maximum(episodes, 1), episodes)

    @jax.jit
    def train(key: Any) -> tuple[Any, Any]:
        k_params, k_env, k_run = jax.random.split(key, 3)
        params = init_params(k_params, env.size, tuple(args.hidden), env.num_actions)
        zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
        states = jax.vmap(reset)(jax.random.split(k_env, b))
        (params, _, _, _), stats = jax.lax.scan(update, (params, (zeros, zeros, 0), states, k_run), None,
                                                args.updates)
        return params, stats

    @jax.jit
    def evaluate(params: Any, key: Any, greedy: bool = True) -> Any:
        """Mean return per episode of ``params`` (greedy, or uniformly random when ``params`` is None-like)."""
        states = jax.vmap(reset)(jax.random.split(key, b))

        def play(c: tuple[Any, ...], _: Any) -> tuple[tuple[Any, ...], Any]:
            states, key, total, episodes = c
            key, k_act, k_step = jax.random.split(key, 3)
            logits, _ = forward(params, states.observation)
            logits = masked(jnp.where(greedy, logits, 0.0), states.legal_action_mask)
            action = jnp.where(greedy, jnp.argmax(logits, -1), jax.random.categorical(k_act, logits))
            states, reward, done = jax.vmap(step)(states, action, jax.random.split(k_step, b))
            return (states, key, total + reward.sum(), episodes + done.sum()), None

        (_, _, total, episodes), _ = jax.lax.scan(play, (states, key, 0.0, 0), None, args.eval_steps)
        return total / jnp.maximum(episodes, 1) * env.rules.penalty_total, episodes

    return env, train, evaluate


def save(params: dict[str, Any], env: hj.HeartsJaxEnv, args: argparse.Namespace, path: Path) -> None:
    """The apprentice's weights file (format ``apprentice-1``), its ``q`` head zero."""
    from hearts_baselines.weightfiles import save_npz

    arrays = {k: np.asarray(v, np.float32) for k, v in params.items()}
    arrays["wq"] = np.zeros_like(arrays["wp"])
    arrays["bq"] = np.zeros_like(arrays["bp"])
    header = {"format": "apprentice-1", "deck_size": env.rules_data.n, "hidden": list(args.hidden),
              "trained_by": "examples/jax_ppo.py", "rules": env.rules.spec(), "opponents": args.opponents}
    save_npz(path, header, arrays)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="openspiel", help="rules spec (one-deal episodes suit PPO best)")
    parser.add_argument("--opponents", choices=["random", "lowest", "greedy"], default="random")
    parser.add_argument("--tables", type=int, default=256, help="tables played at once")
    parser.add_argument("--steps", type=int, default=32, help="learner decisions per table per update")
    parser.add_argument("--updates", type=int, default=100)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--minibatches", type=int, default=4)
    parser.add_argument("--hidden", type=int, nargs="+", default=[256, 256])
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--gamma", type=float, default=1.0)
    parser.add_argument("--lam", type=float, default=0.95)
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--ent", type=float, default=0.01)
    parser.add_argument("--vf", type=float, default=0.5)
    parser.add_argument("--eval-steps", type=int, default=200, help="learner decisions per table in evaluation")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None, help="save the policy (apprentice-1 .npz) here")
    parser.add_argument("--smoke", action="store_true", help="a tiny run (CI): 8 tables, 16 steps, 2 updates")
    args = parser.parse_args(argv)
    if args.smoke:
        args.tables, args.steps, args.updates, args.hidden, args.eval_steps = 8, 16, 2, [32], 30
    env, train, evaluate = make_train(args)
    key = jax.random.key(args.seed)
    t0 = time.perf_counter()
    compiled = train.lower(key).compile()
    compile_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    params, (losses, returns, episodes) = jax.block_until_ready(compiled(key))
    seconds = time.perf_counter() - t0
    learner_steps = args.tables * args.steps * args.updates
    trained, _ = evaluate(params, jax.random.key(args.seed + 1))
    uniform, _ = evaluate(params, jax.random.key(args.seed + 1), greedy=False)
    result = {"learner_steps": learner_steps, "seconds": seconds, "compile_seconds": compile_s,
              "learner_steps_per_s": learner_steps / seconds, "device": str(jax.devices()[0]),
              "final_loss": float(losses[-1]), "episodes": int(episodes.sum()),
              "train_return_first_update": float(returns[0]) * env.rules.penalty_total,
              "train_return_last_update": float(returns[-1]) * env.rules.penalty_total,
              "eval_return_trained": float(trained), "eval_return_uniform": float(uniform)}
    if args.out is not None:
        save(params, env, args, args.out)
        result["out"] = str(args.out)
    print(json.dumps(result, indent=1))
    return result


if __name__ == "__main__":
    main()
