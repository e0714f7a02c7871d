"""Seats played by programs of their own: the seat protocol (:mod:`~hearts_env.evaluation.seat.protocol`), the
sandbox they run in (:mod:`~hearts_env.evaluation.seat.sandbox`) and the dealer's side (:class:`SeatAgent`).

``make_agent("seat:node examples/seat_bot.js")`` seats any program that speaks the protocol;
``make_agent("hosted:heuristic")`` seats a Python agent spec behind the host program
(``python -m hearts_env.evaluation.seat.host``). docs/seat-protocol.md describes the protocol.
"""

from hearts_env.evaluation.seat.client import SeatAgent, SeatError, host_command, seat_seed
from hearts_env.evaluation.seat.protocol import PROTOCOL, ProtocolError
from hearts_env.evaluation.seat.sandbox import Sandbox, SandboxError
from hearts_env.evaluation.seat.schemes import seated_agent

__all__ = ["PROTOCOL", "ProtocolError", "Sandbox", "SandboxError", "SeatAgent", "SeatError", "host_command",
           "seat_seed", "seated_agent"]
