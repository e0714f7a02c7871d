"""The hearts-env command end to end."""

import json

from hearts_env.cli import main


def test_arena_prints_a_table_and_writes_records(tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    assert main(["arena", "heuristic", "random", "--deals", "3", "--jobs", "1", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "heuristic" in text and "paired heuristic - random" in text
    assert len(out.read_text().splitlines()) == 3 * 14
    assert main(["arena", "heuristic", "random", "--deals", "3", "--out", str(out)]) == 2  # exists, no --resume
    assert "--resume" in capsys.readouterr().err
    assert main(["arena", "heuristic", "random", "--deals", "4", "--jobs", "1", "--out", str(out), "--resume",
                 "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 4 * 14
    assert len(out.read_text().splitlines()) == 4 * 14


def test_arena_rejects_a_bad_agent(capsys):
    assert main(["arena", "nosuch", "random", "--deals", "1"]) == 2
    assert "registered agents" in capsys.readouterr().err


def test_rules_lists_presets_and_options(capsys):
    assert main(["rules"]) == 0
    text = capsys.readouterr().out
    assert all(p in text for p in ("standard", "openspiel", "sturtevant", "dutch", "qs_breaks_hearts"))
    assert main(["rules", "dutch"]) == 0
    assert "queen_of_spades_points" in capsys.readouterr().out
    assert main(["rules", "nosuch"]) == 2
    assert "valid presets" in capsys.readouterr().err


def _all_cards_repeated(times: int) -> str:
    from hearts_env.cards import card_name

    return "".join(card_name(c) + "\n" for _ in range(times) for c in range(52))


def test_play_through_scripted_stdin(monkeypatch, capsys):
    import io

    # every prompt tries the next line until one is legal: bad and illegal input is asked again
    monkeypatch.setattr("sys.stdin", io.StringIO("nonsense\n" + _all_cards_repeated(40)))
    assert main(["play", "--seat", "2", "--opponents", "random", "greedy", "heuristic", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "is not a card" in out and "legal cards:" in out
    assert "deal points:" in out and "game over" in out


def test_play_stops_cleanly_at_end_of_input(monkeypatch, capsys):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("QS\n"))
    assert main(["play", "--seed", "1"]) == 1
    assert "end of input" in capsys.readouterr().out


def test_play_rejects_bad_arguments(capsys):
    assert main(["play", "--opponents", "nosuch", "random", "random"]) == 2
    assert "registered agents" in capsys.readouterr().err


def test_replay_shows_a_recorded_game(tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    assert main(["arena", "greedy", "random", "--deals", "2", "--jobs", "1", "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["replay", str(out), "--deal", "1", "--seating", "3"]) == 0
    text = capsys.readouterr().out
    assert text.count("trick ") == 13 and "points:" in text
    record = next(json.loads(x) for x in out.read_text().splitlines()
              if json.loads(x)["deal"] == 1 and json.loads(x)["seating_index"] == 3)
    assert f"points: {record['points']}" in text
    assert main(["replay", str(out), "--deal", "9"]) == 2
    assert "no game with deal 9" in capsys.readouterr().err


def test_arena_ratings_and_plot(tmp_path, capsys):
    png = tmp_path / "ladder.png"
    assert main(["arena", "heuristic", "random", "--deals", "3", "--jobs", "1", "--ratings", "--plot", str(png),
                 "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert set(summary["ratings"]) == {"heuristic", "random"}
    assert png.exists() and png.stat().st_size > 1000


def test_replay_of_a_file_that_holds_no_arena_records_names_the_line(tmp_path, capsys):
    """The mistakes: replaying a benchmark's result.json-like JSONL, or a file with a broken line."""
    other = tmp_path / "metrics.jsonl"
    other.write_text('{"step": 1, "loss": 0.5}\n')
    assert main(["replay", str(other), "--deal", "0"]) == 2
    err = capsys.readouterr().err
    assert "line 1 is not an arena record (it lacks deal" in err and "KeyError" not in err
    broken = tmp_path / "cut.jsonl"
    broken.write_text('{"deal": 0,\n')
    assert main(["replay", str(broken), "--deal", "0"]) == 2
    assert "cut.jsonl line 1 is not JSON" in capsys.readouterr().err


def test_speed_forwards_its_options_to_the_benchmark_script(monkeypatch, capsys):
    """The mistake: `hearts-env bench --only vector` refused as unrecognized though its help says it forwards.
    The command is `speed` now (one name apart from hearts-bench's `benchmark`); `bench` still works, and says so."""
    import runpy

    seen = {}

    def fake_run_path(path, run_name):
        def fake_main(argv, prog):
            seen["argv"], seen["prog"] = ["run.py", *argv], prog

        return {"main": fake_main}

    monkeypatch.setattr(runpy, "run_path", fake_run_path)
    monkeypatch.setattr("sys.argv", ["hearts-env"])
    assert main(["speed", "--only", "vector", "--seconds", "1"]) == 0
    assert seen["argv"][1:] == ["--only", "vector", "--seconds", "1"] and seen["prog"] == "hearts-env speed"
    assert main(["speed", "--help"]) == 0
    assert seen["argv"][1:] == ["--help"]
    assert capsys.readouterr().err == ""
    assert main(["bench", "--only", "vector"]) == 0
    assert seen["argv"][1:] == ["--only", "vector"]
    assert "hearts-env bench is deprecated (removed in 0.3): the speed benchmarks are `hearts-env speed`" \
        in capsys.readouterr().err


def test_unknown_options_of_other_commands_are_still_refused(capsys):
    import pytest

    with pytest.raises(SystemExit):
        main(["arena", "greedy", "--bogus"])
    assert "unrecognized arguments: --bogus" in capsys.readouterr().err


def test_a_command_run_in_process_leaves_sigpipe_as_it_was_so_a_later_broken_socket_raises():
    """`hearts-env rules | head` ends quietly because the command takes SIGPIPE's default; called as a function in a
    process that goes on (pytest's workers), it left that default behind, and a later write to a closed socket killed
    the whole process (the TLS tests' worker, "node down", on CI). In a fresh process: a command, then a write to a
    socket whose peer is gone raises BrokenPipeError."""
    import subprocess
    import sys

    script = (
        "import signal, socket\n"
        "from hearts_env.cli import main\n"
        "main(['rules', 'standard'])\n"
        "assert signal.getsignal(signal.SIGPIPE) == signal.SIG_IGN, signal.getsignal(signal.SIGPIPE)\n"
        "a, b = socket.socketpair()\n"
        "b.close()\n"
        "try:\n"
        "    for _ in range(100):\n"
        "        a.sendall(b'x' * 65536)\n"
        "except BrokenPipeError:\n"
        "    print('raised')\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip().endswith("raised"), (out.returncode, out.stderr[-400:])
