"""Pairing pools under load (issue #32): many people entering "Play people" over a
minute, across two ``parlour serve --cluster`` processes on one PostgreSQL.

Starts a temporary PostgreSQL cluster (Debian's ``postgresql`` binaries, run as the
``postgres`` user: needs root, like ``tests/hardening/test_hardening_pools.py``) and two
server processes A and B on it. First every simulated person gets a lasting guest
identity (entering a pool once and leaving it) and a rating history: ``--seed-games``
rounds of rated results between them, won mostly by the one of higher hidden skill,
written through the server's own rating update (``rated.record_in``), so the ratings
spread (the bands matter) and ``parlour ratings rebuild`` can replay them. Then the
timed part: ``--players`` people enter the Fanti head-to-head pool at even intervals
over ``--duration`` seconds, each on A or B in turn, each as its own browser (cookies,
address), and ask until they are paired. With ``--play-every N`` the two people of
every N-th table then play it to the end at once over WebSockets (random legal moves,
each seat on the process it entered on), so rated games end, and ratings are written,
while others are still entering (every tenth table by default).

Reports the wait from entering to the answer that brings the seat (median, p90, p99,
max, as the people see it) and, from the database, the server's part of it: from the
moment the two could sit together (both there, their gap within the band of the
longer waiting one) to their pairing. Checks that nobody was paired twice (every entry
at one seat, every table exactly two entries, every seat distinct), that nobody was
left waiting, that the played games ended rated, and runs ``parlour ratings rebuild
--check`` on the database afterwards: every stored number must equal the recomputed
one. Exit status 1 when a check fails. Loopback only, bounded in time.

    python benchmarks/pools_load.py --players 2000 --duration 60 --json out.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import bench_args
import httpx
from sqlalchemy import select

from parlour.loadtest import ServerProcess
from parlour.loadtest.clients import SeatClient, Stats, TableRun, percentile

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


def seed_history(url: str, tickets: list[str], rounds: int, seed: int) -> dict[str, float]:
    """Rated results between the prepared players, ``rounds`` rounds of random pairs,
    each won with probability ``1 / (1 + exp(-2 (a - b)))`` by hidden skills a, b ~ N(0,1):
    written by the server's own update (``rated.record_in``) so that a rebuild replays
    them. Their shown ratings afterwards."""
    from parlour.server import ratings
    from parlour.server.db import Store, _alchemy_tx
    from parlour.server.pool_rows import POOL
    from parlour.server.rated import Ending, RatingRow, record_in
    from parlour.server.tokens import hash_token

    rng = random.Random(seed)
    pool = ratings.pool_of("fanti", 2)
    store = Store(url)
    try:
        with store.engine.connect() as c:
            ids = {r.ticket_hash: r.player_id for r in c.execute(select(POOL.c.ticket_hash, POOL.c.player_id))}
        players = [ids[hash_token(t)] for t in tickets]
        skill = {p: rng.gauss(0, 1) for p in players}
        now = time.time() - 3600
        for k in range(rounds):
            order = players[:]
            rng.shuffle(order)
            with store.engine.begin() as c:
                tx = _alchemy_tx(c)
                for i in range(0, len(order) - 1, 2):
                    a, b = order[i], order[i + 1]
                    a_wins = rng.random() < 1 / (1 + math.exp(-2 * (skill[a] - skill[b])))
                    now += 0.001
                    record_in(tx, Ending(f"seed-{k}-{i}", pool, now, [1, 0] if a_wins else [0, 1],
                                         [1, 2] if a_wins else [2, 1], [False, False]),
                              owners={0: a, 1: b})
        table = RatingRow.__table__
        with store.engine.connect() as c:
            return {r.player_id: float(ratings.shown(r.mu)) for r in c.execute(
                select(table.c.player_id, table.c.mu).where(table.c.pool == pool))}
    finally:
        store.close()


def fit_at(a: Any, b: Any, bands: Any) -> float:
    """When two entries could first sit together: both there, and their rating gap
    within the band of the longer waiting one (``pairing.fits``)."""
    first, last = min(a.entered, b.entered), max(a.entered, b.entered)
    gap = abs(a.rating - b.rating)
    need = bands.open_after if gap > bands.start + bands.per_second * bands.open_after else \
        max(0.0, (gap - bands.start) / bands.per_second)
    return max(last, first + min(need, bands.open_after))


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
                                    POOL.c.table_id, POOL.c.seat, POOL.c.rating,
                                    POOL.c.entered, POOL.c.seen)).all()
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
    # The server's part of a wait: from when the two could sit together to the pairing
    # (an entry's ``seen`` is the moment it was seated), for each seated entry.
    from parlour.server.pairing import Bands
    from parlour.server.settings import Settings

    st = Settings()
    bands = Bands(st.pool_band, st.pool_band_per_second, st.pool_band_open_after)
    by_table: dict[str, list[Any]] = {}
    for r in mine:
        if r.table_id and r.status == "paired":
            by_table.setdefault(r.table_id, []).append(r)
    server = sorted(r.seen - r.entered for r in mine if r.status == "paired")
    lag = sorted(max(0.0, x[0].seen - fit_at(x[0], x[1], bands))
                 for x in by_table.values() if len(x) == 2)
    return {"entries": len(mine),
            "paired": sum(1 for r in mine if r.status == "paired"),
            "left_waiting": sum(1 for r in mine if r.status == "waiting"),
            "tables": len(per_table),
            "tables_not_two": sum(1 for n in per_table.values() if n != 2),
            "seats_shared": sum(1 for n in seats.values() if n > 1),
            "players_at_two_tables": sum(1 for n in players.values() if n > 1),
            "tables_playing": sum(1 for t in per_table if statuses.get(t) == "playing"),
            "rating_gap_median": percentile(gaps, 50) if gaps else None,
            "rating_gap_max": max(gaps) if gaps else None,
            "server_wait_median": _r(percentile(server, 50)),
            "server_wait_p99": _r(percentile(server, 99)),
            "after_fit_median": _r(percentile(lag, 50)),
            "after_fit_p99": _r(percentile(lag, 99)),
            "after_fit_max": _r(lag[-1] if lag else None)}


def _r(x: float | None) -> float | None:
    return None if x is None else round(x, 3)


def rated_check(url: str, tables: list[str]) -> dict[str, Any]:
    """The played tables' ends and their rating rows, and ``parlour ratings rebuild
    --check`` over the whole database (every stored number equal to the replayed one)."""
    from parlour.server.db import TABLES, Store
    from parlour.server.rated import RatedGameRow

    store = Store(url)
    try:
        with store.engine.connect() as c:
            over = c.execute(select(TABLES.c.id).where(TABLES.c.id.in_(tables),
                                                        TABLES.c.status == "over")).all()
            rated = c.execute(select(RatedGameRow.__table__.c.table_id).where(
                RatedGameRow.__table__.c.table_id.in_(tables))).all()
            total = len(c.execute(select(RatedGameRow.__table__.c.n)).all())
    finally:
        store.close()
    run = subprocess.run([sys.executable, "-m", "parlour", "ratings", "rebuild", "--check",
                          "--db", url], capture_output=True, text=True, timeout=600,
                         env={**os.environ})
    return {"played": len(tables), "played_over": len(over), "played_rated": len(rated),
            "rated_games_in_db": total, "rebuild_exit": run.returncode,
            "rebuild_says": run.stdout.strip().splitlines()[-2:]}


class Timed:
    """The timed part's outcome: waits, tickets, answers, the tables played, the lag of
    the clients' own event loop (a busy client inflates the waits it measures)."""

    def __init__(self) -> None:
        self.waits: list[float] = []
        self.tickets: list[str] = []
        self.outs: list[dict[str, Any]] = []
        self.played: list[str] = []
        self.unfinished = 0
        self.lags: list[float] = []


