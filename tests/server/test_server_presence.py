"""Issue #32 items 7 and 8: a blocked player's chat never reaches the blocker's sockets
(live, in a sync, in a rejoin's welcome), and who is online comes from live sockets
and open pages, the same from every process (server/social.py, server/presence.py).
Two processes on one SQLite file here; on PostgreSQL with NOTIFY:
tests/hardening/test_hardening_people_cluster.py."""

from __future__ import annotations

import json
import time

import pytest
from server_kit import Person, service
from test_server_social import shared_table

pytestmark = pytest.mark.timeout(120)


class Clock:
    """A fake clock for the presence of every app of a test."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


def lines(state):
    return [ln["text"] for ln in state["chat"]]


def said(seat, text):
    """Read until ``text`` is in the seat's state's chat (the line reached it)."""
    return seat.until_state(lambda s: text in lines(s))


def never_got(seat, text):
    """Nothing the seat received holds ``text`` (chat messages, states, deltas)."""
    assert not any(text in json.dumps(m) for m in seat.messages), text


def test_a_blocked_players_lines_never_reach_the_blocker(make_app):
    client = make_app(chat_burst=50, chat_new_burst=50)
    ann, ben, cat = Person(client), Person(client), Person(client)
    j, b = shared_table(client, ann, ben)
    sa, sb = ann.seat(j["table"], j["token"]), ben.seat(j["table"], b["token"])
    watch = j["watch_url"].split("#watch=")[1]
    sc = cat.seat(j["table"], watch=watch)
    for s in (sa, sb, sc):
        s.welcome()
    sb.send({"type": "chat", "text": "before the block"})
    said(sa, "before the block")
    assert ann.post("/api/blocks", json={"table": j["table"], "seat": 1}).status_code == 201
    # Live: Ben's line reaches the spectator (it was sent), never Ann.
    sb.send({"type": "chat", "text": "hidden one"})
    said(sc, "hidden one")
    sa.send({"type": "chat", "text": "ann's marker"})
    state = said(sa, "ann's marker")
    never_got(sa, "hidden one")
    # The history a state carries leaves Ben out too, even his lines from before.
    assert "before the block" not in lines(state)
    sa.send({"type": "sync"})
    snap = sa.until(lambda m: m["type"] == "snapshot")
    assert lines(snap["state"]) == ["ann's marker"]
    sa.close()
    again = ann.seat(j["table"], j["token"])  # a rejoin: the welcome's history
    welcome = again.welcome()
    assert welcome["type"] == "welcome" and lines(welcome["state"]) == ["ann's marker"]
    # Ben and the spectator still read everything.
    assert lines(said(sb, "ann's marker")) == ["before the block", "hidden one",
                                               "ann's marker"]
    # An unblock counts from the next line; a block made while connected from the next
    # line too (read again at every line that has a writer).
    tag = ann.get("/api/blocks").json()[0]["tag"]
    assert ann.post("/api/blocks/remove", json={"tag": tag}).status_code == 200
    sb.send({"type": "chat", "text": "after the unblock"})
    assert "hidden one" in lines(said(again, "after the unblock"))  # his history back
    assert ann.post("/api/blocks", json={"table": j["table"], "seat": 1}).status_code == 201
    sb.send({"type": "chat", "text": "hidden two"})
    said(sc, "hidden two")
    again.send({"type": "chat", "text": "ann again"})
    said(again, "ann again")
    never_got(again, "hidden two")
    assert "after the unblock" not in lines(again.state)  # blocked again: all of his out


def test_an_open_socket_is_online_from_the_other_process_until_the_window_after_it_closes(
        make_app, tmp_path):
    shared = dict(db_url=f"sqlite:///{tmp_path}/cluster.sqlite3", cluster=True, lease=30.0,
                  room_counts_every=0.0, online_window=60.0)
    a, b = make_app(instance="A", **shared), make_app(instance="B", **shared)
    clock = Clock()
    for app in (a, b):
        service(app).presence.clock = clock
    ann, ben = Person(a), Person(a)
    j, bj = shared_table(a, ann, ben)
    assert ann.post("/api/follows", json={"table": j["table"], "seat": 1}).status_code == 201
    ann_b = Person(b)
    ann_b.cookie = ann.cookie  # Ann's page, served by the other process

    def ben_online() -> bool:
        [f] = ann_b.get("/api/friends").json()["following"]
        return f["online"]

    clock.now += 61  # whatever the HTTP calls above marked is old now
    assert not ben_online()
    assert b.get("/api/room").json()["players_online"] == 1  # (Ann, reading just now)
    sb = ben.seat(j["table"], bj["token"])  # Ben's table page, on process A
    sb.welcome()
    assert ben_online() and b.get("/api/room").json()["players_online"] == 2
    # Minutes later, the socket still open: process A marks him again (its loop's step).
    clock.now += 50
    service(a).presence.refresh()
    clock.now += 50
    assert ben_online()
    sb.close()
    deadline = time.monotonic() + 20
    while any(t.conns for t in service(a).tables.values()):
        assert time.monotonic() < deadline, "the closed socket is still held"
        time.sleep(0.01)
    service(a).presence.refresh()  # nobody's socket: nothing marked
    clock.now += 5
    assert ben_online()  # 55 s after his last mark: inside the window
    clock.now += 6
    assert not ben_online()
    assert b.get("/api/room").json()["players_online"] == 1  # Ann's page asked


def test_the_pages_heartbeat_marks_its_player_and_is_limited(make_app):
    client = make_app(me_burst=3, me_per_minute=1.0, online_window=90.0,
                      room_counts_every=0.0)
    clock = Clock()
    service(client).presence.clock = clock
    nobody = Person(client)
    r = nobody.post("/api/here")
    assert r.status_code == 200 and r.json() == {"online": False, "every": 30.0}
    ann = Person(client)
    ann.post("/api/tables", json={"game": "fanti", "players": 2, "name": "Ann"})
    clock.now += 91
    assert client.get("/api/room").json()["players_online"] == 0
    assert ann.post("/api/here").json()["online"] is True
    assert client.get("/api/room").json()["players_online"] == 1
    r = ann.post("/api/here")
    assert r.status_code == 200
    r = ann.post("/api/here")
    assert r.status_code == 429 and r.json()["error"] == "rate_limited"
    assert int(r.headers["Retry-After"]) >= 1
