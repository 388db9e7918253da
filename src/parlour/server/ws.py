"""The WebSocket endpoint: connection caps, origin check, size and rate limits,
validation, dispatch."""

from __future__ import annotations

import asyncio

from starlette.websockets import WebSocket, WebSocketDisconnect

from parlour.server.guard import client_address
from parlour.server.hub import Connection
from parlour.server.limits import origin_allowed
from parlour.server.pages import reader_speech
from parlour.server.protocol import BadMessage, parse_client
from parlour.server.service import TableService

MAX_REFUSED = 200
"""A connection that keeps flooding after this many refused messages is closed."""


async def table_socket(ws: WebSocket) -> None:
    """``/ws``: one client. The first message must be ``hello`` (token in the message)."""
    service: TableService = ws.app.state.service
    settings = service.settings
    if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host"),
                          settings.allowed_origins, settings.public_url):
        await ws.close(code=1008, reason="origin not allowed")
        return
    addr = client_address(ws.scope, settings)
    refused = service.sockets.refuse(addr)
    if refused is not None:  # the handshake is refused (HTTP 403): no descriptor kept
        await ws.close(code=1008, reason=refused)
        return
    conn = Connection(ws, settings, addr)
    conn.speech = reader_speech(ws.headers.get("accept-language"), ws.cookies.get("parlour_lang"),
                                ws.cookies.get("parlour_cards"))
    service.sockets.opened(conn)
    try:
        await ws.accept()
        await _serve(service, conn, ws)
    except WebSocketDisconnect:
        pass
    finally:
        if conn.table is None:
            conn.stop()
        await service.disconnected(conn)


async def _serve(service: TableService, conn: Connection, ws: WebSocket) -> None:
    settings = service.settings
    hub = service.hub
    while True:
        try:
            timeout = settings.hello_timeout if conn.table is None else None
            frame = await asyncio.wait_for(ws.receive(), timeout=timeout)
        except TimeoutError:
            await hub.error(conn, "no_hello", "no hello in time: closing")
            await conn.close(1008, "no hello")
            return
        if frame["type"] == "websocket.disconnect":
            return
        text = frame.get("text")
        if text is None:
            await hub.error(conn, "bad_message", "send JSON text frames, not binary")
            continue
        size = len(text.encode("utf-8"))
        if size > settings.max_message_bytes:
            await hub.error(conn, "too_large", f"message of {size} bytes; the limit is "
                            f"{settings.max_message_bytes}")
            continue
        if not conn.limiter.allow():
            if conn.limiter.refused > MAX_REFUSED:
                await conn.close(1008, "rate limit")
                return
            await hub.error(conn, "rate_limited", f"too many messages: at most "
                            f"{settings.rate_per_second:g} a second")
            continue
        try:
            msg = parse_client(text)
        except BadMessage as e:
            await hub.error(conn, "bad_message", str(e))
            continue
        await service.handle(conn, msg)
