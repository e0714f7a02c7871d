"""The spec schemes of seated agents, registered through the entry-point group ``hearts_env.agent_schemes``:
``seat:COMMAND`` (a program that speaks the seat protocol) and ``hosted:SPEC`` (a Python agent spec behind the host
program). :func:`seated_agent` builds either under the dealer's sandbox and secret."""

from __future__ import annotations

import dataclasses
import os
import re
import shlex

from hearts_env.agents import AgentError, AgentSpec, Scheme
from hearts_env.evaluation.seat.client import RemoteSeatAgent, SeatAgent, host_command
from hearts_env.evaluation.seat.sandbox import Sandbox


def seated_agent(spec: str | AgentSpec, sandbox: Sandbox | None = None, secret: int | None = None,
                 cache: str | None = None, fill_cache: bool = False) -> SeatAgent:
    """The dealer's side of a seated spec: ``seat:COMMAND`` runs a program that speaks the seat protocol
    (docs/seat-protocol.md; words of the command that name files here are made absolute paths);
    ``hosted:SPEC`` runs agent ``SPEC`` behind the host program (:mod:`hearts_env.evaluation.seat.host`),
    importing agent modules from the working folder too; ``remote:NAME`` plays a program elsewhere that joined the
    run's seat server as seat ``NAME`` (:mod:`hearts_env.evaluation.seat.remote`)."""
    parsed = AgentSpec.parse(spec)
    if parsed.scheme == "remote":
        if not REMOTE_NAME.fullmatch(parsed.target):
            raise AgentError(f"agent spec {parsed.text!r}: a remote seat's name is letters, digits, '_', '.', '-' "
                             "(at most 64), e.g. 'remote:alice'")
        return RemoteSeatAgent(parsed.target, secret=secret)
    if parsed.scheme == "seat":
        words = [os.path.abspath(w) if not os.path.isabs(w) and os.path.exists(w) else w
                 for w in shlex.split(parsed.target)]
        files = tuple(w for w in words if os.path.isabs(w) and os.path.exists(w))
        return SeatAgent(words, sandbox=_showing(sandbox, files), secret=secret, cache=cache,
                         fill_cache=fill_cache)
    if parsed.scheme != "hosted":
        raise AgentError(f"agent spec {parsed.text!r} is not seated; seated specs are 'seat:COMMAND', "
                         "'hosted:SPEC' and 'remote:NAME'")
    inner = AgentSpec.parse(parsed.target)
    if inner.seated:
        raise AgentError(f"agent spec {parsed.text!r}: 'hosted:' takes the spec of a Python agent, "
                         "e.g. 'hosted:heuristic'")
    files = (os.getcwd(),)
    if inner.scheme == "sb3":  # the model file, as the host will resolve it
        files += (os.path.abspath(inner.target),)
    return SeatAgent(host_command(inner.text, paths=[os.getcwd()]), sandbox=_showing(sandbox, files), secret=secret,
                     cache=cache, fill_cache=fill_cache)


def _showing(sandbox: Sandbox | None, files: tuple[str, ...]) -> Sandbox:
    """``sandbox`` with ``files`` (the agent's own) kept visible in it, and the program started in the command's
    folder, so that relative paths it reads mean what they mean to the user."""
    base = sandbox or Sandbox()
    workdir = base.workdir if base.workdir is not None else os.getcwd()
    return dataclasses.replace(base, visible=(*base.visible, *files), workdir=workdir)


REMOTE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
"""A remote seat's name (:data:`hearts_env.evaluation.seat.remote.NAME`)."""

SEAT = Scheme("seat", seated_agent, body="verbatim", seated=True, needs="the command of a program",
              example="seat:node bot.js")
HOSTED = Scheme("hosted", seated_agent, body="verbatim", seated=True, needs="the spec of a Python agent",
                example="hosted:heuristic")

__all__ = ["HOSTED", "REMOTE", "SEAT", "seated_agent"]
REMOTE = Scheme("remote", seated_agent, body="verbatim", seated=True, needs="the name of a remote seat",
                example="remote:alice")
