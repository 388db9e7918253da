"""The card room's HTTP side: the pages (rules, replay), the list of public tables,
personal rejoin links, and replays and reviews of finished games.

Everything here reads tables through the service and never sees a hidden card: the
open-tables list holds public facts, and replays exist only for finished games (whose
decks are revealed) or for records a person brings.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Body, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from parlour.games import KITS
from parlour.server import replay
from parlour.server.api import _absolute, _errors
from parlour.server.errors import ServiceError
from parlour.server.guard import client_address
from parlour.server.identity import Player, ensure_player, player_of
from parlour.server.protocol import Joined, Name, Secret
from parlour.server.service import TableService

STATIC = Path(__file__).resolve().parent.parent / "web" / "static"

router = APIRouter()


def _service(request: Request) -> TableService:
    return request.app.state.service


def _page(request: Request) -> FileResponse:
    return FileResponse(STATIC / "index.html")  # headers: server/guard.py


@router.get("/rules/{game}", include_in_schema=False)
def rules_page(request: Request, game: str) -> FileResponse:
    """How to play a game (the page module of the game writes it)."""
    if game not in KITS:
        raise ServiceError(404, "not_found", f"there is no game {game!r}")
    return _page(request)


@router.get("/replay", include_in_schema=False)
def replay_upload_page(request: Request) -> FileResponse:
    return _page(request)


@router.get("/replay/{table_id}", include_in_schema=False)
def replay_page(request: Request, table_id: str) -> FileResponse:
    return _page(request)


class Rejoin(BaseModel):
    model_config = ConfigDict(extra="forbid")

    key: Secret | None = None
    """The rejoin link's key; none: the seat of the player whose cookie this is."""


class ReviewBody(BaseModel):
    """Review one seat's moves in one round: of a finished table, or of a record."""

    model_config = ConfigDict(extra="forbid")

    table: Annotated[str, Field(max_length=32)] | None = None
    record: dict[str, Any] | None = None
    round: Annotated[int, Field(ge=1, le=10_000)]
    seat: Annotated[int, Field(ge=0, le=7)]


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


@router.get("/api/tables/{table_id}/replay", responses=_errors(404, 409), summary="A finished table, step by step, every hand shown")
async def table_replay(request: Request, table_id: str) -> JSONResponse:
    data = _finished_record(_service(request), table_id)
    return JSONResponse(await asyncio.to_thread(_frames, data))


@router.post("/api/replay", responses=_errors(400), summary="A record file, step by step, every hand shown")
async def record_replay(data: Annotated[Any, Body()]) -> JSONResponse:
    return JSONResponse(await asyncio.to_thread(_frames, data))


def _frames(data: Any) -> dict[str, Any]:
    try:
        return replay.frames(replay.load(data))
    except replay.ReplayError as e:
        raise ServiceError(400, "bad_record", str(e)) from None


@router.post("/api/review", responses=_errors(400, 404, 409), summary="One seat's moves in one round, valued by the hints engine")
async def review(request: Request, body: ReviewBody) -> JSONResponse:
    service = _service(request)
    if (body.table is None) == (body.record is None):
        raise ServiceError(400, "bad_request", "name a finished table or send a record, not both")
    data = _finished_record(service, body.table) if body.table is not None else body.record
    limit = service.settings.review_moves

    def work() -> list[dict[str, Any]]:
        try:
            return replay.review(replay.load(data), body.round, body.seat, max_moves=limit)
        except replay.ReplayError as e:
            raise ServiceError(400, "bad_request", str(e)) from None

    async with service.cardroom.review_slots:
        moves = await asyncio.to_thread(work)
    return JSONResponse({"round": body.round, "seat": body.seat, "moves": moves,
                         "drop": replay.DROP})
