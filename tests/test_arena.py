"""Arena: seatings, the break-even alarm, parallel = serial, resume, agent failures, statistics."""

import json

import numpy as np
import pytest

from hearts_env.agents import Agent
from hearts_env.cards import iter_cards
from hearts_env.evaluation.arena import bootstrap_interval, format_summary, run_arena, seatings, summarize

RULES = "standard(game=deal)"


def test_seatings():
    two = seatings(2)
    assert len(two) == 14 and len(set(two)) == 14
    assert all(0 < sum(s) < 4 for s in two)
    assert seatings(4) == [(0, 1, 2, 3), (1, 2, 3, 0), (2, 3, 0, 1), (3, 0, 1, 2)]
    assert seatings(1) == [(0, 0, 0, 0)]
    with pytest.raises(ValueError, match="1, 2 or 4"):
        seatings(3)


def test_break_even_alarm():
    """Four labels of one deterministic agent: every label's mean equals the table mean, deal by deal."""
    labels = ["heuristic", "heuristic()", "heuristic(moon_alarm=8)", "hearts_env.agents.basic:HeuristicAgent"]
    records = run_arena(labels, deals=30, rules=RULES, jobs=1)
    summary = summarize(records)
    table = np.mean([sum(r["points"]) / 4 for r in records])
    for label in labels:
        assert summary["agents"][label]["mean_points"] == pytest.approx(table)
    for r in records:
        assert sum(r["points"]) == (78 if r["moons"] else 26)


def _untimed(records):
    """Records without the thinking times (the only fields that differ between identical runs)."""
    return [{k: v for k, v in r.items() if k not in ("think_seconds", "slowest_move_seconds")} for r in records]


def test_parallel_equals_serial():
    a = run_arena(["greedy", "random"], deals=6, rules=RULES, seed=3, jobs=1)
    b = run_arena(["greedy", "random"], deals=6, rules=RULES, seed=3, jobs=2)
    assert _untimed(a) == _untimed(b)
    assert len(a) == 6 * 14
    for r in a:  # every pass and play was timed
        assert sum(r["decisions"]) == 52 + (12 if r["deals"][0]["pass_direction"] != "hold" else 0)
    greedy = summarize(a)["agents"]["greedy"]
    assert 0 < greedy["seconds_per_move"] <= greedy["slowest_move_seconds"]
    assert all(max(r["slowest_move_seconds"]) <= max(r["think_seconds"]) for r in a)


def test_same_deal_in_every_seating():
    records = run_arena(["greedy", "random"], deals=2, rules=RULES, jobs=1)
    by_deal = {}
    for r in records:
        by_deal.setdefault(r["deal"], set()).add(tuple(r["deals"][0]["hands"]))
    assert all(len(v) == 1 for v in by_deal.values())


