"""The load generator's small HTTP/1.1 client (``parlour.loadtest.wire``) against a
scripted local server: keep-alive reuse, chunked and close-delimited answers, status
errors, and a connection the server closed is not reused."""

from __future__ import annotations

import asyncio
import json

import pytest

from async_kit import run_async
from parlour.loadtest.wire import StatusError, Wire


def ok(body: bytes, *extra: str) -> bytes:
    head = ["HTTP/1.1 200 OK", "content-type: application/json", *extra]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


ANSWERS = {
    "/length": lambda: ok(b'{"a": 1}', "content-length: 8"),
    "/chunked": lambda: ok(b'4\r\n{"b"\r\n4\r\n: 2}\r\n0\r\n\r\n', "transfer-encoding: chunked"),
    "/close": lambda: ok(b'{"c": 3}', "connection: close"),
    "/missing": lambda: b'HTTP/1.1 404 Not Found\r\ncontent-length: 44\r\n\r\n'
                        b'{"error": "not_found", "message": "no such"}',
}


async def serve(log: list) -> asyncio.AbstractServer:
    async def one(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        log.append("connection")
        while True:
            try:
                head = await reader.readuntil(b"\r\n\r\n")
            except asyncio.IncompleteReadError:
                break
            lines = head.decode().split("\r\n")
            length = next((int(x.split(":")[1]) for x in lines
                           if x.lower().startswith("content-length:")), 0)
            body = await reader.readexactly(length)
            path = lines[0].split()[1]
            log.append((lines[0].split()[0], path, json.loads(body) if body else None,
                        next((x for x in lines if x.startswith("X-Seat:")), None)))
            writer.write(ANSWERS[path]())
            await writer.drain()
            if path == "/close":
                break
        writer.close()

    return await asyncio.start_server(one, "127.0.0.1", 0)


def test_answers_of_every_framing_and_connection_reuse():
    async def go():
        log: list = []
        server = await serve(log)
        base = f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}"
        async with Wire(limit=4, timeout=5) as http:
            a = await http.post(base + "/length", json={"x": 1}, headers={"X-Seat": "1"})
            b = await http.get(base + "/chunked")
            c = await http.get(base + "/close")
            d = await http.get(base + "/length")
            missing = await http.get(base + "/missing")
        server.close()
        return log, a, b, c, d, missing

    log, a, b, c, d, missing = run_async(go())
    assert (a.status_code, a.json()) == (200, {"a": 1})
    assert b.json() == {"b": 2} and c.json() == {"c": 3} and d.json() == {"a": 1}
    assert ("POST", "/length", {"x": 1}, "X-Seat: 1") in log
    # one connection for the first three (kept alive), a new one after "connection: close"
    assert [e for e in log if e == "connection"] == ["connection"] * 2
    assert log.index("connection", 1) == 4
    assert missing.status_code == 404
    with pytest.raises(StatusError, match="404") as e:
        missing.raise_for_status()
    assert isinstance(e.value, ValueError) and e.value.status_code == 404


def test_a_refused_connection_is_an_os_error():
    async def go():
        server = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        server.close()
        await server.wait_closed()
        async with Wire(timeout=5) as http:
            await http.get(f"http://127.0.0.1:{port}/length")

    with pytest.raises(OSError):
        run_async(go())
