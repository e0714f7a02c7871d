"""Seats over the network (issue 65): a program elsewhere joins the dealer's seat server with its token and plays
through the seat protocol, and whatever a joining connection does wrong is refused in one line without stopping the
run. Everything runs for real on loopback: the server, the bridge (`hearts-env seat connect`) and the host program."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import ssl
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hearts_env.evaluation.arena import run_arena
from hearts_env.evaluation.seat.protocol import PROTOCOL
from hearts_env.evaluation.seat.remote import MAX_WAITING, SeatServer

TOKEN = "0123456789abcdef-alice"
HOST_PROGRAM = [sys.executable, "-m", "hearts_env.evaluation.seat.host", "heuristic"]


def _bridge(port: int, token_file: Path, *extra: str, program: list[str] = HOST_PROGRAM) -> subprocess.Popen:
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    return subprocess.Popen([sys.executable, "-m", "hearts_env.cli", "seat", "connect", f"127.0.0.1:{port}",
                             "--seat", "alice", "--token-file", str(token_file), *extra, "--", *program],
                            stderr=subprocess.PIPE, text=True, env=env)


def _join(port: int, line: bytes, wait: float = 5.0) -> dict:
    """What the server answers a connection that sends ``line`` (b"" when it closes without a word)."""
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as conn:
        conn.sendall(line)
        data = b""
        while b"\n" not in data:
            chunk = conn.recv(4096)
            if not chunk:
                break
            data += chunk
    return json.loads(data) if data else {}


def _joined(port: int, line: bytes) -> socket.socket:
    """A connection the server has seated (it answered ``joined``), left open."""
    conn = socket.create_connection(("127.0.0.1", port), timeout=5)
    conn.sendall(line)
    answer = b""
    while not answer.endswith(b"\n"):
        answer += conn.recv(4096)
    assert json.loads(answer)["type"] == "joined"
    return conn


def _histories(records: list[dict]) -> list:
    return [(r["deal"], r["seating_index"], r["deals"][0]["history"]) for r in records]


def test_a_remote_program_plays_an_arena_card_for_card_as_the_same_program_started_here(tmp_path):
    (tmp_path / "alice.token").write_text(TOKEN + "\n")
    with SeatServer({"alice": TOKEN}) as server:
        bridge = _bridge(server.address[1], tmp_path / "alice.token")
        try:
            remote = run_arena(["remote:alice", "random"], deals=2, jobs=2, out=tmp_path / "remote.jsonl")
        finally:
            server.close()
            _, said = bridge.communicate(timeout=60)
    assert bridge.returncode == 0 and "the dealer is done" in said
    local = run_arena(["hosted:heuristic", "random"], deals=2, jobs=2)
    assert all(r["error"] is None for r in remote) and len(remote) == 28
    assert _histories(remote) == _histories(local)  # heuristic plays the same cards, wherever it runs
    assert server.refusals == []


def test_every_wrong_join_is_refused_in_one_line_and_the_run_goes_on(tmp_path):
    """A wrong token, an unknown seat, another protocol, a line that is not a join, one past the size limit, a slow
    drip, a connection that never speaks, a flood of joins past the seat's bound and a connection that speaks before its
    game are each refused (answered where it can be, and logged once); a remote program that then joins properly plays
    the whole run."""
    (tmp_path / "alice.token").write_text(TOKEN + "\n")
    join = {"type": "join", "protocol": PROTOCOL, "seat": "alice", "token": TOKEN}
    with SeatServer({"alice": TOKEN}, join_seconds=1.0) as server:
        port = server.address[1]
        answers = [_join(port, (json.dumps({**join, **change}) + "\n").encode()) for change in
                   ({"token": "x" * 22}, {"seat": "bob"}, {"protocol": PROTOCOL + 1})]
        answers.append(_join(port, b"GET / HTTP/1.1\n"))
        answers.append(_join(port, b"{" + b" " * 5000))
        with socket.create_connection(("127.0.0.1", port)) as drip:  # a byte at a time, never a whole line
            for _ in range(4):
                drip.sendall(b" ")
                time.sleep(0.4)
            answers.append(json.loads(drip.recv(4096) or b"{}"))
        with socket.create_connection(("127.0.0.1", port)) as silent:
            silent.settimeout(5)
            answers.append(json.loads(silent.recv(4096) or b"{}"))
        assert [a.get("type") for a in answers] == ["refused"] * 7
        reasons = [a["message"] for a in answers]
        assert reasons[0] == "wrong token for seat 'alice'" and reasons[1] == "no remote seat 'bob' in this run"
        assert reasons[2] == f"this dealer speaks seat protocol {PROTOCOL}, the program {PROTOCOL + 1}"
        assert "not a JSON join message" in reasons[3] and "longer than 4096 bytes" in reasons[4]
        assert reasons[5] == reasons[6] == "the join line did not come in time"
        assert len(server.refusals) == 7 and all("\n" not in r for r in server.refusals)
        line = (json.dumps(join) + "\n").encode()
        flood = [_joined(port, line) for _ in range(MAX_WAITING)]  # a seat's waiting connections are bounded
        refused = _join(port, line)
        assert refused["message"] == f"seat 'alice' has {MAX_WAITING} connections waiting for a game already"
        for conn in flood:  # gone before a game needs them: dropped without a word
            conn.close()
        talker = _joined(port, line)  # speaks before the dealer's hello: refused when its game would begin
        talker.sendall(b'{"type": "card", "card": 0}\n')
        bridge = _bridge(port, tmp_path / "alice.token")
        try:
            records = run_arena(["remote:alice", "random"], deals=1, jobs=1, isolation="none")
        finally:
            talker.close()
            server.close()
            bridge.communicate(timeout=60)
    assert len(records) == 14 and all(r["error"] is None for r in records)
    assert len(server.refusals) == 9 and "it spoke before its game began" in server.refusals[-1]


def test_the_bridge_says_a_refusal_in_one_line_and_a_game_without_a_program_is_the_seat_s_crash(tmp_path):
    (tmp_path / "wrong.token").write_text("wrong-token-0123456789\n")
    with SeatServer({"alice": TOKEN}, pair_seconds=1.0) as server:
        bridge = _bridge(server.address[1], tmp_path / "wrong.token")
        _, said = bridge.communicate(timeout=60)
        assert bridge.returncode == 2
        assert said.strip() == "hearts-env seat connect: refused: wrong token for seat 'alice'"
        with pytest.raises(ValueError, match="remote seat 'alice': no program joined within"):
            run_arena(["remote:alice", "random"], deals=1, jobs=1, isolation="none")


def test_a_seat_server_refuses_bad_settings_in_one_line():
    with pytest.raises(ValueError, match="a token of at least 16 characters"):
        SeatServer({"alice": "short"})
    with pytest.raises(ValueError, match="remote seat name 'a b'"):
        SeatServer({"a b": TOKEN})
    with pytest.raises(ValueError, match="at least one remote seat"):
        SeatServer({})


def test_a_remote_agent_takes_a_held_out_benchmark_run_that_verifies(tmp_path):
    """The strongest held-out form: the agent's code never touches the dealer's machine. A smoke run on held-out
    deals against one rung, the agent joined through the bridge; the result says where its seat was, and verifies."""
    from hearts_env.evaluation.benchmark import draw_holdout, run_benchmark
    from hearts_env.evaluation.benchmark.verify import verify_run

    (tmp_path / "alice.token").write_text(TOKEN + "\n")
    with SeatServer({"alice": TOKEN}) as server:
        bridge = _bridge(server.address[1], tmp_path / "alice.token")
        try:
            result = run_benchmark("remote:alice", tier="smoke", rungs=["greedy"], jobs=2, out=tmp_path / "run",
                                   holdout=draw_holdout())
        finally:
            server.close()
            bridge.communicate(timeout=60)
    assert result["seat"]["sandbox"] == "remote" and result["rungs"]["greedy"]["errors"] == {}
    assert result["rungs"]["greedy"]["seat_games"] == 40
    assert verify_run(tmp_path / "run")["agent"] == "remote:alice"


def _certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and its key, made with the openssl command."""
    openssl = shutil.which("openssl")
    assert openssl, "the TLS tests make their certificate with the openssl command"
    cert, key = folder / "dealer.pem", folder / "dealer.key"
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True)
    return cert, key


