"""Where tournament games run: this process, local worker processes, or a Ray cluster.

Every backend runs the same :func:`.jobs.run_job` on the same jobs and hands the
results back keyed by job, so the tournament's numbers do not depend on the backend
or the number of workers. ``progress`` is called once per finished game.

The local pool stops at once on Ctrl-C or SIGTERM (:mod:`parlour.stopping`): the
workers are terminated, not left to finish the queue, and the exception goes on to the
caller, which has had every finished game through ``keep``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from parlour import stopping
from parlour.arena.jobs import run_job

Progress = Callable[[Any], None]
Keep = Callable[[int, Any], None]


def _call(task: tuple[Callable[[Any], Any], int, Any]) -> tuple[int, Any]:
    fn, i, job = task
    return i, fn(job)


def run_local(jobs: Sequence[Any], workers: int = 1, progress: Progress | None = None,
              fn: Callable[[Any], Any] = run_job, done: dict[int, Any] | None = None,
              keep: Keep | None = None) -> list[Any]:
    """Run ``fn`` on the jobs here (``workers <= 1``) or in that many processes.

    ``done``: results already in hand by job index (a resumed run), not run again;
    ``keep(index, result)`` is called as each job finishes (before ``progress``).
    """
    results: dict[int, Any] = dict(done or {})
    todo = [(i, job) for i, job in enumerate(jobs) if i not in results]

    def finished(i: int, res: Any) -> None:
        results[i] = res
        if keep:
            keep(i, res)
        if progress:
            progress(res)

    if workers <= 1:
        for i, job in todo:
            finished(i, fn(job))
    elif todo:
        # spawn: a clean interpreter per worker, each a child of this process
        pool = stopping.worker_pool(workers)
        try:
            for i, res in pool.imap_unordered(_call, [(fn, i, job) for i, job in todo]):
                finished(i, res)
            pool.close()
        except KeyboardInterrupt:  # Ctrl-C or SIGTERM (parlour.stopping): stop them all now
            stopping.hold()  # a second Ctrl-C must not cut the clean-up short
            pool.terminate()
            raise
        except BaseException:
            pool.terminate()
            raise
        finally:
            pool.join()
    return [results[i] for i in range(len(jobs))]


def run_ray(jobs: Sequence[Any], address: str | None = None, workers: int | None = None,
            progress: Progress | None = None, fn: Callable[[Any], Any] = run_job) -> list[Any]:
    """Run ``fn`` on the jobs on a Ray cluster (:mod:`.ray_backend`: batched, streamed).

    Connects to the cluster at ``address``, or starts a local Ray with ``workers`` CPUs
    when no address is given; a Ray started here is shut down at the end. If Ray is
    already initialised in this process, it is used as it is and left running.
    """
    from parlour.arena.ray_backend import run_ray as on_ray

    return on_ray(jobs, address, workers, progress, fn)
