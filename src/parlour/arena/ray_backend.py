"""Games on a Ray cluster, in batches sized to the work, streamed back as they finish.

One Ray task per game costs more than a cheap game (a few milliseconds): 2,000 games
took 71 s as 2,000 tasks against 6.3 s in one process. So the work is cut into ranges
of consecutive items and each range is one task. The first wave is one item per task
(one per CPU), which measures what an item costs on the cluster's workers; every later
range is sized from what the ranges that came back cost per item (the first wave's
figure replaced at once, as a worker's imports or a kernel's compilation slow it; then
a running mean, as a loaded machine makes single figures jump) to about
:data:`TASK_SECONDS` of work: hundreds of cheap games per task,
one game per task where the bots are slow. Ranges shrink near the end so the last CPUs
finish together, and about two ranges per CPU are in flight so no worker waits for the
driver. Results come back with ``ray.wait`` as each range finishes; the caller puts
them in order, so the results never depend on the sizes, the timing or the cluster.

Ray 2.59 turned token authentication on for local clusters (``RAY_AUTH_MODE=token``,
the token in ``~/.ray/auth_token``, ``RAY_AUTH_TOKEN_PATH`` or ``RAY_AUTH_TOKEN``), and a
driver whose ``RAY_AUTH_MODE`` is unset does not send the token it has: it is refused
and Ray says only that it failed to connect. :func:`connect` turns token mode on when
a token is at hand and says what is missing when the cluster still refuses.
"""

from __future__ import annotations

import functools
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

TASK_SECONDS = 1.0
"""About how long one task's work should take once the cost of an item is known: long
enough that Ray's per-task cost (a few milliseconds) is lost in it, short enough that
results stream back and the last tasks finish together."""

IN_FLIGHT_PER_CPU = 2
"""Tasks kept waiting per CPU, so a worker that finishes finds its next range queued."""

AUTH_MODE = "RAY_AUTH_MODE"
TOKEN = "RAY_AUTH_TOKEN"
TOKEN_PATH = "RAY_AUTH_TOKEN_PATH"

Work = Callable[[Any, int, int], Any]
"""Does items ``a .. b - 1`` of the shared data on a worker: ``work(data, a, b)``."""


def default_token_path() -> Path:
    """Where ``ray get-auth-token --generate`` and ``ray start`` keep the token."""
    return Path.home() / ".ray" / "auth_token"


def token_source() -> str | None:
    """Which of Ray's token sources holds a token here, in Ray's own order, or None.

    A ``RAY_AUTH_TOKEN_PATH`` that cannot be read is an error here: Ray itself aborts
    the whole process on it.
    """
    if os.environ.get(TOKEN, "").strip():
        return TOKEN
    path = os.environ.get(TOKEN_PATH)
    if path:
        try:
            if not Path(path).read_text(encoding="utf-8").strip():
                raise ConnectionError(f"{TOKEN_PATH}={path} is empty: it must hold the "
                                      "Ray cluster's token")
        except OSError as e:
            raise ConnectionError(f"cannot read {TOKEN_PATH}={path}: "
                                  f"{e.strerror or e}") from None
        return TOKEN_PATH
    return str(default_token_path()) if default_token_path().is_file() else None


def enable_token_auth() -> str | None:
    """Turn Ray's token mode on when a token is at hand and ``RAY_AUTH_MODE`` is unset
    (an explicit ``RAY_AUTH_MODE``, ``disabled`` included, is left as it is). Returns
    the token's source, if any."""
    source = token_source()
    if source and AUTH_MODE not in os.environ:
        os.environ[AUTH_MODE] = "token"
        if "ray" in sys.modules:  # Ray caches its config at import: read it again
            from ray._raylet import Config

            Config.initialize("")
    return source


def connect(address: str | None, workers: int | None) -> bool:
    """Join the cluster at ``address``, or start a local Ray with ``workers`` CPUs.

    Returns whether Ray was started here (and so must be shut down here). A Ray already
    initialised in this process is used as it is.
    """
    import ray

    if ray.is_initialized():
        return False
    if not address:
        ray.init(num_cpus=workers or None, include_dashboard=False, log_to_driver=False)
        return True
    source = enable_token_auth()
    try:
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    except (ConnectionError, TimeoutError, RuntimeError) as e:  # said once, by the CLI
        text = str(e).strip()
        first = text.splitlines()[0] if text else type(e).__name__
        mode = os.environ.get(AUTH_MODE, "unset")
        if source is None:
            hint = (f"if it uses token authentication, put its token in {default_token_path()}"
                    f" or name it with {TOKEN_PATH} or {TOKEN}")
        else:
            hint = f"the token from {source} was sent ({AUTH_MODE}={mode}): is it this cluster's?"
        raise ConnectionError(f"no Ray cluster answers at {address}, or it refused us "
                              f"({first}); {hint}") from None
    return True


