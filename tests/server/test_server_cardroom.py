"""The card room's server side (issue 12): rejoin links, re-opened seats, rematch
offers, chat, public tables, FA-8 leftovers, the itemised score and replays. Every
message here also passes the hidden-card oracle (conftest), chat and replay included."""

from __future__ import annotations

import pytest
from server_kit import Seat, create, service

from deal_helpers import worded
from parlour import cards, record
from parlour.games import get_game
from parlour.server import replay
from parlour.server.cardroom import clean_text

pytestmark = pytest.mark.timeout(120)


def test_a_rejoin_link_returns_the_seat_and_the_old_token_lets_go(client):
    j = create(client, "fantan", 3, ["person", "person", "easy"], rules={"rounds": 1})
    assert j["rejoin_url"] and "#rejoin=" in j["rejoin_url"]
    key = j["rejoin_url"].split("#rejoin=")[1]
    row = service(client).load(j["table"]).seats[0]
    assert row.rejoin_hash and key not in str(row.to_json())  # only the hash is kept
    r = client.post(f"/api/tables/{j['table']}/rejoin", json={"key": key})
    assert r.status_code == 200, r.text
    back = r.json()
    assert back["seat"] == 0 and back["token"] != j["token"]
    old = Seat(client, j["table"], token=j["token"])
    assert old.welcome()["code"] == "unauthorised"
    new = Seat(client, j["table"], token=back["token"])
    assert new.welcome()["state"]["you"] == 0
    bad = client.post(f"/api/tables/{j['table']}/rejoin", json={"key": "x" * 43})
    assert bad.status_code == 403 and "rejoin link" in bad.json()["message"]


def test_the_host_reopens_a_never_connected_seat_and_a_newcomer_takes_it(client):
    j = create(client, "fantan", 3, ["person", "person", "easy"], rules={"rounds": 1},
               test={"seed": 4})
    invite = j["invite_url"].split("#invite=")[1]
    ben = client.post(f"/api/tables/{j['table']}/join", json={"key": invite, "name": "Ben"})
    assert ben.status_code == 200 and ben.json()["rejoin_url"]
    host = Seat(client, j["table"], token=j["token"])
    host.welcome()
    host.send({"type": "start"})
    host.until_state(lambda s: s.get("commit"))
    assert host.state["table"]["seats"][1]["never_connected"] is True
    # Not the host: refused in plain words.
    late = client.post(f"/api/tables/{j['table']}/join", json={"key": invite, "name": "Cleo"})
    assert late.status_code == 409
    host.send({"type": "reopen", "seat": 1})
    host.until(lambda m: m.get("event", {}).get("kind") == "reopen")
    assert host.state["table"]["seats"][1]["open"] is True
    cleo = client.post(f"/api/tables/{j['table']}/join", json={"key": invite, "name": "Cleo"})
    assert cleo.status_code == 200, cleo.text
    assert cleo.json()["seat"] == 1
    old = Seat(client, j["table"], token=ben.json()["token"])
    assert old.welcome()["code"] == "unauthorised"
    seat = Seat(client, j["table"], token=cleo.json()["token"])
    w = seat.welcome()
    assert w["state"]["you"] == 1 and w["state"]["table"]["seats"][1]["name"] == "Cleo"


def test_only_the_host_reopens_and_only_absent_seats(client):
    j = create(client, "fantan", 3, ["person", "person", "easy"], rules={"rounds": 1})
    invite = j["invite_url"].split("#invite=")[1]
    ben = client.post(f"/api/tables/{j['table']}/join", json={"key": invite, "name": "Ben"}).json()
    host = Seat(client, j["table"], token=j["token"])
    host.welcome()
    guest = Seat(client, j["table"], token=ben["token"])
    guest.welcome()
    host.send({"type": "start"})
    guest.send({"type": "reopen", "seat": 0})
    assert guest.error()["code"] == "unauthorised"
    host.send({"type": "reopen", "seat": 1})  # Ben is connected
    assert host.error()["code"] == "bad_seat"


def finish(client, j, seats_tokens):
    players = [Seat(client, j["table"], token=t) for t in seats_tokens]
    for p in players:
        p.welcome()
    players[0].send({"type": "start"})
    from server_kit import threaded
    threaded([p.play_to_end for p in players])
    return players


