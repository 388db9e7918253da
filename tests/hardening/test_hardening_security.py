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

# Every receive has its own timeout (``receive``), so a server that stops answering fails
# one test; method="thread" is the last resort for anything else that blocks (its stacks
# are printed and the run fails) instead of hanging.
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
                        allowed_hosts=["testserver"], max_seats_per_address=8, public_seats_per_address=8, reclaim_after=0.0,
                        max_tables_per_class=100_000, bot_workers=0)
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


RECEIVE_TIMEOUT = 30.0


def receive(ws, timeout=RECEIVE_TIMEOUT):
    """``ws.receive_json()`` that fails the test after ``timeout`` seconds instead of
    waiting for ever (a server that stopped answering must fail this file, not hang it:
    the sockets are then closed by the fixture and the other tests run)."""
    import anyio

    async def get():
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    try:
        message = ws.portal.call(get)
    except TimeoutError:
        pytest.fail(f"the server sent nothing for {timeout} s")
    ws._raise_on_close(message)
    return json.loads(message["text"])


def hello(client, table_id, headers=None, **auth):
    cm = client.websocket_connect("/ws", headers=headers or {})
    ws = cm.__enter__()
    client.sockets.append(cm)  # closed by the fixture whatever happens
    ws.send_json({"type": "hello", "table": table_id, **auth})
    return cm, ws, receive(ws)


def answer(ws):
    """The next message that answers something: ``presence`` messages (who is connected,
    sent when they like) are skipped."""
    m = receive(ws)
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


def keys_of(reply):
    return (reply["invite_url"].split("#invite=")[1], reply["watch_url"].split("#watch=")[1])


def open_table(client, players=3):
    """A table of people where only the host has sat down."""
    return client.post("/api/tables", json={"game": "fantan", "players": players, "seats": [
        {"kind": "person"}] * players}).json()


def refused(client, table_id, key):
    """Whether ``key`` opens nothing at the table: no seat, no pass, no spectator socket."""
    r = client.post(f"/api/tables/{table_id}/join", json={"key": key, "name": "Eve"})
    cm, ws, reply = hello(client, table_id, watch=key)
    cm.__exit__(None, None, None)
    return r.status_code == 403 and reply["type"] == "error" and \
        reply["code"] == "unauthorised"


def test_invite_and_spectator_keys_are_stored_nowhere(app_client):
    """Finding 13: the database holds neither key of any table; what its rows keep in
    the key columns opens nothing; the keys are rebuilt for the links."""
    made = [app_client.post("/api/tables", json={
        "game": "fanti", "players": 3, "seats": [{"kind": "person"}] * 2 + [
            {"kind": "bot", "bot": "random"}], "rules": {"rounds": 1}}).json()
        for _ in range(3)]
    keys = [k for j in made for k in keys_of(j)]
    assert len(set(keys)) == 6
    raw = b"".join(p.read_bytes() for p in app_client.db.parent.glob("sec.sqlite3*"))
    con = sqlite3.connect(app_client.db)
    dump = "\n".join(con.iterdump())
    rows = con.execute("SELECT id, invite_key, watch_key FROM tables").fetchall()
    con.close()
    for k in keys:
        assert k.encode() not in raw and k not in dump
    assert len(rows) == 3
    for tid, invite_kept, watch_kept in rows:
        for kept in (invite_kept, watch_kept):
            assert not kept or refused(app_client, tid, kept)
        for column in ("invite_key", "watch_key"):  # and no column holds a key
            assert not any(k in str(r) for r in rows for k in keys), column
    # the links are rebuilt, the same every time: the host's state carries the invite
    j = made[0]
    cm, ws, welcome = hello(app_client, j["table"], token=j["token"])
    assert welcome["state"]["links"]["invite"].endswith("#invite=" + keys_of(j)[0])
    assert welcome["state"]["links"]["watch"].endswith("#watch=" + keys_of(j)[1])
    cm.__exit__(None, None, None)


