"""The HTTP side: games and their options, creating and joining tables, records, verify."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from parlour import rulebook
from parlour.games import GAMES
from parlour.server.errors import ErrorBody, ServiceError, _errors  # noqa: F401  (their old home)
from parlour.server.guard import client_address, public_base
from parlour.server.identity import ensure_player
from parlour.server.protocol import CreateTable, Joined, JoinTable
from parlour.server.service import TableService, default_bot

router = APIRouter(prefix="/api")
# Handlers that touch live tables are ``async``: they run on the event loop, like the
# WebSocket, so a table is only ever loaded and changed from one thread.


def _service(request: Request) -> TableService:
    return request.app.state.service


def _absolute(request: Request, joined: Joined) -> Joined:
    """Links with this server's address in front, ready to share."""
    base = public_base(request.app.state.settings, request.scope)
    data = joined.model_dump()
    for key in ("invite_url", "watch_url", "table_url", "rejoin_url"):
        if data[key]:
            data[key] = base + data[key]
    return Joined(**data)


@router.get("/games", summary="The games, their rule options and bot levels")
def games(request: Request) -> list[dict[str, Any]]:
    offered = _service(request).intents.offered_bots
    out = []
    for g in GAMES.values():
        options = []
        for o in g.options:
            options.append({
                "name": o.name, "kind": o.kind.__name__, "choices": list(o.choices),
                "minimum": o.minimum, "help": o.help,
                "default": {str(n): o.default_for(n)
                            for n in range(g.min_players, g.max_players + 1)},
            })
        out.append({"name": g.name, "title": g.title, "min_players": g.min_players,
                    "max_players": g.max_players, "usual_players": g.usual_players,
                    "options": options,
                    "bots": offered(g.name), "default_bot": default_bot(g.name)})
    return out


@router.get("/rulings/{game}", responses=_errors(404),
            summary="A game's rulings (its own, then the common ones): id, title and text")
def rulings(game: str) -> JSONResponse:
    """What the rules page links its ruling ids to. The rulings are the project's
    reference text, in English (the rules page around them is in the reader's language);
    fixed for a running server, so browsers and proxies may keep them for an hour."""
    if game not in GAMES:
        raise ServiceError(404, "not_found", f"there is no game {game!r}")
    body = [{"id": i, "title": r.title, "text": r.text} for i, r in rulebook.rulings(game).items()]
    return JSONResponse(body, headers={"Cache-Control": "public, max-age=3600"})


@router.post("/tables", status_code=201, response_model=Joined, responses=_errors(400, 429),
             summary="Create a table; the creator gets the first person seat and its token")
async def create_table(request: Request, response: Response, body: CreateTable) -> Joined:
    addr = client_address(request.scope, request.app.state.settings)
    who = ensure_player(request, response) if body.seats is None or any(
        s.kind == "person" for s in body.seats) else None
    return _absolute(request, await _service(request).create(body, addr, who))


@router.get("/tables/{table_id}", responses=_errors(404), summary="A table's public facts (no secrets, no cards)")
async def table_info(request: Request, table_id: str) -> dict[str, Any]:
    return _service(request).public_info(table_id)


@router.post("/tables/{table_id}/join", response_model=Joined,
             responses=_errors(400, 403, 404, 409, 410),
             summary="Take a seat with the invite key, or get a spectator pass")
async def join_table(request: Request, response: Response, table_id: str,
                     body: JoinTable) -> Joined:
    addr = client_address(request.scope, request.app.state.settings)
    joined = await _service(request).join(table_id, body.key, body.name, addr,
                                          lambda: ensure_player(request, response))
    return _absolute(request, joined)


@router.get("/tables/{table_id}/record", responses=_errors(404, 409), summary="The finished game's parlour-record/1")
async def table_record(request: Request, table_id: str) -> Response:
    data = _service(request).record(table_id)
    return Response(json.dumps(data, ensure_ascii=False, indent=1),
                    media_type="application/json",
                    headers={"Content-Disposition":
                             f'attachment; filename="parlour-{table_id}.json"'})


@router.post("/verify", responses=_errors(400, 429), summary="Check every deal commitment of a record, per round",
             openapi_extra={"requestBody": {"required": True, "content": {"application/json": {
                 "schema": {"description": "a parlour-record/1 (any JSON gets a report)"}}}}})
async def verify_record(request: Request) -> JSONResponse:
    """The body is read here and parsed and checked in a worker, never on the loop."""
    addr = client_address(request.scope, request.app.state.settings)
    return JSONResponse(await _service(request).verify(await request.body(), addr))
