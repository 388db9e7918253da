"""Helpers for the server tests: seat clients that play through the WebSocket protocol,
and the hidden-card oracle."""

from __future__ import annotations

import copy
import re
import threading
import warnings
from collections.abc import Callable
from typing import Any

from async_kit import run_async  # noqa: F401  (re-exported for the server tests)
from parlour import cards
from parlour.delta import Mirror

warnings.filterwarnings("ignore", message=".*httpx2.*")

from starlette.testclient import TestClient  # noqa: E402

CODE = re.compile(r"(?<![0-9A-Za-z])(10|[2-9]|[AJQK])([CDHS])(?![0-9A-Za-z])")
SYMBOL = re.compile(r"(10|[2-9]|[AJQK])([♣♦♥♠])")
SYMBOL_SUIT = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


SKIP_KEYS = {"links", "id", "commit", "salt", "url", "rematch", "watch", "invite_url",
             "watch_url", "table_url"}


def hidden_cards(match: Any, audience: int | None) -> set[str]:
    """The cards ``audience`` must not see now: other hands and the undealt deck.

    Computed here, in the test, from the engine's state (``Round.hand``,
    ``Round.stock``: what every game says is hidden) -- not by the server's code.
    """
    if match is None or match.current is None:
        return set()
    r = match.current
    mask = 0
    for s in range(match.players):
        if s != audience:
            mask |= r.hand(s)
    mask |= r.stock()
    return set(cards.codes(mask))


def mentioned(payload: Any, match: Any) -> set[str]:
    """Every card code or symbol written anywhere in a message, except the revealed
    decks of finished rounds (checked to be finished)."""
    found: set[str] = set()

    def walk(x: Any, key: str | None = None) -> None:
        if key in SKIP_KEYS:
            return
        if key == "revealed":
            for entry in x if isinstance(x, list) else [x]:
                if isinstance(entry, dict) and "round" in entry:
                    k = entry["round"]
                    assert match is not None and k <= len(match.rounds)
                    assert match.rounds[k - 1].is_over, f"round {k} revealed while in play"
                else:  # a part of an entry: the deck of a round counted as revealed
                    walk(entry)
            return
        if key == "delta":  # operations [op, path, value...]: the value as at its path
            for op in x:
                keys = [p for p in op[1] if isinstance(p, str)]
                if any(k in SKIP_KEYS for k in keys):
                    continue
                if "revealed" in keys:
                    walk(op[2:] and op[2], "revealed")
                else:
                    walk(op[2:], keys[-1] if keys else None)
            return
        if isinstance(x, dict):
            for k, v in x.items():
                walk(v, k)
        elif isinstance(x, list):
            for v in x:
                walk(v, key)
        elif isinstance(x, str):
            found.update(a + b for a, b in CODE.findall(x))
            found.update(a + SYMBOL_SUIT[b] for a, b in SYMBOL.findall(x))

    walk(payload)
    return found


class Oracle:
    """Checks every message the server sends against the cards hidden at that moment."""

    def __init__(self) -> None:
        self.checked = 0
        self.leaks: list[str] = []
        self.by_audience: dict[Any, int] = {}

    def __call__(self, table: Any, audience: int | None, payload: dict[str, Any]) -> None:
        match = table.match if table is not None else None
        leak = mentioned(payload, match) & hidden_cards(match, audience)
        self.checked += 1
        self.by_audience[audience] = self.by_audience.get(audience, 0) + 1
        if leak:
            self.leaks.append(f"{payload.get('type')} to {audience}: {sorted(leak)}")


def http_leaks(client: TestClient, payload: Any) -> list[str]:
    """Cards hidden to someone at a table in play (here: to a spectator, so every hand)
    that an HTTP answer mentions: leaderboards and profiles must name none."""
    leaks = []
    for t in list(service(client).tables.values()):
        if t.status == "playing" and t.match is not None:
            found = mentioned(payload, t.match) & hidden_cards(t.match, None)
            if found:
                leaks.append(f"table {t.id}: {sorted(found)}")
    return leaks


HTTP_CHECKED = ("/api/me", "/api/accounts", "/api/session", "/api/passkeys",
                "/api/players", "/api/leaderboard", "/api/pool", "/u/", "/leaderboard",
                "/api/your-move", "/api/room", "/api/push", "/i18n/", "/api/friends",
                "/api/follows", "/api/blocks", "/api/invites", "/api/reports", "/api/here",
                "/api/rulings")
