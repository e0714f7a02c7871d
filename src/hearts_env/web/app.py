"""The routes: the page, a JSON API over :mod:`hearts_env.web.sessions`, and the errors as HTTP statuses.

    GET  /api/info                                      agents, presets, record files
    POST /api/games {"seats": [...4], "rules", "seed"}   a new game ("you" marks your seat)
    GET  /api/games/{id}?view=S                         its state (view: a seat, or -1 for all hands)
    POST /api/games/{id}/move {"card": 12 | "QS"}       your pass or play
    POST /api/games/{id}/step                           one card by the agent to act
    POST /api/games/{id}/next                           the next deal of a game to the target
    POST /api/games/{id}/hint {"spec": "pimc"}          a searcher's advice for the seat to act
    GET  /api/records                                   the --records files, by index
    GET  /api/records/{file}                            the games in one
    GET  /api/records/{file}/games/{game}/deals/{deal}?step=K&view=S     a replay at step K
    GET  /api/records/{file}/games/{game}/deals/{deal}/hint?step=K&spec=pimc
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field, StrictInt
from starlette.middleware.trustedhost import TrustedHostMiddleware

from hearts_env import __version__
from hearts_env.cards import CardError, card_id
from hearts_env.engine import IllegalActionError
from hearts_env.rules import PRESETS
from hearts_env.web.sessions import (
    AgentSpecs,
    Conflict,
    Game,
    NotFound,
    Records,
    Refused,
    Sessions,
    card_json,
    hint,
    new_game,
)

STATIC = Path(__file__).parent / "static"
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
Spec = Annotated[str, Field(max_length=300)]
View = Annotated[int, Query(ge=-1, le=3, description="a seat 0..3, or -1 for the god view")]


class NewGame(BaseModel):
    seats: list[Spec] = Field(min_length=4, max_length=4)
    rules: Spec = "standard(game=deal)"
    seed: StrictInt | None = None


class Move(BaseModel):
    card: StrictInt | Annotated[str, Field(max_length=8)]


class HintRequest(BaseModel):
    spec: Spec = "pimc(n=100)"


def create_app(records: Sequence[Path] = (), agents: Sequence[str] = (),
               hosts: Sequence[str] = LOCAL_HOSTS) -> FastAPI:
    """The app serving the page and its API. ``records``: the only files it reads (arena JSONL);
    ``agents``: specs offered besides the registered names; ``hosts``: Host headers accepted (a page
    elsewhere cannot reach the server through a rebound DNS name)."""
    app = FastAPI(title="hearts-env", version=__version__, docs_url=None, redoc_url=None)
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(hosts))
    specs, games, files = AgentSpecs(agents), Sessions(), Records(records)
    app.state.games, app.state.records = games, files  # for tests and embedding
    _errors(app)

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/api/info")
    def info() -> dict[str, Any]:
        return {"version": __version__, "agents": specs.offered(), "presets": list(PRESETS),
                "records": files.summaries()}

    @app.post("/api/games")
    def start(body: NewGame) -> dict[str, Any]:
        game = games.add(new_game(body.seats, body.rules, body.seed, specs, games.failures))
        return _state(game, None)

    @app.get("/api/games/{game_id}")
    def show(game_id: str, view: View = -1) -> dict[str, Any]:
        return _state(games.get(game_id), view)

    @app.post("/api/games/{game_id}/move")
    def move(game_id: str, body: Move, view: View = -1) -> dict[str, Any]:
        game = games.get(game_id)
        with game.lock:
            card = body.card
            if isinstance(card, str):
                try:
                    card = card_id(card, game.deal.deck)
                except CardError as e:
                    raise Refused(str(e)) from None
            game.move(card)
        return _state(game, view)

    @app.post("/api/games/{game_id}/step")
    def step(game_id: str, view: View = -1) -> dict[str, Any]:
        game = games.get(game_id)
        with game.lock:
            game.step()
        return _state(game, view)

    @app.post("/api/games/{game_id}/next")
    def next_deal(game_id: str, view: View = -1) -> dict[str, Any]:
        game = games.get(game_id)
        with game.lock:
            game.next_deal()
        return _state(game, view)

    @app.post("/api/games/{game_id}/hint")
    def game_hint(game_id: str, body: HintRequest) -> dict[str, Any]:
        game = games.get(game_id)
        agent = specs.build(body.spec)
        with game.lock:
            deal = game.deal
            if deal.is_over:
                raise Conflict("the deal is over")
            if game.person is not None and deal.current != game.person:
                raise Conflict("hints are for your turn")
            return hint(deal.clone(), deal.current, agent, body.spec,
                        seed=[game.seed, game.match.deal_index, len(deal.history)])

    @app.get("/api/records")
    def record_files() -> list[dict[str, Any]]:
        return files.summaries()

    @app.get("/api/records/{file}")
    def record_games(file: int) -> list[dict[str, Any]]:
        return files.games(file)

    @app.get("/api/records/{file}/games/{game}/deals/{deal}")
    def replay(file: int, game: int, deal: int, step: int = 0, view: View = -1) -> dict[str, Any]:
        state = files.replay(file, game, deal).state(step, None if view == -1 else view)
        state.update(file=file, game=game)
        return state

    @app.get("/api/records/{file}/games/{game}/deals/{deal}/hint")
    def replay_hint(file: int, game: int, deal: int, step: int, spec: Spec = "pimc(n=100)") -> dict[str, Any]:
        agent = specs.build(spec)
        rebuilt = files.replay(file, game, deal)
        at = rebuilt.at(step)
        if at.is_over:
            raise Conflict("the deal is over at this step: nobody is to act")
        advice = hint(at, at.current, agent, spec, seed=[file, game, deal, step])
        advice["played"] = card_json(rebuilt.history[step], at)
        return advice

    return app


def _state(game: Game, view: int | None) -> dict[str, Any]:
    """The game's state as the person sees it (their seat), or for watching: ``view`` -1/None = god view."""
    with game.lock:
        return game.state(game.person if game.person is not None else (None if view in (None, -1) else view))


def _errors(app: FastAPI) -> None:
    statuses: dict[type[Exception], int] = {Refused: 400, IllegalActionError: 400, NotFound: 404, Conflict: 409}
    for kind, status in statuses.items():
        def handler(request: Request, exc: Exception, status: int = status) -> JSONResponse:
            return JSONResponse({"detail": str(exc)}, status_code=status)

        app.add_exception_handler(kind, handler)