async def play(table: str, seats: dict[int, tuple[str, str]], stats: Stats, rng: random.Random,
               deadline: float) -> bool:
    """Both seats of ``table`` play random legal moves at once until the game ends."""
    run = TableRun([seats[0][0], seats[1][0]], stats, game="fanti", players=2,
                   speed="full", deadline=deadline, rng=rng)
    run.id = table
    run.start_sent = True  # the pool started it
    run.seats = [SeatClient(run, s, seats[s][1]) for s in (0, 1)]
    await asyncio.gather(*(s.run() for s in run.seats))
    return all(s.log.done for s in run.seats)


async def timed(bases: list[str], clients: list[httpx.AsyncClient], duration: float,
                limit: float, play_every: int) -> Timed:
    start = time.monotonic()
    gap = duration / max(1, len(clients))
    out = Timed()
    stats = Stats(started=start)
    seated: dict[str, dict[int, tuple[str, str]]] = {}
    games: list[asyncio.Task] = []
    rng = random.Random(7)

    async def one(i: int, c: httpx.AsyncClient) -> None:
        await asyncio.sleep(max(0.0, start + i * gap - time.monotonic()))
        t = await enter(c, f"P{i}")
        entered = time.monotonic()
        out.tickets.append(t)
        got = await until_paired(c, t, limit)
        out.outs.append(got)
        if got["status"] != "paired":
            return
        out.waits.append(time.monotonic() - entered)
        j = got["joined"]
        seats = seated.setdefault(j["table"], {})
        seats[j["seat"]] = (bases[i % 2], j["token"])
        if play_every > 0 and len(seats) == 2 and len(seated) % play_every == 0:
            out.played.append(j["table"])
            games.append(asyncio.create_task(play(j["table"], seats, stats,
                                                  random.Random(rng.random()),
                                                  time.monotonic() + limit)))

    async def lag() -> None:
        while True:
            t0 = time.monotonic()
            await asyncio.sleep(0.05)
            out.lags.append(time.monotonic() - t0 - 0.05)

    lagger = asyncio.create_task(lag())
    try:
        await asyncio.gather(*(one(i, c) for i, c in enumerate(clients)))
        done = await asyncio.gather(*games)
    finally:
        lagger.cancel()
    out.unfinished = sum(1 for d in done if not d)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=bench_args.positive, default=2000)
    ap.add_argument("--duration", type=bench_args.positive, default=60,
                    help="seconds over which the people arrive")
    ap.add_argument("--seed-games", type=int, default=3,
                    help="rounds of rated results between the people before the run")
    ap.add_argument("--play-every", type=int, default=10,
                    help="the people of every N-th table play it to the end (rated), "
                         "while others still enter; 0: none")
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
                     "PARLOUR_GUESTS_BURST": str(args.players),
                     # no computer players here: bots think in the server process
                     # (no worker processes to warm up: a loaded machine starts at once)
                     "PARLOUR_BOT_WORKERS": "0",
                     # the played tables move as fast as answered: the per-connection
                     # message rate is not what this measures
                     "PARLOUR_RATE_PER_SECOND": "1000", "PARLOUR_RATE_BURST": "1000"}))
        servers = [p.start(timeout=600) for p in procs]  # a busy shared machine starts slowly
        bases = [s.base for s in servers]

        async def run() -> dict[str, Any]:
            transports = {b: httpx.AsyncHTTPTransport(limits=httpx.Limits(
                max_connections=1200, max_keepalive_connections=200)) for b in bases}
            clients = [browser(bases[i % 2], i, transports[bases[i % 2]])
                       for i in range(args.players)]
            try:
                t0 = time.monotonic()
                # One at a time: two people waiting at once would be paired, and the
                # tables of the preparation would load the servers (their leases).
                prepared = await prepare(clients, 1)
                prep_s = time.monotonic() - t0
                shown = await asyncio.to_thread(seed_history, pg.sqlalchemy_url, prepared,
                                                args.seed_games, args.seed)
                load = [os.getloadavg()[0]]
                run = await timed(bases, clients, args.duration, limit=args.duration + 120,
                                  play_every=args.play_every)
                load.append(os.getloadavg()[0])
                waits = sorted(run.waits)
                print(f"waits: {len(waits)} paired, median {percentile(waits, 50)}, "
                      f"p99 {percentile(waits, 99)}", flush=True)
                checked = await asyncio.to_thread(check, pg.sqlalchemy_url, run.tickets)
                rated = await asyncio.to_thread(rated_check, pg.sqlalchemy_url, run.played)
            finally:
                await asyncio.gather(*(c.aclose() for c in clients))
            spread = sorted(abs(v - 1500) for v in shown.values())
            return {"players": args.players, "duration": args.duration,
                    "load_average": [round(x, 1) for x in load],
                    "prepare_s": round(prep_s, 1),
                    "rating_sd": round(percentile(spread, 68), 1),
                    "answers": dict(Counter(o["status"] for o in run.outs)),
                    "wait_median": _r(percentile(waits, 50)),
                    "wait_p90": _r(percentile(waits, 90)),
                    "wait_p99": _r(percentile(waits, 99)),
                    "wait_max": _r(waits[-1] if waits else None),
                    "client_lag_p99": _r(percentile(sorted(run.lags), 99)),
                    **checked, "games_unfinished": run.unfinished, **rated}

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
          and result["paired"] == args.players and result["rebuild_exit"] == 0
          and result["played_rated"] == result["played"] == result["played_over"])
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
