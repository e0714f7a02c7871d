"""hearts-record/1: round trips under every Rules field, the shipped JSON Schema, refusals that name the move,
arena records, OpenSpiel's action history both ways, and `hearts-env replay` reading a record."""

import json

import jsonschema
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from rule_strategies import SETTINGS, rules_strategy

from hearts_env.agents import make_agent
from hearts_env.cli import main
from hearts_env.engine import Deal
from hearts_env.evaluation.arena import run_arena
from hearts_env.evaluation.records import (
    FORMAT,
    RecordError,
    deals_of_record,
    from_openspiel_actions,
    read_record,
    record_of_arena,
    record_of_deals,
    schema,
    to_openspiel_actions,
)
from hearts_env.match import Match
from hearts_env.views import SeatView


def _random_finish(deal: Deal, seed: int) -> Deal:
    rng = np.random.default_rng(seed)
    while not deal.is_over:
        deal.apply(int(rng.choice(deal.legal_cards())))
    return deal


def _game(rules="standard", seed=0, specs=("heuristic", "greedy", "random", "heuristic")):
    match = Match(rules, seed=seed)
    agents = [make_agent(s) for s in specs]
    while True:
        deal = match.deal
        for seat, agent in enumerate(agents):
            agent.reset(match.rules, seat, seed=[seed, seat])
        while not deal.is_over:
            deal.apply(agents[deal.current].act(SeatView.of(deal, deal.current)))
        if match.next_deal() is None:
            return match


def _same(a: Deal, b: Deal) -> None:
    assert (a.dealt, a.history, a.points, a.pass_direction, a.dealer) == (b.dealt, b.history, b.points,
                                                                          b.pass_direction, b.dealer)


def test_a_game_to_100_round_trips_through_json_and_the_schema():
    match = _game()
    record = record_of_deals(match.history, players=["heuristic", "greedy", "random", "heuristic"],
                             scores=match.scores, winners=match.winners())
    text = json.dumps(record)
    jsonschema.validate(json.loads(text), schema())
    back = read_record(text)
    assert back["format"] == FORMAT and back["scores"] == list(match.scores)
    assert len(back["deals"]) == len(match.history)
    for original, replayed in zip(match.history, deals_of_record(back)):
        _same(original, replayed)
    first = record["deals"][0]
    assert first["pass_direction"] == "left" and all(len(p) == 3 for p in first["passes"])
    assert all(len(h) == 13 and all(len(c) == 2 for c in h) for h in first["hands"])


@SETTINGS
@given(rules=rules_strategy(), seed=st.integers(0, 2**31 - 1))
def test_any_rules_round_trip(rules, seed):
    deal = _random_finish(Deal.random(rules, seed), seed)
    record = json.loads(json.dumps(record_of_deals([deal])))
    jsonschema.validate(record, schema())
    (replayed,) = deals_of_record(read_record(record))
    _same(deal, replayed)


def test_moon_choices_replay_with_the_running_scores():
    """moon='shooter_choice' depends on the scores before the deal: the record carries them implicitly."""
    match = _game("standard(moon=shooter_choice, target=40)", seed=3, specs=("random",) * 4)
    for original, replayed in zip(match.history, deals_of_record(record_of_deals(match.history))):
        _same(original, replayed)


def _valid():
    return record_of_deals([_random_finish(Deal.random("standard(game=deal)", 4, pass_direction="left"), 4)])


@pytest.mark.parametrize(("tamper", "named"), [
    (lambda r: r["deals"][0]["plays"].__setitem__(0, r["deals"][0]["plays"][1]), "deal 0: "),
    (lambda r: r["deals"][0].__setitem__("points", [0, 0, 0, 26]), "the plays score"),
    (lambda r: r["deals"][0]["passes"][1].append("2H"), "passes more cards"),
    (lambda r: r["deals"][0]["passes"][2].pop(), "passes fewer than 3"),
    (lambda r: r["deals"][0]["plays"].pop(), "unfinished after 51 plays"),
    (lambda r: r["deals"][0]["hands"][0].__setitem__(0, "1X"), "is not a card"),
    (lambda r: r.__setitem__("rules", "standard(nope=1)"), "unknown rule option"),
    (lambda r: r.__setitem__("format", "hearts-record/0"), "not a hearts-record/1 record"),
    (lambda r: r.pop("scores"), "lacks scores"),
])
def test_a_broken_record_is_refused_with_the_deal_and_the_fault_named(tamper, named):
    record = _valid()
    tamper(record)
    with pytest.raises(RecordError, match=named):
        read_record(record)


