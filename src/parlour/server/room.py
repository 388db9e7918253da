"""The card room's HTTP side: the pages (rules, replay), the list of public tables,
personal rejoin links, and replays and reviews of finished games.

Everything here reads tables through the service and never sees a hidden card: the
open-tables list holds public facts, and replays exist only for finished games (whose
decks are revealed) or for records a person brings.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import orjson
from fastapi import APIRouter, Request
from fastapi.responses import Response, StreamingResponse
from pydantic import BaseModel, ConfigDict

from parlour.games import KITS
from parlour.server.api import _absolute, _errors
from parlour.server.errors import ServiceError
from parlour.server.guard import client_address
from parlour.server.identity import Player, ensure_player, player_of
from parlour.server.pages import page
from parlour.server.protocol import Joined, Name, ReviewBody, Secret
from parlour.server.service import TableService

STATIC = Path(__file__).resolve().parent.parent / "web" / "static"

router = APIRouter()


def _service(request: Request) -> TableService:
    return request.app.state.service


def _page(request: Request) -> Response:
    return page(request)  # in the visitor's language (server/pages.py)


@router.get("/rules/{game}", include_in_schema=False)
def rules_page(request: Request, game: str) -> Response:
    """How to play a game (the page module of the game writes it)."""
    if game not in KITS:
        raise ServiceError(404, "not_found", f"there is no game {game!r}")
    return _page(request)


@router.get("/replay", include_in_schema=False)
def replay_upload_page(request: Request) -> Response:
    return _page(request)


@router.get("/replay/{table_id}", include_in_schema=False)
def replay_page(request: Request, table_id: str) -> Response:
    return _page(request)


class Rejoin(BaseModel):
    model_config = ConfigDict(extra="forbid")

    key: Secret | None = None
    """The rejoin link's key; none: the seat of the player whose cookie this is."""


class Sit(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Name = ""


@router.get("/api/open-tables", responses=_errors(), summary="Public tables: open seats to join and games to watch")
async def open_tables(request: Request) -> list[dict[str, Any]]:
    return _service(request).cardroom.open_tables()


@router.post("/api/tables/{table_id}/sit", response_model=Joined,
             responses=_errors(400, 403, 404, 409, 410),
             summary="Take a free seat at a public table (no invite link needed)")
async def sit(request: Request, response: Response, table_id: str, body: Sit) -> Joined:
    svc = _service(request)
    t = svc.load(table_id)
    if not t.config.get("public"):
        raise ServiceError(403, "unauthorised", "this table is not open to everyone: "
                           "ask its host for the invite link")
    if t.status == "expired":
        raise ServiceError(410, "expired", "this table has expired")
    addr = client_address(request.scope, request.app.state.settings)
    return _absolute(request, await svc.intents.sit(
        t, body.name, addr, lambda: ensure_player(request, response)))


@router.post("/api/tables/{table_id}/rejoin", response_model=Joined,
             responses=_errors(400, 403, 404, 410, 429),
             summary="Take your seat back: with your personal rejoin link (any device), "
                     "or, without a key, as the signed-in player who took it")
async def rejoin(request: Request, response: Response, table_id: str, body: Rejoin) -> Joined:
    def who() -> Player | None:
        return (player_of(request) if body.key is None
                else ensure_player(request, response))

    addr = client_address(request.scope, request.app.state.settings)
    return _absolute(request, await _service(request).cardroom.rejoin(table_id, body.key, who,
                                                                      addr))


def _finished_record(service: TableService, table_id: str) -> dict[str, Any]:
    try:
        return service.record(table_id)
    except ServiceError as e:
        if e.code == "not_over":
            raise ServiceError(409, "not_over", "the replay opens when the game is over") from None
        raise


RECORD_BODY = {"requestBody": {"required": True, "content": {"application/json": {
    "schema": {"type": "object", "description": "a parlour-record/1"}}}}}
REVIEW_BODY = {"requestBody": {"required": True, "content": {"application/json": {
    "schema": ReviewBody.model_json_schema(ref_template="#/components/schemas/{model}")}}}}
SMALL_BODY = 4096
"""A review body this small is read here to find the table it names; a larger one (a
record) is read only by its worker."""


STREAM_CHUNK = 64 * 1024
"""Answers larger than this (replays) go out in pieces of this size, each written only
when the client has taken the one before, so a slow reader holds no second copy."""


def _json(data: bytes) -> Response:
    if len(data) <= STREAM_CHUNK:
        return Response(data, media_type="application/json")
    view = memoryview(data)

    async def pieces() -> AsyncIterator[bytes]:
        for at in range(0, len(view), STREAM_CHUNK):
            yield bytes(view[at:at + STREAM_CHUNK])

    return StreamingResponse(pieces(), media_type="application/json",
                             headers={"Content-Length": str(len(data))})


@router.get("/api/tables/{table_id}/replay", responses=_errors(404, 409, 429),
            summary="A finished table, step by step, every hand shown")
async def table_replay(request: Request, table_id: str) -> Response:
    svc = _service(request)
    data = _finished_record(svc, table_id)
    addr = client_address(request.scope, svc.settings)
    return _json(await svc.asked(addr, "replay", "this game could not be replayed", data,
                                 svc.settings.replay_max_bytes))


@router.post("/api/replay", responses=_errors(400, 429), openapi_extra=RECORD_BODY,
             summary="A record file, step by step, every hand shown")
async def record_replay(request: Request) -> Response:
    """The record is read and replayed in a worker (see docs/protocol.md, "Replays")."""
    svc = _service(request)
    addr = client_address(request.scope, svc.settings)
    body = await request.body()
    return _json(await svc.asked(addr, "replay", "this record could not be replayed", body,
                                 svc.settings.replay_max_bytes))


@router.post("/api/review", responses=_errors(400, 404, 409, 422, 429), openapi_extra=REVIEW_BODY,
             summary="One seat's moves in one round, valued by the hints engine")
async def review(request: Request) -> Response:
    svc = _service(request)
    addr = client_address(request.scope, svc.settings)
    body = await request.body()
    table_record = None
    if len(body) <= SMALL_BODY:  # small: it may name a finished table
        with contextlib.suppress(ValueError):
            asked = orjson.loads(body)
            table = asked.get("table") if isinstance(asked, dict) else None
            if isinstance(table, str) and len(table) <= 32 and "record" not in asked:
                table_record = _finished_record(svc, table[:32])
    return _json(await svc.asked(addr, "review", "this round could not be reviewed", body,
                                 table_record, svc.settings.review_moves))
