"""Where tournament games run: this process, local worker processes, or a Ray cluster.

Every backend runs the same :func:`.jobs.run_job` on the same jobs and hands the
results back keyed by job, so the tournament's numbers do not depend on the backend
or the number of workers. ``progress`` is called once per finished game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from parlour.arena.jobs import run_job

Progress = Callable[[Any], None]


def run_local(jobs: Sequence[Any], workers: int = 1, progress: Progress | None = None,
              fn: Callable[[Any], Any] = run_job) -> list[Any]:
    """Run ``fn`` on the jobs here (``workers <= 1``) or in that many processes."""
    results: dict[int, Any] = {}
    if workers <= 1:
        for i, job in enumerate(jobs):
            results[i] = fn(job)
            if progress:
                progress(results[i])
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = {pool.submit(fn, job): i for i, job in enumerate(jobs)}
            for fut in as_completed(futures):
                res = fut.result()
                results[futures[fut]] = res
                if progress:
                    progress(res)
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
