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
    """Run ``fn`` on the jobs as Ray tasks.

    Connects to the cluster at ``address`` (``ray.init(address=...)``), or starts a
    local Ray with ``workers`` CPUs when no address is given; a Ray started here is
    shut down at the end. If Ray is already initialised in this process, it is used
    as it is and left running.
    """
    import ray

    started = False
    if not ray.is_initialized():
        if address:
            try:
                ray.init(address=address, include_dashboard=False, log_to_driver=False)
            except (ConnectionError, TimeoutError) as e:  # said once, in words, by the CLI
                first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
                raise ConnectionError(f"no Ray cluster answers at {address}: {first}") from None
        else:
            ray.init(num_cpus=workers or None, include_dashboard=False,
                     log_to_driver=False)
        started = True
    try:
        task = ray.remote(fn)
        pending = {task.remote(job): i for i, job in enumerate(jobs)}
        results: dict[int, Any] = {}
        waiting = list(pending)
        while waiting:
            done, waiting = ray.wait(waiting, num_returns=1)
            for ref in done:
                res = ray.get(ref)
                results[pending[ref]] = res
                if progress:
                    progress(res)
        return [results[i] for i in range(len(jobs))]
    finally:
        if started:
            ray.shutdown()
