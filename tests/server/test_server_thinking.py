"""The bot workers' process settings (parlour.server.thinking)."""

from __future__ import annotations

import os

from parlour.server import thinking, work


class _ClosedPipe:
    def send(self, message):  # the server went away as soon as the worker was ready
        raise BrokenPipeError


def test_a_worker_runs_numpy_on_one_thread(monkeypatch):
    """A bot's numpy work is small matrices (the learned player model of the reading):
    a worker asks for one math-library thread before numpy loads, so spinning threads
    do not take the cores the tables need. A setting already made is kept."""
    for name in thinking.BLAS_THREADS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MKL_NUM_THREADS", "3")
    monkeypatch.setattr(os, "nice", lambda _n: 0)
    monkeypatch.setattr(thinking.signal, "signal", lambda *_a: None)
    monkeypatch.setitem(work.JOBS, "warm", lambda: None)
    thinking._worker_main(_ClosedPipe())
    assert os.environ["OPENBLAS_NUM_THREADS"] == "1"
    assert os.environ["OMP_NUM_THREADS"] == "1"
    assert os.environ["MKL_NUM_THREADS"] == "3"
