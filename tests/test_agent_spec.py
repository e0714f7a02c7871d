"""An agent spec is parsed once, into one value (scheme, target, arguments) that every command takes; its errors are
raised in one place, and the seated schemes reach the registry from the evaluation wing through an entry point."""

from __future__ import annotations

from importlib.metadata import entry_points

import pytest

from hearts_env.agents import AgentError, AgentSpec, make_agent, parse_agent_spec, schemes
from hearts_env.agents.spec import SCHEME_GROUP


@pytest.mark.parametrize(("text", "scheme", "target", "kwargs", "seated"), [
    ("heuristic", None, "heuristic", {}, False),
    (" pimc(n=40, policy='apprentice') ", None, "pimc", {"n": 40, "policy": "apprentice"}, False),
    ("pkg.module:Factory(k=[1, 2])", None, "pkg.module:Factory", {"k": [1, 2]}, False),
    ("sb3:runs/ppo model.zip(deterministic=False)", "sb3", "runs/ppo model.zip", {"deterministic": False}, False),
    ("seat:node examples/seat_bot.js --fast", "seat", "node examples/seat_bot.js --fast", {}, True),
    ("hosted:pimc(n=10)", "hosted", "pimc(n=10)", {}, True),
])
def test_every_form_of_spec_parses_into_one_value(text, scheme, target, kwargs, seated):
    spec = AgentSpec.parse(text)
    assert (spec.scheme, spec.target, dict(spec.kwargs), spec.seated) == (scheme, target, kwargs, seated)
    assert str(spec) == text.strip() and AgentSpec.parse(spec) is spec
    assert spec.imports_code == (scheme is not None or ":" in target)


@pytest.mark.parametrize(("text", "message"), [
    ("", "cannot parse agent spec ''"),
    ("pimc(", "cannot parse agent spec 'pimc('"),
    ("pimc(40)", "arguments must be keyword arguments k=v"),
    ("pimc(**opts)", "arguments must be keyword arguments k=v"),
    ("pimc(n=os.getpid())", "the value of 'n' is not a Python literal"),
    ("pimc(n=)", "cannot parse the arguments of agent spec 'pimc(n=)'"),
    ("seat:", "'seat:' needs the command of a program, e.g. 'seat:node bot.js'"),
    ("hosted:  ", "'hosted:' needs the spec of a Python agent, e.g. 'hosted:heuristic'"),
    ("sb3:(x=1)", "cannot parse agent spec 'sb3:(x=1)'"),
])
def test_a_bad_spec_is_refused_in_one_line_naming_what_is_allowed(text, message):
    with pytest.raises(AgentError) as caught:
        AgentSpec.parse(text)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_not_a_string_is_refused():
    with pytest.raises(AgentError, match="an agent spec is a string"):
        AgentSpec.parse(3)  # type: ignore[arg-type]


def test_hosting_a_seated_spec_is_refused_when_it_is_built():
    with pytest.raises(AgentError, match="'hosted:' takes the spec of a Python agent"):
        make_agent("hosted:seat:node bot.js")


def test_the_seated_schemes_come_from_the_wing_through_the_entry_point_group():
    found = {ep.name: ep.value for ep in entry_points(group=SCHEME_GROUP)}
    assert found == {"seat": "hearts_env.evaluation.seat.schemes:SEAT",
                     "hosted": "hearts_env.evaluation.seat.schemes:HOSTED",
                     "remote": "hearts_env.evaluation.seat.schemes:REMOTE"}
    assert {name for name, scheme in schemes().items() if scheme.seated} == {"seat", "hosted", "remote"}
    assert not schemes()["sb3"].seated


def test_the_old_pair_is_the_parsed_specs_target_and_arguments():
    assert parse_agent_spec("ismcts(iterations=400)") == ("ismcts", {"iterations": 400})
    assert parse_agent_spec("sb3:m.zip(deterministic=True)") == ("m.zip", {"deterministic": True})


def test_the_arena_takes_a_parsed_spec_and_records_its_text():
    from hearts_env.evaluation.arena import run_arena

    parsed = run_arena([AgentSpec.parse("greedy"), "heuristic(moon_alarm=8)", "random", "heuristic"], deals=1,
                       jobs=1, isolation="none", seed=3)
    texts = run_arena(["greedy", "heuristic(moon_alarm=8)", "random", "heuristic"], deals=1, jobs=1,
                      isolation="none", seed=3)
    assert [r["seating"] for r in parsed] == [r["seating"] for r in texts]
    assert [r["points"] for r in parsed] == [r["points"] for r in texts]


def test_threads_that_read_a_spec_at_once_in_a_fresh_process_all_see_every_scheme_and_agent():
    """The registries load on first use. Sixteen threads parsing at once used to see them half-loaded: one loaded the
    entry points while the others took 'remote:alice' for a spec of no known scheme (a 64-seat load test's dealer
    threads were refused their seats)."""
    import subprocess
    import sys

    script = (
        "import threading\n"
        "from hearts_env.agents import AgentSpec, agent_names\n"
        "seen, start = [], threading.Barrier(16)\n"
        "def read():\n"
        "    start.wait()\n"
        "    seen.append((AgentSpec.parse('remote:alice').scheme, 'pimc' in agent_names()))\n"
        "threads = [threading.Thread(target=read) for _ in range(16)]\n"
        "[t.start() for t in threads]; [t.join() for t in threads]\n"
        "print(sorted(set(seen)))\n")
    for _ in range(3):
        out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
        assert out.stdout.strip() == "[('remote', True)]", out.stderr[-500:]
