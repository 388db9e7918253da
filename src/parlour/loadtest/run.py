"""A load run: start (or find) the server, play T tables, measure, report."""

from __future__ import annotations

import asyncio
import resource
import time
from dataclasses import asdict, dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx

from parlour.loadtest.clients import Stats, TableRun, percentile, run_tables
from parlour.loadtest.procs import (
    ServerProcess,
    check_local_url,
    cpu_seconds,
    pid_listening_on,
    rss_bytes,
)


@dataclass
class LoadConfig:
    tables: int = 10
    duration: float = 120.0
    url: str | None = None
    speed: str = "human"
    game: str = "fantan"
    players: int = 4
    rounds: int = 1
    ramp: float | None = None
    """Seconds over which the tables start (default: 1 s per 20 tables, at most 10 s)."""
    bot_delay: float = 0.3
    """The started server's pause before a forced pass (``--bot-delay``)."""
    compression: bool = True
    check: bool = True
    """Fetch every finished game's record and check it (``record.load`` and commitments)."""
    capture: bool = False
    seed: int | None = None
    procs: int = 1
    """Client processes the tables are split across (``--procs``): 1 plays them all in
    this process."""
    server_args: list[str] = field(default_factory=list)


def _run(coro: Any) -> Any:
    try:
        import uvloop  # with uvicorn[standard]: a cheaper event loop for 4,000 sockets
    except ImportError:  # pragma: no cover -- not on every platform
        return asyncio.run(coro)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(coro)


