"""Pausing a run (hearts_env.evaluation.arena.pause): the first SIGINT or SIGTERM finishes the games in play and
writes them, then the run stops with RunPaused and resume continues it to the records an unpaused run writes; a second
signal stops at once. The signal comes from inside a game (an agent sends it to the run's process), so the
game in play at that moment is known."""

from __future__ import annotations

import importlib
import multiprocessing
import os
import signal
import time
from pathlib import Path

import pytest

from hearts_env.agents.basic import HeuristicAgent
from hearts_env.evaluation.arena import read_records, run_arena, solo_seatings
from hearts_env.evaluation.arena.pause import RunPaused

DEALS = 32  # eight chunks of the pool: two in play, some queued (a pool runs those), the rest cancelled
ONCE = "HEARTS_TEST_PAUSER_ONCE"  # a file that only the first signalling game can create


class Pauser(HeuristicAgent):
    """``heuristic``; in the second game its process plays, at its first move, it sends the run's process
    ``signals`` SIGTERMs (once per run: the first game to create the file named by $HEARTS_TEST_PAUSER_ONCE),
    then goes on with the game."""

    games = 0  # live games this process played (the probe's reset, seed 0, is not one)

    def __init__(self, signals: int = 1):
        super().__init__()
        self.signals = signals
        self.armed = False

    def reset(self, rules, seat, seed=None):
        super().reset(rules, seat, seed)
        if seed not in (0, None):
            type(self).games += 1
            self.armed = type(self).games == 2

    def act(self, view):
        if self.armed:
            self.armed = False
            try:
                os.close(os.open(os.environ[ONCE], os.O_CREAT | os.O_EXCL))
            except FileExistsError:
                return super().act(view)
            parent = multiprocessing.parent_process()
            for _ in range(self.signals):
                os.kill(parent.pid if parent is not None else os.getpid(), signal.SIGTERM)
                time.sleep(0.3)  # the run's process sees the pause while this game is still in play
        return super().act(view)


@pytest.fixture(autouse=True)
def _importable(monkeypatch, tmp_path):
    monkeypatch.syspath_prepend(str(Path(__file__).parent))  # workers import test_pause:Pauser
    monkeypatch.setenv(ONCE, str(tmp_path / "signalled"))
    # the games this process played, for the runs played here (in the module the spec names, which pytest's
    # import of this file need not be)
    monkeypatch.setattr(importlib.import_module("test_pause").Pauser, "games", 0)


def _play(out, jobs, isolation, resume=False, spec="test_pause:Pauser"):
    return run_arena([spec, "heuristic"], deals=DEALS, jobs=jobs, out=out, resume=resume, isolation=isolation,
                     only_seatings=solo_seatings()[:1], seed=3)  # the Pauser in one seat


@pytest.mark.parametrize(("jobs", "isolation"), [(1, "none"), (1, "seating"), (2, "none")])
def test_a_pause_finishes_the_game_in_play_and_resume_completes_the_run(jobs, isolation, tmp_path):
    out = tmp_path / "games.jsonl"
    with pytest.raises(RunPaused, match="games in play were finished"):
        _play(out, jobs, isolation)
    played = {r["deal"] for r in read_records(out)}
    assert 1 in played  # the game in play when the signal came (each process's second) was finished
    if jobs == 1:
        assert played == {0, 1}  # and no other began
    assert len(played) < DEALS
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # the run's handlers are gone with it
    resumed = _play(out, jobs, isolation, resume=True)
    unpaused = _play(tmp_path / "unpaused.jsonl", jobs, isolation)  # the file exists: nobody signals again
    assert [r["points"] for r in resumed] == [r["points"] for r in unpaused]
    assert sorted(r["deal"] for r in read_records(out)) == list(range(DEALS))  # every game once


def test_a_second_signal_stops_at_once(tmp_path):
    out = tmp_path / "games.jsonl"
    with pytest.raises(KeyboardInterrupt):
        _play(out, 1, "none", spec="test_pause:Pauser(signals=2)")
    assert {r["deal"] for r in read_records(out)} == {0}  # the game in play was abandoned
