"""xinxin as a reference seat (issue 36): its rules, the worlds it is sent, its legality over 10,000 decisions
against our engine, its information use, its known traps, and its seat through the seat protocol."""

from __future__ import annotations

import json
import os
import shutil
import sys
import textwrap
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from hearts_env import Deal, make_rules
from hearts_env.agents import AgentError, make_agent
from hearts_env.cards import parse_cards, to_mask
from hearts_env.engine import Phase
from hearts_env.evaluation.arena import run_arena, solo_seatings
from hearts_env.evaluation.benchmark import get_suite, leaderboard_row, reference_row, run_benchmark
from hearts_env.evaluation.benchmark.stats import rung_figures
from hearts_env.evaluation.benchmark.suite import UNCHECKED, ladder_fingerprint
from hearts_env.evaluation.benchmark.verify import VerificationFailed, verify_run
from hearts_env.evaluation.reference.xinxin import (
    DEADLINES,
    DRIVER_ENV,
    SETTINGS,
    XinxinAgent,
    XinxinDriver,
    XinxinSettings,
    XinxinUnsupported,
    find_driver,
    request_line,
    rule_bits,
    world_of,
    xinxin_id,
)
from hearts_env.evaluation.seat.protocol import view_to_json
from hearts_env.views import SeatView


def _driver_built() -> bool:
    try:
        find_driver()
    except AgentError:
        return False
    return True


needs_xinxin = pytest.mark.skipif(not _driver_built() and not os.environ.get("CI"),  # CI builds it and must not skip
                                  reason="xinxin is not built here (make xinxin builds it)")

FLAGS = ("no_pts_on_first_trick", "can_lead_any_club", "jd_bonus", "avoid_all_tricks_bonus", "must_break_hearts",
         "qs_breaks_hearts")
"""Every rule option xinxin plays both ways (besides passing): each test below draws all of them."""


def _xinxin_rules(rng: np.random.Generator):
    flags = {name: bool(rng.integers(2)) for name in FLAGS}
    passing = ("random", "none", "left", "rotate")[int(rng.integers(4))]
    return make_rules("openspiel").replace(passing=passing, **flags)


def _positions(count: int, seed: int, players: list | None = None):
    """``count`` decision views from deals played by ``players`` (default: random) under drawn rules (every phase
    and seat)."""
    rng = np.random.default_rng(seed)
    players = players or [make_agent("random") for _ in range(4)]
    found = 0
    while found < count:
        rules = _xinxin_rules(rng)
        deal = Deal.random(rules, int(rng.integers(1 << 30)))
        for seat, player in enumerate(players):
            player.reset(rules, seat, int(rng.integers(1 << 30)))
        while deal.phase != Phase.DONE and found < count:
            view = SeatView.of(deal, deal.current)
            if rng.random() < 0.15:
                found += 1
                yield view
            deal.apply(players[deal.current].act(view))


def test_rule_bits_follow_openspiels_xinxin_mapping():
    # OpenSpiel's defaults: queen penalty, pass, no points on trick one, 2C leads, Q♠ breaks, must break
    assert rule_bits("openspiel") == 0x0001 | 0x0400 | 0x0080 | 0x0100 | 0x0020 | 0x0200 | 0x0800
    assert rule_bits("standard") == rule_bits("openspiel") & ~0x0200  # only a heart breaks hearts
    assert rule_bits("openspiel(passing=none, can_lead_any_club=true, jd_bonus=true)") & 0x0400 == 0
    assert rule_bits("openspiel(can_lead_any_club=true)") & 0x0060 == 0x0040


@pytest.mark.parametrize("spec, named", [
    ("dutch", "deck='dutch'"),
    ("standard(moon=subtract_from_shooter)", "moon='subtract_from_shooter'"),
    ("standard(pass_count=2)", "pass_count=2"),
    ("standard(can_lead_hearts_instead_of_qs=true)", "can_lead_hearts_instead_of_qs"),
])
def test_rules_xinxin_cannot_play_are_refused_naming_the_option(spec, named):
    with pytest.raises(XinxinUnsupported, match=named.replace("(", r"\(")):
        rule_bits(spec)


