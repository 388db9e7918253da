"""Bot thinking in a bounded pool of worker processes, with fair scheduling.

The server's event loop never runs a search: bot moves, hints and record checks go to
at most ``bot_workers`` worker processes (real processes, so a search never holds the
server's GIL). Jobs wait in one queue ordered by class, then arrival:

* ``PEOPLE`` -- a bot or stand-in move at a table where people play: first, on any
  worker;
* ``ASKED`` -- a hint or a record check someone waits for;
* ``BOTS_ONLY`` -- a move at a table of bots only.

Jobs of the last two classes occupy at most ``bot_workers - 1`` workers at once (at
least one, and one fewer than the workers ready while others start), so a worker is
always free for the tables with people. Each job may run
for ``bot_move_seconds``; a worker over it is killed and replaced, and the caller gets
:class:`TimeoutError` (a bot move then falls back to a quick bot). Every worker starts with
the server, side by side, and takes jobs once it has loaded the engines; a worker lost
is replaced at once; if workers keep dying before they are ready, they are replaced
one at a time, and after three in a row waiting jobs fail (:class:`WorkFailed`).
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import multiprocessing
import os
import signal
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("parlour.server")

PEOPLE, ASKED, BOTS_ONLY = 0, 1, 2
WORKER_NICE = 5
"""Workers run at a lower CPU priority than the server process."""


class WorkFailed(RuntimeError):
    """The job raised in the worker, or the worker died."""


BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
"""The thread-count variables of numpy's math libraries, each set to 1 in a worker."""