def test_a_rematch_is_an_offer_that_each_person_answers(client):
    j = create(client, "fantan", 3, ["person", "person", "easy"], rules={"rounds": 1},
               test={"seed": 8})
    invite = j["invite_url"].split("#invite=")[1]
    ben = client.post(f"/api/tables/{j['table']}/join", json={"key": invite, "name": "Ben"}).json()
    anna, bob = finish(client, j, [j["token"], ben["token"]])
    watcher = Seat(client, j["table"], watch=j["watch"] if "watch" in j and j["watch"] else
                   j["watch_url"].split("#watch=")[1])
    watcher.welcome()
    anna.send({"type": "rematch"})
    offer = bob.until_state(lambda s: s.get("rematch_offer") is not None)["rematch_offer"]
    assert offer["by"] == 0 and offer["answers"] == ["yes", None, "bot"]
    assert service(client).load(j["table"]).rematch is None  # nothing starts yet
    watcher.send({"type": "rematch_answer", "accept": True})
    assert watcher.error()["code"] == "unauthorised"
    bob.send({"type": "rematch_answer", "accept": True})
    moved_a = anna.until(lambda m: m["type"] == "rematch")
    moved_b = bob.until(lambda m: m["type"] == "rematch")
    stay = watcher.until(lambda m: m["type"] == "rematch")
    assert moved_a["move"] and moved_b["move"] and not stay["move"]
    assert "#watch=" in stay["url"]
    new = service(client).load(moved_a["table"])
    assert new.status == "playing"  # every seat accepted: dealt at once
    again = Seat(client, new.id, token=ben["token"])  # the same token holds the seat
    assert again.welcome()["state"]["you"] == 1


def test_a_declined_rematch_waits_for_the_host_to_fill_the_seat(client):
    j = create(client, "fantan", 3, ["person", "person", "easy"], rules={"rounds": 1},
               test={"seed": 9})
    invite = j["invite_url"].split("#invite=")[1]
    ben = client.post(f"/api/tables/{j['table']}/join", json={"key": invite, "name": "Ben"}).json()
    anna, bob = finish(client, j, [j["token"], ben["token"]])
    anna.send({"type": "rematch"})
    bob.until_state(lambda s: s.get("rematch_offer") is not None)
    bob.send({"type": "rematch_answer", "accept": False})
    st = anna.until_state(lambda s: (s.get("rematch_offer") or {}).get(
        "answers", [None, None])[1] == "no")
    assert st["rematch_offer"]["status"] == "open"
    assert service(client).load(j["table"]).rematch is None
    bob.send({"type": "rematch_fill", "with": "bot"})
    assert bob.error()["code"] == "unauthorised"
    anna.send({"type": "rematch_fill", "with": "bot"})
    moved = anna.until(lambda m: m["type"] == "rematch")
    declined = bob.until(lambda m: m["type"] == "rematch")
    assert moved["move"] and not declined["move"]
    new = service(client).load(moved["table"])
    assert [s.kind for s in new.seats] == ["person", "bot", "bot"] and new.status == "playing"


def test_the_host_need_not_wait_for_a_player_who_left(client):
    j = create(client, "fantan", 3, ["person", "person", "easy"], rules={"rounds": 1},
               test={"seed": 10})
    invite = j["invite_url"].split("#invite=")[1]
    ben = client.post(f"/api/tables/{j['table']}/join", json={"key": invite, "name": "Ben"}).json()
    anna, bob = finish(client, j, [j["token"], ben["token"]])
    bob.close()  # Ben leaves without answering
    anna.send({"type": "rematch"})
    anna.until_state(lambda s: s.get("rematch_offer") is not None)
    assert anna.state["rematch_offer"]["answers"] == ["yes", None, "bot"]
    anna.send({"type": "rematch_fill", "with": "open"})
    moved = anna.until(lambda m: m["type"] == "rematch")
    new = service(client).load(moved["table"])
    assert new.seats[1].kind == "person" and not new.seats[1].claimed  # not counted as seated
    assert new.status == "waiting"  # the host starts once someone takes the open seat


def test_the_host_who_fills_the_seats_keeps_his_own(client):
    """Issue #31 finding 11: Ben offers, Anna (the host) fills without answering first:
    the seats that did not answer get the computer, and Anna keeps hers."""
    j = create(client, "fantan", 4, ["person", "person", "person", "easy"],
               rules={"rounds": 1}, test={"seed": 11})
    invite = j["invite_url"].split("#invite=")[1]
    ben = client.post(f"/api/tables/{j['table']}/join", json={"key": invite, "name": "Ben"}).json()
    cy = client.post(f"/api/tables/{j['table']}/join", json={"key": invite, "name": "Cy"}).json()
    anna, bob, cyd = finish(client, j, [j["token"], ben["token"], cy["token"]])
    cyd.close()  # Cy leaves without answering
    bob.send({"type": "rematch"})
    anna.until_state(lambda s: s.get("rematch_offer") is not None)
    assert anna.state["rematch_offer"]["answers"] == [None, "yes", None, "bot"]
    anna.send({"type": "rematch_fill", "with": "bot"})
    moved = anna.until(lambda m: m["type"] == "rematch")
    assert moved["move"]
    new = service(client).load(moved["table"])
    assert [s.kind for s in new.seats] == ["person", "person", "bot", "bot"]
    assert new.seats[0].name == anna.state["table"]["seats"][0]["name"]
    again = Seat(client, new.id, token=j["token"])  # Anna's token holds her seat
    assert again.welcome()["state"]["you"] == 0