"""HTTP answers about people (accounts, profiles, leaderboards, pools and pool tickets,
the games waiting on you, the room's numbers, push subscriptions, the page's catalogs,
friends, blocks, invitations, reports, the page's heartbeat): each is checked
against the cards hidden at every table in play at that moment (conftest)."""
HTTP_SKIP = {"table", "token", "rejoin_url", "id", "url", "replay"}
"""Keys holding random ids and links, which may spell a card code by chance."""


def _without(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _without(v) for k, v in x.items() if k not in HTTP_SKIP}
    if isinstance(x, list):
        return [_without(v) for v in x]
    return x


def check_http(client: TestClient, url: Any, response: Any) -> None:
    """The hidden-card oracle for one HTTP answer about people: no card hidden at any
    table in play (from everyone: audience None) may appear in it."""
    from urllib.parse import urlsplit

    path = urlsplit(str(url)).path
    if not path.startswith(HTTP_CHECKED):
        return
    try:
        payload = response.json()
    except ValueError:
        payload = response.text
    hidden: set[str] = set()
    for t in list(service(client).tables.values()):
        if t.status == "playing" and t.match is not None:
            hidden |= hidden_cards(t.match, None)
    oracle = client.oracle
    oracle.checked += 1
    oracle.by_audience["http"] = oracle.by_audience.get("http", 0) + 1
    leak = mentioned(_without(payload), None) & hidden
    if leak:
        oracle.leaks.append(f"HTTP {path}: {sorted(leak)}")


def service(client: TestClient) -> Any:
    return client.app.state.service


def spy_jobs(client: TestClient) -> list[tuple[int, str, tuple[Any, ...]]]:
    """Every job the server's worker pool is given from now on, as ``(priority, job
    name, arguments)``; the jobs still run."""
    svc = service(client)
    asked: list[tuple[int, str, tuple[Any, ...]]] = []
    real = svc.pool.run

    async def run(priority: int, name: str, *args: Any, **kw: Any) -> Any:
        asked.append((priority, name, args))
        return await real(priority, name, *args, **kw)

    svc.pool.run = run
    return asked


def play_bot_table(client: TestClient, game: str, players: int, bot: str,
                   rounds: int) -> None:
    """Create a table of ``bot`` bots only and watch it to the end."""
    j = client.post("/api/tables", json={"game": game, "players": players,
                                         "rules": {"rounds": rounds},
                                         "seats": [{"kind": "bot", "bot": bot}] * players}).json()
    watcher = Seat(client, j["table"], watch=j["watch"])
    watcher.until_state(lambda s: s["table"]["status"] == "over")
    watcher.close()


def create(client: TestClient, game: str, players: int, seats: list[Any] | None = None,
           **kw: Any) -> dict[str, Any]:
    body = {"game": game, "players": players, **kw}
    if seats is not None:
        body["seats"] = [{"kind": "person"} if s == "person" else {"kind": "bot", "bot": s}
                         for s in seats]
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return r.json()


