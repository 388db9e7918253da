"""Faults (issue #7, item 2): a server killed at random moments, a database that is
briefly locked or stopped, a client that vanishes mid-frame, and a clean SIGTERM.

Every test runs real ``parlour serve`` subprocesses on 127.0.0.1 and the load
harness's clients (one WebSocket per seat, reconnecting by themselves). What is
checked each time: every game finishes; its record passes ``parlour check``'s reader
and every commitment verifies; every move a client saw acknowledged is in the record
at its sequence number, and every person's move in the record is one its seat sent
(nothing lost, nothing applied twice, nothing made up); the events table holds each
event once.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import random
import socket
import sqlite3
import time
from pathlib import Path

import httpx
import pytest
from hardening_kit import Postgres, check_events, check_moves, fetch_records

from parlour import record
from parlour.delta import Mirror
from parlour.loadtest import ServerProcess, run_sync, run_tables
from parlour.loadtest.procs import cpu_seconds, free_port, pid_listening_on, rss_bytes
from parlour.server.db import Store
from parlour.server.verify import verify

pytestmark = [pytest.mark.slow]

QUICK = (0.02, 0.1)
"""Think time of the scripted people in these tests: quick, but games take seconds."""


def finish_checks(runs, stats, records, store):
    assert not stats.failures, stats.failures[:5]
    assert all(r.finished for r in runs)
    assert len(records) == len(runs)
    for data in records.values():
        m = record.load(data)
        assert m.is_over and verify(data).ok
    counts = check_moves(runs, records)
    counts["events"] = check_events(store, records)
    return counts


async def play_with(server, tables, *, speed=QUICK, duration=150, seed=1, fault=None):
    """Play ``tables`` games against ``server`` while ``fault(server, stats)`` runs."""
    task = None
    stats_box = {}

    async def go():
        return await run_tables([server.base], tables, duration=duration, speed=speed,
                                seed=seed, ramp=0.5, compression=None,
                                on_tick=lambda runs, stats: stats_box.update(runs=runs,
                                                                             stats=stats))

    main = asyncio.create_task(go())
    if fault is not None:
        await asyncio.sleep(0)
        task = asyncio.create_task(fault(server, stats_box))
    runs, stats = await main
    if task is not None:
        extra = await task
    else:
        extra = None
    records = await fetch_records(runs)
    return runs, stats, records, extra


def _gauge(server, name: str) -> float | None:
    """The value of the server's /metrics line ``name`` (labels included), None if the
    server does not answer or has no such line."""
    try:
        text = httpx.get(server.base + "/metrics", timeout=2).text
    except httpx.HTTPError:
        return None
    return next((float(line.split()[-1]) for line in text.splitlines()
                 if line.startswith(name + " ")), None)


def _playing(server) -> bool:
    """Whether the server has a table in play (its /metrics count)."""
    return (_gauge(server, 'parlour_tables{state="playing"}') or 0) > 0


async def in_play(box, tables: int, moves: int = 3, timeout: float = 60) -> None:
    """Until every one of the ``tables`` games has all its seats connected and has moved
    ``moves`` times, as the clients saw it: a fault before then would hit no game in
    play (on a busy machine making the tables can take longer than any fixed delay)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        runs = box.get("runs") or []
        if len(runs) == tables and all(
                r.seats and all(seat.state is not None for seat in r.seats)
                and r.seats[0].seq >= moves for r in runs):
            return
        await asyncio.sleep(0.05)


