"""Issue #13: headers on every response, allowed hosts (DNS rebinding), the public URL,
the database's durability promise, and the worker pool that thinks for bots."""

from __future__ import annotations

import asyncio
import time

import pytest
from server_kit import create, run_async, service
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from parlour.games import get_game
from parlour.match import Match, Shuffler
from parlour.server import Settings, create_app
from parlour.server.thinking import BOTS_ONLY, PEOPLE, ThinkPool

pytestmark = pytest.mark.timeout(120)


@pytest.mark.parametrize("path", ["/", "/t/abc", "/verify", "/static/js/table.js",
                                  "/static/js/games/fanti.js", "/api/games", "/healthz",
                                  "/api/tables/nothing", "/no/such/path"])
def test_every_response_forbids_framing_and_sniffing_and_has_a_csp(client, path):
    r = client.get(path)
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["x-frame-options"] == "DENY"
    csp = r.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in csp
    assert "ws:" not in csp and "wss:" not in csp
    if path in ("/", "/t/abc", "/verify"):
        assert "connect-src 'self'" in csp and "script-src 'self'" in csp


def test_only_allowed_hosts_are_answered(make_app):
    client = make_app()
    r = client.get("/api/games", headers={"host": "evil.example:8000"})
    assert r.status_code == 400 and r.json()["error"] == "bad_host"
    with pytest.raises(WebSocketDisconnect) as e, client.websocket_connect(
            "/ws", headers={"host": "evil.example:8000", "origin": "http://evil.example:8000"}):
        pass
    assert e.value.code == 1008
    default = TestClient(create_app(Settings(db_url="sqlite:///:memory:")),
                         base_url="http://127.0.0.1:8000")
    with default:
        assert default.get("/healthz").status_code == 200
        assert default.get("/healthz", headers={"host": "testserver"}).status_code == 400


def test_links_and_origins_come_from_the_public_url(tmp_path):
    settings = Settings(db_url=f"sqlite:///{tmp_path}/p.sqlite3", public_url="https://tables.example")
    with TestClient(create_app(settings), base_url="https://tables.example") as client:
        j = client.post("/api/tables", json={"game": "fanti", "players": 2}).json()
        assert j["invite_url"].startswith("https://tables.example/t/")
        assert j["watch_url"].startswith("https://tables.example/t/")
        own = {"host": "tables.example"}  # the test client's sockets name no host by default
        with client.websocket_connect("/ws", headers={**own,
                                                      "origin": "https://tables.example"}) as ws:
            ws.send_json({"type": "hello", "table": j["table"], "token": j["token"]})
            assert ws.receive_json()["type"] == "welcome"
        with pytest.raises(WebSocketDisconnect), client.websocket_connect(
                "/ws", headers={**own, "origin": "http://tables.example:9"}):
            pass


def test_sqlite_durability_is_the_documented_setting(client, make_app):
    """docs/hardening.md: NORMAL by default (a commit survives a crash of the process),
    FULL on request (it survives a power loss too)."""
    with service(client).store.engine.connect() as c:
        assert c.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL
        assert c.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    full = make_app(sqlite_synchronous="FULL")
    with service(full).store.engine.connect() as c:
        assert c.exec_driver_sql("PRAGMA synchronous").scalar() == 2


def test_the_young_collection_threshold_is_the_setting(make_app):
    """``gc_young``: objects allocated between passes over the youngest objects (a
    move allocates thousands of short-lived ones; Python's default of 700 ran the
    collector several times a move)."""
    import gc

    before = gc.get_threshold()
    try:
        make_app(gc_young=12_345)
        assert gc.get_threshold()[0] == 12_345
        make_app()
        assert gc.get_threshold()[0] == 10_000
    finally:
        gc.set_threshold(*before)


def test_a_database_error_on_create_is_json_not_a_traceback(client, monkeypatch):
    def broken(_row):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(service(client).store, "add", broken)
    quiet = TestClient(client.app, raise_server_exceptions=False)  # the same running app
    r = quiet.post("/api/tables", json={"game": "fanti", "players": 2})
    assert r.status_code == 500 and r.json()["error"] == "server_error"
    assert "disk on fire" not in r.text


# --- the worker pool ------------------------------------------------------------------

def a_view(game="fanti"):
    g = get_game(game)
    m = Match.new(g, 4, g.rules(4, {}), ["a", "b", "c", "d"], Shuffler(7))
    return m.current.view(m.current.current_player), m.current


def test_the_pool_serves_tables_with_people_first():
    view, r = a_view()

    async def scenario():
        pool = ThinkPool(1, 60)
        try:
            order = []

            async def job(priority, tag):
                await pool.run(priority, "choose", "fanti", "random", 1, view)
                order.append(tag)

            # all three wait for the first worker to start; people's job goes first
            await asyncio.gather(job(BOTS_ONLY, "bots-1"), job(BOTS_ONLY, "bots-2"),
                                 job(PEOPLE, "people"))
            return order, pool.pids()
        finally:
            pool.close()

    order, pids = run_async(scenario())
    assert order == ["people", "bots-1", "bots-2"]
    assert len(pids) == 1 and all(p > 0 for p in pids)  # a process, not a thread