def test_bad_settings_are_refused_in_one_line():
    with pytest.raises(AgentError, match="unknown setting 'fast'; settings: openspiel, literature, upstream"):
        XinxinAgent("fast", driver="/bin/true")
    with pytest.raises(AgentError, match="uct_num_runs must be an integer >= 1"):
        XinxinAgent(uct_num_runs=0, driver="/bin/true")
    with pytest.raises(AgentError, match=r"unknown argument.*worlds"):
        XinxinAgent(worlds=3, driver="/bin/true")


def test_the_settings_are_openspiels_the_literatures_and_upstreams():
    s = SETTINGS["openspiel"]
    assert (s.uct_num_runs * s.iimc_num_worlds, s.uct_c_val, s.iimc_num_worlds) == (1000, 0.4, 20)
    s = SETTINGS["literature"]
    assert (s.uct_num_runs, s.uct_c_val, s.iimc_num_worlds) == (2000, 0.4, 50)
    s = SETTINGS["upstream"]
    assert (s.iimc_num_worlds, s.playout_epsilon) == (30, 0.1) and s.uct_num_runs * 30 <= 10_000


def test_each_xinxin_opponent_of_the_suite_spells_out_its_setting():
    """The reference track's xinxin rungs name every budget (a later change of a setting's defaults cannot change
    the suite), and each is its setting as it stands today."""
    xinxins = [r for r in get_suite("v1").references if r.name.startswith("xinxin")]
    assert [r.name for r in xinxins] == ["xinxin", "xinxin-literature", "xinxin-upstream"]
    for rung in xinxins:
        agent = make_agent(rung.spec.removeprefix("hosted:")[:-1] + ", driver='/bin/true')")
        setting = rung.spec.split("setting='")[1].split("'")[0]
        assert rung.name == ("xinxin" if setting == "openspiel" else f"xinxin-{setting}")
        assert agent.settings == SETTINGS[setting] and agent.driver.deadline == DEADLINES[setting]


def test_the_world_sent_to_xinxin_is_the_seats_world_with_its_own_passes_in_xinxins_order():
    """The request replays a deal in which the seat knows exactly what it knows (the world itself is checked in
    tests/test_worlds.py): replayed by our engine pass by pass and card by card, it shows the seat its view, and
    each seat's passes go in ascending order of xinxin's card ids (xinxin's search needs its own that way)."""
    rng = np.random.default_rng(5)
    phases = Counter()
    for view in _positions(300, seed=3):
        world = world_of(view, rng)
        deal = Deal.from_hands(view.rules, [to_mask(hand) for hand in world.hands],
                               pass_direction=view.pass_direction, dealer=view.dealer, game_scores=view.game_scores)
        for seat, card in (*world.passes, *world.plays):
            assert deal.current == seat
            deal.apply(card)
        assert view_to_json(SeatView.of(deal, view.seat)) == view_to_json(view)
        for seat in range(4):
            own = [card for s, card in world.passes if s == seat]
            assert own == sorted(own, key=xinxin_id)
        phases[view.phase] += 1
    assert phases[Phase.PASS] > 20 and phases[Phase.PLAY] > 200


def test_a_world_hides_the_true_hands():
    """The hidden cards are drawn: two draws for one view differ, and the seat's own hand is the true one."""
    deal = Deal.random(make_rules("openspiel"), 4, pass_direction="left")
    view = SeatView.of(deal, deal.current)
    a, b = (world_of(view, np.random.default_rng(k)) for k in (1, 2))
    assert to_mask(a.hands[view.seat]) == to_mask(b.hands[view.seat]) == deal.dealt[view.seat]
    assert a.hands != b.hands