def test_over_tls_a_program_joins_with_the_dealer_s_certificate_and_a_plain_one_is_refused(tmp_path):
    cert, key = _certificate(tmp_path)
    (tmp_path / "alice.token").write_text(TOKEN + "\n")
    with SeatServer({"alice": TOKEN}, certfile=str(cert), keyfile=str(key)) as server:
        plain = _bridge(server.address[1], tmp_path / "alice.token")
        _, said = plain.communicate(timeout=60)
        assert plain.returncode == 2 and "join with --tls or --cafile" in said
        assert "no TLS handshake (this dealer serves TLS" in server.refusals[0]
        bridge = _bridge(server.address[1], tmp_path / "alice.token", "--cafile", str(cert))
        try:
            records = run_arena(["remote:alice", "random"], deals=1, jobs=1, isolation="none")
        finally:
            server.close()
            bridge.communicate(timeout=60)
    assert len(records) == 14 and all(r["error"] is None for r in records)


def test_a_bot_in_another_language_joins_over_tls_and_plays_a_smoke_benchmark_that_verifies(tmp_path):
    """The shipped JavaScript bot, unchanged, through `hearts-env seat connect` over TLS: a smoke benchmark against
    the whole ladder, with no error, that verifies."""
    from hearts_env.evaluation.benchmark import run_benchmark
    from hearts_env.evaluation.benchmark.verify import verify_run

    node = shutil.which("node")
    assert node, "the seat protocol's JavaScript example needs node"
    cert, key = _certificate(tmp_path)
    (tmp_path / "alice.token").write_text(TOKEN + "\n")
    bot = [node, str(Path(__file__).parents[1] / "examples" / "seat_bot.js")]
    with SeatServer({"alice": TOKEN}, certfile=str(cert), keyfile=str(key)) as server:
        bridge = _bridge(server.address[1], tmp_path / "alice.token", "--cafile", str(cert), program=bot)
        try:
            result = run_benchmark("remote:alice", tier="smoke", jobs=2, out=tmp_path / "run")
        finally:
            server.close()
            _, said = bridge.communicate(timeout=60)
    assert "the dealer is done" in said and server.refusals == []
    assert all(r["errors"] == {} for r in result["rungs"].values()) and len(result["rungs"]) == 4
    assert verify_run(tmp_path / "run")["seat"]["sandbox"] == "remote"


