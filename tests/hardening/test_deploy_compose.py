"""The container files (issue #36 item 3), checked without a container engine: none runs
on the development machine or in CI (docs/deploy.md, "Containers").

The compose file is read as YAML and its services, healthchecks and proxy checked; the
proxy's configuration must carry the WebSocket upgrade; the Dockerfile must end non-root
with a HEALTHCHECK on /readyz. Then the image's entry script is run for real, twice,
with each parlour service's environment from the compose file (only the database's host
and the ports changed to a temporary PostgreSQL and free loopback ports, and the bots
thinking in-process so that a loaded machine does not wait for worker processes): both processes
become ready on one database through the image's own health check, and each is the
`parlour serve --cluster` process itself (exec'd), which stops cleanly on SIGTERM.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
import yaml
from hardening_kit import Postgres

from parlour.loadtest.procs import free_port

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]
PARLOURS = ("parlour-a", "parlour-b")


def test_compose_has_two_cluster_processes_a_database_and_a_proxy():
    assert set(SERVICES) == {"db", "proxy", *PARLOURS}
    for name in PARLOURS:
        s = SERVICES[name]
        assert s["command"] == ["--cluster"]
        env = s["environment"]
        assert env["PARLOUR_DB"].startswith("postgresql://parlour:") and "@db:5432/" in env["PARLOUR_DB"]
        assert env["PARLOUR_INSTANCE"] == name
        assert s["depends_on"]["db"]["condition"] == "service_healthy"
        assert s["healthcheck"]["test"] == ["CMD", "python", "/usr/local/lib/parlour-healthcheck.py"]
        assert s["stop_signal"] == "SIGTERM"
    # The proxy's fixed address is the one address the servers trust for X-Forwarded-For.
    proxy = SERVICES["proxy"]
    assert proxy["networks"]["parlour"]["ipv4_address"] == SERVICES["parlour-a"]["environment"][
        "PARLOUR_TRUSTED_PROXIES"]
    assert all(proxy["depends_on"][n]["condition"] == "service_healthy" for n in PARLOURS)
    assert "./deploy/nginx.conf:/etc/nginx/conf.d/default.conf:ro" in proxy["volumes"]
    assert "pg_isready" in " ".join(SERVICES["db"]["healthcheck"]["test"])


def _block(conf: str, head: str) -> str:
    start = conf.index(head)
    return conf[start:conf.index("}", start)]


def test_the_proxy_upgrades_websockets_to_both_processes():
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    upstream = _block(conf, "upstream parlour")
    assert re.findall(r"server (\S+):8000;", upstream) == list(PARLOURS)
    ws = _block(conf, "location /ws")
    for line in ("proxy_http_version 1.1;", "proxy_set_header Upgrade $http_upgrade;",
                 "proxy_set_header Connection $connection_upgrade;",
                 "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
                 "proxy_pass http://parlour;"):
        assert line in ws, line
    assert "default upgrade;" in _block(conf, "map $http_upgrade $connection_upgrade")
    assert "deny all;" in _block(conf, "location /metrics")
    # The same upgrade lines as docs/deploy.md's configuration.
    doc = (ROOT / "docs" / "deploy.md").read_text()
    assert "proxy_set_header Connection $connection_upgrade;" in doc


def test_the_image_is_slim_non_root_and_checks_readyz():
    lines = [ln.strip() for ln in (ROOT / "Dockerfile").read_text().splitlines()]
    final = lines[max(i for i, ln in enumerate(lines) if ln.startswith("FROM ")):]
    assert final[0].startswith("FROM python:3.11-slim")
    users = [ln.split()[1] for ln in final if ln.startswith("USER ")]
    assert users and users[-1] not in ("root", "0")
    assert any(ln.startswith("HEALTHCHECK ") for ln in final)
    assert any("parlour-healthcheck.py" in ln for ln in final)
    assert 'ENTRYPOINT ["/usr/local/bin/parlour-entrypoint"]' in final
    for ln in final:
        if ln.startswith("COPY deploy/"):
            assert (ROOT / ln.split()[1]).is_file(), ln
    assert "/readyz" in (ROOT / "deploy" / "healthcheck.py").read_text()


def _compose_env(name: str, pg: Postgres, port: int) -> dict[str, str]:
    """A service's environment with compose's ${VAR:-default} filled in, the database
    host and the ports moved to this machine's loopback."""
    env = {}
    for key, value in SERVICES[name]["environment"].items():
        value = re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", str(value))
        env[key] = value
    env["PARLOUR_DB"] = env["PARLOUR_DB"].replace("@db:5432/parlour",
                                                  f"@127.0.0.1:{pg.port}/postgres")
    env["PARLOUR_PUBLIC_URL"] = f"http://localhost:{port}"
    env["PARLOUR_HOST"] = "127.0.0.1"  # the image listens on 0.0.0.0; tests stay on loopback
    env["PARLOUR_PORT"] = str(port)
    env["PARLOUR_BOT_WORKERS"] = "0"  # bots in-process: no worker start to wait for here
    return env


@pytest.mark.slow
@pytest.mark.timeout(360)
def test_the_entry_script_starts_two_cluster_servers_with_the_compose_environment(tmp_path):
    pg = Postgres()
    procs: list[subprocess.Popen] = []
    try:
        bindir = str(Path(sys.executable).parent)
        ports = {}
        for name in PARLOURS:
            ports[name] = free_port()
            env = {**os.environ, "PATH": bindir + os.pathsep + os.environ["PATH"],
                   **_compose_env(name, pg, ports[name])}
            log = (tmp_path / f"{name}.log").open("wb")
            procs.append(subprocess.Popen(
                ["sh", str(ROOT / "deploy" / "entrypoint.sh"), *SERVICES[name]["command"]],
                env=env, cwd=tmp_path, stdout=log, stderr=subprocess.STDOUT))
        for name, proc in zip(PARLOURS, procs, strict=True):
            env = {**os.environ, **_compose_env(name, pg, ports[name])}
            deadline = time.monotonic() + 200
            while subprocess.run([sys.executable, str(ROOT / "deploy" / "healthcheck.py")],
                                 env=env, timeout=30).returncode != 0:
                assert proc.poll() is None, (tmp_path / f"{name}.log").read_text()[-3000:]
                assert time.monotonic() < deadline, f"{name} never became ready"
                time.sleep(0.5)  # the health check's own polling, as the engine does it
            ready = httpx.get(f"http://127.0.0.1:{ports[name]}/readyz",
                              headers={"Host": "localhost"})
            assert ready.json()["database"] == "ok"
            # The entry script exec'd the server: the process the engine signals.
            cmdline = Path(f"/proc/{proc.pid}/cmdline").read_bytes().split(b"\0")
            assert b"serve" in cmdline and b"--cluster" in cmdline
            log = (tmp_path / f"{name}.log").read_text()
            assert "postgresql" in log and "PARLOUR_INSTANCE" in log, log[-2000:]
        for proc in procs:
            proc.send_signal(signal.SIGTERM)
        # A clean stop: uvicorn's shutdown, then the status of the signal itself (as in
        # test_hardening_faults.py), never a hang or a crash.
        assert all(p.wait(60) in (0, -signal.SIGTERM) for p in procs)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait(10)
        pg.cleanup()
