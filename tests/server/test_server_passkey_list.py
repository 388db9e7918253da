"""Issue #32 item 1: your passkeys on /account -- listed without ids or keys, renamed,
removed, the last way into an account kept (server/passkey_list.py). The ceremony
itself (creating, signing in, "last used") is tested in Chromium:
tests/browser/test_browser_accounts.py."""

from __future__ import annotations

import json
import time

import pytest
from server_kit import Browser, service
from sqlalchemy import insert

from parlour.server import people

pytestmark = pytest.mark.timeout(180)
PW = "correct horse battery"


def account(client, name="Anna"):
    b = Browser(client)
    assert b.post("/api/accounts", json={"name": name, "password": PW}).status_code == 201
    return b, people.player_by_key(service(client).store.engine, name.casefold())["id"]


def keep(client, player, credential, label=None, at=None):
    """A passkey row as registration keeps it (the ceremony is Chromium's to test)."""
    with service(client).store.engine.begin() as c:
        c.execute(insert(people.PASSKEYS).values(
            id=credential, player_id=player, public_key="pQECAyYgASFYIB" + credential,
            sign_count=0, created=at or time.time(), transports=["internal"], label=label))


def test_list_rename_and_remove_passkeys_in_the_json_shape(client):
    anna, pid = account(client)
    keep(client, pid, "cred-AAAA-secret-id", "My phone", at=1000.0)
    keep(client, pid, "cred-BBBB-secret-id", at=2000.0)
    r = anna.get("/api/passkeys")
    assert r.status_code == 200
    keys = r.json()["passkeys"]
    assert [(k["label"], k["created"], k["used"]) for k in keys] == [
        ("My phone", 1000.0, None), ("Passkey 2", 2000.0, None)]
    assert "cred-" not in r.text and "pQECAy" not in r.text  # no ids, no keys
    assert len({k["id"] for k in keys}) == 2
    # Rename: the label is cleaned; bad ones refused in words, nothing changed.
    r = anna.request("PATCH", f"/api/passkeys/{keys[1]['id']}", json={"label": "  Work  laptop "})
    assert r.status_code == 200 and r.json()["passkeys"][1]["label"] == "Work laptop"
    for bad in ("", "   ", "x" * 41):
        r = anna.request("PATCH", f"/api/passkeys/{keys[1]['id']}", json={"label": bad})
        assert r.status_code == 400 and r.json()["error"] == "bad_label", bad
        assert set(r.json()) == {"error", "message"}
    r = anna.request("PATCH", "/api/passkeys/nope", json={"label": "Mine"})
    assert r.status_code == 404 and r.json()["error"] == "not_found"
    assert "no such passkey" in r.json()["message"]
    # Another account cannot see or touch them.
    bo, _ = account(client, "Bo")
    assert bo.get("/api/passkeys").json() == {"passkeys": []}
    assert bo.delete(f"/api/passkeys/{keys[0]['id']}").status_code == 404
    # A foreign origin changes nothing (CSRF).
    r = anna.delete(f"/api/passkeys/{keys[0]['id']}", headers={"origin": "http://evil.example"})
    assert r.status_code == 403 and r.json()["error"] == "forbidden_origin"
    assert len(anna.get("/api/passkeys").json()["passkeys"]) == 2
    # With a password, every passkey may go.
    assert [k["label"] for k in anna.delete(f"/api/passkeys/{keys[0]['id']}").json()[
        "passkeys"]] == ["Work laptop"]
    assert anna.delete(f"/api/passkeys/{keys[1]['id']}").json() == {"passkeys": []}
    assert anna.get("/api/me").json()["passkeys"] == 0
    # A guest (or nobody) has no passkeys to list.
    r = Browser(client).get("/api/passkeys")
    assert r.status_code == 401 and r.json()["error"] == "not_signed_in"


def test_the_last_way_into_an_account_without_a_password_stays(client):
    pat, pid = account(client, "Pat")
    people.set_player(service(client).store.engine, pid, password=None)  # passkeys only
    keep(client, pid, "cred-one", at=1.0)
    keep(client, pid, "cred-two", at=2.0)
    first, second = (k["id"] for k in pat.get("/api/passkeys").json()["passkeys"])
    assert pat.delete(f"/api/passkeys/{first}").status_code == 200
    r = pat.delete(f"/api/passkeys/{second}")
    assert r.status_code == 409 and r.json()["error"] == "last_sign_in"
    assert "only way to sign in" in r.json()["message"]
    assert [k["id"] for k in pat.get("/api/passkeys").json()["passkeys"]] == [second]


def test_passkeys_are_exported_without_secrets_and_deleted_with_the_account(client):
    anna, pid = account(client)
    keep(client, pid, "cred-export-me", "Laptop", at=5.0)
    data = anna.get("/api/me/export").json()
    assert data["passkeys"] == [{"label": "Laptop", "created": 5.0, "used": None,
                                 "sign_count": 0}]
    text = json.dumps(data)
    assert "cred-export-me" not in text and "pQECAy" not in text
    assert anna.delete("/api/me", json={"password": PW}).status_code == 200
    assert people.passkeys_of(service(client).store.engine, pid) == []


def test_the_passkey_list_is_limited(make_app):
    client = make_app(me_burst=3, me_per_minute=1.0)
    anna, _ = account(client)
    codes = [anna.get("/api/passkeys").status_code for _ in range(4)]
    assert codes[-1] == 429
    r = anna.get("/api/passkeys")
    assert r.json()["error"] == "rate_limited" and int(r.headers["Retry-After"]) >= 1


def test_a_new_passkeys_label_is_in_the_language_of_its_making(client):
    """``Passkey N`` from the catalog in the request's language, the first N free."""
    from parlour.server.passkey_list import default_label

    _, pid = account(client, "Parisa")
    engine = service(client).store.engine
    assert default_label(engine, pid, "fa") == "کلید عبور 1"
    keep(client, pid, "cred-CCCC-secret-id", "کلید عبور 1")
    assert default_label(engine, pid, "fa") == "کلید عبور 2"
    assert default_label(engine, pid, "zh") == "通行密钥 1"
    assert default_label(engine, pid) == "Passkey 1"