def test_the_schema_refuses_what_it_can_see():
    record = _valid()
    record["deals"][0]["hands"][0][0] = "10H"  # a name our reader takes, not the format's
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(record, schema())
    with pytest.raises(RecordError, match=r"not JSON \(.* line 1"):
        read_record('{"format": ')


class Crasher:
    """Greedy for a deal, then raises in the middle of the second."""

    def __init__(self):
        from hearts_env.agents.basic import GreedyAgent

        self.inner = GreedyAgent()
        self.finished = 0

    def reset(self, rules, seat, seed=None):
        self.inner.reset(rules, seat, seed)

    def act(self, view):
        if self.finished and view.trick_index == 5:
            raise RuntimeError("boom")
        return self.inner.act(view)

    def end_deal(self, view):
        self.finished += 1


def test_arena_records_convert(monkeypatch):
    from pathlib import Path

    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    records = run_arena(["heuristic", "random"], deals=2, rules="standard(target=30)", jobs=1, isolation="none")
    for r in records[:3]:
        game = record_of_arena(r)
        jsonschema.validate(game, schema())
        assert game["players"] == r["seating"] and game["scores"] == r["points"]
        assert len(read_record(game)["deals"]) == len(r["deals"])
    crashed = run_arena(["test_records:Crasher", "random"], deals=1, rules="standard(target=100)", jobs=1)
    errored = next(r for r in crashed if r["error"] is not None)
    game = read_record(record_of_arena(errored))  # the finished first deal; the crashed one left out
    assert len(game["deals"]) == len(errored["deals"]) - 1 and game["error"]["kind"] == "exception"
    assert game["scores"] == errored["points"]  # the forfeit charged, as the arena scored it
    one_deal = run_arena(["test_records:Crasher", "random"], deals=1, rules="standard(game=deal)", jobs=1)
    assert all(r["error"] is None for r in one_deal)  # it never reaches a second deal there


def test_openspiel_histories_both_ways():
    from hearts_env.openspiel_bridge import load_game, points

    game = load_game("openspiel")
    for seed in range(5):
        direction = ["hold", "left", "across", "right"][seed % 4]
        deal = _random_finish(Deal.random("openspiel", seed, pass_direction=direction), seed)
        state = game.new_initial_state()
        for action in to_openspiel_actions(deal):
            state.apply_action(action)
        assert state.is_terminal() and points(state) == deal.points
        # and back: OpenSpiel's own random game, replayed by our engine
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        ours = from_openspiel_actions(state.history())
        assert ours.is_over and ours.points == points(state)
    with pytest.raises(RecordError, match="53 chance actions"):
        from_openspiel_actions([1, 2, 3])
    with pytest.raises(RecordError, match="52-card deck"):
        to_openspiel_actions(_random_finish(Deal.random("dutch(game=deal)", 0), 0))


def test_replay_shows_a_record_file(tmp_path, capsys):
    match = _game("standard(target=30)", seed=2)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record_of_deals(match.history, players=["a", "b", "c", "d"], scores=match.scores)))
    assert main(["replay", str(path)]) == 0
    text = capsys.readouterr().out
    assert text.count("-- deal ") == len(match.history) and "seat 0 (a)" in text
    assert f"scores: seat 0 (a) {match.scores[0]}" in text
    assert main(["replay", str(path), "--game", "3"]) == 2
    assert "holds 1 game(s)" in capsys.readouterr().err
