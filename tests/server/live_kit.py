"""A real ``parlour serve`` in a subprocess, and a plain WebSocket seat client for it."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

from parlour.delta import Mirror

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``parlour serve`` on a free port and a given SQLite file (test mode)."""

    def __init__(self, db: Path, port: int | None = None, bot_delay: float = 0.02) -> None:
        self.db = db
        self.port = port or free_port()
        self.bot_delay = bot_delay
        self.proc: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        env = {**os.environ, "PARLOUR_TESTING": "1"}
        cmd = [sys.executable, "-c", "from parlour.cli import main; main()", "serve",
               "--port", str(self.port), "--db", str(self.db), "--bot-delay",
               str(self.bot_delay), "--round-pause", "0", "--grace", "30"]
        # the server's log lines (JSON, one per request) go to a file: an unread pipe
        # would fill up and stop the server
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 -- kept open while the server runs
        self.proc = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=subprocess.DEVNULL,
                                     stderr=self.log)
        deadline = time.time() + 30
        while time.time() < deadline:
            if self.proc.poll() is not None:
                self.log.seek(0)
                raise RuntimeError(self.log.read().decode())
            try:
                if httpx.get(self.base + "/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, nothing is flushed by the server."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def create(self, **body: Any) -> dict[str, Any]:
        r = httpx.post(self.base + "/api/tables", json=body, timeout=10)
        assert r.status_code == 201, r.text
        return r.json()


class WsSeat:
    """A seat over a real WebSocket."""

    def __init__(self, server: Server, table: str, token: str | None = None,
                 watch: str | None = None) -> None:
        self.ws = connect(f"ws://127.0.0.1:{server.port}/ws", open_timeout=10).__enter__()
        auth = {"token": token} if token is not None else {"watch": watch}
        self.ws.send(json.dumps({"type": "hello", "table": table, **auth}))
        self.state: dict[str, Any] | None = None
        self.mirror = Mirror()
        self.seq = -1

    def recv(self, timeout: float = 20) -> dict[str, Any]:
        m = json.loads(self.ws.recv(timeout=timeout))
        if not self.mirror.take(m):
            self.send({"type": "sync"})
        elif "state" in m or "delta" in m:
            self.state, self.seq = self.mirror.state, m["seq"]
        return m

    def my_turn(self) -> bool:
        s = self.state
        return bool(s and s["view"] and s["table"]["status"] == "playing" and s["commit"]
                    and s["view"]["current_player"] == s["you"]
                    and not (s.get("pass") or {}).get("auto"))

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send(json.dumps(msg))

    def start_when_seated(self, wait: float = 20) -> None:
        """As the host: wait until every seat is taken (a terminal player joining by its
        link, say), then start the game."""
        deadline = time.time() + wait
        while not (self.state and all(s["claimed"] for s in self.state["table"]["seats"])):
            assert time.time() < deadline, f"the seats were not all taken in {wait} s"
            self.recv()
        self.send({"type": "start"})

    def play(self, until_seq: int | None = None) -> dict[str, Any]:
        """Play first legal moves until the game ends (or the table passes ``until_seq``)."""
        answered = -1
        while True:
            s = self.state
            if s and s["table"]["status"] == "over":
                return s
            if until_seq is not None and self.seq >= until_seq and self.my_turn():
                return s  # type: ignore[return-value]
            if self.my_turn() and answered != self.seq:
                answered = self.seq
                self.send({"type": "move", "seq": self.seq, "move": s["view"]["legal"][0]})
            m = self.recv()
            if m.get("type") == "error" and m.get("code") == "rate_limited":
                # faster than a person (the bots here move at once): the server's limit
                # of messages a second refused the move; send it again a moment later
                time.sleep(0.2)
                answered = -1

    def close(self) -> None:
        self.ws.close()
