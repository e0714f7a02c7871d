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
