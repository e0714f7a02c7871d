"""The seat protocol's JSON Schema (schemas/hearts-seat-1.schema.json) is valid, accepts every message a real
exchange between the dealer (SeatAgent) and the host produces, under the 52- and the 32-card deck, and refuses
malformed ones."""

from __future__ import annotations

import copy
import io
import json
import random
from importlib.resources import files
from types import SimpleNamespace
from typing import Any

import pytest

from hearts_env import Deal, __version__
from hearts_env.evaluation.seat import client
from hearts_env.evaluation.seat.client import SeatAgent, seat_seed
from hearts_env.evaluation.seat.host import Host, _agent_info
from hearts_env.evaluation.seat.protocol import PROTOCOL, deck_names, decode, encode, view_to_json
from hearts_env.rules import make_rules
from hearts_env.views import SeatView

jsonschema = pytest.importorskip("jsonschema")


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return json.loads((files("hearts_env") / "schemas" / "hearts-seat-1.schema.json").read_text())


@pytest.fixture(scope="module")
def validator(schema):
    return jsonschema.Draft202012Validator(schema)


def _on_the_wire(message: dict[str, Any]) -> dict[str, Any]:
    """The message as the other side reads it: encoded to one line and decoded."""
    line = encode(message)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    return decode(line.rstrip(b"\n"))


def _valid(validator, message: dict[str, Any]) -> None:
    errors = sorted(validator.iter_errors(_on_the_wire(message)), key=str)
    assert not errors, f"{message!r:.300}: {errors[0].message:.300}"


def _invalid(validator, message: dict[str, Any]) -> None:
    assert not validator.is_valid(message), f"accepted {message!r:.300}"


def test_the_schema_is_valid_draft_2020_12(schema):
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    for name in (ref["$ref"].split("/")[-1] for ref in schema["oneOf"]):
        assert schema["$defs"][name]["description"]
        assert "const" in schema["$defs"][name]["properties"]["type"]


def _dummy_launch(*args: Any, **kwargs: Any) -> SimpleNamespace:
    """Stands in for a launched program: the exchange below runs in this process, without pipes."""
    return SimpleNamespace(process=SimpleNamespace(poll=lambda: 0), kill=lambda: None)


@pytest.fixture
def exchange(monkeypatch, validator):
    """Every line SeatAgent writes goes to a real Host (agent ``heuristic``) in this process and every reply
    comes back, each validated against the schema on the way; returns the list of every line, in order."""
    lines: list[dict[str, Any]] = []
    hosts: dict[int, Host] = {}

    def call(self, message, expected, timeout):
        request = _on_the_wire(message)
        _valid(validator, request)
        lines.append(request)
        host = hosts.setdefault(id(self), Host("heuristic", io.BytesIO(), io.BytesIO()))
        reply = _on_the_wire(host.answer(request))
        _valid(validator, reply)
        lines.append(reply)
        assert reply["type"] == expected
        return reply

    monkeypatch.setattr(client, "launch", _dummy_launch)
    monkeypatch.setattr(SeatAgent, "_call", call)
    return lines


@pytest.mark.parametrize("rules, direction", [("standard", "left"), ("standard", "hold"), ("dutch", "hold")])
def test_every_message_of_a_dealer_host_exchange_validates(exchange, validator, rules, direction):
    deal = Deal.random(rules, seed=1, pass_direction=direction)
    agents = [SeatAgent(["seat-program"]) for _ in range(4)]
    for seat, agent in enumerate(agents):
        assert agent.start() == {"name": "heuristic", "weights": None}
        agent.reset(deal.rules, seat, seed=[0, 1, 0, 0, seat])
    decisions = 0
    while not deal.is_over:
        seat = deal.current
        card = agents[seat].act(SeatView.of(deal, seat), timeout=10.0)
        deal.apply(card)
        decisions += 1
    for seat, agent in enumerate(agents):
        agent.end_deal(SeatView.of(deal, seat))
    size = deal.rules.deck_obj.size
    assert decisions == size + (4 * deal.rules.pass_count if deal.pass_direction else 0)
    kinds = [line["type"] for line in exchange]
    assert kinds.count("act") == kinds.count("card") == decisions
    assert kinds.count("hello") == 8 and kinds.count("reset") == kinds.count("end_deal") == 4
    resets = [line for line in exchange if line["type"] == "reset"]
    assert all(len(r["deck"]) == size for r in resets)
    cards = [c for line in exchange if line["type"] == "act" for c in line["view"]["hand"]]
    assert max(cards) == size - 1
    finals = [line["view"] for line in exchange if line["type"] == "end_deal"]
    assert all(v["phase"] == "DONE" and v["final_points"] == list(deal.points) for v in finals)
    for agent in agents:
        agent._launched = None  # the dummies need no goodbye


