"""Security checks (issue #7, item 4), each its own test.

Seat tokens are 256-bit, from ``secrets``, stored only hashed and bound to one table;
a spectator link cannot act; one seat cannot act for another; cross-origin
WebSockets are refused; per-connection rate and size limits hold (in process and
through a real ``parlour serve``). The traffic scan for hidden cards and the
commitment check over live games are in ``test_hardening_load.py``.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import sqlite3
import warnings

import pytest

warnings.filterwarnings("ignore", message=".*httpx2.*")

from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from parlour.loadtest import ServerProcess, run_sync  # noqa: E402
from parlour.server import Settings, create_app, tokens  # noqa: E402

# method="thread": a test stuck in a blocking call is stopped (its stacks are printed and
# the run fails) instead of hanging; the signal method cannot interrupt every such call.
pytestmark = [pytest.mark.timeout(120, method="thread")]


@pytest.fixture
def make_client(tmp_path):
    """``make_client(**settings)``: an app whose hand-opened sockets (``hello``) are
    all closed at the end, even when the test fails: a socket left open would make
    ``TestClient.__exit__`` wait for ever."""
    clients = []

    def make(**kw):
        db = tmp_path / f"sec{len(clients)}.sqlite3"
        settings = dict(db_url=f"sqlite:///{db}", bot_delay=0.0, round_pause=0.0, testing=True,
                        allowed_hosts=["testserver"], max_seats_per_address=8, bot_workers=0)
        settings.update(kw)
        client = TestClient(create_app(Settings(**settings)))
        client.__enter__()
        client.db = db
        client.sockets = []
        clients.append(client)
        return client

    yield make
    for client in clients:
        for cm in client.sockets:
            with contextlib.suppress(Exception):
                cm.__exit__(None, None, None)
        client.__exit__(None, None, None)


@pytest.fixture
def app_client(make_client):
    return make_client()


def table(client, players=2, persons=2, game="fanti"):
    seats = [{"kind": "person"}] * persons + [{"kind": "bot", "bot": "random"}] * (
        players - persons)
    j = client.post("/api/tables", json={"game": game, "players": players, "seats": seats,
                                         "rules": {"rounds": 1}}).json()
    invite = j["invite_url"].split("#invite=")[1]
    toks = [j["token"]]
    for i in range(persons - 1):
        toks.append(client.post(f"/api/tables/{j['table']}/join",
                                json={"key": invite, "name": f"P{i + 2}"}).json()["token"])
    return j, toks


def hello(client, table_id, headers=None, **auth):
    cm = client.websocket_connect("/ws", headers=headers or {})
    ws = cm.__enter__()
    client.sockets.append(cm)  # closed by the fixture whatever happens
    ws.send_json({"type": "hello", "table": table_id, **auth})
    return cm, ws, ws.receive_json()


def answer(ws):
    """The next message that answers something: ``presence`` messages (who is connected,
    sent when they like) are skipped."""
    m = ws.receive_json()
    return answer(ws) if m["type"] == "presence" else m


def test_seat_tokens_are_256_bit_and_come_from_secrets(monkeypatch):
    calls = []
    real = tokens.secrets.token_urlsafe

    def spy(n):
        calls.append(n)
        return real(n)

    monkeypatch.setattr(tokens.secrets, "token_urlsafe", spy)
    made = {tokens.new_token() for _ in range(2000)}
    assert calls == [32] * 2000  # 32 bytes = 256 bits, from the OS's CSPRNG
    assert len(made) == 2000
    for t in list(made)[:50]:
        assert len(base64.urlsafe_b64decode(t + "=")) == 32
    # no two share even a 48-bit prefix: nothing sequential or clock-based
    assert len({t[:8] for t in made}) == 2000


def test_tokens_are_stored_only_hashed(app_client):
    issued = []
    for _ in range(3):
        _, toks = table(app_client, players=3, persons=3, game="fantan")
        issued += toks
    app_client.post("/api/tables", json={"game": "fanti", "players": 2})  # one more kind
    raw = b"".join(p.read_bytes() for p in app_client.db.parent.glob("sec.sqlite3*"))
    con = sqlite3.connect(app_client.db)
    dump = "\n".join(con.iterdump())
    con.close()
    for tok in issued:
        assert tok.encode() not in raw and tok not in dump
        assert hashlib.sha256(tok.encode()).hexdigest() in dump  # what is kept instead
    info = app_client.get(f"/api/tables/{_['table']}").json()
    assert "token" not in json.dumps(info) and "hash" not in json.dumps(info)


def test_a_token_opens_only_its_own_table(app_client):
    a, ta = table(app_client)
    b, tb = table(app_client)
    cm, ws, reply = hello(app_client, b["table"], token=ta[0])
    assert reply["type"] == "error" and reply["code"] == "unauthorised"
    cm.__exit__(None, None, None)
    cm, ws, reply = hello(app_client, a["table"], token=ta[0])
    assert reply["type"] == "welcome" and reply["state"]["you"] == 0
    cm.__exit__(None, None, None)


def test_a_spectator_link_cannot_act(app_client):
    j, toks = table(app_client)
    watch = j["watch_url"].split("#watch=")[1]
    invite = j["invite_url"].split("#invite=")[1]
    # the spectator key through the join endpoint gives a pass, never a seat
    r = app_client.post(f"/api/tables/{j['table']}/join", json={"key": watch}).json()
    assert r["role"] == "spectator" and r["token"] is None and r["seat"] is None
    cm, ws, reply = hello(app_client, j["table"], watch=invite)  # an invite is no watch key
    assert reply["code"] == "unauthorised"
    cm.__exit__(None, None, None)
    cm, ws, reply = hello(app_client, j["table"], token=watch)  # nor a seat token
    assert reply["code"] == "unauthorised"
    cm.__exit__(None, None, None)
    host_cm, host, _ = hello(app_client, j["table"], token=toks[0])
    p2_cm, p2, _ = hello(app_client, j["table"], token=toks[1])
    cm, ws, welcome = hello(app_client, j["table"], watch=watch)
    assert welcome["state"]["role"] == "spectator" and "invite" not in welcome["state"]["links"]
    for msg in ({"type": "start"}, {"type": "move", "seq": 0, "move": {"play": "7D"}},
                {"type": "hint", "seq": 0}, {"type": "rematch"}, {"type": "back"}):
        ws.send_json(msg)
        reply = answer(ws)
        assert reply["type"] == "error" and reply["code"] == "unauthorised", (msg, reply)
    row = app_client.app.state.service.store.get(j["table"])
    assert row.status == "waiting" and row.seq == 0
    for c in (cm, host_cm, p2_cm):
        c.__exit__(None, None, None)


def test_one_seat_cannot_act_for_another(app_client):
    j, toks = table(app_client)
    cms, wss = [], []
    for t in toks:
        cm, ws, _ = hello(app_client, j["table"], token=t)
        cms.append(cm)
        wss.append(ws)
    wss[0].send_json({"type": "start"})
    svc = app_client.app.state.service
    state = None
    for ws in wss:
        while True:
            m = answer(ws)
            if m["type"] == "update":
                state = m
                break
    t = svc.tables[j["table"]]
    mover = t.match.current.current_player
    other = 1 - mover
    before = (svc.store.get(j["table"]).seq, json.dumps(svc.store.get(j["table"]).record))
    legal = t.game.move_to_json(t.match.current.legal_moves()[0])
    wss[other].send_json({"type": "move", "seq": state["seq"], "move": legal})
    assert answer(wss[other])["code"] == "not_your_turn"
    wss[other].send_json({"type": "move", "seq": state["seq"], "move": legal, "seat": mover})
    assert answer(wss[other])["code"] == "bad_message"  # no way to name a seat
    wss[other].send_json({"type": "move", "seq": state["seq"], "move": {**legal, "seat": mover}})
    assert answer(wss[other])["code"] in ("not_your_turn", "bad_move")
    wss[other].send_json({"type": "hint", "seq": state["seq"]})
    assert answer(wss[other])["code"] == "not_your_turn"
    after = (svc.store.get(j["table"]).seq, json.dumps(svc.store.get(j["table"]).record))
    assert after == before
    for cm in cms:
        cm.__exit__(None, None, None)


def test_cross_origin_websockets_are_refused(app_client):
    j, toks = table(app_client)
    for origin in ("http://evil.example", "https://testserver.evil.example", "null",
                   "http://testserver:1", "https://attacker.test"):
        with pytest.raises(WebSocketDisconnect) as e, app_client.websocket_connect(
                "/ws", headers={"origin": origin}) as ws:
            answer(ws)
        assert e.value.code == 1008
    cm, ws, reply = hello(app_client, j["table"], headers={"origin": "http://testserver"},
                          token=toks[0])
    assert reply["type"] == "welcome"  # the server's own page is welcome
    cm.__exit__(None, None, None)


def test_rate_and_size_limits_hold_per_connection(make_client):
    # A bucket that never refills: what is allowed is exactly the
    # burst, whatever the speed of the machine.
    app_client = make_client(rate_per_second=0.0, rate_burst=30)
    j, toks = table(app_client)
    cm, ws, _ = hello(app_client, j["table"], token=toks[0])  # 1 of the burst
    ws.send_text(json.dumps({"type": "ping", "pad": "x" * 5000}))
    assert answer(ws)["code"] == "too_large"  # refused before the bucket
    codes = []
    for _ in range(80):
        ws.send_json({"type": "ping"})
        codes.append(answer(ws).get("code", "pong"))
    assert codes == ["pong"] * 29 + ["rate_limited"] * 51
    # a second connection has its own bucket
    cm2, ws2, _ = hello(app_client, j["table"], token=toks[1])
    ws2.send_json({"type": "ping"})
    assert answer(ws2)["type"] == "pong"
    # a connection that keeps flooding is closed
    with pytest.raises(WebSocketDisconnect) as e:
        for _ in range(400):
            ws.send_json({"type": "ping"})
            answer(ws)
    assert e.value.code == 1008


@pytest.fixture(scope="module")
def real_server(tmp_path_factory):
    s = ServerProcess(workdir=tmp_path_factory.mktemp("sec"),
                      extra=["--origin", "https://tables.example"]).start()
    yield s
    s.cleanup()


def test_limits_and_origin_over_a_real_server(real_server):
    import httpx
    from websockets.exceptions import ConnectionClosed, InvalidStatus
    from websockets.sync.client import connect

    url = f"ws://127.0.0.1:{real_server.port}/ws"
    with pytest.raises(InvalidStatus) as e:
        connect(url, origin="http://evil.example", open_timeout=5)
    assert e.value.response.status_code == 403
    with connect(url, origin="https://tables.example", open_timeout=5) as ws:  # --origin
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv(timeout=5))["code"] == "no_hello"
    # a frame over the transport's limit (64 KiB) closes the connection (1009)
    with connect(url, open_timeout=5, max_size=None) as ws:
        ws.send("x" * (70 * 1024))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    assert httpx.get(real_server.base + "/healthz").status_code == 200


def test_a_client_that_stops_reading_cannot_hold_up_its_table():
    """A reader that never drains its socket (its sends block forever) is dropped after
    a bounded backlog; writing to it never waits, so the table's broadcasts go on."""
    import asyncio

    from parlour.server.hub import MAX_BACKLOG, Connection

    class Stuck:
        def __init__(self):
            self.sent = 0
            self.closed_with = None

        async def send_text(self, text):
            self.sent += 1
            await asyncio.Event().wait()  # the peer never reads: blocks for ever

        async def close(self, code, reason=""):
            self.closed_with = (code, reason)

    class Quick(Stuck):
        async def send_text(self, text):
            self.sent += 1

    async def scenario():
        stuck, quick = Stuck(), Quick()
        a, b = Connection(stuck, Settings()), Connection(quick, Settings())
        for i in range(MAX_BACKLOG + 50):
            for c in (a, b):
                # write() only queues: it finishes without waiting for any send
                step = c.write({"type": "update", "seq": i}).__await__()
                with pytest.raises(StopIteration):
                    next(step)
            await asyncio.sleep(0)
        for _ in range(10):  # let the writer tasks run
            await asyncio.sleep(0)
        return a, b, stuck, quick

    a, b, stuck, quick = run_sync(scenario())
    assert quick.sent == MAX_BACKLOG + 50 and not b.closed
    assert a.closed and stuck.sent == 1  # dropped: its first send never returned
    assert stuck.closed_with == (1008, "too slow: messages were not read")
    a.stop()
