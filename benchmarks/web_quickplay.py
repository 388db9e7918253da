"""Front page to a game in play, in real Chromium: one click on "Play ... now".

Starts ``parlour serve`` (a fresh SQLite file, bots at their normal 0.6 s delay), opens
the front page in Debian's Chromium, clicks quick play, and times from the click until
the page shows a dealt hand with the turn indicator (the game in play); repeated per game
in fresh browser contexts (cold caches). Also reports the page weight: the bytes the
browser fetched for the front page and for the table page.

    python benchmarks/web_quickplay.py --runs 10

With ``--against OLD/src`` a second server runs that tree (another checkout's ``src``),
and every run clicks on the old and the new front page in turn (which goes first
alternates), so both see the same moment of a busy machine; it prints each median and
the new/old ratio of the medians with the range of the per-pair ratios.

    python benchmarks/web_quickplay.py --runs 15 --against /tmp/old/src
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
from playwright.sync_api import TimeoutError as PlaywrightTimeout
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


def start_server(src: str | None) -> tuple[subprocess.Popen, str]:
    """``parlour serve`` on a fresh SQLite file; ``src`` runs another tree's code."""
    port = free_port()
    db = Path(tempfile.mkdtemp()) / "bench.sqlite3"
    # One address clicks quick play far more often than a person would: lift the per-address
    # limits (a 429 "too many new tables" page would otherwise end a long run).
    env = os.environ | {"PARLOUR_CREATE_PER_MINUTE": "10000", "PARLOUR_CREATE_BURST": "10000",
                        "PARLOUR_MAX_BOT_TABLES_PER_ADDRESS": "10000"}
    if src:
        env["PYTHONPATH"] = src
    server = subprocess.Popen([sys.executable, "-m", "parlour", "serve", "--port", str(port), "--db", str(db)],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            httpx.get(base + "/healthz", timeout=1)
            return server, base
        except httpx.HTTPError:
            time.sleep(0.1)
    server.terminate()
    sys.exit(f"the server{' of ' + src if src else ''} did not answer /healthz in 20 s")


def quick_play(browser, base: str, game: str) -> tuple[float, list[int], list[int]]:
    """One click on quick play in a fresh context: seconds to a game in play, and the
    weight of the front page and of the table page."""
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(base + "/")
    page.wait_for_selector(f"[data-action=quick-play][data-game={game}]")
    page.wait_for_load_state("networkidle")
    front = page.evaluate(WEIGHT)
    t0 = time.perf_counter()
    page.click(f"[data-action=quick-play][data-game={game}]")
    try:
        page.wait_for_selector(".hand .card")
        page.wait_for_selector(".turn-cue:not(:empty)")
    except PlaywrightTimeout:
        shot = Path(tempfile.mkdtemp()) / f"quickplay-{game}.png"
        page.screenshot(path=shot)
        sys.exit(f"{base}: no {game} game in play 30 s after the click, at {page.url}; "
                 f"the page: {shot}\n{page.inner_text('body')[:600]}")
    took = time.perf_counter() - t0
    page.wait_for_load_state("networkidle")
    table = page.evaluate(WEIGHT)
    ctx.close()
    return took, front, table


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=bench_args.positive, default=10)
    ap.add_argument("--against", metavar="OLD_SRC",
                    help="another tree's src folder: time it too, click for click (old/new)")
    args = ap.parse_args()
    if args.against and not (Path(args.against) / "parlour" / "__init__.py").is_file():
        ap.error(f"--against {args.against}: not a src folder holding parlour/")
    trees = {"new": None} | ({"old": args.against} if args.against else {})
    servers = {name: start_server(src) for name, src in trees.items()}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=shutil.which("chromium"),
                                        args=["--no-sandbox", "--disable-gpu"])
            weights: dict[str, list[int]] = {}
            for game in ("fantan", "fanti"):
                times: dict[str, list[float]] = {name: [] for name in trees}
                for run in range(args.runs):
                    order = list(trees) if run % 2 == 0 else list(reversed(trees))
                    for name in order:
                        took, front, table = quick_play(browser, servers[name][1], game)
                        times[name].append(took)
                        weights.setdefault(f"front page ({name})", front)
                        weights.setdefault(f"{game} table page ({name})", table)
                for name, ts in times.items():
                    print(f"{game} {name}: click to a game in play: median {statistics.median(ts) * 1000:.0f} ms, "
                          f"max {max(ts) * 1000:.0f} ms over {len(ts)} runs")
                if "old" in times:
                    pairs = sorted(n / o for n, o in zip(times["new"], times["old"], strict=True))
                    ratio = statistics.median(times["new"]) / statistics.median(times["old"])
                    print(f"{game} new/old: {ratio:.3f} (pairs {pairs[0]:.2f}-{pairs[-1]:.2f}, "
                          f"median pair {statistics.median(pairs):.3f})")
            for k, (files, size) in weights.items():
                print(f"page weight, {k}: {size / 1024:.1f} KiB in {files} files (uncompressed)")
            browser.close()
    finally:
        for server, _ in servers.values():
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    main()
