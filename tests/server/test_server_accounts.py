"""Accounts and sessions (issue 32): sign up (a guest keeps their seats), sign in and out,
everywhere; a failed sign-in that tells nothing; sign-in limits; CSRF; password change;
export; deletion that leaves a neutral name behind."""

from __future__ import annotations

import json

import pytest
from server_kit import Browser, service, threaded

from parlour.server import people
from parlour.server.identity import COOKIE, digest

pytestmark = pytest.mark.timeout(180)
PW = "correct horse battery"


def owners(client, table):
    return people.seat_owners(service(client).store.engine, table)


def sign_up(b, name, password=PW):
    r = b.post("/api/accounts", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    return r.json()


def session_ids(client):
    with service(client).store.engine.connect() as c:
        return {r["id"] for r in c.execute(people.SESSIONS.select()).mappings()}


def test_a_guest_who_signs_up_keeps_their_seats_under_a_new_session(client):
    anna = Browser(client)
    j = anna.post("/api/tables", json={"game": "fantan", "players": 3, "name": "Anna"}).json()
    guest_secret = anna.cookies[COOKIE]
    player = owners(client, j["table"])[0]["player_id"]
    me = sign_up(anna, "Anna")
    assert me["name"] == "Anna" and me["guest"] is False and me["known"] is True
    assert me["password"] is True and me["passkeys"] == 0
    # The session id changed at sign-up; the guest's secret opens nothing any more.
    assert anna.cookies[COOKIE] != guest_secret
    assert session_ids(client) == {digest(anna.cookies[COOKIE])}
    stale = Browser(client)
    stale.jar = [c for c in anna.jar]
    stale.jar[0].value = guest_secret
    assert stale.get("/api/me").json()["known"] is False
    # Same player: the seat is the account's.
    assert owners(client, j["table"])[0]["player_id"] == player
    row = people.player_by_key(service(client).store.engine, "anna")
    assert row["id"] == player and row["password"].startswith("$argon2id$")
    assert PW not in json.dumps(row)


def test_the_session_id_changes_at_sign_in_and_sign_out_ends_it(client):
    sign_up(Browser(client), "Anna")
    phone = Browser(client)
    phone.post("/api/tables", json={"game": "fantan", "players": 3})  # a guest first
    before = phone.cookies[COOKIE]
    r = phone.post("/api/session", json={"name": "ANNA", "password": PW})
    assert r.status_code == 200 and r.json()["name"] == "Anna"
    assert "HttpOnly" in r.headers["set-cookie"]
    after = phone.cookies[COOKIE]
    assert after != before and digest(before) not in session_ids(client)
    assert phone.delete("/api/session").json()["known"] is False
    assert digest(after) not in session_ids(client)
    assert COOKIE not in phone.cookies


def test_sign_out_everywhere_ends_every_session(client):
    a, b = Browser(client), Browser(client)
    sign_up(a, "Anna")
    b.post("/api/session", json={"name": "Anna", "password": PW})
    assert b.get("/api/me").json()["name"] == "Anna"
    assert a.delete("/api/sessions").json()["known"] is False
    assert b.get("/api/me").json()["known"] is False


def test_a_wrong_password_and_an_unknown_name_get_the_same_answer_after_the_same_work(client):
    sign_up(Browser(client), "Anna")
    gate_calls = []
    passwords = client.app.state.accounts_gate.passwords
    real = passwords.hasher

    class Spy:
        def verify(self, stored, password):
            gate_calls.append(stored)
            return real.verify(stored, password)

        def __getattr__(self, name):
            return getattr(real, name)

    passwords.hasher = Spy()
    answers = []
    for name, password in [("Anna", "wrong password"), ("Nobody", "wrong password"),
                           ("Nobody", PW), ("a" * 64, "x"), ("", "")]:
        r = Browser(client).post("/api/session", json={"name": name, "password": password})
        answers.append((r.status_code, r.json()))
    assert all(a == (401, {"error": "wrong_sign_in",
                           "message": "the name or the password is wrong"}) for a in answers)
    # A password was checked every time, against a real hash or the dummy one.
    assert len(gate_calls) == len(answers) and all(s.startswith("$argon2id$")
                                                   for s in gate_calls)


def test_sign_in_attempts_are_limited_per_name_and_per_address(make_app):
    client = make_app(signin_name_burst=3, signin_name_per_minute=1.0, signin_burst=6,
                      signin_per_minute=1.0)
    sign_up(Browser(client), "Anna")
    b = Browser(client)
    codes = [b.post("/api/session", json={"name": "anna", "password": "nope nope"}).status_code
             for _ in range(3)]
    assert codes == [401, 401, 401]
    r = b.post("/api/session", json={"name": "Anna", "password": PW})  # right, but too late
    assert r.status_code == 429 and r.json()["error"] == "rate_limited"
    assert int(r.headers["retry-after"]) >= 1 and "sign-in attempts" in r.json()["message"]
    # An unknown name is limited the same way (nothing to tell them apart).
    for _ in range(3):
        b.post("/api/session", json={"name": "Nobody", "password": "nope nope"})
    assert b.post("/api/session", json={"name": "Nobody", "password": "x"}).status_code == 429
    # Per address: other names from the same address run out too.
    codes = [b.post("/api/session", json={"name": f"Other {i}", "password": "x"}).status_code
             for i in range(3)]
    assert codes[-1] == 429


def test_a_cookie_request_from_another_origin_is_refused(client):
    anna = Browser(client)
    sign_up(anna, "Anna")
    body = {"game": "fantan", "players": 3}
    r = anna.post("/api/tables", json=body, headers={"origin": "http://evil.example"})
    assert r.status_code == 403
    assert r.json() == {"error": "forbidden_origin", "message": r.json()["message"]}
    assert "another site" in r.json()["message"]
    r = anna.delete("/api/session", headers={"origin": "http://evil.example"})
    assert r.status_code == 403 and anna.get("/api/me").json()["name"] == "Anna"
    r = anna.post("/api/tables", json=body, headers={"sec-fetch-site": "cross-site"})
    assert r.status_code == 403
    # The page's own origin, and clients that send none (not browsers), go through.
    assert anna.post("/api/tables", json=body,
                     headers={"origin": "http://testserver"}).status_code == 201
    assert anna.post("/api/tables", json=body).status_code == 201
    # Without the cookie there is nothing to forge, except signing someone in.
    assert Browser(client).post("/api/tables", json={"game": "fantan", "players": 3,
                                                     "seats": [{"kind": "bot"}] * 3},
                                headers={"origin": "http://evil.example"}).status_code == 201
    r = Browser(client).post("/api/session", json={"name": "Anna", "password": PW},
                             headers={"origin": "http://evil.example"})
    assert r.status_code == 403


def test_account_names_are_unique_without_regard_to_case_and_reserved_words_refused(client):
    sign_up(Browser(client), "Anna")
    r = Browser(client).post("/api/accounts", json={"name": "aNNA", "password": PW})
    assert r.status_code == 409 and r.json()["error"] == "name_taken"
    for name in ("admin", "Medium", "Former player", "Computer 2", "", "\u202eanna"):
        r = Browser(client).post("/api/accounts", json={"name": name, "password": PW})
        assert r.status_code == 400 and r.json()["error"] == "bad_name", name
    r = Browser(client).post("/api/accounts", json={"name": "Ben", "password": "short"})
    assert r.status_code == 400 and r.json()["error"] == "weak_password"
    signed = Browser(client)
    sign_up(signed, "Cleo")
    r = signed.post("/api/accounts", json={"name": "Dora", "password": PW})
    assert r.status_code == 409 and r.json()["error"] == "signed_in"


def test_a_guest_chooses_a_name_and_sits_under_it(client):
    g = Browser(client)
    assert g.patch("/api/me", json={"name": "Zed"}).status_code == 401  # nobody yet
    g.post("/api/tables", json={"game": "fantan", "players": 3})
    assert g.patch("/api/me", json={"name": "Zed"}).json()["name"] == "Zed"
    j = g.post("/api/tables", json={"game": "fantan", "players": 3}).json()
    assert service(client).load(j["table"]).seats[0].name == "Zed"
    sign_up(Browser(client), "Anna")
    r = g.patch("/api/me", json={"name": "anna"})
    assert r.status_code == 409 and r.json()["error"] == "name_taken"


def test_changing_the_password_ends_the_other_sessions(client):
    a, b = Browser(client), Browser(client)
    sign_up(a, "Anna")
    b.post("/api/session", json={"name": "Anna", "password": PW})
    r = a.post("/api/me/password", json={"password": "wrong one!", "new_password": "x" * 12})
    assert r.status_code == 401
    r = a.post("/api/me/password", json={"password": PW, "new_password": "new password 1"})
    assert r.status_code == 200 and a.get("/api/me").json()["name"] == "Anna"
    assert b.get("/api/me").json()["known"] is False
    assert Browser(client).post("/api/session", json={"name": "Anna", "password": PW}
                                ).status_code == 401
    assert Browser(client).post("/api/session", json={"name": "Anna",
                                                      "password": "new password 1"}
                                ).status_code == 200


def test_a_signed_in_player_takes_their_seat_back_on_another_device(client):
    laptop, phone, other = Browser(client), Browser(client), Browser(client)
    sign_up(laptop, "Anna")
    j = laptop.post("/api/tables", json={"game": "fantan", "players": 3}).json()
    phone.post("/api/session", json={"name": "Anna", "password": PW})
    assert [t["table"] for t in phone.get("/api/me/tables").json()] == [j["table"]]
    r = phone.post(f"/api/tables/{j['table']}/rejoin", json={})
    assert r.status_code == 200 and r.json()["seat"] == 0
    seat = phone.seat(j["table"], token=r.json()["token"])
    assert seat.welcome()["state"]["you"] == 0
    assert other.post(f"/api/tables/{j['table']}/rejoin", json={}).status_code == 403
    assert other.get("/api/me/tables").json() == []
    # The rejoin link opened by a guest does not take the account's seat away (the
    # keyless rejoin gave a fresh link: links are used once).
    key = r.json()["rejoin_url"].split("#rejoin=")[1]
    assert other.post(f"/api/tables/{j['table']}/rejoin", json={"key": key}).status_code == 200
    assert owners(client, j["table"])[0]["name"] and phone.post(
        f"/api/tables/{j['table']}/rejoin", json={}).status_code == 200


def play_a_game(client, anna, ben):
    j = anna.post("/api/tables", json={
        "game": "fantan", "players": 3, "rules": {"rounds": 1}, "test": {"seed": 8},
        "seats": [{"kind": "person"}] * 2 + [{"kind": "bot"}], "public": True}).json()
    invite = j["invite_url"].split("#invite=")[1]
    b = ben.post(f"/api/tables/{j['table']}/join", json={"key": invite}).json()
    seats = [anna.seat(j["table"], token=j["token"]), ben.seat(j["table"], token=b["token"])]
    for s in seats:
        s.welcome()
    seats[0].send({"type": "start"})
    threaded([s.play_to_end for s in seats])
    for s in seats:
        s.close()
    return j["table"]


def test_export_holds_what_is_kept_and_no_secret(client):
    anna, ben = Browser(client), Browser(client)
    sign_up(anna, "Annabel")
    ben.post("/api/tables", json={"game": "fantan", "players": 3})
    table = play_a_game(client, anna, ben)
    r = anna.get("/api/me/export")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    data = r.json()
    assert data["format"] == "parlour-export/1" and data["player"]["name"] == "Annabel"
    assert [s["table"] for s in data["seats"]] == [table]
    assert data["seats"][0]["replay"].endswith(f"/replay/{table}")
    assert data["sessions"][0]["this_browser"] is True
    text = r.text
    row = people.player_by_key(service(client).store.engine, "annabel")
    for secret in (anna.cookies[COOKIE], digest(anna.cookies[COOKIE]), row["password"],
                   row["id"], PW):
        assert secret not in text
    assert Browser(client).get("/api/me/export").status_code == 401


def test_a_deleted_account_is_gone_from_every_page_and_api(client):
    anna, ben = Browser(client), Browser(client)
    sign_up(anna, "Annabel")
    ben.post("/api/tables", json={"game": "fantan", "players": 3})
    table = play_a_game(client, anna, ben)
    live = anna.post("/api/tables", json={"game": "fantan", "players": 3, "public": True,
                                          "seats": [{"kind": "person"}] * 2 + [{"kind": "bot"}]}
                     ).json()
    chat_seat = anna.seat(live["table"], token=live["token"])
    chat_seat.welcome()
    chat_seat.send({"type": "chat", "text": "hello"})
    chat_seat.until(lambda m: m["type"] == "chat")
    engine = service(client).store.engine
    player = people.player_by_key(engine, "annabel")["id"]
    urls = [f"/api/tables/{table}", f"/api/tables/{table}/record",
            f"/api/tables/{table}/replay", f"/api/tables/{live['table']}", "/api/open-tables",
            "/api/players/Annabel", "/api/leaderboard/fantan", "/u/Annabel"]
    assert "Annabel" in ben.get(f"/api/tables/{table}/record").text
    assert anna.delete("/api/me", json={"password": "wrong password"}).status_code == 401
    r = anna.delete("/api/me", json={"password": PW})
    assert r.status_code == 200 and r.json()["known"] is False
    for url in urls:
        page = ben.get(url)
        assert page.status_code < 500 and "Annabel" not in page.text, url
    assert "Former player" in ben.get(f"/api/tables/{table}/record").text
    watcher = ben.seat(live["table"], watch=live["watch"] if live.get("watch") else
                       live["watch_url"].split("#watch=")[1])
    welcome = watcher.welcome()
    assert "Annabel" not in json.dumps(welcome)
    # Nothing in the database leads back to the account.
    assert people.player_by_key(engine, "annabel") is None
    assert people.get_player(engine, player) is None
    assert people.seats_of(engine, player) == []
    with engine.connect() as c:
        for t in people.Base.metadata.sorted_tables:
            for row in c.execute(t.select()).mappings():
                assert "Annabel" not in json.dumps(dict(row), default=str), t.name
                assert player not in json.dumps(dict(row), default=str), t.name
    assert Browser(client).post("/api/session", json={"name": "Annabel", "password": PW}
                                ).status_code == 401
    sign_up(Browser(client), "Annabel")  # the name is free again


def test_a_guest_deletes_their_data_too(client):
    g = Browser(client)
    j = g.post("/api/tables", json={"game": "fantan", "players": 3, "name": "Gus"}).json()
    assert g.delete("/api/me", json={}).json()["known"] is False
    assert owners(client, j["table"])[0]["name"] == "Former player"
    assert service(client).load(j["table"]).seats[0].name == "Former player"


def test_passkey_steps_refuse_in_words(client):
    """The two steps of a passkey (the ceremony itself is tested in Chromium with its
    virtual authenticator: tests/browser/test_browser_accounts.py)."""
    b = Browser(client)
    opts = b.post("/api/passkeys/options", json={"purpose": "sign-in"}).json()
    assert opts["options"]["rpId"] == "testserver" and "allowCredentials" not in str(
        [k for k, v in opts["options"].items() if v])  # discoverable: no names given
    fake = {"id": "AAAA", "rawId": "AAAA", "type": "public-key",
            "response": {"clientDataJSON": "e30", "authenticatorData": "AA", "signature": "AA"}}
    r = b.post("/api/session/passkey", json={"id": opts["id"], "credential": fake})
    assert r.status_code == 401 and r.json() == {
        "error": "wrong_sign_in", "message": "this passkey does not open an account here"}
    r = b.post("/api/session/passkey", json={"id": opts["id"], "credential": fake})
    assert r.status_code == 400 and r.json()["error"] == "bad_challenge"  # used once
    reg = b.post("/api/passkeys/options", json={"purpose": "register", "name": "Pat"}).json()
    assert reg["options"]["user"]["name"] == "Pat"
    assert reg["options"]["authenticatorSelection"]["residentKey"] == "required"
    r = b.post("/api/passkeys", json={"id": reg["id"], "credential": fake})
    assert r.status_code == 400 and r.json()["error"] == "bad_passkey"
    assert b.post("/api/passkeys/options", json={"purpose": "register"}).status_code == 400
    sign_up(Browser(client), "Quinn")
    r = b.post("/api/passkeys/options", json={"purpose": "register", "name": "quinn"})
    assert r.status_code == 409 and r.json()["error"] == "name_taken"
    r = b.post("/api/passkeys/options", json={"purpose": "sign-in"},
               headers={"origin": "http://evil.example"})
    assert r.status_code == 403


def test_a_banned_account_cannot_sign_in_and_is_told_why(client):
    """A ban from the moderation tools (parlour admin, /admin) stops sign-in too (#32
    item 7), while unbanning lets the player back in."""
    from parlour.server import moderation

    anna = Browser(client)
    sign_up(anna, "Anna")
    me = anna.get("/api/me").json()
    engine = service(client).store.engine
    with engine.connect() as c:
        player_id = c.execute(people.PLAYERS.select().where(
            people.PLAYERS.c.name_key.is_not(None))).mappings().first()["id"]
    moderation.act(engine, "test", "ban", player_id, "cheating with a second seat")
    other = Browser(client)
    r = other.post("/api/session", json={"name": "Anna", "password": PW})
    assert r.status_code == 403, r.text
    assert r.json()["error"] == "banned"
    assert "cheating with a second seat" in r.json()["message"]
    moderation.act(engine, "test", "unban", player_id, "appeal heard")
    r = other.post("/api/session", json={"name": "Anna", "password": PW})
    assert r.status_code == 200, r.text
    assert me["name"] == "Anna" and me["guest"] is False
