"""Several client processes for one load run (``parlour loadtest --procs N``).

One Python process drives its sockets on one core; thousands of sockets at human pace
need about a core of their own, so on a machine with more cores the load generator can
split its tables across N processes and stay out of the server's way. Each process
plays its share of the tables (:func:`~parlour.loadtest.clients.run_tables`, arriving
over the same ramp), reports its progress every second and, at the end, its
:class:`~parlour.loadtest.clients.Stats`, its tables (id and whether the game
finished) and its own CPU seconds; :func:`merge` adds the stats up into one. The
processes start together (a barrier after their imports), and ``time.monotonic()`` is
one clock for every process of the machine, so the merged round-trip times line up.
"""

from __future__ import annotations

import dataclasses
import multiprocessing as mp
import queue
import resource
import time
import traceback
from collections import Counter
from collections.abc import Callable
from typing import Any

from parlour.loadtest.clients import Stats, TableRun

MAX_PROCS = 64
"""The most client processes a run may ask for (``--procs``)."""

START_TIMEOUT = 120.0
"""Seconds the client processes may take to start (import) before the run is given up."""


def shares(tables: int, procs: int) -> list[int]:
    """``tables`` split across ``procs`` processes as evenly as possible."""
    return [tables // procs + (1 if i < tables % procs else 0) for i in range(procs)]


def check_procs(procs: int, tables: int) -> str | None:
    """Why ``procs`` client processes cannot play ``tables`` tables (None if they can)."""
    if procs < 1:
        return f"--procs must be at least 1 (got {procs})"
    if procs > MAX_PROCS:
        return f"--procs must be at most {MAX_PROCS} (got {procs})"
    if procs > tables:
        return (f"--procs {procs} is more client processes than tables ({tables}): each "
                f"process plays at least one table")
    return None


def merge(parts: list[Stats]) -> Stats:
    """One :class:`Stats` from several processes': lists joined, counts added, the
    earliest start kept."""
    out = Stats()
    for f in dataclasses.fields(Stats):
        values = [getattr(s, f.name) for s in parts]
        if f.name == "started":
            out.started = min(values) if values else 0.0
        elif isinstance(getattr(out, f.name), list):
            setattr(out, f.name, [x for v in values for x in v])
        elif isinstance(getattr(out, f.name), Counter):
            total: Counter = Counter()
            for v in values:
                total.update(v)
            setattr(out, f.name, total)
        else:
            setattr(out, f.name, sum(values))
    return out


def _child(index: int, urls: list[str], tables: int, kwargs: dict[str, Any],
           out: Any, go: Any) -> None:
    """One client process: wait for the start, play, send the results back."""
    try:
        # imported before the start, not during the run (where it would count as the
        # clients' CPU and delay the first tables)
        import websockets.asyncio.client  # noqa: F401

        from parlour.loadtest.clients import run_tables
        from parlour.loadtest.run import run_sync

        out.put(("ready", index, None))
        go.wait()
        me0 = resource.getrusage(resource.RUSAGE_SELF)
        t0 = time.monotonic()

        def tick(runs: list[TableRun], stats: Stats) -> None:
            done = sum(1 for r in runs if r.seats and all(s.log.done for s in r.seats))
            out.put(("tick", index, (done, stats.moves_acked, sum(stats.errors.values()))))

        runs, stats = run_sync(run_tables(urls, tables, on_tick=tick, **kwargs))
        t1 = time.monotonic()
        me1 = resource.getrusage(resource.RUSAGE_SELF)
        cpu = me1.ru_utime + me1.ru_stime - me0.ru_utime - me0.ru_stime
        out.put(("done", index, (stats, [(r.id, r.finished, r.acked) for r in runs], cpu, t0, t1)))
    except BaseException:  # noqa: BLE001 -- reported to the parent in words
        out.put(("failed", index, traceback.format_exc(limit=5)))


def run_procs(urls: list[str], tables: int, procs: int, kwargs: dict[str, Any],
              on_tick: Callable[[int, int, int], None] | None = None,
              ) -> tuple[list[TableRun], Stats, list[Stats], list[float], float]:
    """Play ``tables`` tables from ``procs`` client processes.

    Returns the tables (``id``, ``finished`` and ``acked`` only: no seats), the merged stats, each
    process's own stats, each process's CPU seconds and the seconds from the common
    start to the last process's end. ``on_tick(done, moves,
    errors)`` is called about every second with the totals so far.
    """
    ctx = mp.get_context("spawn")
    out = ctx.Queue()
    go = ctx.Event()
    seed = kwargs.pop("seed", None)
    children = []
    for i, n in enumerate(shares(tables, procs)):
        mine = {**kwargs, "seed": None if seed is None else seed * 1009 + i}
        p = ctx.Process(target=_child, args=(i, urls, n, mine, out, go), daemon=True,
                        name=f"parlour-loadtest-{i}")
        p.start()
        children.append(p)
    results: dict[int, Any] = {}
    failures: list[str] = []
    ticks: dict[int, tuple[int, int, int]] = {}
    ready: set[int] = set()
    started = time.monotonic()
    limit = START_TIMEOUT
    last = 0.0
    try:
        while len(results) + len(failures) < procs:
            try:
                kind, index, value = out.get(timeout=0.5)
            except queue.Empty:
                kind = None
            if kind == "ready":
                ready.add(index)
                if len(ready) == procs:
                    go.set()
                    started = time.monotonic()
                    limit = kwargs["duration"] + 90.0  # the run's bound, then its wind-down
            elif kind == "tick":
                ticks[index] = value
            elif kind == "done":
                results[index] = value
            elif kind == "failed":
                failures.append(f"client process {index} failed: {value.strip()}")
            gone = [i for i, p in enumerate(children)
                    if not p.is_alive() and i not in results and p.exitcode not in (0, None)]
            for i in gone:
                if not any(f.startswith(f"client process {i} ") for f in failures):
                    failures.append(f"client process {i} exited with status "
                                    f"{children[i].exitcode}")
            if time.monotonic() - started > limit:
                failures.append(f"the client processes did not finish in {limit:.0f} s")
                break
            if on_tick is not None and time.monotonic() - last >= 1.0 and go.is_set():
                last = time.monotonic()
                on_tick(*(sum(t[k] for t in ticks.values()) for k in range(3)))
    finally:
        for p in children:
            p.join(timeout=5)
            if p.is_alive():
                p.kill()
                p.join(timeout=5)
    parts = [results[i][0] for i in sorted(results)]
    stats = merge(parts) if parts else Stats(started=started)
    stats.failures.extend(failures)
    runs = []
    for i in sorted(results):
        for table_id, finished, acked in results[i][1]:
            run = TableRun(urls, stats, deadline=0.0)
            run.id, run.finished, run.acked = table_id, finished, acked
            runs.append(run)
    missing = tables - len(runs)  # the tables of a process that failed: not finished
    for _ in range(missing):
        runs.append(TableRun(urls, stats, deadline=0.0))
    done = [results[i] for i in sorted(results)]
    # the same span as one process's run: from the first start to the last end
    elapsed = max(r[4] for r in done) - min(r[3] for r in done) if done else 0.0
    return runs, stats, parts, [r[2] for r in done], elapsed
