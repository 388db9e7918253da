"""When the server's garbage collector runs, so that it never pauses every table at once.

Python's collector decides when to look at young objects by counting allocations
*less deallocations*. On a busy server each move allocates the new states of four seats
and frees the previous ones, which by then are old: the count barely moves while the
young generation fills with live states, and when a pass finally runs it walks a
hundred thousand of them (measured at 1,000 tables: a pass over the young objects every
two seconds, each 60-150 ms, finding nothing to free; that was the whole tail of the
move round trip once the tables had arrived).

Nothing a move allocates is cyclic (the states are trees of dicts and lists that
reference counting frees); the cycles come from connections (uvicorn's protocol and
transport objects). So the :class:`Collector` moves everything alive out of the
collector's reach every ``gc_freeze_every`` seconds (:func:`gc.freeze`, which costs the
same whatever the heap's size) and gives it all one full pass, to reclaim cyclic
garbage, every ``gc_full_every`` seconds, or sooner (but not within ``gc_full_min``
seconds of the last) when the process's resident memory has grown by
``gc_full_grow_mb`` since the last. (Memory, not the frozen objects' number: counting
those walks a list of millions of objects.) A full pass over the 1,000 tables' 350 MB
pauses the server for about a second, so it comes once in ten minutes, not every two
seconds.
"""

from __future__ import annotations

import asyncio
import gc
import os
import time
from collections.abc import Callable

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def resident_bytes() -> int:
    """This process's resident memory (0 where ``/proc`` is not there: then only the
    clock brings full passes)."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return 0


class Collector:
    """The freeze-and-full-pass schedule of one server process."""

    def __init__(self, freeze_every: float, full_every: float, full_grow_mb: float,
                 full_min: float, clock: Callable[[], float] = time.monotonic,
                 memory: Callable[[], int] = resident_bytes) -> None:
        self.freeze_every = freeze_every
        self.full_every = full_every
        self.full_grow = full_grow_mb * 1024 * 1024
        self.full_min = full_min
        self.clock = clock
        self.memory = memory
        self.last_full = clock()
        self.base = memory()
        """Resident bytes right after the last full pass (0: unknown)."""
        self.full_passes = 0

    def full_due(self, now: float, resident: int) -> bool:
        """Whether a full pass is due, the process holding ``resident`` bytes now."""
        since = now - self.last_full
        if since >= self.full_every:
            return True
        return (since >= self.full_min and self.base > 0
                and resident > self.base + self.full_grow)

    def step(self) -> bool:
        """Freeze what is alive; run a full pass if one is due. True if one ran."""
        gc.freeze()
        now = self.clock()
        if not self.full_due(now, self.memory()):
            return False
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.base = self.memory()
        self.last_full = now
        self.full_passes += 1
        return True

    async def run(self) -> None:
        """Step every ``freeze_every`` seconds; with 0, leave Python's own schedule."""
        if self.freeze_every <= 0:
            return
        while True:
            await asyncio.sleep(self.freeze_every)
            self.step()
