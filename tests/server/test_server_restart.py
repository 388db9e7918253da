"""Restart safety: a real server is killed with SIGKILL mid-game and started again on
the same SQLite file; every table continues (bots and timers from stored deadlines)."""

from __future__ import annotations

import httpx
import pytest
from live_kit import Server, WsSeat

from parlour import record

pytestmark = [pytest.mark.timeout(120), pytest.mark.slow]


def test_a_killed_server_continues_every_table(tmp_path):
    db = tmp_path / "tables.sqlite3"
    server = Server(db).start()
    try:
        mine = server.create(game="fantan", players=4, rules={"rounds": 2}, timer=60,
                             seats=[{"kind": "person"}] + [{"kind": "bot", "bot": "greedy"}] * 3,
                             test={"seed": 21})
        bots = server.create(game="fanti", players=3, rules={"rounds": 2},
                             seats=[{"kind": "bot", "bot": "random"}] * 3)
        watch = bots["watch_url"].split("#watch=")[1]
        watcher = WsSeat(server, bots["table"], watch=watch)  # watched tables of bots run
        watcher.recv()
        me = WsSeat(server, mine["table"], mine["token"])
        me.recv()
        me.send({"type": "start"})
        state = me.play(until_seq=12)
        seq_before, deadline_before = me.seq, state["deadline"]["at"]
        moves_before = [e for e in state["log"] if e["kind"] == "move"]
        while watcher.seq < 3:  # the bots-only table has got going (recv's timeout bites)
            watcher.recv()
        server.kill()
        me.close()
        watcher.close()

        server = Server(db, port=server.port).start()
        again = WsSeat(server, mine["table"], mine["token"])
        welcome = again.recv()
        assert welcome["type"] == "welcome" and welcome["seq"] == seq_before
        assert welcome["state"]["deadline"]["at"] == pytest.approx(deadline_before)
        assert [e for e in welcome["state"]["log"] if e["kind"] == "move"] == moves_before
        final = again.play()
        assert final["table"]["status"] == "over" and final["winners"]
        again.close()

        watcher = WsSeat(server, bots["table"], watch=watch)
        status = None
        while status != "over":  # recv's timeout fails the test if the table stalls
            watcher.recv()
            status = watcher.state["table"]["status"] if watcher.state else status
        watcher.close()
        r = httpx.get(f"{server.base}/api/tables/{bots['table']}/record")
        assert r.status_code == 200, "the bots-only table did not finish after the restart"
        for table in (mine["table"], bots["table"]):
            data = httpx.get(f"{server.base}/api/tables/{table}/record").json()
            m = record.load(data)
            assert m.is_over and all(c is not None and c.salt for c in m.commits)
    finally:
        server.stop()
