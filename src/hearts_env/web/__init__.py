"""``hearts-env serve``: a local page to play, watch and replay Hearts (docs/serve.md).

The web libraries are an extra (``pip install 'hearts-env[web]'``): they load only when the app is
built, so ``import hearts_env`` never needs them.
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
MISSING = "hearts-env serve needs FastAPI and uvicorn: pip install 'hearts-env[web]'"


def require() -> None:
    """Raise ImportError naming the extra when FastAPI or uvicorn is missing."""
    try:
        import fastapi  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as e:
        raise ImportError(f"{MISSING} ({e})") from None


def create_app(records: Sequence[Path] = (), agents: Sequence[str] = (), host: str = DEFAULT_HOST) -> FastAPI:
    """The app: it reads only the ``records`` files (arena JSONL), offers the registered agents and
    ``agents`` specs, and answers requests addressed to ``host`` or the loopback names."""
    require()
    from hearts_env.web.app import LOCAL_HOSTS
    from hearts_env.web.app import create_app as build

    hosts = ["*"] if host in ("0.0.0.0", "::", "") else list(dict.fromkeys([*LOCAL_HOSTS, host]))
    return build([Path(p) for p in records], agents, hosts)


def serve(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, records: Sequence[Path] = (),
          agents: Sequence[str] = (), ready: Callable[[str], None] | None = None) -> None:
    """Serve the page on ``http://host:port/`` until interrupted. The port is bound before anything is said:
    a port in use raises OSError here, and ``ready`` is then called with the page's address (port 0: the free
    port the system gave)."""
    app = create_app(records, agents, host)
    import uvicorn

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.create_server((host, port), family=family)
    url_host = f"[{host}]" if family == socket.AF_INET6 else host
    if ready is not None:
        ready(f"http://{url_host}:{sock.getsockname()[1]}/")
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    with sock:
        server.run(sockets=[sock])


__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "MISSING", "create_app", "require", "serve"]