@pytest.mark.timeout(240)
def test_sigkill_at_random_moments_loses_nothing(tmp_path):
    """50 concurrent games; the server is SIGKILLed three times at random moments and
    restarted on the same SQLite file; clients reconnect by themselves."""
    server = ServerProcess(tmp_path / "tables.sqlite3", bot_delay=0.05, round_pause=0.2,
                           workdir=tmp_path).start()
    rng = random.Random(2024)
    kills = []

    async def killer(server, _box):
        # The first kill waits for games in play: on a busy machine the 50 tables can
        # take longer to be made than the first random delay, and a kill before any
        # seat has connected would test nothing (no seat would have to come back).
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not await asyncio.to_thread(_playing, server):
            await asyncio.sleep(0.2)
        for _ in range(3):
            await asyncio.sleep(rng.uniform(1.0, 3.0))
            await asyncio.to_thread(server.kill)
            kills.append(time.time())
            await asyncio.to_thread(server.start)
        return len(kills)

    try:
        runs, stats, records, n = run_sync(play_with(server, 50, fault=killer, seed=5))
        counts = finish_checks(runs, stats, records, Store(f"sqlite:///{server.db}"))
    finally:
        server.cleanup()
    assert n == 3 and server.starts == 4
    assert stats.reconnects >= 50, stats.reconnects  # every seat had to come back
    assert counts["acked"] > 1000 and counts["recorded_person_moves"] >= counts["acked"]
    print(f"\nSIGKILL: 3 kills, 50 games, {counts}, reconnects {stats.reconnects}")


@pytest.mark.timeout(180)
def test_sigterm_says_reconnect_and_loses_nothing(tmp_path):
    """SIGTERM: every client gets a ``bye`` and close code 1012 "service restart";
    the server exits cleanly; a new server on the same file finishes every game."""
    server = ServerProcess(tmp_path / "tables.sqlite3", bot_delay=0.05, workdir=tmp_path).start()
    codes = []

    async def term(server, box):
        # mid-game, once every seat has connected (a seat still connecting cannot be told
        # "bye") and every table has moved
        await in_play(box, 8)
        codes.append(await asyncio.to_thread(server.terminate))
        await asyncio.to_thread(server.start)

    try:
        runs, stats, records, _ = run_sync(play_with(server, 8, fault=term,
                                                        speed=(0.1, 0.2)))
        counts = finish_checks(runs, stats, records, Store(f"sqlite:///{server.db}"))
    finally:
        server.cleanup()
    # uvicorn re-raises the signal once it has shut down cleanly (exit status -15).
    assert codes in ([0], [-15]), "the server did not stop by itself on SIGTERM"
    assert "Traceback" not in server.log_tail(100000)
    assert stats.byes == 32, stats.byes  # every seat was told, before the close
    assert stats.closes[(1012, "service restart")] == 32, stats.closes
    # a move that arrives while the server is saying goodbye is answered "unavailable"
    # (the server is restarting: reconnect) and sent again after the reconnect
    assert set(stats.errors) <= {"unavailable"}, stats.errors
    assert counts["acked"] > 8 * 40


def hold_lock(path, seconds, done):
    """Another connection holds SQLite's write lock for ``seconds``."""
    con = sqlite3.connect(path, timeout=10, isolation_level=None)
    con.execute("BEGIN EXCLUSIVE")
    time.sleep(seconds)
    con.execute("COMMIT")
    con.close()
    done.append(seconds)


@pytest.mark.timeout(180)
def test_a_locked_sqlite_database_is_reported_and_retried(tmp_path):
    db = tmp_path / "tables.sqlite3"
    server = ServerProcess(db, bot_delay=0.05, workdir=tmp_path).start()
    done = []

    async def locker(server, box):
        await in_play(box, 6)
        for i in range(3):
            if i:
                await asyncio.sleep(1.0)  # the fault's own rhythm: a lock every second
            await asyncio.to_thread(hold_lock, str(db), 1.0, done)

    try:
        runs, stats, records, _ = run_sync(play_with(server, 6, fault=locker,
                                                        speed=(0.05, 0.1)))
        counts = finish_checks(runs, stats, records, Store(f"sqlite:///{db}"))
        assert server.alive()
    finally:
        server.cleanup()
    assert done == [1.0, 1.0, 1.0]
    assert set(stats.errors) <= {"unavailable"}, stats.errors
    assert stats.errors["unavailable"] >= 1
    messages = [e["message"] for r in runs for s in r.seats for e in s.log.errors]
    assert all("try again" in m for m in messages)
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    con.close()
    assert counts["acked"] > 6 * 40
    print(f"\nlocked SQLite: {stats.errors['unavailable']} clear errors, {counts}")


