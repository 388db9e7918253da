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
for ``bot_move_seconds`` (of wall time, or what the caller gives); a worker over it is
killed and replaced, and the caller gets :class:`TimeoutError` (a bot move then falls
back to a quick bot).

The ``ASKED`` class is what clients choose the cost of (hints, record checks, replays,
reviews): each such job names the client's address and runs under a CPU-time and a
memory budget inside the worker (``resource.setrlimit``: over its CPU time the job is
interrupted and the worker serves on; over its memory the job fails, or the worker
crashes, and the worker is replaced; either way the caller gets :class:`OverBudget`). Its queue is bounded and fair: an address may have
``per_address`` such jobs waiting or running (then :class:`QueueFull`, 429), at most
``queue`` wait in all (then :class:`QueueFull`, 503), and the waiting jobs are served
one address at a time, round-robin, so one client's flood waits behind everyone
else's single request. Every worker starts with
the server, side by side, and takes jobs once it has loaded the engines; a worker lost
is replaced at once; if workers keep dying before they are ready, they are replaced
one at a time, and after three in a row waiting jobs fail (:class:`WorkFailed`).
"""

from __future__ import annotations

import asyncio
import contextlib
import faulthandler
import heapq
import itertools
import logging
import math
import multiprocessing
import os
import signal
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from parlour.server import metrics

log = logging.getLogger("parlour.server")

PEOPLE, ASKED, BOTS_ONLY = 0, 1, 2
WORKER_NICE = 5
"""Workers run at a lower CPU priority than the server process."""


WALL_FACTOR = 10.0
"""A job with a CPU budget and no wall-time limit of its own is stopped (its worker
killed) after this many times its CPU budget of wall time: a job stuck in compiled
code, out of reach of the CPU-time signal, or a worker starved by a busy machine."""


class WorkFailed(RuntimeError):
    """The job raised in the worker, or the worker died."""


class WorkRefused(Exception):
    """The job refused its input (:class:`parlour.server.work.Refused`): the HTTP status,
    code and words for the client."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


class OverBudget(RuntimeError):
    """The job went over its CPU-time (``kind`` ``"cpu"``) or memory (``"memory"``)
    budget and was stopped."""

    def __init__(self, kind: str) -> None:
        super().__init__(f"over its {kind} budget")
        self.kind = kind


class QueueFull(RuntimeError):
    """No room for an asked job: ``status`` 429 (this address has its share waiting or
    running) or 503 (the queue is full); try again after ``retry_after`` seconds."""

    def __init__(self, status: int, retry_after: int, message: str) -> None:
        super().__init__(message)
        self.status, self.retry_after, self.message = status, retry_after, message


class _CpuOver(BaseException):
    """Raised in a worker's job by SIGXCPU (a BaseException: a job's own ``except
    Exception`` does not swallow it)."""


_budgeted = False
"""Whether a worker is inside a job with a CPU budget (SIGXCPU outside one is ignored)."""


def _on_sigxcpu(_signum: int, _frame: Any) -> None:
    if _budgeted:
        raise _CpuOver


def _set_soft(kind: int, soft: int | None) -> None:
    """Set a resource's soft limit (None: as high as the hard limit)."""
    import resource

    _, hard = resource.getrlimit(kind)
    if soft is None or (hard != resource.RLIM_INFINITY and soft > hard):
        soft = hard
    resource.setrlimit(kind, (soft, hard))


def _run_budgeted(job: str, args: tuple, cpu: float | None, memory: int | None) -> tuple:
    """Run one job under its budgets; the message for the server."""
    import resource

    from parlour.server.work import JOBS, Refused

    global _budgeted
    try:
        if memory:
            with open("/proc/self/statm") as f:
                size = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
            _set_soft(resource.RLIMIT_AS, size + memory)
        if cpu:
            # The budget to the millisecond: a profiling timer counts this process's CPU
            # time and raises SIGPROF at the budget. RLIMIT_CPU (whole seconds, one more)
            # stays behind it for code that holds the interpreter in native work.
            used = resource.getrusage(resource.RUSAGE_SELF)
            _set_soft(resource.RLIMIT_CPU, math.ceil(used.ru_utime + used.ru_stime + cpu) + 1)
            _budgeted = True
            signal.setitimer(signal.ITIMER_PROF, cpu)
        return ("ok", JOBS[job](*args))
    except _CpuOver:
        return ("over", "cpu")
    except MemoryError:
        return ("over", "memory")
    except Refused as e:
        return ("refused", (e.status, e.code, e.message))
    except Exception as e:  # reported to the server, which decides
        return ("err", f"{type(e).__name__}: {e}")
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        _budgeted = False
        with contextlib.suppress(ValueError, OSError):
            _set_soft(resource.RLIMIT_CPU, None)
            _set_soft(resource.RLIMIT_AS, None)


BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
"""The thread-count variables of numpy's math libraries, each set to 1 in a worker."""


