"""The table service: the tables of one server process, their connections and lifecycle.

Every change to a game is an *event* (a deal or a move) and follows one path:
under the table's lock, check the intent (:mod:`~parlour.server.intents`), apply it,
write it with the sequence check and only then broadcast it
(:mod:`~parlour.server.writes`). The server's own actions (bot moves, forced passes,
turn timeouts, the next deal) are planned with an absolute deadline stored with the
event, so a restarted server resumes them on time (:mod:`~parlour.server.clock`).
Whether this process runs a table at all -- one process, or several sharing a
database -- is the :mod:`~parlour.server.coordination`'s answer.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from parlour import record
from parlour.server.cardroom import CardRoom
from parlour.server.clock import TableClock
from parlour.server.collector import Collector
from parlour.server.coordination import Coordination, Leases, SingleProcess, coordination_for
from parlour.server.db import Store, TableRow, unavailable
from parlour.server.errors import RETRY_AFTER, UNAVAILABLE, ServiceError
from parlour.server.hub import Connection, Hub
from parlour.server.intents import Intents, default_bot
from parlour.server.limits import Sockets
from parlour.server.live import LiveTable
from parlour.server.moderation import Moderation
from parlour.server.pacing import Pacer
from parlour.server.pools import Pools
from parlour.server.presence import Presence
from parlour.server.protocol import CreateTable, Hello, Joined
from parlour.server.push import Pusher
from parlour.server.quotas import Quotas
from parlour.server.settings import Settings
from parlour.server.social import Social
from parlour.server.thinking import ASKED, OverBudget, QueueFull, ThinkPool, WorkFailed, WorkRefused
from parlour.server.tokens import KeyRing, hash_token, new_server_secret
from parlour.server.writes import Writer

if TYPE_CHECKING:
    from parlour.server.identity import Player

__all__ = ["RETRY_AFTER", "UNAVAILABLE", "ServiceError", "TableService", "default_bot"]

log = logging.getLogger("parlour.server")


def key_ring(settings: Settings, store: Store) -> KeyRing:
    """The secrets table keys are derived from: ``key_secret`` if set (and the one kept
    in the database, if any, so its links keep working), else the one kept in the
    database, made at first start."""
    kept = store.server_secret(make=None if settings.key_secret else new_server_secret)
    return KeyRing([s for s in (settings.key_secret, kept) if s])


class TableService:
    """All tables of one server process."""

    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.hub = Hub(settings.presence_every)
        self.tables: dict[str, LiveTable] = {}
        self._bot_tables: set[str] = set()
        """Ids of the loaded tables of bots only (so counting them is not a pass over
        every open table)."""
        self.closing = False
        self.instance = settings.instance or secrets.token_hex(8)
        self.keys = key_ring(settings, store)
        self.clock = TableClock(self)
        self.writer = Writer(self)
        self.intents = Intents(self)
        self.cardroom = CardRoom(self)
        self.push = Pusher(self)
        self.coord: Coordination = coordination_for(self)
        self.pools = Pools(self)
        self.moderation = Moderation(store.engine)
        self.social = Social(self)
        self.presence = Presence(self)
        """Who is online, from live sockets and open pages (server/presence.py)."""
        self._wire()
        self._presence_task: asyncio.Task | None = None
        self.pool = ThinkPool(settings.bot_workers, settings.bot_move_seconds,
                              settings.work_queue, settings.work_per_address)
        self.limits = Quotas(self.keys.subkey("quotas"), store if settings.cluster else None)
        """Per-address limits, shared by every process of a cluster (server/quotas.py)."""
        self.sockets = Sockets(settings)
        self._gc_task: asyncio.Task | None = None
        self._pacer_task: asyncio.Task | None = None
        self.pacer = Pacer(settings.arrival_lag_ms, settings.arrival_max_wait)
        self.collector = Collector(settings.gc_freeze_every, settings.gc_full_every,
                                   settings.gc_full_grow_mb, settings.gc_full_min)

    def _wire(self) -> None:
        """Hand each part the siblings it calls: by name, here, once, so that no part
        reaches another through the service (docs/architecture.md, "The server's
        parts")."""
        w, c, i, coord = self.writer, self.clock, self.intents, self.coord
        w.clock, w.coord, w.intents = c, coord, i
        c.writer, c.push, c.coord = w, self.push, coord
        i.writer, i.clock, i.coord, i.moderation = w, c, coord, self.moderation
        room = self.cardroom
        room.writer, room.clock, room.intents = w, c, i
        room.social, room.moderation = self.social, self.moderation
        self.pools.writer, self.pools.intents = w, i
        self.social.presence = self.presence
        assert isinstance(coord, SingleProcess | Leases)
        coord.clock, coord.cardroom, coord.pools, coord.intents = c, room, self.pools, i

    # --- lifecycle ---------------------------------------------------------------------

    async def startup(self) -> None:
        """Resume every table in play: timers and bots from their stored deadlines.
        Every bot worker starts now, side by side; until they have loaded the engines
        bot moves wait (``/healthz`` says ``"bots": "starting"``)."""
        self.pool.start()
        await self.coord.startup()
        self.clock.start()
        self.pools.start()
        self._gc_task = asyncio.create_task(self.collector.run())
        self._pacer_task = asyncio.create_task(self.pacer.run())
        self._presence_task = asyncio.create_task(self.presence.run())

    async def going_away(self) -> None:
        """Stop the clocks and tell every client to reconnect: a ``bye`` message, then
        close code 1012 ("service restart"). Deadlines stay stored, so the next process
        resumes every table on time; in cluster mode its leases are handed back."""
        if self.closing:
            return
        self.closing = True
        for task in (self._gc_task, self._pacer_task, self._presence_task):
            if task:
                task.cancel()
        self.clock.stop()
        self.pools.stop()
        self.coord.stop()
        self.pool.close()
        for t in list(self.tables.values()):
            async with t.lock:  # a move being handled is saved and sent first
                conns = list(t.conns)
            for conn in conns:
                await self.hub.send(t, conn, "bye", why="restarting",
                                    reason="the server is restarting", reconnect=True)
            await asyncio.gather(*(c.close(1012, "service restart") for c in conns),
                                 return_exceptions=True)

    async def shutdown(self) -> None:
        await self.going_away()
        self.store.close()

    def owns(self, t: LiveTable) -> bool:
        """Whether this process runs the table's bots and timers."""
        return self.coord.owns(t)

    def load(self, table_id: str) -> LiveTable:
        """The live table, read from the database on first use."""
        t = self.tables.get(table_id)
        if t is not None:
            return t
        row, tail = self.store.get_with_tail(table_id)
        if row is None:
            shown = table_id if len(table_id) <= 40 else table_id[:40] + "…"  # not 10 KB back
            raise ServiceError(404, "not_found", f"there is no table {shown!r}")
        t = self.adopt(row, tail)
        if self.settings.cluster:
            self.cardroom.load_chat(t)
        return t

    def adopt(self, row: TableRow, tail: list[dict[str, Any]] | tuple = ()) -> LiveTable:
        """The live table of a row in hand: one just read, or one this process has just
        written (a new table: no need to read back what was written)."""
        t = LiveTable.from_row(row, tail, self.keys)
        self.tables[row.id] = t
        if t.bots_only:
            self._bot_tables.add(row.id)
        return t

    def running_bot_tables(self) -> list[LiveTable]:
        """The tables of bots only in play here (forgetting those gone or over)."""
        running = []
        for tid in list(self._bot_tables):
            t = self.tables.get(tid)
            if t is None or t.status in ("over", "expired"):
                self._bot_tables.discard(tid)
            elif t.status == "playing" and t.bots_only:
                running.append(t)
        return running

    async def sweep(self, now: float | None = None) -> list[str]:
        """Expire idle tables (see :meth:`TableClock.sweep`); forget expired sessions and
        passkey challenges."""
        from parlour.server import people

        people.delete_expired(self.store.engine, time.time() if now is None else now)
        return await self.clock.sweep(now)

    # --- HTTP --------------------------------------------------------------------------

    async def create(self, req: CreateTable, addr: str = "local",
                     who: Player | None = None) -> Joined:
        await self.pacer.admit()  # the tables in play first (parlour.server.pacing)
        return await self.intents.create(req, addr, who)

    async def join(self, table_id: str, key: str, name: str, addr: str = "local",
                   who: Callable[[], Player] | None = None) -> Joined:
        await self.pacer.admit()
        return await self.intents.join(table_id, key, name, addr, who)

    async def verify(self, body: bytes, addr: str) -> dict[str, Any]:
        """Check an uploaded record in a worker (it may be large: never on the loop)."""
        return await self.asked(addr, "verify", "the record could not be checked", body)

    async def asked(self, addr: str, job: str, what: str, *args: Any,
                    cpu: float | None = None) -> Any:
        """Run work a client chose the cost of (a replay, a review, a record check) in the
        worker pool under its budgets, and turn every way it can fail into a refusal in
        the API's error shape (docs/hardening.md, "Limits")."""
        s = self.settings
        cpu = s.work_cpu_seconds if cpu is None else cpu
        try:
            return await self.pool.run(ASKED, job, *args, addr=addr, cpu=cpu or None,
                                       memory=s.work_memory_mb << 20 or None,
                                       seconds=max(s.work_wall_seconds, cpu or 0))
        except QueueFull as e:
            raise ServiceError(e.status, "rate_limited" if e.status == 429 else "busy",
                               e.message, {"Retry-After": str(e.retry_after)}) from None
        except WorkRefused as e:
            raise ServiceError(e.status, e.code, e.message) from None
        except OverBudget as e:
            limit = (f"{cpu:g} s of computing" if e.kind == "cpu"
                     else f"{s.work_memory_mb} MB of memory")
            raise ServiceError(413, "too_large", f"{what}: it needs more than the server's "
                               f"limit of {limit}") from None
        except (TimeoutError, WorkFailed):
            raise ServiceError(503, "busy", f"{what} now: the server is busy, please try "
                               "again", {"Retry-After": "5"}) from None

    def public_info(self, table_id: str) -> dict[str, Any]:
        """What anyone with the table id may know before joining (no secrets)."""
        t = self.load(table_id)
        return {"id": t.id, "game": t.game.name, "title": t.game.title, "status": t.status,
                "players": t.players, "rules": t.rules, "timer": t.timer,
                "rated": bool(t.config.get("rated")), "days": t.days,
                "seats": [{"name": s.name, "kind": s.kind, "bot": s.bot, "claimed": s.claimed,
                           "open": s.open}
                          for s in t.seats]}

    def record(self, table_id: str) -> dict[str, Any]:
        """The finished game's record (with every deck and salt revealed)."""
        t = self.load(table_id)
        # The stored status: the last move's write may still be under way.
        if t.match is None or not t.match.is_over or t.committed.get("status") != "over":
            raise ServiceError(409, "not_over",
                               "the record is available when the game is over")
        return record.dump(t.match)

    # --- connections (WebSocket) -------------------------------------------------------

    async def handle(self, conn: Connection, msg: Any) -> None:
        """One validated client message. A database that is busy or down is reported to
        the client as ``unavailable`` (nothing changed; try again)."""
        if self.closing:
            await self.hub.error(conn, "unavailable", "the server is restarting: reconnect")
            return
        try:
            await self._handle(conn, msg)
        except ServiceError as e:
            await self.hub.error(conn, e.code, e.message)
        except Exception as e:
            if not unavailable(e):
                log.exception("message failed")
                await self.hub.error(conn, "server_error", "the server could not handle this "
                                     "message; nothing was changed")
                return
            log.warning("database unavailable: %s", e)
            await self.hub.error(conn, "unavailable", UNAVAILABLE)

    async def _handle(self, conn: Connection, msg: Any) -> None:
        if isinstance(msg, Hello):
            await self.hello(conn, msg)
            return
        t = conn.table
        if t is None:
            await self.hub.error(conn, "no_hello", "say hello first: "
                                 '{"type": "hello", "table": ID, "token": TOKEN}')
            return
        kind = msg.type
        if kind == "ping":
            await self.hub.send(t, conn, "pong")
        elif kind == "sync":
            if not conn.syncs.allow():
                wait = conn.syncs.wait()
                await self.hub.send(t, conn, "error", code="sync_limit", retry_after=wait,
                                    message="too many requests for the whole state: at most "
                                    f"{self.settings.sync_per_minute:g} a minute; ask again "
                                    f"in {wait:g} s (the updates keep coming meanwhile)")
                return
            async with t.lock:  # the state between two changes, never half of one
                if self.hub.presence_pending(t.id):
                    # a connect or disconnect not yet told (presence goes out at most every
                    # presence_every): told first, so that the snapshot is exactly what the
                    # messages so far built -- a client may check itself against it
                    await self.hub.send(t, conn, "presence")
                await self.hub.send(t, conn, "snapshot")
        elif kind == "move":
            await self.intents.move(conn, msg)
        elif kind == "hint":
            await self.intents.hint(conn, msg)
        elif kind == "start":
            await self.intents.start(conn)
        elif kind == "rematch":
            await self.cardroom.rematch(conn)
        elif kind == "rematch_answer":
            await self.cardroom.answer(conn, msg.accept)
        elif kind == "rematch_fill":
            await self.cardroom.fill(conn, msg.with_)
        elif kind == "reopen":
            await self.cardroom.reopen(conn, msg.seat)
        elif kind == "chat":
            await self.cardroom.chat(conn, msg.text)
        elif kind == "back":
            await self.intents.back(conn)
        elif kind == "release":
            await self.intents.release(conn, msg)
        elif kind == "leave":
            await self.intents.leave(conn)

    async def hello(self, conn: Connection, msg: Hello) -> None:
        if conn.table is not None:
            await self.hub.error(conn, "already_joined", "this connection already has a table")
            return
        try:
            t = self.load(msg.table)
        except ServiceError as e:
            await self.hub.error(conn, e.code, e.message)
            return
        seat: int | None = None
        if msg.token is not None:
            seat = t.seat_of_token_hash(hash_token(msg.token))
            if seat is None and self.settings.cluster:
                # Another process may have just given the seat this token (a rejoin
                # there, not heard of here yet): read the table again before refusing.
                await self.coord.reread(t)
                seat = t.seat_of_token_hash(hash_token(msg.token))
            if seat is None:
                await self.hub.error(conn, "unauthorised",
                                     "this token does not hold a seat at this table")
                return
        elif not self.keys.opens(msg.watch, t.id, "watch", t.kept.get("watch")):
            await self.hub.error(conn, "unauthorised",
                                 "hello needs this table's seat token or spectator key")
            return
        if t.status == "expired":
            await self.hub.error(conn, "expired", "this table has expired")
            return
        if seat is None and sum(1 for c in t.conns if c.seat is None) >= \
                self.settings.max_spectators:
            await self.hub.error(conn, "spectators_full", "this table has as many spectators "
                                 "as it can take: try again later")
            return
        self.social.greet(conn, t.id, seat)  # who it is, whose chat it never gets
        async with t.lock:
            if seat is not None:
                self.coord.seat_connected(t, seat)
            was = seat is not None and t.connected(seat)
            first = seat is not None and not t.seats[seat].connected_once
            conn.table, conn.seat = t, seat
            conn.token_hash = hash_token(msg.token) if msg.token is not None else None
            conn.role = "seat" if seat is not None else "spectator"
            t.conns.add(conn)
            self.sockets.said_hello(conn)
            if seat is not None:
                if t.status in ("playing", "over"):
                    self.intents.mark_live(conn.addr)
                t.seats[seat].connected_once = True
                self.clock.end_grace(t, seat)
                if t.seats[seat].auto and t.seats[seat].auto != "left":
                    await self.intents.take_back(t, seat)
            await self.hub.send(t, conn, "welcome")
            if seat is None:
                self.coord.watcher_connected(t)
            elif first:  # "never connected" no longer: the whole seat list changes
                await self.hub.broadcast(t, "state", exclude=conn)
            elif not was:
                self.hub.presence(t)
            self.clock.resume(t)

    async def disconnected(self, conn: Connection) -> None:
        self.sockets.closed(conn)
        t = conn.table
        if t is None:
            return
        t.conns.discard(conn)
        conn.stop()
        if self.closing:
            return
        if conn.seat is None:
            self.coord.watcher_disconnected(t)
        else:
            if t.status in ("playing", "over"):
                self.intents.mark_live(conn.addr)  # live for a while after leaving
            self.coord.seat_disconnected(t, conn.seat)
            if not t.connected(conn.seat):
                self.hub.presence(t)
