"""hearts-env serve: the JSON API of the page, against the engine (docs/serve.md)."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings

import numpy as np
import pytest

from hearts_env.cards import iter_cards
from hearts_env.engine import Deal, IllegalActionError, Phase
from hearts_env.evaluation.arena import replay_record, run_arena
from hearts_env.web import DEFAULT_HOST, DEFAULT_PORT, MISSING, create_app, require

with warnings.catch_warnings():  # Starlette >= 1.x prefers httpx2 to httpx; either works
    warnings.filterwarnings("ignore", message=".*httpx.*")
    from fastapi.testclient import TestClient

LOCAL = "http://127.0.0.1"


@pytest.fixture(scope="module")
def record_file(tmp_path_factory):
    out = tmp_path_factory.mktemp("records") / "r.jsonl"
    run_arena(["heuristic", "random"], deals=1, rules="standard(game=deal)", jobs=1, out=out)
    return out


@pytest.fixture(scope="module")
def game_file(tmp_path_factory):
    """Games to 40 points: several deals per record."""
    out = tmp_path_factory.mktemp("games") / "g.jsonl"
    run_arena(["random"], deals=1, rules="standard(target=40)", jobs=1, out=out, isolation="none")
    return out


@pytest.fixture(scope="module")
def app(record_file, game_file):
    return create_app([record_file, game_file])


@pytest.fixture
def client(app):
    return TestClient(app, base_url=LOCAL)


def _engine(client, state):
    """The server's Deal behind a game's state (the test reads the session store)."""
    return client.app.state.games.get(state["id"]).deal


def _ids(cards):
    return [c["id"] for c in cards]


def _new(client, seats=("you", "heuristic", "random", "greedy"), rules="standard(game=deal)", seed=1):
    r = client.post("/api/games", json={"seats": list(seats), "rules": rules, "seed": seed})
    assert r.status_code == 200, r.text
    return r.json()


def _advance(client, state):
    """Let the agents play until it is the person's turn or the deal is over."""
    while not state["your_turn"] and state["phase"] != "done":
        r = client.post(f"/api/games/{state['id']}/step")
        assert r.status_code == 200, r.text
        state = r.json()
    return state


def _passing_seed(client, seat=0):
    for seed in range(20):
        state = _new(client, seats=["you" if s == seat else "heuristic" for s in range(4)], seed=seed)
        if state["pass_direction"] != "hold":
            return state
    raise AssertionError("no seed passes")


def test_a_whole_deal_through_the_api_passing_included(client):
    state = _advance(client, _passing_seed(client, seat=2))
    rng = np.random.default_rng(0)
    assert state["person"] == 2 and state["phase"] == "pass" and state["pass_count"] == 3
    passes = plays = 0
    while state["phase"] != "done":
        deal = _engine(client, state)
        me = state["seats"][2]
        assert _ids(me["hand"]) == list(iter_cards(deal.hands[2]))
        assert _ids(state["legal"]) == deal.legal_cards()
        assert all(state["seats"][s]["hand"] is None for s in (0, 1, 3))
        assert [s["hand_size"] for s in state["seats"]] == [h.bit_count() for h in deal.hands]
        assert [s["tricks"] for s in state["seats"]] == deal.tricks_won
        card = int(rng.choice(_ids(state["legal"])))
        passing = state["phase"] == "pass"
        r = client.post(f"/api/games/{state['id']}/move", json={"card": card})
        assert r.status_code == 200, r.text
        passes, plays = passes + passing, plays + (not passing)
        state = _advance(client, r.json())
        if passing and state["phase"] != "pass":
            assert len(state["seats"][2]["received"]) == 3
    deal = _engine(client, state)
    assert (passes, plays) == (3, 13)
    assert state["points"] == deal.points and sum(deal.points) in (26, 78)
    assert state["scores_after"] == deal.points and state["game_over"] and state["winners"]
    again = Deal(deal.rules, deal.dealt, deal.pass_direction, deal.dealer).apply_all(deal.history)
    assert again.points == state["points"]
    assert sum(s["points_taken"] for s in state["seats"]) == 26
    assert state["seats"][2]["hand"] == [] and state["legal"] == []
    assert any("deal over" in line for line in state["log"])


