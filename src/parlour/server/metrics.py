"""Prometheus metrics of one server process (``GET /metrics``, setting ``metrics``).

Kept cheap: counters and histograms are bumped where the work is done; the gauges
(tables by state, connections, bot queue) are read from the service when scraped.
No label ever holds a card, a name, a table id or a secret: the labels are fixed words
(a table's state, a limit's error code, a job's kind). Each process has its own
numbers; a cluster is summed by Prometheus over its processes (docs/deploy.md).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

REGISTRY = CollectorRegistry(auto_describe=True)
FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

TABLES = Gauge("parlour_tables", "Tables held by this process, by state", ["state"],
               registry=REGISTRY)
CONNECTIONS = Gauge("parlour_connections", "Open WebSockets", registry=REGISTRY)
BOT_QUEUE = Gauge("parlour_bot_queue", "Bot and hint jobs waiting for a worker",
                  registry=REGISTRY)
POOL_HELD = Gauge("parlour_pool_questions_held", "Pool questions held open here: people "
                  "waiting to hear they are paired", registry=REGISTRY)
MOVES = Counter("parlour_moves", "Moves applied, by who made them", ["by"], registry=REGISTRY)
MOVE_SECONDS = Histogram("parlour_move_seconds", "From a person's move received to its "
                         "acknowledgement (checked, written, sent)", buckets=FAST,
                         registry=REGISTRY)
THINK_SECONDS = Histogram("parlour_bot_think_seconds", "Time of a job of the bot workers "
                          "(a bot move, a hint, a review), queue included", ["job"],
                          buckets=FAST, registry=REGISTRY)
COMMIT_SECONDS = Histogram("parlour_db_commit_seconds", "Time of one database commit of "
                           "table events (a group commit)", buckets=FAST, registry=REGISTRY)
REFUSALS = Counter("parlour_refusals", "Requests refused at a limit, by the error code",
                   ["limit"], registry=REGISTRY)

GC_SECONDS = Histogram("parlour_gc_pause_seconds", "Pauses of Python's garbage collector, "
                       "by generation", ["generation"], buckets=FAST, registry=REGISTRY)

LIMIT_CODES = frozenset({"rate_limited", "too_large", "busy", "unavailable", "full",
                         "capacity"})


def refused(code: str) -> None:
    """Count a refusal whose error code names a limit (others are not counted)."""
    if code in LIMIT_CODES or "limit" in code:
        REFUSALS.labels(code).inc()


@contextmanager
def timed(histogram: Any) -> Iterator[None]:
    start = time.perf_counter()
    try:
        yield
    finally:
        histogram.observe(time.perf_counter() - start)


_gc_started = [0.0]


def _gc_callback(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        _gc_started[0] = time.perf_counter()
    elif _gc_started[0]:
        GC_SECONDS.labels(str(info.get("generation", "?"))).observe(
            time.perf_counter() - _gc_started[0])
        _gc_started[0] = 0.0


def watch_gc() -> None:
    """Time every collection of this process (once; a callback costs microseconds)."""
    if _gc_callback not in gc.callbacks:
        gc.callbacks.append(_gc_callback)


def scrape(service: Any) -> tuple[bytes, str]:
    """The text exposition, with the gauges read from ``service`` now."""
    if service is not None:
        counts: dict[str, int] = {}
        for t in list(service.tables.values()):
            counts[t.status] = counts.get(t.status, 0) + 1
        for state in ("waiting", "playing", "over", "expired", *counts):
            TABLES.labels(state).set(counts.get(state, 0))
        CONNECTIONS.set(service.sockets.total)
        BOT_QUEUE.set(service.pool.waiting)
        POOL_HELD.set(service.pools.held)
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
