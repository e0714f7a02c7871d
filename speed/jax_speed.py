"""hearts_env.jax's speed beside the Numba engine measured in the same run (rows in speed/run.py's format).

Run with the jax extra installed (``make test-jax`` builds .venv-jax)::

    .venv-jax/bin/python speed/jax_speed.py [--seconds S] [--sizes 1024 16384] [--ppo-updates 20]

On an accelerator (JAX for it installed: ``pip install 'jax[cuda12]'``), for the goals of issue 40::

    python speed/jax_speed.py --seconds 3 --sizes 1048576 16777216 --reference-cap 16384 \
        --ppo-updates 10 --ppo-tables 65536

Rows: card plays/s of random legal play (``jit(vmap(fori_loop))`` over whole deals, shuffling and passes
included; the ``floor(u * count)``-th legal card, the uniforms of a deal drawn at once) and env steps/s with
the ``rich`` observation of the seat to act built at every step, each as a ratio to
``VectorDeals.random_step`` (Numba, passes included, shuffling excluded) at the same batch size, both under
the ``openspiel`` rules (a random pass direction per deal). :func:`rows` is what ``run.py`` can call.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import compare, vector_plays  # speed/run.py: the rows' format, the Numba reference

RULES = "openspiel"


def jax_plays(size: int, observe: bool = False) -> Callable[[], tuple[int, float]]:
    """Card plays/s (``observe``: env steps/s with the ``rich`` observation of the seat to act) of ``size``
    deals at a time on JAX's default device, random legal play from the shuffle to the last card."""
    import jax
    import jax.numpy as jnp

    from hearts_env import jax as hj
    from hearts_env.rules import make_rules

    rules = make_rules(RULES)
    data = hj.rules_data(rules)
    steps = rules.deck_obj.size + 4 * (rules.pass_count if rules.has_passing else 0)

    def one_deal(key: jax.Array) -> tuple[jax.Array, jax.Array]:
        k_deal, k_play = jax.random.split(key)
        state = hj.init(k_deal, data)
        uniforms = jax.random.uniform(k_play, (steps,))  # one draw for the whole deal: cheaper than one a step

        def body(i: int, carry: tuple[hj.State, jax.Array, jax.Array]) -> tuple[hj.State, jax.Array, jax.Array]:
            state, count, total = carry
            if observe:
                total = total + hj.observe(state, jnp.maximum(state.current, 0), data, "rich").sum()
            card = hj.uniform_legal_action(uniforms[i], state, data)
            return hj.step(state, card, data), count + (state.phase != hj.DONE), total

        _, count, total = jax.lax.fori_loop(0, steps, body, (state, jnp.int32(0), jnp.float32(0)))
        return count, total

    @jax.jit
    def run_batch(key: jax.Array) -> tuple[jax.Array, jax.Array]:
        counts, totals = jax.vmap(one_deal)(jax.random.split(key, size))
        return counts.sum(), totals.sum()

    jax.block_until_ready(run_batch(jax.random.key(0)))  # compile outside the timing
    calls = [0]

    def run() -> tuple[int, float]:
        calls[0] += 1
        t0 = time.perf_counter()
        count, _ = jax.block_until_ready(run_batch(jax.random.key(calls[0])))
        return int(count), time.perf_counter() - t0

    return run


def rows(seconds: float, sizes: tuple[int, ...] = (1024, 16384), reference_cap: int | None = None) -> list[
        dict[str, float]]:
    """The rows: JAX card plays/s and rich-observation env steps/s against Numba's card plays/s, per size (the
    Numba batch at most ``reference_cap`` tables: on an accelerator host, millions of tables would take the CPU
    minutes for nothing, Numba's rate flattens past ~16k tables)."""
    import jax

    from hearts_env.vector import numba_available

    if not numba_available():
        raise SystemExit("the reference is the Numba engine: install the search extra")
    device = jax.devices()[0]
    where = f"{device.platform}" + (f" {device.device_kind}" if device.platform != "cpu" else "")
    out = []
    for size in sizes:
        ref = size if reference_cap is None else min(size, reference_cap)
        out.append(compare(f"jax ({where}) B={size}, plays/s", jax_plays(size), vector_plays(ref, "numba"), "/s",
                           f"numba VectorDeals B={ref}", seconds, rounds=2))
        out.append(compare(f"jax ({where}) B={size}, rich env steps/s", jax_plays(size, observe=True),
                           vector_plays(ref, "numba"), "/s", f"numba plays/s B={ref}", seconds, rounds=2))
    return out


def ppo_row(updates: int = 10, tables: int = 256) -> dict[str, float]:
    """Learner steps/s of examples/jax_ppo.py (compilation excluded): no reference runs beside it, since the
    apprentice's torch PPO (``run.py --only train``) needs the train extra."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("jax_ppo", Path(__file__).resolve().parents[1] / "examples" /
                                                  "jax_ppo.py")
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    result = example.main(["--tables", str(tables), "--updates", str(updates), "--eval-steps", "8"])
    print(f"{f'jax PPO learner, B={tables}, {updates} updates':<44} {result['learner_steps_per_s']:>12,.0f} /s")
    return {"ours": result["learner_steps_per_s"]}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=6.0, help="time budget per comparison")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1024, 16384], help="batch sizes (tables)")
    parser.add_argument("--reference-cap", type=int, default=None,
                        help="at most this many tables in the Numba reference batch (on an accelerator host)")
    parser.add_argument("--ppo-updates", type=int, default=0,
                        help="also time examples/jax_ppo.py for this many updates (0: not)")
    parser.add_argument("--ppo-tables", type=int, default=256, help="tables of that PPO run")
    args = parser.parse_args(argv)
    print(f"{'measurement':<44} {'ours':>12}         {'reference':<30} {'':>10}")
    rows(args.seconds, tuple(args.sizes), args.reference_cap)
    if args.ppo_updates:
        ppo_row(args.ppo_updates, args.ppo_tables)


if __name__ == "__main__":
    main()
