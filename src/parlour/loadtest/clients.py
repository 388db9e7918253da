"""Scripted players over real WebSockets: one connection per seat, legal moves only.

A :class:`TableRun` creates a table over HTTP, seats its players (the creator and
one invite per other seat), opens one WebSocket per seat and plays to the end: each
seat chooses among the ``legal`` moves of its own view, after a human-like pause or
at once. Seats reconnect by themselves (exponential backoff, over a list of server
URLs) and re-send a move the server did not confirm, so the same clients serve the
load run and the fault tests.

Round trip: from sending a move to receiving the ``update`` that carries it (the
event of that seat, at the sequence number after the one the move answered).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx

from parlour.delta import Mirror
from parlour.loadtest.wire import Wire

try:
    from orjson import dumps as _dumps
    from orjson import loads

    def dumps(value: Any) -> str:
        return _dumps(value).decode()
except ImportError:  # pragma: no cover -- orjson is a dependency
    from json import dumps, loads

CREATE_ERRORS = (httpx.HTTPError, OSError, EOFError, TimeoutError, KeyError, ValueError)
"""What a table's creation may meet while a server restarts (either HTTP client)."""

RETRY_CODES = {"unavailable", "conflict", "server_error"}
"""Errors that say "not saved, try again": the seat re-sends its move."""
RACE_CODES = {"stale", "not_your_turn"}
"""Errors a correct client can meet after a reconnect or a race: it waits for the state."""

SPEEDS = {"human": (0.4, 1.6), "full": (0.0, 0.0)}
"""Think time before each move, uniform in (low, high) seconds."""


def ws_url(base: str) -> str:
    return ("wss" if base.startswith("https") else "ws") + base[base.index(":"):] + "/ws"


@dataclass
class Stats:
    """Everything measured over a run (shared by all tables)."""

    rtts: list[float] = field(default_factory=list)
    rtt_at: list[float] = field(default_factory=list)
    """When each round trip ended (``time.monotonic()``), for time series."""
    lags: list[float] = field(default_factory=list)
    """How late the clients' own event loop woke up (every 50 ms): a busy client
    inflates round trips, so this is reported beside them."""
    closes: Counter = field(default_factory=Counter)
    """(close code, reason) of every connection the server closed."""
    started: float = 0.0
    """When the run began (``time.monotonic()``)."""
    errors: Counter = field(default_factory=Counter)
    """Error messages the server sent, by code (retries and races included)."""
    failures: list[str] = field(default_factory=list)
    """Client-side failures: a table that could not be created, a seat that gave up."""
    bot_replies: list[float] = field(default_factory=list)
    """Seconds from the update that gave a bot seat the turn to the bot's move (the bot
    delay included), seen by each table's first seat."""
    moves_sent: int = 0
    moves_acked: int = 0
    messages: int = 0
    reconnects: int = 0
    byes: int = 0
    connect_failures: Counter = field(default_factory=Counter)
    """Connections that failed before or while opening, by exception (and HTTP status)."""
    syncs: int = 0
    """Snapshots asked for after a missed delta version (none is expected)."""
    bytes_received: int = 0
    close_codes: Counter = field(default_factory=Counter)


@dataclass
class SeatLog:
    """What one seat did: its sent intents and the moves the server confirmed."""

    seat: int
    sent: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    """(seq answered, move) for every move sent (re-sends included)."""
    acked: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    """(seq of the event, move) for every move confirmed by an ``update``."""
    captured: list[dict[str, Any]] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    done: bool = False


