"""Friends, blocks, reports and moderation (server/social.py, server/moderation.py)."""

from __future__ import annotations

import time

from server_kit import Person, create, hidden_cards, mentioned, service

from parlour.server import moderation


def person(client):
    return Person(client)


def shared_table(client, host, guest, names=("Ann", "Ben")):
    """``host`` makes a table of two people, ``guest`` joins it: they have met."""
    r = host.post("/api/tables", json={"game": "fanti", "players": 2, "name": names[0],
                                       "seats": [{"kind": "person"}, {"kind": "person"}],
                                       "rules": {"rounds": 1}})
    assert r.status_code == 201, r.text
    j = r.json()
    key = j["invite_url"].split("#invite=")[1]
    g = guest.post(f"/api/tables/{j['table']}/join", json={"key": key, "name": names[1]})
    assert g.status_code == 200, g.text
    return j, g.json()


def enter(who, game="fanti", players=2):
    r = who.post("/api/pool", json={"game": game, "players": players})
    assert r.status_code == 201, r.text
    return r.json()["ticket"]


def status(who, ticket, wait=True):
    return who.post("/api/pool/wait", json={"ticket": ticket, "wait": wait}).json()


def test_follow_see_online_and_invite_a_friend_to_a_table(make_app):
    client = make_app()
    ann, ben = person(client), person(client)
    j, _ = shared_table(client, ann, ben)
    r = ann.post("/api/follows", json={"table": j["table"], "seat": 1})
    assert r.status_code == 201 and r.json()["name"] == "Ben"
    tag = r.json()["tag"]
    ben.get("/api/friends")  # Ben's page is open: he is online
    friends = ann.get("/api/friends").json()
    assert friends["following"] == [{"name": "Ben", "tag": tag, "guest": True, "online": True}]
    # From inside a new table, Ann invites Ben; his page lists it with a link that opens
    # a seat (the invite link works as before).
    new = create(ann, "fanti", 2, ["person", "person"], name="Ann")
    r = ann.post("/api/invites", json={"table": new["table"], "token": new["token"], "tag": tag})
    assert r.status_code == 201, r.text
    invites = ben.get("/api/friends").json()["invites"]
    assert [(i["from"], i["table"], i["game"]) for i in invites] == [("Ann", new["table"], "fanti")]
    key = invites[0]["url"].split("#invite=")[1]
    sat = ben.post(f"/api/tables/{new['table']}/join", json={"key": key, "name": "Ben"})
    assert sat.status_code == 200 and sat.json()["seat"] == 1
    assert ben.get("/api/friends").json()["invites"] == []  # the table is full now
    # Only a seat's holder invites, and only someone they follow.
    bad = ann.post("/api/invites", json={"table": new["table"], "token": "x" * 43, "tag": tag})
    assert bad.status_code == 403 and bad.json()["error"] == "unauthorised"
    third = create(ben, "fanti", 2, ["person", "person"])
    r = ben.post("/api/invites", json={"table": third["table"], "token": third["token"],
                                       "tag": tag})
    assert r.status_code == 404 and r.json()["error"] == "not_found"
    # Unfollowing by tag; a name nobody has is a 404 in words.
    assert ann.post("/api/follows/remove", json={"tag": tag}).status_code == 200
    assert ann.get("/api/friends").json()["following"] == []
    r = ann.post("/api/follows", json={"name": "nobody-here"})
    assert r.status_code == 404 and "no player called" in r.json()["message"]
    # Declining an invitation nobody sent changes nothing; an id past any database row's
    # is refused in the error shape (it reached SQLite as an overflow: a 500).
    assert ann.post("/api/invites/decline", json={"id": 2**63 - 1}).status_code == 200
    for bad in (2**63, 2**80, -1, "7"):
        r = ann.post("/api/invites/decline", json={"id": bad})
        assert r.status_code == 422 and r.json()["error"] == "invalid", (bad, r.text)
    # Nothing here names a card of the game in play.
    t = service(client).tables[new["table"]]
    for payload in (ann.get("/api/friends").json(), ben.get("/api/friends").json()):
        assert not (mentioned(payload, t.match) & hidden_cards(t.match, None))


def test_blocking_keeps_two_people_out_of_one_pool_table(make_app):
    client = make_app(pool_wait=0.3, pool_every=0.05)
    ann, ben, cat = person(client), person(client), person(client)
    j, _ = shared_table(client, ann, ben)
    r = ann.post("/api/blocks", json={"table": j["table"], "seat": 1})
    assert r.status_code == 201
    assert [b["name"] for b in ann.get("/api/blocks").json()] == ["Ben"]
    ta, tb = enter(ann), enter(ben)
    pools = service(client).pools
    seen = pools.rounds
    deadline = time.monotonic() + 10
    while pools.rounds < seen + 3:  # several pairing rounds: never together
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert status(ann, ta, False)["status"] == status(ben, tb, False)["status"] == "waiting"
    tc = enter(cat)  # a third person: the longest waiting (Ann) sits with them
    deadline = time.monotonic() + 10
    while status(cat, tc)["status"] == "waiting":
        assert time.monotonic() < deadline
    assert status(ann, ta)["joined"]["table"] == status(cat, tc)["joined"]["table"]
    assert status(ben, tb, False)["status"] == "waiting"


