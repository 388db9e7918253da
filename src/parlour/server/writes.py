"""The one write path: every change to a table is saved before anyone hears of it.

A game event (a deal or a move) is committed with the sequence check
(:meth:`Store.commit_events`), then the views render it for every connection, each is
sent its own, then the table's clock is armed for the next server action
(:meth:`Writer.announce`: each step once, in that order). Events of several tables
that arrive in the same turn of the event loop are committed together, in one
transaction (:class:`GroupCommit`); each is sent only after that commit. Changes that
are not events (seats, stand-ins, the rematch link) are saved with
:meth:`Writer.save`. A failed write puts the table back to the stored truth and tells
the client why.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from parlour import record
from parlour.game import Move
from parlour.server import metrics
from parlour.server.db import ALSO, PRIOR, Conflict, unavailable
from parlour.server.errors import RETRY_AFTER, UNAVAILABLE
from parlour.server.hub import Connection
from parlour.server.live import LiveTable, pack
from parlour.server.rated import ending, writer
from parlour.server.views import messages

if TYPE_CHECKING:
    from parlour.server.core import Core
    from parlour.server.roles import Clock, Coordination, Seats

log = logging.getLogger("parlour.server")


Item = tuple[str, int, dict[str, Any], dict[str, Any]]


class GroupCommit:
    """Events handed in during one turn of the event loop, written in one transaction.

    :meth:`commit` queues an event and waits; the first event of a turn schedules
    :meth:`flush` for the loop's next turn (``call_soon``), by when every message that
    arrived together has been checked and applied and has queued its event. One
    transaction then writes them all (one ``BEGIN``/``COMMIT`` and one write to the
    log for the lot), each with its own sequence check: an event whose table moved on
    fails alone. Nothing is broadcast before the commit (each writer waits for it), so
    an acknowledged move is a stored move. Under light load a batch holds one event and
    costs one loop turn of waiting; under heavy load batches grow on their own.
    """

    def __init__(self, store: Any) -> None:
        self.store = store
        self._pending: list[tuple[Item, Callable[[int], None], asyncio.Future]] = []
        self._scheduled = False
        self.batches = 0
        """Transactions written (for tests and measurements)."""
        self.events = 0
        """Events written in them."""

    async def commit(self, item: Item, done: Callable[[int], None]) -> int:
        """Commit ``item`` (``table_id, expected_seq, data, values``) with the next batch
        and return its new sequence number; ``done(new_seq)`` runs right after the
        commit, before any other code, so the table in memory always follows the
        database (even when the waiting task is cancelled). Raises
        :class:`~parlour.server.db.Conflict` or the database's error."""
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        self._pending.append((item, done, fut))
        if not self._scheduled:
            self._scheduled = True
            loop.call_soon(self.flush)
        return await fut

    def flush(self) -> None:
        self._scheduled = False
        batch, self._pending = self._pending, []
        if not batch:
            return
        try:
            with metrics.timed(metrics.COMMIT_SECONDS):
                results = self.store.commit_events([item for item, _, _ in batch])
        except Exception as e:  # noqa: BLE001 -- nothing was written: every writer hears
            for _, _, fut in batch:
                if not fut.done():
                    fut.set_exception(e)
            return
        self.batches += 1
        self.events += len(batch)
        for (_, done, fut), result in zip(batch, results, strict=True):
            if isinstance(result, Exception):
                if not fut.done():
                    fut.set_exception(result)
                continue
            try:
                done(result)
            except Exception as e:  # noqa: BLE001 -- the writer's own bookkeeping
                log.exception("after a commit")
                if not fut.done():
                    fut.set_exception(e)
                continue
            if not fut.done():
                fut.set_result(result)


