"""Who runs a table's clock: one process alone, or several sharing a database.

Everything that differs between one server process and several (``--cluster``) sits
behind :class:`Coordination`: resuming tables at startup, whether this process owns a
table (runs its bots and timers), what happens when a seat connects or leaves, and
what a table's start and end mean for ownership. :class:`SingleProcess` owns every
table; :class:`Leases` owns tables through leases in the shared database, learns other
processes' events (announced with PostgreSQL ``NOTIFY``, or found by polling), takes
over the tables of a dead process and stands in for seats connected nowhere.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING

from parlour.server.live import LiveTable
from parlour.server.roles import Coordination

if TYPE_CHECKING:
    from parlour.server.cardroom import CardRoom
    from parlour.server.clock import TableClock
    from parlour.server.core import Core
    from parlour.server.intents import Intents
    from parlour.server.pools import Pools

log = logging.getLogger("parlour.server")

WATCHERS = -1
"""The presence row's seat number that says "spectators are connected here": a table of
bots only runs while someone, on any process, watches it."""


def coordination_for(svc: Core) -> Coordination:
    return Leases(svc) if svc.settings.cluster else SingleProcess(svc)


class SingleProcess:
    """The only process: it owns every table; a disconnect starts the grace clock."""

    # Sibling parts, handed over by the service (TableService.__init__).
    clock: TableClock
    cardroom: CardRoom
    pools: Pools
    intents: Intents

    def __init__(self, svc: Core) -> None:
        self.svc = svc

    async def startup(self) -> None:
        svc = self.svc
        for tid in svc.store.ids_with_status("playing"):
            try:
                t = svc.load(tid)
            except Exception:
                log.exception("table %s cannot be resumed", tid)
                continue
            self.clock.arm(t, t.resumed_action(svc.settings))
            for seat, s in enumerate(t.seats):
                if s.kind == "person" and not s.auto:
                    self.clock.start_grace(t, seat)

    def stop(self) -> None:
        pass

    def owns(self, t: LiveTable) -> bool:
        return True

    def seat_connected(self, t: LiveTable, seat: int) -> None:
        pass

    def seat_disconnected(self, t: LiveTable, seat: int) -> None:
        if not t.connected(seat) and t.status == "playing":
            self.clock.start_grace(t, seat)

    def seat_revoked(self, t: LiveTable, seat: int) -> None:
        pass

    async def reread(self, t: LiveTable) -> None:
        pass

    def watcher_connected(self, t: LiveTable) -> None:
        pass

    def watcher_disconnected(self, t: LiveTable) -> None:
        pass

    def turn_of_absent(self, t: LiveTable, seat: int) -> None:
        if t.seats[seat].auto is None:
            self.clock.start_grace(t, seat)

    def claim(self, t: LiveTable) -> None:
        pass

    def finished(self, t: LiveTable) -> None:
        pass


class Leases:
    """Several processes on one database: a table is run by the holder of its lease."""

    # Sibling parts, handed over by the service (TableService.__init__).
    clock: TableClock
    cardroom: CardRoom
    pools: Pools
    intents: Intents

    def __init__(self, svc: Core) -> None:
        self.svc = svc
        self.instance = svc.instance
        self.owned: set[str] = set()
        """Tables whose lease this process holds."""
        self._task: asyncio.Task | None = None
        self._listener: asyncio.Task | None = None
        self.listening = False
        """Whether the ``LISTEN`` connection is up (then polling is only a safety net)."""
        self._poll_now = False
        self._pending: set[str] = set()
        """Tables announced by another process and not refreshed yet."""
        self._refreshing: set[asyncio.Task] = set()

    # --- the interface ----------------------------------------------------------------

    async def startup(self) -> None:
        await self._take_orphans()
        self._task = asyncio.create_task(self._loop())
        if self.svc.settings.notify and self.svc.store.postgres:
            self.svc.store.notify_as = self.instance
            self._listener = asyncio.create_task(self._listen())

    def stop(self) -> None:
        for task in (self._task, self._listener, *self._refreshing):
            if task:
                task.cancel()
        with contextlib.suppress(Exception):
            self.svc.store.renew(self.instance, 0.0)  # leases and presence expire now
        self.owned.clear()

    def owns(self, t: LiveTable) -> bool:
        return t.id in self.owned

    def seat_connected(self, t: LiveTable, seat: int) -> None:
        self.svc.store.present(t.id, seat, self.instance,
                               time.time() + self.svc.settings.lease)
        t.absent.pop(seat, None)

    def seat_disconnected(self, t: LiveTable, seat: int) -> None:
        if not t.connected_here(seat):
            with contextlib.suppress(Exception):
                self.svc.store.present(t.id, seat, self.instance, None)

    def seat_revoked(self, t: LiveTable, seat: int) -> None:
        self.seat_disconnected(t, seat)  # its presence row goes: connected nowhere here

    async def reread(self, t: LiveTable) -> None:
        await self._refresh(t)

    def watcher_connected(self, t: LiveTable) -> None:
        if sum(1 for c in t.conns if c.seat is None) == 1:  # the first one here
            self.svc.store.present(t.id, WATCHERS, self.instance,
                                   time.time() + self.svc.settings.lease)

    def watcher_disconnected(self, t: LiveTable) -> None:
        if not any(c.seat is None for c in t.conns):
            with contextlib.suppress(Exception):
                self.svc.store.present(t.id, WATCHERS, self.instance, None)

    def turn_of_absent(self, t: LiveTable, seat: int) -> None:
        pass  # the presence check stands in for any seat connected nowhere

    def claim(self, t: LiveTable) -> None:
        now = time.time()
        if self.svc.store.acquire(t.id, self.instance, now + self.svc.settings.lease, now):
            self.owned.add(t.id)

    def finished(self, t: LiveTable) -> None:
        if t.id in self.owned:
            self.owned.discard(t.id)
            with contextlib.suppress(Exception):
                self.svc.store.release(t.id, self.instance)

    # --- upkeep -----------------------------------------------------------------------

    async def _listen(self) -> None:
        """Hear the tables other processes change (``LISTEN``) and refresh each at once.

        On a lost connection polling takes over (every ``poll_every``) until it is back;
        then one poll at once catches whatever was announced while it was away."""
        import psycopg

        from parlour.server.db import CHANNEL

        conninfo = self.svc.store.listen_conninfo()
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(
                    conninfo, autocommit=True, connect_timeout=5,
                    application_name=f"parlour-listen-{self.instance}"[:63],
                    keepalives=1, keepalives_idle=5, keepalives_interval=2,
                    keepalives_count=3)
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.listening = True
                    self._poll_now = True
                    log.info("cluster: listening for other processes' events")
                    async for note in conn.notifies():
                        origin, _, rest = note.payload.partition(" ")
                        tid, _, what = rest.partition(" ")
                        if origin == self.instance:
                            continue
                        if tid.startswith("pool:"):  # an entry or a pairing (pools.py)
                            self.pools.heard(tid[5:])
                        elif what == "chat":
                            self._chat_announced(tid)
                        else:
                            self._announced(tid)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("cluster: the LISTEN connection failed (%s); polling", e)
            finally:
                self.listening = False
            await asyncio.sleep(1.0)

    def _announced(self, tid: str) -> None:
        """Another process changed ``tid``: refresh it here if this process has it."""
        t = self.svc.tables.get(tid)
        if t is None or tid in self._pending:
            return
        self._pending.add(tid)

        async def refresh() -> None:
            self._pending.discard(tid)  # an announcement from now on refreshes again
            try:
                await self._refresh(t)
            except Exception as e:  # the database may be briefly away: polling finds it
                log.warning("cluster: table %s not refreshed: %s", tid, e)
                self._poll_now = True

        task = asyncio.create_task(refresh())
        self._refreshing.add(task)
        task.add_done_callback(self._refreshing.discard)

    def _chat_announced(self, tid: str) -> None:
        """Another process stored a chat line at ``tid``: show it here too."""
        t = self.svc.tables.get(tid)
        if t is None:
            return

        async def read() -> None:
            try:
                await self.cardroom.heard(t)
            except Exception as e:  # the database may be briefly away: polling finds it
                log.warning("cluster: chat of table %s not read: %s", tid, e)
                self._poll_now = True

        task = asyncio.create_task(read())
        self._refreshing.add(task)
        task.add_done_callback(self._refreshing.discard)

    async def _loop(self) -> None:
        """Poll for other processes' events (only as a safety net while the ``LISTEN``
        connection is up), keep leases, take over orphaned tables and stand in for seats
        connected nowhere."""
        settings = self.svc.settings
        last_lease = last_presence = last_poll = 0.0
        while True:
            await asyncio.sleep(settings.poll_every)
            now = time.time()
            try:
                if (not self.listening or self._poll_now
                        or now - last_poll >= settings.poll_listening):
                    self._poll_now = False
                    last_poll = now
                    await self._poll()
                if now - last_lease >= settings.lease / 4:
                    last_lease = now
                    self._renew()
                    await self._take_orphans()
                if now - last_presence >= min(1.0, settings.grace / 4):
                    last_presence = now
                    await self._check_presence()
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the database may be briefly away: try next time
                log.warning("cluster upkeep failed: %s", e)

    async def _poll(self) -> None:
        """Tables this process holds that another process changed: read and push them."""
        svc = self.svc
        ids = [tid for tid, t in svc.tables.items()
               if t.status in ("waiting", "playing") or t.conns]
        for tid, version in svc.store.versions(ids).items():
            t = svc.tables.get(tid)
            if t is not None and version != (t.seq, t.updated):
                await self._refresh(t)
        for tid, last in svc.store.last_chat(ids).items():
            t = svc.tables.get(tid)
            if t is not None and last > t.chat_seen:
                await self.cardroom.heard(t)

    async def _refresh(self, t: LiveTable) -> None:
        svc = self.svc
        async with t.lock:
            row, tail = svc.store.get_with_tail(t.id)
            if row is None or (row.seq, row.updated) == (t.seq, t.updated):
                return
            old_seq = t.seq
            t.take(LiveTable.from_row(row, tail))
            await self.intents.drop_revoked(t)  # a seat taken away there is gone here too
            if t.seq != old_seq:
                event = next((e for e in reversed(t.log) if e.get("kind") in ("move", "deal")),
                             None)
                await svc.hub.broadcast(t, "update", event=event)
            else:
                await svc.hub.broadcast(t, "state")
            if t.status != "playing" and t.id in self.owned:
                self.owned.discard(t.id)
                self.clock.cancel(t)
                with contextlib.suppress(Exception):
                    svc.store.release(t.id, self.instance)
            elif self.owns(t):
                self.clock.arm(t, t.resumed_action(svc.settings))

    def _renew(self) -> None:
        svc = self.svc
        held = svc.store.renew(self.instance, time.time() + svc.settings.lease)
        for tid in self.owned - held:  # taken over while this process was away
            log.warning("table lease lost", extra={"table": tid, "instance": self.instance})
            t = svc.tables.get(tid)
            if t is not None and t.timer_task is not None:
                t.timer_task.cancel()
                t.timer_task = None
        self.owned &= held

    async def _take_orphans(self) -> None:
        """Take the lease of every table in play that no live process holds."""
        svc = self.svc
        now = time.time()
        for tid in svc.store.orphans(now):
            if not svc.store.acquire(tid, self.instance, now + svc.settings.lease, now):
                continue
            try:
                t = svc.tables.get(tid)
                if t is None:
                    t = svc.load(tid)
                else:
                    await self._refresh(t)
            except Exception:
                log.exception("table cannot be taken over", extra={"table": tid})
                continue
            self.owned.add(tid)
            log.info("table taken over", extra={"table": tid, "instance": self.instance})
            async with t.lock:
                self.clock.arm(t, t.resumed_action(svc.settings))

    async def _check_presence(self) -> None:
        """Which seats are connected elsewhere; a stand-in for a seat connected nowhere
        for longer than the grace time (the owner decides)."""
        svc = self.svc
        now = time.time()
        ids = [tid for tid, t in svc.tables.items() if t.status in ("waiting", "playing")]
        present = svc.store.present_seats(ids, now, self.instance)
        for tid in ids:
            t = svc.tables.get(tid)
            if t is None:
                continue
            remote = present.get(tid, set())
            if remote != t.remote:
                t.remote = remote
                svc.hub.presence(t)
                self.clock.resume(t)
            if t.status != "playing" or not self.owns(t):
                continue
            for seat, s in enumerate(t.seats):
                if s.kind != "person" or s.auto or t.connected(seat):
                    t.absent.pop(seat, None)
                    continue
                since = t.absent.setdefault(seat, now)
                if now - since >= svc.settings.grace:
                    t.absent.pop(seat, None)
                    async with t.lock:
                        if (t.status == "playing" and not t.seats[seat].auto
                                and not t.connected(seat)):
                            await self.clock.stand_in(t, seat)
