"""The table clock: what the server does by itself, and when.

Each table has at most one planned action (a bot move, a forced pass, a turn timeout,
the next deal) with an absolute deadline stored with its last event, so a restarted
server resumes it on time. Besides that: the grace time of a seat whose player left,
after which a stand-in bot plays for them, and the expiry of idle tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING

from parlour.game import PASS
from parlour.server.db import unavailable
from parlour.server.errors import RETRY_AFTER
from parlour.server.live import Action, LiveTable

if TYPE_CHECKING:
    from parlour.server.service import TableService

log = logging.getLogger("parlour.server")


class TableClock:
    """Timers, stand-ins and expiry for every table of one service."""

    def __init__(self, svc: TableService) -> None:
        self.svc = svc
        self._tasks: list[asyncio.Task] = []

    def start(self) -> None:
        self._tasks = [asyncio.create_task(self._sweep_loop())]

    def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for t in list(self.svc.tables.values()):
            self.cancel(t)

    # --- the planned action -------------------------------------------------------------

    def plan(self, t: LiveTable) -> Action | None:
        """The table's next action; its time is the deadline stored with the next write."""
        action = t.next_action(self.svc.settings)
        t.deadline = action.at if action else None
        return action

    def arm(self, t: LiveTable, action: Action | None) -> None:
        """Schedule the table's next server action (replacing any earlier one)."""
        current = asyncio.current_task()
        if t.timer_task is not None and t.timer_task is not current:
            t.timer_task.cancel()
        t.timer_task = None
        if action is not None and self.svc.owns(t) and not self.svc.closing:
            t.timer_task = asyncio.create_task(self._fire_at(t, action, t.seq))

    def cancel(self, t: LiveTable) -> None:
        """Stop every timer of a table (it expired, or the process is stopping)."""
        if t.timer_task:
            t.timer_task.cancel()
        for task in t.grace_tasks.values():
            task.cancel()
        t.grace_tasks.clear()

    async def _fire_at(self, t: LiveTable, action: Action, seq: int) -> None:
        try:
            delay = action.at - time.time()
            if delay > 0:
                await asyncio.sleep(delay)
            await self.act(t, seq)
        except asyncio.CancelledError:
            pass
        except Exception as e:
            if unavailable(e):
                log.warning("server action at table %s waits for the database: %s", t.id, e)
            else:
                log.exception("server action failed at table %s", t.id)
            if t.seq == seq and not self.svc.closing:  # try again a little later
                with contextlib.suppress(Exception):
                    t.restore()
                action = self.plan(t)
                if action is not None:
                    action.at = max(action.at, time.time() + RETRY_AFTER)
                    t.timer_task = asyncio.create_task(self._fire_at(t, action, t.seq))

    async def act(self, t: LiveTable, seq: int) -> None:
        """Do the table's due action, if the table is still where it was planned."""
        svc = self.svc
        async with t.lock:
            if t.seq != seq or not svc.owns(t):
                return
            action = t.next_action(svc.settings)
            if action is None:
                return
            if action.kind == "deal":
                await svc.writer.deal(t)
                return
            seat = action.seat
            assert seat is not None
            if action.kind == "pass":
                await svc.writer.commit_move(t, seat, PASS, "forced")
                return
            if action.kind == "timeout":
                t.seats[seat].auto = "timeout"
                entry = {"kind": "standin", "seat": seat, "reason": "timeout"}
                t.log.append(entry)
                t.deadline = None
                svc.writer.save(t, config=t.config_json(), log=t.log, deadline=None)
                await svc.hub.broadcast(t, "state", event=entry)
            view = t.match.current.view(seat)  # type: ignore[union-attr]
            bot = t.bot_for(seat)
            by = t.controller(seat)
        move = await asyncio.to_thread(bot.choose, view)
        async with t.lock:
            r = t.match.current if t.match else None
            if (t.seq != seq or r is None or r.current_player != seat
                    or t.controller(seat) == "person" or not svc.owns(t)):
                if t.seq == seq:  # the player came back in the meantime
                    self.arm(t, self.plan(t))
                return
            if r.why_illegal(move) is not None:
                log.error("bot %s chose an illegal move at table %s", bot, t.id)
                move = r.legal_moves()[0]
            await svc.writer.commit_move(t, seat, move, by)

    # --- absent players -------------------------------------------------------------------

    def start_grace(self, t: LiveTable, seat: int) -> None:
        old = t.grace_tasks.pop(seat, None)
        if old:
            old.cancel()
        t.grace_until[seat] = time.time() + self.svc.settings.grace
        t.grace_tasks[seat] = asyncio.create_task(self._grace(t, seat))

    def end_grace(self, t: LiveTable, seat: int) -> None:
        t.grace_until.pop(seat, None)
        task = t.grace_tasks.pop(seat, None)
        if task:
            task.cancel()

    async def _grace(self, t: LiveTable, seat: int) -> None:
        """After the grace time, a stand-in bot plays for a seat still disconnected."""
        await asyncio.sleep(self.svc.settings.grace)
        async with t.lock:
            t.grace_tasks.pop(seat, None)
            t.grace_until.pop(seat, None)
            s = t.seats[seat]
            if t.connected(seat) or t.status != "playing" or s.auto:
                return
            await self.stand_in(t, seat)

    async def stand_in(self, t: LiveTable, seat: int) -> None:
        """A stand-in bot plays for a disconnected seat (under the lock)."""
        t.seats[seat].auto = "disconnected"
        entry = {"kind": "standin", "seat": seat, "reason": "disconnected"}
        t.log.append(entry)
        action = self.plan(t)
        try:
            self.svc.writer.save(t, config=t.config_json(), log=t.log, deadline=t.deadline)
        except Exception as e:
            log.warning("stand-in at table %s not saved: %s", t.id, e)
            return
        await self.svc.hub.broadcast(t, "state", event=entry)
        self.arm(t, action)

    # --- expiry ---------------------------------------------------------------------------

    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(self.svc.settings.sweep_every)
            try:
                await self.sweep()
            except Exception:
                log.exception("sweep failed")

    async def sweep(self, now: float | None = None) -> list[str]:
        """Expire open tables idle for longer than ``idle_expiry`` with nobody connected."""
        svc = self.svc
        now = time.time() if now is None else now
        expired = []
        for tid in svc.store.idle(now - svc.settings.idle_expiry):
            t = svc.tables.get(tid)
            if t is not None and t.conns:
                continue
            svc.store.set(tid, status="expired", deadline=None)
            expired.append(tid)
            if t is not None:
                self.cancel(t)
                t.status = "expired"
                svc.tables.pop(tid, None)
        for tid, t in list(svc.tables.items()):
            if t.status == "over" and not t.conns:
                svc.tables.pop(tid, None)
        return expired