def cluster_cpus() -> int:
    """The CPUs the cluster offers (at least one)."""
    import ray

    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def _timed(work: Work, data: Any, a: int, b: int) -> tuple[Any, float]:
    """The body of every task: the work and the seconds it took on the worker."""
    start = time.perf_counter()
    out = work(data, a, b)
    return out, time.perf_counter() - start


def range_size(per_item: float | None, remaining: int, cpus: int,
               task_seconds: float = TASK_SECONDS) -> int:
    """Items in the next task: ``task_seconds`` of work at ``per_item`` seconds each,
    no more than an even share of what is left per CPU slot, at least one. Before any
    cost is known (``None``) it is one item: the first wave measures."""
    if per_item is None:
        return 1
    by_time = int(task_seconds / per_item) if per_item > 0 else remaining
    share = -(-remaining // (cpus * IN_FLIGHT_PER_CPU))
    return max(1, min(by_time, share, remaining))


def stream(total: int, work: Work, data: Any, address: str | None = None,
           workers: int | None = None, task_seconds: float = TASK_SECONDS
           ) -> Iterator[tuple[int, int, Any]]:
    """Do items ``0 .. total - 1`` on Ray; yield ``(a, b, result)`` as each range
    finishes, in the order they finish. ``work`` and ``data`` must pickle; ``data`` is
    put in Ray's object store once and shared by every task."""
    import ray

    started = connect(address, workers)
    try:
        cpus = cluster_cpus()
        task = ray.remote(_timed)
        shared = ray.put(data)
        pending: dict[Any, tuple[int, int]] = {}
        next_item, cost, seen = 0, None, 0

        def submit() -> None:
            nonlocal next_item
            while next_item < total and len(pending) < cpus * IN_FLIGHT_PER_CPU:
                if cost is None and len(pending) >= cpus:
                    break  # the first wave, one item per CPU, measures the cost first
                size = range_size(cost, total - next_item, cpus, task_seconds)
                a, next_item = next_item, next_item + size
                pending[task.remote(work, shared, a, next_item)] = (a, next_item)

        submit()
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                a, b = pending.pop(ref)
                out, seconds = ray.get(ref)
                latest = seconds / (b - a)
                seen += 1
                cost = latest if seen <= cpus + 1 or cost is None else (cost + latest) / 2
                yield a, b, out
            submit()
    finally:
        if started:
            ray.shutdown()


def _each(fn: Callable[[Any], Any], jobs: Sequence[Any], a: int, b: int) -> list[Any]:
    return [fn(job) for job in jobs[a:b]]


def run_ray(jobs: Sequence[Any], address: str | None = None, workers: int | None = None,
            progress: Callable[[Any], None] | None = None,
            fn: Callable[[Any], Any] | None = None,
            task_seconds: float = TASK_SECONDS) -> list[Any]:
    """Run ``fn`` (a module-level function; default :func:`.jobs.run_job`) on every job
    on Ray and return the results in job order; ``progress`` is called once per result
    as its range comes back."""
    if fn is None:
        from parlour.arena.jobs import run_job

        fn = run_job
    results: list[Any] = [None] * len(jobs)
    for a, _b, outs in stream(len(jobs), functools.partial(_each, fn), list(jobs),
                              address, workers, task_seconds):
        results[a:a + len(outs)] = outs
        if progress:
            for res in outs:
                progress(res)
    return results


def _sim_range(records: bool, config: Any, a: int, b: int) -> Any:
    from parlour.simulate import play_chunk

    return play_chunk(config, a, b, records)


def simulate_chunks(config: Any, address: str | None = None, workers: int | None = None,
                    progress: Callable[[int], None] | None = None, records: bool = True,
                    task_seconds: float = TASK_SECONDS) -> Iterator[Any]:
    """``parlour simulate`` on Ray: the games of ``config`` (a
    :class:`parlour.simulate.SimConfig`) as :class:`parlour.simulate.Chunk`s in game
    order, the same chunks' games as :func:`parlour.simulate.run_chunks` plays here.
    ``progress(n)`` is called with the games of each range as it comes back."""
    config.full_rules()  # check the rules and the engine once, before any task
    held: dict[int, Any] = {}
    next_game = 0
    for a, _b, chunk in stream(config.games, functools.partial(_sim_range, records), config,
                               address, workers, task_seconds):
        if progress:
            progress(chunk.count)
        held[a] = chunk
        while next_game in held:
            ready = held.pop(next_game)
            next_game += ready.count
            yield ready
