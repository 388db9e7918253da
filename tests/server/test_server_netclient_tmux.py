"""#36's proof in a real terminal: ``parlour play --connect`` runs in a tmux pane, Ctrl-C
is typed into it, and the rejoin link the pane shows takes the seat back in the same
pane (the table and the turn redrawn). The pipe-driven twin of this test is
test_server_netclient_rejoin.py; this one is what a person at a terminal sees."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid

import pytest
from live_kit import Server, WsSeat

pytestmark = [pytest.mark.timeout(240), pytest.mark.slow,
              pytest.mark.skipif(shutil.which("tmux") is None,
                                 reason="tmux is not installed (scripts/setup.sh installs it)")]

LINK = re.compile(r"(http://\S+#rejoin=[\w-]+)")


class Pane:
    """One tmux pane on a private tmux server (its own socket: no user session touched)."""

    def __init__(self, env: dict[str, str]) -> None:
        self.socket = "parlour-test-" + uuid.uuid4().hex[:8]
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        self.tmux("new-session", "-d", "-s", "seat", "-x", "220", "-y", "60",
                  f"env {exports} bash --norc --noprofile")

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], check=True,
                              capture_output=True, text=True, timeout=30).stdout

    def type(self, line: str) -> None:
        self.tmux("send-keys", "-t", "seat", "-l", line)
        self.tmux("send-keys", "-t", "seat", "Enter")

    def screen(self) -> str:
        # -J joins wrapped lines (a long link stays whole); -S - keeps the scrollback
        return self.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "seat")

    def wait(self, pattern: str, after: int = 0, timeout: float = 90) -> str:
        """The pane's text once ``pattern`` shows at or after character ``after``."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.screen()
            if pattern in text[after:]:
                return text
            time.sleep(0.2)
        raise AssertionError(f"{pattern!r} never showed in the pane:\n{self.screen()}")

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


def test_ctrl_c_in_a_terminal_then_the_shown_link_takes_the_seat_back(tmp_path):
    server = Server(tmp_path / "db.sqlite3").start()
    env = {"PYTHONPATH": os.pathsep.join(sys.path), "NO_COLOR": "1", "PYTHONUNBUFFERED": "1",
           "PARLOUR_I18N_STRICT": "1", "LANG": "C.UTF-8", "HOME": str(tmp_path)}
    pane = Pane(env)
    try:
        j = server.create(game="fanti", players=2, rules={"rounds": 1}, name="Hana",
                          seats=[{"kind": "person"}, {"kind": "person"}], test={"seed": 8})
        play = f"{shlex.quote(sys.executable)} -m parlour play --connect"
        pane.type(f"{play} {shlex.quote(j['invite_url'])}; echo exit=$?")
        shown = LINK.search(pane.wait("Your rejoin link")).group(1)
        host = WsSeat(server, j["table"], j["token"])
        host.start_when_seated(30)
        pane.wait("Your hand:")
        pane.tmux("send-keys", "-t", "seat", "C-c")  # Ctrl-C, typed
        text = pane.wait("exit=130")
        assert "take it back with" in text and shown in text.split("take it back with")[1]
        assert "Traceback" not in text

        mark = len(text)
        pane.type(f"{play} {shlex.quote(shown)}")
        pane.wait("You are back in seat 1", after=mark)
        back = pane.wait("Your hand:", after=mark)[mark:]  # the table redrawn
        assert "Traceback" not in back
        fresh = LINK.search(back.split("You are back in seat 1", 1)[1]).group(1)
        assert fresh != shown  # the used link is spent; the new one is shown
        host.recv()
        assert host.state["table"]["seats"][1]["claimed"]
        host.close()
    finally:
        pane.close()
        server.stop()
