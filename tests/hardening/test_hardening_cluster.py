"""More than one server process (issue #7, item 5): two ``parlour serve --cluster``
processes on one temporary PostgreSQL cluster.

Each table is owned by one process at a time (a lease row with an expiry): the owner
runs its bots and timers. Clients connect to either process and play any table: a
move is committed by whichever process receives it (with the sequence check) and the
other process hears of it (PostgreSQL ``NOTIFY``, or by polling when it cannot) and
pushes it to its own clients. Process A (which started every table, so owns them all) is SIGKILLed
mid-game; its clients reconnect to B, B takes A's tables over when their leases
expire, and every game finishes with nothing lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

import pytest
from hardening_kit import Postgres, check_events, check_moves, fetch_records
from sqlalchemy import select, text

from parlour import record
from parlour.loadtest import ServerProcess, run_sync, run_tables
from parlour.server.db import LEASES, TABLES, Store
from parlour.server.verify import verify
from server.live_kit import WsSeat

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]

LEASE = 3.0


def owners(store: Store) -> dict[str, str]:
    """The lease owner of every table in play."""
    with store.engine.connect() as c:
        q = select(LEASES.c.table_id, LEASES.c.owner).join(
            TABLES, TABLES.c.id == LEASES.c.table_id).where(TABLES.c.status == "playing")
        return {r.table_id: r.owner for r in c.execute(q)}


def test_two_processes_share_tables_and_one_takes_over_when_the_other_dies(tmp_path):
    pg = Postgres()
    procs = []
    try:
        for name in ("A", "B"):
            procs.append(ServerProcess(
                pg.url, bot_delay=0.05, round_pause=0.2, workdir=tmp_path / name,
                extra=["--cluster", "--lease", str(LEASE)],
                env={"PARLOUR_INSTANCE": name, "PARLOUR_POLL_EVERY": "0.05"}))
            (tmp_path / name).mkdir()
        a, b = (p.start() for p in procs)
        store = Store(pg.sqlalchemy_url)
        seen: dict[str, object] = {}

        async def until(pred, what, timeout=90.0):
            """Wait for a condition (events, not fixed sleeps: the machine may be busy)."""
            deadline = time.monotonic() + timeout
            while not await asyncio.to_thread(pred):
                assert time.monotonic() < deadline, f"never: {what}"
                await asyncio.sleep(0.1)

        async def scenario():
            urls = [a.base, b.base]  # seat i connects to urls[i % 2] first
            seen_runs: dict[str, list] = {}

            def watch(name):
                return lambda runs, stats: seen_runs.__setitem__(name, (runs, stats))

            people = asyncio.create_task(run_tables(
                urls, 6, duration=150, speed=(0.05, 0.15), seed=11, ramp=0.3, compression=None,
                on_tick=watch("people")))
            with_bots = asyncio.create_task(run_tables(
                urls, 3, duration=150, speed=(0.05, 0.15), seed=12, ramp=0.3, compression=None,
                bots=2, on_tick=watch("bots")))

            def every_table_plays():
                got = list(seen_runs.values())
                return len(got) == 2 and all(
                    all(r.id for r in runs) and stats.moves_acked >= 3 * len(runs)
                    for runs, stats in got)

            await until(every_table_plays, "every table created and playing on A")
            seen["before"] = await asyncio.to_thread(owners, store)
            await asyncio.to_thread(a.kill)
            seen["killed_at"] = time.time()
            await until(lambda: set(owners(store).values()) <= {"B"},
                        "B holds every table still in play")
            seen["after"] = await asyncio.to_thread(owners, store)
            r1, s1 = await people
            r2, s2 = await with_bots
            return r1 + r2, [s1, s2]

        runs, stats = run_sync(scenario())
        for s in stats:
            assert not s.failures, s.failures[:5]
            assert set(s.errors) <= {"conflict", "stale", "not_your_turn"}, s.errors
        assert all(r.finished for r in runs)
        records = run_sync(fetch_records(runs))
        for data in records.values():
            assert record.load(data).is_over and verify(data).ok
        counts = check_moves(runs, records)
        counts["events"] = check_events(store, records)
        # Before the kill every table in play was A's (its host started it there) ...
        assert seen["before"] and set(seen["before"].values()) == {"A"}, seen["before"]
        # ... and after the lease ran out, B held every table still in play.
        assert set(seen["after"].values()) <= {"B"}, seen["after"]
        bot_moves = sum(1 for rid in (r.id for r in runs[6:])
                        for rd in records[rid]["rounds"] for mv in rd["moves"]
                        if mv["seat"] >= 2)
        assert bot_moves > 0  # the owners ran the bots, before and after the takeover
        assert sum(s.reconnects for s in stats) > 0
        assert b.alive()
        print(f"\ncluster: 9 games over 2 processes, A killed, {counts}, "
              f"bot moves {bot_moves}, owners before {set(seen['before'].values())}, "
              f"after {set(seen['after'].values())}")
    finally:
        for p in procs:
            p.cleanup()
        pg.cleanup()


def listeners(store: Store) -> dict[str, int]:
    """The ``LISTEN`` connection of each server process: name -> backend pid."""
    with store.engine.connect() as c:
        rows = c.execute(text("SELECT application_name, pid FROM pg_stat_activity "
                              "WHERE application_name LIKE 'parlour-listen-%'"))
        return {r.application_name.removeprefix("parlour-listen-"): r.pid for r in rows}


def wait_for(pred, what, timeout=30.0):
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.05)


def test_events_reach_the_other_process_through_notify_and_after_a_lost_listener(tmp_path):
    """Finding 16: with polling all but off (once an hour while the ``LISTEN``
    connection is up), every move made on A reaches B's client, and every move made on
    B reaches A's: only ``NOTIFY`` can carry them. B's listening connection is then
    killed: moves still cross (polling while it is away), the listener comes back by
    itself, and moves cross through it again."""
    pg = Postgres()
    procs = []
    seats: list[WsSeat] = []
    try:
        for name in ("A", "B"):
            (tmp_path / name).mkdir()
            procs.append(ServerProcess(
                pg.url, bot_delay=0.05, round_pause=0.2, workdir=tmp_path / name,
                extra=["--cluster", "--lease", "30"],
                env={"PARLOUR_INSTANCE": name, "PARLOUR_POLL_EVERY": "0.05",
                     "PARLOUR_POLL_LISTENING": "3600"}).start())
        a, b = procs
        store = Store(pg.sqlalchemy_url)
        wait_for(lambda: set(listeners(store)) == {"A", "B"}, "both processes listen")
        import httpx

        j = httpx.post(a.base + "/api/tables", json={
            "game": "fanti", "players": 2, "seats": [{"kind": "person"}] * 2,
            "rules": {"rounds": 1}}, timeout=10).json()
        invite = j["invite_url"].split("#invite=")[1]
        other = httpx.post(b.base + f"/api/tables/{j['table']}/join",
                           json={"key": invite, "name": "Bo"}, timeout=10).json()
        seats += [WsSeat(a, j["table"], token=j["token"]),
                  WsSeat(b, j["table"], token=other["token"])]
        for s in seats:
            while s.state is None:
                s.recv()
        # A hears of Bo's seat (taken on B) through NOTIFY too; a start that reaches A
        # before that is refused as not everyone having sat down, so wait for it.
        while not all(x["claimed"] for x in seats[0].state["table"]["seats"]):
            seats[0].recv(timeout=20)

        def level(at_least: int) -> int:
            """Read both sockets until both have seen seq >= ``at_least``."""
            for s in seats:
                while s.seq < at_least:
                    s.recv(timeout=20)  # an event that never crosses fails here
            return max(s.seq for s in seats)

        seats[0].send({"type": "start"})
        seq = level(1)

        moved: set[int] = set()

        def play(moves: int) -> int:
            nonlocal seq
            done = 0
            while done < moves and seats[0].state["table"]["status"] == "playing":
                mover = next((s for s in seats if s.my_turn() and s.seq == seq), None)
                if mover is not None:
                    mover.send({"type": "move", "seq": seq,
                                "move": mover.state["view"]["legal"][0]})
                    moved.add(seats.index(mover))
                    done += 1
                seq = level(seq + 1)  # both processes' clients see it
            return done

        assert play(6) == 6 and moved == {0, 1}  # events crossed both ways
        before = listeners(store)
        with store.engine.connect() as c:  # B loses its listening connection
            c.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": before["B"]})
        assert play(4) == 4
        wait_for(lambda: listeners(store).get("B") not in (None, before["B"]),
                 "B listens again")
        assert play(6) == 6
        assert "polling" in b.log_tail(20000)
    finally:
        for s in seats:
            s.close()
        for p in procs:
            p.cleanup()
        pg.cleanup()


def closed_after_bye(seat: WsSeat) -> dict:
    """Read until the server's ``bye``; then the socket must close (nothing more is
    accepted from it). Returns the bye."""
    from websockets.exceptions import ConnectionClosed

    bye = None
    while bye is None:
        m = seat.recv(timeout=20)
        if m["type"] == "bye":
            bye = m
    try:
        while True:
            seat.recv(timeout=20)
    except ConnectionClosed:
        return bye


def test_a_seat_taken_away_on_one_process_is_gone_on_the_other(tmp_path):
    """Issue #31, findings 4, 12 and 6: two processes on one PostgreSQL.

    * A rejoin on A sends the old device connected to B away (a ``bye`` that says why,
      then the socket closes), and a move it sends is never played; the new device
      plays the seat.
    * The host's release on A sends the player's socket on B away, and the released
      player's rejoin link no longer works on either process.
    * New tables per address are counted over both processes (a burst of 4, not 4
      on each), and chat reaches the other process's clients."""
    import httpx
    from websockets.exceptions import ConnectionClosed

    pg = Postgres()
    procs = []
    seats: list[WsSeat] = []
    try:
        for name in ("A", "B"):
            (tmp_path / name).mkdir()
            procs.append(ServerProcess(
                pg.url, bot_delay=0.05, round_pause=0.2, workdir=tmp_path / name,
                extra=["--cluster", "--lease", "30"],
                env={"PARLOUR_INSTANCE": name, "PARLOUR_POLL_EVERY": "0.05",
                     "PARLOUR_POLL_LISTENING": "3600", "PARLOUR_CREATE_BURST": "4",
                     "PARLOUR_CREATE_PER_MINUTE": "0.5",
                     "PARLOUR_BOT_WORKERS": "0"}).start())  # no bots here: quick to start
        a, b = procs
        store = Store(pg.sqlalchemy_url)
        wait_for(lambda: set(listeners(store)) == {"A", "B"}, "both processes listen")

        def new_table(server: ServerProcess) -> httpx.Response:
            return httpx.post(server.base + "/api/tables", json={
                "game": "fanti", "players": 2, "seats": [{"kind": "person"}] * 2,
                "rules": {"rounds": 1}}, timeout=10)

        def seated(j: dict, server: ServerProcess, name: str) -> dict:
            invite = j["invite_url"].split("#invite=")[1]
            return httpx.post(server.base + f"/api/tables/{j['table']}/join",
                              json={"key": invite, "name": name}, timeout=10).json()

        def connect(server: ServerProcess, table: str, token: str) -> WsSeat:
            s = WsSeat(server, table, token=token)
            seats.append(s)
            while s.state is None:
                s.recv()
            return s

        # --- a rejoin on A, the old device on B ---------------------------------------
        j = new_table(a).json()
        bo = seated(j, b, "Bo")
        host = connect(a, j["table"], j["token"])
        old = connect(b, j["table"], bo["token"])
        while not all(x["claimed"] for x in host.state["table"]["seats"]):
            host.recv()
        host.send({"type": "start"})
        while old.seq < 1 or host.seq < 1:
            for s in (host, old):
                if s.seq < 1:
                    s.recv()
        while not old.my_turn():  # the host plays until it is Bo's turn
            if host.my_turn():
                host.send({"type": "move", "seq": host.seq,
                           "move": host.state["view"]["legal"][0]})
            (old if host.seq > old.seq else host).recv()
        seq_then = old.seq
        back = httpx.post(a.base + f"/api/tables/{j['table']}/rejoin",
                          json={"key": bo["rejoin_url"].split("#rejoin=")[1]}, timeout=10)
        assert back.status_code == 200
        with contextlib.suppress(ConnectionClosed):  # at once: B may not have heard yet
            old.send({"type": "move", "seq": seq_then, "move": old.state["view"]["legal"][0]})
        bye = closed_after_bye(old)
        assert bye["reconnect"] is False and "another device" in bye["reason"]
        assert store.events(j["table"])[-1].seq == seq_then  # the old device's move: never
        new = connect(b, j["table"], back.json()["token"])
        assert new.seq == seq_then and new.my_turn()
        new.send({"type": "move", "seq": new.seq, "move": new.state["view"]["legal"][0]})
        while new.seq == seq_then:
            new.recv()
        assert store.events(j["table"])[-1].seq == seq_then + 1  # the new device plays

        # --- the host's release on A, the player on B ---------------------------------
        k = new_table(a).json()
        cy = seated(k, b, "Cy")
        k_host = connect(a, k["table"], k["token"])
        cy_seat = connect(b, k["table"], cy["token"])
        while not all(x["claimed"] for x in k_host.state["table"]["seats"]):
            k_host.recv()
        # Chat crosses: the host's line on A reaches Cy on B.
        k_host.send({"type": "chat", "text": "hello from A"})
        line = cy_seat.recv(timeout=20)
        while line["type"] != "chat":
            line = cy_seat.recv(timeout=20)
        assert line["line"]["text"] == "hello from A"
        k_host.send({"type": "release", "seat": 1})
        bye = closed_after_bye(cy_seat)
        assert bye["reconnect"] is False and "no longer yours" in bye["reason"]
        for server in (a, b):
            r = httpx.post(server.base + f"/api/tables/{k['table']}/rejoin",
                           json={"key": cy["rejoin_url"].split("#rejoin=")[1]}, timeout=10)
            assert r.status_code == 403 and "no longer works" in r.json()["message"]

        # --- new tables per address: one budget over both processes -------------------
        made = [new_table(server).status_code for server in (a, b)]  # 4 of 4 used now
        assert made == [201, 201]
        refused = [new_table(server) for server in (b, a)]
        assert [r.status_code for r in refused] == [429, 429]
        assert all(int(r.headers["Retry-After"]) > 0 for r in refused)
    finally:
        for s in seats:
            with contextlib.suppress(Exception):
                s.close()
        for p in procs:
            p.cleanup()
        pg.cleanup()