def test_chat_is_text_with_limits_channels_and_no_record(make_app):
    client = make_app(chat_burst=3, chat_window=60.0, chat_max_length=20,
                      chat_new_age=0.0)  # (new players: test_server_social.py)
    j = create(client, "fanti", 2, ["person", "person"], rules={"rounds": 1})
    invite = j["invite_url"].split("#invite=")[1]
    ben = client.post(f"/api/tables/{j['table']}/join", json={"key": invite, "name": "Ben"}).json()
    anna = Seat(client, j["table"], token=j["token"])
    anna.welcome()
    bob = Seat(client, j["table"], token=ben["token"])
    bob.welcome()
    watcher = Seat(client, j["table"], watch=j["watch_url"].split("#watch=")[1])
    watcher.welcome()
    anna.send({"type": "chat", "text": "x" * 41})  # over twice the limit: refused
    assert anna.until(lambda m: m["type"] == "error")["code"] == "chat_too_long"
    anna.send({"type": "chat", "text": "<b>hi</b>\u202e\u0000 ben " + "x" * 10})
    line = bob.until(lambda m: m["type"] == "chat")["line"]
    assert line["text"] == "<b>hi</b> ben xxxxxx"[:20] and line["name"] == anna.state["table"]["seats"][0]["name"]
    assert line["channel"] == "table"
    assert watcher.until(lambda m: m["type"] == "chat")["line"]["id"] == line["id"]
    watcher.send({"type": "chat", "text": "go Ben"})
    assert watcher.until(lambda m: m["type"] == "chat")["line"]["channel"] == "watchers"
    anna.send({"type": "chat", "text": "two"})
    anna.send({"type": "chat", "text": "three"})  # the third within the window
    anna.send({"type": "chat", "text": "four"})  # the fourth: refused
    err = anna.until(lambda m: m["type"] == "error")
    assert err["code"] == "chat_limit" and "3 chat lines" in err["message"]
    # A new connection of a seat gets the table channel only; spectators get both.
    again = Seat(client, j["table"], token=ben["token"])
    texts = [ln["text"] for ln in again.welcome()["state"]["chat"]]
    assert "go Ben" not in texts and "three" in texts
    spect = Seat(client, j["table"], watch=j["watch_url"].split("#watch=")[1])
    assert "go Ben" in [ln["text"] for ln in spect.welcome()["state"]["chat"]]
    # Chat is not part of the game record.
    anna.send({"type": "start"})
    anna.until_state(lambda s: s.get("commit"))
    assert "three" not in str(record.dump(service(client).load(j["table"]).match))


def test_clean_text_drops_controls_and_bidi():
    assert clean_text("a\u202eb\u200bc\x00d\n e", 50) == "abc d e"
    assert clean_text("  ", 50) == ""


def test_public_tables_are_listed_and_taken_in_one_request(client):
    j = create(client, "fanti", 2, ["person", "person"], rules={"rounds": 1}, public=True,
               name="Hana")
    private = create(client, "fanti", 2, ["person", "person"], rules={"rounds": 1})
    listed = client.get("/api/open-tables").json()
    ids = [t["id"] for t in listed]
    assert j["table"] in ids and private["table"] not in ids
    entry = next(t for t in listed if t["id"] == j["table"])
    assert entry["free"] == 1 and entry["host"] == "Hana" and "invite" not in str(entry)
    r = client.post(f"/api/tables/{j['table']}/sit", json={"name": "Zed"})
    assert r.status_code == 200 and r.json()["seat"] == 1
    assert j["table"] not in [t["id"] for t in client.get("/api/open-tables").json()]
    refused = client.post(f"/api/tables/{private['table']}/sit", json={"name": "Zed"})
    assert refused.status_code == 403
    watch = create(client, "fanti", 2, ["random", "random"], rules={"rounds": 50}, public=True)
    playing = [t for t in client.get("/api/open-tables").json() if t["id"] == watch["table"]]
    assert playing and playing[0]["status"] == "playing" and "#watch=" in playing[0]["watch_url"]


