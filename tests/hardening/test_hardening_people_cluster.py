"""Issue #32 item 8 for people: two ``parlour serve --cluster`` processes on one
PostgreSQL. A player whose table socket is open on A is online in the friends list
read from B; a line from a blocked player, written on A, crosses to B (NOTIFY) for
everyone but the blocker, whose socket on B never receives it."""

from __future__ import annotations

import json
import time

import pytest
from hardening_kit import Postgres

from parlour.loadtest import ServerProcess
from parlour.server.db import Store

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]


class Socket:
    """A table socket over a real WebSocket, carrying a browser's cookie."""

    def __init__(self, server: ServerProcess, table: str, cookie: str | None = None,
                 **auth: str) -> None:
        from websockets.sync.client import connect

        headers = {"Cookie": cookie} if cookie else None
        self.ws = connect(f"ws://127.0.0.1:{server.port}/ws", open_timeout=10,
                          additional_headers=headers).__enter__()
        self.ws.send(json.dumps({"type": "hello", "table": table, **auth}))
        self.texts: list[str] = []

    def until(self, text: str, timeout: float = 30.0) -> None:
        """Read until a message holds ``text`` (everything read is kept)."""
        deadline = time.monotonic() + timeout
        while not any(text in t for t in self.texts):
            assert time.monotonic() < deadline, f"never received {text!r}: {self.texts[-3:]}"
            try:
                self.texts.append(self.ws.recv(timeout=max(0.1, deadline - time.monotonic())))
            except TimeoutError:
                continue

    def chat(self, text: str) -> None:
        self.ws.send(json.dumps({"type": "chat", "text": text}))

    def close(self) -> None:
        self.ws.close()


def test_presence_and_hidden_chat_across_two_processes(tmp_path):
    import httpx

    pg = Postgres()
    procs: list[ServerProcess] = []
    sockets: list[Socket] = []
    clients: list[httpx.Client] = []
    try:
        for name in ("A", "B"):
            (tmp_path / name).mkdir()
            procs.append(ServerProcess(
                pg.url, workdir=tmp_path / name, extra=["--cluster", "--lease", "30"],
                env={"PARLOUR_INSTANCE": name, "PARLOUR_POLL_EVERY": "0.05",
                     "PARLOUR_POLL_LISTENING": "3600", "PARLOUR_BOT_WORKERS": "0",
                     "PARLOUR_CHAT_BURST": "50", "PARLOUR_CHAT_NEW_BURST": "50"}).start())
        a, b = procs
        Store(pg.sqlalchemy_url)

        def browser(server: ServerProcess) -> httpx.Client:
            c = httpx.Client(base_url=server.base, timeout=15)
            clients.append(c)
            return c

        def cookie(c: httpx.Client) -> str:
            return "; ".join(f"{k}={v}" for k, v in c.cookies.items())

        ann, ben, cy = browser(a), browser(b), browser(b)
        j = ann.post("/api/tables", json={"game": "fanti", "players": 2, "name": "Ann",
                                          "seats": [{"kind": "person"}] * 2,
                                          "rules": {"rounds": 1}}).json()
        bj = ben.post(f"/api/tables/{j['table']}/join",
                      json={"key": j["invite_url"].split("#invite=")[1], "name": "Ben"}).json()
        assert ben.post("/api/accounts", json={"name": "Benedict",
                                               "password": "correct horse battery"}
                        ).status_code == 201
        assert cy.post("/api/follows", json={"name": "Benedict"}).status_code == 201

        def ben_online() -> bool:
            [f] = cy.get("/api/friends").json()["following"]
            return f["online"]

        assert not ben_online()  # (nothing of his has been heard yet)
        # Ben's table socket on A: online, as B reads it.
        ben_ws = Socket(a, j["table"], cookie(ben), token=bj["token"])
        sockets.append(ben_ws)
        ben_ws.until('"welcome"')
        assert ben_online()
        # Ann's socket on B, and a spectator on B; Ben's lines cross to both ...
        ann_ws = Socket(b, j["table"], cookie(ann), token=j["token"])
        watcher = Socket(b, j["table"], watch=j["watch_url"].split("#watch=")[1])
        sockets += [ann_ws, watcher]
        for s in (ann_ws, watcher):
            s.until('"welcome"')
        ben_ws.chat("before the block")
        ann_ws.until("before the block")
        # ... until Ann blocks him (through A): then his lines reach the spectator on B,
        # never Ann's socket there, and the state she gets leaves his lines out.
        assert ann.post("/api/blocks", json={"table": j["table"], "seat": 1}
                        ).status_code == 201
        ben_ws.chat("hidden from ann")
        watcher.until("hidden from ann")
        ann_ws.chat("ann's marker")
        ann_ws.until("ann's marker")
        ben_ws.until("ann's marker")
        assert not any("hidden from ann" in t for t in ann_ws.texts)
        ann_ws.ws.send(json.dumps({"type": "sync"}))
        ann_ws.until('"snapshot"')
        snap = json.loads(next(t for t in ann_ws.texts if '"snapshot"' in t))
        assert [ln["text"] for ln in snap["state"]["chat"]] == ["ann's marker"]
    finally:
        for s in sockets:
            s.close()
        for c in clients:
            c.close()
        for p in procs:
            p.cleanup()
        pg.cleanup()
