"""Hostile input (issue #7, item 3): property-based fuzzing of the WebSocket protocol.

A 3-seat Fan Tan table is in play (seat 0 to move: it holds 7D, its only legal move)
with every kind of connection open: the three seats, a spectator and a connection
that never said hello. Hypothesis throws malformed, oversized, out-of-turn, stale and
unauthorised messages at it -- well over 10,000 in all, in process through Starlette's
TestClient. Every message must be answered by exactly one ``error`` message, the
server must stay up, and the table must not change: the stored record, log, seats and
sequence number are compared before and after every example. No reply may name a
card hidden from its reader (other than one the sender named itself).
"""

from __future__ import annotations

import json
import string
import time
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

warnings.filterwarnings("ignore", message=".*httpx2.*")

from hardening_kit import CODE, hidden_cards, mentioned  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from parlour import cards  # noqa: E402
from parlour.games import get_game  # noqa: E402
from parlour.server import Settings, create_app  # noqa: E402

pytestmark = [pytest.mark.timeout(300)]

EXAMPLES = 100
PER_EXAMPLE = (20, 30)
MIN_PER_TEST = 2000
"""Five tests, each at least 2,000 messages: at least 10,000 in all."""
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.large_base_example])

DECK = [cards.code(c) for c in range(52)]
DECK[0], DECK[19] = DECK[19], DECK[0]  # seat 0 holds 7D and opens (dealer: seat 2)
FANTAN = get_game("fantan")
ALL_CODES = [cards.code(c) for c in range(52)]


class Conn:
    def __init__(self, client: TestClient, hello: dict[str, Any] | None, audience: int | None):
        self.cm = client.websocket_connect("/ws")
        self.ws = self.cm.__enter__()
        self.audience = audience
        if hello:
            self.ws.send_json(hello)
            assert self.ws.receive_json()["type"] == "welcome"

    def barrier(self) -> None:
        """Read everything sent so far (up to a pong)."""
        self.ws.send_json({"type": "ping"})
        while self.ws.receive_json()["type"] != "pong":
            pass


class Arena:
    """The table under attack and its connections."""

    def __init__(self, tmp: Path) -> None:
        app = create_app(Settings(db_url=f"sqlite:///{tmp}/fuzz.sqlite3", bot_delay=0.0,
                                  round_pause=0.0, grace=3600, hello_timeout=3600,
                                  testing=True, rate_per_second=1e9, rate_burst=10 ** 9,
                                  allowed_hosts=["testserver"], max_seats_per_address=8, public_seats_per_address=8, reclaim_after=0.0,
                        max_tables_per_class=100_000,
                                  bot_workers=0))
        self.client = TestClient(app)
        self.client.__enter__()
        self.service = app.state.service
        r = self.client.post("/api/tables", json={
            "game": "fantan", "players": 3, "rules": {"rounds": 1}, "name": "A",
            "seats": [{"kind": "person"}] * 3,
            "test": {"seed": 1, "decks": [DECK], "dealer": 2}})
        j = r.json()
        self.table, self.invite = j["table"], j["invite_url"].split("#invite=")[1]
        self.watch = j["watch_url"].split("#watch=")[1]
        tokens = [j["token"]]
        for name in ("B", "C"):
            tokens.append(self.client.post(f"/api/tables/{self.table}/join",
                                           json={"key": self.invite, "name": name}
                                           ).json()["token"])
        self.tokens = tokens
        self.seats = [Conn(self.client, {"type": "hello", "table": self.table, "token": t}, i)
                      for i, t in enumerate(tokens)]
        self.seats[0].ws.send_json({"type": "start"})
        self.spectator = Conn(self.client, {"type": "hello", "table": self.table,
                                            "watch": self.watch}, None)
        for c in (*self.seats, self.spectator):
            c.barrier()
        deadline = time.monotonic() + 30  # the coalesced presence message, then quiet
        while self.service.hub.presence_pending(self.table) and time.monotonic() < deadline:
            time.sleep(0.01)
        for c in (*self.seats, self.spectator):
            c.barrier()
        self.stranger = Conn(self.client, None, None)  # never says hello
        other = self.client.post("/api/tables", json={
            "game": "fanti", "players": 2, "rules": {"rounds": 1}}).json()
        self.other_table, self.other_token = other["table"], other["token"]
        t = self.service.tables[self.table]
        assert t.match.current.current_player == 0 and t.seq == 1
        assert [FANTAN.move_to_json(m) for m in t.match.current.legal_moves()] == [
            {"play": "7D"}]
        self.sent = 0
        self.codes: Counter = Counter()

    @property
    def seq(self) -> int:
        return self.service.tables[self.table].seq

    def state(self) -> tuple:
        row = self.service.store.get(self.table)
        t = self.service.tables[self.table]
        return (row.seq, t.seq, row.status, json.dumps(row.record, sort_keys=True),
                json.dumps(row.log, sort_keys=True), json.dumps(row.config, sort_keys=True),
                len(t.log), t.status)

    def send(self, conn: Conn, msg: Any) -> dict[str, Any]:
        """Send one hostile message; exactly one reply comes, and it is an error."""
        if isinstance(msg, bytes):
            conn.ws.send_bytes(msg)
            text = ""
        else:
            text = msg if isinstance(msg, str) else json.dumps(msg)
            conn.ws.send_text(text)
        reply = conn.ws.receive_json()
        self.sent += 1
        assert reply["type"] == "error", (msg, reply)
        assert reply["code"] and reply["message"], reply
        self.codes[reply["code"]] += 1
        t = self.service.tables[self.table]
        named = {a + b for a, b in CODE.findall(text)}
        leak = (mentioned(reply, t.match) - named) & hidden_cards(t.match, conn.audience)
        assert not leak, (msg, reply)
        return reply

    def close(self) -> None:
        for c in (*self.seats, self.spectator, self.stranger):
            c.cm.__exit__(None, None, None)
        self.client.__exit__(None, None, None)


