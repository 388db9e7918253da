"""A small HTTP/1.1 client for the load run's table creation: JSON in, JSON out.

The load generator creates a table and seats its players with four HTTP requests per
table, most of them in the few seconds the tables arrive in; ``httpx`` spends more CPU
on each of those (its connection pool and its async backends) than the server does,
and that CPU is taken from the same machine the server is measured on. This client
keeps a few keep-alive connections over plain asyncio streams and does only what those
requests need: a JSON body with ``Content-Length``, a response framed by
``Content-Length`` or chunked, ``Connection: close`` honoured. The answers have the
subset of ``httpx.Response`` the clients use (``status_code``, ``json()``,
``raise_for_status()``), so :class:`~parlour.loadtest.clients.TableRun` takes either.
"""

from __future__ import annotations

import asyncio
import ssl
import time
from typing import Any
from urllib.parse import urlsplit

try:
    from orjson import dumps as _dumps
    from orjson import loads
except ImportError:  # pragma: no cover -- orjson is a dependency
    import json

    def _dumps(value: Any) -> bytes:
        return json.dumps(value).encode()

    from json import loads

IDLE = 2.0
"""Seconds a kept connection may sit idle before it is dropped rather than reused (the
server closes idle connections after its own keep-alive timeout, 5 s for uvicorn)."""


class StatusError(ValueError):
    """An answer whose status is not 2xx (from :meth:`Answer.raise_for_status`)."""

    def __init__(self, status: int, body: bytes) -> None:
        super().__init__(f"HTTP {status}: {body[:200].decode('utf-8', 'replace')}")
        self.status_code = status


class Answer:
    """One HTTP response: status and body."""

    def __init__(self, status: int, body: bytes) -> None:
        self.status_code = status
        self.content = body

    def json(self) -> Any:
        return loads(self.content)

    def raise_for_status(self) -> None:
        if not 200 <= self.status_code < 300:
            raise StatusError(self.status_code, self.content)


class _Conn:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.used = time.monotonic()

    def close(self) -> None:
        self.writer.close()


class Wire:
    """Keep-alive HTTP/1.1 connections to servers, at most ``limit`` at a time.

    Failures are ``OSError`` (refused, reset), ``asyncio.IncompleteReadError`` (the
    server closed mid-answer), ``TimeoutError`` or ``ValueError`` (an answer that is
    not HTTP); a failed connection is never reused.
    """

    def __init__(self, limit: int = 50, timeout: float = 30.0) -> None:
        self.timeout = timeout
        self.gate = asyncio.Semaphore(limit)
        self.idle: dict[tuple[str, str, int], list[_Conn]] = {}

    async def __aenter__(self) -> Wire:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        for conns in self.idle.values():
            for c in conns:
                c.close()
        self.idle.clear()

    async def post(self, url: str, json: Any = None,
                   headers: dict[str, str] | None = None) -> Answer:
        return await self.request("POST", url, None if json is None else _dumps(json),
                                  headers)

    async def get(self, url: str, headers: dict[str, str] | None = None) -> Answer:
        return await self.request("GET", url, None, headers)

    async def request(self, method: str, url: str, body: bytes | None,
                      headers: dict[str, str] | None = None) -> Answer:
        async with self.gate:
            return await asyncio.wait_for(self._request(method, url, body, headers),
                                          self.timeout)

    async def _request(self, method: str, url: str, body: bytes | None,
                       headers: dict[str, str] | None) -> Answer:
        parts = urlsplit(url)
        https = parts.scheme == "https"
        port = parts.port or (443 if https else 80)
        key = (parts.scheme, parts.hostname or "", port)
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        lines = [f"{method} {target} HTTP/1.1", f"Host: {parts.netloc}"]
        if body is not None:
            lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        head = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
        conn = self._take(key)
        if conn is None:
            reader, writer = await asyncio.open_connection(
                key[1], port, ssl=ssl.create_default_context() if https else None)
            conn = _Conn(reader, writer)
        try:
            conn.writer.write(head + body if body is not None else head)
            status, keep, payload = await self._answer(conn.reader)
        except BaseException:
            conn.close()
            raise
        if keep:
            conn.used = time.monotonic()
            self.idle.setdefault(key, []).append(conn)
        else:
            conn.close()
        return Answer(status, payload)

    def _take(self, key: tuple[str, str, int]) -> _Conn | None:
        conns = self.idle.get(key)
        now = time.monotonic()
        while conns:
            c = conns.pop()
            if now - c.used < IDLE and not c.reader.at_eof():
                return c
            c.close()
        return None

    @staticmethod
    async def _answer(reader: asyncio.StreamReader) -> tuple[int, bool, bytes]:
        head = await reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        first = lines[0].split(" ", 2)
        if len(first) < 2 or not first[0].startswith("HTTP/1."):
            raise ValueError(f"not an HTTP answer: {lines[0][:80]!r}")
        status = int(first[1])
        fields: dict[str, str] = {}
        for line in lines[1:]:
            if ":" in line:
                k, v = line.split(":", 1)
                fields[k.strip().lower()] = v.strip()
        keep = fields.get("connection", "").lower() != "close" and first[0] == "HTTP/1.1"
        if "content-length" in fields:
            body = await reader.readexactly(int(fields["content-length"]))
        elif "chunked" in fields.get("transfer-encoding", "").lower():
            parts = []
            while True:
                size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
                if size == 0:
                    while (await reader.readuntil(b"\r\n")) != b"\r\n":
                        pass  # trailers
                    break
                parts.append(await reader.readexactly(size))
                await reader.readexactly(2)
            body = b"".join(parts)
        elif status in (204, 304) or 100 <= status < 200:
            body = b""
        else:
            body = await reader.read()
            keep = False
        return status, keep, body