@pytest.mark.timeout(240)
def test_a_stopped_postgresql_is_reported_and_retried(tmp_path):
    pg = Postgres()
    server = None
    try:
        server = ServerProcess(pg.url, bot_delay=0.05, workdir=tmp_path).start()
        outage = []

        async def stop_db(server, box):
            await in_play(box, 6)
            await asyncio.to_thread(pg.stop, "fast")
            t0 = time.time()
            await asyncio.sleep(1.0)
            await asyncio.to_thread(pg.start)
            outage.append(time.time() - t0)

        runs, stats, records, _ = run_sync(play_with(server, 6, fault=stop_db,
                                                        speed=(0.05, 0.1)))
        counts = finish_checks(runs, stats, records, Store(pg.sqlalchemy_url))
        assert server.alive()
    finally:
        if server is not None:
            server.cleanup()
        pg.cleanup()
    assert outage and outage[0] >= 1.0
    assert set(stats.errors) <= {"unavailable"}, stats.errors
    assert stats.errors["unavailable"] >= 1
    assert counts["acked"] > 6 * 40
    print(f"\nstopped PostgreSQL: {stats.errors['unavailable']} clear errors, {counts}")


def _handshake(port):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
               f"Sec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(4096)
    assert head.startswith(b"HTTP/1.1 101"), head
    return s


def _frame(text, cut=None):
    """A masked text frame (as a client must send), optionally cut after ``cut`` bytes."""
    payload = text.encode()
    mask = os.urandom(4)
    n = len(payload)
    head = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + n.to_bytes(2, "big"))
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    frame = head + mask + body
    return frame if cut is None else frame[:cut]


@pytest.mark.timeout(120)
def test_a_client_vanishing_mid_frame_changes_nothing(tmp_path):
    server = ServerProcess(tmp_path / "t.sqlite3", bot_delay=0.05, workdir=tmp_path).start()
    try:
        r = httpx.post(server.base + "/api/tables", json={
            "game": "fantan", "players": 4, "rules": {"rounds": 1},
            "seats": [{"kind": "person"}] + [{"kind": "bot", "bot": "random"}] * 3})
        j = r.json()
        hello = json.dumps({"type": "hello", "table": j["table"], "token": j["token"]})
        # 1. Hello, then half of a "start" frame, then the socket closes.
        s = _handshake(server.port)
        s.sendall(_frame(hello))
        s.sendall(_frame(json.dumps({"type": "start"}), cut=5))
        s.close()
        # 2. Half a frame header only, then the socket stays open and silent.
        hung = _handshake(server.port)
        hung.sendall(_frame(hello, cut=2))
        # 3. A frame whose length promises more than ever comes, then close.
        s = _handshake(server.port)
        s.sendall(_frame(hello)[:-3])
        s.shutdown(socket.SHUT_WR)
        s.close()
        # until the server has let go of the two closed sockets (only the hung one is
        # left open): whatever they were going to do has been done by then
        deadline = time.monotonic() + 20
        while _gauge(server, "parlour_connections") != 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _gauge(server, "parlour_connections") == 1
        assert httpx.get(server.base + "/healthz").json()["status"] == "ok"
        info = httpx.get(f"{server.base}/api/tables/{j['table']}").json()
        assert info["status"] == "waiting"  # the half "start" did nothing
        store = Store(f"sqlite:///{server.db}")
        assert store.get(j["table"]).seq == 0 and store.events(j["table"]) == []
        # The seat plays its whole game on a fresh connection meanwhile.
        from websockets.sync.client import connect

        with connect(f"ws://127.0.0.1:{server.port}/ws") as ws:
            ws.send(hello)
            ws.send(json.dumps({"type": "start"}))
            state = None
            mirror = Mirror()
            answered = -1
            while not (state and state["table"]["status"] == "over"):
                msg = json.loads(ws.recv(timeout=20))
                assert mirror.take(msg)
                if "state" not in msg and "delta" not in msg:
                    continue
                state, seq = mirror.state, msg["seq"]
                v = state["view"]
                if (v and state["commit"] and state["table"]["status"] == "playing"
                        and v["current_player"] == 0 and v["legal"] != [{"pass": True}]
                        and answered != seq):
                    answered = seq
                    ws.send(json.dumps({"type": "move", "seq": seq, "move": v["legal"][0]}))
        hung.close()
        data = httpx.get(f"{server.base}/api/tables/{j['table']}/record").json()
        assert record.load(data).is_over and verify(data).ok
        assert server.alive()
    finally:
        server.cleanup()


