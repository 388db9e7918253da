"""The table clock: what the server does by itself, and when.

Each table has at most one planned action (a bot move, a forced pass, a turn timeout,
the next deal) with an absolute deadline stored with its last event, so a restarted
server resumes it on time. Besides that: the grace time of a seat whose player left,
after which a stand-in bot plays for them, and the expiry of idle tables.

A correspondence table (``days`` for each move) is played between visits: its players
are absent most of the time, so no grace time runs there; the stand-in plays only when
a move's days run out (the turn timer, with its stored deadline), and the table does
not expire while its move clock runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING

from parlour.bots import make_bot
from parlour.bots.levels import time_limit
from parlour.game import PASS, Move
from parlour.server.db import unavailable
from parlour.server.errors import RETRY_AFTER
from parlour.server.live import Action, LiveTable
from parlour.server.thinking import BOTS_ONLY, PEOPLE, WorkFailed

if TYPE_CHECKING:
    from parlour.server.core import Core
    from parlour.server.push import Pusher
    from parlour.server.roles import Coordination
    from parlour.server.writes import Writer

log = logging.getLogger("parlour.server")

FALLBACK_BOT = "random"
"""Plays when a bot's decision fails or runs over the budget (every game has it)."""


class TableClock:
    """Timers, stand-ins and expiry for every table of one service."""

    # Sibling parts, handed over by the service (TableService.__init__).
    writer: Writer
    push: Pusher
    coord: Coordination

    def __init__(self, svc: Core) -> None:
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
        return t.plan(self.svc.settings)

    def arm(self, t: LiveTable, action: Action | None) -> None:
        """Schedule the table's next server action (replacing any earlier one)."""
        current = asyncio.current_task()
        if t.timer_task is not None and t.timer_task is not current:
            t.timer_task.cancel()
        t.timer_task = None
        if action is not None and self.svc.owns(t) and not self.svc.closing:
            t.timer_task = asyncio.create_task(self._fire_at(t, action, t.seq))
        r = t.match.current if t.match is not None and t.status == "playing" else None
        if r is not None and not r.is_over:
            p = r.current_player
            if t.controller(p) == "person" and not t.connected(p) and p not in t.grace_tasks:
                self.coord.turn_of_absent(t, p)  # a seat that never came, or left
            if t.controller(p) == "person" and not t.connected(p) and not t.forced_pass(r):
                self.push.turn(t, p)  # a closed browser hears of it (web_push)

    def cancel(self, t: LiveTable) -> None:
        """Stop every timer of a table (it expired, or the process is stopping)."""
        if t.timer_task:
            t.timer_task.cancel()
        for task in t.grace_tasks.values():
            task.cancel()
        t.grace_tasks.clear()

    async def _fire_at(self, t: LiveTable, action: Action, seq: int) -> None:
        """Wait for the action's time, then do it. A bot thinks *before* the time (in the
        pool) and moves at it, so a quick decision, a slow one and a pass all arrive
        ``bot_delay`` after the last move (FT-5: nothing tells a forced pass apart)."""
        try:
            if t.bots_only and not t.watched:
                self.pause(t)
                return
            move = None
            at = action.at
            if action.kind == "bot" and action.seat is not None:
                move = await self._think(t, action.seat, seq)
                at = self.release_at(t, action, move)
            delay = at - time.time()
            if delay > 0:
                await asyncio.sleep(delay)
            await self.act(t, seq, move)
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

    def release_at(self, t: LiveTable, action: Action, move: Move | None) -> float:
        """When a bot's decided move is made. A move comes ``bot_delay`` after the last
        one, or when the bot has decided if that is later. Where a pass may hold back a
        playable card (``Game.public_passes``), a search bot searches before a pass it chose
        but not before one it had to make, so the time of a pass would tell them apart:
        there every pass by a bot waits until the bot's time
        limit has run out, the end of the longest decision it may take. Plays are not
        held (what was played is public)."""
        if move != PASS or action.seat is None or not t.private_passes:
            return action.at
        settings = self.svc.settings
        name, _ = t.bot_spec(action.seat)
        limit = time_limit(name)
        if limit is None:  # a search without a time limit: the pool's own cap
            limit = settings.bot_move_seconds
        if t.bots_only:  # every search there runs on this budget
            limit = min(limit, settings.bots_only_move_seconds)
        return action.at + max(0.0, limit - settings.bot_delay)

    async def _think(self, t: LiveTable, seat: int, seq: int) -> Move | None:
        """The move the seat's bot makes now, from the worker pool; a quick bot's move
        if the pool fails or runs over the budget; None if the table moved on."""
        async with t.lock:
            r = t.match.current if t.match else None
            if t.seq != seq or r is None or r.current_player != seat:
                return None
            view = r.view(seat)
            earlier = t.earlier_views(seat)
            name, seed = t.bot_spec(seat)
        if t.seeded:  # a test table: one random stream per seat, in this process
            bot = t.bot_for(seat)
            bot.remember(earlier)
            return await asyncio.to_thread(bot.choose, view)
        try:
            if t.bots_only:  # last in the queue, on a quick budget
                return await self.svc.pool.run(BOTS_ONLY, "choose", t.game.name, name, seed,
                                               view, self.svc.settings.bots_only_move_seconds,
                                               earlier)
            return await self.svc.pool.run(PEOPLE, "choose", t.game.name, name, seed, view,
                                           None, earlier)
        except (TimeoutError, WorkFailed) as e:
            log.warning("bot %s at table %s: %s; a quick bot moves instead", name, t.id, e)
            return make_bot(FALLBACK_BOT, t.game.name, seed).choose(view)

    def pause(self, t: LiveTable) -> None:
        """A table of bots only that nobody watches stops until someone does."""
        if t.paused is None:
            t.paused = time.time()

    def resume(self, t: LiveTable) -> None:
        """Someone watches a paused table: its bots go on."""
        if t.paused is not None:
            t.paused = None
            self.arm(t, self.plan(t))

    async def act(self, t: LiveTable, seq: int, move: Move | None = None) -> None:
        """Do the table's due action, if the table is still where it was planned
        (``move``: the bot's decision, if it was made ahead)."""
        svc = self.svc
        async with t.lock:
            if t.seq != seq or not svc.owns(t):
                return
            action = t.next_action(svc.settings)
            if action is None:
                return
            if action.kind == "deal":
                await self.writer.deal(t)
                return
            seat = action.seat
            assert seat is not None
            if action.kind == "pass":
                await self.writer.commit_move(t, seat, PASS, "forced")
                return
            if action.kind == "timeout":
                t.seats[seat].auto = "timeout"
                entry = {"kind": "standin", "seat": seat, "reason": "timeout"}
                t.log.append(entry)
                t.deadline = None
                self.writer.save(t, config=t.config_json(), log=t.log, deadline=None)
                await svc.hub.broadcast(t, "state", event=entry)
                move = None
            by = t.controller(seat)
        if move is None:
            move = await self._think(t, seat, seq)
            if move is None:
                return
        async with t.lock:
            r = t.match.current if t.match else None
            if (t.seq != seq or r is None or r.current_player != seat
                    or t.controller(seat) == "person" or not svc.owns(t)):
                if t.seq == seq:  # the player came back in the meantime
                    self.arm(t, self.plan(t))
                return
            if r.why_illegal(move) is not None:
                log.error("bot at table %s chose an illegal move", t.id)
                move = r.legal_moves()[0]
            await self.writer.commit_move(t, seat, move, by)

    # --- absent players -------------------------------------------------------------------

    def start_grace(self, t: LiveTable, seat: int) -> None:
        if t.days:  # between visits absence is normal: only the move clock counts
            self.svc.hub.presence(t)
            return
        old = t.grace_tasks.pop(seat, None)
        if old:
            old.cancel()
        t.grace_until[seat] = time.time() + self.svc.settings.grace
        t.grace_tasks[seat] = asyncio.create_task(self._grace(t, seat))
        self.svc.hub.presence(t)  # every page counts the same stand-in time down

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
        """A stand-in bot plays for a disconnected seat (under the lock); never at a
        correspondence table, whose players come and go between moves."""
        if t.days:
            return
        t.seats[seat].auto = "disconnected"
        entry = {"kind": "standin", "seat": seat, "reason": "disconnected"}
        t.log.append(entry)
        action = self.plan(t)
        try:
            self.writer.save(t, config=t.config_json(), log=t.log, deadline=t.deadline)
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
        """Expire open tables idle for longer than ``idle_expiry`` with nobody connected
        (``waiting_expiry`` for tables whose game has not started, with no seat
        connected), and tables of bots only unwatched for longer than ``unwatched_expiry``; delete
        finished and expired tables older than ``retention``. Returns the expired ids."""
        svc = self.svc
        settings = svc.settings
        now = time.time() if now is None else now
        expired = []
        stale = set(svc.store.idle(now - settings.idle_expiry))
        waiting = set(svc.store.idle(now - settings.waiting_expiry, ("waiting",)))
        # A table not started yet is kept only while a person sits at it connected (on
        # any process): spectators do not keep it (nor anyone an idle table in play).
        waiting -= svc.store.attended(sorted(waiting), now) if settings.cluster else set()
        for tid in sorted(stale | waiting):
            t = svc.tables.get(tid)
            if t is not None and (any(c.seat is not None for c in t.conns)
                                  or (tid not in waiting and t.conns)):
                continue
            if self._between_visits(tid, t, now):
                continue
            self._expire(tid, t)
            expired.append(tid)
        for tid, t in list(svc.tables.items()):
            if (t.status == "playing" and t.paused is not None and not t.watched
                    and now - t.paused >= settings.unwatched_expiry and svc.owns(t)):
                self._expire(tid, t)
                expired.append(tid)
        for tid, t in list(svc.tables.items()):
            if t.status == "over" and not t.conns:
                svc.tables.pop(tid, None)
        gone = svc.store.delete_finished(now - settings.retention)
        for tid in gone:
            svc.tables.pop(tid, None)
        return expired

    def _between_visits(self, tid: str, t: LiveTable | None, now: float) -> bool:
        """A correspondence table idle for less than its days for a move (plus the
        usual idle time): it waits for a player who comes back, or for its clock."""
        if t is not None:
            days, updated = t.days, t.updated
        else:
            row = self.svc.store.get(tid)
            if row is None:
                return False
            days, updated = (row.config or {}).get("days"), row.updated
        return bool(days) and now - updated < days * 86_400 + self.svc.settings.idle_expiry

    def _expire(self, tid: str, t: LiveTable | None) -> None:
        self.svc.store.set(tid, status="expired", deadline=None)
        if t is not None:
            self.cancel(t)
            t.status = "expired"
            self.svc.tables.pop(tid, None)
