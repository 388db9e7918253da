"""Issue #31, findings 5-8 and 12 in one process: table-creation capacity a crowd cannot
exhaust, chat limits that survive reconnection with each channel's lines kept apart,
one seat per address at a public table, rejoin links used up and guesses limited, and
the limits kept in the shared store (``server/quotas.py``) that a cluster's processes
share (the two-process tests: tests/hardening/test_hardening_cluster.py)."""

from __future__ import annotations

import asyncio
import time

from server_kit import Seat, create, service
from test_server_strangers import TRUST, from_addr

from parlour.server.db import Store
from parlour.server.quotas import Quotas, address_class

BODY = {"game": "fanti", "players": 2, "seats": [{"kind": "person"}] * 2,
        "rules": {"rounds": 1}}


def made(client, addr: str, **extra):
    return client.post("/api/tables", json={**BODY, **extra}, headers=from_addr(addr))


def sit(client, table: str, addr: str, name: str = ""):
    return client.post(f"/api/tables/{table}/sit", json={"name": name}, headers=from_addr(addr))


def join(client, j, addr: str, name: str = "Bo"):
    key = j["invite_url"].split("#invite=")[1]
    return client.post(f"/api/tables/{j['table']}/join", json={"key": key, "name": name},
                       headers=from_addr(addr))


# --- finding 5: table-creation capacity --------------------------------------------------

def test_address_classes_are_the_ipv4_24_and_the_ipv6_48():
    assert address_class("203.0.113.77") == "203.0.113.0/24"
    assert address_class("::ffff:203.0.113.9") == "203.0.113.0/24"
    assert address_class("2001:db8:abcd:12::1") == "2001:db8:abcd::/48"
    assert address_class("testclient") == "testclient"


def test_one_network_cannot_hold_more_than_its_share_of_open_tables(make_app):
    client = make_app(max_tables_per_class=3, **TRUST)
    for i in range(3):
        assert made(client, f"198.51.100.{i + 1}").status_code == 201
    r = made(client, "198.51.100.200")  # another address of the same /24
    assert r.status_code == 429 and r.json()["error"] == "too_many_tables"
    assert r.headers["Retry-After"] == "60" and "network" in r.json()["message"]
    assert made(client, "198.51.101.1").status_code == 201  # the next /24 is not held


def test_a_player_at_a_game_still_opens_a_table_when_strangers_are_held_back(make_app):
    client = make_app(max_open_tables=8, create_reserve=2, max_tables_per_class=100, **TRUST)
    host = made(client, "192.0.2.1").json()
    assert join(client, host, "192.0.2.2").status_code == 200
    seat = Seat(client, host["table"], token=host["token"], headers=from_addr("192.0.2.1"))
    seat.welcome()
    seat.send({"type": "start"})
    seat.until_state(lambda s: s["table"]["status"] == "playing")
    for i in range(5):  # a crowd fills every place but the reserve
        assert made(client, f"10.{i}.0.1").status_code == 201
    svc = service(client)
    svc.intents._open = (0, -10.0)  # counted again now
    r = made(client, "10.9.0.1")
    assert r.status_code == 503 and r.json()["error"] == "busy"
    assert "only people playing" in r.json()["message"]
    assert made(client, "192.0.2.1").status_code == 201  # a live session: a place kept
    assert made(client, "192.0.2.1").status_code == 201
    r = made(client, "192.0.2.1")  # the cap itself holds for everyone
    assert r.status_code == 503 and "as many open tables" in r.json()["message"]


def test_a_waiting_table_nobody_sits_at_expires_in_minutes(make_app):
    client = make_app()
    svc = service(client)
    assert svc.settings.waiting_expiry <= 600  # minutes, not the hour the attack found
    kept = create(client, "fanti", 2, ["person", "person"])
    left = create(client, "fanti", 2, ["person", "person"])
    watched = create(client, "fanti", 2, ["person", "person"])
    Seat(client, kept["table"], token=kept["token"]).welcome()
    Seat(client, watched["table"], watch=watched["watch_url"].split("#watch=")[1]).welcome()
    later = time.time() + svc.settings.waiting_expiry + 1
    expired = client.portal.call(svc.sweep, later)
    # A spectator does not keep a table nobody sits at; a connected host does.
    assert sorted(expired) == sorted([left["table"], watched["table"]])


# --- finding 6: chat limits per seat and address; channels kept apart ---------------------

def test_reconnecting_spectators_do_not_get_around_the_chat_limit(make_app):
    client = make_app(chat_burst=3, chat_new_burst=3, chat_window=60.0, **TRUST)
    j = create(client, "fanti", 2, ["person", "person"])
    key = j["watch_url"].split("#watch=")[1]
    said = 0
    for _ in range(4):  # a new socket for every line, from one address
        w = Seat(client, j["table"], watch=key, headers=from_addr("203.0.113.5"))
        w.welcome()
        w.send({"type": "chat", "text": f"line {said}"})
        m = w.until(lambda m: m["type"] in ("chat", "error"))
        said += m["type"] == "chat"
        w.close()
    assert said == 3 and m["code"] == "chat_limit"
    # The same for a seat: its lines count whatever socket they come by.
    for i in range(4):
        s = Seat(client, j["table"], token=j["token"], headers=from_addr("203.0.113.6"))
        s.welcome()
        s.send({"type": "chat", "text": f"mine {i}"})
        m = s.until(lambda m: m["type"] in ("chat", "error"))
        s.close()
    assert m["type"] == "error" and m["code"] == "chat_limit"