@needs_xinxin
def test_xinxin_plays_only_legal_cards_over_10000_decisions_under_every_rule_option():
    """Legality against our engine: 10,400 decisions of four xinxin seats over deals under drawn rules (every flag
    of FLAGS, every passing mode), each card applied by our engine (which raises on an illegal one); xinxin's own
    legal set agrees with ours at every decision except the known first-trick case (next test)."""
    rng = np.random.default_rng(11)
    agents = [XinxinAgent(uct_num_runs=1, iimc_num_worlds=1) for _ in range(4)]
    decisions, rule_sets = 0, set()
    while decisions < 10_400:
        rules = _xinxin_rules(rng)
        rule_sets.add(rules)
        deal = Deal.random(rules, int(rng.integers(1 << 30)))
        for seat, agent in enumerate(agents):
            agent.reset(rules, seat, int(rng.integers(1 << 30)))
        while deal.phase != Phase.DONE:
            deal.apply(agents[deal.current].act(SeatView.of(deal, deal.current)))
            decisions += 1
    events = sum((agent.events for agent in agents), Counter())
    assert events["xinxin"] == decisions and events["fallback"] == 0
    assert events["legal_disagreement"] <= 3  # the hearts-and-Q♠ first trick: rare in random deals
    assert len(rule_sets) > 40


@needs_xinxin
def test_xinxin_bars_the_queen_from_a_first_trick_of_hearts_and_queen_and_its_card_stays_legal():
    """The known disagreement: holding only hearts and Q♠ on a first trick that bars points, our engine (and
    OpenSpiel) allow any of them; xinxin allows only the hearts. Its card is legal; the disagreement is counted."""
    rules = make_rules("openspiel")
    hands = ["2C 3C 4C 5C 6C 7C 8C 2D 3D 4D 2S 3S 4S", "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH QS",
             "9C TC JC QC KC AC 5D 6D 7D 8D 9D 5S 6S", "TD JD QD KD AD 7S 8S 9S TS JS AH KS AS"]
    deal = Deal.from_hands(rules, hands, pass_direction="hold").apply_all(["2C"])
    view = SeatView.of(deal, 1)
    agent = XinxinAgent(uct_num_runs=5, iimc_num_worlds=5)
    agent.reset(rules, 1, seed=1)
    decision = agent.decide(view)
    queen = parse_cards(["QS"])[0]
    assert queen in deal.legal_cards()
    assert decision.xinxin_legal == tuple(c for c in deal.legal_cards() if c != queen)
    assert decision.source == "xinxin" and decision.card in deal.legal_cards()
    assert agent.events["legal_disagreement"] == 1


@needs_xinxin
def test_xinxins_card_does_not_depend_on_the_hidden_cards_it_is_sent():
    """Information use: one decision seed, two different draws of the hidden cards → the same card, at 300
    positions. (Its world sampler reads only what the seat knows; if it read the hands it is sent, the card would
    follow them.) The control: another seed changes the card at some positions, so the card is not a constant."""
    driver = XinxinDriver(XinxinSettings(10, 0.4, 5), deadline=20)
    rng = np.random.default_rng(2)
    same = other_seed_differs = 0
    players = [XinxinAgent(uct_num_runs=1, iimc_num_worlds=1) for _ in range(4)]  # passes xinxin can continue
    for view in _positions(300, seed=9, players=players):
        bits = rule_bits(view.rules)
        cards = [driver.ask(request_line(77, bits, view, world_of(view, rng))) for _ in range(2)]
        assert cards[0] is not None and cards[0] == cards[1], view_to_json(view)
        same += 1
        other_seed_differs += driver.ask(request_line(78, bits, view, world_of(view, rng))) != cards[0]
    driver.stop()
    assert same == 300 and other_seed_differs >= 10


@needs_xinxin
def test_a_seed_gives_the_same_cards():
    rules = make_rules("openspiel")
    played = []
    for _ in range(2):
        agents = [XinxinAgent(uct_num_runs=5, iimc_num_worlds=5) for _ in range(4)]
        deal = Deal.random(rules, 21)
        for seat, agent in enumerate(agents):
            agent.reset(rules, seat, seed=[21, seat])
        while deal.phase != Phase.DONE:
            deal.apply(agents[deal.current].act(SeatView.of(deal, deal.current)))
        played.append(deal.history)
    assert played[0] == played[1]


@needs_xinxin
def test_a_seat_part_way_through_passes_xinxin_did_not_choose_still_passes_legal_cards():
    """The other pass trap: xinxin enumerates a seat's passes as ascending sets, so a seat holding a first pass it
    would never have chosen (its highest card) can crash it. The seat falls back to a legal card, counted."""
    rules = make_rules("openspiel")
    crashed = 0
    for seed in range(12):
        deal = Deal.random(rules, seed, pass_direction="left")
        seat = deal.current
        highest = max(deal.legal_cards(), key=xinxin_id)
        deal.apply(highest)
        agent = XinxinAgent(uct_num_runs=5, iimc_num_worlds=4, deadline=5)
        agent.reset(rules, seat, seed=seed)
        for _ in range(2):
            deal.apply(agent.act(SeatView.of(deal, seat)))  # raises if illegal
        crashed += agent.events["fallback"]
    assert crashed > 0


