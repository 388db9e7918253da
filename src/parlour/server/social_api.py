"""The HTTP side of people among people: friends (follow, online, invite), blocks and
reports (server/social.py, server/moderation.py)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from parlour.server import moderation, people
from parlour.server.api import _errors
from parlour.server.errors import ServiceError
from parlour.server.guard import client_address, public_base
from parlour.server.identity import Player, ensure_player, player_of
from parlour.server.limits import bucket_on, refuse_if_waiting
from parlour.server.protocol import Secret
from parlour.server.service import TableService
from parlour.server.social import Social
from parlour.server.tokens import hash_token

router = APIRouter(prefix="/api")

Tag = Annotated[str, Field(min_length=1, max_length=32)]
TableId = Annotated[str, Field(min_length=1, max_length=32)]


class Someone(BaseModel):
    """A player: an account's ``name``, the person at ``seat`` of ``table``, or a
    ``tag`` from your lists."""

    model_config = ConfigDict(extra="forbid")

    name: Annotated[str, Field(max_length=24)] | None = None
    table: TableId | None = None
    seat: Annotated[int, Field(ge=0, le=7)] | None = None
    tag: Tag | None = None


class Report(Someone):
    reason: Annotated[str, Field(min_length=1, max_length=500)]


class Invite(BaseModel):
    model_config = ConfigDict(extra="forbid")

    table: TableId
    token: Secret
    """Your seat's token at that table (only a seated player invites)."""
    tag: Tag


class Decline(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: Annotated[int, Field(ge=0, le=2**63 - 1, strict=True)]
    """An invitation's row id: at most the largest id a database row can have (a larger
    number reached SQLite as an overflow, a 500)."""


def _service(request: Request) -> TableService:
    return request.app.state.service


def _social(request: Request) -> Social:
    return _service(request).social


def _limited(request: Request) -> None:
    """Every change here is limited per address (``social_per_minute``)."""
    svc = _service(request)
    st = svc.settings
    limit = bucket_on(svc, "social_limit", st.social_per_minute, st.social_burst)
    refuse_if_waiting(limit.allow(client_address(request.scope, st)),
                      "too many requests from your address")


def _me(request: Request, response: Response) -> Player:
    _limited(request)
    me = ensure_player(request, response)
    _social(request).touch(me.id)
    return me


@router.post("/here", responses=_errors(429),
             summary="The page is open: its player counts as online (a heartbeat)")
def here(request: Request) -> dict[str, Any]:
    """Sent by the page every ``every`` seconds while a tab is visible; marks the
    cookie's player online (nothing for a browser with no player yet)."""
    from parlour.server.accounts import _reads

    _reads(request)
    presence = _service(request).presence
    me = player_of(request)
    if me is not None:
        presence.mark([me.id])
    return {"online": me is not None, "every": presence.every}


def _who(request: Request, me: Player, body: Someone) -> tuple[str, str]:
    return _social(request).find(me.id, body.name, body.table, body.seat, body.tag)


@router.get("/friends", responses=_errors(),
            summary="The players you follow (online or not) and your invitations to tables")
async def friends(request: Request) -> dict[str, Any]:
    me = player_of(request)
    if me is None:
        return {"following": [], "invites": []}
    social = _social(request)
    social.touch(me.id)
    base = public_base(request.app.state.settings, request.scope)
    invites = social.invites(me.id)
    for i in invites:
        i["url"] = base + i["url"]
    return {"following": social.following(me.id), "invites": invites}


def _between(request: Request, response: Response, body: Someone, act: str) -> dict[str, Any]:
    """Follow, unfollow, block or unblock the player ``body`` names; who it was, in words."""
    me = _me(request, response)
    pid, name = _who(request, me, body)
    social = _social(request)
    getattr(social, act)(me.id, pid)
    return {"name": name, "tag": social.tag(pid)}


@router.post("/follows", status_code=201, responses=_errors(400, 404, 409, 429),
             summary="Follow a player: see when they are online, invite them to your table")
async def follow(request: Request, response: Response, body: Someone) -> dict[str, Any]:
    return _between(request, response, body, "follow")


@router.post("/follows/remove", responses=_errors(400, 404, 429), summary="Stop following a player")
async def unfollow(request: Request, response: Response, body: Someone) -> dict[str, Any]:
    return _between(request, response, body, "unfollow")


@router.get("/blocks", responses=_errors(), summary="The players you blocked (their tags hide their chat)")
async def blocks(request: Request) -> list[dict[str, Any]]:
    me = player_of(request)
    return [] if me is None else _social(request).blocked(me.id)


@router.post("/blocks", status_code=201, responses=_errors(400, 404, 409, 429),
             summary="Block a player: never paired with you, their chat hidden from you")
async def block(request: Request, response: Response, body: Someone) -> dict[str, Any]:
    return _between(request, response, body, "block")


@router.post("/blocks/remove", responses=_errors(400, 404, 429), summary="Unblock a player")
async def unblock(request: Request, response: Response, body: Someone) -> dict[str, Any]:
    return _between(request, response, body, "unblock")


@router.post("/invites", status_code=201, responses=_errors(400, 403, 404, 409, 429),
             summary="Invite a player you follow to the table where you hold a seat")
async def invite(request: Request, response: Response, body: Invite) -> dict[str, Any]:
    me = _me(request, response)
    svc = _service(request)
    svc.moderation.refuse(me.id, "play")
    t = svc.load(body.table)
    seat = t.seat_of_token_hash(hash_token(body.token))
    if seat is None:
        raise ServiceError(403, "unauthorised", "this token does not hold a seat at this table")
    if t.status not in ("waiting", "playing") or not any(
            s.kind == "person" and s.token_hash is None and (t.status == "waiting" or s.open)
            for s in t.seats):
        raise ServiceError(409, "full", "no seat at this table is free to invite someone to")
    pid, name = _social(request).find(me.id, tag=body.tag)
    _social(request).invite(me.id, t.seats[seat].name, pid, t.id)
    return {"invited": name}


@router.post("/invites/decline", responses=_errors(400, 429), summary="Turn an invitation down")
async def decline(request: Request, response: Response, body: Decline) -> dict[str, Any]:
    me = _me(request, response)
    _social(request).decline(me.id, body.id)
    return {"declined": body.id}


@router.post("/reports", status_code=201, responses=_errors(400, 404, 429),
             summary="Report a player to the room's operator (the table's chat and record go with it; from a profile, the last game you shared)")
async def report(request: Request, response: Response, body: Report) -> dict[str, Any]:
    me = _me(request, response)
    svc = _service(request)
    pid, name = _who(request, me, body)
    if pid == me.id:
        raise ServiceError(400, "bad_request", "you cannot report yourself")
    # From a profile (no table): the last game the two shared goes with it, if any.
    table = body.table or people.last_shared_table(svc.store.engine, me.id, pid)
    chat: list[Any] = []
    if table is not None:
        t = svc.tables.get(table)
        chat = [dict(line) for line in (t.chat if t is not None else [])]
    rid = moderation.report(svc.store.engine, me.id, pid, name, body.reason.strip(),
                            table, chat)
    return {"report": rid, "message": "Thank you: the room's operator will read it."}