class SeatClient:
    """One seat: a WebSocket that plays legal moves and reconnects by itself."""

    def __init__(self, table: TableRun, seat: int, token: str) -> None:
        self.table = table
        self.seat = seat
        self.token = token
        self.log = SeatLog(seat)
        self.state: dict[str, Any] | None = None
        # the state, from the server's snapshots and deltas (built from the messages'
        # own values unless the messages are kept)
        self.mirror = Mirror(copies=table.capture)
        self.seq = -1
        self.answered: int | None = None
        self.pending: tuple[int, dict[str, Any], float] | None = None
        self.due: float | None = None
        self.last_update: float | None = None
        self.url_index = seat % len(table.urls)
        self.rng = random.Random(table.rng.random())
        self.addr = table.address(seat)
        """The address this seat seems to come from (``X-Forwarded-For``: servers that
        trust this machine as a proxy apply their per-address limits to it)."""

    # --- the decisions ------------------------------------------------------------

    def my_turn(self) -> bool:
        s = self.state
        return bool(s and s["view"] and s["table"]["status"] == "playing" and s["commit"]
                    and s["view"]["current_player"] == s["you"]
                    and not (s.get("pass") or {}).get("auto"))

    def choose(self) -> dict[str, Any]:
        legal = self.state["view"]["legal"]  # type: ignore[index]
        plays = [m for m in legal if not m.get("pass")]
        return self.rng.choice(plays or legal)

    def think(self) -> float:
        lo, hi = self.table.think
        return self.rng.uniform(lo, hi) if hi > 0 else 0.0

    # --- the connection -------------------------------------------------------------

    async def run(self) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidHandshake

        stats = self.table.stats
        failures = 0
        while not self.log.done and time.monotonic() < self.table.deadline:
            url = ws_url(self.table.urls[self.url_index % len(self.table.urls)])
            try:
                async with connect(url, open_timeout=10, max_size=2 ** 22,
                                   additional_headers={"X-Forwarded-For": self.addr},
                                   compression=self.table.compression,
                                   ping_interval=None, close_timeout=2,
                                   # this machine only: never a proxy (looking one up in
                                   # the environment was 8% of the clients' arrival CPU)
                                   proxy=None) as ws:
                    failures = 0
                    await self.session(ws)
                    if ws.close_code is not None:
                        stats.close_codes[ws.close_code] += 1
            except ConnectionClosed as e:
                code = e.rcvd.code if e.rcvd else None
                stats.close_codes[code] += 1
                stats.closes[(code, e.rcvd.reason if e.rcvd else None)] += 1
            except (OSError, InvalidHandshake, TimeoutError) as e:
                status = getattr(getattr(e, "response", None), "status_code", None)
                stats.connect_failures[f"{type(e).__name__} {status or ''}".strip()] += 1
                failures += 1
                self.url_index += 1  # try another server next time
            if self.log.done or time.monotonic() >= self.table.deadline:
                break
            stats.reconnects += 1
            delay = min(5.0, 0.1 * 2 ** min(failures, 6)) * (0.5 + self.rng.random())
            await asyncio.sleep(delay)
        if not self.log.done:
            stats.failures.append(f"table {self.table.id} seat {self.seat}: not finished")

    async def session(self, ws: Any) -> None:
        stats = self.table.stats
        self.answered = None  # a fresh connection: the welcome decides again
        self.due = None
        if self.seat == 0:
            self.table.start_sent = False  # a start lost with the last server is sent again
        await ws.send(dumps({"type": "hello", "table": self.table.id, "token": self.token}))
        while True:
            left = self.table.deadline - time.monotonic()
            if left <= 0:  # the run's bound (--duration): this game counts as unfinished
                return
            timeout = left if self.due is None else max(0.0, min(self.due - time.monotonic(), left))
            try:
                # bytes: orjson parses them without a decoded str in between
                raw = await asyncio.wait_for(ws.recv(decode=False), timeout=timeout)
            except TimeoutError:
                if time.monotonic() < self.table.deadline:
                    await self.send_move(ws)
                continue
            now = time.perf_counter()
            msg = loads(raw)
            stats.messages += 1
            stats.bytes_received += len(raw)
            if self.table.capture:
                self.log.captured.append(msg)
            kind = msg["type"]
            if kind == "error":
                self.on_error(msg)
            elif kind == "bye":
                stats.byes += 1
            if not self.mirror.take(msg):  # a version was missed: ask for the whole state
                stats.syncs += 1
                await ws.send(dumps({"type": "sync"}))
                continue
            if kind == "presence":
                await self.after_state(ws)
            elif "state" in msg or "delta" in msg:
                self.on_state(msg, now)
                if self.state["table"]["status"] in ("over", "expired"):  # type: ignore[index]
                    self.log.done = True
                    return
                await self.after_state(ws)

    def on_error(self, msg: dict[str, Any]) -> None:
        code = msg.get("code")
        self.table.stats.errors[code] += 1
        self.log.errors.append(msg)
        if code in RETRY_CODES and self.pending is not None and self.my_turn():
            # Not saved: send it again (after a short pause) while the seat still answers
            # that sequence number.
            self.answered = None
            self.due = time.monotonic() + 0.2 * (0.5 + self.rng.random())

    def on_state(self, msg: dict[str, Any], now: float) -> None:
        self.state, self.seq = self.mirror.state, msg["seq"]
        ev = msg.get("event")
        if msg["type"] == "update" and self.seat == 0:
            if (ev and ev.get("kind") == "move" and self.last_update is not None
                    and self.state["table"]["seats"][ev["seat"]]["kind"] == "bot"):
                self.table.stats.bot_replies.append(now - self.last_update)
            self.last_update = now
        if (ev and ev.get("kind") == "move" and ev.get("seat") == self.seat
                and self.pending is not None and msg["seq"] == self.pending[0] + 1):
            seq, move, sent_at = self.pending
            self.table.stats.rtts.append(now - sent_at)
            self.table.stats.rtt_at.append(time.monotonic())
            self.table.stats.moves_acked += 1
            self.table.acked += 1
            self.log.acked.append((msg["seq"], ev["move"]))
            self.pending = None
        elif self.pending is not None and msg["seq"] > self.pending[0] + 1:
            self.pending = None  # the table moved on: the move's fate is in the record

    async def after_state(self, ws: Any) -> None:
        s = self.state
        assert s is not None
        if (self.seat == s["table"].get("host") and s["table"]["status"] == "waiting"
                and all(x["claimed"] for x in s["table"]["seats"])
                and (all(x["connected"] for x in s["table"]["seats"])
                     or time.monotonic() > self.table.started + 10)
                and not self.table.start_sent):
            self.table.start_sent = True
            await ws.send(dumps({"type": "start"}))
        if self.my_turn():
            if self.answered != self.seq and self.due is None:
                self.due = time.monotonic() + self.think()
                if self.due <= time.monotonic():
                    await self.send_move(ws)
        else:
            self.due = None

    async def send_move(self, ws: Any) -> None:
        self.due = None
        if not self.my_turn() or self.answered == self.seq:
            return
        move = self.choose()
        self.answered = self.seq
        self.pending = (self.seq, move, time.perf_counter())
        self.log.sent.append((self.seq, move))
        self.table.stats.moves_sent += 1
        await ws.send(dumps({"type": "move", "seq": self.seq, "move": move}))