def _worker_main(conn: Any) -> None:
    """A worker process: run jobs from the pipe until it closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server stops its workers itself
    # One math-library thread: a bot's numpy work is small matrices (the learned
    # player model), where extra threads only spin and take the cores the tables need.
    # Set before numpy is first imported in this (spawned) process.
    for name in BLAS_THREADS:
        os.environ.setdefault(name, "1")
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICE)  # the server's event loop (every table's I/O) comes first
    from parlour.server.work import JOBS

    with contextlib.suppress(Exception):
        JOBS["warm"]()
    try:
        conn.send(("ready", None))
    except (BrokenPipeError, OSError):
        return
    while True:
        try:
            job, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            result = ("ok", JOBS[job](*args))
        except Exception as e:  # reported to the server, which decides
            result = ("err", f"{type(e).__name__}: {e}")
        try:
            conn.send(result)
        except (BrokenPipeError, OSError):
            return


@dataclass(order=True)
class _Job:
    priority: int
    order: int
    name: str = field(compare=False)
    args: tuple = field(compare=False)
    future: asyncio.Future = field(compare=False)


class _Worker:
    def __init__(self, ctx: Any) -> None:
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_worker_main, args=(child,), daemon=True,
                                   name="parlour-thinker")
        self.process.start()
        child.close()
        self.job: _Job | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.ready = False

    def kill(self) -> None:
        with contextlib.suppress(Exception):
            self.conn.close()
        with contextlib.suppress(Exception):
            self.process.kill()
        with contextlib.suppress(Exception):
            self.process.join(1)


class ThinkPool:
    """The pool (see the module's docstring)."""

    def __init__(self, workers: int, seconds: float) -> None:
        self.size = workers
        self.seconds = seconds
        self.low_limit = max(1, workers - 1)
        self._queue: list[_Job] = []
        self._order = itertools.count()
        self._workers: list[_Worker] = []
        self._idle: list[_Worker] = []
        self._ctx = multiprocessing.get_context("spawn")
        self.closed = False
        self.stillborn = 0
        """Workers in a row that died before they were ready."""
        self.stats = {"done": 0, "timeouts": 0, "failed": 0}

    @property
    def waiting(self) -> int:
        return sum(1 for j in self._queue if not j.future.done())

    async def run(self, priority: int, name: str, *args: Any) -> Any:
        """Run job ``name`` (see :mod:`parlour.server.work`) and return its result."""
        if self.closed:
            raise WorkFailed("the server is stopping")
        if self.size <= 0:  # no workers: a thread of this process (tests, debugging)
            from parlour.server.work import JOBS

            return await asyncio.wait_for(asyncio.to_thread(JOBS[name], *args), self.seconds)
        future = asyncio.get_running_loop().create_future()
        heapq.heappush(self._queue, _Job(priority, next(self._order), name, args, future))
        self._dispatch()
        return await future

    def _running_low(self) -> int:
        return sum(1 for w in self._workers if w.job is not None and w.job.priority > PEOPLE)

    def _low_slots(self) -> int:
        """Workers the last two classes may occupy: ``bot_workers - 1`` (at least one),
        and while some workers are still starting (or being replaced), one fewer than
        are ready, so one ready worker stays free for tables with people."""
        if self.size <= 1:
            return 1
        ready = sum(1 for w in self._workers if w.ready)
        return min(self.low_limit, max(0, ready - 1))

    def _dispatch(self) -> None:
        while self._queue:
            job = self._queue[0]
            if job.future.done():  # the caller gave up while it waited
                heapq.heappop(self._queue)
                continue
            if job.priority > PEOPLE and self._running_low() >= self._low_slots():
                return  # the next job waits for a low-class slot; PEOPLE jobs sort first
            worker = self._idle.pop() if self._idle else None
            if worker is None:
                if len(self._workers) < self.size and (self.stillborn == 0 or all(
                        w.ready for w in self._workers)):
                    self._spawn()  # a replacement (one at a time while workers die young)
                return
            heapq.heappop(self._queue)
            self._start(worker, job)

    def start(self) -> None:
        """Start every worker now, side by side (each loads the engines while nobody
        waits; one at a time, the last would be ready only after all the others)."""
        while 0 < self.size > len(self._workers) and not self.closed:
            self._spawn()

    @property
    def ready(self) -> bool:
        """Every worker has loaded the engines (or bots think in this process)."""
        return self.size <= 0 or (len(self._workers) >= self.size
                                  and all(w.ready for w in self._workers))

    def _spawn(self) -> None:
        """A new worker; it takes jobs once it has loaded the engines (``ready``)."""
        worker = _Worker(self._ctx)
        self._workers.append(worker)
        asyncio.get_running_loop().add_reader(worker.conn.fileno(), self._ready, worker)

    def _start(self, worker: _Worker, job: _Job) -> None:
        loop = asyncio.get_running_loop()
        worker.job = job
        try:
            worker.conn.send((job.name, job.args))
        except Exception:
            self._lost(worker, WorkFailed("a worker could not take the job"))
            return
        loop.add_reader(worker.conn.fileno(), self._ready, worker)
        worker.timer = loop.call_later(self.seconds, self._overtime, worker)

    def _finish(self, worker: _Worker) -> _Job | None:
        job, worker.job = worker.job, None
        if worker.timer is not None:
            worker.timer.cancel()
            worker.timer = None
        with contextlib.suppress(Exception):
            asyncio.get_running_loop().remove_reader(worker.conn.fileno())
        return job

    def _ready(self, worker: _Worker) -> None:
        try:
            status, value = worker.conn.recv()
        except Exception:
            self._lost(worker, WorkFailed("a worker process died"))
            return
        if status == "ready":
            worker.ready = True
            self.stillborn = 0
            asyncio.get_running_loop().remove_reader(worker.conn.fileno())
            self._idle.append(worker)
            self._dispatch()
            return
        job = self._finish(worker)
        self._idle.append(worker)
        if job is not None and not job.future.done():
            if status == "ok":
                self.stats["done"] += 1
                job.future.set_result(value)
            else:
                self.stats["failed"] += 1
                job.future.set_exception(WorkFailed(value))
        self._dispatch()

    def _overtime(self, worker: _Worker) -> None:
        self.stats["timeouts"] += 1
        log.warning("a %s job ran over %.1f s: its worker is replaced",
                    worker.job.name if worker.job else "?", self.seconds)
        self._lost(worker, TimeoutError(f"over the budget of {self.seconds:g} s"))

    def _lost(self, worker: _Worker, error: BaseException) -> None:
        if not worker.ready and not self.closed:
            self.stillborn += 1
            log.error("a bot worker died while it started (%d in a row)", self.stillborn)
            if self.stillborn >= 3:
                for queued in self._queue:
                    if not queued.future.done():
                        queued.future.set_exception(WorkFailed("no bot worker can start"))
                self._queue.clear()
        job = self._finish(worker)
        worker.kill()
        if worker in self._workers:
            self._workers.remove(worker)
        if worker in self._idle:
            self._idle.remove(worker)
        if job is not None and not job.future.done():
            job.future.set_exception(error)
        if not self.closed:
            if self.stillborn == 0:
                self.start()  # a replacement at once, whatever waits
            self._dispatch()

    def close(self) -> None:
        """Stop every worker; jobs still waiting fail."""
        self.closed = True
        for job in self._queue:
            if not job.future.done():
                job.future.set_exception(WorkFailed("the server is stopping"))
        self._queue.clear()
        for w in list(self._workers):
            self._lost(w, WorkFailed("the server is stopping"))
        self._idle.clear()

    def pids(self) -> list[int]:
        return [w.process.pid for w in self._workers if w.process.pid]