def test_a_key_opens_only_its_own_table_and_only_whole(app_client):
    a, _ = table(app_client)
    b = open_table(app_client)
    invite_a, watch_a = keys_of(a)
    invite_b, watch_b = keys_of(b)
    for key in (invite_b, watch_b,  # another table's keys
                invite_a[:-1] + ("A" if invite_a[-1] != "A" else "B"),  # all but the last
                watch_a[:-1] + ("A" if watch_a[-1] != "A" else "B"),
                invite_a[:6] + "x" * (len(invite_a) - 6),  # the first 6 characters
                watch_a[:6], invite_a[:12], invite_a + "x", "x" * 24,
                invite_a.upper() if invite_a.upper() != invite_a else invite_a.lower()):
        assert refused(app_client, a["table"], key), key
    # the real ones still work
    assert app_client.post(f"/api/tables/{a['table']}/join",
                           json={"key": watch_a}).json()["role"] == "spectator"
    r = app_client.post(f"/api/tables/{b['table']}/join", json={"key": invite_b, "name": "Bo"})
    assert r.status_code == 200 and r.json()["role"] == "seat"


def test_keys_survive_a_restart_and_are_shared_by_processes(make_client, tmp_path):
    """Keys are derived from a secret kept in the database: a second process on the
    same database (a restart, or a cluster) rebuilds the same links and accepts them."""
    first = make_client()
    j = open_table(first)
    invite, watch = keys_of(j)
    second = make_client(db_url=f"sqlite:///{first.db}")
    r = second.post(f"/api/tables/{j['table']}/join", json={"key": invite, "name": "Bo"})
    assert r.status_code == 200 and r.json()["invite_url"].endswith("#invite=" + invite)
    assert second.post(f"/api/tables/{j['table']}/join",
                       json={"key": watch}).json()["role"] == "spectator"
    # a secret from the settings takes over the links; the stored one still opens
    third = make_client(db_url=f"sqlite:///{first.db}", key_secret="s3cret-from-the-env")
    c = open_table(third)
    assert keys_of(c)[0] not in (invite,) and c["invite_url"] != j["invite_url"]
    assert third.post(f"/api/tables/{j['table']}/join",
                      json={"key": watch}).json()["role"] == "spectator"
    assert refused(first, c["table"], keys_of(c)[1])  # not derivable from the database


def test_keys_an_earlier_version_stored_keep_working(make_client, tmp_path):
    """A database whose tables keep their keys in the clear (earlier versions): at the
    next start the keys are replaced by their hashes, and the old links still open the
    tables; a row not migrated yet (written by an old process) opens too."""
    first = make_client()
    j = open_table(first)
    tid = j["table"]
    con = sqlite3.connect(first.db)
    con.execute("UPDATE tables SET invite_key = ?, watch_key = ? WHERE id = ?",
                ("OldInviteKey_123456789AB", "OldWatchKey_1234567890AB", tid))
    con.commit()
    con.close()
    second = make_client(db_url=f"sqlite:///{first.db}")
    con = sqlite3.connect(first.db)
    dump = "\n".join(con.iterdump())
    con.close()
    assert "OldInviteKey_123456789AB" not in dump and "OldWatchKey_1234567890AB" not in dump
    assert tokens.stored_form("OldInviteKey_123456789AB") in dump
    assert second.post(f"/api/tables/{tid}/join", json={"key": "OldWatchKey_1234567890AB"}
                       ).json()["role"] == "spectator"
    cm, ws, reply = hello(second, tid, watch="OldWatchKey_1234567890AB")
    assert reply["type"] == "welcome"
    cm.__exit__(None, None, None)
    assert refused(second, tid, "OldWatchKey_1234567890AC")
    assert refused(second, tid, tokens.stored_form("OldWatchKey_1234567890AB"))  # the hash
    assert refused(second, tid, "OldInviteKey_123456789AB"[:6] + "x" * 18)
    r = second.post(f"/api/tables/{tid}/join", json={"key": "OldInviteKey_123456789AB",
                                                     "name": "Bo"})
    assert r.status_code == 200 and r.json()["role"] == "seat"
    assert r.json()["invite_url"].endswith("#invite=" + keys_of(j)[0])  # the new link too
    ring = tokens.KeyRing(["s"])
    assert ring.opens("plain-old-key", "T", "watch", stored="plain-old-key")
    assert not ring.opens("plain-old-kez", "T", "watch", stored="plain-old-key")
    assert not ring.opens(ring.key("T", "watch"), "T", "invite")  # purposes differ
    assert not ring.opens(ring.key("T", "watch"), "U", "watch")


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