def test_server_process_helpers_stay_local(tmp_path):
    """The harness's server is on 127.0.0.1 with its files in its work folder, and its
    process probes find a local listener and this process -- without starting a server."""
    s = ServerProcess(workdir=tmp_path, port=free_port())
    assert s.base == f"http://127.0.0.1:{s.port}"
    assert Path(s.db).parent == tmp_path and s.log_path.parent == tmp_path
    assert not s.alive() and s.pid is None
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", s.port))  # free_port() gave a port free on loopback
        listener.listen()
        assert pid_listening_on(s.port) == os.getpid()
    assert pid_listening_on(s.port) is None
    assert rss_bytes(os.getpid()) > 0 and cpu_seconds(os.getpid()) > 0
    assert rss_bytes(2**22 + 1) is None and cpu_seconds(2**22 + 1) is None  # beyond pid_max


def test_moves_between_snapshots_are_replayed_exactly(tmp_path):
    """A move in the middle of a round is saved as its event only; the record and log
    are snapshotted at deals, round ends and seat changes. A table read back from the
    database (snapshot + later events) is exactly the table in memory."""
    import warnings

    warnings.filterwarnings("ignore", message=".*httpx2.*")
    from starlette.testclient import TestClient

    from parlour.server import Settings, create_app
    from parlour.server.live import LiveTable

    app = create_app(Settings(db_url=f"sqlite:///{tmp_path}/snap.sqlite3", bot_delay=0.0,
                              round_pause=0.0, testing=True, allowed_hosts=["testserver"],
                              max_seats_per_address=8, public_seats_per_address=8, reclaim_after=0.0,
                        max_tables_per_class=100_000, create_burst=1000, bot_workers=0))
    with TestClient(app) as client:
        svc = app.state.service
        tails = 0
        for seed in range(1, 9):
            j = client.post("/api/tables", json={
                "game": "fantan", "players": 4, "rules": {"rounds": 2},
                "seats": [{"kind": "person"}] + [{"kind": "bot", "bot": "random"}] * 3,
                "test": {"seed": seed}}).json()
            with client.websocket_connect("/ws") as ws:
                ws.send_json({"type": "hello", "table": j["table"], "token": j["token"]})
                mirror = Mirror()
                mirror.take(ws.receive_json())
                ws.send_json({"type": "start"})
                while True:  # the bots play until it is the person's turn
                    assert mirror.take(ws.receive_json())
                    s = mirror.state
                    if (s and s["commit"] and s["view"]["current_player"] == 0
                            and s["view"]["legal"] != [{"pass": True}]):
                        break
                t = svc.tables[j["table"]]
                row, tail = svc.store.get_with_tail(j["table"])
                assert row.seq == t.seq and len(tail) == len(t.tail)
                tails += len(tail)
                assert len(row.record["rounds"][-1]["moves"]) + len(tail) == len(
                    t.match.rounds[-1].history)
                again = LiveTable.from_row(row, tail)
                assert record.dump(again.match) == record.dump(t.match)
                assert again.log == t.log and again.seq == t.seq
        assert tails > 0  # some tables had moves after their snapshot