@pytest.fixture(scope="module")
def arena(tmp_path_factory):
    a = Arena(tmp_path_factory.mktemp("fuzz"))
    yield a
    # Still up, still playing: the one legal move is accepted after all of it.
    a.seats[0].ws.send_json({"type": "move", "seq": a.seq, "move": {"play": "7D"}})
    assert a.seats[0].ws.receive_json()["type"] == "update"
    a.close()


def run_batch(arena: Arena, batch: list[tuple[str, Any]]) -> None:
    before = arena.state()
    conns = {"s0": arena.seats[0], "s1": arena.seats[1], "s2": arena.seats[2],
             "spectator": arena.spectator, "stranger": arena.stranger}
    for who, msg in batch:
        arena.send(conns[who], msg(arena) if callable(msg) else msg)
    assert arena.state() == before


def batches(one: st.SearchStrategy) -> st.SearchStrategy:
    return st.lists(one, min_size=PER_EXAMPLE[0], max_size=PER_EXAMPLE[1])


# --- strategies --------------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10 ** 20, 10 ** 20)
    | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=10)
TYPES = ["hello", "move", "hint", "start", "rematch", "ping", "back"]
CARDISH = st.sampled_from(ALL_CODES + ["7d", "7♦", "10D", "TD", "1D", "0", "", "7DD"]) | st.text(
    max_size=4)
MOVE_DICT = st.dictionaries(st.sampled_from(["play", "take", "pass", "card", "seat"]),
                            CARDISH | st.booleans() | st.lists(CARDISH, max_size=3)
                            | st.integers(-3, 60), max_size=3)


def not_the_legal_move(move: Any) -> bool:
    try:
        return FANTAN.move_to_json(FANTAN.move_from_json(move)) != {"play": "7D"}
    except Exception:  # noqa: BLE001 -- malformed: fine
        return True


def _seq_now(a: Arena) -> int:
    return a.seq


def bad_move_now(move: dict[str, Any]):
    return lambda a: {"type": "move", "seq": a.seq, "move": move}


MALFORMED = st.one_of(
    st.text(max_size=200).filter(lambda s: s.strip() not in ('{"type":"ping"}',)),
    st.binary(max_size=200),
    JSON.map(json.dumps).filter(lambda s: '"type"' not in s),
    # a real type with a key it does not have
    st.builds(lambda t, k, v: {"type": t, k: v}, st.sampled_from(TYPES),
              st.text(string.ascii_letters, min_size=1, max_size=8).filter(
                  lambda k: k not in ("type", "table", "token", "watch", "seq", "move")),
              JSON),
    # wrong types and values (strict: "5" is not a sequence number)
    st.builds(lambda s, m: {"type": "move", "seq": s, "move": m},
              st.one_of(st.text(max_size=5), st.floats(), st.integers(max_value=-1),
                        st.none(), st.booleans(), st.lists(st.integers(), max_size=2)),
              MOVE_DICT),
    st.builds(lambda m: {"type": "move", "seq": 1, "move": m},
              JSON.filter(lambda x: not isinstance(x, dict))),
    st.sampled_from([{"type": "move"}, {"type": "move", "seq": 1}, {"type": "hint"},
                     {"type": "hello"}, {}, [], {"type": None}, {"type": "MOVE"},
                     {"type": ["move"]}]),
    # well-formed moves of the player to move that are not the legal one
    MOVE_DICT.filter(not_the_legal_move).map(bad_move_now),
    # the right shape, the right turn, but against the rules (FT-4: 7D opens)
    st.sampled_from([{"play": c} for c in ALL_CODES if c != "7D"] + [{"pass": True}]).map(
        bad_move_now),
).map(lambda m: ("s0", m))

OVERSIZED = st.builds(
    lambda n, who, kind, fill: (who, {
        "move": json.dumps({"type": "move", "seq": 1, "move": {"play": fill * n}}),
        "text": fill * (4097 + n),
        "hello": json.dumps({"type": "hello", "table": fill * n, "token": "x"}),
    }[kind]),
    st.integers(4097, 30000), st.sampled_from(["s0", "s1", "spectator", "stranger"]),
    st.sampled_from(["move", "text", "hello"]), st.sampled_from(["x", "é", "7D", " "]))

