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
        port = free_port()
        conf = proxy_conf(tmp_path, port, [s.port for s in servers])
        proxy = subprocess.Popen([nginx, "-c", str(conf), "-e", str(tmp_path / "error.log")],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            assert proxy.poll() is None, (tmp_path / "error.log").read_text()
            try:
                if httpx.get(base + "/healthz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "nginx never answered"
            time.sleep(0.2)

        r = httpx.post(base + "/api/tables", timeout=30, json={
            "game": "fanti", "players": 2, "rules": {"rounds": 1}, "name": "Hana",
            "seats": [{"kind": "person"}, {"kind": "bot", "bot": "random"}]})
        assert r.status_code == 201, r.text
        seat = WsSeat(SimpleNamespace(port=port), r.json()["table"], r.json()["token"])
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
        if proxy is not None and proxy.poll() is None:
            proxy.send_signal(signal.SIGQUIT)  # nginx's graceful stop
            try:
                proxy.wait(20)
            except subprocess.TimeoutExpired:
                proxy.kill()
                proxy.wait(10)
        for s in servers:
            s.stop()
