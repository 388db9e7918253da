"""Bad messages: illegal, stale, duplicate, malformed and unauthorised intents are each
answered with an error naming the problem, and change nothing."""

from __future__ import annotations

import json

import pytest
from server_kit import Oracle, Seat, create, hidden_cards, service
from starlette.websockets import WebSocketDisconnect

from parlour import cards

pytestmark = pytest.mark.timeout(60)

# A Fan Tan deck dealt by seat 2 of 3 (FT-1: card i to seat (dealer + 1 + i) % 3):
# seat 0 gets cards 0, 3, 6, ... of the deck, so seat 0 holds 7D and opens (FT-4).
DECK = [cards.code(c) for c in range(52)]
DECK[0], DECK[19] = DECK[19], DECK[0]


def started(client, game="fantan", players=3, seats=("person", "greedy", "greedy"), **kw):
    """A started table whose seat 0 (the test) is to move, with the game's state."""
    kw.setdefault("test", {"seed": 1, "decks": [DECK], "dealer": players - 1})
    j = create(client, game, players, list(seats), rules={"rounds": 1}, **kw)
    me = Seat(client, j["table"], token=j["token"])
    me.welcome()
    me.send({"type": "start"})
    me.until(lambda m: m["type"] == "update" and me.my_turn())
    return j, me


def db_state(client, table):
    row = service(client).store.get(table)
    return row.seq, json.dumps(row.record, sort_keys=True)


def assert_unchanged(client, j, me, before, code):
    err = me.error()
    assert err["code"] == code, err
    assert err["message"]
    assert db_state(client, j["table"]) == before
    return err


def test_illegal_moves_are_refused_with_the_engines_reason(client):
    j, me = started(client)
    before = db_state(client, j["table"])
    assert me.state["view"]["legal"] == [{"play": "7D"}]
    other = next(c for c in me.state["view"]["hand"] if c != "7D")
    me.send({"type": "move", "seq": me.seq, "move": {"play": other}})
    err = assert_unchanged(client, j, me, before, "illegal")
    # the rule's key and facts (the page words them); the words, without the ruling id
    assert err["key"] == "refusal.fantan.opens" and err["params"] == {"card": "7D"}
    assert "FT-4" not in err["message"] and "opens with" in err["message"]
    me.send({"type": "move", "seq": me.seq, "move": {"pass": True}})
    assert_unchanged(client, j, me, before, "illegal")
    not_mine = next(c for c in DECK if c not in me.state["view"]["hand"])
    me.send({"type": "move", "seq": me.seq, "move": {"play": not_mine}})
    assert "not in" in assert_unchanged(client, j, me, before, "illegal")["message"]
    # The refusal repeats the card the seat itself named, and says only that it is
    # not in that seat's hand: the oracle sees the code; nothing else is flagged.
    assert client.oracle.leaks == [f"error to 0: ['{not_mine}']"]
    client.oracle.leaks.clear()


def test_reasons_for_unplayable_cards_come_from_the_engine(client):
    j, me = started(client)
    reasons = me.state["reasons"]
    hand = me.state["view"]["hand"]
    assert set(reasons) == set(hand) - {"7D"}
    assert all("7D" in r for r in reasons.values())
    # the same reasons as catalog keys and facts, for the page to word (#33 item 1)
    keyed = me.state["reason_keys"]
    assert set(keyed) == set(reasons)
    assert all(k == "refusal.fantan.opens" and p == {"card": "7D"} for k, p in keyed.values())


def test_stale_and_duplicate_moves_apply_at_most_once(client):
    j, me = started(client)
    seq = me.seq
    move = {"type": "move", "seq": seq, "move": {"play": "7D"}}
    me.send(move)
    me.send(move)  # the same message again: answers a seq that is gone
    err = me.error()
    assert err["code"] == "stale" and f"seq {seq}" in err["message"]
    row_events = service(client).store.events(j["table"])
    plays = [e.data for e in row_events if e.data.get("kind") == "move"
             and e.data["move"] == {"play": "7D"}]
    assert len(plays) == 1
    me.send({"type": "move", "seq": 0, "move": {"play": "7D"}})
    assert me.error()["code"] == "stale"


@pytest.mark.parametrize("text, words", [
    ("not json", "JSON"),
    ('{"type": "dance"}', "type"),
    ('{"type": "move", "seq": "3", "move": {"play": "7D"}}', "seq"),
    ('{"type": "move", "seq": -1, "move": {"play": "7D"}}', "seq"),
    ('{"type": "move", "seq": 1, "move": {"play": "7D"}, "extra": 1}', "extra"),
    ('{"type": "move", "move": {"play": "7D"}}', "seq"),
    ("[1, 2]", ""),
])
def test_malformed_messages_are_named_and_change_nothing(client, text, words):
    j, me = started(client)
    before = db_state(client, j["table"])
    me.send(text)
    err = assert_unchanged(client, j, me, before, "bad_message")
    assert words.lower() in err["message"].lower()