def test_an_illegal_card_gets_the_engines_explanation(client):
    state = _advance(client, _new(client, seats=["you", "heuristic", "heuristic", "heuristic"],
                                  rules="standard(game=deal, passing=none)", seed=3))
    while state["phase"] == "play" and len(state["legal"]) == len(state["seats"][0]["hand"]):
        state = _advance(client, client.post(f"/api/games/{state['id']}/move",
                                             json={"card": state["legal"][0]["id"]}).json())
    deal = _engine(client, state)
    illegal = next(c for c in _ids(state["seats"][0]["hand"]) if c not in _ids(state["legal"]))
    with pytest.raises(IllegalActionError) as expected:
        deal.clone().apply(illegal)
    r = client.post(f"/api/games/{state['id']}/move", json={"card": illegal})
    assert r.status_code == 400 and r.json()["detail"] == str(expected.value)
    assert "legal cards" in r.json()["detail"]
    assert _engine(client, state).history == deal.history  # nothing changed
    r = client.post(f"/api/games/{state['id']}/move", json={"card": 99})
    assert r.status_code == 400 and "is not a card id" in r.json()["detail"]
    r = client.post(f"/api/games/{state['id']}/move", json={"card": "XX"})
    assert r.status_code == 400 and "is not a card" in r.json()["detail"]
    assert client.post(f"/api/games/{state['id']}/move", json={"card": 1.5}).status_code == 422
    assert client.post(f"/api/games/{state['id']}/move", json={"card": True}).status_code == 422
    name = next(c for c in state["legal"])["name"]
    assert client.post(f"/api/games/{state['id']}/move", json={"card": name}).status_code == 200


def test_moves_out_of_turn_are_conflicts(client):
    state = _new(client, seats=["heuristic", "you", "heuristic", "heuristic"], seed=5)
    if state["your_turn"]:
        assert client.post(f"/api/games/{state['id']}/step").status_code == 409
    else:
        r = client.post(f"/api/games/{state['id']}/move", json={"card": state["seats"][1]["hand"][0]["id"]})
        assert r.status_code == 409 and "not yours" in r.json()["detail"]
    assert client.post(f"/api/games/{state['id']}/next").status_code == 409


def test_a_bad_session_id_is_404(client):
    for method, url, body in [("get", "/api/games/nope", None), ("post", "/api/games/nope/move", {"card": 0}),
                              ("post", "/api/games/nope/step", None), ("post", "/api/games/nope/next", None),
                              ("post", "/api/games/nope/hint", {"spec": "heuristic"})]:
        r = getattr(client, method)(url, **({"json": body} if body else {}))
        assert r.status_code == 404 and "no game with id 'nope'" in r.json()["detail"]


def test_the_seat_view_hides_other_hands(client):
    state = _new(client, seats=["heuristic", "heuristic", "you", "heuristic"], seed=7)
    for view in (-1, 0, 2):  # while a person plays, the page gets that seat's view whatever it asks
        shown = client.get(f"/api/games/{state['id']}?view={view}").json()
        assert shown["viewer"] == 2
        assert [s["hand"] is None for s in shown["seats"]] == [True, True, False, True]
        assert [s["passed"] is None for s in shown["seats"]] == [True, True, False, True]
        deal = _engine(client, state)
        others = deal.hands[0] | deal.hands[1] | deal.hands[3]
        assert not set(_ids(shown["seats"][2]["hand"])) & set(iter_cards(others))


def test_watching_four_agents_god_view_and_seat_views(client):
    state = _new(client, seats=["heuristic", "greedy", "random", "heuristic"], rules="standard(target=30)", seed=2)
    assert state["kind"] == "watch" and state["person"] is None and all(s["hand"] for s in state["seats"])
    assert client.post(f"/api/games/{state['id']}/move", json={"card": 0}).status_code == 409
    seat_view = client.get(f"/api/games/{state['id']}?view=1").json()
    assert [s["hand"] is None for s in seat_view["seats"]] == [True, False, True, True]
    assert client.get(f"/api/games/{state['id']}?view=4").status_code == 422
    deals = 0
    while not state["game_over"]:
        state = _advance(client, state)
        deal = _engine(client, state)
        assert state["points"] == deal.points
        deals += 1
        if not state["game_over"]:
            state = client.post(f"/api/games/{state['id']}/next").json()
            assert state["phase"] != "done" and state["deal_index"] == deals
    assert max(state["scores_after"]) >= 30 and deals >= 2
    assert client.post(f"/api/games/{state['id']}/next").json()["detail"] == "the game is over"