def test_resume_after_an_interrupted_run(tmp_path):
    out = tmp_path / "run.jsonl"
    full = run_arena(["heuristic", "greedy"], deals=5, rules=RULES, seed=1, jobs=1, out=out)
    lines = out.read_text().splitlines()
    assert len(lines) == len(full) == 70
    # simulate a kill: keep 31 complete records and half of the next line
    out.write_text("\n".join(lines[:31]) + "\n" + lines[31][: len(lines[31]) // 2])
    resumed = run_arena(["heuristic", "greedy"], deals=5, rules=RULES, seed=1, jobs=2, out=out, resume=True)
    assert _untimed(resumed) == _untimed(full)
    keys = [(json.loads(x)["deal"], json.loads(x)["seating_index"]) for x in out.read_text().splitlines()]
    assert sorted(keys) == sorted((r["deal"], r["seating_index"]) for r in full)  # each game once in the file
    with pytest.raises(FileExistsError, match="--resume"):
        run_arena(["heuristic", "greedy"], deals=5, rules=RULES, seed=1, out=out)
    with pytest.raises(ValueError, match="another tournament"):
        run_arena(["heuristic", "random"], deals=5, rules=RULES, seed=1, out=out, resume=True)


class Crasher(Agent):
    def act(self, view):
        if view.trick_index == 2:
            raise RuntimeError("boom")
        return min(iter_cards(view.legal))


class Cheater(Agent):
    def act(self, view):
        return max(iter_cards(view.hand & ~view.legal)) if view.hand & ~view.legal else min(iter_cards(view.legal))


@pytest.mark.parametrize(("factory", "kind"), [("test_arena:Crasher", "exception"), ("test_arena:Cheater", "illegal")])
def test_agent_failures_are_recorded_and_the_run_continues(factory, kind, monkeypatch):
    monkeypatch.syspath_prepend(str(__import__("pathlib").Path(__file__).parent))
    records = run_arena([factory, "random"], deals=3, rules=RULES, jobs=1)
    assert len(records) == 42
    failed = [r for r in records if r["error"] is not None]
    assert failed and all(r["error"]["kind"] == kind and r["error"]["spec"] == factory for r in failed)
    summary = summarize(records)
    assert len(summary["errors"]) == len(failed)
    assert "agent error" in format_summary(summary)


def test_bootstrap_interval_on_known_data():
    rng = np.random.default_rng(0)
    values = rng.normal(2.0, 1.0, size=2000)
    lo, hi = bootstrap_interval(values)
    assert lo < 2.0 < hi
    assert hi - lo == pytest.approx(2 * 1.96 / np.sqrt(2000), rel=0.15)  # the normal-theory width
    assert bootstrap_interval(np.full(50, 3.0)) == (3.0, 3.0)


def test_paired_difference_sign():
    records = run_arena(["heuristic", "random"], deals=20, rules=RULES, jobs=1)
    pair = summarize(records)["paired"]["heuristic - random"]
    assert pair["ci95"][1] < 0  # heuristic takes fewer points than random, clearly


def test_game_episodes_give_win_rates():
    records = run_arena(["heuristic", "random"], deals=2, rules="standard(target=40)", jobs=1)
    for r in records:
        assert max(r["points"]) >= 40 and len(r["deals"]) >= 2
        assert r["winners"] == [s for s in range(4) if r["points"][s] == min(r["points"])]
    summary = summarize(records)
    assert summary["unit"] == "game"
    shares = sum(a["win_rate"] * a["seat_games"] for a in summary["agents"].values())
    assert shares == pytest.approx(len(records))  # one win shared per game
    assert summary["agents"]["heuristic"]["win_rate"] > summary["agents"]["random"]["win_rate"]
    text = format_summary(summary)
    assert "points/game" in text and "points/deal" not in text and "over 2 games" in text  # paired line too


class Sleeper(Agent):
    def act(self, view):
        import time

        time.sleep(0.02)
        return min(iter_cards(view.legal))


def test_move_time_limit_records_a_timeout(monkeypatch):
    monkeypatch.syspath_prepend(str(__import__("pathlib").Path(__file__).parent))
    records = run_arena(["test_arena:Sleeper", "random"], deals=1, rules=RULES, jobs=1, move_time_limit=0.005)
    assert all(r["error"]["kind"] == "timeout" for r in records)
    assert len(run_arena(["test_arena:Sleeper", "random"], deals=1, rules=RULES, jobs=1)) == 14  # no limit


def test_ratings_and_plot(tmp_path):
    from hearts_env.evaluation.arena.report import plot, ratings

    records = run_arena(["heuristic", "random"], deals=10, rules=RULES, jobs=1)
    table = ratings(records)
    assert list(table) == ["heuristic", "random"]  # best first
    assert table["heuristic"]["mu"] > table["random"]["mu"]
    png = tmp_path / "ladder.png"
    plot(records, summarize(records), str(png))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_ray_backend_without_ray_says_how_to_install():
    try:  # ray is not part of the test extra (1.8 GB); where it is installed, the backend runs
        import ray  # noqa: F401
    except ImportError:
        with pytest.raises(ImportError, match=r"hearts-env\[ray\]"):
            run_arena(["random"], deals=1, rules=RULES, backend="ray")
    else:  # pragma: no cover - only where ray is installed
        assert len(run_arena(["random"], deals=1, rules=RULES, backend="ray", jobs=1)) == 1


def test_plain_progress_without_tqdm(monkeypatch, capsys):
    import builtins

    real_import = builtins.__import__

    def no_tqdm(name, *args, **kwargs):
        if name == "tqdm":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_tqdm)
    run_arena(["random"], deals=20, rules=RULES, jobs=1, progress=True)
    assert "ETA" in capsys.readouterr().err


class Recorder(Agent):
    finals: list = []  # noqa: RUF012 (shared across instances on purpose: the test reads it)

    def act(self, view):
        return min(iter_cards(view.legal))

    def end_deal(self, view):
        Recorder.finals.append((view.seat, view.final_points))


def test_agents_hear_the_end_of_every_deal(monkeypatch):
    monkeypatch.syspath_prepend(str(__import__("pathlib").Path(__file__).parent))
    import test_arena

    test_arena.Recorder.finals.clear()
    records = run_arena(["test_arena:Recorder"], deals=2, rules=RULES, jobs=1, isolation="none")  # in this process
    assert sorted(test_arena.Recorder.finals) == sorted((s, tuple(r["points"])) for r in records for s in range(4))


def test_moon_attempts():
    from hearts_env.engine import Deal
    from hearts_env.evaluation.arena import moon_attempts

    hands = ["AH KH QH JH TH 9H 8H AS KS QS AC KC AD", "2C 3C 4C 5C 6C 7C 8C 2H 3H 4H 5H 6H 7H",
             "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD 9C", "2S 3S 4S 5S 6S 7S 8S 9S TS JS TC JC QC"]
    deal = Deal.from_hands("sturtevant", hands)  # seat 0 takes everything with top cards first
    while not deal.is_over:
        legal = deal.legal_cards()
        deal.apply(legal[-1] if deal.current == 0 else legal[0])
    assert deal.moon_shooter == 0 and moon_attempts(deal) == [0]
    # random play, seed 47: seat 0 held every point (at least 13) after trick 10, then others took 7
    failed = Deal.random("sturtevant", 47)
    failed.playout(47)
    assert failed.moon_shooter is None and [failed.penalty_points(s) for s in range(4)] == [19, 6, 0, 1]
    assert moon_attempts(failed) == [0]
    # seed 0: points were already split by trick 10
    split = Deal.random("sturtevant", 0)
    split.playout(0)
    assert [split.penalty_points(s) for s in range(4)] == [5, 0, 21, 0] and moon_attempts(split) == []


class QuitterWhenPointed(Agent):
    """Greedy until it has taken a point, then raises: hoping an error wipes the deal from the figures."""

    def __init__(self):
        super().__init__()
        from hearts_env.agents.basic import GreedyAgent

        self.greedy = GreedyAgent()

    def act(self, view):
        if view.points_taken[view.seat] > 0:
            raise RuntimeError("I would rather not finish this deal")
        return self.greedy.act(view)


def test_an_agent_that_errors_when_losing_gains_nothing(monkeypatch):
    """Errors are charged as forfeits: quitting once it holds points is worse than playing on as greedy."""
    monkeypatch.syspath_prepend(str(__import__("pathlib").Path(__file__).parent))
    quitter = "test_arena:QuitterWhenPointed"
    records = run_arena([quitter, "greedy"], deals=40, rules=RULES, jobs=1)
    summary = summarize(records)
    errored = [r for r in records if r["error"] is not None]
    assert errored and all(r["points"] is not None for r in records)
    for r in errored:  # the offender takes the deal's penalty total, the others nothing, and cannot win
        offender = r["error"]["seat"]
        assert r["points"] == [26 if s == offender else 0 for s in range(4)]
        assert offender not in r["winners"] and r["winners"]
    honest = summarize(run_arena(["greedy", "greedy()"], deals=40, rules=RULES, jobs=1))
    assert summary["agents"][quitter]["mean_points"] > honest["agents"]["greedy"]["mean_points"]
    assert summary["paired"][f"greedy - {quitter}"]["mean_difference"] < 0  # greedy now looks better
    text = format_summary(summary)
    assert text.startswith("AGENT ERRORS:") and f"{quitter}: {len(errored)} exception" in text


def test_forfeit_in_a_game_to_the_target():
    from hearts_env.evaluation.arena.game import forfeit

    points, winners = forfeit([10, 40, 35, 20], offender=0, penalty_total=26)
    assert points == [36, 40, 35, 20] and winners == [3]
    points, winners = forfeit([5, 5, 9, 5], offender=1, penalty_total=26)
    assert points == [5, 31, 9, 5] and winners == [0, 3]  # the offender is never among the winners


def test_cli_exits_non_zero_when_agents_erred_unless_allowed(monkeypatch, capsys):
    from hearts_env.cli import main

    monkeypatch.syspath_prepend(str(__import__("pathlib").Path(__file__).parent))
    args = ["arena", "test_arena:Crasher", "random", "--deals", "1", "--jobs", "1"]
    assert main(args) == 3
    assert "agent error" in capsys.readouterr().err
    assert main([*args, "--allow-errors"]) == 0
    assert main(["arena", "greedy", "random", "--deals", "1", "--jobs", "1"]) == 0


def test_resume_refuses_a_file_from_before_errors_were_charged(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(__import__("pathlib").Path(__file__).parent))
    out = tmp_path / "old.jsonl"
    run_arena(["test_arena:Crasher", "random"], deals=1, rules=RULES, jobs=1, out=out)
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    for r in lines:  # forge the old format: errored games had no points
        if r["error"] is not None:
            r["points"], r["winners"] = None, []
    out.write_text("".join(json.dumps(r) + "\n" for r in lines))
    with pytest.raises(ValueError, match="forfeit"):
        run_arena(["test_arena:Crasher", "random"], deals=2, rules=RULES, jobs=1, out=out, resume=True)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"deals": 0}, "deals"), ({"deals": -5}, "deals"), ({"deals": 2.5}, "deals"), ({"deals": True}, "deals"),
    ({"jobs": 0}, "jobs"), ({"move_time_limit": 0}, "move_time_limit"), ({"move_time_limit": -1}, "move_time_limit"),
    ({"resume": True}, "resume needs"), ({"out": "/tmp"}, "is a folder"),
    ({"agent_seed": -1}, "agent_seed"), ({"agent_seed": True}, "agent_seed"), ({"agent_seed": "7"}, "agent_seed"),
])
def test_nonsense_arguments_are_refused_before_playing(kwargs, message):
    args = {"deals": 2, **kwargs}
    with pytest.raises(ValueError, match=message):
        run_arena(["greedy", "random"], rules=RULES, **args)


