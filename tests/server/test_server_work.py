"""Work a client chooses the cost of (issue #31, findings 1 and 3): replays, reviews,
record checks and hints run in the worker pool, under a CPU-time and a memory budget,
behind a bounded queue fair across addresses; a replay grows with the record's moves
(each step a delta of the one before), under a size cap."""

from __future__ import annotations

import json
import threading
import time

import pytest
from server_kit import Seat, create, run_async, service

from parlour import record
from parlour.games import get_game
from parlour.match import Match, Shuffler
from parlour.server import replay, work
from parlour.server.thinking import ASKED, QueueFull, ThinkPool, WorkFailed

PROXY = {"trusted_proxies": ["testclient"]}


def passes_record(moves: int, seed: int = 1, rounds: int = 100, players: int = 8) -> dict:
    """A Fan Tan record of ``moves`` moves under ``strict: false`` (FT-8), as many of them
    passes as the rules allow: a card is played only after a whole circle of passes, by
    the first player of the second circle who holds one (two circles of passes end the
    round blocked, FT-11). Small to send, long to replay. Built with the engine."""
    g = get_game("fantan")
    deal = Shuffler(seed)
    m = Match.new(g, players, g.rules(players, {"strict": False, "rounds": rounds}), None,
                  deal)
    streak = 0
    for _ in range(moves):
        if m.needs_deal:
            m.deal(deal.deck())
            streak = 0
        if m.is_over:
            break
        legal = m.current.legal_moves()
        passes = [x for x in legal if g.move_to_json(x).get("pass")]
        cards = [x for x in legal if not g.move_to_json(x).get("pass")]
        if passes and (streak < players or not cards):
            m.apply(passes[0])
            streak += 1
        else:
            m.apply(cards[0])
            streak = 0
    return record.dump(m)


def from_addr(addr: str) -> dict[str, str]:
    return {"X-Forwarded-For": addr}


# --- replays grow with the record's moves ----------------------------------------------

def test_a_pass_heavy_replay_grows_linearly_and_stays_under_the_cap(client):
    """Finding 1 (FT-8 passes): 1,000 and 4,000 moves of passes. Each replay step used to
    repeat the round so far (a 90 KB record: a 178 MB answer); now each step is a delta,
    so four times the moves is about four times the bytes, and far under the cap."""
    sizes = {}
    for moves in (1000, 4000):
        rec = passes_record(moves)
        r = client.post("/api/replay", content=json.dumps(rec).encode(),
                        headers={"content-type": "application/json"})
        assert r.status_code == 200, r.text
        sizes[moves] = len(r.content)
        data = r.json()
        assert sum(len(rd["steps"]) - 1 for rd in data["rounds"]) == moves
    assert sizes[4000] / sizes[1000] < 4.5  # linear (the square would be ~16)
    assert sizes[4000] / 4000 < 300  # bytes a move
    assert sizes[4000] < client.app.state.settings.replay_max_bytes
    # The last step, its deltas applied, is the engine's own state of the round.
    m = record.load(rec)
    last = replay.states(data)[-1][-1]
    r = m.rounds[-1]
    assert last["current"] == r.current_player
    assert last["view"]["passes"] == list(r.view(0).passes)