def test_every_worker_starts_with_the_pool_and_one_ready_stays_free_for_people():
    """All ``bot_workers`` start at once (not one after another when first needed);
    while only one is ready, hints and tables of bots only wait and it serves people."""
    view, r = a_view()

    async def scenario():
        pool = ThinkPool(2, 60)
        try:
            pool.start()
            spawned = len(pool.pids())
            while not (len(pool._idle) == 2 and all(w.ready for w in pool._workers)):
                await asyncio.sleep(0.02)
            starting = pool._idle.pop()  # as if it were still loading the engines
            starting.ready = False
            low = asyncio.ensure_future(pool.run(BOTS_ONLY, "choose", "fanti", "random", 1,
                                                 view))
            while not pool._queue:  # queued (and, were it allowed, started) first
                await asyncio.sleep(0.005)
            people = await pool.run(PEOPLE, "choose", "fanti", "random", 2, view)
            waited = not low.done()
            starting.ready = True
            pool._idle.append(starting)
            pool._dispatch()
            return spawned, waited, people, await low
        finally:
            pool.close()

    spawned, waited, people, low = run_async(scenario())
    assert spawned == 2
    assert waited  # the bots' job did not take the one worker ready
    assert r.why_illegal(people) is None and r.why_illegal(low) is None


def test_healthz_says_when_the_bot_workers_are_ready(make_app):
    client = make_app(bot_workers=1)
    pool = service(client).pool
    assert len(pool._workers) == 1  # started with the server, not at the first bot move
    first = client.get("/healthz").json()
    assert first["status"] == "ok" and first["bots"] in ("starting", "ready")
    deadline = time.monotonic() + 90
    while client.get("/healthz").json()["bots"] != "ready":
        assert time.monotonic() < deadline, "the worker never became ready"
        time.sleep(0.05)
    assert pool._workers[0].ready


def test_a_job_over_the_budget_is_stopped_and_the_pool_recovers():
    view, r = a_view()

    async def scenario():
        pool = ThinkPool(1, 0.3)
        try:
            await pool.run(PEOPLE, "choose", "fanti", "random", 1, view)  # started, warm
            first = pool.pids()
            with pytest.raises(TimeoutError):
                await pool.run(PEOPLE, "choose", "fanti", "expert", 1, view)
            move = await pool.run(PEOPLE, "choose", "fanti", "random", 2, view)
            return first, pool.pids(), move, pool.stats
        finally:
            pool.close()

    first, after, move, stats = run_async(scenario())
    assert r.why_illegal(move) is None
    assert first != after and stats["timeouts"] == 1  # the worker was replaced


def test_a_quick_budget_caps_a_search_bots_time_and_keeps_its_iterations():
    from parlour.bots import make_bot
    from parlour.server.work import cap_search

    expert = make_bot("expert", "fanti", 1)
    own = expert.engine.budget
    assert own.seconds > 0.3
    assert cap_search(expert, 0.3)
    assert expert.engine.budget.seconds == 0.3
    assert expert.engine.budget.iterations == own.iterations
    assert cap_search(expert, 60) and expert.engine.budget.seconds == 0.3  # never longer
    assert not cap_search(make_bot("random", "fanti", 1), 0.3)  # nothing to cap
    view, r = a_view()
    assert r.why_illegal(make_bot("expert", "fanti", 1).choose(view)) is None


def test_a_bot_over_its_budget_is_replaced_by_a_quick_move(make_app):
    client = make_app(bot_move_seconds=0.05)
    j = create(client, "fanti", 2, ["person", "expert"], rules={"rounds": 1})  # unseeded: pool
    from server_kit import Seat

    me = Seat(client, j["table"], token=j["token"])
    me.welcome()
    me.send({"type": "start"})
    assert me.play_to_end()["winners"] is not None


@pytest.mark.parametrize("body, where", [
    ({"game": "fanti", "players": 9}, "players"),
    ({"game": "fanti", "players": "two"}, "players"),
    ([1, 2, 3], ""),
])
def test_a_body_of_the_wrong_shape_gets_the_documented_error_shape(client, body, where):
    r = client.post("/api/tables", json=body)
    assert r.status_code == 422
    data = r.json()
    assert data["error"] == "invalid" and data["detail"]
    assert data["message"].startswith(f"{where}: ") if where else data["message"]


@pytest.mark.parametrize("raw, where", [
    (b'{"game": "fanti", "players": 1e400}', "players"),  # infinity once parsed
    (b'{"game": "fanti", "players": NaN}', "players"),
    (b'{"game": "fanti", "players": 2, "name": -Infinity}', "name"),
])
def test_a_number_json_cannot_carry_gets_a_422_not_a_500(client, raw, where):
    """The 422's detail once echoed the parsed input back, and infinity or NaN cannot
    be written as JSON: the answer was a 500. Now the input is never echoed."""
    r = client.post("/api/tables", content=raw, headers={"content-type": "application/json"})
    assert r.status_code == 422, r.text
    data = r.json()
    assert data["error"] == "invalid" and data["message"].startswith(f"{where}: ")
    assert data["detail"] and all("input" not in d for d in data["detail"])


def test_an_unknown_table_id_is_named_in_the_404_but_not_echoed_whole(client):
    r = client.get("/api/tables/" + "a" * 5000)
    assert r.status_code == 404 and r.json()["error"] == "not_found"
    assert r.json()["message"] == "there is no table '" + "a" * 40 + "…'"
    assert client.get("/api/tables/nope").json()["message"] == "there is no table 'nope'"
