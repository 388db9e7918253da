"""Correspondence tables: days for each move. Absent players keep their seat (no grace
time), the table does not expire while its move clock runs, the clock's deadline is
stored (a restart "days" later, on a fake clock, plays the overdue move by the stand-in),
and a player who comes back before their days run out simply plays."""

from __future__ import annotations

import time

import pytest
from server_kit import Seat, create, service
from starlette.testclient import TestClient

from parlour.server import Settings, create_app

pytestmark = pytest.mark.timeout(60)
DAY = 86_400


class FakeClock:
    """The server's wall clock (``time.time``), moved forward by the test; the event
    loop's own clock (monotonic) is untouched, so only stored deadlines jump."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.offset = 0.0
        real = time.time
        monkeypatch.setattr(time, "time", lambda: real() + self.offset)

    def advance(self, seconds: float) -> None:
        self.offset += seconds


def two_people(client: TestClient, days: int = 1) -> tuple[dict, Seat, Seat]:
    j = create(client, "fanti", 2, ["person", "person"], rules={"rounds": 1}, name="Anna",
               days=days, test={"seed": 5})
    invite = j["invite_url"].split("#invite=")[1]
    b = client.post(f"/api/tables/{j['table']}/join", json={"key": invite, "name": "Bo"}).json()
    anna = Seat(client, j["table"], token=j["token"])
    bo = Seat(client, j["table"], token=b["token"])
    anna.welcome()
    bo.welcome()
    anna.send({"type": "start"})
    anna.until_state(lambda s: s["commit"] and s["view"])
    j["tokens"] = [j["token"], b["token"]]
    return j, anna, bo


def test_days_and_a_turn_timer_are_refused_together_and_only_1_3_7_days(client):
    body = {"game": "fanti", "players": 2}
    r = client.post("/api/tables", json={**body, "days": 3, "timer": 60})
    assert r.status_code == 400 and "not both" in r.json()["message"]
    assert client.post("/api/tables", json={**body, "days": 2}).status_code == 422
    j = client.post("/api/tables", json={**body, "days": 7}).json()
    info = client.get(f"/api/tables/{j['table']}").json()
    assert info["days"] == 7 and info["timer"] == 7 * DAY


def test_an_absent_player_keeps_the_seat_until_the_days_run_out(make_app):
    client = make_app(grace=0.01)
    j, anna, bo = two_people(client)
    svc = service(client)
    t = svc.load(j["table"])
    turn = t.match.current.current_player
    state = anna.state
    assert state["table"]["days"] == 1
    assert state["deadline"]["seat"] == turn and DAY - 60 < state["deadline"]["left"] <= DAY
    assert svc.store.get(j["table"]).deadline == pytest.approx(state["deadline"]["at"])
    anna.close()
    bo.close()
    deadline = time.monotonic() + 20
    while t.conns and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not t.conns
    # No grace time runs: nothing is scheduled to stand in for the absent players.
    assert t.grace_tasks == {} and t.grace_until == {}
    assert all(s.auto is None for s in t.seats)
    # Idle for longer than idle tables may be, but less than a day: not expired.
    assert client.portal.call(svc.sweep, time.time() + svc.settings.idle_expiry * 2) == []
    # A player who comes back plays as if they had never gone.
    mover = Seat(client, j["table"], token=j["tokens"][turn])
    mover.welcome()
    seq = mover.seq
    mover.send({"type": "move", "seq": seq, "move": mover.state["view"]["legal"][0]})
    mover.until(lambda m: m["type"] == "update" and m["event"].get("by") == "person")
    assert svc.load(j["table"]).seats[turn].auto is None


def test_a_restart_days_later_plays_the_overdue_move_by_the_stand_in(tmp_path, monkeypatch):
    clock = FakeClock(monkeypatch)
    settings = dict(db_url=f"sqlite:///{tmp_path}/t.sqlite3", bot_delay=0.0, round_pause=0.0,
                    testing=True, allowed_hosts=["testserver"], bot_workers=0,
                    gc_freeze_every=0.0, arrival_lag_ms=0.0, max_seats_per_address=8)
    with TestClient(create_app(Settings(**settings))) as client:
        j, anna, bo = two_people(client, days=3)
        turn = anna.state["view"]["current_player"]
        at = anna.state["deadline"]["at"]
        anna.close()
        bo.close()
    clock.advance(2 * DAY)  # two days later: still the same player's move
    with TestClient(create_app(Settings(**settings))) as client:
        row = service(client).store.get(j["table"])
        assert row.deadline == pytest.approx(at) and row.status == "playing"
        assert client.portal.call(service(client).sweep, time.time()) == []
        assert all(s.auto is None for s in service(client).load(j["table"]).seats)
    clock.advance(DAY + 60)  # past the three days: the stand-in plays that move
    with TestClient(create_app(Settings(**settings))) as client:
        watcher = Seat(client, j["table"], watch=j["watch_url"].split("#watch=")[1])
        watcher.welcome()
        # (it may have moved before the watcher came: the state's log tells)
        state = watcher.until_state(lambda s: any(
            e["kind"] == "move" and e["seat"] == turn for e in s["log"]))
        events = [e for e in state["log"] if e["kind"] in ("standin", "move")]
        assert events[:2] == [{"kind": "standin", "seat": turn, "reason": "timeout"},
                              {**events[1], "seat": turn, "by": "standin"}]
        watcher.close()


def test_your_move_lists_the_games_waiting_on_you_and_nothing_hidden(make_app):
    client = make_app()
    other = TestClient(client.app)  # a second browser: its own cookie, so its own player
    assert client.get("/api/your-move").json() == {"games": []}  # nobody yet: empty
    j = create(client, "fanti", 2, ["person", "person"], rules={"rounds": 1}, name="Anna",
               days=3, test={"seed": 5})
    invite = j["invite_url"].split("#invite=")[1]
    b = other.post(f"/api/tables/{j['table']}/join", json={"key": invite, "name": "Bo"}).json()
    anna = Seat(client, j["table"], token=j["token"])
    bo = Seat(client, j["table"], token=b["token"])
    anna.welcome()
    bo.welcome()
    anna.send({"type": "start"})
    state = anna.until_state(lambda s: s["commit"] and s["view"])
    turn = state["view"]["current_player"]
    waiting, idle = (client, other) if turn == 0 else (other, client)
    games = waiting.get("/api/your-move").json()["games"]
    assert [g["table"] for g in games] == [j["table"]]
    g = games[0]
    assert g["url"] == f"/t/{j['table']}" and g["days"] == 3 and g["seat"] == turn
    assert g["others"] == [["Anna", "Bo"][1 - turn]]
    assert 3 * DAY - 60 < g["left"] <= 3 * DAY
    assert idle.get("/api/your-move").json() == {"games": []}
    # Public facts only: every /api/your-move answer passes the hidden-card oracle
    # (server_kit.HTTP_CHECKED; the fixture fails the test on a leak).
    # After the move the game waits on the other player.
    mover = anna if turn == 0 else bo
    mover.until_state(lambda s: s["view"] and s["view"]["legal"])
    mover.send({"type": "move", "seq": mover.seq, "move": mover.state["view"]["legal"][0]})
    mover.until(lambda m: m["type"] == "update" and m["event"].get("by") == "person")
    assert waiting.get("/api/your-move").json() == {"games": []}
    assert [g["table"] for g in idle.get("/api/your-move").json()["games"]] == [j["table"]]


def test_the_room_counts_people_at_tables_and_games_in_play(make_app):
    client = make_app(room_counts_every=0.0)
    assert client.get("/api/room").json() == {"players_online": 0, "games_in_play": 0}
    j = create(client, "fanti", 2, ["person", "greedy"], rules={"rounds": 1}, name="Anna")
    anna = Seat(client, j["table"], token=j["token"])
    anna.welcome()
    assert client.get("/api/room").json() == {"players_online": 1, "games_in_play": 0}
    anna.send({"type": "start"})
    anna.until_state(lambda s: s["table"]["status"] == "playing")
    # The same person at a second table counts once.
    k = create(client, "fanti", 2, ["person", "greedy"], rules={"rounds": 1})
    again = Seat(client, k["table"], token=k["token"])
    again.welcome()
    assert client.get("/api/room").json() == {"players_online": 1, "games_in_play": 1}
    anna.close()
    again.close()
    svc = service(client)
    deadline = time.monotonic() + 20
    while any(t.conns for t in svc.tables.values()) and time.monotonic() < deadline:
        time.sleep(0.01)
    # Online until ``online_window`` after the last mark (server/presence.py): a fake
    # clock moves past it.
    later = time.time() + svc.settings.online_window + 1
    svc.presence.clock = lambda: later
    assert client.get("/api/room").json() == {"players_online": 0, "games_in_play": 1}


def test_the_room_counts_are_the_same_from_every_cluster_process(make_app, tmp_path):
    db = f"sqlite:///{tmp_path}/shared.sqlite3"
    a = make_app(db_url=db, cluster=True, instance="a", room_counts_every=0.0)
    b = make_app(db_url=db, cluster=True, instance="b", room_counts_every=0.0)
    j = create(a, "fanti", 2, ["person", "greedy"], rules={"rounds": 1}, name="Anna")
    anna = Seat(a, j["table"], token=j["token"])
    anna.welcome()
    anna.send({"type": "start"})
    anna.until_state(lambda s: s["table"]["status"] == "playing")
    want = {"players_online": 1, "games_in_play": 1}
    assert a.get("/api/room").json() == want and b.get("/api/room").json() == want


def test_your_move_is_limited_per_address(make_app):
    client = make_app(your_move_per_minute=1.0, your_move_burst=2)
    assert [client.get("/api/your-move").status_code for _ in range(2)] == [200, 200]
    r = client.get("/api/your-move")
    assert r.status_code == 429 and r.json()["error"] == "rate_limited"
    assert int(r.headers["Retry-After"]) >= 1