def test_chat_lines_carry_a_tag_the_blocker_hides_and_new_players_chat_less(make_app):
    client = make_app(chat_burst=5, chat_new_burst=2, chat_window=60.0)
    ann, ben = person(client), person(client)
    j, b = shared_table(client, ann, ben)
    sa, sb = ann.seat(j["table"], j["token"]), ben.seat(j["table"], b["token"])
    sa.welcome()
    sb.welcome()
    blocked = ann.post("/api/blocks", json={"table": j["table"], "seat": 1}).json()
    sb.send({"type": "chat", "text": "hello"})
    line = sb.until(lambda m: m["type"] == "chat")["line"]
    assert line["who"] == blocked["tag"]  # the page hides the lines of this tag (and
    # the server never sends them to Ann: tests/server/test_server_presence.py)
    assert blocked["tag"] in {x["tag"] for x in ann.get("/api/blocks").json()}
    sb.send({"type": "chat", "text": "two"})
    sb.send({"type": "chat", "text": "three"})  # a new identity: two lines a window
    err = sb.until(lambda m: m["type"] == "error")
    assert err["code"] == "chat_limit" and "new here" in err["message"]


def test_a_banned_player_is_refused_everywhere_with_the_reason(make_app):
    client = make_app()
    ann, ben = person(client), person(client)
    j, b = shared_table(client, ann, ben)
    sb = ben.seat(j["table"], b["token"])
    sb.welcome()
    pid = service(client).social.find("", table=j["table"], seat=1)[0]
    moderation.act(service(client).store.engine, "test", "ban", pid, "abuse in chat")
    service(client).moderation.forget(pid)
    for r in (ben.post("/api/tables", json={"game": "fanti", "players": 2}),
              ben.post("/api/pool", json={"game": "fanti", "players": 2}),
              ben.post(f"/api/tables/{j['table']}/join",
                       json={"key": j["invite_url"].split("#invite=")[1]})):
        assert r.status_code == 403, r.text
        assert r.json()["error"] == "banned" and "abuse in chat" in r.json()["message"]
    sb.send({"type": "chat", "text": "hi"})
    err = sb.until(lambda m: m["type"] == "error")
    assert err["code"] == "banned" and "banned for good" in err["message"]
    # A mute refuses chat only; lifting it lets them talk again; everything is logged.
    moderation.act(service(client).store.engine, "test", "unban", pid, "appeal heard")
    moderation.act(service(client).store.engine, "test", "mute", pid, "shouting",
                   until=time.time() + 3600)
    service(client).moderation.forget(pid)
    assert ben.post("/api/pool", json={"game": "fanti", "players": 2}).status_code == 201
    sb.send({"type": "chat", "text": "hi"})
    err = sb.until(lambda m: m["type"] == "error")
    assert err["code"] == "muted" and "until" in err["message"]
    actions = [a["action"] for a in moderation.history(service(client).store.engine)]
    assert actions == ["mute", "unban", "ban"]


