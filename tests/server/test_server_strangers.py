"""Issue #13: a server open to strangers. Each limit is a setting; each test sets it
small, hits it, and checks what the client receives (docs/hardening.md lists them)."""

from __future__ import annotations

import time

import pytest
from server_kit import Seat, create, play_bot_table, run_async, service, spy_jobs
from starlette.websockets import WebSocketDisconnect

pytestmark = pytest.mark.timeout(90)

TRUST = {"trusted_proxies": ["testclient"]}  # the test client acts as many addresses


def until(pred, timeout: float = 30.0) -> None:
    """Wait for a condition the server reaches by itself (fails after ``timeout``)."""
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, "the server never got there"
        time.sleep(0.01)


def from_addr(addr: str) -> dict[str, str]:
    return {"X-Forwarded-For": addr}


# --- finding 1: bodies ---------------------------------------------------------------

def test_a_body_over_the_limit_is_refused_while_it_is_read(make_app):
    client = make_app(max_body_bytes=1000)
    r = client.post("/api/verify", content=b"[" + b"1," * 2000 + b"1]",
                    headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert r.json()["error"] == "too_large" and "1000 bytes" in r.json()["message"]

    def chunks():  # no Content-Length: counted as it arrives
        yield b"["
        for _ in range(100):
            yield b"1," * 50
        yield b"1]"

    r = client.post("/api/verify", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"] == "too_large"
    r = client.post("/api/tables", content=b"x" * 1001, headers={"content-type": "application/json"})
    assert r.status_code == 413
    r = client.post("/api/verify", json={"rounds": []})  # under the limit: answered
    assert r.status_code == 200 and r.json()["ok"] is False


def test_refusals_before_routing_are_worded_in_the_requests_language(make_app):
    """The guard's refusals (body size, host) in the language of the cookie or
    Accept-Language, in the same error shape; English keeps the precise words."""
    from parlour.i18n import catalog_json

    client = make_app(max_body_bytes=1000)
    r = client.post("/api/tables", content=b"x" * 1001,
                    headers={"content-type": "application/json", "accept-language": "es-ES"})
    assert r.status_code == 413 and r.json() == {
        "error": "too_large", "message": catalog_json("es", "web")["error.too_large"]}
    r = client.get("/", headers={"host": "elsewhere.example", "cookie": "parlour_lang=fa"})
    assert r.status_code == 400 and r.json() == {
        "error": "bad_host", "message": catalog_json("fa", "web")["error.bad_host"]}
    r = client.post("/api/tables", content=b"x" * 1001, headers={"content-type": "application/json"})
    assert "1000 bytes" in r.json()["message"]


# --- finding 2 and 7: tables of bots ------------------------------------------------------

@pytest.mark.parametrize("rounds", [101, 2**63, 2**64 + 5, 10**30])
def test_rounds_beyond_the_cap_are_a_4xx_in_the_error_shape(client, rounds):
    r = client.post("/api/tables", json={"game": "fanti", "players": 2,
                                         "rules": {"rounds": rounds}})
    assert r.status_code == 400, r.text
    assert r.json()["error"] == "bad_table" and r.json()["message"]


def test_the_research_engines_are_offered_only_when_the_operator_allows(make_app):
    client = make_app()
    offered = {g["name"]: g["bots"] for g in client.get("/api/games").json()}
    assert "hard" in offered["fanti"] and "hard" in offered["fantan"]
    for bots in offered.values():
        assert "pimc" not in bots and "ismcts" not in bots
    r = client.post("/api/tables", json={"game": "fanti", "players": 2,
                                         "seats": [{"kind": "person"},
                                                   {"kind": "bot", "bot": "pimc"}]})
    assert r.status_code == 400 and "pimc" in r.json()["message"]
    open_client = make_app(internal_bots=True)
    assert "pimc" in {g["name"]: g["bots"] for g in open_client.get("/api/games").json()}["fanti"]
    create(open_client, "fanti", 2, ["person", "pimc"])


def test_bot_only_tables_are_capped_per_address_and_overall(make_app):
    client = make_app(max_bot_tables=3, max_bot_tables_per_address=2, **TRUST)

    def bots(addr):
        return client.post("/api/tables", headers=from_addr(addr), json={
            "game": "fanti", "players": 2, "rules": {"rounds": 1},
            "seats": [{"kind": "bot", "bot": "random"}] * 2})

    assert bots("10.0.0.1").status_code == 201
    assert bots("10.0.0.1").status_code == 201
    r = bots("10.0.0.1")
    assert r.status_code == 429 and r.json()["error"] == "too_many_bot_tables"
    assert int(r.headers["Retry-After"]) > 0
    assert bots("10.0.0.2").status_code == 201
    assert bots("10.0.0.3").status_code == 429  # three run already
    # a table with a person is not a table of bots only
    assert client.post("/api/tables", headers=from_addr("10.0.0.3"), json={
        "game": "fanti", "players": 2, "rules": {"rounds": 1}}).status_code == 201


def test_a_bot_only_table_thinks_last_and_on_the_quick_budget(make_app):
    """Bot moves at a table of bots only go to the pool in the last class with the
    ``bots_only_move_seconds`` budget; at a table with people, first and on the bot's
    own budget (docs/hardening.md, "Bots think in worker processes")."""
    from parlour.server.thinking import BOTS_ONLY, PEOPLE

    client = make_app(bots_only_move_seconds=0.25)
    jobs = spy_jobs(client)
    play_bot_table(client, "fanti", 2, "easy", 1)
    asked = [(priority, name, args[1], args[4:]) for priority, name, args in jobs]
    # the budget, then the seat's views of finished rounds (none: a game of one round)
    assert asked and all(a == (BOTS_ONLY, "choose", "easy", (0.25, ())) for a in asked)
    jobs.clear()
    k = create(client, "fanti", 2, ["person", "easy"], rules={"rounds": 1})
    me = Seat(client, k["table"], token=k["token"])
    me.welcome()
    me.send({"type": "start"})
    me.play_to_end()
    me.close()
    asked = [(priority, name, args[1], args[4:]) for priority, name, args in jobs]
    assert asked and all(a == (PEOPLE, "choose", "easy", (None, ())) for a in asked)


def test_a_finished_bot_only_table_no_longer_counts_against_the_cap(make_app):
    client = make_app(max_bot_tables=1, **TRUST)

    def bots(addr):
        return client.post("/api/tables", headers=from_addr(addr), json={
            "game": "fanti", "players": 2, "rules": {"rounds": 1},
            "seats": [{"kind": "bot", "bot": "random"}] * 2})

    j = bots("10.0.0.1").json()
    assert bots("10.0.0.2").status_code == 429
    watcher = Seat(client, j["table"], watch=j["watch"])
    watcher.until_state(lambda s: s["table"]["status"] == "over")
    watcher.close()
    assert bots("10.0.0.2").status_code == 201


def test_an_unwatched_bot_table_pauses_runs_when_watched_and_expires(make_app):
    client = make_app(unwatched_expiry=100.0)
    j = client.post("/api/tables", json={"game": "fantan", "players": 3,
                                         "rules": {"rounds": 1},
                                         "seats": [{"kind": "bot", "bot": "random"}] * 3}).json()
    svc = service(client)
    t = svc.load(j["table"])
    until(lambda: t.paused is not None)
    paused_at_seq = t.seq
    assert t.timer_task is None or t.timer_task.done()
    assert svc.store.get(j["table"]).seq == paused_at_seq  # nothing moves unwatched
    watcher = Seat(client, j["table"], watch=j["watch"])
    final = watcher.until_state(lambda s: s["table"]["status"] == "over")
    assert final["winners"] is not None
    watcher.close()
    # a second table, never watched, expires after unwatched_expiry
    k = client.post("/api/tables", json={"game": "fantan", "players": 3, "rules": {"rounds": 1},
                                         "seats": [{"kind": "bot", "bot": "random"}] * 3}).json()
    u = svc.load(k["table"])
    until(lambda: u.paused is not None)
    assert client.portal.call(svc.sweep, time.time() + 50) == []
    assert client.portal.call(svc.sweep, time.time() + 101) == [k["table"]]
    assert svc.store.get(k["table"]).status == "expired"


# --- finding 3: connections -------------------------------------------------------------

def test_sockets_are_capped_per_address_before_hello_and_overall(make_app):
    client = make_app(max_sockets_per_address=3, max_unhello_per_address=2, max_sockets=5,
                      **TRUST)
    j = create(client, "fanti", 2)
    opened = []
    try:
        for _ in range(2):  # two that never say hello
            cm = client.websocket_connect("/ws", headers=from_addr("10.0.0.1"))
            opened.append(cm)
            cm.__enter__()
        with pytest.raises(WebSocketDisconnect) as e, client.websocket_connect(
                "/ws", headers=from_addr("10.0.0.1")):
            pass
        assert e.value.code == 1008  # a third before hello: refused at the handshake
        opened.pop().__exit__(None, None, None)
        seat = Seat(client, j["table"], token=j["token"], headers=from_addr("10.0.0.1"))
        assert seat.welcome()["type"] == "welcome"  # said hello: counts as open only
        cm = client.websocket_connect("/ws", headers=from_addr("10.0.0.1"))
        opened.append(cm)
        cm.__enter__()  # open: 3 from that address, 2 of them before hello
        with pytest.raises(WebSocketDisconnect), client.websocket_connect(
                "/ws", headers=from_addr("10.0.0.1")):
            pass  # three open from that address
        for addr in ("10.0.0.2", "10.0.0.3"):
            cm = client.websocket_connect("/ws", headers=from_addr(addr))
            opened.append(cm)
            cm.__enter__()
        with pytest.raises(WebSocketDisconnect), client.websocket_connect(
                "/ws", headers=from_addr("10.0.0.4")):
            pass  # five in all
        assert client.get("/healthz").status_code == 200  # HTTP still answers at the cap
        assert client.post("/api/tables", json={"game": "fanti", "players": 2}).status_code == 201
        seat.close()
    finally:
        for cm in opened:
            cm.__exit__(None, None, None)
    with client.websocket_connect("/ws", headers=from_addr("10.0.0.4")) as ws:  # freed
        ws.send_json({"type": "ping"})
        assert ws.receive_json()["code"] == "no_hello"


def test_a_socket_over_a_cap_is_refused_before_the_app_is_reached():
    """The guard refuses an over-cap handshake itself, so a flood never reaches the
    router and the endpoint (each refusal costs little)."""
    from types import SimpleNamespace

    from parlour.server import Settings
    from parlour.server.guard import Guard
    from parlour.server.limits import Sockets

    settings = Settings(max_unhello_per_address=1, allowed_hosts=["*"])
    sockets = Sockets(settings)
    sockets.opened(SimpleNamespace(addr="10.0.0.1", counted=False, greeted=False))
    reached, sent = [], []

    async def app(scope, receive, send):
        reached.append(scope["parlour.client"])

    async def receive():
        return {"type": "websocket.connect"}

    async def send(message):
        sent.append(message)

    def scope(addr):
        state = SimpleNamespace(service=SimpleNamespace(sockets=sockets))
        return {"type": "websocket", "path": "/ws", "client": (addr, 5000),
                "headers": [(b"host", b"tables.example")], "app": SimpleNamespace(state=state)}

    guard = Guard(app, settings)
    run_async(guard(scope("10.0.0.1"), receive, send))
    assert reached == [] and sent == [{"type": "websocket.close", "code": 1008,
                                       "reason": sockets.refuse("10.0.0.1")}]
    run_async(guard(scope("10.0.0.2"), receive, send))
    assert reached == ["10.0.0.2"]


def test_forwarded_for_counts_only_from_a_trusted_proxy(make_app):
    client = make_app(create_per_minute=0.001, create_burst=1)
    body = {"game": "fanti", "players": 2}
    assert client.post("/api/tables", json=body, headers=from_addr("10.0.0.1")).status_code == 201
    # an untrusted peer's header is ignored: still the same address, so limited
    assert client.post("/api/tables", json=body, headers=from_addr("10.0.0.2")).status_code == 429


# --- finding 4: table creation --------------------------------------------------------

def test_table_creation_is_rate_limited_per_address(make_app):
    client = make_app(create_per_minute=1.0, create_burst=2, **TRUST)
    body = {"game": "fanti", "players": 2}
    for _ in range(2):
        assert client.post("/api/tables", json=body, headers=from_addr("10.0.0.1")).status_code == 201
    r = client.post("/api/tables", json=body, headers=from_addr("10.0.0.1"))
    assert r.status_code == 429 and r.json()["error"] == "rate_limited"
    assert 1 <= int(r.headers["Retry-After"]) <= 60
    assert client.post("/api/tables", json=body, headers=from_addr("10.0.0.2")).status_code == 201


def test_open_tables_are_capped(make_app):
    client = make_app(max_open_tables=2)
    body = {"game": "fanti", "players": 2}
    assert client.post("/api/tables", json=body).status_code == 201
    assert client.post("/api/tables", json=body).status_code == 201
    r = client.post("/api/tables", json=body)
    assert r.status_code == 503 and r.json()["error"] == "busy" and r.headers["Retry-After"]


def test_the_open_table_cap_does_not_count_every_table_on_every_create(make_app, monkeypatch):
    """Counting the open tables is a pass over them: done once per recount period, the
    tables created since added (the cap still holds exactly in one process)."""
    from parlour.server import intents

    monkeypatch.setattr(intents, "OPEN_RECOUNT", 3600.0)
    client = make_app(max_open_tables=3)
    store = service(client).store
    counts = []
    real = store.count_open
    monkeypatch.setattr(store, "count_open", lambda: counts.append(1) or real())
    body = {"game": "fanti", "players": 2}
    assert [client.post("/api/tables", json=body).status_code for _ in range(4)] == [
        201, 201, 201, 503]
    assert len(counts) == 1


def test_finished_tables_are_deleted_after_the_retention_period(client):
    svc = service(client)
    j = client.post("/api/tables", json={"game": "fantan", "players": 3, "rules": {"rounds": 1},
                                         "seats": [{"kind": "bot", "bot": "random"}] * 3}).json()
    watcher = Seat(client, j["table"], watch=j["watch"])
    watcher.until_state(lambda s: s["table"]["status"] == "over")
    watcher.close()
    waiting = create(client, "fanti", 2)
    retention = svc.settings.retention
    client.portal.call(svc.sweep, time.time() + retention - 60)
    assert client.get(f"/api/tables/{j['table']}/record").status_code == 200
    client.portal.call(svc.sweep, time.time() + retention + 1)
    assert client.get(f"/api/tables/{j['table']}").status_code == 404
    assert svc.store.events(j["table"]) == []
    # the waiting table expired long before (idle_expiry) and goes the same way
    assert svc.store.get(waiting["table"]) is None or \
        svc.store.get(waiting["table"]).status == "expired"


def test_a_table_never_started_expires_sooner(client):
    svc = service(client)
    j = create(client, "fanti", 2, ["person", "person"])
    wait = svc.settings.waiting_expiry
    assert wait < svc.settings.idle_expiry
    assert client.portal.call(svc.sweep, time.time() + wait - 60) == []
    assert client.portal.call(svc.sweep, time.time() + wait + 1) == [j["table"]]
