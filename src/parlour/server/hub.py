"""Connections and delivery: every outgoing message goes through :func:`views.render`.

A :class:`Connection` is one WebSocket, bound after its ``hello`` to one table as a
seat or as a spectator. :class:`Hub` is the only code that sends: it renders each
message for the connection's audience and then writes it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from .limits import RateLimiter
from .live import LiveTable
from .settings import Settings
from .views import Audience, render

log = logging.getLogger("parlour.server")

try:
    import orjson

    def encode(payload: dict[str, Any]) -> str:
        return orjson.dumps(payload).decode("utf-8")
except ImportError:  # pragma: no cover -- orjson is a dependency
    import json

    def encode(payload: dict[str, Any]) -> str:
        return json.dumps(payload, separators=(",", ":"), ensure_ascii=False)


Observer = Callable[[LiveTable | None, Audience, dict[str, Any]], None]
"""Called with every message just before it is sent (tests check what each seat sees)."""


class Connection:
    """One client socket. ``seat`` is None for spectators and before ``hello``."""

    def __init__(self, ws: Any, settings: Settings) -> None:
        self.ws = ws
        self.table: LiveTable | None = None
        self.seat: int | None = None
        self.role: str | None = None
        self.limiter = RateLimiter(settings.rate_per_second, settings.rate_burst)
        self.bad_hellos = 0
        self.closed = False
        self._send_lock = asyncio.Lock()

    @property
    def audience(self) -> Audience:
        return self.seat if self.role == "seat" else None

    async def write(self, payload: dict[str, Any]) -> None:
        if self.closed:
            return
        text = encode(payload)
        async with self._send_lock:
            try:
                await self.ws.send_text(text)
            except Exception:  # the peer went away; the read loop cleans up
                self.closed = True


class Hub:
    """Renders and sends messages; the observers see exactly what is sent."""

    def __init__(self) -> None:
        self.observers: list[Observer] = []

    async def send(self, t: LiveTable | None, conn: Connection, kind: str,
                   cache: dict[Any, Any] | None = None, **data: Any) -> None:
        if t is None:  # before hello: only errors, with nothing of any table in them
            payload = {"type": "error", "code": data["code"], "message": data["message"]}
            audience: Audience = None
        else:
            audience = conn.audience
            payload = render(t, audience, kind, cache=cache, **data)
        for obs in self.observers:
            obs(t, audience, payload)
        await conn.write(payload)

    async def error(self, conn: Connection, code: str, message: str) -> None:
        await self.send(conn.table, conn, "error", code=code, message=message)

    async def broadcast(self, t: LiveTable, kind: str, *, exclude: Connection | None = None,
                        **data: Any) -> None:
        cache: dict[Any, Any] = {}  # what every audience shares is built once
        for conn in list(t.conns):
            if conn is not exclude:
                await self.send(t, conn, kind, cache=cache, **data)
