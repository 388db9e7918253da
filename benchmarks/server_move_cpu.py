"""The server's CPU per event on its own move path, without sockets (issue #13).

Runs the table service in this process on a temporary SQLite file: ``--tables`` Fan
Tan tables of four people, each seat a connection whose socket only keeps the text it
is sent, every move a random legal one sent through ``TableService.handle`` (parsing,
checks, the write with its group commit, the four seats' deltas and their encoding).
Reports the process's CPU seconds per stored event (deals and automatic passes count
as events; the tables' creation and seating are included, as in ``parlour loadtest``).

To compare two trees, run it with each on ``PYTHONPATH`` in turn, alternated:

    PYTHONPATH=/path/to/before/src python benchmarks/server_move_cpu.py
    PYTHONPATH=src python benchmarks/server_move_cpu.py

No wall-clock figure here means anything on a shared machine: CPU time only.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import tempfile
import time
from typing import Any

import bench_args

from parlour.server.db import Store
from parlour.server.hub import Connection
from parlour.server.protocol import CreateTable, Hello, parse_client
from parlour.server.service import TableService
from parlour.server.settings import Settings


class Socket:
    def __init__(self) -> None:
        self.sent = 0

    async def send_text(self, text: str) -> None:
        self.sent += 1

    async def close(self, code: int = 1000, reason: str = "") -> None:
        pass


async def run(tables: int, batches: int, seed: int) -> dict[str, Any]:
    folder = tempfile.mkdtemp(prefix="parlour-cpu-")
    settings = Settings(db_url=f"sqlite:///{folder}/t.sqlite3", bot_delay=0.0, round_pause=0.0,
                        testing=True, bot_workers=0, create_per_minute=1e9,
                        create_burst=1_000_000, max_seats_per_address=8)
    store = Store(settings.db_url, settings.db_timeout, settings.sqlite_synchronous)
    svc = TableService(settings, store)
    rng = random.Random(seed)
    moves = 0

    async def one(k: int) -> None:
        nonlocal moves
        j = await svc.create(CreateTable(game="fantan", players=4,
                                         seats=[{"kind": "person"}] * 4,
                                         rules={"rounds": 1}, test={"seed": k}))
        t = svc.load(j.table)
        tokens = [j.token] + [(await svc.intents.sit(t, f"P{i}", addr=f"a{i}")).token
                              for i in range(3)]
        conns = []
        for tok in tokens:
            c = Connection(Socket(), settings)
            await svc.hello(c, Hello(type="hello", table=t.id, token=tok))
            conns.append(c)
        await svc.handle(conns[0], parse_client('{"type": "start"}'))
        while t.status == "playing":
            r = t.match.current if t.match else None
            if r is None or t.forced_pass(r) or t.lock.locked():
                await asyncio.sleep(0.001)  # the server's own deal or pass comes first
                continue
            m = rng.choice(r.legal_moves())
            text = json.dumps({"type": "move", "seq": t.seq, "move": t.game.move_to_json(m)})
            await svc.handle(conns[r.current_player], parse_client(text))
            moves += 1
            await asyncio.sleep(0)
        for c in conns:
            c.stop()

    gc.collect()
    gc.freeze()  # as the server does after its start
    gc.set_threshold(getattr(settings, "gc_young", 700), *gc.get_threshold()[1:])
    cpu0 = time.process_time()
    for b in range(batches):
        await asyncio.gather(*(one(b * tables + i) for i in range(tables)))
    cpu = time.process_time() - cpu0
    with store.engine.connect() as c:
        events = c.exec_driver_sql("SELECT count(*) FROM events").scalar()
    store.close()
    return {"tables": tables * batches, "moves_sent": moves, "events": events,
            "cpu_s": round(cpu, 3), "cpu_ms_per_event": round(1000 * cpu / events, 4)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=bench_args.positive, default=50,
                    help="tables played at once")
    ap.add_argument("--batches", type=bench_args.positive, default=2,
                    help="rounds of that many tables")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    try:
        import uvloop
    except ImportError:  # pragma: no cover
        result = asyncio.run(run(args.tables, args.batches, args.seed))
    else:
        result = uvloop.run(run(args.tables, args.batches, args.seed))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
