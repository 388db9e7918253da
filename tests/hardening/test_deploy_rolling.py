"""A rolling restart with live tables (docs/deploy.md, "Upgrades with live tables"): two
``parlour serve --cluster`` processes on one PostgreSQL, a game going on; process A gets
SIGTERM (its player is told ``bye`` and close code 1012, and plays on at B), A is started
again, then B gets SIGTERM (the player goes back to A), and the game ends there with
every move in its record."""

from __future__ import annotations

import httpx
import pytest
from hardening_kit import Postgres
from websockets.exceptions import ConnectionClosed

from parlour import record
from parlour.loadtest import ServerProcess
from server.live_kit import WsSeat

pytestmark = [pytest.mark.slow, pytest.mark.timeout(400)]

START = 180  # seconds a server may take to start on a loaded machine


def told_to_reconnect(seat: WsSeat) -> tuple[bool, int | None]:
    """Read until the server closes: whether it said ``bye`` with ``reconnect``, and the
    close code."""
    bye = False
    try:
        while True:
            m = seat.recv()
            bye = bye or (m.get("type") == "bye" and m.get("reconnect") is True)
    except ConnectionClosed as e:
        return bye, e.rcvd.code if e.rcvd else None


def test_a_rolling_restart_of_two_cluster_processes_keeps_the_game(tmp_path):
    pg = Postgres()
    servers: dict[str, ServerProcess] = {}
    try:
        for name in ("A", "B"):
            (tmp_path / name).mkdir()
            servers[name] = ServerProcess(
                pg.url, bot_delay=0.02, round_pause=0.1, workdir=tmp_path / name,
                extra=["--cluster", "--lease", "3"],
                env={"PARLOUR_INSTANCE": name, "PARLOUR_BOT_WORKERS": "0"})
            servers[name].start(START)
        a, b = servers["A"], servers["B"]
        r = httpx.post(a.base + "/api/tables", timeout=30, json={
            "game": "fanti", "players": 2, "rules": {"rounds": 2}, "name": "Hana",
            "seats": [{"kind": "person"}, {"kind": "bot", "bot": "random"}]})
        assert r.status_code == 201, r.text
        table, token = r.json()["table"], r.json()["token"]

        seat = WsSeat(a, table, token)  # the table starts on A, which owns it
        seat.recv()
        seat.send({"type": "start"})
        while not (seat.state and seat.state["table"]["status"] == "playing"):
            seat.recv()
        seat.play(until_seq=seat.seq + 4)

        for old, new in ((a, b), (b, a)):
            before = seat.seq
            old.proc.terminate()  # SIGTERM: the leases are given back, clients told
            assert told_to_reconnect(seat) == (True, 1012)
            assert old.proc.wait(60) in (0, -15)
            seat = WsSeat(new, table, token)  # as the proxy sends the client on
            seat.recv()
            assert seat.seq >= before  # nothing acknowledged was lost
            if new is b:
                seat.play(until_seq=seat.seq + 4)  # the other process runs the bot now
                a.start(START)  # the "new version" of A
        final = seat.play()
        assert final["table"]["status"] == "over"
        seat.close()
        got = httpx.get(f"{a.base}/api/tables/{table}/record", timeout=30)
        assert got.status_code == 200, got.text
        game = record.load(got.json())  # replayed move by move by the engine
        assert len(game.rounds) == 2 and game.winners
    finally:
        for s in servers.values():
            s.stop()
        pg.cleanup()