@pytest.mark.parametrize("rules, direction", [("standard", "left"), ("standard", "right"), ("dutch", "hold")])
def test_views_of_every_seat_at_every_decision_validate(validator, rules, direction):
    """Built straight from the protocol's functions, with random legal cards: the view of the seat to act at
    every decision, and every seat's view of the finished deal."""
    deal = Deal.random(rules, seed=2, pass_direction=direction)
    _valid(validator, {"type": "reset", "rules": deal.rules.spec(), "deck": deck_names(deal.rules), "seat": 0,
                       "seed": seat_seed([0, 1, 0, 0, 0], secret=7)})
    rng = random.Random(1)
    while not deal.is_over:
        _valid(validator, {"type": "act", "view": view_to_json(SeatView.of(deal, deal.current))})
        card = rng.choice(deal.legal_cards())
        _valid(validator, {"type": "card", "card": int(card)})
        deal.apply(card)
    for seat in range(4):
        _valid(validator, {"type": "end_deal", "view": view_to_json(SeatView.of(deal, seat))})


def test_the_handshake_goodbye_and_error_replies_validate(validator, tmp_path):
    _valid(validator, {"type": "hello", "protocol": PROTOCOL, "dealer": f"hearts-env {__version__}"})
    _valid(validator, {"type": "ready"})
    _valid(validator, {"type": "goodbye"})
    weights = tmp_path / "model.zip"
    weights.write_bytes(b"weights")

    class Weighted:
        name = "weighted"
        weights_file = str(weights)

    info = _agent_info(Weighted())
    assert info["weights"]["file"] == "model.zip"
    _valid(validator, {"type": "hello", "protocol": PROTOCOL, "agent": info})
    _valid(validator, {"type": "hello", "protocol": PROTOCOL, "agent": {"name": "seat_bot.js", "weights": None}})
    # the host refuses a dealer of another version, and answers requests it cannot serve with an error
    host = Host("heuristic", io.BytesIO(), io.BytesIO())
    _valid(validator, host.answer({"type": "hello", "protocol": 2, "dealer": "hearts-env 9"}))
    requests = [b"not json\n", encode({"type": "act", "view": {}}),
                encode({"type": "hello", "protocol": PROTOCOL, "dealer": "test"}),
                encode({"type": "act", "view": {"phase": "PLAY"}}), encode({"type": "shuffle"}),
                encode({"type": "goodbye"})]
    out = io.BytesIO()
    assert Host("heuristic", io.BytesIO(b"".join(requests)), out).run() == 0
    replies = [decode(line) for line in out.getvalue().splitlines()]
    assert [r["type"] for r in replies] == ["error", "error", "hello", "error", "error"]
    for reply in replies:
        _valid(validator, reply)


@pytest.fixture(scope="module")
def act_message() -> dict[str, Any]:
    deal = Deal.random("standard", seed=1, pass_direction="left")
    return {"type": "act", "view": view_to_json(SeatView.of(deal, deal.current))}


def test_malformed_messages_are_rejected(validator, act_message):
    assert validator.is_valid(act_message)
    bad_card = copy.deepcopy(act_message)
    bad_card["view"]["hand"].append(52)
    _invalid(validator, bad_card)
    no_legal = copy.deepcopy(act_message)
    del no_legal["view"]["legal"]
    _invalid(validator, no_legal)
    reset = {"type": "reset", "rules": "standard", "deck": deck_names(make_rules("standard")), "seat": 0, "seed": 0}
    assert validator.is_valid(reset)
    assert validator.is_valid({**reset, "seed": 2**64 - 1})
    _invalid(validator, {**reset, "seed": -1})
    _invalid(validator, {**reset, "seed": 2**64})
    _invalid(validator, {**reset, "seat": 4})
    _invalid(validator, {**reset, "deck": ["2C", "1C"]})
    _invalid(validator, {"type": "shuffle"})
    _invalid(validator, {"type": "card", "card": 52})
    _invalid(validator, {"type": "card", "card": True})
    _invalid(validator, {"type": "card"})
    _invalid(validator, {"type": "error"})
    _invalid(validator, {"type": "hello", "protocol": 2, "dealer": "hearts-env"})
    _invalid(validator, {"type": "hello", "protocol": 1, "agent": {"name": "x", "weights": {"file": "w.zip"}}})
    for field, value in [("phase", "BID"), ("current", 4), ("voids", [16, 0, 0, 0]), ("played_by", [[], [], []]),
                         ("final_points", [0, 0, 0]), ("hearts_broken", 0), ("pass_direction", 4),
                         ("trick", [1, 1]), ("moon_shooter", -1)]:
        changed = copy.deepcopy(act_message)
        changed["view"][field] = value
        _invalid(validator, changed)
