"""Web Push (issue 32): behind the ``web_push`` setting, a player whose browser is closed
gets an encrypted, VAPID-signed "your move" message through their push service -- here
a local HTTP endpoint standing in for it (loopback only) -- which the browser's keys
decrypt; a subscription the service says is gone is forgotten; endpoints off the push
services' hosts are refused."""

from __future__ import annotations

import base64
import json
import secrets
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from server_kit import Seat, create, service
from sqlalchemy import select
from starlette.testclient import TestClient

from parlour.server.push import PUSH

pytestmark = pytest.mark.timeout(60)


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class PushService:
    """A stand-in push service on 127.0.0.1: keeps every request; answers ``status``."""

    def __init__(self) -> None:
        self.got: list[dict] = []
        self.status = 201
        self.arrived = threading.Event()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                outer.got.append({"path": self.path,
                                  "headers": {k.lower(): v for k, v in self.headers.items()},
                                  "body": body})
                self.send_response(outer.status)
                self.send_header("Content-Length", "0")
                self.end_headers()
                outer.arrived.set()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def push_service() -> Iterator[PushService]:
    s = PushService()
    yield s
    s.server.shutdown()


class Browser:
    """A browser's push subscription keys (what PushManager.subscribe makes)."""

    def __init__(self, endpoint: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = secrets.token_bytes(16)
        point = self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                   serialization.PublicFormat.UncompressedPoint)
        self.subscription = {"endpoint": endpoint,
                             "keys": {"p256dh": b64(point), "auth": b64(self.auth)}}

    def read(self, body: bytes) -> dict:
        return json.loads(http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth,
                                           version="aes128gcm"))


def test_push_is_off_by_default(client):
    assert client.get("/api/push/key").json() == {"enabled": False, "key": None}
    r = client.post("/api/push/subscriptions", json=Browser("https://fcm.googleapis.com/x")
                    .subscription)
    assert r.status_code == 409 and r.json()["error"] == "push_off"


def test_only_push_services_endpoints_are_accepted(make_app):
    client = make_app(web_push=True)
    for endpoint in ("https://evil.example/push", "http://fcm.googleapis.com/x",
                     "https://fcm.googleapis.com.evil.example/x", "http://10.0.0.1/x",
                     "file:///etc/passwd"):
        r = client.post("/api/push/subscriptions", json=Browser(endpoint).subscription)
        assert r.status_code == 400 and r.json()["error"] == "bad_endpoint", endpoint
    ok = client.post("/api/push/subscriptions",
                     json=Browser("https://fcm.googleapis.com/fcm/send/abc").subscription)
    assert ok.status_code == 201
    bad = Browser("https://fcm.googleapis.com/x").subscription
    bad["keys"]["auth"] = "<script>"
    assert client.post("/api/push/subscriptions", json=bad).status_code == 422


def test_a_closed_browser_hears_of_its_turn_through_its_push_service(make_app, push_service):
    client = make_app(web_push=True)
    key = client.get("/api/push/key").json()
    assert key["enabled"] and len(base64.urlsafe_b64decode(key["key"] + "==")) == 65
    other = TestClient(client.app)
    j = create(client, "fanti", 2, ["person", "person"], rules={"rounds": 1}, name="Anna",
               days=1, test={"seed": 5})
    anna_browser = Browser(push_service.url + "/push/anna")
    assert client.post("/api/push/subscriptions",
                       json=anna_browser.subscription).status_code == 201
    invite = j["invite_url"].split("#invite=")[1]
    b = other.post(f"/api/tables/{j['table']}/join", json={"key": invite, "name": "Bo"}).json()
    anna = Seat(client, j["table"], token=j["token"])
    bo = Seat(client, j["table"], token=b["token"])
    anna.welcome()
    bo.welcome()
    anna.send({"type": "start"})
    state = anna.until_state(lambda s: s["commit"] and s["view"])
    if state["view"]["current_player"] == 0:  # Anna moves first, then it is Bo's turn
        anna.send({"type": "move", "seq": anna.seq, "move": state["view"]["legal"][0]})
        bo.until_state(lambda s: s["view"] and s["view"]["current_player"] == 1)
    assert push_service.got == []  # Anna's page is open: no push
    anna.close()  # Anna closes her browser
    t = service(client).load(j["table"])
    deadline = time.monotonic() + 20
    while t.connected(0) and time.monotonic() < deadline:
        time.sleep(0.01)
    s = bo.until_state(lambda s: s["view"] and s["view"]["current_player"] == 1)
    bo.send({"type": "move", "seq": bo.seq, "move": s["view"]["legal"][0]})
    assert push_service.arrived.wait(20)
    [msg] = push_service.got
    assert msg["path"] == "/push/anna"
    auth = msg["headers"]["authorization"]
    assert auth.startswith("vapid t=") and auth.endswith(f",k={key['key']}")
    claims = json.loads(base64.urlsafe_b64decode(auth[8:].split(".")[1] + "=="))
    assert claims["aud"] == push_service.url and claims["sub"].startswith("mailto:")
    assert msg["headers"]["content-encoding"] == "aes128gcm"
    words = anna_browser.read(msg["body"])
    assert words == {"title": "Your move", "url": f"/t/{j['table']}",
                     "tag": f"turn:{j['table']}",
                     "body": "It is your turn at Fanti (with Bo)."}

    # The browser unsubscribed: the service answers 410 and the server forgets it.
    push_service.status, push_service.got = 410, []
    push_service.arrived.clear()
    engine = service(client).store.engine
    with engine.connect() as c:
        player_id = c.execute(select(PUSH.c.player_id)).scalar()
    assert service(client).push.send(player_id, {"title": "Your move", "body": "b"}) == 0
    assert push_service.got  # it was tried, and refused as gone
    with engine.connect() as c:
        assert c.execute(select(PUSH)).all() == []