def test_fa8_leftovers_are_announced_and_the_score_is_itemised(client):
    deck = list(cards.ALL_CODES)  # in order: this round ends with cards on the table
    j = create(client, "fanti", 2, ["person", "easy"], rules={"rounds": 2},
               test={"seed": 21, "decks": [deck]})
    anna = Seat(client, j["table"], token=j["token"])
    anna.welcome()
    anna.send({"type": "start"})
    m = None
    sent = None
    while True:
        m = anna.recv()
        s = anna.state
        if s and s["finished"]:
            break
        if ("state" in m or "delta" in m) and anna.my_turn() and sent != anna.seq:
            sent = anna.seq
            anna.send({"type": "move", "seq": anna.seq, "move": s["view"]["legal"][0]})
    fin = anna.state["finished"]
    t = service(client).load(j["table"])
    r = t.match.rounds[0]
    assert fin["round"] == 1 and fin["detail"] == worded(r)
    assert [e["total"] for e in fin["detail"]["seats"]] == r.score()
    left = r.leftovers()
    entries = [e for e in anna.state["log"] if e["kind"] == "leftovers"]
    if left:
        assert entries and entries[0]["cards"] == cards.codes(left)
        assert entries[0]["seat"] == (r.last_collector if r.last_collector >= 0 else None)
    else:
        assert not entries
    assert left, "pick a deck whose round ends with cards on the table"
    # After the next deal the finished round is no longer sent (its cards are dealt again).
    anna.until_state(lambda s: s.get("round") == 2 and s["commit"])
    assert anna.state["finished"] is None
    assert not [e for e in anna.state["log"] if e["kind"] == "leftovers"]


def test_replays_only_of_finished_games_and_reviews_from_the_seats_view(client):
    j = create(client, "fantan", 3, ["person", "easy", "easy"], rules={"rounds": 1},
               test={"seed": 6})
    early = client.get(f"/api/tables/{j['table']}/replay")
    assert early.status_code == 409  # hands are shown only once the game is over
    early = client.post("/api/review", json={"table": j["table"], "round": 1, "seat": 0})
    assert early.status_code == 409
    (anna,) = finish(client, j, [j["token"]])
    data = client.get(f"/api/tables/{j['table']}/replay").json()
    rd = data["rounds"][0]
    assert sum(len(h) for h in rd["steps"][0]["state"]["hands"]) == 52
    assert rd["steps"][-1]["event"]["kind"] == "move" and rd["detail"]["seats"]
    rec = client.get(f"/api/tables/{j['table']}/record").json()
    assert client.post("/api/replay", json=rec).json()["rounds"][0]["steps"] == rd["steps"]
    # Every step, its deltas applied, is the engine's public view with every hand.
    played = record.load(rec).rounds[0]
    r = get_game("fantan").new_round(played.rules, played.players, played.dealer, played.deck)
    seen = replay.states(data)[0]
    assert len(seen) == len(played.history) + 1
    for k, state in enumerate(seen):
        if k:
            r.apply(played.history[k - 1][1])
        view = r.view(0).to_json()
        view.update(hand=[], legal=[], seat=None)
        if not r.is_over:
            view["moves"] = []  # the steps' events are the moves (linear size)
        assert state == {"view": view, "current": r.current_player,
                         "hands": [cards.codes(r.hand(s)) for s in range(3)]}
    bad = client.post("/api/replay", json={"format": "nope"})
    assert bad.status_code == 400 and "not a valid game record" in bad.json()["message"]
    rv = client.post("/api/review", json={"table": j["table"], "round": 1, "seat": 0}).json()
    mine = [e for e in record.load(rec).rounds[0].history if e[0] == 0]
    assert len(rv["moves"]) == len(mine)
    for e in rv["moves"]:
        if e["choices"] > 1:
            assert 0 <= e["value"] <= e["best_value"] + 1e-9
            assert e["dropped"] == (e["best_value"] - e["value"] >= rv["drop"])
    assert client.post("/api/review", json={"table": j["table"], "round": 9, "seat": 0}).status_code == 400


def test_spectators_are_told_apart_in_chat(make_app):
    """#33 defect 7: every spectator was "Spectator"; each now has a number of its own
    (the page words it as "Spectator 2"), the same one for every line it writes."""
    client = make_app(chat_new_age=0.0)
    j = create(client, "fanti", 2, ["person", "person"], rules={"rounds": 1})
    anna = Seat(client, j["table"], token=j["token"])
    anna.welcome()
    key = j["watch_url"].split("#watch=")[1]
    one = Seat(client, j["table"], watch=key)
    kept = dict(client.cookies)
    client.cookies.clear()  # another browser: another person
    two = Seat(client, j["table"], watch=key)
    client.cookies.update(kept)
    one.welcome()
    two.welcome()
    lines = []
    for who, text in ((one, "a"), (two, "b"), (one, "c")):
        who.send({"type": "chat", "text": text})
        lines.append(two.until(lambda m, x=text: m["type"] == "chat"
                               and m["line"]["text"] == x)["line"])
    assert all(ln["name"] != "Spectator" for ln in lines)
    assert [ln["spectator"] for ln in lines] == [1, 2, 1]
    again = Seat(client, j["table"], watch=key)  # the same person in a second tab
    again.welcome()
    again.send({"type": "chat", "text": "d"})
    assert two.until(lambda m: m["type"] == "chat")["line"]["spectator"] == 1
