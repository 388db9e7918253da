"""Web Push: a system notification for a player whose browser is closed, when their
turn comes (off unless the ``web_push`` setting is on).

A browser that turned "tell me when it is my turn" on subscribes with the push service
its maker runs (the endpoint and keys of ``PushManager.subscribe``); the server keeps the
subscription under the player of the cookie, and when a table waits on a seat of that
player and no page of theirs is connected, it sends the words of the notification,
encrypted for that browser and signed with the server's VAPID key, through pywebpush.
The VAPID key is ``vapid_private_key``, or one made at first start and kept in the
database (``server_secrets``), so every process of a cluster signs alike. Endpoints are
accepted only on the push services' hosts (``push_hosts``): the server never posts to an
address a stranger chose. A service that says the subscription is gone (404, 410) has it
deleted.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import secrets
import time
from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import delete, insert, select

from parlour.server import people
from parlour.server.errors import ServiceError, _errors
from parlour.server.identity import ensure_player, player_of
from parlour.server.push_rows import PUSH, PushRow  # noqa: F401  (PushRow: its old home)

if TYPE_CHECKING:
    from parlour.server.core import Core
    from parlour.server.live import LiveTable

log = logging.getLogger("parlour.server")
router = APIRouter()




def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Pusher:
    """The sending side, one per service."""

    def __init__(self, svc: Core) -> None:
        self.svc = svc
        self.on = svc.settings.web_push
        self._vapid: Any = None
        self._sent: dict[str, int] = {}
        """The table sequence number each table's last turn message was sent for."""

    @property
    def vapid(self) -> Any:
        """The server's VAPID key (py_vapid), made and stored on first use."""
        if self._vapid is None:
            from py_vapid import Vapid

            raw = self.svc.settings.vapid_private_key or self.svc.store.server_secret(
                "vapid_key", make=lambda: _b64(secrets.token_bytes(32)))
            self._vapid = Vapid.from_raw(raw.encode())
        return self._vapid

    def public_key(self) -> str:
        """The application server key browsers subscribe with (uncompressed point)."""
        point = self.vapid.public_key.public_bytes(serialization.Encoding.X962,
                                                   serialization.PublicFormat.UncompressedPoint)
        return _b64(point)

    def allowed(self, endpoint: str) -> bool:
        """An endpoint on a push service's host (https), or on this machine's loopback
        when the server runs for tests."""
        parts = urlsplit(endpoint)
        host = (parts.hostname or "").lower()
        if self.svc.settings.testing and parts.scheme == "http" and host == "127.0.0.1":
            return True
        return parts.scheme == "https" and any(
            host == h or host.endswith("." + h) for h in self.svc.settings.push_hosts)

    def turn(self, t: LiveTable, seat: int) -> None:
        """The table waits on ``seat``, whose player has no page connected: tell them
        (once per table state; by the process that runs the table)."""
        if not self.on or not self.svc.owns(t) or self._sent.get(t.id) == t.seq:
            return
        self._sent[t.id] = t.seq
        if len(self._sent) > 10_000:  # forget the oldest
            for k in list(self._sent)[:5_000]:
                self._sent.pop(k, None)
        others = ", ".join(s.name for i, s in enumerate(t.seats) if i != seat)
        payload = {"title": "Your move", "url": f"/t/{t.id}", "tag": f"turn:{t.id}",
                   "body": f"It is your turn at {t.game.title} (with {others})."}
        asyncio.get_running_loop().create_task(self._send_to_owner(t.id, seat, payload))

    async def _send_to_owner(self, table_id: str, seat: int, payload: dict[str, Any]) -> None:
        try:
            await asyncio.to_thread(self._send_blocking, table_id, seat, payload)
        except Exception:
            log.exception("web push for table %s failed", table_id)

    def _send_blocking(self, table_id: str, seat: int, payload: dict[str, Any]) -> int:
        owner = people.seat_owners(self.svc.store.engine, table_id).get(seat)
        if owner is None:
            return 0
        return self.send(owner["player_id"], payload)

    def send(self, player_id: str, payload: dict[str, Any]) -> int:
        """Send ``payload`` to every browser of the player; returns how many took it."""
        from pywebpush import WebPushException, webpush

        settings = self.svc.settings
        with self.svc.store.engine.connect() as c:
            subs = c.execute(select(PUSH).where(PUSH.c.player_id == player_id)).mappings().all()
        delivered = 0
        for sub in subs:
            try:
                webpush({"endpoint": sub["endpoint"],
                         "keys": {"p256dh": sub["p256dh"], "auth": sub["auth"]}},
                        json.dumps(payload), vapid_private_key=self.vapid,
                        vapid_claims={"sub": settings.vapid_subject},
                        timeout=settings.push_timeout, ttl=settings.push_ttl)
                delivered += 1
            except WebPushException as e:
                status = e.response.status_code if e.response is not None else None
                if status in (404, 410):  # the browser unsubscribed: forget it
                    forget(self.svc, sub["endpoint"])
                else:
                    log.warning("web push to a browser failed: %s", status or e)
            except Exception as e:  # the push service is unreachable: try next time
                log.warning("web push to a browser failed: %s", e)
        return delivered


