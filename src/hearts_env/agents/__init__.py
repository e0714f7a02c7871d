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
- other packages register names through the entry-point group ``hearts_env.agents``
  (``name = "pkg.module:Factory"``).
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import os
import re
import shlex
from collections.abc import Callable, Sequence
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, cast

import numpy as np

from hearts_env.rules import Rules
from hearts_env.seat import Sandbox, SeatAgent, host_command
from hearts_env.views import SeatView

ENTRY_POINT_GROUP = "hearts_env.agents"


class AgentError(ValueError):
    """An unknown agent name, a bad spec string or bad arguments."""


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


_SPEC_RE = re.compile(r"^\s*([\w.:-]+)\s*(?:\((.*)\))?\s*$", re.S)


def parse_agent_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"ismcts(iterations=400)"`` → ``("ismcts", {"iterations": 400})``."""
    m = _SPEC_RE.match(spec)
    if not m:
        raise AgentError(f"cannot parse agent spec {spec!r}; expected 'name' or 'name(k=v, ...)'")
    name, body = m.group(1), m.group(2)
    kwargs: dict[str, Any] = {}
    if body and body.strip():
        try:
            call = ast.parse(f"f({body})", mode="eval").body
        except SyntaxError as e:
            raise AgentError(f"cannot parse the arguments of agent spec {spec!r}: {e.msg}") from None
        if not isinstance(call, ast.Call) or call.args:
            raise AgentError(f"agent spec {spec!r}: arguments must be keyword arguments k=v")
        for kw in call.keywords:
            try:
                kwargs[str(kw.arg)] = ast.literal_eval(kw.value)
            except ValueError:
                raise AgentError(f"agent spec {spec!r}: the value of {kw.arg!r} is not a Python literal") from None
    return name, kwargs


def make_agent(spec: str | Agent) -> Agent:
    """An agent from a spec string (see the module docstring), or the agent itself."""
    if isinstance(spec, Agent):
        return spec
    if spec.startswith(SEATED):  # a program of its own: "seat:COMMAND" or "hosted:SPEC"
        return cast(Agent, seated_agent(spec))  # it keeps the agent protocol without subclassing Agent
    if spec.startswith("sb3:"):  # "sb3:PATH" or "sb3:PATH(k=v, ...)"
        from hearts_env.agents.adapters import SB3Agent

        m = re.match(r"^sb3:([^()]+?)\s*(?:\((.*)\))?\s*$", spec, re.S)
        if not m:
            raise AgentError(f"cannot parse agent spec {spec!r}; expected 'sb3:PATH' or 'sb3:PATH(k=v, ...)'")
        _, kwargs = parse_agent_spec(f"sb3({m.group(2) or ''})")
        return SB3Agent(path=m.group(1), **kwargs)
    name, kwargs = parse_agent_spec(spec)
    if ":" in name:
        module_name, _, attr = name.partition(":")
        try:
            factory = getattr(importlib.import_module(module_name), attr)
        except (ImportError, AttributeError) as e:
            raise AgentError(f"agent spec {spec!r}: cannot import {name!r} ({e})") from None
    else:
        _load()
        if name not in _REGISTRY:
            raise AgentError(f"unknown agent {name!r}; registered agents: {', '.join(sorted(_REGISTRY))}; "
                             "or use 'pkg.module:Factory(k=v)'")
        factory = _REGISTRY[name]
    try:
        agent = factory(**kwargs)
    except TypeError as e:
        raise AgentError(f"agent spec {spec!r}: bad arguments ({e})") from None
    if not callable(getattr(agent, "act", None)):
        raise AgentError(f"agent spec {spec!r} built {agent!r}, which has no act(view) method")
    return agent


SEATED = ("seat:", "hosted:")
"""Spec prefixes of agents that play from a process of their own through the seat protocol."""


def seated_agent(spec: str, sandbox: Sandbox | None = None, secret: int | None = None,
                 cache: str | None = None, fill_cache: bool = False) -> SeatAgent:
    """The dealer's side of a seated spec: ``seat:COMMAND`` runs a program that speaks the seat protocol
    (docs/seat-protocol.md; words of the command that name files here are made absolute paths);
    ``hosted:SPEC`` runs agent ``SPEC`` behind the host program (:mod:`hearts_env.agents.host`),
    importing agent modules from the working folder too."""
    if spec.startswith("seat:"):
        command = spec[len("seat:"):].strip()
        if not command:
            raise AgentError("agent spec 'seat:' needs the command of a program, e.g. 'seat:node bot.js'")
        words = [os.path.abspath(w) if not os.path.isabs(w) and os.path.exists(w) else w for w in shlex.split(command)]
        files = tuple(w for w in words if os.path.isabs(w) and os.path.exists(w))
        return SeatAgent(words, sandbox=_showing(sandbox, files), secret=secret, cache=cache,
                         fill_cache=fill_cache)  # it runs in an empty folder of its own
    inner = spec[len("hosted:"):].strip()
    if not inner or inner.startswith(SEATED):
        raise AgentError(f"agent spec {spec!r}: 'hosted:' takes the spec of a Python agent, e.g. 'hosted:heuristic'")
    files = (os.getcwd(),)
    if inner.startswith("sb3:"):  # the model file, as the host will resolve it
        files += (os.path.abspath(inner[len("sb3:"):].split("(")[0].strip()),)
    return SeatAgent(host_command(inner, paths=[os.getcwd()]), sandbox=_showing(sandbox, files), secret=secret,
                     cache=cache, fill_cache=fill_cache)


def _showing(sandbox: Sandbox | None, files: tuple[str, ...]) -> Sandbox:
    """``sandbox`` with ``files`` (the agent's own) kept visible in it."""
    base = sandbox or Sandbox()
    return dataclasses.replace(base, visible=(*base.visible, *files))


_loaded = False


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    from hearts_env.agents import basic, probes  # noqa: F401  (register random, greedy, heuristic; the probes)

    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name not in _REGISTRY:
            register_agent(ep.name, _lazy_factory(ep))


def _lazy_factory(ep: Any) -> Callable[..., Agent]:
    def factory(**kwargs: Any) -> Agent:
        return ep.load()(**kwargs)

    return factory


__all__ = ["ENTRY_POINT_GROUP", "SEATED", "Agent", "AgentError", "agent_names", "make_agent", "parse_agent_spec",
           "register_agent", "seated_agent"]