def test_resume_refuses_another_move_time_limit(tmp_path):
    out = tmp_path / "run.jsonl"
    run_arena(["greedy", "random"], deals=1, rules=RULES, jobs=1, out=out, move_time_limit=5.0)
    with pytest.raises(ValueError, match="mix two settings"):
        run_arena(["greedy", "random"], deals=2, rules=RULES, jobs=1, out=out, resume=True)
    assert len(run_arena(["greedy", "random"], deals=2, rules=RULES, jobs=1, out=out, resume=True,
                         move_time_limit=5.0)) == 28


class SeedRecorder(Agent):
    seeds: list = []  # noqa: RUF012 (shared across instances on purpose: the test reads it)

    def reset(self, rules, seat, seed=None):
        super().reset(rules, seat, seed)
        SeedRecorder.seeds.append(seed)

    def act(self, view):
        return int(self.rng.choice(list(iter_cards(view.legal))))


def test_agent_seeds_hide_the_deals_seed_when_given_and_resume_keeps_them(monkeypatch, tmp_path):
    monkeypatch.syspath_prepend(str(__import__("pathlib").Path(__file__).parent))
    import test_arena

    test_arena.SeedRecorder.seeds.clear()
    plain = run_arena(["test_arena:SeedRecorder", "random"], deals=2, rules=RULES, seed=11, jobs=1, isolation="none")
    assert {s[0] for s in test_arena.SeedRecorder.seeds if isinstance(s, list)} == {11}  # the deals' seed
    test_arena.SeedRecorder.seeds.clear()
    out = tmp_path / "run.jsonl"
    hidden = run_arena(["test_arena:SeedRecorder", "random"], deals=2, rules=RULES, seed=11, jobs=1, isolation="none",
                       agent_seed=99, out=out)
    assert {s[0] for s in test_arena.SeedRecorder.seeds if isinstance(s, list)} == {99}
    assert all(r["agent_seed"] == 99 and r["seed"] == 11 for r in hidden) and "agent_seed" not in plain[0]
    assert [r["deals"][0]["hands"] for r in hidden] == [r["deals"][0]["hands"] for r in plain]  # the same deals
    assert [r["deals"][0]["history"] for r in hidden] != [r["deals"][0]["history"] for r in plain]  # other play
    with pytest.raises(ValueError, match="other agent seeds"):
        run_arena(["test_arena:SeedRecorder", "random"], deals=3, rules=RULES, seed=11, jobs=1, out=out, resume=True)