def forget(svc: Core, endpoint: str, player_id: str | None = None) -> None:
    with svc.store.engine.begin() as c:
        q = delete(PUSH).where(PUSH.c.endpoint == endpoint)
        if player_id is not None:
            q = q.where(PUSH.c.player_id == player_id)
        c.execute(q)


# --- HTTP ----------------------------------------------------------------------------

class Keys(BaseModel):
    model_config = ConfigDict(extra="ignore")

    p256dh: Annotated[str, Field(min_length=16, max_length=200, pattern=r"^[A-Za-z0-9_\-=]+$")]
    auth: Annotated[str, Field(min_length=8, max_length=100, pattern=r"^[A-Za-z0-9_\-=]+$")]


class Subscription(BaseModel):
    """``PushSubscription.toJSON()`` of the browser."""

    model_config = ConfigDict(extra="ignore")

    endpoint: Annotated[str, Field(min_length=8, max_length=1000)]
    keys: Keys


class Unsubscribe(BaseModel):
    model_config = ConfigDict(extra="ignore")

    endpoint: Annotated[str, Field(min_length=8, max_length=1000)]


def _pusher(request: Request) -> Pusher:
    return request.app.state.service.push


@router.get("/api/push/key", responses=_errors(), summary="Whether Web Push is on, and the "
            "server's VAPID public key to subscribe with")
def push_key(request: Request) -> dict[str, Any]:
    p = _pusher(request)
    return {"enabled": True, "key": p.public_key()} if p.on else {"enabled": False, "key": None}


@router.post("/api/push/subscriptions", status_code=201, responses=_errors(400, 409, 429),
             summary="Keep this browser's push subscription for the player of its cookie")
def subscribe(request: Request, response: Response, body: Subscription) -> dict[str, Any]:
    p = _pusher(request)
    if not p.on:
        raise ServiceError(409, "push_off", "this server does not send notifications to "
                           "closed browsers")
    if not p.allowed(body.endpoint):
        raise ServiceError(400, "bad_endpoint", "that is not the address of a push service")
    player = ensure_player(request, response)
    svc = p.svc
    keep = max(1, svc.settings.push_per_player)
    with svc.store.engine.begin() as c:
        c.execute(delete(PUSH).where(PUSH.c.endpoint == body.endpoint))
        older = list(c.scalars(select(PUSH.c.endpoint).where(PUSH.c.player_id == player.id)
                               .order_by(PUSH.c.created.desc()).offset(keep - 1)))
        if older:  # the player's oldest browsers make room
            c.execute(delete(PUSH).where(PUSH.c.endpoint.in_(older)))
        c.execute(insert(PUSH).values(endpoint=body.endpoint, player_id=player.id,
                                      p256dh=body.keys.p256dh, auth=body.keys.auth,
                                      created=time.time()))
    return {"subscribed": True}


@router.delete("/api/push/subscriptions", responses=_errors(400),
               summary="Forget this browser's push subscription")
def unsubscribe(request: Request, body: Unsubscribe) -> dict[str, Any]:
    player = player_of(request)
    if player is not None:
        forget(_pusher(request).svc, body.endpoint, player.id)
    return {"subscribed": False}
