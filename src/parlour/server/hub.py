"""Connections and delivery: every outgoing message is rendered by :mod:`views`.

A :class:`Connection` is one WebSocket, bound after its ``hello`` to one table as a
seat or as a spectator. :class:`Hub` is the only code that sends: the views render the
messages of every connection concerned (:func:`views.messages`), then
:meth:`Hub.deliver` queues each on its connection.

Each connection holds the state it was last brought to (``base``, version ``v``): a
``welcome`` or ``snapshot`` sends it whole, every later change only its delta from
``base`` (:mod:`parlour.delta`). Connections of one audience that hold the same state
share one rendered and encoded message.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from parlour.server import metrics
from parlour.server.limits import RateLimiter
from parlour.server.live import LiveTable
from parlour.server.settings import Settings
from parlour.server.views import Audience, messages

log = logging.getLogger("parlour.server")

try:
    import orjson

    def encode(payload: dict[str, Any]) -> str:
        return orjson.dumps(payload).decode("utf-8")
except ImportError:  # pragma: no cover -- orjson is a dependency
    import json

    def encode(payload: dict[str, Any]) -> str:
        return json.dumps(payload, separators=(",", ":"), ensure_ascii=False)


Observer = Callable[[LiveTable | None, Audience, dict[str, Any]], None]
"""Called with every message just before it is sent (tests check what each seat sees)."""


MAX_BACKLOG = 200
"""Messages a connection may have waiting to be written before it counts as gone: a
client that stops reading is dropped, never allowed to hold up its table."""


class Connection:
    """One client socket. ``seat`` is None for spectators and before ``hello``.

    Outgoing messages go through a queue and a writer task of their own, so a
    broadcast never waits for a slow or stuck reader (which, under the table's lock,
    would hold up everyone at the table).
    """

    def __init__(self, ws: Any, settings: Settings, addr: str = "local") -> None:
        self.ws = ws
        self.addr = addr
        self.counted = False
        self.greeted = False
        self.table: LiveTable | None = None
        self.seat: int | None = None
        self.role: str | None = None
        self.token_hash: str | None = None
        """The hash of the seat token this connection said hello with: when the seat's
        token changes (a rejoin, release or leave, here or on another process) the
        connection no longer holds the seat."""
        self.limiter = RateLimiter(settings.rate_per_second, settings.rate_burst)
        self.syncs = RateLimiter(settings.sync_per_minute / 60.0, settings.sync_burst)
        """Whole-state requests: a snapshot costs far more than the message asking."""
        self.bad_hellos = 0
        self.speech: tuple[str, str] = ("en", "game")
        """The reader's language and card-name style (cookies ``parlour_lang`` and
        ``parlour_cards``, else Accept-Language): what refusals are worded in."""
        self.player: str | None = None
        """The player behind the socket (its cookie, else the seat's owner): set at
        ``hello`` (server/social.py)."""
        self.hidden: frozenset[str] = frozenset()
        """Tags of the players this one blocked: their chat lines never go out here."""
        self.closed = False
        self.base: dict[str, Any] | None = None
        """The state this client holds (as last sent); never changed, only replaced."""
        self.v = 0
        """The version of ``base``: each message that carries state counts one up."""
        self._queue: asyncio.Queue[str | tuple[int, str]] = asyncio.Queue()
        self._writer: asyncio.Task | None = None

    @property
    def audience(self) -> Audience:
        return self.seat if self.role == "seat" else None

    async def write(self, payload: dict[str, Any], text: str | None = None) -> None:
        """Queue a message (``text``: the payload already encoded); returns at once."""
        if self.closed:
            return
        if self._queue.qsize() >= MAX_BACKLOG:
            log.warning("a client stopped reading (%d messages waiting): dropped",
                        self._queue.qsize())
            self.closed = True
            if self._writer is not None:
                self._writer.cancel()  # stuck in a send that may never return
            self._queue = asyncio.Queue()
            self._queue.put_nowait((1008, "too slow: messages were not read"))
            self._writer = asyncio.create_task(self._drain())
            return
        self._queue.put_nowait(encode(payload) if text is None else text)
        self._start()

    def _start(self) -> None:
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._drain())

    async def _drain(self) -> None:
        while not self._queue.empty():
            item = self._queue.get_nowait()
            try:
                if isinstance(item, tuple):
                    await self.ws.close(code=item[0], reason=item[1])
                    return
                await self.ws.send_text(item)
            except Exception:  # the peer went away; the read loop cleans up
                self.closed = True
                return

    async def close(self, code: int, reason: str = "", timeout: float = 5.0) -> None:
        """Send what is queued, then close the socket with ``code``."""
        if not self.closed:
            self.closed = True
            self._queue.put_nowait((code, reason))
            self._start()
        writer = self._writer
        if writer is not None and not writer.done():
            try:
                await asyncio.wait_for(asyncio.shield(writer), timeout)
            except Exception:  # noqa: BLE001 -- a peer that does not read: give up
                writer.cancel()

    def stop(self) -> None:
        """The socket is gone: drop whatever is still queued."""
        self.closed = True
        if self._writer is not None and not self._writer.done():
            self._writer.cancel()


class Hub:
    """Renders and sends messages; the observers see exactly what is sent."""

    def __init__(self, presence_every: float = 0.25) -> None:
        self.observers: list[Observer] = []
        self.presence_every = presence_every
        self._presence_due: set[str] = set()
        self._tasks: set[asyncio.Task] = set()

    def presence_pending(self, table_id: str) -> bool:
        """Whether a presence message for the table is still to be queued."""
        return table_id in self._presence_due

    def presence(self, t: LiveTable) -> None:
        """Tell the table who is connected, once per ``presence_every`` at most: the
        connects and disconnects of that time go out as one small message."""
        if t.id in self._presence_due:
            return
        self._presence_due.add(t.id)

        async def later() -> None:
            try:
                await asyncio.sleep(self.presence_every)
                async with t.lock:  # never a change whose write is still under way
                    await self.broadcast(t, "presence")
            finally:
                self._presence_due.discard(t.id)

        task = asyncio.get_running_loop().create_task(later())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def send(self, t: LiveTable | None, conn: Connection, kind: str,
                   cache: dict[Any, Any] | None = None, **data: Any) -> None:
        if t is None:  # before hello: only errors, with nothing of any table in them
            payload = {"type": "error", "code": data["code"], "message": data["message"]}
            for obs in self.observers:
                obs(t, None, payload)
            await conn.write(payload)
            return
        await self.deliver(t, messages(t, kind, [conn], cache, **data))

    async def deliver(self, t: LiveTable,
                      sent: list[tuple[Connection, dict[str, Any], dict[str, Any] | None]]
                      ) -> None:
        """Queue each message the views rendered on its connection (all of them were
        rendered first): its state becomes what the connection holds, and connections
        given one message share its encoding."""
        texts: dict[int, str] = {}
        for conn, payload, state in sent:
            if state is not None:
                conn.base, conn.v = state, payload["v"]
            text = texts.get(id(payload))
            if text is None:
                text = texts[id(payload)] = encode(payload)
            for obs in self.observers:
                obs(t, conn.audience, payload)
            await conn.write(payload, text)

    async def error(self, conn: Connection, code: str, message: str, **more: Any) -> None:
        metrics.refused(code)
        await self.send(conn.table, conn, "error", code=code, message=message, **more)

    async def broadcast(self, t: LiveTable, kind: str, *, exclude: Connection | None = None,
                        **data: Any) -> None:
        """Every connection of the table but ``exclude``: the views render them all,
        then each is queued (what every audience shares is built once)."""
        readers = [c for c in list(t.conns) if c is not exclude]
        await self.deliver(t, messages(t, kind, readers, {}, **data))