class Seat:
    """A WebSocket client for one seat (or a spectator)."""

    def __init__(self, client: TestClient, table: str, token: str | None = None,
                 watch: str | None = None, headers: dict[str, str] | None = None) -> None:
        self.cm = client.websocket_connect("/ws", headers=headers or {})
        self.ws = self.cm.__enter__()
        self.open = True
        client.__dict__.setdefault("seats", []).append(self)  # closed by the fixture
        self.table = table
        self.state: dict[str, Any] | None = None
        self.mirror = Mirror()
        self.seq: int | None = None
        self.messages: list[dict[str, Any]] = []
        hello: dict[str, Any] = {"type": "hello", "table": table}
        if token:
            hello["token"] = token
        if watch:
            hello["watch"] = watch
        self.ws.send_json(hello)

    def recv(self) -> dict[str, Any]:
        """The next message; a snapshot or delta also updates ``state`` (a missed
        version asks for a snapshot, as every client does)."""
        m = self.ws.receive_json()
        self.messages.append(m)
        if not self.mirror.take(m):
            self.send({"type": "sync"})
        elif "state" in m or "delta" in m:
            self.state, self.seq = self.mirror.state, m["seq"]
        return m

    def until(self, pred: Callable[[dict[str, Any]], bool], limit: int = 5000) -> dict[str, Any]:
        for _ in range(limit):
            m = self.recv()
            if pred(m):
                return m
        raise AssertionError("no such message")

    def until_state(self, pred: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
        """Read messages until the state held (snapshots and deltas applied) fits (none
        when it fits already)."""
        if self.state is not None and pred(self.state):
            return self.state
        self.until(lambda m: self.state is not None and bool(pred(self.state)))
        assert self.state is not None
        return self.state

    def welcome(self) -> dict[str, Any]:
        return self.until(lambda m: m["type"] in ("welcome", "error"))

    def send(self, msg: Any) -> None:
        if isinstance(msg, str):
            self.ws.send_text(msg)
        else:
            self.ws.send_json(msg)

    def error(self) -> dict[str, Any]:
        return self.until(lambda m: m["type"] == "error")

    def my_turn(self) -> bool:
        s = self.state
        return bool(s and s["view"] and s["table"]["status"] == "playing" and s["commit"]
                    and s["view"]["current_player"] == s["you"])

    def play_to_end(self, choose: Callable[[dict[str, Any]], Any] | None = None) -> dict[str, Any]:
        """Play legal moves (the first, or ``choose(state)``) until the game is over."""
        sent_for = None
        while True:
            m = self.recv()
            if m["type"] == "error" and m["code"] not in ("stale", "not_your_turn"):
                raise AssertionError(m)
            s = self.state
            if s and s["table"]["status"] == "over":
                return s
            if ("state" in m or "delta" in m) and self.my_turn() and sent_for != self.seq:
                legal = s["view"]["legal"]
                if (s.get("pass") or {}).get("auto"):
                    continue  # the server passes by itself (announced)
                move = choose(copy.deepcopy(s)) if choose else legal[0]  # (s changes later)
                sent_for = self.seq
                self.send({"type": "move", "seq": self.seq, "move": move})

    def close(self) -> None:
        if self.open:
            self.open = False
            self.cm.__exit__(None, None, None)


def threaded(fns: list[Callable[[], Any]], timeout: float = 60) -> list[Any]:
    """Run the functions in threads; re-raise the first failure."""
    results: list[Any] = [None] * len(fns)
    errors: list[BaseException] = []

    def run(i: int, fn: Callable[[], Any]) -> None:
        try:
            results[i] = fn()
        except BaseException as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=run, args=(i, f), daemon=True) for i, f in enumerate(fns)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout)
    if errors:
        raise errors[0]
    assert not any(t.is_alive() for t in threads), "a player thread is stuck"
    return results


class Browser:
    """One browser of its own (its own cookie jar) over a shared test client: requests
    run with this browser's cookies, and the cookies they set stay with it."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.jar: list[Any] = []

    @property
    def cookies(self) -> dict[str, str]:
        return {c.name: c.value for c in self.jar}

    def request(self, method: str, url: str, **kw: Any) -> Any:
        c = self.client
        c.cookies.clear()
        for cookie in self.jar:
            c.cookies.jar.set_cookie(cookie)
        try:
            return c.request(method, url, **kw)
        finally:
            self.jar = list(c.cookies.jar)
            c.cookies.clear()

    def seat(self, table: str, token: str | None = None, watch: str | None = None) -> Seat:
        """A WebSocket of this browser (its cookie rides the upgrade)."""
        cookie = "; ".join(f"{c.name}={c.value}" for c in self.jar)
        return Seat(self.client, table, token=token, watch=watch,
                    headers={"cookie": cookie} if cookie else None)

    def get(self, url: str, **kw: Any) -> Any:
        return self.request("GET", url, **kw)

    def post(self, url: str, **kw: Any) -> Any:
        return self.request("POST", url, **kw)

    def patch(self, url: str, **kw: Any) -> Any:
        return self.request("PATCH", url, **kw)

    def delete(self, url: str, **kw: Any) -> Any:
        return self.request("DELETE", url, **kw)


class Person:
    """Another browser on the same test server: a lasting identity (its cookie) of its
    own, while every request and socket goes through the one client (its event loop)."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.cookie: str | None = None

    def request(self, method: str, path: str, **kw: Any) -> Any:
        headers = dict(kw.pop("headers", None) or {})
        if self.cookie:
            headers["cookie"] = self.cookie
        self.client.cookies.clear()
        r = self.client.request(method, path, headers=headers, **kw)
        for name in ("parlour_id", "__Host-parlour_id"):
            if r.cookies.get(name):
                self.cookie = f"{name}={r.cookies.get(name)}"
        self.client.cookies.clear()
        return r

    def get(self, path: str, **kw: Any) -> Any:
        return self.request("GET", path, **kw)

    def post(self, path: str, **kw: Any) -> Any:
        return self.request("POST", path, **kw)

    def seat(self, table: str, token: str | None = None, watch: str | None = None) -> Seat:
        return Seat(self.client, table, token, watch,
                    headers={"cookie": self.cookie} if self.cookie else None)
