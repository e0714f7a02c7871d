"""`hearts-env play` as a person meets it: in a real terminal (tmux), typing at the prompt, to the end of a deal.

Each test is written as the rough edge a person hit: no prompt until something was typed, the card echoed
twice, no word of what was received, unlabelled points, "you takes", the same cards at every start, a
traceback on Ctrl-C, reStructuredText marks in `hearts-env rules`, help without defaults.
"""

import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from hearts_env.cli import main

ROOT = Path(__file__).resolve().parents[1]
PROMPT = re.compile(r"(card to pass \w+ \(\d of \d\)|your card) > $")


class Terminal:
    """One tmux session running a command, on its own tmux server (``-L``: parallel test workers must not
    share one — a server exits with its last session, under another worker's ``new-session``); the
    screen (with its scrollback) read back as text."""

    def __init__(self, command: str):
        assert shutil.which("tmux"), "these tests drive a real terminal: install tmux (.ci/run does)"
        self.name = f"hearts-{uuid.uuid4().hex[:8]}"
        env = f"PYTHONPATH={ROOT / 'src'}:{ROOT / 'baselines'} OMP_NUM_THREADS=1"
        self.tmux("new-session", "-d", "-s", self.name, "-x", "150", "-y", "50",
                  f"cd {ROOT} && {env} {sys.executable} -m hearts_env.cli {command}; sleep 60")
        self.tmux("set-option", "-t", self.name, "history-limit", "20000")

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.name, *args], capture_output=True, text=True, check=True).stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", self.name)

    def last_line(self) -> str:
        lines = [line for line in self.screen().splitlines() if line.strip()]
        return lines[-1] if lines else ""

    def wait(self, condition, timeout: float = 60.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.screen()
            if condition(text):
                return text
            time.sleep(0.1)
        raise AssertionError(f"the terminal never showed what was expected; it shows:\n{self.screen()[-3000:]}")

    def send(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", self.name, *keys)

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.name, "kill-server"], capture_output=True)


@pytest.fixture
def terminal():
    opened = []

    def open_(command: str) -> Terminal:
        opened.append(Terminal(command))
        return opened[-1]

    yield open_
    for t in opened:
        t.close()


def _waiting_at_prompt(text: str) -> bool:
    lines = [line for line in text.splitlines() if line.strip()]
    return bool(lines) and (PROMPT.search(lines[-1].rstrip() + " ") is not None or lines[-1].startswith("game over"))


def _answered(text: str) -> int:
    """Prompts answered so far: prompt lines with something typed after them."""
    return len(re.findall(r"(?:card to pass \w+ \(\d of \d\)|your card) > \S", text))


def _first_legal(text: str) -> str:
    legal = [line for line in text.splitlines() if line.startswith("legal: ")][-1]
    return legal.split()[1]


def test_the_prompt_and_the_input_format_show_before_anything_is_typed(terminal):
    t = terminal("play --seed 3")
    text = t.wait(_waiting_at_prompt)
    assert t.last_line().rstrip() == "card to pass left (1 of 3) >"
    assert "(rank then suit: QS, TD or 10D, 2C, Q♠)" in text and "seed 3 (`--seed 3` deals these cards again)" in text
    card = _first_legal(text)
    t.send(card, "Enter")
    text = t.wait(lambda s: "(2 of 3) >" in s)
    assert text.count(f"> {card}") == 1  # the terminal echoes it once; the program does not print it again


def test_a_whole_deal_typed_at_the_prompt_reads_like_a_game(terminal):
    t = terminal("play --seed 11 --opponents heuristic greedy random")
    prompts = 0
    text = t.wait(_waiting_at_prompt)
    while "game over" not in text:
        prompts += 1
        t.send(_first_legal(text), "Enter")
        text = t.wait(lambda s, n=prompts: _waiting_at_prompt(s) and (_answered(s) >= n or "game over" in s))
        assert prompts < 40, "the deal should end after 3 passes and 13 cards"
    assert prompts == 16
    received = re.search(r"you passed (.+) to seat 1 \(heuristic\); you received (.+) from seat 3 \(random\)", text)
    assert received, "the exchange is announced with what was given and got, and from whom"
    tricks = re.findall(r"-> (you take|seat \d \(\w+\) takes) the trick \((\d+) points?\)", text)
    assert len(tricks) == 13 and "you takes" not in text
    assert sum(int(points) for _, points in tricks) in (26, 0)  # every penalty point is in some trick (or a moon)
    assert re.search(r"deal points: you -?\d+, seat 1 \(heuristic\) -?\d+, seat 2 \(greedy\) -?\d+, "
                     r"seat 3 \(random\) -?\d+", text)
    assert re.search(r"game over: scores: you -?\d+, seat 1 \(heuristic\)", text)
    assert "Traceback" not in text


def test_ctrl_c_ends_the_game_without_a_traceback(terminal):
    t = terminal("play --seed 5")
    t.wait(_waiting_at_prompt)
    t.send("C-c")
    text = t.wait(lambda s: "game abandoned (Ctrl-C)" in s)
    assert "Traceback" not in text and "KeyboardInterrupt" not in text


def test_each_game_deals_new_cards_unless_a_seed_is_given():
    def first_hand(*args: str) -> str:
        run = subprocess.run([sys.executable, "-m", "hearts_env.cli", "play", *args], input="", capture_output=True,
                             text=True, env={**os.environ, "PYTHONPATH": f"{ROOT / 'src'}"}, timeout=120)
        seed = re.search(r"seed (\d+)", run.stdout)
        hand = re.search(r"your hand: (.+)", run.stdout)
        assert seed and hand and "end of input: game abandoned" in run.stdout
        return f"{seed.group(1)} {hand.group(1)}"

    assert first_hand() != first_hand()
    assert first_hand("--seed", "8") == first_hand("--seed", "8")


def test_help_shows_the_defaults(capsys):
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    text = capsys.readouterr().out
    assert "(default: 0)" in text and "(default: standard(game=deal))" in text
    with pytest.raises(SystemExit):
        main(["arena", "--help"])
    assert "(default: 200)" in capsys.readouterr().out


def test_rules_print_without_restructuredtext_marks(capsys):
    assert main(["rules"]) == 0
    text = capsys.readouterr().out
    assert "`" not in text and '"lowest_club"' in text
    assert main(["rules", "dutch"]) == 0
    assert "`" not in capsys.readouterr().out
