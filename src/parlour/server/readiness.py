"""``/readyz``: is this process ready for players (database answers, bot workers up)?

``/healthz`` says the process is alive; this says whether a load balancer should send
it players. The database is asked (``SELECT 1``) at most every ``ready_every``
seconds, whatever the number of checks, so the endpoint costs nothing under load.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from sqlalchemy import text

from parlour.server.settings import Settings

log = logging.getLogger("parlour.server")


def _ping(engine: Any) -> None:
    with engine.connect() as c:
        c.execute(text("SELECT 1"))


class Readiness:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._at = -1e9
        self._answer: str | None = "starting"
        self._lock = asyncio.Lock()

    async def check(self, service: Any) -> str | None:
        """``None`` when ready, else the reason in words."""
        if service is None:
            return "the server is starting"
        async with self._lock:
            if time.monotonic() - self._at >= self.settings.ready_every:
                self._answer = await self._ask(service)
                self._at = time.monotonic()
            return self._answer

    async def _ask(self, service: Any) -> str | None:
        wait = max(1.0, 4 * self.settings.db_timeout)
        try:
            await asyncio.wait_for(asyncio.to_thread(_ping, service.store.engine), wait)
        except Exception as e:  # noqa: BLE001 -- any failure means not ready
            log.warning("not ready: the database does not answer",
                        extra={"reason": type(e).__name__})
            return "the database does not answer"
        if not service.pool.ready:
            return "the bot workers are starting"
        return None
