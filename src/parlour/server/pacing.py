"""Newcomers wait while the server is behind, so the people already playing come first.

One server process runs every table on one event loop. When tables arrive faster than
it can seat them (1,000 tables in 10 s in the load test: a table's creation, joins,
four WebSocket handshakes and its deal cost about 5 ms, on top of the moves of the
tables already playing), every move waits behind the newcomers' work. The
:class:`Pacer` measures how late the loop runs (a task that sleeps ``every`` seconds
and notes how late it wakes) and, while it is later than ``lag_ms``, holds table
creation and joining at the door: one at a time, each waiting until the loop has
caught up or ``max_wait`` seconds have passed. Nothing is refused; a newcomer's answer
comes later instead of everyone's moves.
"""

from __future__ import annotations

import asyncio


class Pacer:
    """The door of one server process (settings ``arrival_lag_ms``,
    ``arrival_max_wait``)."""

    def __init__(self, lag_ms: float, max_wait: float, every: float = 0.01) -> None:
        self.limit = lag_ms / 1000
        self.max_wait = max_wait
        self.every = every
        self.late = 0.0
        """How late (seconds) the loop ran at the last two looks, the larger."""
        self.held = 0
        """Newcomers that had to wait, since the start."""
        self._lock: asyncio.Lock | None = None
        self._waiting = 0

    @property
    def behind(self) -> bool:
        return self.limit > 0 and self.late > self.limit

    async def run(self) -> None:
        """Look at the loop every ``every`` seconds (off when ``lag_ms`` is 0)."""
        if self.limit <= 0:
            return
        loop = asyncio.get_running_loop()
        last = 0.0
        while True:
            start = loop.time()
            await asyncio.sleep(self.every)
            now = max(0.0, loop.time() - start - self.every)
            self.late, last = max(now, last), now

    async def admit(self) -> float:
        """Wait at the door if the server is behind (or others are waiting); returns
        the seconds waited."""
        if not self.behind and not self._waiting:
            return 0.0
        loop = asyncio.get_running_loop()
        if self._lock is None:
            self._lock = asyncio.Lock()
        start = loop.time()
        self._waiting += 1
        self.held += 1
        try:
            async with self._lock:  # one at a time: no rush in when the loop catches up
                while self.behind and loop.time() - start < self.max_wait:
                    await asyncio.sleep(self.every)
        finally:
            self._waiting -= 1
        return loop.time() - start
