"""Structured logs: one JSON object a line, through the standard :mod:`logging`.

Every line has ``time`` (UTC, ISO 8601), ``level``, ``logger`` and ``event`` (the
message), and the fields a call passes in ``extra`` (``table``, ``request_id``, the
access log's ``method``, ``route``, ``status``, ``ms``). What is logged is chosen where
it is logged: never a card, a key, a token or a password; the access log names a route
by its template (``/u/{name}``), never a query string.
"""

from __future__ import annotations

import json
import logging
import secrets
import sys
import time
from datetime import UTC, datetime
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

FIELDS = ("table", "request_id", "method", "route", "status", "ms", "client", "instance",
          "seat", "reason")
access = logging.getLogger("parlour.access")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(
                timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "event": record.getMessage(),
        }
        for name in FIELDS:
            value = record.__dict__.get(name)
            if value is not None:
                out[name] = value
        if record.exc_info:
            kind = record.exc_info[0]
            out["error"] = kind.__name__ if kind else "error"
            out["trace"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False, default=str)


def setup(level: int = logging.INFO) -> None:
    """JSON lines on standard error for the whole process (``parlour serve``)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)


class AccessLog:
    """One ``request`` line per HTTP request (and WebSocket upgrade) when it ends."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = [0]
        request_id = secrets.token_hex(6)

        async def sent(message: Message) -> None:
            if message["type"] == "http.response.start":
                status[0] = message["status"]
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"],
                                      (b"x-request-id", request_id.encode())]
            elif message["type"] == "websocket.accept":
                status[0] = 101
            elif message["type"] == "websocket.close" and not status[0]:
                status[0] = 403
            await send(message)

        try:
            await self.app(scope, receive, sent)
        finally:
            route = scope.get("route")
            params = scope.get("path_params") or {}
            access.info("request", extra={
                "method": scope.get("method", "WS"),
                "route": getattr(route, "path", None) or _static(scope["path"]),
                "status": status[0] or 500, "ms": round((time.perf_counter() - start) * 1000, 1),
                "request_id": request_id, "table": params.get("table_id")})


def _static(path: str) -> str:
    """An unrouted path as logged: static files by name, anything else as ``other``."""
    if path.startswith("/static/") and len(path) < 200:
        return path
    return path if path in ("/", "/ws") else "other"