def _worker_main(conn: Any) -> None:
    """A worker process: run jobs from the pipe until it closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server stops its workers itself
    signal.signal(signal.SIGXCPU, _on_sigxcpu)  # a job over its CPU-time budget
    signal.signal(signal.SIGPROF, _on_sigxcpu)  # ... measured by the profiling timer
    faulthandler.enable()  # a worker that crashes says where, on the server's stderr
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
            job, args, cpu, memory = conn.recv()
        except (EOFError, OSError):
            return
        result = _run_budgeted(job, args, cpu, memory)
        try:
            conn.send(result)
        except (BrokenPipeError, OSError):
            return


@dataclass(order=True)
class _Job:
    priority: int
    turn: int
    """An asked job's place in the round-robin over addresses (0 for the others)."""
    order: int
    name: str = field(compare=False)
    args: tuple = field(compare=False)
    future: asyncio.Future = field(compare=False)
    addr: str | None = field(compare=False, default=None)
    cpu: float | None = field(compare=False, default=None)
    memory: int | None = field(compare=False, default=None)
    seconds: float = field(compare=False, default=0.0)
    started: float = field(compare=False, default=0.0)


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

    def __init__(self, workers: int, seconds: float, queue: int = 64,
                 per_address: int = 4) -> None:
        self.size = workers
        self.seconds = seconds
        self.queue = queue
        self.per_address = per_address
        self._asking: Counter[str] = Counter()
        """Asked jobs waiting or running, per address."""
        self._turns: dict[str, int] = {}
        self._turn = 0
        self._asked_seconds = 1.0
        """A running mean of an asked job's time (for Retry-After)."""
        self.low_limit = max(1, workers - 1)
        self._queue: list[_Job] = []
        self._order = itertools.count()
        self._workers: list[_Worker] = []
        self._idle: list[_Worker] = []
        self._ctx = multiprocessing.get_context("spawn")
        self.closed = False
        self.stillborn = 0
        """Workers in a row that died before they were ready."""
        self.stats = {"done": 0, "timeouts": 0, "failed": 0, "over": 0, "refused": 0,
                      "full": 0}

    @property
    def waiting(self) -> int:
        return sum(1 for j in self._queue if not j.future.done())

    def _asked_waiting(self) -> int:
        return sum(1 for j in self._queue if j.priority == ASKED and not j.future.done())

    def _admit(self, addr: str) -> None:
        """Room for one more asked job of ``addr``, or :class:`QueueFull`."""
        slots = max(1, self._low_slots() if self.size > 0 else 1)
        if self._asking[addr] >= self.per_address:
            wait = self._asked_seconds * self._asking[addr] / slots
            self.stats["full"] += 1
            raise QueueFull(429, min(60, max(1, math.ceil(wait))),
                            f"you already have {self._asking[addr]} requests of this kind "
                            "waiting or being worked on: wait for them")
        ahead = self._asked_waiting() if self.size > 0 else sum(self._asking.values())
        if ahead >= self.queue:
            self.stats["full"] += 1
            wait = self._asked_seconds * (ahead + 1) / slots
            raise QueueFull(503, min(60, max(1, math.ceil(wait))),
                            "the server has as much of this work waiting as it takes: "
                            "please try again")

    def _turn_of(self, addr: str) -> int:
        """The next round-robin turn of ``addr``: after its own jobs already waiting,
        and never before the turn being served (a newcomer goes next)."""
        turn = max(self._turn, self._turns.get(addr, 0)) + 1
        self._turns[addr] = turn
        if len(self._turns) > 4 * max(1, self.queue) + 64:  # forget served addresses
            self._turns = {a: t for a, t in self._turns.items() if t > self._turn}
        return turn

    async def run(self, priority: int, name: str, *args: Any, **budget: Any) -> Any:
        """:meth:`_run`, timed for ``/metrics`` (``parlour_bot_think_seconds``)."""
        with metrics.timed(metrics.THINK_SECONDS.labels(name)):
            return await self._run(priority, name, *args, **budget)

    async def _run(self, priority: int, name: str, *args: Any, addr: str | None = None,
                   cpu: float | None = None, memory: int | None = None,
                   seconds: float | None = None) -> Any:
        """Run job ``name`` (see :mod:`parlour.server.work`) and return its result.

        ``addr``: the client who asked (an ``ASKED`` job: bounded and fair, see the
        module's docstring); ``cpu`` and ``memory`` (bytes): the job's budgets in the
        worker; ``seconds``: its wall-time limit (default ``bot_move_seconds``, or
        :data:`WALL_FACTOR` times ``cpu``)."""
        if self.closed:
            raise WorkFailed("the server is stopping")
        limit = seconds if seconds is not None or cpu else self.seconds
        if seconds is None:
            seconds = max(self.seconds, cpu * WALL_FACTOR) if cpu else self.seconds
        key = addr if priority == ASKED and addr is not None else None
        if key is not None:
            self._admit(key)
            self._asking[key] += 1
        started = time.monotonic()
        try:
            if self.size <= 0:  # no workers: a thread of this process (tests, debugging)
                # (a thread cannot be stopped or budgeted: only a wall-time limit, and
                # none for a job with a CPU budget, which a worker would enforce)
                return await asyncio.wait_for(asyncio.to_thread(_in_thread, name, args),
                                              limit)
            future = asyncio.get_running_loop().create_future()
            turn = self._turn_of(key) if key is not None else 0
            heapq.heappush(self._queue, _Job(priority, turn, next(self._order), name, args,
                                             future, key, cpu, memory, seconds))
            self._dispatch()
            return await future
        finally:
            if key is not None:
                self._asking[key] -= 1
                if self._asking[key] <= 0:
                    del self._asking[key]
                took = time.monotonic() - started
                self._asked_seconds += (took - self._asked_seconds) * 0.2

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
        loop = asyncio.get_running_loop()
        threading.Thread(target=self._listen, args=(worker, loop), daemon=True,
                         name="parlour-thinker-pipe").start()

    def _listen(self, worker: _Worker, loop: asyncio.AbstractEventLoop) -> None:
        """A thread per worker reads its answers whole (a replay may be megabytes: the
        event loop's own readers make the pipe non-blocking, where a large answer
        arrives in pieces) and hands each to the event loop."""
        while True:
            try:
                message = worker.conn.recv()
            except Exception:  # the worker died, or was stopped (its pipe closed)
                with contextlib.suppress(RuntimeError):  # the loop is closed
                    loop.call_soon_threadsafe(self._gone, worker)
                return
            try:
                loop.call_soon_threadsafe(self._ready, worker, message)
            except RuntimeError:
                return

    def _start(self, worker: _Worker, job: _Job) -> None:
        loop = asyncio.get_running_loop()
        worker.job = job
        if job.turn:
            self._turn = max(self._turn, job.turn)
        try:
            worker.conn.send((job.name, job.args, job.cpu, job.memory))
        except Exception:
            self._lost(worker, WorkFailed("a worker could not take the job"))
            return
        worker.timer = loop.call_later(job.seconds or self.seconds, self._overtime, worker)

    def _finish(self, worker: _Worker) -> _Job | None:
        job, worker.job = worker.job, None
        if worker.timer is not None:
            worker.timer.cancel()
            worker.timer = None
        return job

    def _gone(self, worker: _Worker) -> None:
        """A worker's pipe closed: it died (or was stopped, and is already gone)."""
        if worker not in self._workers:
            return
        if worker.job is not None and worker.job.memory:
            # Native code (the JSON library, the interpreter) that cannot allocate
            # under the memory limit may crash instead of raising MemoryError.
            self.stats["over"] += 1
            log.warning("a %s job's worker died under its memory budget: replaced",
                        worker.job.name)
            self._lost(worker, OverBudget("memory"))
            return
        self._lost(worker, WorkFailed("a worker process died"))

    def _ready(self, worker: _Worker, message: tuple) -> None:
        if worker not in self._workers:  # stopped (over time) while its answer came
            return
        status, value = message
        if status == "ready":
            worker.ready = True
            self.stillborn = 0
            self._idle.append(worker)
            self._dispatch()
            return
        job = self._finish(worker)
        if status == "over" and value == "memory":  # its heap may stay large: replace it
            self.stats["over"] += 1
            if job is not None and not job.future.done():
                job.future.set_exception(OverBudget("memory"))
            self._lost(worker, OverBudget("memory"))
            return
        self._idle.append(worker)
        if job is not None and not job.future.done():
            if status == "ok":
                self.stats["done"] += 1
                job.future.set_result(value)
            elif status == "over":
                self.stats["over"] += 1
                log.warning("a %s job went over its %s budget", job.name, value)
                job.future.set_exception(OverBudget(value))
            elif status == "refused":
                self.stats["refused"] += 1
                job.future.set_exception(WorkRefused(*value))
            else:
                self.stats["failed"] += 1
                job.future.set_exception(WorkFailed(value))
        self._dispatch()

    def _overtime(self, worker: _Worker) -> None:
        self.stats["timeouts"] += 1
        seconds = worker.job.seconds if worker.job and worker.job.seconds else self.seconds
        log.warning("a %s job ran over %.1f s: its worker is replaced",
                    worker.job.name if worker.job else "?", seconds)
        self._lost(worker, TimeoutError(f"over the budget of {seconds:g} s"))

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



def _in_thread(name: str, args: tuple) -> Any:
    """A job in a thread of the server process (``bot_workers=0``: tests, debugging),
    with the worker's refusals; budgets apply only in worker processes."""
    from parlour.server.work import JOBS, Refused

    try:
        return JOBS[name](*args)
    except Refused as e:
        raise WorkRefused(e.status, e.code, e.message) from None
