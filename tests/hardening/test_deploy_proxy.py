"""The compose file's proxy for real: Debian's nginx with ``deploy/nginx.conf`` (only the
upstream addresses and the listening port moved to this machine's loopback) in front of
two ``parlour serve --cluster`` processes. A game is played to its end over a WebSocket
upgraded by the proxy; ``/metrics`` is refused at the proxy and answered by each process
directly. scripts/setup.sh installs nginx; without it the test skips."""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
import time
from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest

from parlour.loadtest import ServerProcess
from parlour.loadtest.procs import free_port
from server.live_kit import WsSeat

pytestmark = [pytest.mark.slow, pytest.mark.timeout(400)]

ROOT = Path(__file__).resolve().parents[2]
START = 180  # seconds a server may take to start on a loaded machine


def proxy_conf(tmp: Path, port: int, upstreams: list[int]) -> Path:
    site = (ROOT / "deploy" / "nginx.conf").read_text()
    site = re.sub(r"server parlour-a:8000;\s*server parlour-b:8000;",
                  " ".join(f"server 127.0.0.1:{p};" for p in upstreams), site)
    site = site.replace("listen 80;", f"listen 127.0.0.1:{port};")
    assert f"127.0.0.1:{upstreams[1]}" in site and f"127.0.0.1:{port}" in site
    conf = tmp / "nginx.conf"
    conf.write_text(f"""daemon off;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log;
events {{ worker_connections 256; }}
http {{
    access_log {tmp}/access.log;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    {site}
}}
""")
    return conf


def test_a_game_through_the_compose_proxy(tmp_path):
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists()
                                      else None)
    if nginx is None:
        pytest.skip("nginx (Debian's nginx-light) is not installed")
    servers = []
    proxy = None
    try:
        for name in ("A", "B"):
            (tmp_path / name).mkdir()
            s = ServerProcess(tmp_path / "tables.sqlite3", bot_delay=0.02, round_pause=0.1,
                              workdir=tmp_path / name, extra=["--cluster"],
                              env={"PARLOUR_INSTANCE": name, "PARLOUR_BOT_WORKERS": "0"})
            servers.append(s.start(START))
        proxy, base = start_proxy(nginx, tmp_path, [s.port for s in servers])

        r = httpx.post(base + "/api/tables", timeout=30, json={
            "game": "fanti", "players": 2, "rules": {"rounds": 1}, "name": "Hana",
            "seats": [{"kind": "person"}, {"kind": "bot", "bot": "random"}]})
        assert r.status_code == 201, r.text
        seat = WsSeat(SimpleNamespace(port=int(base.rsplit(":", 1)[1])), r.json()["table"], r.json()["token"])
        seat.recv()
        seat.send({"type": "start"})
        assert seat.play()["table"]["status"] == "over"  # every move through the proxy
        seat.close()
        assert httpx.get(base + "/metrics", timeout=10).status_code == 403
        for s in servers:
            m = httpx.get(s.base + "/metrics", timeout=10)
            assert m.status_code == 200 and "parlour_moves_total" in m.text
        # The upgrade went through nginx: its access log has the 101.
        assert re.search(r'"GET /ws HTTP/1\.1" 101 ', (tmp_path / "access.log").read_text())
    finally:
        stop_proxy(proxy)
        for s in servers:
            s.stop()


