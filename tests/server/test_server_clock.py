"""The server's own actions: turn timeouts, stand-ins for absent players, the return of
a player, expiry of abandoned tables, rematches and hints."""

from __future__ import annotations

import time

import pytest
from server_kit import Seat, create, service

pytestmark = pytest.mark.timeout(60)


def started(client, **kw):
    j = create(client, "fantan", 3, ["person", "greedy", "greedy"], rules={"rounds": 1},
               name="Anna", **kw)
    me = Seat(client, j["table"], token=j["token"])
    me.welcome()
    me.send({"type": "start"})
    me.until(lambda m: m["type"] == "update" and me.my_turn() and
             me.state["view"]["legal"] != [{"pass": True}])
    return j, me


def fire(client, table_id):
    """Make the table's pending deadline fall due now."""
    svc = service(client)
    t = svc.load(table_id)
    client.portal.call(svc.clock.act, t, t.seq)


def test_a_turn_timeout_hands_the_seat_to_a_bot_until_the_player_returns(client):
    j, me = started(client, timer=30, test={"seed": 4})
    assert me.state["deadline"]["seat"] == 0 and me.state["deadline"]["left"] > 20
    row = service(client).store.get(j["table"])
    assert abs(row.deadline - me.state["deadline"]["at"]) < 1e-6  # stored as absolute time
    seq = me.seq
    fire(client, j["table"])
    m = me.until(lambda m: m.get("event", {}).get("kind") == "standin")
    assert m["event"] == {"kind": "standin", "seat": 0, "reason": "timeout"}
    me.until(lambda m: m["type"] == "update" and m["event"].get("seat") == 0)
    assert me.seq > seq and me.state["table"]["seats"][0]["auto"] == "timeout"
    me.send({"type": "back"})
    me.until(lambda m: m.get("event", {}).get("kind") == "back")
    assert me.state["table"]["seats"][0]["auto"] is None


def test_a_disconnect_longer_than_the_grace_time_brings_a_stand_in(make_app):
    client = make_app(grace=0.2)
    j, me = started(client, test={"seed": 4})
    spectator = Seat(client, j["table"], watch=j["watch_url"].split("#watch=")[1])
    spectator.welcome()
    me.close()
    spectator.until(lambda m: m.get("event", {}).get("kind") == "standin")
    spectator.until(lambda m: m["type"] == "update" and m["event"].get("by") in
                    ("standin", "forced") and m["event"]["seat"] == 0)
    back = Seat(client, j["table"], token=j["token"])
    back.welcome()
    assert back.state["table"]["seats"][0]["auto"] is None
    assert any(e["kind"] == "back" for e in back.state["log"])


def test_stand_ins_finish_the_game_when_every_player_is_gone(make_app):
    client = make_app(grace=0.1)
    j, me = started(client, test={"seed": 4})
    me.close()
    t = service(client).load(j["table"])
    deadline = time.time() + 20
    while t.status != "over" and time.time() < deadline:
        time.sleep(0.05)
    assert t.status == "over" and t.seats[0].auto == "disconnected"
    back = Seat(client, j["table"], token=j["token"])
    assert back.welcome()["state"]["winners"] is not None


def test_abandoned_tables_expire(client):
    j, me = started(client, test={"seed": 4})
    me.close()
    svc = service(client)
    t = svc.load(j["table"])
    deadline = time.monotonic() + 20  # the server has seen the socket close
    while t.conns and time.monotonic() < deadline:
        time.sleep(0.01)
    expired = client.portal.call(svc.sweep, time.time() + svc.settings.idle_expiry + 1)
    assert j["table"] in expired
    assert svc.store.get(j["table"]).status == "expired"
    again = Seat(client, j["table"], token=j["token"])
    assert again.welcome()["code"] == "expired"
    invite = j["invite_url"].split("#invite=")[1]
    assert client.post(f"/api/tables/{j['table']}/join", json={"key": invite}).status_code == 410


def test_rematch_keeps_the_seats(client):
    j = create(client, "fanti", 2, ["person", "greedy"], rules={"rounds": 1}, test={"seed": 2})
    me = Seat(client, j["table"], token=j["token"])
    me.welcome()
    assert client.get(f"/api/tables/{j['table']}/record").status_code == 409
    me.send({"type": "start"})
    me.play_to_end()
    me.send({"type": "rematch"})
    m = me.until(lambda m: m["type"] == "rematch")
    assert m["table"] != j["table"]
    again = Seat(client, m["table"], token=j["token"])
    assert again.welcome()["state"]["you"] == 0
    assert again.state["table"]["status"] == "playing"
    me.send({"type": "rematch"})
    assert me.until(lambda m: m["type"] == "rematch")["table"] == m["table"]


def test_hint_answers_with_legal_moves_best_first(make_app):
    """A hint is the engine's ranking of legal moves: a failing engine is not an answer
    (it gets ``unavailable``, which this test refuses)."""
    client = make_app(bot_move_seconds=120.0)  # a busy machine must not turn it into an error
    j, me = started(client, test={"seed": 4})
    me.send({"type": "hint", "seq": me.seq})
    m = me.until(lambda m: m["type"] in ("hint", "error"))
    assert m["type"] == "hint", m
    legal = me.state["view"]["legal"]
    assert m["moves"] and all(x["move"] in legal for x in m["moves"])
    values = [x["value"] for x in m["moves"]]
    assert all(0 <= v <= 1 for v in values)
    # Fan Tan counts hints in points (its kit's HINT_POINTS): the expected penalty,
    # lowest first, the chance to win beside it; equal ones are said to be equal
    points = [x["points"] for x in m["moves"]]
    assert points == sorted(points) and all(p >= 0 for p in points)
    assert [x["equal"] for x in m["moves"]][:1] == [True]
    me.send({"type": "hint", "seq": me.seq + 5})
    assert me.error()["code"] == "stale"