class TableRun:
    """One table of scripted people, from creation to the end of the game."""

    def __init__(self, urls: list[str], stats: Stats, *, game: str = "fantan", players: int = 4,
                 rules: dict[str, Any] | None = None, speed: str | tuple[float, float] = "human",
                 deadline: float, capture: bool = False, compression: str | None = "deflate",
                 rng: random.Random | None = None, bots: int = 0, bot: str = "random") -> None:
        self.urls = urls
        self.bots = bots
        self.bot = bot
        """The level of those bots."""
        """Seats played by the server's own bots (the last ``bots`` seats)."""
        self.stats = stats
        self.game, self.players = game, players
        self.rules = rules if rules is not None else {"rounds": 1}
        self.think = SPEEDS[speed] if isinstance(speed, str) else speed
        self.deadline = deadline
        self.capture = capture
        self.compression = compression
        self.rng = rng or random.Random()
        self.id: str | None = None
        self.seats: list[SeatClient] = []
        self.start_sent = False
        self.started = time.monotonic()
        self.finished = False
        self.acked = 0
        """Moves of this table's seats that the server confirmed."""
        self.watch: str | None = None
        self.record_data: dict[str, Any] | None = None
        """The finished game's record, once fetched."""
        self.net = f"10.{self.rng.randrange(256)}.{self.rng.randrange(256)}"

    def address(self, seat: int) -> str:
        """Seat ``seat``'s address: every seat of every table seems its own client."""
        return f"{self.net}.{seat + 1}"

    async def create(self, http: Wire | httpx.AsyncClient) -> None:
        base = self.urls[0]
        people = self.players - self.bots
        body = {"game": self.game, "players": self.players, "rules": self.rules,
                "name": "Load 1", "seats": [{"kind": "person"}] * people
                + [{"kind": "bot", "bot": self.bot}] * self.bots}
        r = await http.post(base + "/api/tables", json=body,
                            headers={"X-Forwarded-For": self.address(0)})
        r.raise_for_status()
        j = r.json()
        self.id = j["table"]
        self.watch = j["watch_url"].split("#watch=")[1]
        tokens = [j["token"]]
        invite = j["invite_url"].split("#invite=")[1]
        for i in range(1, people):
            r = await http.post(f"{base}/api/tables/{self.id}/join",
                                json={"key": invite, "name": f"Load {i + 1}"},
                                headers={"X-Forwarded-For": self.address(i)})
            r.raise_for_status()
            tokens.append(r.json()["token"])
        self.seats = [SeatClient(self, i, tok) for i, tok in enumerate(tokens)]

    async def play(self, http: Wire | httpx.AsyncClient) -> None:
        attempt = 0
        while True:  # a server that is restarting: keep trying until the deadline
            try:
                await self.create(http)
                break
            except CREATE_ERRORS as e:
                if time.monotonic() > self.deadline:
                    self.stats.failures.append(f"a table could not be created: {e!r}")
                    return
                await asyncio.sleep(min(2.0, 0.1 * 2 ** attempt) * (0.5 + self.rng.random()))
                attempt += 1
        self.started = time.monotonic()
        await asyncio.gather(*(s.run() for s in self.seats))
        self.finished = all(s.log.done for s in self.seats)

    async def record(self, http: httpx.AsyncClient) -> dict[str, Any] | None:
        """The finished game's record from the server (None if it has none)."""
        for base in self.urls:
            try:
                r = await http.get(f"{base}/api/tables/{self.id}/record")
            except httpx.HTTPError:
                continue
            if r.status_code == 200:
                return r.json()
        return None


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    xs = sorted(values)
    k = min(len(xs) - 1, max(0, round(q / 100 * (len(xs) - 1))))
    return xs[k]


