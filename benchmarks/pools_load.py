"""Pairing pools under load (issue #32): many people entering "Play people" over a
minute, across two ``parlour serve --cluster`` processes on one PostgreSQL.

Starts a temporary PostgreSQL cluster (Debian's ``postgresql`` binaries, run as the
``postgres`` user: needs root, like ``tests/hardening/test_hardening_pools.py``) and two
server processes A and B on it. First every simulated person gets a lasting guest
identity (entering a pool once and leaving it) and a rating drawn around the
newcomer's (stored in ``ratings`` as if they had played: ``--spread`` points standard
deviation), so the bands matter. Then the timed part: ``--players`` people enter the
Fanti head-to-head pool at even intervals over ``--duration`` seconds, each on A or B
in turn, each as its own browser (cookies, address), and ask until they are paired.

Reports the wait from entering to the answer that brings the seat (median, p90, p99,
max), and checks in the database that nobody was paired twice (every entry at one
seat, every table exactly two entries, every seat distinct) and that nobody was left
waiting. Loopback only, bounded in time.

    python benchmarks/pools_load.py --players 2000 --duration 60 --json out.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import bench_args
import httpx
from sqlalchemy import insert, select

from parlour.loadtest import ServerProcess
from parlour.loadtest.clients import percentile

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # async_kit, which hardening_kit imports
sys.path.insert(0, str(ROOT / "tests" / "hardening"))
from hardening_kit import Postgres  # noqa: E402  (the tests' temporary cluster)


def browser(base: str, n: int, transport: httpx.AsyncHTTPTransport) -> httpx.AsyncClient:
    """One person: cookies of their own, an address of their own (the servers trust
    the loopback proxy), connections shared with everyone (one client process)."""
    return httpx.AsyncClient(base_url=base, timeout=120, transport=transport,
                             headers={"X-Forwarded-For": f"10.{n // 62500}.{n // 250 % 250}.{n % 250 + 1}"})


async def enter(client: httpx.AsyncClient, name: str) -> str:
    for _ in range(20):
        try:
            r = await client.post("/api/pool", json={"game": "fanti", "players": 2, "name": name})
        except httpx.TransportError:  # a kept-alive connection closed under us: again
            await asyncio.sleep(0.2)
            continue
        if r.status_code == 201:
            return r.json()["ticket"]
        if r.status_code not in (429, 503):
            raise RuntimeError(f"entering: {r.status_code} {r.text}")
        await asyncio.sleep(float(r.headers.get("Retry-After", "1")))
    raise RuntimeError("entering: refused 20 times")


async def until_paired(client: httpx.AsyncClient, ticket: str, limit: float) -> dict[str, Any]:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            r = await client.post("/api/pool/wait", json={"ticket": ticket})
        except httpx.TransportError:
            await asyncio.sleep(0.2)
            continue
        if r.status_code != 200:
            await asyncio.sleep(0.5)
            continue
        out = r.json()
        if out["status"] != "waiting":
            return out
    return {"status": "still waiting"}


async def prepare(clients: list[httpx.AsyncClient], concurrency: int) -> list[str]:
    """A guest identity for each person: enter once and leave; their tickets."""
    sem = asyncio.Semaphore(concurrency)

    async def one(i: int, c: httpx.AsyncClient) -> str:
        async with sem:
            t = await enter(c, f"P{i}")
            for _ in range(5):
                try:
                    await c.post("/api/pool/leave", json={"ticket": t, "wait": False})
                    break
                except httpx.TransportError:
                    await asyncio.sleep(0.2)
            return t

    return list(await asyncio.gather(*(one(i, c) for i, c in enumerate(clients))))


def give_ratings(url: str, tickets: list[str], spread: float, seed: int) -> dict[str, float]:
    """Ratings for the prepared players (as if they had played), by the shown scale."""
    from parlour.server import ratings
    from parlour.server.db import Store
    from parlour.server.pool_rows import POOL
    from parlour.server.rated import RatingRow
    from parlour.server.tokens import hash_token

    rng = random.Random(seed)
    store = Store(url)
    try:
        with store.engine.connect() as c:
            ids = {r.ticket_hash: r.player_id for r in c.execute(select(POOL.c.ticket_hash, POOL.c.player_id))}
        shown: dict[str, float] = {}
        rows = []
        for t in tickets:
            pid = ids[hash_token(t)]
            mu = ratings.MU + rng.gauss(0, spread / ratings.SCALE)
            shown[pid] = ratings.shown(mu)
            rows.append({"player_id": pid, "pool": ratings.pool_of("fanti", 2), "mu": mu,
                         "sigma": 3.0, "games": 10, "wins": 5, "updated": time.time()})
        with store.engine.begin() as c:
            c.execute(insert(RatingRow.__table__), rows)
        return shown
    finally:
        store.close()


def check(url: str, tickets: list[str]) -> dict[str, Any]:
    """Nobody paired twice, nobody left waiting: read from the database."""
    from parlour.server.db import TABLES, Store
    from parlour.server.pool_rows import POOL
    from parlour.server.tokens import hash_token

    store = Store(url)
    try:
        hashes = [hash_token(t) for t in tickets]
        with store.engine.connect() as c:
            rows = c.execute(select(POOL.c.ticket_hash, POOL.c.player_id, POOL.c.status,
                                    POOL.c.table_id, POOL.c.seat, POOL.c.rating)).all()
            statuses = {r.id: r.status for r in c.execute(select(TABLES.c.id, TABLES.c.status))}
    finally:
        store.close()
    mine = [r for r in rows if r.ticket_hash in set(hashes)]
    per_table = Counter(r.table_id for r in mine if r.table_id)
    seats = Counter((r.table_id, r.seat) for r in mine if r.table_id)
    players = Counter(r.player_id for r in mine if r.table_id)
    at: dict[str, list[float]] = {}
    for r in mine:
        if r.table_id:
            at.setdefault(r.table_id, []).append(r.rating)
    gaps = sorted(abs(x[0] - x[1]) for x in at.values() if len(x) == 2)
    return {"entries": len(mine),
            "paired": sum(1 for r in mine if r.status == "paired"),
            "left_waiting": sum(1 for r in mine if r.status == "waiting"),
            "tables": len(per_table),
            "tables_not_two": sum(1 for n in per_table.values() if n != 2),
            "seats_shared": sum(1 for n in seats.values() if n > 1),
            "players_at_two_tables": sum(1 for n in players.values() if n > 1),
            "tables_playing": sum(1 for t in per_table if statuses.get(t) == "playing"),
            "rating_gap_median": percentile(gaps, 50) if gaps else None,
            "rating_gap_max": max(gaps) if gaps else None}


async def timed(bases: list[str], clients: list[httpx.AsyncClient], duration: float,
                limit: float) -> tuple[list[float], list[str], list[dict[str, Any]]]:
    start = time.monotonic()
    gap = duration / max(1, len(clients))
    waits: list[float] = []
    tickets: list[str] = []
    outs: list[dict[str, Any]] = []

    async def one(i: int, c: httpx.AsyncClient) -> None:
        await asyncio.sleep(max(0.0, start + i * gap - time.monotonic()))
        t = await enter(c, f"P{i}")
        entered = time.monotonic()
        tickets.append(t)
        out = await until_paired(c, t, limit)
        outs.append(out)
        if out["status"] == "paired":
            waits.append(time.monotonic() - entered)

    await asyncio.gather(*(one(i, c) for i, c in enumerate(clients)))
    return waits, tickets, outs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=bench_args.positive, default=2000)
    ap.add_argument("--duration", type=bench_args.positive, default=60,
                    help="seconds over which the people arrive")
    ap.add_argument("--spread", type=float, default=150.0,
                    help="standard deviation of the ratings, in shown points")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args(argv)
    if args.players % 2:
        ap.error("--players must be even: two people a table")

    pg = Postgres()
    work = Path(tempfile.mkdtemp(prefix="parlour-pools-"))
    procs = []
    try:
        for name in ("A", "B"):
            (work / name).mkdir()
            procs.append(ServerProcess(
                pg.url, workdir=work / name, grace=100_000, extra=["--cluster"],
                env={"PARLOUR_INSTANCE": name, "PARLOUR_POOL_TIMER": "0",
                     "PARLOUR_MAX_OPEN_TABLES": str(args.players),
                     "PARLOUR_GUESTS_BURST": str(args.players)}))
        servers = [p.start(timeout=600) for p in procs]  # a busy shared machine starts slowly
        bases = [s.base for s in servers]

        async def run() -> dict[str, Any]:
            transports = {b: httpx.AsyncHTTPTransport(limits=httpx.Limits(
                max_connections=1200, max_keepalive_connections=200)) for b in bases}
            clients = [browser(bases[i % 2], i, transports[bases[i % 2]])
                       for i in range(args.players)]
            try:
                t0 = time.monotonic()
                prepared = await prepare(clients, 50)
                prep_s = time.monotonic() - t0
                shown = await asyncio.to_thread(give_ratings, pg.sqlalchemy_url, prepared,
                                                args.spread, args.seed)
                waits, tickets, outs = await timed(bases, clients, args.duration,
                                                   limit=args.duration + 120)
                print(f"waits: {len(waits)} paired, median {percentile(sorted(waits), 50)}, "
                      f"p99 {percentile(sorted(waits), 99)}", flush=True)
                checked = await asyncio.to_thread(check, pg.sqlalchemy_url, tickets)
            finally:
                await asyncio.gather(*(c.aclose() for c in clients))
            waits.sort()
            return {"players": args.players, "duration": args.duration,
                    "prepare_s": round(prep_s, 1),
                    "rating_sd": round(percentile(sorted(abs(v - 1500) for v in shown.values()), 68), 1),
                    "answers": dict(Counter(o["status"] for o in outs)),
                    "wait_median": round(percentile(waits, 50), 3),
                    "wait_p90": round(percentile(waits, 90), 3),
                    "wait_p99": round(percentile(waits, 99), 3),
                    "wait_max": round(waits[-1], 3) if waits else None,
                    **checked}

        result = asyncio.run(run())
    finally:
        for p in procs:
            p.cleanup()
        pg.cleanup()
    print(json.dumps(result, indent=1))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1))
    ok = (result["left_waiting"] == 0 and result["seats_shared"] == 0
          and result["tables_not_two"] == 0 and result["players_at_two_tables"] == 0
          and result["paired"] == args.players)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
