"""Group commit: moves of several tables that arrive together are written in one
transaction, each acknowledged only after that commit, a stale one failing alone. And
the visible log each audience's state holds, kept and extended between events, equals
the one built from scratch."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from typing import Any

import pytest
from server_kit import run_async
from sqlalchemy import update

from parlour.server.db import TABLES, Store
from parlour.server.hub import Connection
from parlour.server.protocol import CreateTable, Hello, parse_client
from parlour.server.service import TableService
from parlour.server.settings import Settings


class Socket:
    """A WebSocket that keeps what the server sent it."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(json.loads(text))

    async def close(self, code: int = 1000, reason: str = "") -> None:
        pass


async def _started(svc: TableService, players: int, rules: dict[str, Any],
                   seed: int) -> tuple[Any, list[Connection]]:
    """A started Fan Tan table of ``players`` people, each seat connected."""
    j = await svc.create(CreateTable(game="fantan", players=players,
                                     seats=[{"kind": "person"}] * players,
                                     rules=rules, test={"seed": seed}))
    t = svc.load(j.table)
    tokens = [j.token] + [(await svc.intents.sit(t, f"P{i}", addr=f"a{i}")).token
                          for i in range(players - 1)]
    conns = []
    for tok in tokens:
        c = Connection(Socket(), svc.settings)
        await svc.hello(c, Hello(type="hello", table=t.id, token=tok))
        conns.append(c)
    await svc.handle(conns[0], parse_client('{"type": "start"}'))
    return t, conns


async def _tables(svc: TableService, n: int) -> list[tuple[Any, list[Connection]]]:
    """``n`` started Fan Tan tables of four people, each seat connected."""
    return [await _started(svc, 4, {"rounds": 1}, 40 + k) for k in range(n)]


def _move(t: Any) -> tuple[int, Any]:
    r = t.match.current
    m = r.legal_moves()[0]
    text = json.dumps({"type": "move", "seq": t.seq, "move": t.game.move_to_json(m)})
    return r.current_player, parse_client(text)


def _service(tmp_path: Any) -> TableService:
    settings = Settings(db_url=f"sqlite:///{tmp_path}/g.sqlite3", bot_delay=60.0,
                        round_pause=0.0, testing=True, bot_workers=0,
                        max_seats_per_address=8, public_seats_per_address=8, reclaim_after=0.0,
                        max_tables_per_class=100_000)
    return TableService(settings, Store(settings.db_url))


@pytest.mark.timeout(60)
def test_moves_arriving_together_share_one_transaction(tmp_path):
    db = f"{tmp_path}/g.sqlite3"

    async def run() -> None:
        svc = _service(tmp_path)
        tables = await _tables(svc, 6)
        # Every update a client receives is already in the database, read by another
        # connection (what a SIGKILL right after the send would leave).
        stored = []

        def check(t: Any, _audience: Any, payload: dict[str, Any]) -> None:
            if payload.get("type") == "update":
                con = sqlite3.connect(db)
                row = con.execute("SELECT data FROM events WHERE table_id = ? AND seq = ?",
                                  (t.id, payload["seq"])).fetchone()
                con.close()
                event = payload["event"]
                stored.append(row is not None and {**json.loads(row[0]), "kind": "move"}
                              == {**event, "kind": "move"})

        svc.hub.observers.append(check)
        before = (svc.writer.group.batches, svc.writer.group.events)
        seqs = [t.seq for t, _ in tables]
        moves = [_move(t) for t, _ in tables]
        await asyncio.gather(*(svc.handle(conns[p], msg)
                               for (t, conns), (p, msg) in zip(tables, moves, strict=True)))
        assert (svc.writer.group.batches - before[0], svc.writer.group.events - before[1]) \
            == (1, 6)
        assert [t.seq for t, _ in tables] == [s + 1 for s in seqs]
        assert stored and all(stored)
        # each mover saw their move acknowledged in an update at the next seq
        for (t, conns), (p, _) in zip(tables, moves, strict=True):
            last = conns[p].ws.sent[-1]
            assert last["type"] == "update" and last["seq"] == t.seq
            assert last["event"]["seat"] == p
        svc.store.close()

    run_async(run())


@pytest.mark.timeout(60)
def test_a_stale_table_fails_alone_in_its_batch(tmp_path):
    async def run() -> None:
        svc = _service(tmp_path)
        tables = await _tables(svc, 3)
        stale_t, stale_conns = tables[1]
        # another writer moved table 2 on behind this process's back
        with svc.store.engine.begin() as c:
            c.execute(update(TABLES).where(TABLES.c.id == stale_t.id)
                      .values(seq=TABLES.c.seq + 1))
        seqs = [t.seq for t, _ in tables]
        moves = [_move(t) for t, _ in tables]
        before = svc.writer.group.batches
        await asyncio.gather(*(svc.handle(conns[p], msg)
                               for (t, conns), (p, msg) in zip(tables, moves, strict=True)))
        assert svc.writer.group.batches == before + 1
        assert tables[0][0].seq == seqs[0] + 1 and tables[2][0].seq == seqs[2] + 1
        p = moves[1][0]
        errors = [m for m in stale_conns[p].ws.sent if m["type"] == "error"]
        assert errors and errors[-1]["code"] == "conflict"
        for i in (0, 2):
            t = tables[i][0]
            assert svc.store.events(t.id)[-1].seq == t.seq
        svc.store.close()

    run_async(run())


def _reference_log(t: Any, audience: Any) -> list[dict[str, Any]]:
    """The visible log computed from scratch (what views.visible_log keeps up to date)."""
    from parlour.server.views import LOG_SHOWN, log_entry

    k = t.round_number
    out = [log_entry(t, audience, e) for e in t.log
           if not (e.get("kind") in ("move", "leftovers") and e.get("round") != k)]
    return out[-LOG_SHOWN:]


@pytest.mark.timeout(120)
def test_kept_logs_follow_every_event(tmp_path, monkeypatch):
    """The visible log kept per audience (extended with each new entry) equals the one
    computed from scratch after every event, across rounds, past the length cap, and
    per seat under ``strict: false`` (where forced passes read differently)."""
    from parlour.server import views

    monkeypatch.setattr(views, "LOG_SHOWN", 30)  # the cap is reached within a round

    async def run() -> None:
        svc = _service(tmp_path)
        t, conns = await _started(svc, 3, {"rounds": 2, "strict": False}, 5)
        checked = rounds = 0
        while t.status == "playing" and checked < 400:
            r = t.match.current
            if r is None:  # between rounds: the next deal comes from the clock
                await asyncio.sleep(0.01)
                continue
            for audience in (None, 0, 1, 2):
                assert views.visible_log(t, audience) == _reference_log(t, audience)
            checked += 1
            rounds = max(rounds, t.round_number)
            p, msg = _move(t)
            await svc.handle(conns[p], msg)
        assert checked > 60 and rounds == 2
        for audience in (None, 0, 1, 2):
            assert views.visible_log(t, audience) == _reference_log(t, audience)
        svc.store.close()

    run_async(run())
