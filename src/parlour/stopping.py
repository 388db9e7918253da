"""Stopping a long run at once: Ctrl-C and SIGTERM, in the parent and its workers.

``tournament``, ``analyze`` and ``simulate`` run games in worker processes. A stop must
end every worker at once (not after the games already queued), say so in one line, keep
what finished, and leave no worker without its parent:

* workers ignore SIGINT (:func:`worker_pool` starts them so, :func:`ignore_in_worker`
  keeps it so): Ctrl-C reaches the whole process group, and only the parent decides
  what happens -- also for a worker still starting up;
* the parent turns SIGTERM into :class:`Stopped` (:func:`on_signals`), a
  ``KeyboardInterrupt``, so both signals take the same path: the pool is terminated
  (each worker gets SIGTERM and is joined) and the command reports and exits with
  128 + the signal's number (130 for Ctrl-C, 143 for SIGTERM);
* while stopping, further signals are ignored (:func:`hold`), so a second Ctrl-C
  cannot cut the clean-up short.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.pool
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


class Stopped(KeyboardInterrupt):
    """The run was asked to stop by a signal (SIGTERM)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _raise(signum: int, _frame: FrameType | None) -> None:
    raise Stopped(signum)


@contextmanager
def on_signals() -> Iterator[None]:
    """SIGTERM raises :class:`Stopped` in the main thread for the duration."""
    old = signal.signal(signal.SIGTERM, _raise)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


def exit_code(stop: KeyboardInterrupt) -> int:
    """128 + the signal: 130 for Ctrl-C, 143 for SIGTERM."""
    return 128 + getattr(stop, "signum", signal.SIGINT)


def hold() -> None:
    """Ignore further Ctrl-C and SIGTERM while the run cleans up."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


def ignore_in_worker() -> None:
    """In a worker: leave Ctrl-C to the parent; SIGTERM (from the parent) ends it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def worker_pool(workers: int) -> multiprocessing.pool.Pool:
    """``workers`` spawned processes (a clean interpreter each, children of this one)
    that never see Ctrl-C. They are started with SIGINT ignored, which a new interpreter
    keeps: a Ctrl-C while a worker is still starting (importing, before its initializer
    runs) used to end it with a KeyboardInterrupt traceback under the progress bar."""
    main = threading.current_thread() is threading.main_thread()  # signals live there only
    old = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        return multiprocessing.get_context("spawn").Pool(workers, initializer=ignore_in_worker)
    finally:
        if main:
            signal.signal(signal.SIGINT, old)
