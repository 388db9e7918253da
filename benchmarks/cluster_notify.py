"""Cross-process event delivery in a cluster (issue #13, finding 16): NOTIFY vs polling.

Starts a temporary PostgreSQL cluster (Debian's ``postgresql`` binaries, run as the
``postgres`` user: needs root, like ``tests/hardening/test_hardening_cluster.py``) and
two pairs of ``parlour serve --cluster`` processes on it, side by side in the same run:

* ``notify``: the default (every change announced with ``NOTIFY``, heard on a
  ``LISTEN`` connection; polling every ``poll_listening`` seconds as a safety net);
* ``polling``: ``PARLOUR_NOTIFY=0``: the other process finds changes by polling every
  ``--poll-every`` seconds (0.1, the default setting).

In each pair process A creates ``--tables`` Fanti tables of two ``random`` bots (so A
owns them and makes every move), and each table has one spectator on A and one on B.
An event's cross-process delivery latency is the time from its arrival at A's
spectator (A broadcasts right after its commit) to its arrival at B's spectator
(``seq`` of each message; the same clock, one client process). Reports p50/p90/p99/max
per mode and the ratio. Loopback only, bounded in time.

    python benchmarks/cluster_notify.py --tables 4 --duration 40 --json out.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import bench_args
import httpx
import websockets

from parlour.loadtest import ServerProcess
from parlour.loadtest.clients import percentile

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # async_kit, which hardening_kit imports
sys.path.insert(0, str(ROOT / "tests" / "hardening"))
from hardening_kit import Postgres  # noqa: E402  (the tests' temporary cluster)

MODES = {
    "notify": {},
    "polling": {"PARLOUR_NOTIFY": "0"},
}


async def spectate(url: str, table: str, key: str, seen: dict[int, float],
                   deadline: float) -> None:
    """Note when each ``seq`` first reaches this spectator."""
    async with websockets.connect(url, open_timeout=20, max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "table": table, "watch": key}))
        while time.monotonic() < deadline:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=deadline - time.monotonic())
            except TimeoutError:
                return
            now = time.monotonic()
            seq = json.loads(raw).get("seq")
            if isinstance(seq, int):
                seen.setdefault(seq, now)


async def run_mode(a: ServerProcess, b: ServerProcess, tables: int, rounds: int,
                   duration: float) -> list[float]:
    made = []
    async with httpx.AsyncClient(timeout=20) as http:
        for _ in range(tables):
            r = await http.post(a.base + "/api/tables", json={
                "game": "fanti", "players": 2, "rules": {"rounds": rounds},
                "seats": [{"kind": "bot", "bot": "random"}] * 2})
            r.raise_for_status()
            made.append(r.json())
    deadline = time.monotonic() + duration
    at: list[tuple[dict[int, float], dict[int, float]]] = []
    tasks = []
    for j in made:
        key = j["watch_url"].split("#watch=")[1]
        on_a: dict[int, float] = {}
        on_b: dict[int, float] = {}
        at.append((on_a, on_b))
        for proc, seen in ((a, on_a), (b, on_b)):
            url = f"ws://127.0.0.1:{proc.port}/ws"
            tasks.append(spectate(url, j["table"], key, seen, deadline))
    await asyncio.gather(*tasks)
    lat = []
    for on_a, on_b in at:
        first = min(on_a, default=0)
        for seq, t in on_a.items():
            if seq > first and seq in on_b:  # the welcome's seq is no event
                lat.append(on_b[seq] - t)
    return lat


def summary(lat: list[float]) -> dict[str, Any]:
    ms = sorted(x * 1000 for x in lat)
    return {"events": len(ms), "p50_ms": percentile(ms, 50), "p90_ms": percentile(ms, 90),
            "p99_ms": percentile(ms, 99), "max_ms": ms[-1] if ms else None}


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    pg = Postgres()
    procs: dict[str, tuple[ServerProcess, ServerProcess]] = {}
    work = Path(tempfile.mkdtemp(prefix="parlour-notify-"))
    try:
        for mode, env in MODES.items():
            pair = []
            for name in ("A", "B"):
                d = work / f"{mode}-{name}"
                d.mkdir()
                pair.append(ServerProcess(
                    pg.url, bot_delay=args.bot_delay, round_pause=0.2, workdir=d,
                    extra=["--cluster"],
                    env={"PARLOUR_INSTANCE": f"{mode}-{name}", "PARLOUR_BOT_WORKERS": "0",
                         "PARLOUR_POLL_EVERY": str(args.poll_every),
                         "PARLOUR_MAX_BOT_TABLES": "1000",
                         "PARLOUR_MAX_BOT_TABLES_PER_ADDRESS": "1000",
                         "PARLOUR_CREATE_BURST": "1000", **env}).start())
            procs[mode] = (pair[0], pair[1])
        await asyncio.sleep(2.0)  # listeners up
        results = await asyncio.gather(*(run_mode(a, b, args.tables, args.rounds,
                                                  args.duration)
                                         for a, b in procs.values()))
        out: dict[str, Any] = {mode: summary(lat) for mode, lat in zip(procs, results,
                                                                       strict=True)}
        n, p = out["notify"], out["polling"]
        if n["events"] and p["events"]:
            out["ratio_p50"] = p["p50_ms"] / max(n["p50_ms"], 1e-6)
            out["ratio_p99"] = p["p99_ms"] / max(n["p99_ms"], 1e-6)
        out["config"] = {"tables_per_mode": args.tables, "duration_s": args.duration,
                         "bot_delay_s": args.bot_delay, "poll_every_s": args.poll_every,
                         "load_average": os.getloadavg()}
        return out
    finally:
        for pair in procs.values():
            for p_ in pair:
                p_.cleanup()
        pg.cleanup()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=bench_args.positive, default=4, help="tables per mode")
    ap.add_argument("--duration", type=float, default=40.0)
    ap.add_argument("--rounds", type=bench_args.positive, default=20)
    ap.add_argument("--bot-delay", type=float, default=0.2)
    ap.add_argument("--poll-every", type=float, default=0.1)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    out = asyncio.run(main_async(args))
    for mode in MODES:
        s = out[mode]
        print(f"{mode:8} events {s['events']:5}  p50 {s['p50_ms']:.1f} ms  p90 "
              f"{s['p90_ms']:.1f} ms  p99 {s['p99_ms']:.1f} ms  max {s['max_ms']:.1f} ms")
    if "ratio_p50" in out:
        print(f"polling / notify: p50 x{out['ratio_p50']:.1f}, p99 x{out['ratio_p99']:.1f}"
              f"  (load average {out['config']['load_average'][0]:.2f})")
    if args.json:
        args.json.write_text(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
