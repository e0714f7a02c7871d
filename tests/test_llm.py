"""The ``llm`` agent against a real HTTP server on loopback that speaks the chat-completions API, through the real
``openai`` client (issue 66): every scripted failure path ends as the module docstring says, every token is counted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("openai", reason="the llm extra")  # installed by the test extra: CI runs these

from llm_server import ChatServer

from hearts_env import Deal, make_rules
from hearts_env.agents import AgentError, make_agent
from hearts_env.agents.llm import LLMAgent, ModelForfeit
from hearts_env.text import TEXT_FORMAT
from hearts_env.views import SeatView

RULES = make_rules("standard(game=deal)")


def _agent(server: ChatServer, **options) -> LLMAgent:
    agent = LLMAgent(model="scripted", base_url=server.base_url, **options)
    agent.reset(RULES, 0, seed=[1])
    return agent


def _opening(seat_to_act: bool = True) -> tuple[Deal, SeatView]:
    deal = Deal.random(RULES, seed=3, pass_direction="hold")  # the holder of 2C leads it: one legal card
    return deal, SeatView.of(deal, deal.current)


def _position() -> tuple[Deal, SeatView]:
    """A view with several legal cards, QS not among them when it is not."""
    deal = Deal.random(RULES, seed=11, pass_direction="left")
    return deal, SeatView.of(deal, 0)  # passing: any card of the hand


def test_a_model_plays_a_whole_deal_and_every_token_is_counted():
    with ChatServer() as server:
        players = [make_agent(f"hearts_env.agents.llm:LLMAgent(model='m', base_url={server.base_url!r})"),
                   *(make_agent("heuristic") for _ in range(3))]
        deal = Deal.random(RULES, seed=8, pass_direction="left")
        for seat, player in enumerate(players):
            player.reset(RULES, seat, seed=[seat])
        while not deal.is_over:
            deal.apply(players[deal.current].act(SeatView.of(deal, deal.current)))
    model = players[0]
    decisions = 3 + 13
    assert model.usage["calls"] == decisions == len(model.transcript) == len(server.requests)
    assert model.usage["retries"] == model.usage["forfeits"] == 0
    assert model.usage["reasoning_tokens"] == 3 * decisions and model.usage["prompt_tokens"] > 100 * decisions
    assert all(d["prompt"].startswith(TEXT_FORMAT) and d["card"] for d in model.transcript)
    assert server.requests[0]["model"] == "m" and server.requests[0]["messages"][0]["role"] == "system"
    assert model.deal_notes()["calls"] == decisions


@pytest.mark.parametrize("first, reason", [
    (("answer", "I cannot decide."), "no card is named"),
    (("answer", "QS or AH?"), "names several cards"),
    (("answer", "Final Answer: QS"), "QS may not be played now; legal: 2C"),
    (("refusal", "I will not play cards."), "no card is named"),
    (("answer", "Let me think about the", "length"), "cut off"),
    (("answer", ""), "the answer is empty"),
])
def test_an_answer_that_cannot_be_played_is_quoted_back_once_then_the_next_one_plays(first, reason):
    deal, view = _opening()
    with ChatServer([first]) as server:
        agent = _agent(server)
        assert agent.act(view) == deal.legal_cards()[0]
    retry = server.requests[1]["messages"]
    assert len(retry) == 4 and retry[2]["role"] == "assistant" and reason in retry[3]["content"]
    assert agent.usage["retries"] == 1 and agent.usage["calls"] == 2 and len(agent.transcript[0]["answers"]) == 2


def test_a_second_answer_that_cannot_be_played_forfeits_the_game_and_says_why():
    _, view = _opening()
    with ChatServer([("answer", "Final Answer: QS"), ("answer", "Final Answer: AH")]) as server:
        agent = _agent(server)
        with pytest.raises(ModelForfeit, match=r"after 1 retry\(ies\): AH may not be played now; legal: 2C"):
            agent.act(view)
    assert agent.usage["forfeits"] == 1 and agent.transcript[0]["card"] is None
    with ChatServer([("answer", "Final Answer: QS")]) as server, pytest.raises(ModelForfeit):
        _agent(server, retries=0).act(view)


def test_a_rate_limit_waits_what_it_is_asked_and_is_not_a_retry_of_the_answer():
    deal, view = _opening()
    with ChatServer([("status", 429, {"Retry-After": "0"}), ("status", 429, {"Retry-After": "0"})]) as server:
        agent = _agent(server)
        assert agent.act(view) == deal.legal_cards()[0]
    assert agent.usage["waits"] == 2 and agent.usage["retries"] == 0 and agent.usage["calls"] == 3
    with ChatServer([("status", 429, {"Retry-After": "0"})] * 3) as server, \
            pytest.raises(ModelForfeit, match=r"rate limited 3 times in a row \(HTTP 429\)"):
        _agent(server, rate_limit_retries=2).act(view)


def test_server_errors_and_timeouts_are_asked_again_then_forfeit():
    deal, view = _opening()
    with ChatServer([("status", 500), ("status", 503)]) as server:
        assert _agent(server).act(view) == deal.legal_cards()[0]
    with ChatServer([("status", 500)] * 3) as server, \
            pytest.raises(ModelForfeit, match=r"the server failed 3 times in a row \(InternalServerError"):
        _agent(server).act(view)
    with ChatServer([("sleep", 3.0)]) as server:
        agent = _agent(server, timeout=0.5)
        assert agent.act(view) == deal.legal_cards()[0]  # the second request is answered at once
    assert agent.usage["calls"] == 2 and agent.usage["retries"] == 0


def test_a_request_the_server_refuses_forfeits_at_once():
    _, view = _opening()
    with ChatServer([("status", 400)]) as server:
        agent = _agent(server)
        with pytest.raises(ModelForfeit, match=r"refused the request \(HTTP 400"):
            agent.act(view)
    assert agent.usage["calls"] == 1


def test_a_streamed_answer_is_read_whole_with_its_usage():
    deal, view = _opening()
    with ChatServer([("stream", "I hold the two of clubs, so I lead it.\nFinal Answer: 2C")]) as server:
        agent = _agent(server, stream=True)
        assert agent.act(view) == deal.legal_cards()[0]
    assert server.requests[0]["stream"] is True and agent.usage["completion_tokens"] > 3


def test_without_the_legal_cards_the_prompt_does_not_list_them():
    _, view = _position()
    with ChatServer([("answer", "Final Answer: " + "XX")]) as server:
        agent = _agent(server, legal_moves=False)
        with pytest.raises(ModelForfeit):
            agent.act(view)
    assert "Legal:" not in server.requests[0]["messages"][1]["content"]


def test_the_key_comes_from_the_environment_and_a_missing_one_is_one_line(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(AgentError, match="no API key: set OPENAI_API_KEY"):
        LLMAgent(model="m")
    monkeypatch.setenv("MY_KEY", "sk-secret-123")
    with ChatServer() as server:
        agent = LLMAgent(model="m", base_url=server.base_url, api_key_env="MY_KEY")
        agent.reset(RULES, 0, seed=[1])
        agent.act(_opening()[1])
    assert "sk-secret-123" not in repr(agent.transcript) and "sk-secret-123" not in repr(server.requests)
    with pytest.raises(AgentError, match="retries must be a whole number"):
        LLMAgent(model="m", base_url="http://127.0.0.1:9/v1", retries=-1)


def test_the_arena_seats_a_model_by_its_spec_and_charges_a_forfeit_as_an_agent_error():
    """``llm(model=..., base_url=...)`` in the arena: games played, and a model that never names a playable card
    forfeits each game it is in, recorded with the reason."""
    from hearts_env.evaluation.arena import run_arena

    with ChatServer() as server:
        spec = f"llm(model='m', base_url={server.base_url!r})"
        records = run_arena([spec, "heuristic"], deals=1, jobs=1, isolation="none")
    assert len(records) == 14 and all(r["error"] is None for r in records)
    with ChatServer([("answer", "Final Answer: none")] * 200) as server:
        spec = f"llm(model='m', base_url={server.base_url!r}, retries=0)"
        records = run_arena([spec, "heuristic"], deals=1, jobs=1, isolation="none")
    assert all(r["error"] is not None and "ModelForfeit" in r["error"]["message"] for r in records)
    # a forfeit is an outcome the agent defines, not a crash: its record is its line alone, no traceback, no path
    assert {r["error"]["message"] for r in records} == {
        "ModelForfeit: the model's answer, after 0 retry(ies): no card is named in 'none': write one like QS, 10H or "
        "queen of spades, e.g. Final Answer: QS"}


def test_the_llm_track_plays_a_model_through_the_dealer_with_every_prompt_answer_and_token_in_the_run(tmp_path):
    """Issue 66: in hearts-bench the agent plays from a sandbox without a network, so a model could not be benchmarked.
    The llm track plays the llm agent in the dealer (the model proxy: the key and the calls stay there), counts every
    call, retry, forfeit and token beside the margin, prices a deal, and keeps each decision's prompt and answers in
    the records; the run verifies like any other."""
    from hearts_env.evaluation.benchmark import markdown, run_benchmark
    from hearts_env.evaluation.benchmark.verify import verify_run

    script = [("answer", "I think so. Final Answer: nothing")]  # the first decision needs its retry
    with ChatServer(script) as server:
        spec = f"llm(model='m', base_url={server.base_url!r})"
        result = run_benchmark(spec, tier="smoke", track="llm", jobs=2, out=tmp_path / "run", prices=(2.0, 8.0))
        calls = len(server.requests)
    assert result["track"] == "llm" and result["isolation"] == "none" and result["deals"] == 8
    assert list(result["rungs"]) == ["random", "greedy", "heuristic", "pimc"]  # the whole ladder, smoke tier
    decided = 32 * 13 + 24 * 3  # 13 plays a game, and 3 passes in the 24 games whose deal passes (2 of 8 hold)
    models = {name: r["model"] for name, r in result["rungs"].items()}
    assert all(m["games"] == 32 and m["decisions"] == decided and m["forfeits"] == 0 for m in models.values())
    assert [m["calls"] for m in models.values()] == [decided + 1, decided, decided, decided]  # the first: a retry
    assert [m["retries"] for m in models.values()] == [1, 0, 0, 0] and calls == 4 * decided + 1
    model = models["greedy"]
    spent = (model["prompt_tokens"] * 2.0 + model["completion_tokens"] * 8.0) / 1e6 / 32
    assert model["prompt_tokens"] > 0 and model["cost_per_deal_usd"] == pytest.approx(spent)
    records = [json.loads(line) for line in (tmp_path / "run" / "random.jsonl").read_text().splitlines()]
    decisions = [d for r in records for deal in r["deals"] for seat, ds in deal["transcripts"].items() for d in ds
                 if r["seating"][int(seat)] == spec]
    assert len(decisions) == decided and all(d["prompt"] and d["answers"] and d["card"] for d in decisions)
    assert sum(len(d["answers"]) for d in decisions) == decided + 1
    assert f"| random | {decided} | {decided + 1} | 1 | 0 |" in markdown(result)
    assert f"| pimc | {decided} | {decided} | 0 | 0 |" in markdown(result)
    assert verify_run(tmp_path / "run")["track"] == "llm"
    from hearts_env.evaluation.benchmark.verify import check_run, pack_records, read_run, unpack_records

    read, records = read_run(tmp_path / "run")  # a packed row keeps the transcripts, and verifies from them
    unpacked = unpack_records(read, pack_records(read, records))
    check_run(read, unpacked)
    assert [d["deals"][0]["transcripts"] for d in unpacked["greedy"]] == [
        d["deals"][0]["transcripts"] for d in sorted(records["greedy"], key=lambda r: (r["deal"], r["seating_index"]))]
    # a transcript edited to read another card than the seat played is named by verify
    path = tmp_path / "run" / "greedy.jsonl"
    first = json.loads(path.read_text().splitlines()[0])
    seat = first["seating"].index(spec)
    decision = first["deals"][0]["transcripts"][str(seat)][5]
    decision["card"] = "2C" if decision["card"] != "2C" else "3C"
    path.write_text("\n".join([json.dumps(first), *path.read_text().splitlines()[1:]]) + "\n")
    with pytest.raises(ValueError, match=f"seat {seat}'s transcript reads"):
        verify_run(tmp_path / "run")


def test_a_model_is_benchmarked_on_the_llm_track_and_the_llm_track_benchmarks_only_a_model():
    from hearts_env.evaluation.benchmark import run_benchmark

    with pytest.raises(ValueError, match="the llm track benchmarks the llm agent"):
        run_benchmark("heuristic", tier="smoke", track="llm")
    with pytest.raises(ValueError, match="is benchmarked on the llm track"):
        run_benchmark("llm(model='m', base_url='http://127.0.0.1:9')", tier="smoke")
    with pytest.raises(ValueError, match="prices must be two numbers"):
        run_benchmark("llm(model='m', base_url='http://127.0.0.1:9')", tier="smoke", track="llm", prices=(1.0,))


def test_the_dealer_holds_a_token_budget_and_a_larger_one_resumes_the_run(tmp_path):
    """Issue 66: the dealer, as the model's proxy, holds a token budget: the run pauses once the model's tokens reach
    it (the games in play finish and are written), and resuming with a larger budget finishes it."""
    from hearts_env.evaluation.arena.pause import RunPaused
    from hearts_env.evaluation.benchmark import run_benchmark

    out = tmp_path / "run"
    with ChatServer() as server:
        spec = f"llm(model='m', base_url={server.base_url!r})"
        with pytest.raises(RunPaused, match="the token budget is spent"):
            run_benchmark(spec, tier="smoke", track="llm", rungs=["random", "greedy"], jobs=1, out=out,
                          token_budget=1)
        assert len((out / "random.jsonl").read_text().splitlines()) == 1  # one game, then no other started
        with pytest.raises(RunPaused, match="before the games against random"):  # the budget counts every sitting
            run_benchmark(spec, tier="smoke", track="llm", rungs=["random", "greedy"], jobs=1, out=out,
                          resume=True, token_budget=2)
        result = run_benchmark(spec, tier="smoke", track="llm", rungs=["random", "greedy"], jobs=1, out=out,
                               resume=True, token_budget=10**9)
    assert [r["model"]["games"] for r in result["rungs"].values()] == [32, 32]
    assert [s["status"][:6] for s in result["sittings"]] == ["paused", "paused", "finish"]
    with pytest.raises(ValueError, match="token_budget is the llm track's"):
        run_benchmark("heuristic", tier="smoke", token_budget=100)


LOCAL_ROW = Path(__file__).parents[1] / "results" / "measurements" / "llm" / "qwen2.5-coder-0.5b-instruct.json"


def test_the_local_model_s_row_verifies_from_its_records_and_docs_llm_quotes_it():
    """Issue 66: the local model's row (docs/llm.md) re-derives from its records — every transcript held to the cards
    its seat played, each game that read no card ended as the model's forfeit — and the docs quote its figures."""
    from hearts_env.evaluation.benchmark.verify import verify_run

    result = verify_run(LOCAL_ROW)
    assert result["track"] == "llm" and result["tier"] == "llm" and list(result["rungs"]) == [
        "random", "greedy", "heuristic", "pimc"]
    page = (Path(__file__).parents[1] / "docs" / "llm.md").read_text()
    for rung, figures in result["rungs"].items():
        model = figures["model"]
        low, high = figures["margin"]["ci95"]
        quoted = (f"| {rung} | {figures['margin']['mean']:+.2f} [{low:+.2f}, {high:+.2f}] | {model['forfeits']} of "
                  f"{model['games']} | {model['decisions']} | {model['calls']} | {model['retries']} | "
                  f"{model['prompt_tokens']:,} / {model['completion_tokens']:,} |").replace("-", "−")
        assert quoted in page, quoted