def test_a_replay_steps_forwards_and_backwards_to_the_records_points(client, record_file):
    files = client.get("/api/records").json()
    assert (files[0]["index"], files[0]["name"], files[0]["games"], files[0]["error"]) == (0, "r.jsonl", 14, None)
    games = client.get("/api/records/0").json()
    record = json.loads(record_file.read_text().splitlines()[3])
    assert games[3]["seating"] == record["seating"] and games[3]["points"] == record["points"]
    url = "/api/records/0/games/3/deals/0"
    first = client.get(f"{url}?step=0").json()
    steps = first["steps"]
    assert steps == len(record["deals"][0]["history"]) == 12 * (record["deals"][0]["pass_direction"] != "hold") + 52
    forward = [first]
    for k in range(1, steps + 1):
        forward.append(client.get(f"{url}?step={k}").json())
        assert forward[-1]["last_move"]["card"]["id"] == record["deals"][0]["history"][k - 1]
    final = forward[-1]
    assert final["phase"] == "done" and final["points"] == record["deals"][0]["points"] == record["points"]
    assert final["points"] == replay_record(record, 0).points == final["record_points"]
    for k in range(steps, -1, -1):
        assert client.get(f"{url}?step={k}").json() == forward[k]
    assert client.get(f"{url}?step={steps + 1}").status_code == 404
    assert client.get(f"{url}?step=-1").status_code == 404
    seat_view = client.get(f"{url}?step=20&view=1").json()
    assert [s["hand"] is None for s in seat_view["seats"]] == [True, False, True, True]
    assert all(s["hand"] is not None for s in forward[20]["seats"])


def test_a_game_of_several_deals_replays_each_deal_with_its_scores(client, game_file):
    record = json.loads(game_file.read_text().splitlines()[0])
    assert len(record["deals"]) >= 2
    running = [0, 0, 0, 0]
    for k, d in enumerate(record["deals"]):
        state = client.get(f"/api/records/1/games/0/deals/{k}?step={len(d['history'])}").json()
        assert state["scores"] == running and state["points"] == d["points"] and state["deals"] == len(record["deals"])
        running = [a + b for a, b in zip(running, d["points"])]
    assert running == record["points"]
    assert client.get(f"/api/records/1/games/0/deals/{len(record['deals'])}").status_code == 404


def test_no_request_can_name_a_file(client, app):
    assert client.get("/api/records/2").status_code == 404
    assert "given 2" in client.get("/api/records/7/games/0/deals/0").json()["detail"]
    assert client.get("/api/records/0/games/14/deals/0").status_code == 404
    assert client.get("/api/records/..%2F..%2Fetc%2Fpasswd").status_code in (404, 422)
    assert client.get("/api/records/r.jsonl").status_code == 422  # files are indices, never names or paths
    assert client.get("/static/../sessions.py").status_code == 404
    for path, methods in app.openapi()["paths"].items():
        for operation in methods.values():
            for parameter in operation.get("parameters", []):
                name = parameter["name"]
                assert name not in ("path", "file_path", "filename"), (path, name)
                if name == "file":
                    assert parameter["schema"]["type"] == "integer"
    empty = TestClient(create_app([]), base_url=LOCAL)
    assert empty.get("/api/records").json() == []
    assert "without --records" in empty.get("/api/records/0").json()["detail"]


@pytest.mark.parametrize("spec", ["os:system(command='true')", "sb3:/etc/passwd", "ppo(weights='/etc/passwd')",
                                  "pimc(policy='sb3:/tmp/x.zip')", "qlearning(weights='x')", "nosuch",
                                  "heuristic(x=[1])", "pimc(policy='hearts_env.agents.basic:RandomAgent')"])
def test_requests_cannot_import_code_or_read_files_through_agent_specs(client, spec):
    r = client.post("/api/games", json={"seats": ["you", spec, "heuristic", "heuristic"], "seed": 0})
    assert r.status_code == 400, r.text
    assert any(why in r.json()["detail"] for why in ("--agent", "registered agents", "must be a number"))


def test_specs_given_at_start_are_offered_and_bad_arguments_are_refused():
    client = TestClient(create_app([], agents=["hearts_env.agents.basic:RandomAgent"]), base_url=LOCAL)
    assert "hearts_env.agents.basic:RandomAgent" in client.get("/api/info").json()["agents"]
    ok = client.post("/api/games", json={"seats": ["you", "hearts_env.agents.basic:RandomAgent", "pimc(n=2)",
                                                   "heuristic"], "seed": 0})
    assert ok.status_code == 200, ok.text
    bad = client.post("/api/games", json={"seats": ["you", "pimc(n=0)", "random", "random"]})
    assert bad.status_code == 400 and "n (rollouts per candidate)" in bad.json()["detail"]
    rules = client.post("/api/games", json={"seats": ["you", "random", "random", "random"], "rules": "nosuch"})
    assert rules.status_code == 400 and "valid presets" in rules.json()["detail"]
    two = client.post("/api/games", json={"seats": ["you", "you", "random", "random"]})
    assert two.status_code == 400
    assert client.post("/api/games", json={"seats": ["random"] * 3}).status_code == 422


