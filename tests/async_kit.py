"""Running a coroutine from a test, whatever else this pytest worker runs."""

from __future__ import annotations

import asyncio
import concurrent.futures
from typing import Any


def run_async(coro: Any) -> Any:
    """``asyncio.run(coro)`` in a thread of its own.

    Another test's session fixture (Playwright's sync API in tests/browser) may keep an
    event loop running in this worker's main thread, and ``asyncio.run`` refuses to start
    a second one there; which tests share a worker depends on pytest-xdist's scheduling.
    """
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()
