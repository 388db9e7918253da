"""Pairing pools over HTTP ("Play people", server/pools.py): one process, SQLite."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

from server_kit import Person, Seat, hidden_cards, mentioned, service

from parlour.server.pool_rows import POOL


def person(client):
    return Person(client)


def enter(client, game="fanti", players=2, name="", who=None):
    who = who or person(client)
    r = who.post("/api/pool", json={"game": game, "players": players, "name": name})
    assert r.status_code == 201, r.text
    return r.json()


def ask(client, ticket, wait=True):
    r = client.post("/api/pool/wait", json={"ticket": ticket, "wait": wait})
    assert r.status_code == 200, r.text
    return r.json()


def until_paired(client, ticket, limit=20.0):
    deadline = time.monotonic() + limit
    while True:
        out = ask(client, ticket)
        if out["status"] != "waiting":
            return out
        assert time.monotonic() < deadline, out


def pool_listing(client, pool, limit=10.0, **counts):
    """Until ``GET /api/pools`` gives ``pool`` these counts (they are counted at most once
    a second: a count read beside the pairing may stand that long)."""
    deadline = time.monotonic() + limit
    while True:
        listing = {(p["game"], p["players"]): p for p in client.get("/api/pools").json()}
        if all(listing[pool][k] == v for k, v in counts.items()):
            return True
        assert time.monotonic() < deadline, listing[pool]
        time.sleep(0.05)


def test_two_people_are_seated_together_and_the_game_starts(make_app):
    client = make_app(pool_wait=2.0, pool_every=0.05)
    a = enter(client, name="Ann")
    assert a["status"] == "waiting" and a["fill"] is False and a["ticket"]
    b = enter(client, name="Ben")
    pa, pb = until_paired(client, a["ticket"]), until_paired(client, b["ticket"])
    ja, jb = pa["joined"], pb["joined"]
    assert pa["status"] == pb["status"] == "paired"
    assert ja["table"] == jb["table"] and {ja["seat"], jb["seat"]} == {0, 1}
    assert ja["token"] != jb["token"] and ja["rejoin_url"].startswith("http://testserver/t/")
    # Each derived token opens its own seat, and the game is already under way.
    sa, sb = Seat(client, ja["table"], ja["token"]), Seat(client, jb["table"], jb["token"])
    assert sa.welcome()["type"] == "welcome" and sb.welcome()["type"] == "welcome"
    state = sa.until_state(lambda s: s["table"]["status"] == "playing")
    assert sorted(s["name"] for s in state["table"]["seats"]) == ["Ann", "Ben"]
    t = service(client).tables[ja["table"]]
    assert t.config["rated"] is True and t.config["pool"] is True
    # Asking again gives the same seat; the pool says one game of two people is on.
    again = ask(client, a["ticket"])
    assert again["joined"]["seat"] == ja["seat"] and again["joined"]["token"] == ja["token"]
    assert pool_listing(client, ("fanti", 2), playing=2, waiting=0)
    # Nothing a pool answers names a card of the game in play.
    hidden = hidden_cards(t.match, None)
    for payload in (again, client.get("/api/pools").json()):
        assert not (mentioned(payload, t.match) & hidden)


def test_same_name_gets_a_number_and_bad_input_changes_nothing(make_app):
    client = make_app(pool_wait=2.0, pool_every=0.05)
    for body, code in (({"game": "chess", "players": 2}, "bad_pool"),
                       ({"game": "fanti", "players": 9}, "invalid"),
                       ({"game": "fanti", "players": 2, "name": "a\u202eb"}, "bad_name"),
                       ({"game": "fanti", "players": 2, "x": 1}, "invalid")):
        r = client.post("/api/pool", json=body)
        assert r.status_code in (400, 422) and r.json()["error"] == code, r.text
    r = client.post("/api/pool/wait", json={"ticket": "nope"})
    assert r.status_code == 404 and r.json()["error"] == "not_found"
    with service(client).store.engine.connect() as c:
        assert c.execute(POOL.select()).first() is None
    a, b = enter(client, name="Sam"), enter(client, name="sam")
    ja = until_paired(client, a["ticket"])["joined"]
    info = client.get(f"/api/tables/{ja['table']}").json()
    assert sorted(s["name"] for s in info["seats"]) == ["Sam", "sam (2)"]
    assert until_paired(client, b["ticket"])["status"] == "paired"


def test_a_four_player_pool_waits_for_four(make_app):
    client = make_app(pool_wait=0.3, pool_every=0.05)
    tickets = [enter(client, "fantan", 4, f"P{i}")["ticket"] for i in range(3)]
    pools = service(client).pools
    seen = pools.rounds
    deadline = time.monotonic() + 10
    while pools.rounds < seen + 3:  # several pairing rounds: three are not a table
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert all(ask(client, t, wait=False)["status"] == "waiting" for t in tickets)
    assert ask(client, tickets[0], wait=False)["waiting"] == 3
    tickets.append(enter(client, "fantan", 4, "P3")["ticket"])
    tables = {until_paired(client, t)["joined"]["table"] for t in tickets}
    assert len(tables) == 1


def test_fill_with_computers_after_the_wait_and_not_before(make_app):
    client = make_app(pool_wait=0.2, pool_every=0.05, pool_fill_after=3.0)
    a = enter(client, name="Solo")
    r = client.post("/api/pool/fill", json={"ticket": a["ticket"]})
    assert r.status_code == 409 and r.json()["error"] == "too_soon" and "Retry-After" in r.headers
    deadline = time.monotonic() + 10
    while not ask(client, a["ticket"])["fill"]:
        assert time.monotonic() < deadline
    r = client.post("/api/pool/fill", json={"ticket": a["ticket"]})
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["status"] == "filled"
    t = service(client).tables[out["joined"]["table"]]
    assert [s.kind for s in t.seats] == ["person", "bot"] and t.config["rated"] is False


def test_leaving_and_entering_again_and_one_entry_per_person(make_app):
    client = make_app(pool_wait=0.2, pool_every=0.05)
    a = enter(client)
    left = client.post("/api/pool/leave", json={"ticket": a["ticket"]}).json()
    assert left["status"] == "left"
    b, c = enter(client), enter(client)
    # Two others pair; the one who left stays out.
    assert until_paired(client, b["ticket"])["joined"]["table"] == \
        until_paired(client, c["ticket"])["joined"]["table"]
    assert ask(client, a["ticket"])["status"] == "left"


def test_an_entry_nobody_asks_about_leaves_the_pool(make_app):
    client = make_app(pool_wait=0.2, pool_every=0.05, pool_stale=1.0)
    a = enter(client)
    engine = service(client).store.engine
    deadline = time.monotonic() + 20
    while True:  # its page is closed: it stops asking, and the pool lets it go
        with engine.connect() as c:
            if c.execute(POOL.select().where(POOL.c.status == "gone")).first() is not None:
                break
        assert time.monotonic() < deadline
        time.sleep(0.05)
    b = enter(client)
    assert ask(client, b["ticket"], wait=False)["status"] == "waiting"
    assert ask(client, a["ticket"], wait=False)["status"] == "gone"


def test_entering_is_limited_per_address(make_app):
    client = make_app(pool_enter_per_minute=1.0, pool_enter_burst=2)
    enter(client)
    enter(client)
    r = client.post("/api/pool", json={"game": "fanti", "players": 2})
    assert r.status_code == 429 and r.json()["error"] == "rate_limited"
    assert int(r.headers["Retry-After"]) > 0


def test_one_entry_per_person_the_newest(make_app):
    client = make_app(pool_wait=0.2, pool_every=0.05)
    me = person(client)
    first = enter(client, "fantan", 4, who=me)
    second = enter(client, who=me)
    assert ask(client, first["ticket"], wait=False)["status"] == "left"
    assert ask(client, second["ticket"], wait=False)["status"] == "waiting"


def test_a_pool_name_follows_the_rules_of_a_seat_name(make_app):
    # The words the room uses for someone ("Computer 2" is the name a filled seat's
    # computer player gets, "Host", "Spectator") are refused as at a table: 400 and no
    # entry; a plain name is kept as shown.
    client = make_app(pool_wait=0.2, pool_every=0.05)
    for name in ("Computer 2", "host", "Spectator", "  ADMIN  "):
        r = client.post("/api/pool", json={"game": "fanti", "players": 2, "name": name})
        assert r.status_code == 400 and r.json()["error"] == "bad_name", (name, r.text)
        assert "word the card room uses" in r.json()["message"]
    with service(client).store.engine.connect() as c:
        assert c.execute(POOL.select()).first() is None
    enter(client, name="  Ann   Lee ")
    with service(client).store.engine.connect() as c:
        assert [r.name for r in c.execute(POOL.select())] == ["Ann Lee"]


def test_a_held_question_is_answered_when_computers_are_first_offered(make_app):
    # Questions are held up to 20 s and looked at again only every 60 s, yet the one
    # held when the offer of computer players comes (after 3 s) is answered then.
    client = make_app(pool_wait=20.0, pool_recheck=60.0, pool_every=0.05, pool_fill_after=3.0)
    a = enter(client, name="Solo")
    out = ask(client, a["ticket"])
    assert out["status"] == "waiting" and out["fill"] is True
    assert out["waited"] < 15.0, out  # answered at the offer, not at the end of the hold


def test_a_held_question_is_answered_when_the_counts_it_shows_change(make_app):
    # The page says how many wait: when it sends the counts it shows, its held question
    # is answered once they change (here: a second person enters), not at the hold's end.
    client = make_app(pool_wait=20.0, pool_recheck=0.1, pool_every=0.05)
    a = enter(client, "fantan", 4, "Ann")
    deadline = time.monotonic() + 10
    while ask(client, a["ticket"], wait=False)["waiting"] != 1:  # (counted anew soon)
        assert time.monotonic() < deadline
    pools = service(client).pools
    with ThreadPoolExecutor(1) as pool:
        held = pool.submit(client.post, "/api/pool/wait",
                           json={"ticket": a["ticket"], "waiting": 1, "playing": 0})
        deadline = time.monotonic() + 10
        while pools.held < 1:  # Ann's question is held: nothing has changed yet
            assert time.monotonic() < deadline and not held.done()
            time.sleep(0.02)
        enter(client, "fantan", 4, "Ben")
        out = held.result(timeout=15)
    assert out.status_code == 200 and out.json()["waiting"] == 2, out.text
    assert out.json()["waited"] < 15.0  # answered at the change, not after 20 s
    # Counts already unlike those shown: answered at once; bad counts change nothing.
    again = ask_showing(client, a["ticket"], 5, 0)
    assert again["waiting"] == 2 and again["waited"] < 15.0
    for bad in (-1, 10**7, "two"):
        r = client.post("/api/pool/wait", json={"ticket": a["ticket"], "waiting": bad, "playing": 0})
        assert r.status_code == 422 and r.json()["error"] == "invalid", r.text
    r = client.post("/api/pool/wait", json={"ticket": a["ticket"], "waiting": 2})
    assert r.status_code == 422 and "both counts" in r.text, r.text


def ask_showing(client, ticket, waiting, playing):
    r = client.post("/api/pool/wait", json={"ticket": ticket, "waiting": waiting, "playing": playing})
    assert r.status_code == 200, r.text
    return r.json()
