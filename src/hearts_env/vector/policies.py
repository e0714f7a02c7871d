"""The rule players the batched engine runs itself, resolved from agent specs.

``"random"``, ``"greedy"`` and ``"heuristic"`` — with the agent's parameters, e.g.
``"heuristic(moon_alarm=6, shoot=False)"``. The agent object is built from the spec, so its
class validates the parameters and holds their defaults; the kernels get them in the array ``A``
(:mod:`hearts_env.vector._strategies`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from hearts_env.agents import AgentError, make_agent, parse_agent_spec
from hearts_env.agents.basic import GreedyAgent, HeuristicAgent
from hearts_env.vector import _kernels
from hearts_env.vector._strategies import A_CHASE, A_MOON_ALARM, A_SHOOT, A_SIZE

POLICIES = ("random", "greedy", "heuristic")
"""The rule players the batched engine runs itself (``advance``); all but ``"random"`` need Numba."""

_CHOICE_MODES = {"greedy": _kernels.GREEDY_CHOICE, "heuristic": _kernels.HEURISTIC_CHOICE}
_ADVANCE_MODES = {"random": _kernels.ADVANCE_RANDOM, "greedy": _kernels.ADVANCE_GREEDY,
                  "heuristic": _kernels.ADVANCE_HEURISTIC}


@dataclass(frozen=True)
class KernelPolicy:
    """A rule player as the kernels run it: its name, its drive modes and its parameter array."""

    name: str
    advance_mode: int
    choice_mode: int | None
    """``None`` for ``"random"``, which has no deterministic choice."""
    params: np.ndarray


def policy_name(spec: str) -> str | None:
    """The player's name if ``spec`` names one the batched engine runs, else ``None``."""
    try:
        name, kwargs = parse_agent_spec(spec)
    except AgentError:
        return None
    if name == "greedy" and kwargs.get("paper"):
        return None  # the paper's lead rule is not vectorized: callers fall back to the Python agent
    return name if name in POLICIES else None


@functools.lru_cache(maxsize=256)
def kernel_policy(spec: str) -> KernelPolicy:
    """The kernel form of ``spec`` (cached; its parameter array is read-only); raises ``ValueError``
    for a player the batched engine does not run and the agent's own error for bad parameters."""
    name = policy_name(spec) if isinstance(spec, str) else None
    if name is None:
        raise ValueError(f"vectorized policies are {', '.join(POLICIES)} (with their parameters, e.g. "
                         f"'heuristic(moon_alarm=6)'); got {spec!r}")
    agent = make_agent(spec)
    if isinstance(agent, GreedyAgent) and agent.paper:
        raise ValueError(f"{spec!r}: the batched engine runs greedy's default lead rule only, not paper=True")
    params = np.zeros(A_SIZE, np.int64)
    if isinstance(agent, HeuristicAgent):
        params[A_MOON_ALARM] = agent.moon_alarm
        params[A_SHOOT] = agent.shoot
        params[A_CHASE] = agent.chase
    params.flags.writeable = False
    return KernelPolicy(name, _ADVANCE_MODES[name], _CHOICE_MODES.get(name), params)
