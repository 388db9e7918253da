"""Issue #31 finding 2: a table's moves are capped (FT-11 in play, ``max_table_moves``
at creation), and whole-state requests are limited per connection."""

from __future__ import annotations

import pytest
from server_kit import Seat, create, service, threaded

from parlour.games.fantan.rules import max_round_moves

pytestmark = pytest.mark.timeout(90)


def _join(client, j, name):
    invite = j["invite_url"].split("#invite=")[1]
    return client.post(f"/api/tables/{j['table']}/join", json={"key": invite, "name": name}).json()


def test_a_table_where_everyone_passes_for_ever_ends_its_round_blocked(client):
    """Three seats that pass whenever they may (strict: false): the round ends after six
    passes in a row (FT-11), not never; the table holds a bounded number of moves."""
    j = create(client, "fantan", 3, ["person", "person", "person"],
               rules={"rounds": 1, "strict": False}, test={"seed": 4})
    tokens = [j["token"], _join(client, j, "Ben")["token"], _join(client, j, "Cy")["token"]]
    seats = [Seat(client, j["table"], token=t) for t in tokens]
    for s in seats:
        s.welcome()
    seats[0].send({"type": "start"})
    sent = [0]

    def stall(state):
        sent[0] += 1
        assert sent[0] < 2 * max_round_moves(3), "the round never ends"
        legal = state["view"]["legal"]
        return {"pass": True} if {"pass": True} in legal else legal[0]

    finals = threaded([lambda s=s: s.play_to_end(stall) for s in seats])
    t = service(client).load(j["table"])
    rnd = t.match.rounds[0]
    assert rnd.blocked and rnd.winner == -1
    assert len(rnd.history) <= max_round_moves(3)
    assert [m.get("pass") for m in rnd.moves_json()[-6:]] == [True] * 6
    assert finals[0]["totals"] == rnd.score()


def test_a_table_whose_rules_allow_too_many_moves_is_refused(make_app):
    """``max_table_moves``: rounds x the game's most moves a round (FT-11 for Fan Tan:
    2n(53 - n), 392 at four players)."""
    client = make_app(max_table_moves=4000)
    r = client.post("/api/tables", json={"game": "fantan", "players": 4, "rules": {"rounds": 11}})
    assert r.status_code == 400 and r.json()["error"] == "bad_table", r.text
    assert "at most 10 rounds of Fan Tan for 4 players" in r.json()["message"]
    assert client.post("/api/tables", json={"game": "fantan", "players": 4,
                                            "rules": {"rounds": 10}}).status_code == 201
    # Fanti rounds are always 48 moves: 83 rounds fit in 4,000
    assert client.post("/api/tables", json={"game": "fanti", "players": 2,
                                            "rules": {"rounds": 84}}).status_code == 400
    assert client.post("/api/tables", json={"game": "fanti", "players": 2,
                                            "rules": {"rounds": 83}}).status_code == 201


def test_whole_state_requests_are_limited_per_connection(make_app):
    """``sync_per_minute`` / ``sync_burst``: past the burst, error ``sync_limit`` with
    ``retry_after``; other messages still answered, and another connection unaffected."""
    client = make_app(sync_per_minute=6.0, sync_burst=2)
    j = create(client, "fantan", 3, ["person", "easy", "easy"], rules={"rounds": 1})
    watch = j["watch_url"].split("#watch=")[1]
    spy = Seat(client, j["table"], watch=watch)
    spy.welcome()
    for _ in range(2):
        spy.send({"type": "sync"})
        assert spy.until(lambda m: m["type"] in ("snapshot", "error"))["type"] == "snapshot"
    spy.send({"type": "sync"})
    err = spy.until(lambda m: m["type"] in ("snapshot", "error"))
    assert err["type"] == "error" and err["code"] == "sync_limit"
    assert 0 < err["retry_after"] <= 10 and "at most 6 a minute" in err["message"]
    spy.send({"type": "ping"})
    assert spy.until(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"
    other = Seat(client, j["table"], watch=watch)
    other.welcome()
    other.send({"type": "sync"})
    assert other.until(lambda m: m["type"] in ("snapshot", "error"))["type"] == "snapshot"
