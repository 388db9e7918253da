"""Ratings: the model, the idempotent update, rebuild, and bots never rated (issue 32)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from parlour.server import rated, ratings
from parlour.server.db import Store, _alchemy_tx


@pytest.fixture
def store(tmp_path):
    s = Store(f"sqlite:///{tmp_path}/r.sqlite3")
    yield s
    s.close()


def rate(store: Store, e: rated.Ending, owners: dict[int, str]) -> bool:
    with store.engine.begin() as c:
        return rated.record_in(_alchemy_tx(c), e, owners)


def stored(store: Store) -> list[tuple]:
    with store.engine.connect() as c:
        return [tuple(r) for r in c.execute(text(
            "SELECT player_id, pool, mu, sigma, games, wins FROM ratings ORDER BY 1, 2"))]


def test_pools_follow_the_game_kit():
    assert ratings.pool_of("fanti", 2) == "fanti:2"
    assert ratings.pool_of("fanti", 3) == ratings.pool_of("fanti", 4) == "fanti:3-4"
    assert ratings.pool_of("fantan", 4) == "fantan:3-4"
    assert ratings.pool_of("fantan", 7) == "fantan:5-8"
    assert ratings.label("fantan:5-8") == "Fan Tan, 5 to 8 players"
    assert ratings.label("fanti:2") == "Fanti, 2 players"
    assert ratings.pools("fanti") == ["fanti:2", "fanti:3-4"]


def test_places_share_ties_and_put_leavers_last():
    # higher wins: 10, 7, 7, 3 -> 1, 2, 2, 4
    assert ratings.places(False, [10, 7, 7, 3], [0], [False] * 4) == [1, 2, 2, 4]
    # lower wins (Fan Tan points), two winners share first
    assert ratings.places(True, [2, 2, 9], [0, 1], [False] * 3) == [1, 1, 3]
    # the winner on points left: they place last, the others move up
    assert ratings.places(False, [10, 7, 3], [0], [True, False, False]) == [3, 1, 2]
    # FT-9: the game's winner is first even if another total is better
    assert ratings.places(True, [5, 1, 9], [0], [False] * 3) == [1, 2, 3]


def test_a_win_raises_and_a_loss_lowers():
    (w, ws), (lo, ls) = ratings.update([(ratings.MU, ratings.SIGMA)] * 2, [1, 2])
    assert w > ratings.MU > lo and ws < ratings.SIGMA
    assert ratings.shown(ratings.MU) == 1500
    assert ratings.shown(w) > 1500 > ratings.shown(lo)
    assert ratings.provisional(ws, 6.5)


def test_replaying_the_end_changes_nothing(store):
    e = rated.Ending("T1", "fanti:2", 1.0, [30, 20], [1, 2], [False, False])
    assert rate(store, e, {0: "a", 1: "b"})
    first = stored(store)
    assert not rate(store, e, {0: "a", 1: "b"})  # a restart or a second process
    assert stored(store) == first
    assert [r[4] for r in first] == [1, 1] and [r[5] for r in first] == [1, 0]


def test_the_same_player_in_two_seats_or_an_unknown_seat_is_not_rated(store):
    assert not rate(store, rated.Ending("T1", "fanti:2", 1.0, [3, 2], [1, 2], [False] * 2),
                    {0: "a", 1: "a"})
    assert not rate(store, rated.Ending("T2", "fanti:2", 1.0, [3, 2], [1, 2], [False] * 2),
                    {0: "a"})
    assert stored(store) == []


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32))
def test_rebuild_finds_exactly_the_stored_numbers(tmp_path_factory, seed):
    rng = random.Random(seed)
    s = Store(f"sqlite:///{tmp_path_factory.mktemp('rb')}/r.sqlite3")
    try:
        people = [f"p{i}" for i in range(6)]
        for k in range(25):
            pool = rng.choice(["fanti:2", "fanti:3-4", "fantan:5-8"])
            n = 2 if pool == "fanti:2" else rng.randint(3, 4) if pool == "fanti:3-4" else 5
            who = rng.sample(people, n)
            totals = [rng.randint(0, 5) for _ in who]
            gone = [rng.random() < 0.1 for _ in who]
            best = max(totals)
            winners = [i for i, t in enumerate(totals) if t == best]
            e = rated.Ending(f"T{k}", pool, float(k), totals,
                             ratings.places(False, totals, winners, gone), gone)
            assert rate(s, e, dict(enumerate(who)))
        before = stored(s)
        report = rated.rebuild(s)
        assert report.games == 25 and report.differences == []
        assert stored(s) == before
        # a number changed behind the model's back is found, and put right with write
        with s.engine.begin() as c:
            c.execute(text("UPDATE ratings SET mu = mu + 1 WHERE player_id = 'p0'"))
        assert rated.rebuild(s).differences
        rated.rebuild(s, write=True)
        assert stored(s) == before
    finally:
        s.close()


# --- the API over stored rows ---------------------------------------------------------

PEOPLE = [
    "CREATE TABLE IF NOT EXISTS players (id VARCHAR(32) PRIMARY KEY, name VARCHAR(64), "
    "name_key VARCHAR(64) UNIQUE, guest BOOLEAN, created FLOAT, seen FLOAT, banned VARCHAR(400), "
    "password VARCHAR(256))",
    "CREATE TABLE IF NOT EXISTS seat_owners (table_id VARCHAR(32), seat INTEGER, "
    "player_id VARCHAR(32), name VARCHAR(64), at FLOAT, PRIMARY KEY (table_id, seat))",
]


def people(store: Store, *names: str) -> None:
    with store.engine.begin() as c:
        for sql in PEOPLE:
            c.execute(text(sql))
        for n in names:
            c.execute(text("INSERT INTO players (id, name, name_key, guest, created, seen) "
                           "VALUES (:i, :n, :k, :g, 0, 0)"),
                      {"i": "id-" + n, "n": n, "k": n.casefold(), "g": False})


def test_leaderboard_and_profile_shapes(client):
    from server_kit import service

    store = service(client).store
    people(store, "Ann", "Bob", "Cy")
    for k in range(4):  # Ann beats Bob three times, loses once; Cy plays once
        e = rated.Ending(f"G{k}", "fanti:2", float(k), [3, 1] if k < 3 else [1, 3],
                         [1, 2] if k < 3 else [2, 1], [False, False])
        assert rate(store, e, {0: "id-Ann", 1: "id-Bob"})
    assert rate(store, rated.Ending("G9", "fanti:2", 9.0, [5, 0], [1, 2], [False, False]),
                {0: "id-Cy", 1: "id-Bob"})
    board = client.get("/api/leaderboard/fanti")
    assert board.status_code == 200
    rows = board.json()["rows"]
    assert [r["name"] for r in rows] == ["Ann", "Bob"]  # Cy has 1 game < 3
    assert set(rows[0]) >= {"name", "rating", "games"} and rows[0]["games"] == 4
    assert rows[0]["rating"] > 1500 > rows[1]["rating"]
    assert client.get("/api/leaderboard/fanti?pool=fanti:3-4").json()["rows"] == []
    assert client.get("/api/leaderboard/fanti?pool=fantan:3-4").status_code == 400
    assert client.get("/api/leaderboard/chess").json()["error"] == "not_found"
    p = client.get("/api/players/ann").json()  # names without regard to case
    assert p["name"] == "Ann" and p["ratings"]["fanti"]["games"] == 4
    assert p["ratings"]["fanti"]["rating"] == rows[0]["rating"]
    assert p["ratings"]["fanti"]["provisional"] is True
    assert [g["table"] for g in p["games"]] == ["G3", "G2", "G1", "G0"]
    g = p["games"][0]
    assert set(g) >= {"table", "game", "finished", "result", "replay"}
    assert g["result"] == "lost" and p["games"][1]["result"] == "won"
    assert g["replay"] is None  # the table itself is not stored here
    assert p["opponents"] == [{"name": "Bob", "games": 4, "won": 3, "lost": 1, "level": 0}]
    assert [h["rating"] for h in p["history"]["fanti:2"]][-1] == rows[0]["rating"]
    assert client.get("/api/players/Nobody").status_code == 404
    assert client.get("/api/players/" + "x" * 500).status_code == 404


def test_a_rated_table_with_a_computer_seat_is_refused(client):
    r = client.post("/api/tables", json={"game": "fanti", "players": 2, "rated": True})
    assert r.status_code == 400 and "computer" in r.json()["message"]
    r = client.post("/api/tables", json={"game": "fanti", "players": 2, "rated": True,
                                         "seats": [{"kind": "person"}, {"kind": "person"}]})
    assert r.status_code == 201
    assert client.get(f"/api/tables/{r.json()['table']}").json()["rated"] is True


def test_standings_reads_are_limited(make_app):
    c = make_app(standings_burst=2, standings_per_minute=1)
    people(c.app.state.service.store)
    assert [c.get("/api/leaderboard/fanti").status_code for _ in range(3)] == [200, 200, 429]
    r = c.get("/api/players/x")
    assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0


def test_the_pages_are_served(client):
    assert client.get("/leaderboard/fanti").status_code == 200
    assert client.get("/u/Ann").status_code == 200
    assert client.get("/leaderboard/chess").status_code == 404


# --- rated games played through the server ----------------------------------------------


def rated_table(client, anna, ben, names=("Anna", "Ben"), seed=5):
    j = anna.post("/api/tables", json={
        "game": "fanti", "players": 2, "rated": True, "name": names[0],
        "seats": [{"kind": "person"}, {"kind": "person"}], "rules": {"rounds": 1},
        "test": {"seed": seed}}).json()
    key = j["invite_url"].split("#invite=")[1]
    b = ben.post(f"/api/tables/{j['table']}/join", json={"key": key, "name": names[1]}).json()
    seats = [anna.seat(j["table"], token=j["token"]), ben.seat(j["table"], token=b["token"])]
    for s in seats:
        s.welcome()
    seats[0].send({"type": "start"})
    return j["table"], seats


def test_a_rated_game_changes_both_ratings_once_and_rebuild_agrees(make_app):
    from server_kit import Browser, http_leaks, service, threaded

    client = make_app(leaderboard_min_games=1)
    anna, ben = Browser(client), Browser(client)
    table, seats = rated_table(client, anna, ben)
    # While it is in play, nothing about ratings names a card of it.
    seats[0].until_state(lambda s: s["table"]["status"] == "playing" and s["view"])
    for path in ("/api/leaderboard/fanti", "/api/players/Anna", "/u/Anna"):
        answer = anna.get(path)
        assert http_leaks(client, answer.json() if "json" in answer.headers[
            "content-type"] else answer.text) == []
    seats[0].send({"type": "sync"})  # the state again, for play_to_end to act on
    end = threaded([s.play_to_end for s in seats])[0]
    winner = end["winners"][0] if len(end["winners"]) == 1 else None
    me = [anna.get("/api/me").json()["ratings"]["fanti"],
          ben.get("/api/me").json()["ratings"]["fanti"]]
    assert [m["games"] for m in me] == [1, 1] and all(m["provisional"] for m in me)
    if winner is not None:
        assert me[winner]["rating"] > 1500 > me[1 - winner]["rating"]
    rows = client.get("/api/leaderboard/fanti").json()["rows"]
    assert sorted(r["name"] for r in rows) == ["Anna", "Ben"]
    prof = anna.get("/api/players/Anna").json()
    assert prof["games"][0]["table"] == table and prof["games"][0]["replay"] == f"/replay/{table}"
    assert client.get(prof["games"][0]["replay"]).status_code == 200
    assert prof["opponents"][0]["name"] == "Ben"
    store = service(client).store
    before = stored(store)
    # The end replayed (a restart, a second process): nothing changes.
    t = service(client).tables[table]
    e = rated.ending(t)
    assert e is not None
    with store.engine.begin() as c:
        assert not rated.record_in(_alchemy_tx(c), e)
    assert stored(store) == before
    report = rated.rebuild(store)
    assert report.games == 1 and report.records == 1 and report.differences == []


def test_leaving_a_rated_game_counts_as_its_loss(make_app):
    from server_kit import Browser, service, threaded

    client = make_app()
    anna, ben = Browser(client), Browser(client)
    table, seats = rated_table(client, anna, ben, seed=11)
    seats[0].until_state(lambda s: s["table"]["status"] == "playing" and s["view"])
    seats[0].send({"type": "leave"})
    seats[0].until(lambda m: m["type"] == "bye")
    threaded([seats[1].play_to_end])
    with service(client).store.engine.connect() as c:
        places = dict(c.execute(text("SELECT seat, place FROM rating_changes WHERE "
                                     "table_id = :t"), {"t": table}).all())
    assert places == {0: 2, 1: 1}  # whatever the stand-in scored for Anna
    assert anna.get("/api/me").json()["ratings"]["fanti"]["rating"] < 1500
    assert ben.get("/api/me").json()["ratings"]["fanti"]["rating"] > 1500
    prof = anna.get("/api/players/Anna").json()
    assert prof["games"][0]["result"] == "left the game (counted as a loss)"


def test_bots_never_change_a_rating(make_app):
    from server_kit import Browser, service, threaded

    client = make_app()
    anna = Browser(client)
    j = anna.post("/api/tables", json={"game": "fanti", "players": 2, "rules": {"rounds": 1},
                                       "test": {"seed": 3}}).json()
    seat = anna.seat(j["table"], token=j["token"])
    seat.welcome()
    seat.send({"type": "start"})
    threaded([seat.play_to_end])
    assert anna.get("/api/me").json()["ratings"] == {}
    assert stored(service(client).store) == []


def test_the_rebuild_command(tmp_path):
    import subprocess
    import sys

    path = tmp_path / "r.sqlite3"
    s = Store(f"sqlite:///{path}")
    try:
        for k in range(5):
            rate(s, rated.Ending(f"T{k}", "fantan:3-4", float(k), [k, 2, 3],
                                 ratings.places(True, [k, 2, 3], [0] if k < 2 else [1], [False] * 3),
                                 [False] * 3), {0: "a", 1: "b", 2: "c"})
        kept = stored(s)

        def run(*args: str) -> subprocess.CompletedProcess:
            return subprocess.run([sys.executable, "-m", "parlour", "ratings", "rebuild",
                                   "--db", str(path), *args], capture_output=True, text=True,
                                  timeout=120)

        ok = run()
        assert ok.returncode == 0, ok.stderr
        assert "replayed 5 rated games; 3 ratings; 0 checked" in ok.stdout
        assert "every stored number matches" in ok.stdout
        with s.engine.begin() as c:
            c.execute(text("UPDATE ratings SET sigma = 1 WHERE player_id = 'b'"))
        check = run("--check")
        assert check.returncode == 1 and "differs: player b in fantan:3-4" in check.stdout
        fixed = run()
        assert fixed.returncode == 0 and "the recomputed ones are written" in fixed.stdout
        assert stored(s) == kept
        missing = subprocess.run(
            [sys.executable, "-m", "parlour", "ratings", "rebuild", "--db",
             str(tmp_path / "none.sqlite3")], capture_output=True, text=True, timeout=120)
        assert missing.returncode == 2 and "no such database file" in missing.stderr
        assert "Traceback" not in missing.stderr
    finally:
        s.close()


def test_a_forgotten_player_leaves_no_trace_and_rebuild_still_agrees(client):
    from server_kit import service

    store = service(client).store
    people(store, "Ann", "Bob")
    for k in range(3):
        assert rate(store, rated.Ending(f"F{k}", "fanti:2", float(k), [3, 1], [1, 2],
                                        [False, False]), {0: "id-Ann", 1: "id-Bob"})
    mine = rated.export(store, "id-Ann")
    assert [r["games"] for r in mine["ratings"]] == [3]
    assert [g["table"] for g in mine["rated_games"]] == ["F0", "F1", "F2"]
    bob = client.get("/api/players/Bob").json()["ratings"]
    from parlour.server import people as people_rows

    people_rows.forget(store.engine, "id-Ann", "gone-x")  # the account's deletion
    assert rated.export(store, "id-Ann") == {"ratings": [], "rated_games": []}
    assert [r["name"] for r in client.get("/api/leaderboard/fanti").json()["rows"]] == ["Bob"]
    after = client.get("/api/players/Bob").json()
    assert after["ratings"] == bob
    assert after["opponents"][0]["name"] == "Former player"
    assert rated.rebuild(store).differences == []


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-20, 60), min_size=2, max_size=8), st.booleans(), st.data())
def test_places_are_a_fair_ranking(totals, lower, data):
    n = len(totals)
    best = min(totals) if lower else max(totals)
    winners = [s for s, t in enumerate(totals) if t == best]
    gone = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    placed = ratings.places(lower, totals, winners, gone)
    for a in range(n):
        for b in range(n):
            if gone[a] and not gone[b]:
                assert placed[a] > placed[b]  # a leaver is behind everyone who stayed
            if not gone[a] and not gone[b]:
                better = totals[a] < totals[b] if lower else totals[a] > totals[b]
                if better:
                    assert placed[a] < placed[b]
                if totals[a] == totals[b]:
                    assert placed[a] == placed[b]  # ties shared
    # competition ranking: a place is 1 + the seats strictly ahead
    assert all(p == 1 + sum(q < p for q in placed) for p in placed)
    if not any(gone):
        assert {s for s in range(n) if placed[s] == 1} == set(winners)


def test_timing_out_for_good_counts_as_a_loss(make_app):
    """Ben's connection drops and he never comes back: the stand-in plays his seat to
    the end (after ``grace``), and he places last whatever it scored."""
    from server_kit import Browser, service, threaded

    client = make_app(grace=0.2)
    anna, ben = Browser(client), Browser(client)
    table, seats = rated_table(client, anna, ben, seed=21)
    seats[1].until_state(lambda s: s["table"]["status"] == "playing")
    seats[1].close()
    threaded([seats[0].play_to_end])
    with service(client).store.engine.connect() as c:
        rows = dict(c.execute(text("SELECT seat, gone FROM rating_changes WHERE "
                                   "table_id = :t"), {"t": table}).all())
        places = dict(c.execute(text("SELECT seat, place FROM rating_changes WHERE "
                                     "table_id = :t"), {"t": table}).all())
    assert rows == {0: False, 1: True} and places == {0: 1, 1: 2}