def test_one_deal_gives_no_interval_and_says_so():
    text = format_summary(summarize(run_arena(["greedy", "random"], deals=1, rules=RULES, jobs=1)))
    assert "nan" not in text and "too few for an interval" in text and "(different)" not in text


def test_cli_checks_the_plot_file_before_playing(tmp_path, capsys):
    from hearts_env.cli import main

    assert main(["arena", "greedy", "random", "--deals", "1", "--plot", str(tmp_path / "plot.txt")]) == 2
    assert main(["arena", "greedy", "random", "--deals", "1", "--plot", str(tmp_path / "missing" / "p.png")]) == 2
    err = capsys.readouterr().err
    assert "before playing" in err and "games" not in err


def test_cli_prints_ratings_in_text_mode(capsys):
    pytest.importorskip("openskill")
    from hearts_env.cli import main

    assert main(["arena", "greedy", "random", "--deals", "2", "--jobs", "1", "--ratings"]) == 0
    out = capsys.readouterr().out
    assert "rating greedy: mu" in out and "rating random: mu" in out


class Exiter(Agent):
    """Ends its own process in the middle of a deal (as a segfault or an out-of-memory kill would)."""

    def act(self, view):
        if view.trick_index == 3:
            import os

            os._exit(1)
        return min(iter_cards(view.legal))


