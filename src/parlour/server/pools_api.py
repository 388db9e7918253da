"""The HTTP side of the pairing pools ("Play people", server/pools.py)."""

from __future__ import annotations

import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field, model_validator

from parlour.server import names
from parlour.server.api import _errors
from parlour.server.errors import ServiceError
from parlour.server.guard import client_address, public_base
from parlour.server.protocol import Name, Secret
from parlour.server.service import TableService

router = APIRouter(prefix="/api")


class EnterPool(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: Annotated[str, Field(max_length=16)]
    players: Annotated[int, Field(ge=2, le=8)]
    name: Name = ""


class Ticket(BaseModel):
    model_config = ConfigDict(extra="forbid")

    ticket: Secret
    wait: bool = True
    """Hold the answer until something changes (at most ``pool_wait`` seconds)."""
    waiting: Annotated[int, Field(ge=0, le=1_000_000)] | None = None
    playing: Annotated[int, Field(ge=0, le=1_000_000)] | None = None
    """The counts the asker shows now: a held answer also comes when its pool's counts
    differ from them (someone else entered, left or was seated)."""

    @model_validator(mode="after")
    def _both_counts_or_neither(self) -> Ticket:
        if (self.waiting is None) != (self.playing is None):
            raise ValueError("send both counts shown (waiting and playing) or neither")
        return self


def _service(request: Request) -> TableService:
    return request.app.state.service


def _addr(request: Request) -> str:
    return client_address(request.scope, request.app.state.settings)


def person(request: Request, response: Response) -> Any:
    """The player asking (a lasting guest is made on first use), or None on a server
    without identities."""
    try:
        from parlour.server.identity import ensure_player
    except ImportError:
        return None
    return ensure_player(request, response)


def _links(request: Request, out: dict[str, Any]) -> dict[str, Any]:
    joined = out.get("joined")
    if joined:
        base = public_base(request.app.state.settings, request.scope)
        for key in ("invite_url", "watch_url", "table_url", "rejoin_url"):
            if joined.get(key):
                joined[key] = base + joined[key]
    return out


@router.get("/pools", responses=_errors(), summary="Every pairing pool: how many wait, how many play")
async def pools(request: Request) -> list[dict[str, Any]]:
    return await _service(request).pools.listing()


@router.post("/pool", status_code=201, responses=_errors(400, 403, 409, 429),
             summary="Enter the pool of a game and table size; keep the ticket to ask with")
async def enter(request: Request, response: Response, body: EnterPool) -> dict[str, Any]:
    svc = _service(request)
    try:
        chosen = names.person(body.name)  # a person's own name: the rules of a seat
    except names.BadName as e:
        raise ServiceError(400, "bad_name", str(e)) from None
    who = person(request, response)
    if who is not None:
        svc.moderation.refuse(who.id, "play")
        player, name = who.id, chosen or who.name
    else:
        player, name = "ticket:" + secrets.token_hex(8), chosen
    return await svc.pools.enter(player, name, body.game, body.players, _addr(request))


@router.post("/pool/wait", responses=_errors(400, 404, 429),
             summary="Where your ticket stands: waiting (held until something changes) or paired, with your seat")
async def wait(request: Request, body: Ticket) -> dict[str, Any]:
    shown = None if body.waiting is None or body.playing is None else (body.waiting, body.playing)
    out = await _service(request).pools.ask(body.ticket, _addr(request), body.wait, shown)
    return _links(request, out)


@router.post("/pool/fill", responses=_errors(400, 404, 409, 429),
             summary="After the wait, play at once: computer players take the empty seats (unrated)")
async def fill(request: Request, body: Ticket) -> dict[str, Any]:
    return _links(request, await _service(request).pools.fill(body.ticket, _addr(request)))


@router.post("/pool/leave", responses=_errors(400, 404, 429), summary="Leave the pool")
async def leave(request: Request, body: Ticket) -> dict[str, Any]:
    return _links(request, await _service(request).pools.leave(body.ticket, _addr(request)))