def test_a_hint_gives_the_searchers_estimates_per_card(client):
    state = _advance(client, _new(client, seats=["you", "heuristic", "heuristic", "heuristic"],
                                  rules="standard(game=deal, passing=none)", seed=11))
    while len(state["legal"]) < 2:
        state = _advance(client, client.post(f"/api/games/{state['id']}/move",
                                             json={"card": state["legal"][0]["id"]}).json())
    r = client.post(f"/api/games/{state['id']}/hint", json={"spec": "pimc(n=8)"})
    assert r.status_code == 200, r.text
    hint = r.json()
    assert sorted(_ids(e["card"] for e in hint["estimates"])) == _ids(state["legal"])
    means = [e["mean_points"] for e in hint["estimates"]]
    assert means == sorted(means) and hint["card"] == hint["estimates"][0]["card"]
    plain = client.post(f"/api/games/{state['id']}/hint", json={"spec": "heuristic"}).json()
    assert plain["estimates"] is None and plain["card"]["id"] in _ids(state["legal"])
    assert client.post(f"/api/games/{state['id']}/hint", json={"spec": "sb3:x"}).status_code == 400


def test_a_replay_hint_names_the_searchers_card_and_the_recorded_one(client, record_file):
    record = json.loads(record_file.read_text().splitlines()[0])
    step = len(record["deals"][0]["history"]) - 8
    r = client.get(f"/api/records/0/games/0/deals/0/hint?step={step}&spec=pimc(n=4)")
    assert r.status_code == 200, r.text
    hint = r.json()
    assert hint["played"]["id"] == record["deals"][0]["history"][step]
    at = client.get(f"/api/records/0/games/0/deals/0?step={step}").json()
    assert hint["seat"] == at["current"] and hint["card"]["id"] in _ids(at["legal"])
    done = client.get(f"/api/records/0/games/0/deals/0/hint?step={step + 8}&spec=heuristic")
    assert done.status_code == 409


def test_the_page_and_its_files_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and "/static/app.js" in page.text
    assert client.get("/static/app.js").status_code == 200 and client.get("/static/style.css").status_code == 200


def test_only_local_host_names_are_answered(app):
    assert TestClient(app, base_url="http://localhost").get("/api/info").status_code == 200
    assert TestClient(app, base_url="http://evil.example").get("/api/info").status_code == 400


def test_a_body_that_is_not_json_is_refused(client):
    """A page from another site can send text/plain without asking the server: it must not start a game."""
    body = json.dumps({"seats": ["you", "random", "random", "random"]})
    r = client.post("/api/games", content=body, headers={"Content-Type": "text/plain"})
    assert r.status_code == 422


def test_the_default_host_is_loopback(monkeypatch, capsys):
    from hearts_env import web
    from hearts_env.cli import main

    assert DEFAULT_HOST == "127.0.0.1" and DEFAULT_PORT == 8765
    seen = {}
    def serve(host, port, records, agents, ready):  # the page's address is said once the port is bound
        seen.update(host=host, port=port)
        ready(f"http://{host}:{port}/")

    monkeypatch.setattr(web, "serve", serve)
    assert main(["serve"]) == 0
    assert seen == {"host": "127.0.0.1", "port": 8765}
    assert "http://127.0.0.1:8765/" in capsys.readouterr().out
    assert main(["serve", "--records", "/no/such/file.jsonl"]) == 2
    assert "no such file" in capsys.readouterr().err


def test_a_missing_web_extra_is_named(monkeypatch):
    monkeypatch.setitem(sys.modules, "fastapi", None)
    with pytest.raises(ImportError, match=r"pip install 'hearts-env\[web\]'"):
        require()
    assert "hearts-env[web]" in MISSING


def test_importing_hearts_env_loads_no_web_library():
    code = ("import sys, hearts_env, hearts_env.cli\n"
            "print(sorted(m for m in ('fastapi', 'uvicorn') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_an_agent_error_stops_the_game_with_its_reason():
    from hearts_env.web.sessions import Game

    class Broken:
        def reset(self, rules, seat, seed=None):
            pass

        def act(self, view):
            raise RuntimeError("boom")

        def end_deal(self, view):
            pass

    from hearts_env.rules import make_rules

    game = Game(make_rules("standard(game=deal, passing=none)"), [Broken(), Broken(), Broken(), Broken()],
                ["broken"] * 4, seed=0)
    game.step()
    assert game.error is not None and "boom" in game.error
    assert game.state(None)["error"] == game.error
    assert game.deal.phase == Phase.PLAY