@pytest.mark.parametrize("isolation", ["seating", "none"])
def test_a_worker_that_dies_stops_the_run_with_a_clear_error_instead_of_hanging(tmp_path, isolation):
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parent), os.environ.get("PYTHONPATH", "")])}
    out = tmp_path / "run.jsonl"
    done = subprocess.run([sys.executable, "-m", "hearts_env.cli", "arena", "test_arena:Exiter", "random", "--deals",
                           "2", "--jobs", "2", "--out", str(out), "--isolation", isolation], capture_output=True,
                          text=True, env=env,
                          timeout=300)  # a hang fails here
    assert done.returncode == 2
    assert "worker process died" in done.stderr and "--jobs 1" in done.stderr


_SEEN: dict[int, tuple[int, ...]] = {}
"""Module-level memory of the Memorizer: survives fresh agent objects (and class attributes would too)."""


class Memorizer(Agent):
    """Remembers every deal it finishes (all four hands, keyed by each of them) and, when a later game
    deals it a hand it has seen, appends a line to the file named in $HEARTS_MEMO_LOG: it knows every
    other hand before the first card. The hostile submitter of the arena's isolation test."""

    def reset(self, rules, seat, seed=None):
        super().reset(rules, seat, seed)
        self.first = True

    def act(self, view):
        if self.first and view.dealt in _SEEN:
            import os

            with open(os.environ["HEARTS_MEMO_LOG"], "a") as f:
                f.write(f"{view.seat} knew {_SEEN[view.dealt]}\n")
        self.first = False
        return min(iter_cards(view.legal))

    def end_deal(self, view):
        hands = view.played_by  # no passing: every seat played exactly the hand it was dealt
        for hand in hands:
            _SEEN[hand] = hands


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_agent_that_remembers_deals_sees_none_of_them_again(monkeypatch, tmp_path, jobs):
    """Each seating's pass runs in fresh processes: a memorizer never meets a deal it has seen, in any
    of the 14 seatings, whatever it keeps in its module. Without isolation it would, in most games."""
    monkeypatch.syspath_prepend(str(__import__("pathlib").Path(__file__).parent))
    log = tmp_path / "memo.log"
    log.touch()
    monkeypatch.setenv("HEARTS_MEMO_LOG", str(log))
    records = run_arena(["test_arena:Memorizer", "random"], deals=3, rules="sturtevant", jobs=jobs)
    assert len(records) == 3 * 14 and log.read_text() == ""
    run_arena(["test_arena:Memorizer", "random"], deals=3, rules="sturtevant", jobs=1, isolation="none")
    assert len(log.read_text().splitlines()) >= 3 * 13  # the control: every later seating recognizes the deal


class ThreadCounter(Agent):
    """Writes its process and how many threads torch would use there to the file named in $HEARTS_THREADS_LOG."""

    def reset(self, rules, seat, seed=None):
        super().reset(rules, seat, seed)
        import os

        import torch

        with open(os.environ["HEARTS_THREADS_LOG"], "a") as f:
            f.write(f"{os.getpid()} {torch.get_num_threads()}\n")

    def act(self, view):
        return min(iter_cards(view.legal))