def test_spectators_lines_never_push_out_the_players(make_app):
    client = make_app(chat_keep=5, chat_burst=50, **TRUST)
    j = create(client, "fanti", 2, ["person", "person"])
    host = Seat(client, j["table"], token=j["token"])
    host.welcome()
    host.send({"type": "chat", "text": "good luck"})
    host.until(lambda m: m["type"] == "chat")
    key = j["watch_url"].split("#watch=")[1]
    for i in range(12):  # many addresses: each within its own limit
        w = Seat(client, j["table"], watch=key, headers=from_addr(f"203.0.{i}.9"))
        w.welcome()
        w.send({"type": "chat", "text": f"spam {i}"})
        w.until(lambda m: m["type"] == "chat")
        w.close()
    late = Seat(client, j["table"], token=j["token"])
    assert [ln["text"] for ln in late.welcome()["state"]["chat"]] == ["good luck"]
    w = Seat(client, j["table"], watch=key)
    lines = w.welcome()["state"]["chat"]
    assert [ln["text"] for ln in lines if ln["channel"] == "table"] == ["good luck"]
    assert len([ln for ln in lines if ln["channel"] == "watchers"]) == 5


# --- finding 7: public tables -------------------------------------------------------------

def test_one_address_holds_one_seat_at_a_public_table(make_app):
    client = make_app(public_seats_per_address=1, max_seats_per_address=2, **TRUST)
    pub = made(client, "192.0.2.10", public=True).json()
    r = sit(client, pub["table"], "192.0.2.10")
    assert r.status_code == 409 and r.json()["error"] == "seat_limit"
    assert sit(client, pub["table"], "192.0.2.11").status_code == 200
    private = made(client, "192.0.2.10").json()  # a private table: two, as before
    assert join(client, private, "192.0.2.10").status_code == 200


def test_a_released_public_seat_is_not_taken_again_at_once_by_the_same_address(make_app):
    client = make_app(reclaim_after=120.0, public_seats_per_address=1, **TRUST)
    pub = made(client, "192.0.2.20", public=True).json()
    r = sit(client, pub["table"], "192.0.2.21")
    assert r.status_code == 200
    host = Seat(client, pub["table"], token=pub["token"], headers=from_addr("192.0.2.20"))
    host.welcome()
    host.send({"type": "release", "seat": 1})
    host.until_state(lambda s: not s["table"]["seats"][1]["claimed"])
    again = sit(client, pub["table"], "192.0.2.21")
    assert again.status_code == 409 and again.json()["error"] == "seat_limit"
    assert 100 < int(again.headers["Retry-After"]) <= 120
    assert "again in" in again.json()["message"]
    assert sit(client, pub["table"], "192.0.2.22").status_code == 200  # someone else may


# --- finding 8: rejoin links ----------------------------------------------------------------

def rejoin(client, table: str, key: str, addr: str = "192.0.2.99"):
    return client.post(f"/api/tables/{table}/rejoin", json={"key": key}, headers=from_addr(addr))


def test_a_rejoin_link_works_once_and_the_answer_brings_the_next(make_app):
    client = make_app(**TRUST)
    j = made(client, "192.0.2.30").json()
    first = j["rejoin_url"].split("#rejoin=")[1]
    r = rejoin(client, j["table"], first)
    assert r.status_code == 200
    second = r.json()["rejoin_url"].split("#rejoin=")[1]
    assert second != first
    old = rejoin(client, j["table"], first)
    assert old.status_code == 403 and "no longer works" in old.json()["message"]
    assert rejoin(client, j["table"], second).status_code == 200


def test_a_rejoin_link_stops_working_when_its_seat_is_freed_or_left(make_app):
    client = make_app(**TRUST)
    j = made(client, "192.0.2.40").json()
    bo = join(client, j, "192.0.2.41").json()
    host = Seat(client, j["table"], token=j["token"])
    host.welcome()
    host.send({"type": "release", "seat": 1})  # the host frees Bo's seat
    host.until_state(lambda s: not s["table"]["seats"][1]["claimed"])
    r = rejoin(client, j["table"], bo["rejoin_url"].split("#rejoin=")[1])
    assert r.status_code == 403 and "no longer works" in r.json()["message"]
    cy = join(client, j, "192.0.2.42", "Cy").json()
    cy_seat = Seat(client, j["table"], token=cy["token"])
    cy_seat.welcome()
    host.send({"type": "start"})
    cy_seat.until_state(lambda s: s["table"]["status"] == "playing")
    cy_seat.send({"type": "leave"})  # Cy leaves during play: a stand-in plays on
    cy_seat.until(lambda m: m["type"] == "bye")
    r = rejoin(client, j["table"], cy["rejoin_url"].split("#rejoin=")[1])
    assert r.status_code == 403 and "no longer works" in r.json()["message"]


