"""Rated games written by many writers at once, on a real PostgreSQL and on SQLite
(issue 32): each game's result is written with its last event through the store's own
write path (``db.ALSO``), exactly once however often the end is replayed, and
``parlour ratings rebuild`` finds every stored number."""

from __future__ import annotations

import random
import threading
import time

import pytest
from hardening_kit import Postgres
from sqlalchemy import text

from parlour.server import people, rated, ratings
from parlour.server.db import ALSO, Conflict, Store, TableRow, unavailable

pytestmark = pytest.mark.timeout(300)

PLAYERS = [f"p{i:02d}" for i in range(12)]
WRITERS = 8
GAMES = 30  # per writer


def games(seed: int) -> list[tuple[str, str, list[str], list[int]]]:
    """(table, pool, players by seat, totals): random rated endings."""
    rng = random.Random(seed)
    out = []
    for k in range(WRITERS * GAMES):
        pool, n = rng.choice([("fanti:2", 2), ("fanti:3-4", 3), ("fantan:5-8", 5)])
        out.append((f"T{k:04d}", pool, rng.sample(PLAYERS, n),
                    [rng.randint(0, 9) for _ in range(n)]))
    return out


def write_all(store: Store, plan: list[tuple[str, str, list[str], list[int]]],
              url: str) -> dict[str, int]:
    """Every game ended by one of ``WRITERS`` stores of its own (as separate server
    processes would: a store's SQLite write path belongs to one event loop)."""
    now = time.time()
    for table, pool, who, _ in plan:
        store.add(TableRow(id=table, game=ratings.game_of(pool), status="playing",
                           created=now, updated=now, config={}, record=None, seq=0,
                           log=[], invite_key="", watch_key=""))
        people.own_seats(store.engine, table, [(s, p, p) for s, p in enumerate(who)])
    counts = {"written": 0, "replayed": 0, "retried": 0}
    lock = threading.Lock()

    def end(store: Store, item: tuple[str, str, list[str], list[int]]) -> None:
        table, pool, who, totals = item
        best = max(totals)
        gone = [False] * len(who)
        e = rated.Ending(table, pool, time.time(), totals,
                         ratings.places(False, totals, [i for i, t in enumerate(totals)
                                                        if t == best], gone), gone)
        for replay in (False, True):  # the end, then the end again (another process)
            while True:
                try:
                    r = store.commit_events([(table, 0, {"kind": "end"},
                                              {"status": "over", "updated": time.time(),
                                               ALSO: rated.writer(e)})])[0]
                    break
                except Exception as exc:  # busy: tried again, as the server does
                    if not unavailable(exc):
                        raise
                    with lock:
                        counts["retried"] += 1
            with lock:
                counts["replayed" if isinstance(r, Conflict) else "written"] += 1
            assert isinstance(r, Conflict) == replay

    def writer(k: int) -> None:
        mine = Store(url, busy_timeout=2.0)
        try:
            for item in plan[k::WRITERS]:
                end(mine, item)
        finally:
            mine.close()

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(WRITERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(240)
    assert not any(t.is_alive() for t in threads)
    return counts


def check(store: Store, plan: list[tuple[str, str, list[str], list[int]]],
          counts: dict[str, int]) -> None:
    assert counts["written"] == counts["replayed"] == len(plan)
    with store.engine.connect() as c:
        assert c.execute(text("SELECT COUNT(*) FROM rated_games")).scalar() == len(plan)
        games_held = c.execute(text("SELECT SUM(games) FROM ratings")).scalar()
    assert games_held == sum(len(who) for _, _, who, _ in plan)
    report = rated.rebuild(store)
    assert report.games == len(plan)
    assert report.differences == []


def test_concurrent_rated_ends_on_postgresql():
    pg = Postgres()
    try:
        store = Store(pg.sqlalchemy_url)
        try:
            plan = games(1)
            started = time.perf_counter()
            counts = write_all(store, plan, pg.sqlalchemy_url)
            took = time.perf_counter() - started
            check(store, plan, counts)
            print(f"\nPostgreSQL: {len(plan)} rated ends (and as many replays) by {WRITERS} "
                  f"writers in {took:.2f} s; {counts['retried']} retried")
        finally:
            store.close()
    finally:
        pg.cleanup()


def test_concurrent_rated_ends_on_sqlite(tmp_path):
    url = f"sqlite:///{tmp_path}/r.sqlite3"
    store = Store(url, busy_timeout=2.0)
    try:
        plan = games(2)
        counts = write_all(store, plan, url)
        check(store, plan, counts)
    finally:
        store.close()