@pytest.mark.parametrize("move, words", [
    ({"play": "7X"}, "card"),
    ({"play": 19}, "card"),
    ({"card": "7D"}, "keys"),
    ({"pass": False}, "pass"),
    ({"play": "7D", "take": []}, "keys"),
])
def test_malformed_moves_are_refused(client, move, words):
    j, me = started(client)
    before = db_state(client, j["table"])
    me.send({"type": "move", "seq": me.seq, "move": move})
    err = assert_unchanged(client, j, me, before, "bad_move")
    assert words in err["message"]


def test_binary_and_oversized_frames_are_refused(client):
    j, me = started(client)
    before = db_state(client, j["table"])
    me.ws.send_bytes(b'{"type": "ping"}')
    assert_unchanged(client, j, me, before, "bad_message")
    me.send(json.dumps({"type": "move", "seq": me.seq, "move": {"play": "7D" + " " * 5000}}))
    assert "limit" in assert_unchanged(client, j, me, before, "too_large")["message"]


def test_unauthorised_messages_are_refused(client):
    j, me = started(client)
    before = db_state(client, j["table"])
    bad = Seat(client, j["table"], token="not-a-token")
    assert bad.welcome()["code"] == "unauthorised"
    bad.send({"type": "move", "seq": me.seq, "move": {"play": "7D"}})
    assert bad.error()["code"] == "no_hello"
    wrong_key = Seat(client, j["table"], watch=j["invite_url"].split("#invite=")[1])
    assert wrong_key.welcome()["code"] == "unauthorised"
    watch = Seat(client, j["table"], watch=j["watch_url"].split("#watch=")[1])
    assert watch.welcome()["state"]["role"] == "spectator"
    assert watch.state["view"]["hand"] == [] and "invite" not in watch.state["links"]
    watch.send({"type": "move", "seq": me.seq, "move": {"play": "7D"}})
    assert watch.error()["code"] == "unauthorised"
    watch.send({"type": "rematch"})
    assert watch.error()["code"] == "unauthorised"
    nowhere = Seat(client, "no-such-table", token=j["token"])
    assert nowhere.welcome()["code"] == "not_found"
    assert db_state(client, j["table"]) == before
    for s in (bad, wrong_key, watch, nowhere):
        s.close()


def test_moving_out_of_turn_and_starting_twice_are_refused(client):
    j = create(client, "fanti", 2, ["person", "person"], rules={"rounds": 1}, name="A",
               test={"seed": 5, "dealer": 0})
    invite = j["invite_url"].split("#invite=")[1]
    ben = client.post(f"/api/tables/{j['table']}/join", json={"key": invite, "name": "B"}).json()
    a = Seat(client, j["table"], token=j["token"])
    b = Seat(client, j["table"], token=ben["token"])
    a.welcome()
    b.welcome()
    b.send({"type": "start"})
    assert b.error()["code"] == "unauthorised"  # only the host starts
    a.send({"type": "start"})
    a.until(lambda m: m["type"] == "update")
    a.send({"type": "start"})
    assert a.error()["code"] == "started"
    b.until(lambda m: m["type"] == "update")
    # FA-4: the seat after the dealer (seat 0) leads, so seat 0 may not move now.
    assert b.state["view"]["current_player"] == 1
    before = db_state(client, j["table"])
    a.send({"type": "move", "seq": a.seq, "move": b.state["view"]["legal"][0]
            if b.state["view"]["legal"] else {"play": a.state["view"]["hand"][0], "take": []}})
    err = a.error()
    assert err["code"] == "not_your_turn" and "B" in err["message"]
    assert db_state(client, j["table"]) == before
    a.close()
    b.close()


def test_joining_rules(client):
    j = create(client, "fantan", 3, ["person", "person", "greedy"], test={"seed": 1})
    table = j["table"]
    invite = j["invite_url"].split("#invite=")[1]
    watch = j["watch_url"].split("#watch=")[1]
    assert client.post(f"/api/tables/{table}/join", json={"key": "nope"}).status_code == 403
    r = client.post(f"/api/tables/{table}/join", json={"key": watch})
    assert r.json()["role"] == "spectator" and r.json()["token"] is None
    assert client.post(f"/api/tables/{table}/join", json={"key": invite}).status_code == 200
    full = client.post(f"/api/tables/{table}/join", json={"key": invite})
    assert full.status_code == 409 and "taken" in full.json()["message"]
    info = client.get(f"/api/tables/{table}").json()
    assert "invite_key" not in json.dumps(info) and invite not in json.dumps(info)
    assert client.get("/api/tables/missing").status_code == 404