def start_proxy(nginx: str, tmp: Path, upstreams: list[int]) -> tuple[subprocess.Popen, str]:
    """nginx with the compose file's site in front of ``upstreams``; its base URL once up."""
    port = free_port()
    conf = proxy_conf(tmp, port, upstreams)
    proxy = subprocess.Popen([nginx, "-c", str(conf), "-e", str(tmp / "error.log")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        assert proxy.poll() is None, (tmp / "error.log").read_text()
        try:
            if httpx.get(base + "/healthz", timeout=2).status_code == 200:
                return proxy, base
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline, "nginx never answered"
        time.sleep(0.2)


def stop_proxy(proxy: subprocess.Popen | None) -> None:
    if proxy is not None and proxy.poll() is None:
        proxy.send_signal(signal.SIGQUIT)  # nginx's graceful stop
        try:
            proxy.wait(20)
        except subprocess.TimeoutExpired:
            proxy.kill()
            proxy.wait(10)


def test_the_proof_run_games_through_the_proxy_while_metrics_are_scraped_and_a_process_dies(
        tmp_path):
    """#36's proof, the compose stack by hand: PostgreSQL, two ``serve --cluster``
    processes and nginx with ``deploy/nginx.conf``. Six games are played through the proxy
    while each process's /metrics is scraped twice a second; the process holding the lease
    of a table in play is SIGKILLed mid-game; the proxy sends the reconnecting seats to the
    other, which takes the dead one's tables over, and every game finishes with every
    record checking. The log lines of the run are printed (``pytest -s``) and quoted in
    docs/deploy.md."""
    import asyncio
    import json

    from hardening_kit import Postgres, check_moves, fetch_records
    from sqlalchemy import create_engine, select

    from parlour import record
    from parlour.loadtest import run_sync, run_tables
    from parlour.server.db import LEASES, TABLES
    from parlour.server.verify import verify

    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists()
                                      else None)
    if nginx is None:
        pytest.skip("nginx (Debian's nginx-light) is not installed")
    pg = Postgres()
    db = create_engine(pg.sqlalchemy_url)
    servers: dict[str, ServerProcess] = {}
    proxy = None
    try:
        for name in ("A", "B"):
            (tmp_path / name).mkdir()
            servers[name] = ServerProcess(
                pg.url, bot_delay=0.05, round_pause=0.2, workdir=tmp_path / name,
                extra=["--cluster", "--lease", "3"],
                env={"PARLOUR_INSTANCE": name, "PARLOUR_BOT_WORKERS": "0",
                     "PARLOUR_POLL_EVERY": "0.05"}).start(START)
        proxy, base = start_proxy(nginx, tmp_path, [s.port for s in servers.values()])
        scrapes = {"A": 0, "B": 0, "the survivor after the kill": 0}
        moves_seen: dict[str, list[float]] = {"A": [], "B": []}
        dead: list[str] = []  # the killed process's name, once killed
        scraping = asyncio.Lock()  # a process is killed between two scrapes, never in one

        def moves(text: str) -> float:
            return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
                       if line.startswith("parlour_moves_total"))

        async def scrape(stop: asyncio.Event) -> None:
            async with httpx.AsyncClient(timeout=5) as http:
                while not stop.is_set():
                    for name, s in servers.items():
                        async with scraping:
                            if name in dead:
                                continue
                            r = await http.get(s.base + "/metrics")
                        assert r.status_code == 200 and "parlour_moves_total" in r.text
                        scrapes[name] += 1
                        moves_seen[name].append(moves(r.text))
                        if dead:  # the one left standing
                            scrapes["the survivor after the kill"] += 1
                    await asyncio.sleep(0.5)

        def runner_of_a_table() -> str | None:
            """A process holding the lease of a table in play. Which one does is up to the
            proxy: the process that hears a table's "start" takes its lease."""
            with db.connect() as c:
                return c.scalar(select(LEASES.c.owner).select_from(LEASES.join(
                    TABLES, TABLES.c.id == LEASES.c.table_id)).where(
                    LEASES.c.until > time.time() + 1, TABLES.c.status == "playing"
                ).order_by(LEASES.c.owner).limit(1))

        async def scenario():
            stop = asyncio.Event()
            scraper = asyncio.create_task(scrape(stop))
            ticks: list = []
            games = asyncio.create_task(run_tables(
                [base], 6, duration=200, speed=(0.05, 0.15), seed=36, ramp=0.3,
                compression=None, game="fanti", players=2,
                on_tick=lambda runs, stats: ticks.append((runs, stats))))
            deadline = time.monotonic() + 120
            while not (ticks and all(r.id for r in ticks[-1][0])
                       and ticks[-1][1].moves_acked >= 18):
                assert time.monotonic() < deadline, "the games never got going"
                await asyncio.sleep(0.1)
            deadline = time.monotonic() + 60
            async with scraping:
                # Kill a process while it holds the lease of a table in play, so the other
                # must take it over. (A table in a process's memory is not enough: each
                # keeps the tables its connections look at, run by either.)
                while (victim := await asyncio.to_thread(runner_of_a_table)) is None:
                    assert time.monotonic() < deadline, "no process ran a table in play"
                    await asyncio.sleep(0.05)
                await asyncio.to_thread(servers[victim].kill)
                dead.append(victim)
            runs, stats = await games
            stop.set()
            await scraper
            return runs, stats

        runs, stats = run_sync(scenario())
        assert not stats.failures, stats.failures[:5]
        assert all(r.finished for r in runs), [r.id for r in runs if not r.finished]
        assert stats.reconnects > 0  # seats on the dead process came back through the proxy
        records = run_sync(fetch_records(runs))
        assert len(records) == len(runs)
        for data in records.values():
            assert record.load(data).is_over and verify(data).ok
        check_moves(runs, records)  # every acknowledged move is in its record
        (victim,) = dead
        (survivor,) = set(servers) - {victim}
        assert scrapes[victim] > 0 and scrapes["the survivor after the kill"] > 0
        seen = moves_seen[survivor]
        assert seen[-1] > seen[0]  # the survivor's counters moved while it was scraped

        log = servers[survivor].log_path.read_text(errors="replace").splitlines()
        taken = [x for x in log if "table taken over" in x]
        assert taken, "the survivor never took a table over"
        upstream = [x for x in (tmp_path / "error.log").read_text().splitlines()
                    if "upstream" in x]
        print("\n--- the proof run:", victim, "killed,", json.dumps(scrapes),
              f"{stats.reconnects} reconnects,", f"{len(runs)} games finished")
        print("--- the survivor's log (takeovers):", *taken[:3], sep="\n")
        print("--- nginx's error log (the dead upstream):", *upstream[:3], sep="\n")
    finally:
        stop_proxy(proxy)
        for s in servers.values():
            s.cleanup()
        db.dispose()
        pg.cleanup()
