"""The database: the sequence check, SQLite by default and PostgreSQL by URL."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time

import pytest
from server_kit import Seat, create
from sqlalchemy import update

from parlour.server.db import TABLES, Conflict, Store, TableRow


def row(tid: str = "t1") -> TableRow:
    now = time.time()
    return TableRow(id=tid, game="fantan", status="playing", created=now, updated=now,
                    config={}, record=None, seq=0, deadline=None, salt=None, log=[],
                    invite_key="i", watch_key="w", rematch=None)


def check_sequence(store: Store) -> None:
    store.add(row())
    assert store.commit_event("t1", 0, {"n": 1}, log=["a"]) == 1
    with pytest.raises(Conflict):
        store.commit_event("t1", 0, {"n": "again"}, log=["stale"])  # stale writer
    assert store.get("t1").seq == 1 and store.get("t1").log == ["a"]
    assert [e.data for e in store.events("t1")] == [{"n": 1}]
    check_group_commit(store)


def check_group_commit(store: Store) -> None:
    """Several tables' events in one transaction: each with its own sequence check, a
    stale one (or one whose event row exists already) failing alone."""
    for tid in ("g1", "g2", "g3", "g4"):
        store.add(row(tid))
    # g4 already holds event 1 (written by another process behind its row's back)
    assert store.commit_event("g4", 0, {"n": "first"}) == 1
    with store.engine.begin() as c:
        c.execute(update(TABLES).where(TABLES.c.id == "g4").values(seq=0))
    now = time.time()
    out = store.commit_events([
        ("g1", 0, {"n": 1}, {"updated": now, "deadline": 5.0}),
        ("g2", 3, {"n": "stale"}, {"updated": now}),
        ("g3", 0, {"n": 3}, {"updated": now, "log": ["x"], "config": {"k": [1]}}),
        ("g4", 0, {"n": "twice"}, {"updated": now}),
    ])
    assert out[0] == 1 and out[2] == 1
    assert isinstance(out[1], Conflict) and isinstance(out[3], Conflict)
    g1, g2, g3 = store.get("g1"), store.get("g2"), store.get("g3")
    assert (g1.seq, g1.deadline, g1.updated) == (1, 5.0, now)
    assert g2.seq == 0 and store.events("g2") == []
    assert (g3.seq, g3.log, g3.config) == (1, ["x"], {"k": [1]})
    assert [e.data for e in store.events("g1")] == [{"n": 1}]
    assert [e.data for e in store.events("g3")] == [{"n": 3}]
    assert [e.data for e in store.events("g4")] == [{"n": "first"}]


def test_sequence_check_on_sqlite(tmp_path):
    store = Store(f"sqlite:///{tmp_path}/s.sqlite3")
    check_sequence(store)
    store.close()


def _postgres_bin() -> str | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    return os.path.dirname(found[-1]) if found else None


@pytest.fixture(scope="module")
def postgres_url():
    bindir = _postgres_bin()
    if bindir is None or os.geteuid() != 0 or shutil.which("runuser") is None:
        pytest.skip("PostgreSQL binaries (Debian postgresql) and root are needed for this test")
    pytest.importorskip("psycopg")
    data = tempfile.mkdtemp(prefix="parlour-pg-")
    shutil.chown(data, "postgres")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    as_pg = ["runuser", "-u", "postgres", "--"]
    subprocess.run(as_pg + [f"{bindir}/initdb", "-D", data, "-A", "trust", "-U", "parlour"],
                   check=True, capture_output=True)
    subprocess.run(as_pg + [f"{bindir}/pg_ctl", "-D", data, "-w", "-l", f"{data}/log", "-o",
                            f"-p {port} -k {data} -c listen_addresses=127.0.0.1", "start"],
                   check=True, capture_output=True)
    try:
        yield f"postgresql+psycopg://parlour@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(as_pg + [f"{bindir}/pg_ctl", "-D", data, "-m", "immediate", "stop"],
                       capture_output=True)
        shutil.rmtree(data, ignore_errors=True)


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_postgresql_by_url(postgres_url, make_app):
    check_sequence(Store(postgres_url))
    client = make_app(db_url=postgres_url)
    j = create(client, "fanti", 2, ["person", "greedy"], rules={"rounds": 1}, test={"seed": 9})
    me = Seat(client, j["table"], token=j["token"])
    me.welcome()
    me.send({"type": "start"})
    final = me.play_to_end()
    assert final["winners"] is not None
    assert client.get(f"/api/tables/{j['table']}/record").status_code == 200


def test_a_value_that_cannot_be_stored_leaves_no_transaction_open(tmp_path):
    """An event whose data cannot be encoded fails alone: the next write goes through."""
    store = Store(f"sqlite:///{tmp_path}/s.sqlite3")
    store.add(row())
    with pytest.raises(TypeError):
        store.commit_event("t1", 0, {"n": {1, 2}})  # a set is not JSON
    assert store.commit_event("t1", 0, {"n": 1}) == 1
    assert [e.data for e in store.events("t1")] == [{"n": 1}]
    store.close()


@pytest.mark.parametrize("seats", [None, ["person", "easy"]])
def test_a_new_table_is_live_as_the_database_would_give_it_back(make_app, seats):
    """A table this process has just written is not read back (issue #13: table
    creation at 100 tables a second); what it holds is exactly what a read gives."""
    from parlour.server.live import LiveTable, unpack

    client = make_app()
    svc = client.app.state.service
    j = create(client, "fanti", 2, seats=seats)
    live = svc.tables[j["table"]]
    row, tail = svc.store.get_with_tail(j["table"])
    read = LiveTable.from_row(row, tail, svc.keys)
    assert unpack(live.committed) == unpack(read.committed)
    for field in ("status", "seq", "config", "log", "invite_key", "watch_key", "updated"):
        assert getattr(live, field) == getattr(read, field), field
    assert [s.to_json() for s in live.seats] == [s.to_json() for s in read.seats]