def test_a_large_answer_is_streamed_in_pieces_a_slow_reader_takes_one_at_a_time():
    """A replay of several MB goes out as a stream of 64 KiB pieces (with its length
    announced), not as one write the server must buffer for a slow reader."""
    from parlour.server.room import STREAM_CHUNK, _json

    data = bytes(range(256)) * (3 * STREAM_CHUNK // 256 + 7)
    response = _json(data)
    assert response.headers["content-length"] == str(len(data))

    async def pieces() -> list[bytes]:
        return [p async for p in response.body_iterator]

    got = run_async(pieces())
    assert len(got) == 4 and all(len(p) <= STREAM_CHUNK for p in got)
    assert b"".join(got) == data
    small = _json(b'{"ok": true}')
    assert small.body == b'{"ok": true}'


def test_a_replay_over_the_size_cap_is_refused_in_words(make_app):
    client = make_app(replay_max_bytes=50_000)
    r = client.post("/api/replay", json=passes_record(2000))
    assert r.status_code == 413
    body = r.json()
    assert body["error"] == "too_large"
    assert "50,000 bytes" in body["message"] and "2,000 moves" in body["message"]
    small = client.post("/api/replay", json=passes_record(50))
    assert small.status_code == 200


def test_a_replay_body_that_is_not_json_is_a_400_in_the_error_shape(client):
    r = client.post("/api/replay", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"] == "bad_record"
    r = client.post("/api/review", content=b"[1, 2", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"] == "bad_request"
    r = client.post("/api/review", json={"record": passes_record(10), "round": 0, "seat": 0})
    assert r.status_code == 422 and r.json()["error"] == "invalid"
    assert r.json()["message"].startswith("round")
    r = client.post("/api/verify", content=b"nope", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"] == "bad_request"


# --- a bounded queue, fair across addresses ----------------------------------------------

def test_the_queue_refuses_with_429_per_address_and_503_overall(make_app, monkeypatch):
    """Finding 3: 150 concurrent reviews queued without bound. Now an address may have
    ``work_per_address`` such jobs in flight (then 429) and ``work_queue`` wait in all
    (then 503), both with Retry-After, in the API's error shape, refused at once."""
    client = make_app(work_per_address=1, work_queue=2, **PROXY)
    release = threading.Event()
    started = threading.Semaphore(0)

    def held(body, max_bytes):  # a replay that takes as long as the test says
        started.release()
        release.wait(30)
        return b'{"held": true}'

    monkeypatch.setitem(work.JOBS, "replay", held)
    answers: dict[str, object] = {}

    def ask(addr: str) -> None:
        answers[addr] = client.post("/api/replay", json={}, headers=from_addr(addr))

    first = threading.Thread(target=ask, args=("10.0.0.1",))
    second = threading.Thread(target=ask, args=("10.0.0.2",))
    first.start()
    assert started.acquire(timeout=10)
    second.start()
    assert started.acquire(timeout=10)  # two in flight, from two addresses
    again = client.post("/api/replay", json={}, headers=from_addr("10.0.0.1"))
    assert again.status_code == 429 and again.json()["error"] == "rate_limited"
    assert int(again.headers["Retry-After"]) >= 1
    full = client.post("/api/replay", json={}, headers=from_addr("10.0.0.3"))
    assert full.status_code == 503 and full.json()["error"] == "busy"
    assert int(full.headers["Retry-After"]) >= 1
    assert client.get("/healthz").status_code == 200  # the rest of the server answers
    release.set()
    first.join(10)
    second.join(10)
    assert answers["10.0.0.1"].status_code == 200 and answers["10.0.0.2"].status_code == 200
    after = client.post("/api/replay", json={}, headers=from_addr("10.0.0.1"))
    assert after.status_code == 200  # the slots are given back


def test_waiting_asked_jobs_are_served_one_address_at_a_time():
    """A flood from one address waits behind everyone else's single request: the queue
    serves addresses round-robin (people's bot moves still first)."""
    from parlour.server.thinking import PEOPLE

    async def scenario():
        pool = ThinkPool(1, 60, queue=100, per_address=10)
        pool._spawn = lambda: None  # no worker: every job waits, and we read the queue
        tasks = []
        try:
            for addr, n in (("flood", 5), ("anna", 1), ("ben", 2)):
                for _ in range(n):
                    tasks.append(asyncio.ensure_future(
                        pool.run(ASKED, "verify", b"{}", addr=addr, cpu=1.0)))
                    await asyncio.sleep(0)
            tasks.append(asyncio.ensure_future(pool.run(PEOPLE, "choose", "fanti", "random",
                                                        1, None)))
            await asyncio.sleep(0)
            order = [(j.priority, j.addr) for j in sorted(pool._queue)]
        finally:
            pool.close()
        for t in tasks:
            with pytest.raises(WorkFailed):
                await t
        return order

    import asyncio

    order = run_async(scenario())
    assert order[0] == (PEOPLE, None)
    assert [a for _, a in order[1:]] == ["flood", "anna", "ben", "flood", "ben", "flood",
                                         "flood", "flood"]


def test_a_full_queue_is_refused_before_anything_waits():
    async def scenario():
        pool = ThinkPool(1, 60, queue=2, per_address=5)
        pool._spawn = lambda: None
        import asyncio

        tasks = [asyncio.ensure_future(pool.run(ASKED, "verify", b"{}", addr=a, cpu=1.0))
                 for a in ("a", "b")]
        await asyncio.sleep(0)
        try:
            with pytest.raises(QueueFull) as full:
                await pool.run(ASKED, "verify", b"{}", addr="c", cpu=1.0)
            return full.value, pool.stats["full"]
        finally:
            pool.close()
            for t in tasks:
                with pytest.raises(WorkFailed):
                    await t

    err, full = run_async(scenario())
    assert err.status == 503 and err.retry_after >= 1 and full == 1


# --- budgets, in real worker processes -----------------------------------------------------

def wait_ready(client) -> None:
    deadline = time.monotonic() + 120
    while client.get("/healthz").json()["bots"] != "ready":
        assert time.monotonic() < deadline, "the worker never became ready"
        time.sleep(0.05)


def test_a_bomb_runs_in_a_worker_under_its_budgets_while_the_room_plays_on(make_app):
    """Findings 1 and 3: a review bomb (every move of one seat to value) and a
    replay bomb ran in the server's own process. Now: while the review bomb runs in the
    worker, /healthz and a move on a live table answer (before the bomb does); the bomb
    stops at its CPU budget with a 413 in words, and the worker serves on. A job over its
    memory budget is stopped too, its worker replaced."""
    client = make_app(bot_workers=1, work_cpu_seconds=0.3, review_moves=100_000,
                      replay_max_bytes=0, **PROXY)
    wait_ready(client)
    pool = service(client).pool
    worker_pid = pool.pids()
    j = create(client, "fanti", 2, ["person", "person"], rules={"rounds": 1})
    anna = Seat(client, j["table"], token=j["token"])
    anna.welcome()
    invite = j["invite_url"].split("#invite=")[1]
    ben_join = client.post(f"/api/tables/{j['table']}/join", json={"key": invite,
                                                                   "name": "Ben"}).json()
    ben = Seat(client, j["table"], token=ben_join["token"])
    ben.welcome()
    anna.send({"type": "start"})
    def playing(s):
        return s["table"]["status"] == "playing" and s["commit"]

    anna.until_state(playing)
    ben.until_state(playing)

    bomb = {"record": passes_record(3000), "round": 1, "seat": 3}  # 41 moves to value
    events: list[str] = []
    answer: dict[str, object] = {}

    def fire() -> None:
        answer["r"] = client.post("/api/review", json=bomb, headers=from_addr("6.6.6.6"))
        events.append("bomb answered")

    thread = threading.Thread(target=fire)
    thread.start()
    deadline = time.monotonic() + 30
    while not any(w.job is not None and w.job.name == "review" for w in pool._workers):
        assert time.monotonic() < deadline, "the review never reached the worker"
        time.sleep(0.01)
    events.append("bomb running")
    assert client.get("/healthz").status_code == 200
    events.append("healthz")
    mover = anna if anna.my_turn() else ben
    mover.send({"type": "move", "seq": mover.seq, "move": mover.state["view"]["legal"][0]})
    mover.until(lambda m: m.get("type") == "update")
    events.append("move")
    thread.join(120)
    assert events == ["bomb running", "healthz", "move", "bomb answered"]
    r = answer["r"]
    assert r.status_code == 413 and r.json()["error"] == "too_large"
    assert "0.3 s of computing" in r.json()["message"]
    assert pool.stats["over"] == 1 and pool.pids() == worker_pid  # stopped, not replaced
    ok = client.post("/api/verify", json=passes_record(10), headers=from_addr("6.6.6.6"))
    assert ok.status_code == 200 and ok.json()["ok"] is False  # served on (no commitments)

    service(client).settings.work_memory_mb = 8  # a replay needs more than that
    service(client).settings.work_cpu_seconds = 10.0  # (and the memory runs out first)
    big = client.post("/api/replay", json=passes_record(20000), headers=from_addr("7.7.7.7"))
    assert big.status_code == 413 and "8 MB of memory" in big.json()["message"]
    assert pool.stats["over"] == 2 and pool.pids() != worker_pid  # replaced
    anna.close()
    ben.close()
