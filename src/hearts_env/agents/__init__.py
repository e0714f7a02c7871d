"""Agents: the protocol, a registry of named agents, and spec strings.

An agent sees only its seat's :class:`~hearts_env.views.SeatView` and returns a card id from
``view.legal`` — for passing (one card per call) and for playing alike::

    class MyAgent(Agent):
        def act(self, view: SeatView) -> int:
            return min(iter_cards(view.legal))

``reset(rules, seat, seed)`` is called before every deal and ``end_deal(view)`` after it (the
view carries the deal's final points); all randomness must come from ``self.rng`` (a
``numpy.random.Generator`` seeded in ``reset``), so arena runs are reproducible. Every view
carries the deal's whole public history, so agents need no other hook to track the deal.

Agents are built from spec strings by :func:`make_agent`:

- ``"random"``, ``"greedy"``, ``"heuristic"``: registered names, optionally with arguments
  ``"name(k=v, ...)"`` (values are Python literals);
- ``"pkg.module:Factory(k=v)"``: any importable factory;
- ``"sb3:runs/ppo.zip"``: a Stable-Baselines3 model (:class:`~hearts_env.agents.adapters.SB3Agent`);
  any callable policy works through :class:`~hearts_env.agents.adapters.PolicyAgent`;
- ``"seat:COMMAND"`` and ``"hosted:SPEC"``: agents that play from a program of their own through the seat
  protocol, schemes of the evaluation wing (:mod:`hearts_env.evaluation.seat.schemes`);
- other packages register names through the entry-point group ``hearts_env.agents``
  (``name = "pkg.module:Factory"``) and schemes through ``hearts_env.agent_schemes``.

A spec is parsed once, into an :class:`~hearts_env.agents.spec.AgentSpec`.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Sequence
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import numpy as np

from hearts_env.agents.failures import describe, first_line
from hearts_env.agents.spec import AgentError, AgentSpec, Once, Scheme, register_scheme, schemes
from hearts_env.rules import Rules
from hearts_env.views import SeatView

ENTRY_POINT_GROUP = "hearts_env.agents"


class Agent:
    """Base class of agents. Subclasses implement :meth:`act`."""

    name: str = "agent"
    weights_file: Path | None = None
    """The file of learned parameters the agent plays with, if any: the benchmark records its SHA-256, so a
    result names the exact weights behind a spec such as ``ppo``."""

    def __init__(self) -> None:
        self.rules: Rules | None = None
        self.seat = -1
        self.rng = np.random.default_rng()

    def reset(self, rules: Rules, seat: int, seed: int | Sequence[int] | None = None) -> None:
        """Called before each deal: the rules, the agent's seat, and the seed of its randomness
        (anything ``numpy.random.default_rng`` accepts)."""
        self.rules = rules
        self.seat = seat
        self.rng = np.random.default_rng(seed)

    def act(self, view: SeatView) -> int:
        """A card id from ``view.legal`` (a card to pass while passing, else a card to play)."""
        raise NotImplementedError(f"{type(self).__name__} does not implement act(view): an Agent subclass "
                                  f"returns a card id from view.legal (docs/agents.md)")

    def end_deal(self, view: SeatView) -> None:
        """Called with the seat's final view when a deal ends (``view.final_points`` is set):
        the hook for agents that learn or keep statistics. Does nothing by default."""


_REGISTRY: dict[str, Callable[..., Agent]] = {}


def register_agent(name: str, factory: Callable[..., Agent]) -> None:
    """Register ``factory`` (a class or function taking keyword arguments) under ``name``."""
    _REGISTRY[name] = factory


def agent_names() -> list[str]:
    _load()
    return sorted(_REGISTRY)


def parse_agent_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"ismcts(iterations=400)"`` → ``("ismcts", {"iterations": 400})``: the target and arguments of
    :meth:`AgentSpec.parse`, for callers that want only those."""
    parsed = AgentSpec.parse(spec)
    return parsed.target, dict(parsed.kwargs)


