"""``parlour play --connect`` never loses the seat (#36 findings 5 and 7): it shows its
personal rejoin link, Ctrl-C keeps the seat and says how to take it back, the shown
link (used once, then rotated) takes the seat back, and each round's itemised result
is shown."""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time

import httpx
import pytest
from live_kit import Server, WsSeat

from parlour.netclient import parse_link, play_remote

pytestmark = [pytest.mark.timeout(180), pytest.mark.slow]

LINK = re.compile(r"(http://\S+#rejoin=[\w-]+)")


def test_parse_rejoin_link():
    link = parse_link("http://127.0.0.1:8000/t/abc#rejoin=s-1")
    assert (link.table, link.rejoin, link.invite) == ("abc", "s-1", None)


def _lines(stream, into: queue.Queue) -> None:
    for raw in iter(stream.readline, b""):
        into.put(raw.decode("utf-8", "replace").rstrip("\n"))


def _wait_line(lines: queue.Queue, seen: list[str], pattern: str, timeout: float = 60) -> str:
    deadline = time.monotonic() + timeout
    while True:
        for line in seen:
            if pattern in line:
                return line
        seen.append(lines.get(timeout=max(0.1, deadline - time.monotonic())))


def test_ctrl_c_then_the_shown_link_takes_the_seat_back(tmp_path):
    server = Server(tmp_path / "db.sqlite3").start()
    proc = None
    try:
        j = server.create(game="fanti", players=2, rules={"rounds": 1}, name="Hana",
                          seats=[{"kind": "person"}, {"kind": "person"}], test={"seed": 8})
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "NO_COLOR": "1",
               "PYTHONPATH": os.pathsep.join(sys.path)}
        proc = subprocess.Popen(
            [sys.executable, "-m", "parlour", "play", "--connect", j["invite_url"]],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
        lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=_lines, args=(proc.stdout, lines), daemon=True).start()
        seen: list[str] = []
        shown = LINK.search(_wait_line(lines, seen, "Your rejoin link")).group(1)
        host = WsSeat(server, j["table"], j["token"])
        host.start_when_seated()
        _wait_line(lines, seen, "Your hand:")  # the game is on at the terminal
        proc.send_signal(signal.SIGINT)  # Ctrl-C
        assert proc.wait(30) == 130
        proc.stdout.close()
        _wait_line(lines, seen, "take it back with")
        text = "\n".join(seen)
        assert f"parlour play --connect '{shown}'" in text
        assert "Traceback" not in text

        out: list[str] = []
        result: list[int] = []
        t = threading.Thread(target=lambda: result.append(play_remote(
            shown, input_fn=lambda prompt: "1", output=out.append)), daemon=True)
        t.start()
        try:
            host.play()
        except TimeoutError:
            raise AssertionError("\n".join(out)) from None
        t.join(90)
        back = "\n".join(out)
        assert result == [0], back
        assert out[0].startswith("You are back in seat 1 ")
        fresh = LINK.search(back).group(1)
        assert fresh != shown  # rotated: the used link is spent, the new one is shown
        assert back.count("Round result") == 1  # the round, item by item
        assert "total" in back and "Game over" in back
        assert "Traceback" not in back
        r = httpx.post(f"{server.base}/api/tables/{j['table']}/rejoin",
                       json={"key": parse_link(shown).rejoin}, timeout=10)
        assert r.status_code == 403
        host.close()
    finally:
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()
        server.stop()


def test_a_seat_taken_back_elsewhere_is_said_in_the_readers_words_and_not_offered_back(tmp_path):
    """The terminal's rejoin link opened elsewhere: the terminal says why in Persian and
    stops -- without the "your seat is kept ... to come back" line it printed before, which
    offered the link just spent. A terminal player who gave no name sits as the room's
    "Player 2" (the page words it for each reader; it was the English "Terminal player"),
    and the terminal words the room-given names in its reader's language too."""
    from parlour.i18n.translate import catalog_json
    from parlour.speech import speaking

    server = Server(tmp_path / "db.sqlite3").start()
    try:
        j = server.create(game="fanti", players=3, rules={"rounds": 1}, name="Hana",
                          seats=[{"kind": "person"}, {"kind": "person"},
                                 {"kind": "bot", "bot": "easy"}], test={"seed": 8})
        out: list[str] = []
        result: list[int] = []

        def persian() -> None:
            with speaking("fa"):
                result.append(play_remote(j["invite_url"], input_fn=lambda prompt: "1",
                                          output=out.append))

        t = threading.Thread(target=persian, daemon=True)
        t.start()
        host = WsSeat(server, j["table"], j["token"])
        deadline = time.monotonic() + 30
        while not (host.state and host.state["table"]["seats"][1]["claimed"]):
            assert time.monotonic() < deadline, out
            host.recv()
        assert host.state["table"]["seats"][1]["name"] == "Player 2"
        while not any("#rejoin=" in line for line in out):
            assert time.monotonic() < deadline, out
            time.sleep(0.05)
        shown = LINK.search("\n".join(out)).group(1)
        r = httpx.post(f"{server.base}/api/tables/{j['table']}/rejoin",
                       json={"key": parse_link(shown).rejoin}, timeout=10)
        assert r.status_code == 200  # another device takes the seat
        t.join(30)
        assert result == [0]
        text = "\n".join(out)
        fa = catalog_json("fa", "terminal")
        assert fa["remote.why.taken_back"] in text
        assert "parlour play --connect" not in text  # the spent link is not offered back
        assert catalog_json("fa", "web")["table.computer_n"].format(n="3") in text
        assert "Bot 3" not in text and "Terminal player" not in text
        host.close()
    finally:
        server.stop()