async def run_tables(urls: list[str], tables: int, *, duration: float,
                     speed: str | tuple[float, float] = "human",
                     game: str = "fantan", players: int = 4,
                     rules: dict[str, Any] | None = None, ramp: float = 0.0,
                     capture: bool = False, compression: str | None = "deflate",
                     seed: int | None = None, on_tick: Any = None,
                     bots: int = 0, bot: str = "random") -> tuple[list[TableRun], Stats]:
    """Play ``tables`` concurrent games against ``urls`` for at most ``duration`` seconds."""
    import gc

    # The clients' garbage is acyclic (parsed JSON), so reference counting frees it;
    # the cyclic collector's full passes over hundreds of seats' states would stall
    # the clients' event loop and show up as (false) server latency. Off for the run.
    gc.collect()
    gc.freeze()
    gc_was_on = gc.isenabled()
    gc.disable()
    stats = Stats(started=time.monotonic())
    rng = random.Random(seed)
    deadline = time.monotonic() + duration
    runs = [TableRun(urls, stats, game=game, players=players, rules=rules, speed=speed,
                     deadline=deadline, capture=capture, compression=compression,
                     rng=random.Random(rng.random()), bots=bots, bot=bot)
            for _ in range(tables)]
    async with Wire(limit=50, timeout=30) as http:

        async def one(i: int, run: TableRun) -> None:
            if ramp > 0:
                await asyncio.sleep(ramp * i / max(1, tables))
            await run.play(http)

        tasks = [asyncio.create_task(one(i, r)) for i, r in enumerate(runs)]

        async def lag() -> None:
            while True:
                t0 = time.monotonic()
                await asyncio.sleep(0.05)
                stats.lags.append(time.monotonic() - t0 - 0.05)
        lagger = asyncio.create_task(lag())
        ticker = None
        if on_tick is not None:
            async def tick() -> None:
                while True:
                    await asyncio.sleep(1.0)
                    on_tick(runs, stats)
            ticker = asyncio.create_task(tick())
        try:
            await asyncio.wait_for(asyncio.gather(*tasks), timeout=duration + 30)
        except TimeoutError:
            stats.failures.append("the run did not end in time")
        finally:
            lagger.cancel()
            if ticker:
                ticker.cancel()
            for t in tasks:
                t.cancel()
            if gc_was_on:
                gc.enable()
            gc.unfreeze()
    return runs, stats