def run_sync(coro: Any) -> Any:
    """Run ``coro`` to its end on a new event loop (uvloop's when installed), in a
    thread of its own when this thread already runs an event loop (a notebook, or a
    test process where a browser driver holds one)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return _run(coro)
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(_run, coro).result()


def _mb(n: int | None) -> float | None:
    return None if n is None else round(n / 2 ** 20, 1)


def _ms(x: float | None) -> float | None:
    return None if x is None else round(x * 1000, 1)


def _after(stats: Stats, skip: float) -> dict[str, float | int | None]:
    ms = [r * 1000 for r, at in zip(stats.rtts, stats.rtt_at, strict=True)
          if at - stats.started >= skip]
    p50, p99 = percentile(ms, 50), percentile(ms, 99)
    return {"n": len(ms), "p50": None if p50 is None else round(p50, 2),
            "p99": None if p99 is None else round(p99, 2)}


def _lag(lags: list[float]) -> dict[str, float | None]:
    return {"p50": _ms(percentile(lags, 50)), "p99": _ms(percentile(lags, 99)),
            "max": _ms(max(lags) if lags else None)}


def summarise(cfg: LoadConfig, runs: list[TableRun], stats: Stats, elapsed: float,
              rss: dict[str, int | None], checked: dict[str, int],
              ramp: float = 0.0, parts: list[Stats] | None = None) -> dict[str, Any]:
    ms = [x * 1000 for x in stats.rtts]
    finished = sum(1 for r in runs if r.finished)

    def p(q: float) -> float | None:
        v = percentile(ms, q)
        return None if v is None else round(v, 2)

    errors = dict(stats.errors)
    return {
        "tables": cfg.tables, "speed": cfg.speed, "game": cfg.game, "players": cfg.players,
        "rounds": cfg.rounds, "duration_limit_s": cfg.duration,
        "elapsed_s": round(elapsed, 2),
        "games_finished": finished,
        "all_finished": finished == cfg.tables,
        "moves": stats.moves_acked,
        "moves_sent": stats.moves_sent,
        "moves_per_s": round(stats.moves_acked / elapsed, 1) if elapsed > 0 else None,
        "messages_received": stats.messages,
        "bytes_received": stats.bytes_received,
        "syncs": stats.syncs,
        "rtt_ms": {"n": len(ms), "p50": p(50), "p90": p(90), "p99": p(99),
                   "max": round(max(ms), 2) if ms else None},
        # The same, leaving out the tables' arrival (the ramp and 5 s after it), when
        # the server also creates tables, seats players and opens their sockets.
        "rtt_ms_after_arrival": _after(stats, ramp + 5.0),
        "client_procs": cfg.procs,
        "client_loop_lag_ms": _lag(stats.lags),
        # each client process's own event loop (one entry per process)
        "client_loop_lag_ms_per_proc": [_lag(s.lags) for s in (parts or [stats])],
        "errors": sum(errors.values()) + len(stats.failures),
        "error_codes": errors,
        "failures": stats.failures[:20],
        "reconnects": stats.reconnects,
        "connect_failures": dict(stats.connect_failures),
        "closes": {f"{code} {reason or ''}".strip(): n for (code, reason), n
                   in stats.closes.most_common(5)},
        "records_checked": checked,
        "server_rss_mb": {k: _mb(v) for k, v in rss.items()},
    }


async def _check_records(runs: list[TableRun]) -> dict[str, int]:
    from parlour import record
    from parlour.server.verify import verify

    out = {"ok": 0, "bad": 0, "missing": 0}
    async with httpx.AsyncClient(timeout=30) as http:
        for run in runs:
            if not run.finished:
                continue
            data = await run.record(http)
            run.record_data = data
            if data is None:
                out["missing"] += 1
                continue
            try:
                record.load(data)
                ok = verify(data).ok
            except Exception:  # noqa: BLE001 -- counted, not raised
                ok = False
            out["ok" if ok else "bad"] += 1
    return out


def run_load(cfg: LoadConfig, progress: Any = None) -> dict[str, Any]:
    """Run one load test and return its report (a JSON-ready dict).

    ``progress(done, tables, moves, errors)``, if given, is called about every second
    with the games over, the tables, the moves confirmed and the errors so far.
    """
    from parlour.loadtest.fleet import check_procs, run_procs

    refused = check_procs(cfg.procs, cfg.tables)
    if refused is not None:
        raise ValueError(refused)
    server: ServerProcess | None = None
    if cfg.url:
        base = check_local_url(cfg.url)
        port = urlsplit(base).port or (443 if base.startswith("https") else 80)
        pid = pid_listening_on(port)
    else:
        server = ServerProcess(bot_delay=cfg.bot_delay, extra=cfg.server_args).start()
        base, pid = server.base, server.pid
    rss: dict[str, int | None] = {"start": rss_bytes(pid) if pid else None, "peak": None,
                                  "end": None}
    peak = [rss["start"] or 0]

    def tick(done: int, moves: int, errors: int) -> None:
        if pid:
            now = rss_bytes(pid)
            if now:
                peak[0] = max(peak[0], now)
        if progress:
            progress(done, cfg.tables, moves, errors)

    def tick_here(runs: list[TableRun], stats: Stats) -> None:
        tick(sum(1 for r in runs if r.seats and all(s.log.done for s in r.seats)),
             stats.moves_acked, sum(stats.errors.values()))

    ramp = cfg.ramp if cfg.ramp is not None else min(10.0, cfg.tables / 20)
    kwargs = {"duration": cfg.duration, "speed": cfg.speed, "game": cfg.game,
              "players": cfg.players, "rules": {"rounds": cfg.rounds}, "ramp": ramp,
              "compression": "deflate" if cfg.compression else None, "seed": cfg.seed}
    cpu0 = cpu_seconds(pid) if pid else None
    parts: list[Stats] | None = None
    cpu: dict[str, Any] = {}
    try:
        if cfg.procs == 1:
            me0 = resource.getrusage(resource.RUSAGE_SELF)
            t0 = time.monotonic()
            runs, stats = run_sync(run_tables([base], cfg.tables, capture=cfg.capture,
                                              on_tick=tick_here, **kwargs))
            elapsed = time.monotonic() - t0
            me1 = resource.getrusage(resource.RUSAGE_SELF)
            cpu["clients_s"] = round(me1.ru_utime + me1.ru_stime - me0.ru_utime
                                     - me0.ru_stime, 2)
        else:
            runs, stats, parts, each, elapsed = run_procs([base], cfg.tables, cfg.procs,
                                                          kwargs, on_tick=tick)
            cpu["clients_s"] = round(sum(each), 2)
            cpu["clients_s_per_proc"] = [round(x, 2) for x in each]
        cpu1 = cpu_seconds(pid) if pid else None
        if cpu0 is not None and cpu1 is not None:
            cpu["server_s"] = round(cpu1 - cpu0, 2)
        if pid:
            rss["end"] = rss_bytes(pid)
            rss["peak"] = max(peak[0], rss["end"] or 0) or None
        checked = run_sync(_check_records(runs)) if cfg.check else {}
    finally:
        if server is not None:
            server.cleanup()
    report = summarise(cfg, runs, stats, elapsed, rss, checked, ramp, parts)
    report["server"] = {"url": base, "pid": pid, "started_here": server is not None}
    if report["moves"]:
        # everything each side did (arrival included) over the moves the server confirmed
        if cpu.get("server_s") is not None:
            cpu["server_ms_per_move"] = round(1000 * cpu["server_s"] / report["moves"], 3)
        cpu["clients_ms_per_move"] = round(1000 * cpu["clients_s"] / report["moves"], 3)
    report["cpu"] = cpu
    report["config"] = {k: v for k, v in asdict(cfg).items() if k != "server_args"}
    report["_runs"] = runs  # for tests; dropped from the JSON output
    return report


def public(report: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in report.items() if not k.startswith("_")}
