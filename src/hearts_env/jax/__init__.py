"""``hearts_env.jax``: the exact rules of Hearts as pure JAX functions (the ``jax`` extra).

One deal is a :class:`State`, a pytree of arrays; the rules are a :class:`RulesData`, a pytree of arrays
built from :func:`hearts_env.tables.tables_of` and passed as an argument, so one compiled program serves
every rule set of a deck. The functions name that argument ``rules_data`` (``rules``, everywhere in the package,
is a :class:`hearts_env.rules.Rules`). ``jax.vmap`` batches every function; ``jax.jit`` compiles them.
:class:`HeartsJaxEnv` plays episodes with pgx's ``Env`` interface.

>>> import jax
>>> from hearts_env import jax as hj
>>> rules_data = hj.rules_data("standard")
>>> state = hj.init(jax.random.key(0), rules_data, pass_direction=0)
>>> int(hj.legal_action_mask(state, rules_data).sum())  # the 2♣ opens
1
>>> def play(state, key):
...     return hj.step(state, hj.random_legal_action(key, state, rules_data), rules_data), None
>>> state, _ = jax.lax.scan(play, state, jax.random.split(jax.random.key(1), 52))
>>> int(state.phase), int(state.points.sum()) in (26, 78)
(2, True)

Card sets are four ``uint32`` suit words (bit ``rank`` of word ``suit``), not ``uint64`` masks: JAX keeps
64-bit integers behind a global flag (``jax_enable_x64``) that would change every other array of a user's
program, and 32-bit words are the accelerators' native width. See docs/jax.md.
"""

from typing import Any

from hearts_env.jax._engine import (
    DONE,
    PASS,
    PLAY,
    State,
    deal_hands,
    draw_direction,
    init,
    init_from_hands,
    kth_card,
    legal_action_mask,
    legal_words,
    penalty_points,
    popcount,
    random_legal_action,
    score,
    step,
    to_mask,
    to_words,
    trick_points,
    uniform_legal_action,
)
from hearts_env.jax._env import EnvState, HeartsJaxEnv
from hearts_env.jax._observe import OBSERVATIONS, observation_size, observe, ratio
from hearts_env.jax._players import greedy_action
from hearts_env.jax._rules import RulesData, rules_data, suit_words

__all__ = ["DONE", "OBSERVATIONS", "PASS", "PLAY", "EnvState", "HeartsJaxEnv", "RulesData", "State", "deal_hands",
           "draw_direction", "greedy_action", "init", "init_from_hands", "kth_card", "legal_action_mask", "legal_words",
           "observation_size", "observe", "penalty_points", "popcount", "random_legal_action", "ratio", "rules_data",
           "score", "step", "suit_words", "to_mask", "to_words", "trick_points", "uniform_legal_action"]


def __getattr__(name: str) -> Any:
    """The deprecated ``HeartsEnv`` (now :class:`HeartsJaxEnv`), kept for one release with a warning."""
    if name == "HeartsEnv":
        import warnings

        warnings.warn("hearts_env.jax.HeartsEnv is now HeartsJaxEnv; the old name goes in hearts-env 0.3.0",
                      DeprecationWarning, stacklevel=2)
        return HeartsJaxEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
