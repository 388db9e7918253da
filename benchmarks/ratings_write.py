"""What rating a game costs at its end (issue 32), and how long a rebuild takes.

In one run, on one SQLite file (the server's own write path, ``Store.commit_events``):
``--games`` game ends written plainly, then as many written with their rating update in
the same transaction (``db.ALSO``: read and lock the players' ratings, OpenSkill's
update, the result rows), interleaved in rounds so both see the same disk and load.
Reports the median per end of each and their ratio, then the time of ``rated.rebuild``
over every rated game (which must find no difference).

    python benchmarks/ratings_write.py --games 400
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time

from parlour.server import people, rated, ratings
from parlour.server.db import ALSO, Store, TableRow


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--players", type=int, default=40, help="distinct players")
    args = ap.parse_args()
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as d:
        store = Store(f"sqlite:///{d}/bench.sqlite3")
        try:
            who = [f"p{i}" for i in range(args.players)]
            now = time.time()
            for k in range(2 * args.games):
                store.add(TableRow(id=f"T{k}", game="fanti", status="playing", created=now,
                                   updated=now, config={}, record=None, seq=0, log=[],
                                   invite_key="", watch_key=""))
                people.own_seats(store.engine, f"T{k}",
                                 [(s, p, p) for s, p in enumerate(rng.sample(who, 2))])
            plain: list[float] = []
            with_rating: list[float] = []
            for k in range(args.games):
                for table, rate in ((f"T{2 * k}", False), (f"T{2 * k + 1}", True)):
                    values = {"status": "over", "updated": time.time()}
                    if rate:
                        won = rng.randint(0, 1)
                        values[ALSO] = rated.writer(rated.Ending(
                            table, "fanti:2", time.time(), [1 - won, won],
                            [2 - (1 - won), 2 - won], [False, False]))
                    started = time.perf_counter()
                    store.commit_events([(table, 0, {"kind": "end"}, values)])
                    (with_rating if rate else plain).append(time.perf_counter() - started)
            started = time.perf_counter()
            report = rated.rebuild(store)
            rebuild = time.perf_counter() - started
        finally:
            store.close()
    a, b = statistics.median(plain), statistics.median(with_rating)
    print(f"game ends: {args.games} plain, {args.games} rated ({args.players} players, "
          f"{ratings.label('fanti:2')})")
    print(f"median per end: plain {a * 1000:.3f} ms, rated {b * 1000:.3f} ms, "
          f"ratio {b / a:.2f}")
    print(f"rebuild: {report.games} games, {report.ratings} ratings in {rebuild:.3f} s; "
          f"{len(report.differences)} differences")


if __name__ == "__main__":
    main()
