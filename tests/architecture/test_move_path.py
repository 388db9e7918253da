"""One move, one way through the server (docs/architecture.md, "The server: its
parts, and one move's way"): a move read from a socket is checked, applied by the
engine, committed once (record, database, the clock's deadline), rendered by the views
for every connection and queued on each, then the clock is armed: each module entered
once, in that order; none entered again after it was left, none called back from below.

The path is measured on a real service with a real database (SQLite), a socket per
seat and a spectator, under a profiler (path_tracer.py says what "entered" and "left"
mean). On the main branch before this test the move entered the clock twice (to plan,
then to arm) and the views once per connection, between two sends."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from path_tracer import LOOKED_THROUGH, Walk, recording, walk

from async_kit import run_async
from parlour.game import PASS
from parlour.server.db import Store
from parlour.server.hub import Connection
from parlour.server.protocol import CreateTable, Hello, parse_client
from parlour.server.service import TableService
from parlour.server.settings import Settings
from parlour.server.ws import _serve


class Socket:
    """A WebSocket that hands the server what the test queues and keeps what it sends."""

    def __init__(self) -> None:
        self.frames: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.sent: list[dict[str, Any]] = []
        self.updated = asyncio.Event()

    async def receive(self) -> dict[str, Any]:
        return await self.frames.get()

    async def send_text(self, text: str) -> None:
        msg = json.loads(text)
        self.sent.append(msg)
        if msg["type"] == "update":
            self.updated.set()

    async def close(self, code: int = 1000, reason: str = "") -> None:
        pass


async def one_move(tmp_path: Any) -> tuple[Walk, Walk, list[Socket]]:
    """A started Fan Tan table of four people and a spectator, every one connected; the
    player to move sends a move over their socket. Recorded from the frame's arrival
    until every connection has been sent the update."""
    settings = Settings(db_url=f"sqlite:///{tmp_path}/path.sqlite3", bot_delay=60.0,
                        round_pause=0.0, testing=True, bot_workers=0, max_seats_per_address=8,
                        public_seats_per_address=8, reclaim_after=0.0)
    svc = TableService(settings, Store(settings.db_url))
    j = await svc.create(CreateTable(game="fantan", players=4, seats=[{"kind": "person"}] * 4,
                                     rules={"rounds": 1}, test={"seed": 7}))
    t = svc.load(j.table)
    tokens = [j.token] + [(await svc.intents.sit(t, f"P{i}", addr=f"a{i}")).token
                          for i in range(3)]
    sockets = [Socket() for _ in range(5)]
    conns = [Connection(s, settings) for s in sockets]
    for conn, tok in zip(conns, tokens, strict=False):
        await svc.hello(conn, Hello(type="hello", table=t.id, token=tok))
    await svc.hello(conns[4], Hello(type="hello", table=t.id, watch=t.watch_key))
    await svc.handle(conns[0], parse_client('{"type": "start"}'))
    serving = [asyncio.create_task(_serve(svc, c, s)) for c, s in zip(conns, sockets,
                                                                      strict=True)]
    # the start's deal has reached every connection
    await asyncio.wait_for(asyncio.gather(*(s.updated.wait() for s in sockets)), 10)
    for s in sockets:
        s.updated.clear()
    r = t.match.current
    mover = r.current_player
    move = next(m for m in r.legal_moves() if m != PASS)
    text = json.dumps({"type": "move", "seq": t.seq, "move": t.game.move_to_json(move)})
    with recording() as rec:
        sockets[mover].frames.put_nowait({"type": "websocket.receive", "text": text})
        await asyncio.wait_for(asyncio.gather(*(s.updated.wait() for s in sockets)), 10)
    for task in serving:
        task.cancel()
    await asyncio.gather(*serving, return_exceptions=True)
    svc.clock.stop()
    svc.store.close()
    return walk(rec), walk(rec, LOOKED_THROUGH), sockets


PATH = ["ws", "limits", "protocol", "service", "intents", "writes", "db", "views", "hub", "clock"]
"""The modules one move crosses, in order (docs/architecture.md lists the same)."""

STEPS = {"ws": "receive", "limits": "receive", "protocol": "receive", "service": "receive",
         "intents": "check", "writes": "commit", "db": "commit", "views": "views",
         "hub": "send", "clock": "clock"}
ORDER = ["receive", "check", "commit", "views", "send", "clock"]


@pytest.mark.timeout(120)
def test_one_move_goes_one_way_through_the_server(tmp_path):
    raw, w, sockets = run_async(one_move(tmp_path))
    assert all(s.updated.is_set() for s in sockets)
    assert w.backups == [], f"a lower part called back up: {w.backups}"
    assert w.reentries == [], f"entered again after it was left: {w.reentries}"
    # each module once, from the one before it; then each connection's writer sends
    ahead = [m for m, (caller, _, _) in zip(w.entered, w.calls, strict=True)
             if caller is not None or m == "ws"]
    assert ahead == PATH, w.calls
    steps = [ORDER.index(STEPS[m]) for m in ahead]
    assert steps == sorted(steps)
    assert [c[2] for c in w.calls if c[0] is None and c[1] == "hub"] == \
        ["Connection._drain"] * len(sockets)
    # the engine applies the move after the check and before the commit
    names = [c[2] for c in raw.calls]
    assert names.index("Intents.move") < names.index("Match.apply") \
        < names.index("Store.commit_events")
    assert names.count("Match.apply") == 1


SENDS_ONE_BY_ONE = """
async def deliver(self, t, sent):
    for conn, payload, state in sent:
        messages(t, "update", [conn], {}, event=None)  # the views again, each time
        if state is not None:
            conn.base, conn.v = state, payload["v"]
        await conn.write(payload)
"""


@pytest.mark.timeout(120)
def test_the_tracer_sees_a_module_entered_again(tmp_path, monkeypatch):
    """The walk can fail: a hub that asks the views again for each connection as it
    sends (as it rendered each connection's message between two sends on the main
    branch before this test) enters the views again after it left them."""
    from parlour.server import hub as hub_module

    scope = dict(vars(hub_module))  # a function that counts as the hub's own
    exec(SENDS_ONE_BY_ONE, scope)
    monkeypatch.setattr(hub_module.Hub, "deliver", scope["deliver"])
    _, w, sockets = run_async(one_move(tmp_path))
    assert w.reentries == ["views"] * len(sockets)