def test_a_program_that_joins_while_its_game_waits_hears_the_game_s_first_words():
    """When a game is already waiting for the seat, the dealer's hello can arrive in the same read as the answer to the
    join; the bridge dropped what followed the answer, and the game timed out. A dealer that sends both at once."""
    import threading

    from hearts_env.evaluation.seat.bridge import Bridge

    hello = b'{"type": "hello", "protocol": 1, "dealer": "test"}\n'
    listener = socket.create_server(("127.0.0.1", 0))

    def dealer() -> None:
        conn, _ = listener.accept()
        conn.recv(4096)  # the join line
        conn.sendall(b'{"type": "joined", "seat": "alice"}\n' + hello)
        time.sleep(0.5)
        conn.close()

    threading.Thread(target=dealer, daemon=True).start()
    conn, early = Bridge("127.0.0.1", listener.getsockname()[1], "alice", TOKEN, ["true"]).join()
    conn.close()
    listener.close()
    assert early == hello



def _pipe_peer(data: bytes):
    """A shuttle's peer that has ``data`` to send (written by a thread into a pipe it keeps open: the peer does not
    end) and keeps what it is sent."""
    import threading

    from hearts_env.evaluation.seat.shuttle import CHUNK, Peer

    read, write = os.pipe()
    kept = bytearray()

    def feed() -> None:
        with contextlib.suppress(OSError):
            os.write(write, data)

    threading.Thread(target=feed, daemon=True).start()
    return Peer(read, lambda: os.read(read, CHUNK), kept.extend), kept


def test_a_connection_that_never_reads_is_dropped_and_the_relay_ends():
    """A client that never reads: once the kernel's buffers are full, what the dealer's side sends cannot go; after
    the send deadline the relay gives up on the connection (the seat's next read sees the end: its forfeit) instead of
    holding a thread and the dealer's bytes for ever."""
    import threading

    from hearts_env.evaluation.seat.shuttle import shuttle

    here, there = socket.socketpair()  # `there` never reads
    peer, _ = _pipe_peer(b"x" * (32 << 20))  # far more than the buffers between them hold
    relay = threading.Thread(target=shuttle, args=(here, peer, 0.5), daemon=True)
    relay.start()
    relay.join(timeout=60)
    assert not relay.is_alive()
    here.close(), there.close()


def test_over_tls_the_relay_passes_both_ways_at_once_without_losing_a_byte(tmp_path):
    """Both sides talk at once through a TLS connection (the dealer's messages one way, a chatty program's lines the
    other), the dealer's end and the client's each relayed by a shuttle: each reads and writes its TLS connection from
    one thread (OpenSSL's objects are not safe shared between threads), and every byte arrives, in order, both ways."""
    import threading

    from hearts_env.evaluation.seat.shuttle import shuttle, wake

    cert, key = _certificate(tmp_path)
    serving = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    serving.load_cert_chain(str(cert), str(key))
    joining = ssl.create_default_context(cafile=str(cert))
    listener = socket.create_server(("127.0.0.1", 0))
    client = joining.wrap_socket(socket.create_connection(listener.getsockname()), server_hostname="127.0.0.1",
                                 do_handshake_on_connect=False)
    handshake = threading.Thread(target=client.do_handshake)
    handshake.start()
    conn = serving.wrap_socket(listener.accept()[0], server_side=True)
    handshake.join(timeout=30)
    up = b"".join(b'{"type": "play", "card": %d}\n' % (k % 52) for k in range(20000))
    down = b"".join(b'{"type": "request", "deal": %d, "legal": [1, 2, 3]}\n' % k for k in range(20000))
    dealer, to_dealer = _pipe_peer(down)
    program, to_program = _pipe_peer(up)
    shuttles = [threading.Thread(target=shuttle, args=(sock, peer, 30.0), daemon=True)
                for sock, peer in ((conn, dealer), (client, program))]
    for thread in shuttles:
        thread.start()
    deadline = time.monotonic() + 60
    while (len(to_dealer) < len(up) or len(to_program) < len(down)) and time.monotonic() < deadline:
        time.sleep(0.05)
    for sock in (conn, client):
        wake(sock)
    for thread in shuttles:
        thread.join(timeout=10)
    assert bytes(to_dealer) == up and bytes(to_program) == down
    assert not any(thread.is_alive() for thread in shuttles)  # a connection shut down ends its shuttle
    listener.close()
