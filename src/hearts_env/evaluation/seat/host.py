"""The seat host: ``python -m hearts_env.evaluation.seat.host [--path DIR] SPEC`` plays any agent spec
(``make_agent``: registered names, ``module:Factory``, entry points, ``sb3:PATH``) through the seat
protocol (:mod:`hearts_env.evaluation.seat.protocol`), so a dealer never imports the agent's code.

The protocol runs over the stdin and stdout the host was started with, which it keeps to itself:
before any agent code is imported, file descriptor 1 is pointed at stderr and 0 at ``/dev/null``, so
what an agent prints cannot reach the dealer as a reply. Whatever an agent raises — ``Exception``,
``SystemExit``, ``KeyboardInterrupt``, an exception whose message itself raises — is answered as an
``error`` reply; only the death of the process ends the seat. On the first ``reset`` under new rules
the host warms the agent up on one throwaway deal (kernels compile, weights load), so the agent's first
real decision is not charged for it.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any, BinaryIO

from hearts_env.agents.failures import card_of, describe
from hearts_env.agents.spec import AgentSpec
from hearts_env.evaluation.seat.protocol import PROTOCOL, ProtocolError, decode, encode, view_from_json


class Host:
    """The loop: read a request, call the agent, write the reply."""

    def __init__(self, spec: str, reader: BinaryIO, writer: BinaryIO):
        self.spec = spec
        self.reader = reader
        self.writer = writer
        self.agent: Any = None
        self.rules: Any = None
        self.warmed: set[str] = set()

    def send(self, message: dict[str, Any]) -> None:
        self.writer.write(encode(message))
        self.writer.flush()

    def run(self) -> int:
        while True:
            line = self.reader.readline()
            if not line:
                return 0
            try:
                request = decode(line.rstrip(b"\n"))
            except ProtocolError as e:
                self.send({"type": "error", "message": f"the host could not read a request: {e}"})
                continue
            if request["type"] == "goodbye":
                return 0
            try:
                self.send(self.answer(request))
            except BaseException as e:  # the agent's failure, whatever it raised: the dealer forfeits the game
                self.send({"type": "error", "message": describe(e)})

    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        kind = request["type"]
        if kind == "hello":
            if request.get("protocol") != PROTOCOL:
                return {"type": "hello", "protocol": PROTOCOL,
                        "agent": {"refused": f"this host speaks protocol {PROTOCOL}"}}
            from hearts_env.agents import make_agent

            self.agent = make_agent(self.spec)
            return {"type": "hello", "protocol": PROTOCOL, "agent": _agent_info(self.agent)}
        if self.agent is None:
            raise ProtocolError(f"{kind!r} before hello")
        if kind == "reset":
            from hearts_env.rules import make_rules

            rules = make_rules(request["rules"])
            if rules.spec() not in self.warmed:
                _warm_up(self.agent, rules, request["seat"])
                self.warmed.add(rules.spec())
            self.rules = rules
            self.agent.reset(rules, request["seat"], seed=request["seed"])
            return {"type": "ready"}
        if kind == "act":
            card = self.agent.act(view_from_json(request["view"], self.rules))
            return {"type": "card", "card": card_of(card, self.rules.deck_obj.size - 1)}
        if kind == "end_deal":
            self.agent.end_deal(view_from_json(request["view"], self.rules))
            notes = getattr(self.agent, "deal_notes", None)  # a reference program's own account of the deal
            return {"type": "ready"} if notes is None else {"type": "ready", "notes": dict(notes())}
        raise ProtocolError(f"unknown request type {kind!r}")


def _agent_info(agent: Any) -> dict[str, Any]:
    """What the host says of its agent in the handshake: its name and, when it plays with a weights file,
    the file's name and SHA-256 (the benchmark records it)."""
    import hashlib

    info: dict[str, Any] = {"name": str(getattr(agent, "name", type(agent).__name__)), "weights": None}
    path = getattr(agent, "weights_file", None)
    if path is not None:
        info["weights"] = {"file": Path(path).name, "sha256": hashlib.sha256(Path(path).read_bytes()).hexdigest()}
    return info


def _warm_up(agent: Any, rules: Any, seat: int) -> None:
    """One throwaway deal in which ``agent`` makes every decision of ``seat`` (the others play their lowest
    legal card): loads what the agent loads lazily and compiles what it compiles on first use."""
    from hearts_env.engine import Deal
    from hearts_env.views import SeatView

    agent.reset(rules, seat, seed=0)
    deal = Deal.random(rules, seed=0)
    while not deal.is_over:
        if deal.current == seat:
            deal.apply(agent.act(SeatView.of(deal, seat)))  # as the arena applies it: nothing coerced
        else:
            deal.apply(deal.legal_cards()[0])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hearts_env.evaluation.seat.host",
                                     description="play an agent spec through the seat protocol on stdin/stdout")
    parser.add_argument("spec", help="the agent spec (docs/agents.md)")
    parser.add_argument("--path", action="append", default=[], help="a folder to import agent modules from")
    args = parser.parse_args(argv)
    reader = os.fdopen(os.dup(0), "rb")
    writer = os.fdopen(os.dup(1), "wb")
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(2, 1)  # what the agent prints goes to stderr, never into the protocol
    sys.stdout = sys.stderr
    for folder in reversed(args.path):
        sys.path.insert(0, folder)
    spec = args.spec
    if (parsed := AgentSpec.parse(spec)).scheme == "sb3" and args.path and not os.path.isabs(parsed.target):
        spec = f"sb3:{os.path.join(args.path[0], spec[4:])}"
    return Host(spec, reader, writer).run()


if __name__ == "__main__":
    sys.exit(main())