def make_agent(spec: str | AgentSpec | Agent) -> Agent:
    """An agent from a spec (see the module docstring), or the agent itself."""
    if isinstance(spec, Agent):
        return spec
    parsed = AgentSpec.parse(spec)
    if parsed.scheme is not None:
        agent = schemes()[parsed.scheme].build(parsed)
    else:
        agent = _build(parsed, _factory(parsed))
    if not callable(getattr(agent, "act", None)):
        raise AgentError(f"agent spec {parsed.text!r} built {agent!r}, which has no act(view) method")
    return agent  # seated agents keep the protocol without subclassing Agent


def _factory(spec: AgentSpec) -> Callable[..., Agent]:
    if ":" in spec.target:
        module_name, _, attr = spec.target.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ImportError as e:
            raise AgentError(f"agent spec {spec.text!r}: cannot import {spec.target!r} ({e})") from None
        except Exception as e:  # the agent's own module failed while it loaded: say where, in one line
            raise AgentError(f"agent spec {spec.text!r}: importing module {module_name!r} raised "
                             f"{first_line(describe(e))}") from None
        try:
            return getattr(module, attr)
        except AttributeError:
            raise AgentError(f"agent spec {spec.text!r}: module {module_name!r} ({module.__file__}) has no "
                             f"{attr!r}") from None
    _load()
    if spec.target not in _REGISTRY:
        raise AgentError(f"unknown agent {spec.target!r}; registered agents: {', '.join(sorted(_REGISTRY))}; "
                         "or use 'pkg.module:Factory(k=v)'")
    factory = _REGISTRY[spec.target]
    entry_point = getattr(factory, "entry_point", None)
    if entry_point is None:
        return factory
    try:
        return entry_point.load()
    except Exception as e:
        raise AgentError(f"agent {spec.target!r} (from {entry_point.value}): loading it raised "
                         f"{first_line(describe(e))}") from None


def _build(spec: AgentSpec, factory: Callable[..., Any]) -> Any:
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):  # a builtin or C factory: its arguments are checked by calling it
        signature = None
    if signature is not None:
        try:
            signature.bind(**spec.kwargs)
        except TypeError as e:
            raise AgentError(f"agent spec {spec.text!r}: bad arguments ({e})") from None
    try:
        agent = factory(**spec.kwargs)
    except ValueError:  # the agent refusing its arguments, in its own words
        raise
    except TypeError as e:
        if signature is None:
            raise AgentError(f"agent spec {spec.text!r}: bad arguments ({e})") from None
        raise AgentError(f"agent spec {spec.text!r}: building it raised {first_line(describe(e))}") from None
    except Exception as e:  # the agent's own code failed: say what and where, in one line
        raise AgentError(f"agent spec {spec.text!r}: building it raised {first_line(describe(e))}") from None
    missing = [m for m in ("reset", "act", "end_deal") if not callable(getattr(agent, m, None))]
    if missing:
        raise AgentError(f"agent spec {spec.text!r} built a {type(agent).__name__}, which lacks "
                         f"{', '.join(missing)}: subclass hearts_env.agents.Agent, which gives reset, end_deal and "
                         f"the seeded rng (docs/agents.md)")
    return agent


def _sb3_agent(spec: AgentSpec) -> Agent:
    from hearts_env.agents.adapters import SB3Agent

    return _build(spec, lambda **kwargs: SB3Agent(path=spec.target, **kwargs))


register_scheme(Scheme("sb3", _sb3_agent, body="call", needs="the path of a model file",
                       example="sb3:runs/ppo.zip"))


@Once  # one thread registers; the others wait for the whole registry
def _load() -> None:
    from hearts_env.agents import basic  # noqa: F401  (registers random, greedy, heuristic)

    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name not in _REGISTRY:
            register_agent(ep.name, _lazy_factory(ep))


def _lazy_factory(ep: Any) -> Callable[..., Agent]:
    def factory(**kwargs: Any) -> Agent:
        return ep.load()(**kwargs)

    factory.entry_point = ep  # type: ignore[attr-defined]  # _factory loads it, so its arguments can be checked
    return factory


__all__ = ["ENTRY_POINT_GROUP", "Agent", "AgentError", "AgentSpec", "Scheme", "agent_names", "make_agent",
           "parse_agent_spec", "register_agent", "register_scheme", "schemes"]
