"""``parlour.netclient.play_remote``: a terminal player takes a seat by the invite link."""

from __future__ import annotations

import threading
import time

import pytest
from live_kit import Server, WsSeat

from parlour.netclient import parse_link, play_remote

pytestmark = [pytest.mark.timeout(120), pytest.mark.slow]


def test_parse_link():
    link = parse_link("http://127.0.0.1:8000/t/abc_DEF#invite=k-1")
    assert (link.base, link.table, link.invite, link.watch) == (
        "http://127.0.0.1:8000", "abc_DEF", "k-1", None)
    assert link.ws_url == "ws://127.0.0.1:8000/ws"
    assert parse_link("https://x.org/t/T?watch=w").ws_url == "wss://x.org/ws"
    for bad in ("ftp://x/t/a#invite=k", "http://x/a#invite=k", "http://x/t/a"):
        with pytest.raises(ValueError):
            parse_link(bad)


def test_a_terminal_player_plays_a_whole_game(tmp_path):
    server = Server(tmp_path / "db.sqlite3").start()
    try:
        j = server.create(game="fanti", players=2, rules={"rounds": 1}, name="Host",
                          seats=[{"kind": "person"}, {"kind": "person"}], test={"seed": 8})
        script = iter(["h", "zz"])
        prompts: list[str] = []
        out: list[str] = []

        def answer(prompt: str) -> str:
            prompts.append(prompt)
            return next(script, "1")

        result: list[int] = []
        t = threading.Thread(target=lambda: result.append(
            play_remote(j["invite_url"], hints=True, name="Term", input_fn=answer,
                        output=out.append)), daemon=True)
        t.start()
        host = WsSeat(server, j["table"], j["token"])
        deadline = time.time() + 20
        while time.time() < deadline:
            host.recv()
            if all(s["claimed"] for s in host.state["table"]["seats"]):
                break
        host.send({"type": "start"})
        final = host.play()
        t.join(60)
        assert result == [0]
        assert final["table"]["seats"][1]["name"] == "Term"
        assert len(prompts) >= 6
        assert any("hint:" in line for line in out)
        assert any("type a number" in line for line in out)
        assert any(line.startswith("game over") for line in out)
        host.close()
    finally:
        server.stop()


def test_a_bad_link_fails_cleanly(tmp_path):
    out: list[str] = []
    assert play_remote("http://127.0.0.1:9/t/x", output=out.append) == 1
    assert "invite" in out[0]