@needs_xinxin
def test_a_sampler_that_never_ends_is_cut_off_and_a_legal_card_played():
    """The known trap: a seat that has shown voids in three suits early (here seat 1, holding the ten hearts left)
    sends xinxin's rejection sampler into a search for a deal it almost never draws. The driver is killed at the
    deadline, restarted with another seed, and the seat plays a legal card; each step is counted."""
    rules = make_rules("openspiel")
    hands = ["2C 3C 4C 5C 6C 7C 8C 2D 3D 4D 2S 3S 4S", "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
             "9C TC JC QC KC AC 5D 6D 7D 8D 9D 5S 6S", "TD JD QD KD AD 7S 8S 9S TS JS QS KS AS"]
    deal = Deal.from_hands(rules, hands, pass_direction="hold")
    deal.apply_all(parse_cards("2C 2H 9C TD 5D JD 2D 3H 7S 2S 4H 5S"))
    view = SeatView.of(deal, deal.current)
    assert bin(view.voids[1]).count("1") == 3
    agent = XinxinAgent(deadline=1.0)
    agent.reset(rules, view.seat, seed=1)
    decision = agent.decide(view)
    assert decision.source == "fallback" and decision.card in deal.legal_cards()
    assert agent.events["timeout_or_crash"] == 2 and agent.events["fallback"] == 1
    # the next decision starts a fresh driver
    deal.apply(decision.card)
    agent.reset(rules, deal.current, seed=2)
    assert agent.decide(SeatView.of(deal, deal.current)).card in deal.legal_cards()


def _fake_driver(tmp_path: Path, body: str) -> str:
    path = tmp_path / "driver"
    path.write_text(f"#!{sys.executable}\nimport sys, time, os\n" + textwrap.dedent(body))
    path.chmod(0o755)
    return str(path)


@pytest.mark.parametrize("body, event", [
    ("for line in sys.stdin:\n    os._exit(3)\n", "timeout_or_crash"),
    ("for line in sys.stdin:\n    time.sleep(60)\n", "timeout_or_crash"),
    ("for line in sys.stdin:\n    print('card 0 1 0', flush=True)\n", "illegal"),
    ("for line in sys.stdin:\n    print('error what', flush=True)\n", "driver_error"),
])
def test_a_driver_that_dies_hangs_or_answers_wrong_never_makes_the_seat_play_an_illegal_card(tmp_path, body, event):
    rules = make_rules("openspiel")
    deal = Deal.random(rules, 3, pass_direction="hold").apply_all(["2C"])  # 2♣ led: id 0 is no longer legal
    view = SeatView.of(deal, deal.current)
    agent = XinxinAgent(driver=_fake_driver(tmp_path, body), deadline=0.5)
    agent.reset(rules, view.seat, seed=1)
    decision = agent.decide(view)
    assert decision.source == "fallback" and decision.card in deal.legal_cards()
    assert agent.events[event] >= 1


def test_a_missing_driver_is_one_clear_line(monkeypatch, tmp_path):
    monkeypatch.setenv("HEARTS_ENV_XINXIN", str(tmp_path / "nowhere"))
    with pytest.raises(AgentError, match=r"HEARTS_ENV_XINXIN=.*nowhere: no executable file there"):
        XinxinAgent()


@needs_xinxin
def test_xinxin_takes_a_seat_in_the_arena_through_the_seat_protocol(tmp_path):
    records = run_arena(["hosted:xinxin(uct_num_runs=5, iimc_num_worlds=4)", "heuristic"], deals=2,
                        rules="openspiel", jobs=1, out=tmp_path / "games.jsonl")
    assert len(records) == 2 * 14 and not [r for r in records if r["error"]]


