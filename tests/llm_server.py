"""A real HTTP server on loopback that speaks the OpenAI chat-completions API, serving scripted answers (issue 66).

Each request takes the next item of the script; with the script empty it plays a legal card: the first of the
prompt's ``Legal:`` line. Items: ``("answer", TEXT)``, ``("answer", TEXT, FINISH_REASON)``, ``("status", CODE,
HEADERS)``, ``("sleep", SECONDS)`` (answers after that long), ``("stream", TEXT)`` (server-sent events, usage last),
``("refusal", TEXT)``. Every request's JSON body is kept in ``requests``.
"""

from __future__ import annotations

import json
import signal
import threading
import time
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class ChatServer:
    def __init__(self, script: list[tuple] | None = None):
        self.script: deque[tuple] = deque(script or [])
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with server.lock:
                    server.requests.append(body)
                    item = server.script.popleft() if server.script else ("answer", _first_legal(body))
                server.serve(self, body, item)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = False  # server_close() waits for every answer, a late one (after a timeout) too
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> ChatServer:
        # a client may close a stream before the server's last write: that write must fail in the server's thread
        # (BrokenPipeError), not kill the process, whatever an earlier in-process `hearts-env` command set SIGPIPE to
        self.sigpipe = signal.signal(signal.SIGPIPE, signal.SIG_IGN)
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        signal.signal(signal.SIGPIPE, self.sigpipe)

    def serve(self, handler: BaseHTTPRequestHandler, body: dict[str, Any], item: tuple) -> None:
        kind = item[0]
        if kind == "status":
            payload = json.dumps({"error": {"message": f"scripted {item[1]}", "type": "scripted"}}).encode()
            handler.send_response(item[1])
            for key, value in (item[2] if len(item) > 2 else {}).items():
                handler.send_header(key, value)
            handler.send_header("Content-Type", "application/json")
            handler.send_header("Content-Length", str(len(payload)))
            handler.end_headers()
            handler.wfile.write(payload)
            return
        if kind == "sleep":
            time.sleep(item[1])
            item = ("answer", _first_legal(body))
            kind = "answer"
        if kind == "stream" or body.get("stream"):
            self._stream(handler, body, item[1])
            return
        message: dict[str, Any] = {"role": "assistant", "content": item[1]}
        if kind == "refusal":
            message = {"role": "assistant", "content": None, "refusal": item[1]}
        reply = {"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": body["model"],
                 "choices": [{"index": 0, "message": message, "finish_reason": item[2] if len(item) > 2 else "stop"}],
                 "usage": _usage(body, item[1] or "")}
        _send_json(handler, reply)

    def _stream(self, handler: BaseHTTPRequestHandler, body: dict[str, Any], text: str) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.end_headers()
        base = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 0, "model": body["model"]}
        pieces = [text[i:i + 7] for i in range(0, len(text), 7)]
        for k, piece in enumerate(pieces):
            last = k == len(pieces) - 1
            chunk = {**base, "choices": [{"index": 0, "delta": {"content": piece},
                                          "finish_reason": "stop" if last else None}]}
            handler.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
        handler.wfile.write(f"data: {json.dumps({**base, 'choices': [], 'usage': _usage(body, text)})}\n\n".encode())
        handler.wfile.write(b"data: [DONE]\n\n")


def _first_legal(body: dict[str, Any]) -> str:
    prompt = body["messages"][1]["content"]
    if "Legal: " not in prompt:
        return "Final Answer: 2C"
    card = prompt.split("Legal: ")[1].split(".")[0].split()[0]
    return f"Thinking it over.\nFinal Answer: {card}"


def _usage(body: dict[str, Any], text: str) -> dict[str, Any]:
    prompt = sum(len(str(m.get("content") or "")) for m in body["messages"]) // 4
    completion = max(1, len(text) // 4)
    return {"prompt_tokens": prompt, "completion_tokens": completion + 3, "total_tokens": prompt + completion + 3,
            "completion_tokens_details": {"reasoning_tokens": 3}}


def _send_json(handler: BaseHTTPRequestHandler, data: dict[str, Any]) -> None:
    payload = json.dumps(data).encode()
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(payload)))
    handler.end_headers()
    handler.wfile.write(payload)
