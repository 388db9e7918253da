"""Who is online: players with a live connection or an open page, the same answer from
every process of a cluster.

A player is online while one of these was heard within ``online_window`` seconds:

* an open WebSocket of a table page (marked at ``hello``, then again by every process
  for each player it holds a socket of, every third of the window: :meth:`Presence.run`);
* the page's heartbeat (``POST /api/here``, sent while a tab is visible);
* the page asking for its friends or acting on people (``social_api.py``).

Each mark is a row of ``seen`` (player id, when) in the database, so a process that
holds no socket of a player still answers for them. A closed socket is not written
down: its player simply stops being marked and goes offline when the window runs out.
The clock is :attr:`Presence.clock` (tests put a fake one there).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError

from parlour.server import people
from parlour.server.social_rows import SEEN

if TYPE_CHECKING:
    from parlour.server.core import Core

log = logging.getLogger("parlour.server")

MARK_EVERY = 20.0
"""Seconds between two writes of one player's mark by one process (at most)."""


class Presence:
    """Marks and reads who is online, for one service."""

    def __init__(self, svc: Core) -> None:
        self.svc = svc
        self.engine = svc.store.engine
        self.clock: Callable[[], float] = time.time
        self._marked: dict[str, float] = {}

    @property
    def window(self) -> float:
        return self.svc.settings.online_window

    @property
    def every(self) -> float:
        """How often a live connection's player is marked again (and the page's
        heartbeat is sent): a third of the window, so one missed beat loses nothing."""
        return max(1.0, self.window / 3)

    # --- marking ----------------------------------------------------------------------

    def mark(self, players: Iterable[str | None], force: bool = False) -> None:
        """These players are here now (each written at most every ``MARK_EVERY`` s, or
        every third of the window when that is shorter, unless ``force``)."""
        now = self.clock()
        gap = min(MARK_EVERY, self.every)
        due = sorted({p for p in players if p and (force or now - self._marked.get(p, -1e18)
                                                  >= gap)})
        if not due:
            return
        if len(self._marked) > 50_000:
            self._marked.clear()
        for p in due:
            self._marked[p] = now
        for k in range(0, len(due), 500):
            self._write(due[k:k + 500], now)

    def _write(self, ids: list[str], now: float) -> None:
        with self.engine.begin() as c:
            c.execute(update(SEEN).where(SEEN.c.player_id.in_(ids)).values(at=now))
            have = {r[0] for r in c.execute(select(SEEN.c.player_id)
                                            .where(SEEN.c.player_id.in_(ids)))}
            new = [{"player_id": p, "at": now} for p in ids if p not in have]
            if not new:
                return
            try:
                with c.begin_nested():
                    c.execute(insert(SEEN), new)
            except IntegrityError:  # another process marked one of them first
                c.execute(update(SEEN).where(SEEN.c.player_id.in_([n["player_id"]
                                                                   for n in new]))
                          .values(at=now))

    def connected(self) -> set[str]:
        """The players this process holds a live socket of (by their cookie, else by
        the owner of the seat the socket holds)."""
        out: set[str] = set()
        for t in list(self.svc.tables.values()):
            for conn in list(t.conns):
                who = getattr(conn, "player", None)
                if who:
                    out.add(who)
        return out

    def refresh(self) -> None:
        """Mark every player with a live socket here (one write for them all)."""
        self.mark(self.connected(), force=True)

    async def run(self) -> None:
        """Mark the players of the live sockets every third of the window, for good."""
        while True:
            await asyncio.sleep(self.every)
            try:
                await asyncio.to_thread(self.refresh)
            except Exception as e:  # noqa: BLE001 -- the database may be away a while
                log.warning("presence not written: %s", e)

    # --- reading ----------------------------------------------------------------------

    def online(self, ids: Iterable[str]) -> set[str]:
        """Which of these players are online now (over every process)."""
        ids = list(ids)
        if not ids:
            return set()
        since = self.clock() - self.window
        with self.engine.connect() as c:
            return {r[0] for r in c.execute(select(SEEN.c.player_id).where(
                SEEN.c.player_id.in_(ids), SEEN.c.at >= since))}

    def count(self) -> int:
        """How many players are online now (over every process)."""
        since = self.clock() - self.window
        with self.engine.connect() as c:
            return int(c.scalar(select(func.count()).select_from(SEEN)
                                .where(SEEN.c.at >= since)) or 0)

    def greet(self, conn: object, seat_owner: Callable[[], str | None]) -> None:
        """A socket said hello: its player (``conn.player``) is marked online now."""
        who = getattr(conn, "player", None)
        if who is None:
            with contextlib.suppress(Exception):
                who = seat_owner()
            conn.player = who  # type: ignore[attr-defined]
        if who:
            self.mark([who], force=True)


def seat_owner(svc: Core, table_id: str, seat: int | None) -> Callable[[], str | None]:
    """The player who took a seat (a socket without a cookie: the terminal client)."""
    def find() -> str | None:
        if seat is None:
            return None
        owner = people.seat_owners(svc.store.engine, table_id).get(seat)
        return owner["player_id"] if owner else None
    return find


__all__ = ["MARK_EVERY", "Presence", "seat_owner"]
