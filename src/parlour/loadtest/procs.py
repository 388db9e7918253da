"""Server processes for load and fault runs: start, signal, restart, and measure them.

Everything here talks only to this machine: a server is a ``parlour serve``
subprocess on a free 127.0.0.1 port, and a given URL must be a loopback address.
"""

from __future__ import annotations

import ipaddress
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

import httpx


class NotLocal(ValueError):
    """A URL that is not on this machine: load and fault runs never leave it."""


def check_local_url(url: str) -> str:
    """``url`` without a trailing slash, or :class:`NotLocal` if it is not loopback."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https", "ws", "wss") or not parts.hostname:
        raise NotLocal(f"not a server URL: {url!r} (expected http://127.0.0.1:PORT)")
    host = parts.hostname
    local = host == "localhost"
    if not local:
        try:
            local = ipaddress.ip_address(host).is_loopback
        except ValueError:
            local = False
    if not local:
        raise NotLocal(f"refusing {url!r}: a load test only targets a server on this machine "
                       f"(127.0.0.0/8, localhost or [::1]), not {host!r}")
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    return f"{scheme}://{parts.netloc}{parts.path.rstrip('/')}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_bytes(pid: int) -> int | None:
    """The resident set size of a process, from ``/proc/PID/status`` (None if gone)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def cpu_seconds(pid: int) -> float | None:
    """User plus system CPU time of a process so far, from ``/proc/PID/stat``."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pid_listening_on(port: int) -> int | None:
    """The process listening on a local TCP port (from /proc), if it can be seen."""
    inodes = set()
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(name) as f:
                next(f)
                for line in f:
                    cols = line.split()
                    if cols[3] == "0A" and int(cols[1].rsplit(":", 1)[1], 16) == port:
                        inodes.add(cols[9])
        except OSError:
            continue
    if not inodes:
        return None
    wanted = {f"socket:[{i}]" for i in inodes}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                if os.readlink(f"/proc/{pid}/fd/{fd}") in wanted:
                    return int(pid)
        except OSError:
            continue
    return None


class ServerProcess:
    """``parlour serve`` in a subprocess on 127.0.0.1 (test mode), restartable on its DB.

    ``db`` is a SQLite path or a database URL; without one a temporary SQLite file is
    used (and removed by :meth:`cleanup`). The server's log goes to a file, never to a
    pipe that could fill up.
    """

    def __init__(self, db: str | Path | None = None, *, port: int | None = None,
                 bot_delay: float = 0.3, round_pause: float = 0.5, grace: float = 30.0,
                 extra: list[str] | None = None, env: dict[str, str] | None = None,
                 workdir: str | Path | None = None) -> None:
        self._tmp = None
        if workdir is None:
            self._tmp = tempfile.mkdtemp(prefix="parlour-load-")
            workdir = self._tmp
        self.workdir = Path(workdir)
        self.db = str(db) if db is not None else str(self.workdir / "tables.sqlite3")
        self.port = port or free_port()
        self.bot_delay, self.round_pause, self.grace = bot_delay, round_pause, grace
        self.extra = list(extra or [])
        self.env = dict(env or {})
        self.proc: subprocess.Popen | None = None
        self.starts = 0
        self.log_path = self.workdir / f"server-{self.port}.log"

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def start(self, timeout: float = 180) -> ServerProcess:
        """Start the server and return once it answers with its bot workers ready.
        ``timeout`` is generous: on a busy two-core machine a cold start (the workers
        compile and load the engines) of two servers at once took over a minute."""
        env = {**os.environ, "PARLOUR_TESTING": "1", **self.env}
        cmd = [sys.executable, "-c", "from parlour.cli import main; main()", "serve",
               "--port", str(self.port), "--db", self.db, "--bot-delay", str(self.bot_delay),
               "--round-pause", str(self.round_pause), "--grace", str(self.grace),
               "--trusted-proxy", "127.0.0.1", *self.extra]
        log = open(self.log_path, "ab")  # noqa: SIM115 -- the child keeps it
        try:
            self.proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL)
        finally:
            log.close()
        self.starts += 1
        deadline, last = time.time() + timeout, "no answer"
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited at start:\n{self.log_tail()}")
            try:
                r = httpx.get(self.base + "/healthz", timeout=1)
                last = r.text[:200]
                # Ready once its bot workers have loaded the engines too: a run that
                # started earlier would share the CPU with their start.
                if r.status_code == 200 and r.json().get("bots") != "starting":
                    return self
            except (httpx.HTTPError, ValueError):
                pass
            time.sleep(0.05)
        self.kill()
        raise RuntimeError(f"the server did not start in {timeout} s (its last /healthz: "
                           f"{last}):\n{self.log_tail()}")

    def log_tail(self, n: int = 4000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-n:]
        except OSError:
            return ""

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        if self.alive():
            assert self.proc is not None
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def terminate(self, timeout: float = 15) -> int | None:
        """SIGTERM and wait; SIGKILL if it does not stop in ``timeout`` seconds."""
        if not self.alive():
            return None
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            return None

    def restart(self) -> ServerProcess:
        """Start again on the same port and database."""
        if self.alive():
            self.terminate()
        return self.start()

    def rss(self) -> int | None:
        return rss_bytes(self.proc.pid) if self.alive() else None  # type: ignore[union-attr]

    def stop(self) -> None:
        self.terminate()

    def cleanup(self) -> None:
        self.stop()
        if self._tmp:
            import shutil

            shutil.rmtree(self._tmp, ignore_errors=True)

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.cleanup()
