"""Pairing pools across two ``parlour serve --cluster`` processes on one PostgreSQL
(issue #32, item 8): the pool is the database's, so people entering on different
processes are paired together, a pairing made on one process reaches a person waiting
on the other through ``NOTIFY`` (polling is switched off here), and under a crowd
entering on both at once nobody is paired twice and nobody is left waiting."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest
from hardening_kit import Postgres
from sqlalchemy import select

from parlour.loadtest import ServerProcess, run_sync
from parlour.server.db import TABLES, Store
from parlour.server.pool_rows import POOL

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]


def person(base: str, n: int) -> httpx.AsyncClient:
    """One browser: its own cookies (a guest), its own address (the servers trust the
    loopback proxy, so the per-address limits see each person apart)."""
    return httpx.AsyncClient(base_url=base, timeout=60,
                             headers={"X-Forwarded-For": f"10.0.{n // 250}.{n % 250 + 1}"})


async def enter(client: httpx.AsyncClient, name: str) -> str:
    r = await client.post("/api/pool", json={"game": "fanti", "players": 2, "name": name})
    assert r.status_code == 201, r.text
    return r.json()["ticket"]


async def until_paired(client: httpx.AsyncClient, ticket: str, limit: float = 60) -> dict:
    deadline = time.monotonic() + limit
    while True:
        r = await client.post("/api/pool/wait", json={"ticket": ticket})
        assert r.status_code == 200, r.text
        out = r.json()
        if out["status"] != "waiting":
            return out
        assert time.monotonic() < deadline, out


async def held_on(client: httpx.AsyncClient, limit: float = 30) -> None:
    """Until the server behind ``client`` holds a pool question open (its /metrics)."""
    deadline = time.monotonic() + limit
    while "parlour_pool_questions_held 1.0" not in (await client.get("/metrics")).text:
        assert time.monotonic() < deadline, "no pool question held"
        await asyncio.sleep(0.02)


def test_people_on_two_processes_are_paired_once_each(tmp_path):
    pg = Postgres()
    procs = []
    try:
        for name in ("A", "B"):
            (tmp_path / name).mkdir()
            procs.append(ServerProcess(
                pg.url, workdir=tmp_path / name, extra=["--cluster"],
                env={"PARLOUR_INSTANCE": name, "PARLOUR_POOL_EVERY": "3600",
                     "PARLOUR_POOL_RECHECK": "3600", "PARLOUR_POOL_WAIT": "30",
                     "PARLOUR_POLL_LISTENING": "3600"}))
        a, b = (p.start() for p in procs)
        store = Store(pg.sqlalchemy_url)

        async def two_across() -> tuple[dict, dict, float]:
            # Pairing rounds run only when someone enters (every 3600 s otherwise), and a
            # waiting question is looked at again only when a change is announced: Ann
            # on A hears of the pairing made on B through NOTIFY alone.
            async with person(a.base, 1) as ann, person(b.base, 2) as bob:
                t1 = await enter(ann, "Ann")
                waiting = asyncio.create_task(until_paired(ann, t1))
                await held_on(ann)  # Ann's question is held open on A
                assert not waiting.done()
                started = time.monotonic()
                t2 = await enter(bob, "Bob")
                pb = await until_paired(bob, t2)
                pa = await waiting
                return pa, pb, time.monotonic() - started

        pa, pb, took = run_sync(two_across())
        assert pa["joined"]["table"] == pb["joined"]["table"]
        assert {pa["joined"]["seat"], pb["joined"]["seat"]} == {0, 1}
        assert took < 10, took  # announced, not found by a poll (3600 s)

        async def crowd(n: int) -> list[dict]:
            clients = [person((a.base, b.base)[i % 2], 100 + i) for i in range(n)]
            try:
                tickets = await asyncio.gather(*(enter(c, f"P{i}") for i, c in enumerate(clients)))
                return list(await asyncio.gather(*(until_paired(c, t)
                                                    for c, t in zip(clients, tickets, strict=True))))
            finally:
                await asyncio.gather(*(c.aclose() for c in clients))

        # Now pairing rounds on both processes all the time, racing for the same people.
        for p in procs:
            p.stop()
            p.env.update(PARLOUR_POOL_EVERY="0.05", PARLOUR_POOL_RECHECK="0.5")
        a, b = (p.start() for p in procs)
        outs = run_sync(crowd(40))
        seats = [(o["joined"]["table"], o["joined"]["seat"]) for o in outs]
        assert all(o["status"] == "paired" for o in outs)
        assert len(set(seats)) == 40  # nobody shares a seat ...
        tables = {t for t, _ in seats}
        assert len(tables) == 20  # ... and every table has its two
        with store.engine.connect() as c:
            rows = c.execute(select(POOL.c.table_id, POOL.c.status)
                             .where(POOL.c.table_id.in_(tables))).all()
            assert len(rows) == 40 and {r.status for r in rows} == {"paired"}
            assert c.execute(select(POOL).where(POOL.c.status == "waiting")).first() is None
        # A pair hears "paired" from whichever process paired it; the owner deals the table
        # beside its next pairing round (not under its lock), so the deal may come a moment
        # later: every table is dealt within the wait, none stays waiting.
        deadline = time.time() + 30
        while True:
            with store.engine.connect() as c:
                started = c.execute(select(TABLES.c.id, TABLES.c.status)
                                    .where(TABLES.c.id.in_(tables))).all()
            if {r.status for r in started} == {"playing"} or time.time() > deadline:
                break
            time.sleep(0.2)
        assert len(started) == 20 and {r.status for r in started} == {"playing"}
        dealt = time.time() - (deadline - 30)
        print(f"\npools: across A and B in {took:.2f} s; 40 people paired into 20 tables, "
              f"all dealt {dealt:.1f} s after the last answer")
    finally:
        for p in procs:
            p.cleanup()
        pg.cleanup()