class Writer:
    """The write path of one service: an event is saved, then announced, then the clock
    is armed; other changes are saved with :meth:`save`."""

    # Sibling parts, handed over by the service (TableService.__init__).
    clock: Clock
    coord: Coordination
    intents: Seats

    def __init__(self, svc: Core) -> None:
        self.svc = svc
        self.group = GroupCommit(svc.store)

    def save(self, t: LiveTable, **values: Any) -> None:
        """Write non-event fields of a table; on failure ``t`` goes back to its saved row
        and the error propagates (the client is told to try again)."""
        values = {k: (list(v) if isinstance(v, list) else v) for k, v in values.items()}
        # Always a full snapshot: the log written here is the whole log.
        values["log"] = list(t.log)
        values["record"] = record.dump(t.match) if t.match is not None else None
        values["snap_seq"] = t.seq
        try:
            t.updated = self.svc.store.set(t.id, **values)
        except Exception:
            t.restore()
            raise
        t.committed.update(pack(values), updated=t.updated)
        t.tail, t.logged = [], len(t.log)

    def reload(self, t: LiveTable) -> None:
        """Put the database's truth back into ``t`` (another writer moved it on)."""
        row, tail = self.svc.store.get_with_tail(t.id)
        assert row is not None
        t.take(LiveTable.from_row(row, tail))

    async def commit_move(self, t: LiveTable, seat: int, move: Move, by: str,
                          conn: Connection | None = None) -> None:
        """One move, one way (docs/architecture.md, "one move's way"): the
        engine applies it, then it goes on as every event does (:meth:`announce`). The
        caller holds the table's lock and has checked the move."""
        entry = t.apply(seat, move, by)  # the engine
        metrics.MOVES.labels(by if by in ("person", "forced") else "bot").inc()
        await self.announce(t, {"kind": "move", **entry}, entry, conn)

    async def announce(self, t: LiveTable, data: dict[str, Any], event: dict[str, Any],
                       conn: Connection | None = None) -> bool:
        """An event applied to ``t`` goes on, each step once and in this order: one
        commit (the record, the database and the clock's next deadline, in one write),
        the views render the update for every connection, each connection is sent its
        own, and the clock is armed for the server's next action. Nobody hears of an
        event that was not saved; a failed write is put right by :meth:`_failed`."""
        action = t.plan(self.svc.settings)
        if not await self.commit(t, data, conn):
            return False
        await self.svc.hub.deliver(t, messages(t, "update", list(t.conns), {}, event=event))
        if t.status == "over":
            self.coord.finished(t)
        self.clock.arm(t, action)
        return True

    async def commit(self, t: LiveTable, data: dict[str, Any],
                     conn: Connection | None = None) -> bool:
        """Commit the event (sequence-checked) with the deadline already planned.

        Only the columns that changed are written. When the write fails, ``t`` goes
        back to the stored truth, the client (if any) is told why, and the server's
        own next action is retried a little later; False is returned.
        """
        svc = self.svc
        # A move in the middle of a round writes only the event and the clock; deals,
        # round ends and anything else that changed the log write a full snapshot.
        light = (data.get("kind") == "move" and t.match is not None
                 and t.match.current is not None and len(t.log) == t.logged + 1)
        values = t.row_values(full=not light)
        for k in ("status", "config", "salt"):
            if k in t.committed and pack({k: values[k]})[k] == t.committed[k]:
                del values[k]
        if not light:
            values["snap_seq"] = t.seq + 1
        if svc.settings.cluster:  # a seat changed by another process refuses the event
            values[PRIOR] = t.updated
        values["updated"] = time.time()

        def done(new_seq: int) -> None:
            t.seq, t.updated = new_seq, values["updated"]
            values.pop(PRIOR, None)
            t.committed.update(pack(values), seq=new_seq)
            if light:
                t.tail.append(dict(data))
            else:
                t.tail = []
            t.logged = len(t.log)

        item_values = values
        if values.get("status") == "over":
            rated = ending(t)
            if rated is not None:  # rated in the same transaction as the game's end
                item_values = {**values, ALSO: writer(rated)}
        try:
            await self.group.commit((t.id, t.seq, data, item_values), done)
        except Exception as e:
            await self._failed(t, e, conn)
            return False
        return True

    async def _failed(self, t: LiveTable, e: Exception, conn: Connection | None) -> None:
        svc = self.svc
        conflict = isinstance(e, Conflict)
        log.warning("write refused at table %s: %s", t.id, e)
        try:
            if conflict:
                self.reload(t)  # another process wrote first: take its events
            else:
                t.restore()
        except Exception:
            log.exception("table %s could not be restored; it is read again on next use", t.id)
            t.restore()
        if conn is not None:
            if conflict:
                await svc.hub.error(conn, "conflict", "the table moved on before your move "
                                    "was saved: nothing was changed; please look again")
            elif unavailable(e):
                await svc.hub.error(conn, "unavailable", UNAVAILABLE)
            else:
                await svc.hub.error(conn, "server_error",
                                    "the move was not saved; please try again")
        if conflict:
            await self.intents.drop_revoked(t)  # a seat taken away meanwhile
            await svc.hub.broadcast(t, "state")
        action = t.plan(svc.settings)
        if action is not None:
            action.at = max(action.at, time.time() + RETRY_AFTER)
        self.clock.arm(t, action)

    async def start(self, t: LiveTable, conn: Connection | None = None) -> None:
        """The game begins: the match is created and the first round dealt."""
        self.coord.claim(t)
        for addr in {c.addr for c in t.conns if c.seat is not None}:
            self.intents.mark_live(addr)  # a session at a game: may open tables
        t.start()
        t.log.append({"kind": "start"})
        await self.deal(t, conn)

    async def deal(self, t: LiveTable, conn: Connection | None = None) -> None:
        entry = t.deal()
        await self.announce(t, dict(entry), entry, conn)