def test_rejoin_guesses_are_limited_per_address(make_app):
    client = make_app(rejoin_per_minute=2.0, rejoin_burst=3, **TRUST)
    j = made(client, "192.0.2.50").json()
    codes = [rejoin(client, j["table"], f"guess{i}", "203.0.113.50").status_code
             for i in range(4)]
    assert codes == [403, 403, 403, 429]
    r = rejoin(client, j["table"], j["rejoin_url"].split("#rejoin=")[1], "203.0.113.50")
    assert r.status_code == 429 and 0 < int(r.headers["Retry-After"]) <= 30
    assert r.json()["error"] == "rate_limited"
    # Another address is not held back by the guesser.
    ok = rejoin(client, j["table"], j["rejoin_url"].split("#rejoin=")[1], "203.0.113.51")
    assert ok.status_code == 200


# --- finding 12: the limits a cluster shares ----------------------------------------------

def test_two_processes_share_buckets_and_holds_through_the_database(tmp_path):
    store = Store(f"sqlite:///{tmp_path}/q.sqlite3")
    a, b = Quotas(b"s", store), Quotas(b"s", store)  # two processes, one database
    key = "create:" + a.address_key("198.51.100.7")
    assert key == "create:" + b.address_key("198.51.100.7")
    assert "198.51.100.7" not in key
    got = [q.take(key, 1 / 60, 3) for q in (a, b, a, b)]
    assert got[:3] == [0.0, 0.0, 0.0] and 50 < got[3] <= 60
    a.hold("reclaim:t:x", 30.0)
    assert 25 < b.held("reclaim:t:x") <= 30 and b.held("reclaim:t:y") == 0.0
    mem = Quotas(b"s")  # one process: the same answers, in memory
    assert [mem.take("k", 1 / 60, 3) > 0 for _ in range(4)] == [False, False, False, True]
    store.close()


# --- finding 4: a move racing a seat taken away on another process -----------------------

def test_a_move_racing_a_rejoin_on_another_process_is_refused(make_app, tmp_path):
    """Two processes of a cluster on one database (two apps here). B is made deaf (no
    polling, no NOTIFY on SQLite) once it has seen the game up to Bo's turn; the rejoin
    on A then changes the seat in the database only, and the old device's move on B is
    refused by the write itself (the row changed since B read it), after which B reads
    the table again and sends the old device away."""
    shared = dict(db_url=f"sqlite:///{tmp_path}/cluster.sqlite3", cluster=True, lease=30.0)
    a, b = make_app(instance="A", **shared), make_app(instance="B", **shared)
    j = create(a, "fanti", 2, ["person", "person"], rules={"rounds": 1})
    bo = a.post(f"/api/tables/{j['table']}/join",
                json={"key": j["invite_url"].split("#invite=")[1], "name": "Bo"}).json()
    host = Seat(a, j["table"], token=j["token"])
    host.welcome()
    old = Seat(b, j["table"], token=bo["token"])
    old.welcome()
    host.until_state(lambda s: all(x["claimed"] for x in s["table"]["seats"]))
    host.send({"type": "start"})
    while True:  # the host plays until it is Bo's turn, as B sees it
        old.until_state(lambda s: s["table"]["status"] == "playing" and s["commit"])
        host.until_state(lambda s: s["commit"] and host.seq == old.seq)
        if old.my_turn():
            break
        if host.my_turn():
            host.send({"type": "move", "seq": host.seq, "move": host.state["view"]["legal"][0]})
        old.until(lambda m: "delta" in m or "state" in m)
    svc_b = service(b)

    async def deaf() -> None:
        return None

    svc_b.coord._poll = deaf  # B hears nothing more of A ...
    b.portal.call(asyncio.sleep, 0)  # ... once a look begun before this is over
    seq = old.seq
    back = a.post(f"/api/tables/{j['table']}/rejoin",
                  json={"key": bo["rejoin_url"].split("#rejoin=")[1]})
    assert back.status_code == 200
    old.send({"type": "move", "seq": seq, "move": old.state["view"]["legal"][0]})
    err = old.until(lambda m: m["type"] == "error" or "event" in m)  # refused, or played
    assert err["type"] == "error" and err["code"] == "conflict"
    bye = old.until(lambda m: m["type"] == "bye")
    assert bye["reconnect"] is False and "another device" in bye["reason"]
    assert bye["why"] == "taken_back"
    events = service(a).store.events(j["table"])
    assert events[-1].seq == seq  # the old device's move was never written
    # B, still deaf, is handed a token A gave a moment ago: it reads the table again.
    again = a.post(f"/api/tables/{j['table']}/rejoin",
                   json={"key": back.json()["rejoin_url"].split("#rejoin=")[1]})
    newest = Seat(b, j["table"], token=again.json()["token"])
    assert newest.welcome()["type"] == "welcome"