@needs_xinxin
def test_a_starved_xinxin_s_fallbacks_are_recorded_per_game_and_shown_in_the_result():
    """xinxin past its deadline plays its lowest legal card. A seat with a deadline no request can meet (1 ms) falls
    back at every decision; the host reports each deal's fallbacks with its end_deal reply, every game's record keeps
    them, and a rung's figures total them (so a starved reference seat shows in the result instead of losing unseen)."""
    starved = "hosted:xinxin(uct_num_runs=5, iimc_num_worlds=4, deadline=0.001)"
    records = run_arena(["heuristic", starved], deals=1, rules="openspiel", jobs=1, only_seatings=solo_seatings()[:1])
    (record,) = records
    xinxin_seats = [seat for seat, spec in enumerate(record["seating"]) if spec == starved]
    assert record["error"] is None and sorted(record["notes"]) == [str(seat) for seat in xinxin_seats]
    for seat in xinxin_seats:
        assert record["notes"][str(seat)]["fallback"] == record["decisions"][seat] > 0
        assert record["notes"][str(seat)]["timeout_or_crash"] == 2 * record["decisions"][seat]  # two tries a decision
    notes = rung_figures(records, 1, opponent_time=True)["opponent_notes"]
    assert notes["fallback"] == sum(record["decisions"][seat] for seat in xinxin_seats) and notes["games"] == 1


@needs_xinxin
def test_a_seated_xinxin_finds_the_driver_the_user_named_and_refuses_a_wrong_one_in_one_line(tmp_path, monkeypatch):
    """A pip-installed package has no checkout to find the driver in: ``$HEARTS_ENV_XINXIN`` must reach the
    sandboxed seat, and the file it names must be visible there even under ``/tmp``, which the sandbox covers."""
    copy = tmp_path / "elsewhere" / "xinxin_driver"
    copy.parent.mkdir()
    shutil.copy2(find_driver(), copy)
    monkeypatch.setenv(DRIVER_ENV, str(copy))
    records = run_arena(["hosted:xinxin(uct_num_runs=5, iimc_num_worlds=4)", "heuristic"], deals=1,
                        rules="openspiel", jobs=1, out=tmp_path / "games.jsonl")
    assert records and not [r for r in records if r["error"]]
    monkeypatch.setenv(DRIVER_ENV, str(tmp_path / "nowhere"))  # the seat reads the variable, not the checkout
    refusal = r"cannot take a seat: HEARTS_ENV_XINXIN=\S*nowhere: no executable file there$"  # no traceback
    with pytest.raises(ValueError, match=refusal):
        run_arena(["hosted:xinxin(uct_num_runs=5, iimc_num_worlds=4)", "heuristic"], deals=1,
                  rules="openspiel", jobs=1, out=tmp_path / "again.jsonl")


@needs_xinxin
def test_xinxin_takes_the_benchmark_from_its_own_program_and_the_result_verifies(tmp_path):
    spec = "xinxin(uct_num_runs=5, iimc_num_worlds=4)"
    result = run_benchmark(spec, tier="smoke", preset="openspiel", rungs=["random", "heuristic"],
                           out=tmp_path / "run", jobs=2)
    assert result["isolation"] == "process" and not any(r["errors"] for r in result["rungs"].values())
    verify_run(tmp_path / "run")


def test_an_opponent_that_cannot_take_its_seat_is_refused_before_the_run_begins(tmp_path, monkeypatch):
    """An opponent's failure found only at its first game would leave a stopped sitting, which bars the run's
    row for good; the run must refuse before it writes anything."""
    monkeypatch.setenv(DRIVER_ENV, str(tmp_path / "nowhere"))
    with pytest.raises(ValueError, match=r"agent \"hosted:xinxin.*cannot take a seat: .*nowhere: no executable"):
        run_benchmark("greedy", tier="smoke", preset="openspiel", track="reference", rungs=["xinxin"],
                      out=tmp_path / "run", jobs=1)
    assert not (tmp_path / "run").exists()


@pytest.fixture(scope="module")
def reference_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("reference") / "run"
    result = run_benchmark("greedy", tier="smoke", preset="openspiel", track="reference", rungs=["xinxin"],
                           out=folder, jobs=2)
    return folder, result


