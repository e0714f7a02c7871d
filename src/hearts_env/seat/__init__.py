"""Seats played by programs of their own: the seat protocol (:mod:`~hearts_env.seat.protocol`), the
sandbox they run in (:mod:`~hearts_env.seat.sandbox`) and the dealer's side (:class:`SeatAgent`).

``make_agent("seat:node examples/seat_bot.js")`` seats any program that speaks the protocol;
``make_agent("hosted:heuristic")`` seats a Python agent spec behind the host program
(``python -m hearts_env.agents.host``). docs/seat-protocol.md describes the protocol.
"""

from hearts_env.seat.client import SeatAgent, SeatError, host_command, seat_seed
from hearts_env.seat.protocol import PROTOCOL, ProtocolError
from hearts_env.seat.sandbox import Sandbox, SandboxError

__all__ = ["PROTOCOL", "ProtocolError", "Sandbox", "SandboxError", "SeatAgent", "SeatError", "host_command",
           "seat_seed"]
