"""Backups and restores of docs/deploy.md's runbook (issue #36 item 3), each of a live
server with a table in play: ``pg_dump -Fc`` of PostgreSQL restored with ``pg_restore``
into a new database, and SQLite's online backup API (``sqlite3.Connection.backup``) of
the file a running server writes. A server started on each copy shows the table as
playing and the game goes on there to its end."""

from __future__ import annotations

import sqlite3
import subprocess

import httpx
import pytest
from hardening_kit import Postgres

from parlour.loadtest import ServerProcess
from server.live_kit import WsSeat

pytestmark = [pytest.mark.slow, pytest.mark.timeout(400)]

FAST = {"PARLOUR_BOT_WORKERS": "0"}  # bots think in-process: no workers to wait for
START = 180  # seconds a server may take to start on a loaded machine


def table_in_play(server: ServerProcess) -> tuple[str, str]:
    """A 2-player Fanti table, a person against a bot, a few moves in."""
    r = httpx.post(server.base + "/api/tables", timeout=30, json={
        "game": "fanti", "players": 2, "rules": {"rounds": 1}, "name": "Hana",
        "seats": [{"kind": "person"}, {"kind": "bot", "bot": "random"}]})
    assert r.status_code == 201, r.text
    j = r.json()
    host = WsSeat(server, j["table"], j["token"])
    try:
        host.recv()
        host.send({"type": "start"})
        while not (host.state and host.state["table"]["status"] == "playing"):
            host.recv()
        host.play(until_seq=host.seq + 4)
    finally:
        host.close()
    assert httpx.get(f"{server.base}/api/tables/{j['table']}").json()["status"] == "playing"
    return j["table"], j["token"]


def plays_on(server: ServerProcess, table: str, token: str) -> None:
    """The copy shows the table as playing and serves the game to its end."""
    info = httpx.get(f"{server.base}/api/tables/{table}", timeout=30).json()
    assert info["status"] == "playing", info
    host = WsSeat(server, table, token)
    try:
        host.recv()
        assert host.play()["table"]["status"] == "over"
    finally:
        host.close()


def test_pg_dump_and_pg_restore_of_a_table_in_play(tmp_path):
    pg = Postgres()
    live = copy = None
    try:
        live = ServerProcess(pg.url, bot_delay=0.02, round_pause=0.1, workdir=tmp_path, env=FAST)
        live.start(START)
        table, token = table_in_play(live)
        dump = tmp_path / "parlour.dump"
        run = dict(check=True, capture_output=True, timeout=120)
        # The runbook's commands (docs/deploy.md), against the live database.
        subprocess.run(["pg_dump", "-Fc", "-h", "127.0.0.1", "-p", str(pg.port), "-U", "parlour",
                        "-f", str(dump), "postgres"], **run)
        subprocess.run(["psql", "-h", "127.0.0.1", "-p", str(pg.port), "-U", "parlour",
                        "-d", "postgres", "-c", "CREATE DATABASE restored"], **run)
        subprocess.run(["pg_restore", "-h", "127.0.0.1", "-p", str(pg.port), "-U", "parlour",
                        "-d", "restored", "--no-owner", str(dump)], **run)
        live.stop()  # the old server is gone; its copy takes over
        copy = ServerProcess(pg.url.rsplit("/", 1)[0] + "/restored", bot_delay=0.02,
                             round_pause=0.1, workdir=tmp_path, env=FAST)
        copy.start(START)
        plays_on(copy, table, token)
    finally:
        for s in (live, copy):
            if s is not None:
                s.stop()
        pg.cleanup()


def test_sqlite_online_backup_of_a_live_server(tmp_path):
    live = ServerProcess(tmp_path / "live.sqlite3", bot_delay=0.02, round_pause=0.1,
                         workdir=tmp_path, env=FAST)
    copy = None
    try:
        live.start(START)
        table, token = table_in_play(live)
        backup = tmp_path / "backup.sqlite3"
        # The runbook's backup, while the server runs and writes (WAL mode).
        with sqlite3.connect(live.db) as src, sqlite3.connect(backup) as dst:
            src.backup(dst)
        src.close()
        dst.close()
        with sqlite3.connect(backup) as check:
            assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        check.close()
        live.stop()
        copy = ServerProcess(backup, bot_delay=0.02, round_pause=0.1, workdir=tmp_path, env=FAST)
        copy.start(START)
        plays_on(copy, table, token)
    finally:
        for s in (live, copy):
            if s is not None:
                s.stop()
