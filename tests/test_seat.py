"""The seat protocol end to end: views survive the wire, a program in another language plays the arena and
the benchmark, a seat's failures are forfeits, and ``verify`` catches an edited result."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from markers import needs_sandbox

from hearts_env import Deal, make_rules
from hearts_env.evaluation.arena import run_arena
from hearts_env.evaluation.benchmark import run_benchmark
from hearts_env.evaluation.benchmark.verify import VerificationFailed, pack_records, verify_run
from hearts_env.evaluation.seat.protocol import decode, encode, view_from_json, view_to_json
from hearts_env.evaluation.seat.sandbox import bwrap_works
from hearts_env.views import SeatView

ROOT = Path(__file__).resolve().parents[1]
BOT = f"seat:node {ROOT / 'examples' / 'seat_bot.js'}"
needs_node = pytest.mark.skipif(shutil.which("node") is None and not os.environ.get("CI"),  # CI must have it
                                reason="the example bot runs on Node.js")


@pytest.mark.parametrize("rules, direction", [("standard", "left"), ("standard", "across"), ("dutch", "hold")])
def test_a_view_survives_the_wire_field_for_field(rules, direction):
    deal = Deal.random(make_rules(rules), seed=5, pass_direction=direction)
    while True:
        for seat in range(4):
            view = SeatView.of(deal, seat)
            back = view_from_json(decode(encode({"type": "act", "view": view_to_json(view)}).rstrip())["view"],
                                  view.rules)
            for name in SeatView.__slots__:
                assert getattr(back, name) == getattr(view, name), name
        if deal.is_over:
            break
        deal.apply(deal.legal_cards()[-1])


def test_a_view_holds_only_what_the_seat_may_know():
    deal = Deal.random(make_rules("standard"), seed=2, pass_direction="left")
    for _ in range(20):
        deal.apply(deal.legal_cards()[0])
    sent = view_to_json(SeatView.of(deal, deal.current))
    hidden = set().union(*(set(_cards(deal.hands[s])) for s in range(4) if s != deal.current))
    hidden -= set(_cards(deal.dealt[deal.current]))  # cards it passed are known to it
    for name, value in sent.items():
        flat = set(_flatten(value)) if name not in ("voids", "tricks_won", "game_scores", "trick_winners") else set()
        if name in ("hand", "dealt", "passed", "received", "legal", "played_by", "taken", "trick", "plays"):
            assert not flat & hidden, name


def _cards(mask):
    return [c for c in range(52) if mask >> c & 1]


def _flatten(value):
    if isinstance(value, list):
        for v in value:
            yield from _flatten(v)
    elif isinstance(value, int) and not isinstance(value, bool):
        yield value


@needs_sandbox
@needs_node
def test_a_javascript_bot_plays_a_whole_arena(tmp_path):
    records = run_arena([BOT, "heuristic"], deals=4, jobs=2, out=tmp_path / "games.jsonl")
    assert len(records) == 4 * 14 and not [r for r in records if r["error"]]
    resumed = run_arena([BOT, "heuristic"], deals=4, jobs=2, out=tmp_path / "games.jsonl", resume=True)
    assert [r["points"] for r in resumed] == [r["points"] for r in records]


@needs_sandbox
@needs_node
def test_a_javascript_bot_takes_the_benchmark_and_its_result_verifies(tmp_path):
    result = run_benchmark(BOT, tier="smoke", out=tmp_path / "run", jobs=2)
    assert result["agent"] == "seat:node seat_bot.js"  # the program by its name: no path of the machine it ran on
    assert not any(r["errors"] for r in result["rungs"].values())
    verify_run(tmp_path / "run", leaderboard=True)


@pytest.fixture(scope="module")
def smoke_run(tmp_path_factory):
    if not bwrap_works() and not os.environ.get("CI"):
        pytest.skip("the sandbox needs bubblewrap")
    folder = tmp_path_factory.mktemp("smoke") / "run"
    run_benchmark("greedy", tier="smoke", rungs=["random", "greedy"], out=folder, jobs=1, agent_secret=7)
    return folder


def _copy(folder, tmp_path):
    copy = tmp_path / "run"
    shutil.copytree(folder, copy)
    return copy


def _edit_json(path, change):
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=1) + "\n")


def test_verify_passes_a_run_and_its_packed_row(smoke_run, tmp_path):
    result = verify_run(smoke_run)
    from hearts_env.evaluation.arena import read_records

    records = {name: list(read_records(smoke_run / f"{name}.jsonl")) for name in result["rungs"]}
    (tmp_path / "greedy.json").write_text(json.dumps(result))
    (tmp_path / "greedy.records.xz").write_bytes(pack_records(result, records))
    assert verify_run(tmp_path / "greedy.json") == result


def test_verify_catches_a_shifted_margin_with_its_headline_recomputed(smoke_run, tmp_path):
    from hearts_env.evaluation.benchmark.stats import headline

    run = _copy(smoke_run, tmp_path)

    def shift(result):
        result["rungs"]["random"]["per_deal_margin"] = [m + 1 for m in result["rungs"]["random"]["per_deal_margin"]]
        result["headline"] = {"name": "ladder margin", **headline(result["rungs"])}

    _edit_json(run / "result.json", shift)
    with pytest.raises(VerificationFailed, match="per_deal_margin"):
        verify_run(run)


def test_verify_catches_points_moved_between_seats(smoke_run, tmp_path):
    run = _copy(smoke_run, tmp_path)
    lines = (run / "random.jsonl").read_text().splitlines()
    record = json.loads(lines[0])
    record["points"] = [record["points"][0] - 1, record["points"][1] + 1, *record["points"][2:]]
    record["deals"][0]["points"] = list(record["points"])
    (run / "random.jsonl").write_text("\n".join([json.dumps(record), *lines[1:]]) + "\n")
    with pytest.raises(VerificationFailed, match="replayed"):
        verify_run(run)


def test_verify_catches_a_deleted_game_and_a_result_without_records(smoke_run, tmp_path):
    run = _copy(smoke_run, tmp_path)
    lines = (run / "greedy.jsonl").read_text().splitlines()
    (run / "greedy.jsonl").write_text("\n".join(lines[1:]) + "\n")
    with pytest.raises(VerificationFailed, match="missing"):
        verify_run(run)
    with pytest.raises(VerificationFailed, match="no records beside it"):
        verify_run(run / "result.json")


def test_an_edited_record_is_refused_on_resume(smoke_run, tmp_path):
    run = _copy(smoke_run, tmp_path)
    lines = (run / "random.jsonl").read_text().splitlines()
    record = json.loads(lines[3])
    record["points"] = [0, 0, 0, sum(record["points"])]
    (run / "random.jsonl").write_text("\n".join([*lines[:3], json.dumps(record), *lines[4:]]) + "\n")
    (run / "result.json").unlink()
    with pytest.raises(ValueError, match="does not replay"):
        run_benchmark("greedy", tier="smoke", rungs=["random", "greedy"], out=run, resume=True, jobs=1)


def _forged_row(run, folder, rung):
    """A leaderboard row forged as a patient submitter would: in every game of ``rung`` one ladder seat plays
    another legal card at its first play, the rest of the deal goes on legally (the recorded card where it still
    is legal), and every figure, the headline and the packed records are written again from the forged games,
    so every card is legal, every point the engine's and every figure the records'."""
    from hearts_env.evaluation.arena import read_records
    from hearts_env.evaluation.arena.game import episode_match
    from hearts_env.evaluation.benchmark.stats import headline, rung_figures
    from hearts_env.evaluation.benchmark.verify import unpack_records

    result = json.loads((run / "result.json").read_text())
    records = {name: list(read_records(run / f"{name}.jsonl")) for name in result["rungs"]}
    spec = result["rungs"][rung]["spec"]
    rules = make_rules(result["rules"])
    for record in records[rung]:
        seat = record["seating"].index(spec)
        deal = episode_match(rules, record["seed"], record["deal"]).deal
        forged, history = False, []
        for card in record["deals"][0]["history"]:
            legal = deal.legal_cards()
            if not forged and deal.current == seat and deal.phase.name == "PLAY" and len(legal) > 1:
                card, forged = next(c for c in legal if c != card), True
            elif card not in legal:
                card = min(legal)
            deal.apply(card)
            history.append(card)
        record["deals"][0]["history"] = history
    packed = pack_records(result, records)
    rebuilt = unpack_records(result, packed)
    result["rungs"][rung].update(rung_figures(rebuilt[rung], result["deals"]))
    result["headline"] = {"name": result["headline"]["name"], **headline(result["rungs"])}
    (folder / "greedy.json").write_text(json.dumps(result))
    (folder / "greedy.records.xz").write_bytes(pack_records(result, rebuilt))
    return folder / "greedy.json"


def test_verify_catches_a_row_whose_ladder_played_cards_the_ladder_agent_would_not(smoke_run, tmp_path):
    forged = _forged_row(smoke_run, tmp_path, "greedy")
    verify_run(forged, leaderboard=True, ladder_sample=0)  # every other check passes it: the attack
    with pytest.raises(VerificationFailed, match=r"rung greedy: the ladder did not play these cards: deal \d+, "
                                                 r"seating \d, deal 0 of the game, card \d+: seat \d \(greedy\) plays "
                                                 r"\S+, the record shows \S+"):
        verify_run(forged, leaderboard=True)
    with pytest.raises(VerificationFailed, match="the ladder did not play these cards"):
        verify_run(forged, ladder_sample=0.25, sample_seed=3)  # a sample finds it too: every game is forged
    assert verify_run(smoke_run, leaderboard=True)["agent"] == "greedy"  # the honest run's ladder cards replay


def test_pack_writes_a_row_checked_on_the_ladder_sample_it_is_given(smoke_run, tmp_path, capsys):
    """``hearts-env benchmark pack RUN ROW --ladder-sample S --sample-seed K``: a full row's pimc rung costs about
    30 min to replay whole, so a row may be packed on a named sample; the packed row verifies; a bad share is one
    line."""
    from hearts_env.cli import main

    row = tmp_path / "greedy.json"
    assert main(["benchmark", "pack", str(smoke_run), str(row), "--ladder-sample", "0.5", "--sample-seed", "3"]) == 0
    assert verify_run(row, leaderboard=True) == json.loads((smoke_run / "result.json").read_text())
    with pytest.raises(SystemExit):
        main(["benchmark", "pack", str(smoke_run), str(tmp_path / "other.json"), "--ladder-sample", "2"])
    assert "--ladder-sample" in capsys.readouterr().err.strip().splitlines()[-1]
    assert not (tmp_path / "other.json").exists()


def test_verify_refuses_a_sample_that_is_not_a_share(smoke_run):
    for bad in (-0.1, 1.5, True, "all"):
        with pytest.raises(ValueError, match="ladder_sample must be a share of the games from 0 to 1"):
            verify_run(smoke_run, ladder_sample=bad)


def test_verify_names_a_result_md_that_is_not_the_results(smoke_run, tmp_path):
    run = _copy(smoke_run, tmp_path)
    (run / "result.md").write_text((run / "result.md").read_text().replace("+", "-"))
    with pytest.raises(VerificationFailed, match=r"result\.md"):
        verify_run(run)


def test_arena_resume_replays_what_it_resumes_from(tmp_path):
    out = tmp_path / "games.jsonl"
    run_arena(["heuristic", "greedy"], deals=2, jobs=1, isolation="none", out=out)
    lines = out.read_text().splitlines()
    k = next(i for i, line in enumerate(lines) if len(set(json.loads(line)["points"])) > 1)
    record = json.loads(lines[k])
    record["points"] = sorted(record["points"])  # the sum is kept, the seats' points moved
    record["deals"][0]["points"] = list(record["points"])
    assert record["points"] != json.loads(lines[k])["points"]
    lines[k] = json.dumps(record)
    out.write_text("\n".join(lines) + "\n")
    with pytest.raises(ValueError, match="does not replay"):
        run_arena(["heuristic", "greedy"], deals=4, jobs=1, isolation="none", out=out, resume=True)


@needs_sandbox
def test_a_seated_agent_that_cannot_be_built_is_refused_before_any_game():
    with pytest.raises(ValueError, match="cannot take a seat: unknown agent 'nosuch'"):
        run_arena(["hosted:nosuch", "greedy"], deals=1, jobs=1)
    # "before hello" when it is gone before the dealer writes, "during hello" when it goes while the dealer reads
    with pytest.raises(ValueError, match=r"cannot take a seat: the program ended (before|during) hello"):
        run_arena(["seat:false", "greedy"], deals=1, jobs=1)


@needs_sandbox
def test_what_a_program_prints_goes_to_its_log_not_to_the_dealer(tmp_path, monkeypatch):
    from hearts_env.agents import make_agent
    from hearts_env.evaluation.seat import Sandbox, seated_agent

    monkeypatch.chdir(ROOT / "tests" / "hostile")
    log = tmp_path / "seat.log"
    agent = seated_agent("hosted:hostile_agents:Prints", sandbox=Sandbox(log=str(log)))
    deal = Deal.random(make_rules("standard(game=deal)"), seed=3, pass_direction="hold")
    for _ in range(5):
        deal.apply(deal.legal_cards()[-1])
    honest = make_agent("heuristic")
    honest.reset(deal.rules, deal.current, seed=[1])
    try:
        agent.reset(deal.rules, deal.current, seed=[1])
        card = agent.act(SeatView.of(deal, deal.current), timeout=30)
    finally:
        agent.close()
    assert card == honest.act(SeatView.of(deal, deal.current)) != 0  # not the '{"card": 0}' it printed
    assert "{garbage" in log.read_text() and "noise" in log.read_text()


@needs_sandbox
@pytest.mark.parametrize("name, shown", [("ReturnsAFraction", r"act returned \d+\.9, not a card id"),
                                         ("ReturnsNone", "act returned None, not a card id")])
def test_a_card_that_is_not_an_integer_is_the_agent_s_error_in_its_program_as_in_the_arena(name, shown, monkeypatch):
    """Issue 63: the seat host turned an agent's 6.9 into card 6 (``int``) and None into a TypeError of its own; the
    arena refused both as illegal cards. The host coerces nothing, and a card is checked the same way in a program and
    in-process: the same kind of error, naming the value."""
    from hearts_env.evaluation.seat import SeatError, seated_agent

    monkeypatch.chdir(ROOT / "tests" / "hostile")
    agent = seated_agent(f"hosted:hostile_agents:{name}")
    deal = Deal.random(make_rules("standard(game=deal)"), seed=3, pass_direction="hold")
    try:
        agent.reset(deal.rules, deal.current, seed=[1])
        with pytest.raises(SeatError, match=shown) as e:
            agent.act(SeatView.of(deal, deal.current), timeout=30)
    finally:
        agent.close()
    assert e.value.kind == "exception"
    monkeypatch.syspath_prepend(str(ROOT / "tests" / "hostile"))
    errors = [r["error"] for r in run_arena([f"hostile_agents:{name}", "greedy"], deals=1, jobs=1, isolation="none")]
    assert errors and all(error is not None and error["kind"] == "exception" for error in errors)
    assert all(re.match(shown, error["message"]) for error in errors)


def test_the_kernel_cache_copy_takes_regular_files_only_within_its_limits(tmp_path, monkeypatch):
    from hearts_env.evaluation.seat import sandbox

    source, target = tmp_path / "source", tmp_path / "target"
    (source / "sub").mkdir(parents=True)
    (source / "sub" / "kernel.nbc").write_bytes(b"x" * 1000)
    (source / "index.nbi").write_bytes(b"i")
    os.mkfifo(source / "pipe")
    (source / "link").symlink_to(tmp_path / "elsewhere")
    (tmp_path / "elsewhere").write_text("secret")
    (source / "dirlink").symlink_to(tmp_path, target_is_directory=True)
    target.mkdir()
    sandbox.copy_kernels(str(source), str(target))
    assert sorted(str(p.relative_to(target)) for p in target.rglob("*")) == ["index.nbi", "sub", "sub/kernel.nbc"]
    assert (target / "sub" / "kernel.nbc").read_bytes() == b"x" * 1000
    monkeypatch.setattr(sandbox, "CACHE_BYTES", 1000)
    (tmp_path / "again").mkdir()
    (tmp_path / "third").mkdir()
    with pytest.raises(OSError, match="more than"):
        sandbox.copy_kernels(str(source), str(tmp_path / "again"))
    monkeypatch.setattr(sandbox, "CACHE_BYTES", 1 << 20)
    sandbox.seal_kernels(str(source))  # what a program planted is gone from the folder itself
    assert sorted(str(p.relative_to(source)) for p in source.rglob("*")) == ["index.nbi", "sub", "sub/kernel.nbc"]
    carried = sandbox.kernel_files(str(source))  # what a run on a cluster carries to another node: the sealed files
    assert carried == [("index.nbi", b"i"), ("sub/kernel.nbc", b"x" * 1000)]
    (tmp_path / "node").mkdir()
    sandbox.write_kernel_files(carried, str(tmp_path / "node"))
    assert sandbox.kernel_files(str(tmp_path / "node")) == carried
    monkeypatch.setattr(sandbox, "CACHE_ENTRIES", 2)
    with pytest.raises(OSError, match="more than 2 entries"):
        sandbox.copy_kernels(str(source), str(tmp_path / "third"))


def test_a_reply_of_any_depth_is_a_protocol_error_not_a_crash():
    from hearts_env.evaluation.seat.protocol import ProtocolError, decode

    for line in (b"[" * 60_000, b"{\"type\": " + b"[" * 30_000, b"\xff\xfe", b"NaN"):
        with pytest.raises(ProtocolError, match="not a JSON line"):
            decode(line)