def test_bad_tables_are_refused(client, make_app):
    for body, words in [
        ({"game": "chess", "players": 4}, "unknown game"),
        ({"game": "fanti", "players": 6}, "2 to 4"),
        ({"game": "fantan", "players": 4, "rules": {"rounds": 0}}, "rounds"),
        ({"game": "fantan", "players": 4, "rules": {"strict": "yes"}}, "strict"),
        ({"game": "fantan", "players": 4, "rules": {"colour": 1}}, "unknown rule"),
        ({"game": "fantan", "players": 3, "seats": [{"kind": "person"}]}, "3 seats"),
        ({"game": "fantan", "players": 3, "seats": [{"kind": "person"}, {"kind": "bot", "bot": "x"},
                                                     {"kind": "bot"}]}, "unknown bot"),
    ]:
        r = client.post("/api/tables", json=body)
        assert r.status_code == 400, (body, r.text)
        assert words in r.json()["message"], (words, r.json())
    prod = make_app(testing=False)
    r = prod.post("/api/tables", json={"game": "fantan", "players": 3, "test": {"seed": 1}})
    assert r.status_code == 400 and "testing" in r.json()["message"]


def test_websocket_origin_is_checked(client):
    j = create(client, "fantan", 3, test={"seed": 1})
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(
            "/ws", headers={"origin": "http://evil.example"}) as ws:
        ws.receive_json()
    ok = Seat(client, j["table"], token=j["token"], headers={"origin": "http://testserver"})
    assert ok.welcome()["type"] == "welcome"
    ok.close()


def test_flooding_is_rate_limited(make_app):
    client = make_app(rate_per_second=1.0, rate_burst=3)
    j = create(client, "fantan", 3, test={"seed": 1})
    me = Seat(client, j["table"], token=j["token"])
    me.welcome()
    for _ in range(6):
        me.send({"type": "ping"})
    got = [me.until(lambda m: m["type"] in ("pong", "error")) for _ in range(6)]
    assert [m["type"] for m in got].count("pong") <= 3
    assert any(m.get("code") == "rate_limited" for m in got)
    me.close()


def test_the_oracle_catches_a_leak(client):
    """The hidden-card check can fail: a message naming another hand's card is caught."""
    j, me = started(client)
    t = service(client).load(j["table"])
    other = sorted(hidden_cards(t.match, 0))[0]
    oracle = Oracle()
    oracle(t, 0, {"type": "state", "state": {"log": [{"text": f"Ben holds {other}"}]}})
    oracle(t, 0, {"type": "state", "state": {"view": {"hand": me.state["view"]["hand"]}}})
    assert len(oracle.leaks) == 1 and other in oracle.leaks[0]


def test_withholding_pass_states_its_fine_and_the_pot_grows(client):
    """strict: false (FT-5): passing with a playable card is allowed and fined (FT-8);
    chips (FT-7): antes 1 + 2 + 2 for a deal of 18/17/17, then 1 per pass."""
    j = create(client, "fantan", 3, ["person", "greedy", "greedy"],
               rules={"rounds": 1, "strict": False, "stakes": "chips", "opening": "any-seven"},
               test={"seed": 1, "decks": [DECK], "dealer": 2})
    me = Seat(client, j["table"], token=j["token"])
    me.welcome()
    me.send({"type": "start"})
    me.until(lambda m: m["type"] == "update" and me.my_turn())
    st = me.state
    assert {"pass": True} in st["view"]["legal"] and {"play": "7D"} in st["view"]["legal"]
    assert st["pass"]["withholding"] is True
    assert "FT-8" in st["pass"]["text"] and "3 chips" in st["pass"]["text"]
    assert st["pot"] == 5
    me.send({"type": "move", "seq": me.seq, "move": {"pass": True}})
    m = me.until(lambda m: m["type"] == "update" and m["event"].get("seat") == 0)
    assert m["event"]["move"] == {"pass": True} and m["event"]["by"] == "person"
    assert me.state["pot"] == 6 and me.state["view"]["passes"][0] == 1


def test_an_illegal_move_is_refused_in_the_readers_language(client):
    """The refusal carries its key and facts, and its words are in the language of the
    socket's cookie (parlour_lang=es), with the card's name in the chosen style."""
    j, _ = started(client)
    me = Seat(client, j["table"], token=j["token"],
              headers={"cookie": "parlour_lang=es; parlour_cards=classic"})
    me.welcome()
    before = db_state(client, j["table"])
    other = next(c for c in me.state["view"]["hand"] if c != "7D")
    me.send({"type": "move", "seq": me.seq, "move": {"play": other}})
    err = assert_unchanged(client, j, me, before, "illegal")
    assert err["key"] == "refusal.fantan.opens" and err["params"] == {"card": "7D"}
    assert err["message"] == "la ronda se abre con 7 de diamantes"
    client.oracle.leaks.clear()