@pytest.mark.parametrize("isolation", ["seating", "none"])
def test_workers_share_the_cores_instead_of_each_starting_a_thread_per_core(monkeypatch, tmp_path, isolation):
    """Two workers running a torch agent use cores // 2 threads each, not a thread per core each (which
    oversubscribes the machine and slows every network agent); a count set by the user is kept."""
    import os

    pytest.importorskip("torch")
    from hearts_env.evaluation.arena.runner import THREAD_VARIABLES, threads_per_worker

    monkeypatch.syspath_prepend(str(__import__("pathlib").Path(__file__).parent))
    for name in THREAD_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    log = tmp_path / "threads.log"
    monkeypatch.setenv("HEARTS_THREADS_LOG", str(log))
    run_arena(["test_arena:ThreadCounter", "random"], deals=2, rules="sturtevant", jobs=2, isolation=isolation,
              only_seatings=[0, 1])
    def worker_counts():  # the tournament's own process checks each spec once (a probe): not a worker
        lines = [line.split() for line in log.read_text().splitlines()]
        return {int(count) for pid, count in lines if int(pid) != os.getpid()}

    assert worker_counts() == {threads_per_worker(2)} == {max(1, (os.cpu_count() or 1) // 2)}
    log.unlink()
    monkeypatch.setenv("OMP_NUM_THREADS", "2")
    run_arena(["test_arena:ThreadCounter", "random"], deals=1, rules="sturtevant", jobs=2, isolation=isolation,
              only_seatings=[0, 1])
    assert worker_counts() == {min(2, os.cpu_count() or 1)}


def test_isolation_is_checked():
    with pytest.raises(ValueError, match=r"isolation='trust'.*seating, none"):
        run_arena(["greedy", "random"], deals=1, rules=RULES, isolation="trust")


def test_killing_a_tournament_stops_its_workers(tmp_path):
    """A tournament killed by a signal that skips its clean-up (SIGKILL) leaves no worker playing on:
    each worker stops before its next game once the tournament's process is gone."""
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    out = tmp_path / "r.jsonl"
    script = ("from hearts_env.evaluation.arena import run_arena\n"  # 200 games of a slow agent in one worker: a minute
              f"run_arena(['test_arena:Sleeper', 'random'], deals=200, rules='standard(game=deal)', jobs=1, "
              f"out={str(out)!r})")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parent), os.environ.get("PYTHONPATH", "")])}
    run = subprocess.Popen([sys.executable, "-c", script], env=env)
    deadline = time.time() + 120
    while (not out.exists() or out.stat().st_size == 0) and time.time() < deadline:
        time.sleep(0.1)
    children = subprocess.run(["pgrep", "-P", str(run.pid), "-f", "spawn_main"], capture_output=True,
                              text=True).stdout.split()
    assert children, "the tournament plays in a spawned worker"
    os.kill(run.pid, signal.SIGKILL)
    run.wait()
    deadline = time.time() + 30
    while any(os.path.exists(f"/proc/{pid}") for pid in children) and time.time() < deadline:
        time.sleep(0.2)
    assert not any(os.path.exists(f"/proc/{pid}") for pid in children), "a worker plays on for a killed tournament"


def test_resume_names_the_line_of_a_damaged_results_file(tmp_path):
    """The mistake: --out pointed at another JSONL file, or a results file edited by hand."""
    out = tmp_path / "r.jsonl"
    run_arena(["greedy", "random"], deals=2, rules=RULES, jobs=1, out=out)
    lines = out.read_text().splitlines()
    out.write_text("\n".join([*lines[:3], '{"deal": 1, "seating', *lines[4:]]) + "\n")
    with pytest.raises(ValueError, match=r"r.jsonl line 4 is not JSON \(.* at column"):
        run_arena(["greedy", "random"], deals=2, rules=RULES, jobs=1, out=out, resume=True)
    (tmp_path / "other.jsonl").write_text('{"step": 1}\n')
    with pytest.raises(ValueError, match=r"other\.jsonl line 1 is not an arena record"):
        run_arena(["greedy", "random"], deals=2, rules=RULES, jobs=1, out=tmp_path / "other.jsonl", resume=True)
