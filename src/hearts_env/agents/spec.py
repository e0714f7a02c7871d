"""Agent specs, parsed once: :class:`AgentSpec` is the value the registry, the arena, the benchmark, the web page
and the CLI all take, and every error of a spec's shape is raised here.

A spec is ``name`` or ``name(k=v, ...)`` (a registered agent; values are Python literals),
``pkg.module:Factory(k=v)`` (any importable factory), or ``SCHEME:BODY`` for a registered scheme: ``sb3:PATH(k=v)``
here (a Stable-Baselines3 model), and the evaluation wing's ``seat:COMMAND`` (a program that speaks the seat
protocol) and ``hosted:SPEC`` (a Python agent behind the host program), which other packages may join through the
entry-point group ``hearts_env.agent_schemes``. A scheme's entry point names a :class:`Scheme`.
"""

from __future__ import annotations

import ast
import re
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from types import MappingProxyType
from typing import Any

SCHEME_GROUP = "hearts_env.agent_schemes"


class AgentError(ValueError):
    """An unknown agent name, a bad spec string or bad arguments."""


@dataclass(frozen=True)
class Scheme:
    """A spec scheme ``NAME:BODY``: how its body is read and how its agent is built.

    ``body="call"`` reads ``BODY`` as ``TARGET(k=v, ...)`` (the target up to the arguments: a path, say);
    ``body="verbatim"`` keeps the whole body as the target (a command line, another spec). ``seated`` schemes play
    from a program of their own through the seat protocol. ``build(spec)`` makes the agent with default options;
    the evaluation wing builds seated agents itself, under its sandbox and secret. ``needs`` and ``example`` say
what a body is, for the error of an empty one.
    """

    name: str
    build: Callable[[AgentSpec], Any]
    body: str = "call"
    seated: bool = False
    needs: str = "a target"
    example: str = ""


_CALL_RE = re.compile(r"^\s*([^()]+?)\s*(?:\((.*)\))?\s*$", re.S)
_NAME_RE = re.compile(r"^[\w.:-]+$")


@dataclass(frozen=True)
class AgentSpec:
    """One agent spec, parsed: ``scheme`` (None for a registered name or ``pkg.module:Factory``), ``target`` (the
    name, the factory, the model's path, the program's command or the hosted spec) and ``kwargs``. ``str(spec)`` is
    the text it was parsed from, so specs keep their spelling in records and results."""

    text: str
    scheme: str | None
    target: str
    kwargs: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    @classmethod
    def parse(cls, spec: str | AgentSpec) -> AgentSpec:
        """The parsed spec, or :class:`AgentError` naming what is wrong and what is allowed."""
        if isinstance(spec, AgentSpec):
            return spec
        if not isinstance(spec, str):
            raise AgentError(f"an agent spec is a string such as 'heuristic' or 'pimc(n=40)', got {spec!r}")
        text = spec.strip()
        head, colon, body = text.partition(":")
        if colon and head in schemes():
            scheme = schemes()[head]
            body = body.strip()
            if scheme.body == "verbatim":
                if not body:
                    raise AgentError(f"agent spec {text!r}: '{head}:' needs {scheme.needs}"
                                     + (f", e.g. {scheme.example!r}" if scheme.example else ""))
                return cls(text, head, body)
            m = _CALL_RE.match(body)
            if not m:
                raise AgentError(f"cannot parse agent spec {text!r}; expected '{head}:TARGET' or "
                                 f"'{head}:TARGET(k=v, ...)'")
            return cls(text, head, m.group(1), _kwargs(text, m.group(2)))
        m = _CALL_RE.match(text)
        if not m or not _NAME_RE.match(m.group(1)):
            raise AgentError(f"cannot parse agent spec {text!r}; expected 'name', 'name(k=v, ...)', "
                             f"'pkg.module:Factory(k=v, ...)' or a scheme ({', '.join(sorted(schemes()))}:...)")
        return cls(text, None, m.group(1), _kwargs(text, m.group(2)))

    @property
    def seated(self) -> bool:
        """Whether the agent plays from a program of its own through the seat protocol."""
        return self.scheme is not None and schemes()[self.scheme].seated

    @property
    def imports_code(self) -> bool:
        """Whether building it imports a module or reads a file the spec names (anything but a registered name)."""
        return self.scheme is not None or ":" in self.target

    def __str__(self) -> str:
        return self.text


def _kwargs(text: str, body: str | None) -> Mapping[str, Any]:
    kwargs: dict[str, Any] = {}
    if body and body.strip():
        try:
            call = ast.parse(f"f({body})", mode="eval").body
        except SyntaxError as e:
            raise AgentError(f"cannot parse the arguments of agent spec {text!r}: {e.msg}") from None
        if not isinstance(call, ast.Call) or call.args or any(kw.arg is None for kw in call.keywords):
            raise AgentError(f"agent spec {text!r}: arguments must be keyword arguments k=v")
        for kw in call.keywords:
            try:
                kwargs[str(kw.arg)] = ast.literal_eval(kw.value)
            except ValueError:
                raise AgentError(f"agent spec {text!r}: the value of {kw.arg!r} is not a Python literal") from None
    return MappingProxyType(kwargs)


_SCHEMES: dict[str, Scheme] = {}


class Once:
    """``load`` run once, at the first call: other threads wait until it has finished (a thread that saw a registry
    half-loaded took 'remote:NAME' for an unknown scheme), and a call from within the load itself returns at once.
    ``done`` is set however the load ended, so a failing entry point is said once."""

    def __init__(self, load: Callable[[], None]):
        self._load = load
        self._lock = threading.RLock()
        self._loading = False
        self.done = False

    def __call__(self) -> None:
        if self.done:
            return
        with self._lock:
            if self.done or self._loading:
                return
            self._loading = True
            try:
                self._load()
            finally:
                self._loading, self.done = False, True


def register_scheme(scheme: Scheme) -> None:
    """Make ``SCHEME:BODY`` specs mean ``scheme`` (what the entry-point group does for installed packages)."""
    _SCHEMES[scheme.name] = scheme


def schemes() -> Mapping[str, Scheme]:
    """Every known scheme by name: this package's and those registered through the entry-point group."""
    _load_schemes()
    return MappingProxyType(_SCHEMES)


@Once
def _load_schemes() -> None:
    for ep in entry_points(group=SCHEME_GROUP):
        if ep.name not in _SCHEMES:
            scheme = ep.load()
            if not isinstance(scheme, Scheme) or scheme.name != ep.name:
                raise AgentError(f"entry point {ep.name} = {ep.value} of {SCHEME_GROUP} is not the Scheme "
                                 f"named {ep.name!r}")
            _SCHEMES[ep.name] = scheme


__all__ = ["SCHEME_GROUP", "AgentError", "AgentSpec", "Scheme", "register_scheme", "schemes"]
