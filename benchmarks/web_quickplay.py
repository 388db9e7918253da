"""Front page to a game in play, in real Chromium: one click on "Play ... now".

Starts ``parlour serve`` (a fresh SQLite file, bots at their normal 0.6 s delay), opens
the front page in Debian's Chromium, clicks quick play, and times from the click until
the page shows a dealt hand with the turn indicator (the game in play); repeated per game
in fresh browser contexts (cold caches). Also reports the page weight: the bytes the
browser fetched for the front page and for the table page.

    python benchmarks/web_quickplay.py --runs 10
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import bench_args
import httpx
from playwright.sync_api import sync_playwright

WEIGHT = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const res = performance.getEntriesByType('resource');
  return [res.length + 1, nav.decodedBodySize + res.reduce((a, r) => a + r.decodedBodySize, 0)];
}"""
"""The page and everything it fetched (bytes as served, before any compression)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=bench_args.positive, default=10)
    args = ap.parse_args()
    port = free_port()
    db = Path(tempfile.mkdtemp()) / "bench.sqlite3"
    server = subprocess.Popen([str(Path(sys.executable).with_name("parlour")), "serve", "--port", str(port),
                               "--db", str(db)], env=os.environ.copy(),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                httpx.get(base + "/healthz", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=shutil.which("chromium"),
                                        args=["--no-sandbox", "--disable-gpu"])
            weights: dict[str, int] = {}
            for game in ("fantan", "fanti"):
                times = []
                for run in range(args.runs):
                    ctx = browser.new_context()
                    page = ctx.new_page()
                    page.goto(base + "/")
                    page.wait_for_selector(f"[data-action=quick-play][data-game={game}]")
                    page.wait_for_load_state("networkidle")
                    front = page.evaluate(WEIGHT)
                    t0 = time.perf_counter()
                    page.click(f"[data-action=quick-play][data-game={game}]")
                    page.wait_for_selector(".hand .card")
                    page.wait_for_selector(".turn-cue:not(:empty)")
                    times.append(time.perf_counter() - t0)
                    page.wait_for_load_state("networkidle")
                    if run == 0:
                        weights["front page"] = front
                        weights[f"{game} table page"] = page.evaluate(WEIGHT)
                    ctx.close()
                times.sort()
                print(f"{game}: click to a game in play: median {statistics.median(times) * 1000:.0f} ms, "
                      f"max {times[-1] * 1000:.0f} ms over {len(times)} runs")
            for k, (files, size) in weights.items():
                print(f"page weight, {k}: {size / 1024:.1f} KiB in {files} files (uncompressed)")
            browser.close()
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