@needs_xinxin
def test_the_reference_track_plays_xinxin_at_openspiels_setting_and_verifies(reference_run):
    """The reference track: the agent against three xinxin seats (through the seat protocol, OpenSpiel's setting,
    checked by its fingerprint), every figure of a rung plus xinxin's own time, verified from the records."""
    folder, result = reference_run
    rung = result["rungs"]["xinxin"]
    assert result["track"] == "reference" and result["headline"]["name"] == "reference margin"
    assert rung["spec"].startswith("hosted:xinxin(setting='openspiel', uct_num_runs=50,")
    assert rung["opponent_seconds_per_decision"] > 0 and rung["opponent_errors"] == 0
    assert rung["opponent_notes"]["games"] >= 0 and "opponent fallbacks (games)" in (folder / "result.md").read_text()
    assert result["checks"]["ladder"] == "each opponent's play on 4 deals is the suite's"
    verify_run(folder, leaderboard=True)
    row = reference_row(result)
    assert row.startswith("| `greedy` | smoke (8) | ") and f"{rung['moons_shot']} / {rung['moons_suffered']}" in row
    with pytest.raises(ValueError, match="reference table"):
        leaderboard_row(result)


@needs_xinxin
def test_a_reference_result_edited_to_look_like_a_ladder_run_fails_verification(reference_run, tmp_path):
    folder, _ = reference_run
    copy = tmp_path / "run"
    shutil.copytree(folder, copy)
    result = json.loads((copy / "result.json").read_text())
    result["track"] = "ladder"
    (copy / "result.json").write_text(json.dumps(result))
    with pytest.raises(VerificationFailed, match="rung 'xinxin' that suite v1's ladder track has not"):
        verify_run(copy)


@needs_xinxin
def test_the_reference_opponents_play_as_when_the_suite_was_published():
    """xinxin's fingerprint under the two presets it plays; the opponents without one say why."""
    v1 = get_suite("v1")
    presets = ("openspiel", "standard")
    assert {key for key in v1.ladder_fingerprints if key[1] in {r.name for r in v1.references}} == \
        {(preset, rung.name) for preset in presets for rung in v1.references}
    for preset in presets:
        published = v1.ladder_fingerprints[preset, "xinxin"]
        assert ladder_fingerprint(v1.rung("xinxin", "reference").spec, v1.rules(preset), v1.seed(preset)) == published
        for name in ("openspiel-ismcts", "xinxin-literature", "xinxin-upstream"):
            assert v1.ladder_fingerprints[preset, name] is None and name in UNCHECKED


def test_unknown_tracks_and_opponents_are_refused_in_one_line():
    with pytest.raises(ValueError, match="track 'gauntlet' is not valid; valid: ladder, reference"):
        run_benchmark("greedy", tier="smoke", track="gauntlet")
    with pytest.raises(ValueError, match="no opponent 'pimc' in its reference track; its opponents: xinxin, "
                                         "openspiel-ismcts, xinxin-literature, xinxin-upstream"):
        run_benchmark("greedy", tier="smoke", track="reference", rungs=["pimc"])


def test_the_distribution_check_finds_gpl_code_in_a_wheel(tmp_path, capsys):
    """`make test-wheel` runs tests/wheel/no_gpl.py on the built wheel and sdist: it must catch xinxin in one."""
    import importlib.util
    import zipfile

    spec = importlib.util.spec_from_file_location("no_gpl", Path(__file__).parent / "wheel" / "no_gpl.py")
    no_gpl = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(no_gpl)
    with zipfile.ZipFile(tmp_path / "hearts_env-0-py3-none-any.whl", "w") as wheel:
        wheel.writestr("hearts_env/evaluation/reference/xinxin.py", "")  # ours, Apache-2.0: allowed
    assert no_gpl.main(str(tmp_path)) == 0
    with zipfile.ZipFile(tmp_path / "other-0-py3-none-any.whl", "w") as wheel:
        wheel.writestr("third_party/xinxin/Hearts.cpp", "")
    assert no_gpl.main(str(tmp_path)) == 1
    err = capsys.readouterr().err
    assert "GPL code in a distribution: other-0-py3-none-any.whl: third_party/xinxin/Hearts.cpp" in err
    assert no_gpl.main(str(tmp_path / "missing")) == 2
