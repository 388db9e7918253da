"""``parlour.netclient.play_remote``: a terminal player takes a seat by the invite link."""

from __future__ import annotations

import threading

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
        j = server.create(game="fanti", players=2, rules={"rounds": 1}, name="Hana",
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
        host.start_when_seated()
        final = host.play()
        t.join(60)
        assert result == [0]
        assert final["table"]["seats"][1]["name"] == "Term"
        assert len(prompts) >= 6
        assert any("hint:" in line for line in out)
        assert any("type a number" in line for line in out)
        assert any(line.startswith("Game over") for line in out)
        host.close()
    finally:
        server.stop()


def test_a_bad_link_fails_cleanly(tmp_path):
    out: list[str] = []
    assert play_remote("http://127.0.0.1:9/t/x", output=out.append) == 1
    assert "invite" in out[0]


def test_a_link_to_no_server_says_so_in_words():
    """Nothing listens at the link's address: one line naming the address, no errno."""
    import socket

    with socket.socket() as s:  # bound, never listening: connections are refused
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        out: list[str] = []
        assert play_remote(f"http://127.0.0.1:{port}/t/x#invite=k", output=out.append) == 1
    assert out == [f"parlour: no parlour server answers at http://127.0.0.1:{port} "
                   f"(Connection refused)"]


def test_after_a_timeout_typing_a_move_takes_the_seat_back(tmp_path):
    """A 5 s timer, 2 people and a bot. The terminal player lets the timer run out
    once; the computer stands in (the player is told, in words); the next line typed
    takes the seat back, and the player's later moves are played. The
    turn timer is shown, seats count from 0, and the table is the local renderer's."""
    server = Server(tmp_path / "db.sqlite3").start()
    try:
        j = server.create(game="fanti", players=3, rules={"rounds": 1}, name="Hana",
                          timer=5, seats=[{"kind": "person"}, {"kind": "person"},
                                          {"kind": "bot", "bot": "random"}],
                          test={"seed": 8})
        prompts: list[str] = []
        out: list[str] = []
        timed_out = threading.Event()  # the player has been told the computer stands in

        def said(line: str) -> None:
            out.append(line)
            if "ran out of time" in line:
                timed_out.set()

        def answer(prompt: str) -> str:
            prompts.append(prompt)
            if len(prompts) == 1:  # let the 5 s timer run out: the computer stands in
                timed_out.wait(30)
            return "1"

        result: list[int] = []
        t = threading.Thread(target=lambda: result.append(
            play_remote(j["invite_url"], name="Term", input_fn=answer, output=said)),
            daemon=True)
        t.start()
        host = WsSeat(server, j["table"], j["token"])
        host.start_when_seated()
        answered = -1
        while host.state["table"]["status"] != "over":
            # While the computer plays seat 1, the host waits for the player to take the
            # seat back: moving on would let the computer finish the game for them.
            standing_in = host.state["table"]["seats"][1]["auto"]
            if host.my_turn() and answered != host.seq and not standing_in:
                answered = host.seq
                host.send({"type": "move", "seq": host.seq,
                           "move": host.state["view"]["legal"][0]})
            host.recv()
        final = host.state
        t.join(90)
        text = "\n".join(out)
        assert result == [0]
        assert out[0].startswith("You sit in seat 1 ")  # seats from 0, as everywhere
        assert "You ran out of time: the computer plays for you" in text
        assert "You are back in your seat." in text
        assert "you is back" not in text.lower().replace("you are back", "")
        # Lines that come at once (a script, or typing ahead) are not a flood: one 'back'
        # or one move per state, never re-sent before the table answers. The client used to
        # send both for every line while the computer stood in, each move stale, and was cut
        # off by the server's rate limit (200 refusals), losing the seat's return.
        assert "too many messages" not in text
        assert "Connection lost" not in text
        assert "stale" not in text  # a move the table moved past is no news to a player
        assert any("s left)" in p for p in prompts[:1])  # the turn timer is shown
        assert "Your hand:" in text and "collected" in text and "Leaf 🍃" in text
        by_person = [e for e in final["log"] if e.get("kind") == "move" and e["seat"] == 1
                     and e.get("by") == "person"]
        assert by_person, "after taking the seat back, the player's moves are played"
        assert not final["table"]["seats"][1]["auto"]
        assert "Traceback" not in text
        host.close()
    finally:
        server.stop()


def test_a_terminal_player_is_spoken_to_in_their_language(tmp_path):
    """#33: ``parlour play --lang fa --connect URL`` says everything in Persian -- the seat,
    the table, the prompt, the refusal of a line it cannot read, the result -- and the
    server words what it sends for this seat in Persian too (the socket says so, as a
    browser's cookie does)."""
    from parlour.speech import speaking

    server = Server(tmp_path / "db.sqlite3").start()
    try:
        j = server.create(game="fanti", players=2, rules={"rounds": 1}, name="Hana",
                          seats=[{"kind": "person"}, {"kind": "person"}], test={"seed": 8})
        script = iter(["zz"])
        prompts: list[str] = []
        out: list[str] = []

        def answer(prompt: str) -> str:
            prompts.append(prompt)
            return next(script, "1")

        def persian() -> None:
            with speaking("fa"):
                result.append(play_remote(j["invite_url"], name="Term", input_fn=answer,
                                          output=out.append))

        result: list[int] = []
        t = threading.Thread(target=persian, daemon=True)
        t.start()
        host = WsSeat(server, j["table"], j["token"])
        host.start_when_seated()
        host.play()
        t.join(60)
        text = "\n".join(out)
        assert result == [0]
        assert out[0].startswith("شما در جای 1 ")
        assert "دست شما:" in text  # the hand, as local play says it
        assert "شماره‌ای از فهرست" in text  # "zz" refused in words
        assert "بازی تمام شد" in text
        assert all(p.startswith("حرکت شما") for p in prompts)
        english = [w for w in ("You ", "Your ", "Game over", "Round ", "type a number")
                   if w in text]
        assert english == []
        host.close()
    finally:
        server.stop()