ANY_MOVE = st.sampled_from([{"play": c} for c in ALL_CODES] + [{"pass": True}])
OUT_OF_TURN = st.one_of(
    st.builds(lambda who, mv, off: (who, lambda a: {"type": "move", "seq": a.seq + off,
                                                    "move": mv}),
              st.sampled_from(["s1", "s2"]), ANY_MOVE | MOVE_DICT, st.sampled_from([0, 0, 1])),
    st.builds(lambda who: (who, lambda a: {"type": "hint", "seq": a.seq}),
              st.sampled_from(["s1", "s2"])),
)

STALE = st.one_of(
    st.builds(lambda s, mv: ("s0", lambda a: {"type": "move", "seq": s if s != a.seq else s + 1,
                                              "move": mv}),
              st.integers(0, 10 ** 9), ANY_MOVE | st.just({"play": "7D"})),
    st.builds(lambda s: ("s0", lambda a: {"type": "hint", "seq": s if s != a.seq else 0}),
              st.integers(0, 10 ** 6)),
)


def _hello(a: Arena, table: str, token: str | None = None, watch: str | None = None):
    m: dict[str, Any] = {"type": "hello", "table": table}
    if token is not None:
        m["token"] = token
    if watch is not None:
        m["watch"] = watch
    return m


SECRET = st.text(string.ascii_letters + string.digits + "-_", min_size=1, max_size=64)
UNAUTHORISED = st.one_of(
    # the spectator tries to act
    st.builds(lambda m: ("spectator", m), st.one_of(
        st.builds(lambda mv: (lambda a: {"type": "move", "seq": a.seq, "move": mv}),
                  ANY_MOVE | st.just({"play": "7D"})),
        st.just(lambda a: {"type": "hint", "seq": a.seq}),
        st.sampled_from([{"type": "start"}, {"type": "rematch"}, {"type": "back"}]))),
    # a connection with no hello tries anything
    st.builds(lambda m: ("stranger", m), st.one_of(
        st.just(lambda a: {"type": "move", "seq": a.seq, "move": {"play": "7D"}}),
        st.sampled_from([{"type": "start"}, {"type": "ping"}, {"type": "back"},
                         {"type": "rematch"}, {"type": "hint", "seq": 1}]),
        # forged, borrowed and mixed-up credentials
        st.builds(lambda tok: (lambda a: _hello(a, a.table, token=tok)), SECRET),
        st.builds(lambda w: (lambda a: _hello(a, a.table, watch=w)), SECRET),
        st.just(lambda a: _hello(a, a.table, token=a.invite)),
        st.just(lambda a: _hello(a, a.table, watch=a.invite)),
        st.just(lambda a: _hello(a, a.table, token=a.watch)),
        st.just(lambda a: _hello(a, a.table, token=a.other_token)),
        st.just(lambda a: _hello(a, a.other_table, token=a.tokens[0])),
        st.builds(lambda tid: (lambda a: _hello(a, tid, token=a.tokens[0])),
                  st.text(string.ascii_letters, min_size=1, max_size=32)),
        st.just(lambda a: _hello(a, a.table)),
    )),
    # a seat that is not the host starts; any seat says hello again
    st.sampled_from([("s1", {"type": "start"}), ("s2", {"type": "start"}),
                     ("s0", {"type": "start"}), ("s1", {"type": "rematch"})]),
    st.builds(lambda who, tok: (who, lambda a: _hello(a, a.table, token=tok)),
              st.sampled_from(["s0", "s1", "s2", "spectator"]), SECRET),
    st.builds(lambda who: (who, lambda a: _hello(a, a.table, token=a.tokens[0])),
              st.sampled_from(["s0", "s1", "s2", "spectator"])),
)


# --- the tests ---------------------------------------------------------------------

def _check(arena: Arena, before: int, codes: Counter, *expected: str) -> None:
    n = arena.sent - before
    assert n >= MIN_PER_TEST, n
    seen = arena.codes - codes
    assert set(expected) <= set(seen), seen  # the attack reached each defence
    print(f"\n{n} messages: {dict(seen)}")


HOSTILE = {
    "malformed": (MALFORMED, ("bad_message", "bad_move", "illegal")),
    "oversized": (OVERSIZED, ("too_large",)),
    "out_of_turn": (OUT_OF_TURN, ("not_your_turn",)),
    "stale": (STALE, ("stale",)),
    "unauthorised": (UNAUTHORISED, ("unauthorised", "no_hello", "already_joined", "not_found")),
}
"""Each family of hostile messages, with the error codes it must meet."""


@pytest.mark.parametrize("family", list(HOSTILE))
def test_hostile_messages(arena, family):
    strategy, expected = HOSTILE[family]
    start, codes = arena.sent, Counter(arena.codes)

    @FUZZ
    @given(batches(strategy))
    def run(batch):
        run_batch(arena, batch)

    run()
    _check(arena, start, codes, *expected)
