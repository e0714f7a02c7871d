"""The page in a real browser: the server in a thread, Debian's Chromium driven by Playwright.

Run with ``make test-browser`` (it installs Chromium and Playwright); ``make test`` leaves this folder out.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from playwright.sync_api import Browser, Page, sync_playwright

from hearts_env.evaluation.arena import run_arena
from hearts_env.web import create_app

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


class Served:
    def __init__(self, url: str, app: Any, records: Path, shots: Path):
        self.url, self.app, self.records, self.shots = url, app, records, shots


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    records = tmp_path_factory.mktemp("records") / "r.jsonl"
    run_arena(["heuristic", "random"], deals=1, rules="standard(game=deal)", jobs=1, out=records)
    app = create_app([records])
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield Served(f"http://127.0.0.1:{port}", app, records, tmp_path_factory.mktemp("screenshots"))
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Browser, served: Served) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(served.url + "/")
    page.wait_for_selector("body[data-ready='true']")
    yield page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
