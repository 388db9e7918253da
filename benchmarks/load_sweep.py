"""Load sweep: the largest number of concurrent tables whose move round trip p99 stays
under a bound (250 ms by default), at human speed.

Each step is one ``parlour loadtest`` run (a fresh ``parlour serve`` on a free
127.0.0.1 port with a temporary SQLite database, 4-seat Fan Tan tables of scripted
people, ``rounds=1``), bounded in time. The sweep stops at the first step that misses
the bound or leaves a game unfinished or an error, and reports every step.

    python benchmarks/load_sweep.py                      # 100, 200, ... up to 800
    python benchmarks/load_sweep.py --start 200 --step 200 --stop 1000 --json sweep.json

The machine has 2 cores shared with other work: figures are provisional; the report
records the load average next to each step.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import bench_args

from parlour.loadtest import LoadConfig, public, run_load


def step(tables: int, duration: float, speed: str, bound: float) -> dict:
    load = os.getloadavg()[0]
    t0 = time.time()
    r = public(run_load(LoadConfig(tables=tables, duration=duration, speed=speed)))
    r["load_average_before"] = round(load, 2)
    r["wall_s"] = round(time.time() - t0, 1)
    r["within_bound"] = bool(r["all_finished"] and r["errors"] == 0
                             and r["rtt_ms"]["p99"] is not None and r["rtt_ms"]["p99"] < bound)
    return r


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--start", type=bench_args.positive, default=100)
    ap.add_argument("--step", type=bench_args.positive, default=100)
    ap.add_argument("--stop", type=bench_args.positive, default=800)
    ap.add_argument("--duration", type=float, default=180.0,
                    help="upper bound of each step in seconds")
    ap.add_argument("--speed", choices=["human", "full"], default="human")
    ap.add_argument("--p99", type=float, default=250.0, help="the bound, in milliseconds")
    ap.add_argument("--json", help="write every step's report here")
    args = ap.parse_args()
    if args.stop < args.start:
        ap.error(f"--stop ({args.stop}) must be at least --start ({args.start})")
    steps = []
    best = None
    for tables in range(args.start, args.stop + 1, args.step):
        r = step(tables, args.duration, args.speed, args.p99)
        steps.append(r)
        rtt = r["rtt_ms"]
        print(f"T={tables:4d}  finished {r['games_finished']}/{tables}  errors {r['errors']}  "
              f"moves/s {r['moves_per_s']}  p50 {rtt['p50']} ms  p99 {rtt['p99']} ms  "
              f"(after arrival {r['rtt_ms_after_arrival']['p99']} ms)  "
              f"server cpu {r['cpu'].get('server_s')} s  rss peak {r['server_rss_mb']['peak']} MB"
              f"  load {r['load_average_before']}", flush=True)
        if not r["within_bound"]:
            break
        best = tables
    summary = {"bound_p99_ms": args.p99, "speed": args.speed, "largest_within_bound": best,
               "steps": steps}
    print(f"largest table count with p99 < {args.p99:g} ms: {best}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(summary, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