def test_report_from_a_table_and_the_operator_page(make_app):
    client = make_app(operator_secret="s3cret", admin_per_minute=60.0, admin_burst=20)
    ann, ben = person(client), person(client)
    j, b = shared_table(client, ann, ben)
    sb = ben.seat(j["table"], b["token"])
    sb.welcome()
    sb.send({"type": "chat", "text": "rude words"})
    sb.until(lambda m: m["type"] == "chat")
    r = ann.post("/api/reports", json={"table": j["table"], "seat": 1, "reason": "rude"})
    assert r.status_code == 201, r.text
    r = ann.post("/api/reports", json={"table": j["table"], "seat": 0, "reason": "me"})
    assert r.status_code == 400  # not yourself
    # The operator's API: off without the secret, 401 with a wrong one.
    assert client.get("/api/admin/reports").status_code == 401
    wrong = client.get("/api/admin/reports", headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401 and wrong.json()["error"] == "unauthorised"
    op = {"Authorization": "Bearer s3cret"}
    reports = client.get("/api/admin/reports", headers=op).json()
    assert len(reports) == 1 and reports[0]["target_name"] == "Ben"
    assert reports[0]["chat"][0]["text"] == "rude words" and reports[0]["record"] is None
    target = reports[0]["target"]
    r = client.post("/api/admin/actions", headers=op,
                    json={"action": "suspend", "target": target, "reason": "rude", "hours": 1})
    assert r.status_code == 201, r.text
    r = ben.post("/api/tables", json={"game": "fanti", "players": 2})
    assert r.status_code == 403 and r.json()["error"] == "suspended"
    assert "until" in r.json()["message"] and "rude" in r.json()["message"]
    r = client.post("/api/admin/actions", headers=op,
                    json={"action": "close", "target": str(reports[0]["id"]), "reason": "done"})
    assert r.status_code == 201
    assert client.get("/api/admin/reports", headers=op).json() == []
    log = client.get("/api/admin/log", headers=op).json()
    assert [a["action"] for a in log] == ["close", "suspend"]
    assert log[1]["actor"].startswith("page:")
    bad = client.post("/api/admin/actions", headers=op,
                      json={"action": "ban", "target": "no-such", "reason": "x"})
    assert bad.status_code == 400 and "no player" in bad.json()["message"]
    page = client.get("/admin")
    assert page.status_code == 200 and "admin.js" in page.text


def test_moderation_is_off_without_a_secret_and_limited(make_app):
    client = make_app(admin_per_minute=1.0, admin_burst=2)
    assert client.get("/admin").status_code == 404
    assert client.get("/api/admin/reports").json()["error"] == "not_found"
    on = make_app(operator_secret="x", admin_per_minute=1.0, admin_burst=2)
    for _ in range(2):
        assert on.get("/api/admin/log", headers={"Authorization": "Bearer y"}).status_code == 401
    r = on.get("/api/admin/log", headers={"Authorization": "Bearer x"})
    assert r.status_code == 429 and "Retry-After" in r.headers


def test_parlour_admin_bans_lists_and_logs_on_the_database(tmp_path):
    from typer.testing import CliRunner

    import parlour.cli.commands  # noqa: F401  (registers the commands)
    from parlour.cli.app import app
    from parlour.server import people
    from parlour.server.db import Store

    db = tmp_path / "room.sqlite3"
    store = Store(f"sqlite:///{db}")
    people.add_player(store.engine, "pid-guest-1", "")
    moderation.report(store.engine, "pid-guest-2", "pid-guest-1", "Rude", "spam", None,
                      [{"name": "Rude", "text": "buy now"}])
    store.close()

    def admin(*args, where=db):
        return CliRunner().invoke(app, ["admin", *args, "--db", str(where)])

    out = admin("reports")
    assert out.exit_code == 0 and "Rude (player pid-guest-1)" in out.stdout
    assert "buy now" in out.stdout
    out = admin("ban", "pid-guest-1", "--reason", "spam", "--hours", "2")
    assert out.exit_code == 0 and "ban: " in out.stdout and "until" in out.stdout
    out = admin("ban", "nobody", "--reason", "x")
    assert out.exit_code == 2 and "there is no player 'nobody'" in out.output
    assert out.exception is None or isinstance(out.exception, SystemExit)
    log = admin("log").stdout
    assert "ban pid-guest-1" in log and "cli:" in log and ": spam" in log
    store = Store(f"sqlite:///{db}")
    assert people.get_player(store.engine, "pid-guest-1")["banned"] == "spam"
    store.close()
    missing = admin("log", where=tmp_path / "none.sqlite3")
    assert missing.exit_code == 2 and "no such database file" in missing.output


def test_a_report_from_a_profile_carries_the_last_game_the_two_shared(make_app):
    client = make_app(operator_secret="s3cret", admin_per_minute=60.0, admin_burst=20,
                      signup_per_minute=600.0, signup_burst=10)
    ann, ben, cy = person(client), person(client), person(client)
    for who, name in ((ann, "Ann"), (ben, "Ben"), (cy, "Cy")):
        r = who.post("/api/accounts", json={"name": name, "password": "a long enough one"})
        assert r.status_code == 201, r.text
    shared_table(client, ann, ben)
    last, _ = shared_table(client, ann, ben)
    r = ann.post("/api/reports", json={"name": "ben", "reason": "rude at our last game"})
    assert r.status_code == 201, r.text
    r = cy.post("/api/reports", json={"name": "Ben", "reason": "never met: nothing attached"})
    assert r.status_code == 201, r.text
    r = ann.post("/api/reports", json={"name": "Ann", "reason": "me"})
    assert r.status_code == 400  # not yourself
    reports = client.get("/api/admin/reports", headers={"Authorization": "Bearer s3cret"}).json()
    by_reason = {r["reason"]: r for r in reports}
    assert by_reason["rude at our last game"]["table_id"] == last["table"]
    assert by_reason["rude at our last game"]["table_status"] == "waiting"
    assert by_reason["never met: nothing attached"]["table_id"] is None
    assert {r["target_name"] for r in reports} == {"Ben"}
