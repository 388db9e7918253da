"""Workers never see Ctrl-C, not even while they start (parlour.stopping.worker_pool):
a Ctrl-C that reached a worker still importing -- before its initializer ran -- ended
it with a KeyboardInterrupt traceback under the progress bar (a fresh-clone failure of
tests/arena/test_arena_stop_resume.py)."""

from __future__ import annotations

import os
import signal

from parlour import stopping


def test_a_worker_hit_by_ctrl_c_while_starting_prints_nothing_and_works(capfd):
    pool = stopping.worker_pool(2)
    try:
        for worker in pool._pool:  # at once: the workers are still starting up
            os.kill(worker.pid, signal.SIGINT)
        assert sorted(pool.map(abs, [-2, -1, 3])) == [1, 2, 3]
        assert all(w.exitcode is None for w in pool._pool)  # the same workers, alive
    finally:
        pool.terminate()
        pool.join()
    err = capfd.readouterr().err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err


def test_the_parents_ctrl_c_is_its_own_again_after_the_start():
    before = signal.getsignal(signal.SIGINT)
    pool = stopping.worker_pool(1)
    pool.terminate()
    pool.join()
    assert signal.getsignal(signal.SIGINT) is before
