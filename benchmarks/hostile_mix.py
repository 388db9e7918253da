"""Hostile mix (issue #13): honest tables play while strangers attack the same server.

Starts ``parlour serve`` on a free 127.0.0.1 port (``--trusted-proxy 127.0.0.1``, so
each simulated client is its own address through ``X-Forwarded-For``) with the
default limits, then runs for ``--duration`` seconds:

* honest: ``--tables`` Fan Tan tables of 2 people (human pace) and 2 ``hard`` bots;
* strangers, each from addresses of their own:
  - ``--bodies``: POST /api/verify bodies of ``--body-mb`` MB, streamed, back to back;
  - ``--creators``: table-creation floods (many addresses, as fast as answered);
  - ``--idle``: WebSockets that never say hello, reopened when closed;
  - ``--bot-tables``: attempts at Fanti tables of 4 ``expert`` bots at the largest
    allowed rounds, each one that is accepted watched (so it runs);
  - hint floods: every honest seat asks for a hint on each of its turns;
  - ``--spectators``: spectators joining and leaving the honest tables;
  - ``--bombs``: the replay bomb (issue #31): records of 90, 180 and 966 KB that are
    mostly passes under ``strict: false`` (as long as FT-11 allows: 8 seats, a card only
    after a whole circle of passes), each POSTed to /api/replay every ``--bomb-every``
    seconds;
  - ``--reviewers``: the review flood: clients reviewing a round of the 966 KB record
    back to back, each from an address of its own;
  - ``--pass-forever``: Fan Tan tables of 3 people (``strict: false``) held from two
    addresses whose seats pass whenever they may, as fast as answered.

The mix starts once ``/healthz`` says the bot workers are ready (a running server,
not one starting). It reports: honest games finished, honest move round trip p50/p99, honest bot replies
p50/p99 (from the update that gave a bot the turn to its move; the bot delay
included), ``/healthz`` answers and their p99, the server's RSS (with its bot
workers), and what each stranger got. Loopback only, bounded in time.

    nice -n 10 python benchmarks/hostile_mix.py --tables 8 --duration 120 --json out.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import bench_args
import httpx

from parlour.delta import Mirror
from parlour.loadtest import ServerProcess, run_tables
from parlour.loadtest.clients import percentile, ws_url
from parlour.loadtest.procs import rss_bytes


def tree_rss(pid: int) -> int:
    """RSS of a process and its children (the bot workers)."""
    total = rss_bytes(pid) or 0
    for child in Path(f"/proc/{pid}/task").glob("*/children"):
        for c in child.read_text().split():
            total += tree_rss(int(c))
    return total


BOMB_KB = (90, 180, 966)


def bomb_record(kilobytes: int, seed: int = 1) -> bytes:
    """A Fan Tan record of about ``kilobytes`` KB, mostly passes under ``strict: false``
    (FT-8), as long as FT-11 lets a round go: 8 seats, a card played only after a whole
    circle of passes (about 28 bytes a move)."""
    from parlour import record
    from parlour.games import get_game
    from parlour.match import Match, Shuffler

    g = get_game("fantan")
    deal = Shuffler(seed)
    m = Match.new(g, 8, g.rules(8, {"strict": False, "rounds": 100}), None, deal)
    streak = 0
    for _ in range(int(kilobytes * 1000 / 28.2)):
        if m.needs_deal:
            m.deal(deal.deck())
            streak = 0
        if m.is_over:
            break
        legal = m.current.legal_moves()
        passes = [x for x in legal if g.move_to_json(x).get("pass")]
        cards = [x for x in legal if not g.move_to_json(x).get("pass")]
        pick = passes[0] if passes and (streak < 8 or not cards) else cards[0]
        streak = streak + 1 if passes and pick == passes[0] else 0
        m.apply(pick)
    return json.dumps(record.dump(m)).encode()


class Mix:
    def __init__(self, base: str, deadline: float) -> None:
        self.base = base
        self.deadline = deadline
        self.got: dict[str, Counter] = {k: Counter() for k in (
            "bodies", "creates", "idle", "bot_tables", "spectators", "health",
            "replays", "reviews", "pass_forever")}
        self.replay_ms: list[float] = []
        self.health_ms: list[float] = []
        self.rss: list[int] = []
        self.rng = random.Random(13)
        self.runs: list[Any] = []
        self.hints: Counter = Counter()

    def addr(self, kind: int) -> str:
        return f"172.{16 + kind}.{self.rng.randrange(256)}.{self.rng.randrange(1, 255)}"

    def live(self) -> bool:
        return time.monotonic() < self.deadline

    async def bodies(self, size_mb: int) -> None:
        chunk = b" " * (1 << 20)

        async def body():
            yield b"{\"rounds\": ["
            for _ in range(size_mb):
                yield chunk
            yield b"]}"

        async with httpx.AsyncClient(timeout=30) as http:
            while self.live():
                try:
                    r = await http.post(self.base + "/api/verify", content=body(),
                                        headers={"content-type": "application/json",
                                                 "X-Forwarded-For": self.addr(0)})
                    self.got["bodies"][r.status_code] += 1
                except httpx.HTTPError as e:
                    self.got["bodies"][type(e).__name__] += 1
                await asyncio.sleep(0.05)

    async def creator(self, addresses: int) -> None:
        pool = [self.addr(1) for _ in range(addresses)]
        async with httpx.AsyncClient(timeout=30) as http:
            n = 0
            while self.live():
                addr = pool[n % len(pool)]
                n += 1
                try:
                    r = await http.post(self.base + "/api/tables", headers={
                        "X-Forwarded-For": addr}, json={"game": "fanti", "players": 2})
                    self.got["creates"][r.status_code] += 1
                except httpx.HTTPError as e:
                    self.got["creates"][type(e).__name__] += 1

    async def idle_socket(self) -> None:
        from websockets.asyncio.client import connect

        while self.live():
            try:
                async with connect(ws_url(self.base), open_timeout=10, additional_headers={
                        "X-Forwarded-For": self.addr(2)}) as ws:
                    self.got["idle"]["open"] += 1
                    await ws.wait_closed()
                    self.got["idle"][f"closed {ws.close_code}"] += 1
            except Exception as e:  # noqa: BLE001 -- refused handshakes are counted
                self.got["idle"][type(e).__name__] += 1
                await asyncio.sleep(0.5)

    async def bot_table(self, max_rounds: int) -> None:
        from websockets.asyncio.client import connect

        async with httpx.AsyncClient(timeout=30) as http:
            while self.live():
                r = await http.post(self.base + "/api/tables", headers={
                    "X-Forwarded-For": self.addr(3)}, json={
                    "game": "fanti", "players": 4, "rules": {"rounds": max_rounds},
                    "seats": [{"kind": "bot", "bot": "expert"}] * 4})
                self.got["bot_tables"][r.status_code] += 1
                if r.status_code != 201:
                    await asyncio.sleep(2.0)
                    continue
                j = r.json()
                try:  # watch it: a watched table of bots runs (the worst case)
                    async with connect(ws_url(self.base), additional_headers={
                            "X-Forwarded-For": self.addr(3)}) as ws:
                        await ws.send(json.dumps({"type": "hello", "table": j["table"],
                                                  "watch": j["watch"]}))
                        while self.live():
                            await asyncio.wait_for(ws.recv(), timeout=max(
                                0.1, self.deadline - time.monotonic()))
                except Exception:  # noqa: BLE001
                    pass

    async def replay_bomb(self, label: str, body: bytes, every: float) -> None:
        async with httpx.AsyncClient(timeout=300) as http:
            while self.live():
                t0 = time.monotonic()
                try:
                    r = await http.post(self.base + "/api/replay", content=body, headers={
                        "content-type": "application/json", "X-Forwarded-For": self.addr(5)})
                    self.got["replays"][f"{label} {r.status_code}"] += 1
                    self.got["replays"][f"{label} bytes max"] = max(
                        self.got["replays"][f"{label} bytes max"], len(r.content))
                    self.replay_ms.append((time.monotonic() - t0) * 1000)
                except httpx.HTTPError as e:
                    self.got["replays"][f"{label} {type(e).__name__}"] += 1
                await asyncio.sleep(max(0.0, every - (time.monotonic() - t0)))

    async def reviewer(self, body: bytes) -> None:
        async with httpx.AsyncClient(timeout=300) as http:
            while self.live():
                try:
                    r = await http.post(self.base + "/api/review", content=body, headers={
                        "content-type": "application/json", "X-Forwarded-For": self.addr(6)})
                    self.got["reviews"][r.status_code] += 1
                    if r.status_code in (429, 503):
                        await asyncio.sleep(float(r.headers.get("retry-after", 1)))
                except httpx.HTTPError as e:
                    self.got["reviews"][type(e).__name__] += 1
                    await asyncio.sleep(0.5)

    async def pass_forever(self) -> None:
        """Three seats from two addresses that pass whenever they may (strict: false)."""
        from websockets.asyncio.client import connect

        got = self.got["pass_forever"]
        first, second = self.addr(7), self.addr(7)
        async with httpx.AsyncClient(timeout=30) as http:
            while self.live():
                r = await http.post(self.base + "/api/tables", headers={
                    "X-Forwarded-For": first}, json={
                    "game": "fantan", "players": 3, "name": "Pia",
                    "rules": {"strict": False, "rounds": 100},
                    "seats": [{"kind": "person"}] * 3})
                got[f"create {r.status_code}"] += 1
                if r.status_code != 201:
                    await asyncio.sleep(2.0)
                    continue
                j = r.json()
                key = j["invite_url"].split("#invite=")[1]
                tokens = [j["token"]]
                for name, addr in (("Quin", first), ("Rex", second)):
                    jr = await http.post(f"{self.base}/api/tables/{j['table']}/join", headers={
                        "X-Forwarded-For": addr}, json={"key": key, "name": name})
                    got[f"join {jr.status_code}"] += 1
                    if jr.status_code == 200:
                        tokens.append(jr.json()["token"])
                if len(tokens) < 3:
                    await asyncio.sleep(2.0)
                    continue
                addrs = [first, first, second]
                await asyncio.gather(*(self._passer(connect, j["table"], t, addrs[i], i == 0)
                                       for i, t in enumerate(tokens)),
                                     return_exceptions=True)

    async def _passer(self, connect: Any, table: str, token: str, addr: str,
                      host: bool) -> None:
        got = self.got["pass_forever"]
        async with connect(ws_url(self.base), additional_headers={
                "X-Forwarded-For": addr}) as ws:
            await ws.send(json.dumps({"type": "hello", "table": table, "token": token}))
            mirror = Mirror(copies=False)
            started = False
            while self.live():
                msg = json.loads(await asyncio.wait_for(ws.recv(), timeout=max(
                    0.1, self.deadline - time.monotonic())))
                if msg["type"] == "error":
                    got[f"error {msg['code']}"] += 1
                if not mirror.take(msg):
                    await ws.send(json.dumps({"type": "sync"}))
                    continue
                s = mirror.state
                if not s or ("state" not in msg and "delta" not in msg):
                    continue
                if s["table"]["status"] in ("over", "expired"):
                    got[f"game {s['table']['status']}"] += 1
                    return
                if host and not started and s["table"]["status"] == "waiting" and all(
                        x.get("claimed") for x in s["table"]["seats"]):
                    started = True
                    await ws.send(json.dumps({"type": "start"}))
                v = s.get("view")
                if (v and s.get("commit") and v["current_player"] == s["you"]
                        and not (s.get("pass") or {}).get("auto")):
                    legal = v["legal"]
                    move = next((m for m in legal if m.get("pass")), legal[0] if legal else None)
                    if move is not None:
                        got["moves sent"] += 1
                        await ws.send(json.dumps({"type": "move", "seq": msg["seq"],
                                                  "move": move}))

    async def spectator(self) -> None:
        from websockets.asyncio.client import connect

        while self.live():
            ready = [r for r in self.runs if r.id and r.watch and not r.finished]
            if not ready:
                await asyncio.sleep(0.2)
                continue
            run = self.rng.choice(ready)
            try:
                async with connect(ws_url(self.base), additional_headers={
                        "X-Forwarded-For": self.addr(4)}) as ws:
                    await ws.send(json.dumps({"type": "hello", "table": run.id,
                                              "watch": run.watch}))
                    reply = json.loads(await ws.recv())
                    self.got["spectators"][reply["type"] if reply["type"] != "error"
                                           else reply["code"]] += 1
                    await asyncio.sleep(self.rng.uniform(0.5, 3.0))
            except Exception as e:  # noqa: BLE001
                self.got["spectators"][type(e).__name__] += 1
                await asyncio.sleep(0.5)

    async def health(self, pid: int) -> None:
        """RSS of the server and its workers; /healthz is probed by a process of its own
        (see :func:`probe`), so a busy client loop here does not count as server time."""
        while self.live():
            self.rss.append(tree_rss(pid))
            await asyncio.sleep(0.5)


PROBE = """
import json, sys, time, httpx
url, until, out = sys.argv[1], float(sys.argv[2]), open(sys.argv[3], "w")
with httpx.Client(timeout=10) as http:
    while time.time() < until:
        t0 = time.perf_counter()
        try:
            code = http.get(url).status_code
        except httpx.HTTPError as e:
            code = type(e).__name__
        out.write(json.dumps([code, (time.perf_counter() - t0) * 1000]) + "\\n")
        out.flush()
        time.sleep(0.5)
"""


def probe(url: str, seconds: float, path: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", PROBE, url, str(time.time() + seconds),
                             str(path)])


async def hint_flood(mix: Mix) -> None:
    """A second connection of seat 1 of every honest table asks for a hint on each of
    that seat's turns (the seat's own client plays as usual)."""
    from websockets.asyncio.client import connect

    got = mix.hints

    async def one(run: Any) -> None:
        seat = run.seats[1]
        try:
            async with connect(ws_url(run.urls[0]), additional_headers={
                    "X-Forwarded-For": seat.addr}) as ws:
                await ws.send(json.dumps({"type": "hello", "table": run.id,
                                          "token": seat.token}))
                mirror = Mirror()  # the state, from snapshots and deltas
                while mix.live():
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 60))
                    if msg["type"] == "hint":
                        got["hint"] += 1
                    elif msg["type"] == "error":
                        got[msg["code"]] += 1
                    if not mirror.take(msg):
                        await ws.send(json.dumps({"type": "sync"}))
                        continue
                    s = mirror.state if ("state" in msg or "delta" in msg) else None
                    if s and s["table"]["status"] == "over":
                        return
                    if (s and s["view"] and s["commit"]
                            and s["view"]["current_player"] == s["you"]):
                        await ws.send(json.dumps({"type": "hint", "seq": msg["seq"]}))
        except Exception as e:  # noqa: BLE001
            got[type(e).__name__] += 1

    started: set[int] = set()
    tasks = []
    while mix.live():
        for r in mix.runs:
            if id(r) not in started and r.id and len(r.seats) > 1:
                started.add(id(r))
                tasks.append(asyncio.create_task(one(r)))
        await asyncio.sleep(0.5)
    for t in tasks:
        t.cancel()


async def attack(a: argparse.Namespace, base: str) -> dict[str, Any]:
    """The strangers that need no honest table: bodies, creation floods, idle sockets,
    tables of bots (run in a process of their own, so their work does not slow the
    honest clients' event loop)."""
    mix = Mix(base, time.monotonic() + a.duration)
    tasks = [asyncio.create_task(mix.bodies(a.body_mb)) for _ in range(a.bodies)]
    tasks += [asyncio.create_task(mix.creator(a.creator_addresses)) for _ in range(a.creators)]
    tasks += [asyncio.create_task(mix.idle_socket()) for _ in range(a.idle)]
    tasks += [asyncio.create_task(mix.bot_table(a.max_rounds)) for _ in range(a.bot_tables)]
    bombs = {f"{kb} KB": (a.bomb_dir / f"{kb}.json").read_bytes() for kb in BOMB_KB} if (
        a.bomb_dir) else {}
    if a.bombs:
        tasks += [asyncio.create_task(mix.replay_bomb(f"{label} ({len(body) // 1000} KB sent)",
                                                      body, a.bomb_every))
                  for label, body in bombs.items() for _ in range(a.bombs)]
    if a.reviewers:
        big = json.loads(bombs["966 KB"])
        review = json.dumps({"record": big, "round": 1, "seat": 3}).encode()
        tasks += [asyncio.create_task(mix.reviewer(review)) for _ in range(a.reviewers)]
    tasks += [asyncio.create_task(mix.pass_forever()) for _ in range(a.pass_forever)]
    await asyncio.sleep(a.duration)
    mix.deadline = 0.0
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {k: dict(v) for k, v in mix.got.items()}


async def main_async(a: argparse.Namespace, server: ServerProcess) -> dict[str, Any]:
    attack_file = Path(tempfile.mkdtemp(prefix="parlour-mix-")) / "attack.json"
    deadline = time.monotonic() + a.duration
    mix = Mix(server.base, deadline)
    strangers = [asyncio.create_task(mix.health(server.pid))]
    probe_file = server.workdir / "healthz.jsonl"
    prober = probe(server.base + "/healthz", a.duration, probe_file)
    attacker = subprocess.Popen([sys.executable, __file__, *sys.argv[1:], "--attack-only",
                                 server.base, "--json", str(attack_file),
                                 *(["--bomb-dir", str(a.bomb_dir)] if a.bomb_dir else [])])
    await asyncio.sleep(3.0)  # the strangers are at it before the honest tables arrive

    def seen(runs: list[Any], _stats: Any) -> None:
        mix.runs = runs

    honest = asyncio.create_task(run_tables(
        [server.base], a.tables, duration=a.duration - 10, speed="human", seed=5, ramp=2.0,
        compression=None, bots=2, bot="hard", rules={"rounds": 1}, on_tick=seen))
    strangers.append(asyncio.create_task(hint_flood(mix)))
    strangers += [asyncio.create_task(mix.spectator()) for _ in range(a.spectators)]
    runs, stats = await honest
    mix.deadline = 0.0
    for t in strangers:
        t.cancel()
    await asyncio.gather(*strangers, return_exceptions=True)
    hints = mix.hints
    attacker.wait(a.duration + 60)  # it stops by itself at the end of the duration
    if attack_file.exists():
        for k, v in json.loads(attack_file.read_text()).items():
            mix.got[k].update(v)
    prober.terminate()
    prober.wait(10)
    for line in probe_file.read_text().splitlines():
        code, ms = json.loads(line)
        mix.got["health"][code] += 1
        mix.health_ms.append(ms)
    rtt = [x * 1000 for x in stats.rtts]
    bots = [x * 1000 for x in stats.bot_replies]
    return {
        "honest": {"tables": a.tables, "finished": sum(r.finished for r in runs),
                   "errors": dict(stats.errors), "failures": stats.failures[:5],
                   "move_rtt_ms": {"n": len(rtt), "p50": percentile(rtt, 50),
                                   "p99": percentile(rtt, 99), "max": max(rtt, default=None)},
                   "bot_reply_ms": {"n": len(bots), "p50": percentile(bots, 50),
                                    "p99": percentile(bots, 99), "max": max(bots, default=None)},
                   "client_loop_lag_p99_ms": (percentile(stats.lags, 99) or 0) * 1000},
        "health": {"answers": dict(mix.got["health"]),
                   "p99_ms": percentile(mix.health_ms, 99),
                   "max_ms": max(mix.health_ms, default=None)},
        "rss_peak_mb": max(mix.rss, default=0) / 2**20,
        "strangers": {k: dict(v) for k, v in mix.got.items() if k != "health"},
        "hints": dict(hints),
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tables", type=bench_args.positive, default=8)
    p.add_argument("--duration", type=float, default=120.0)
    p.add_argument("--bodies", type=bench_args.nonnegative, default=1)
    p.add_argument("--body-mb", type=bench_args.nonnegative, default=64)
    p.add_argument("--creators", type=bench_args.nonnegative, default=4)
    p.add_argument("--creator-addresses", type=bench_args.positive, default=16)
    p.add_argument("--spectators", type=bench_args.nonnegative, default=300)
    p.add_argument("--idle", type=bench_args.nonnegative, default=1100)
    p.add_argument("--bot-tables", type=bench_args.nonnegative, default=30)
    p.add_argument("--max-rounds", type=bench_args.positive, default=100)
    p.add_argument("--bombs", type=bench_args.nonnegative, default=1,
                   help="replay bombs of each size (90, 180, 966 KB) at once")
    p.add_argument("--bomb-every", type=float, default=5.0)
    p.add_argument("--reviewers", type=bench_args.nonnegative, default=20)
    p.add_argument("--pass-forever", type=bench_args.nonnegative, default=1)
    p.add_argument("--bot-delay", type=float, default=0.6)
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="a server setting (parlour serve --set), repeatable")
    p.add_argument("--json", type=Path)
    p.add_argument("--warmup", type=float, default=0.0,
                   help="seconds to wait after the start (for servers whose /healthz "
                        "does not say when the bots are ready)")
    p.add_argument("--server-log", type=Path, help="keep a copy of the server's log here")
    p.add_argument("--attack-only", metavar="URL", help=argparse.SUPPRESS)
    p.add_argument("--bomb-dir", type=Path, help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.attack_only:
        got = asyncio.run(attack(a, a.attack_only))
        a.json.write_text(json.dumps(got))
        return 0
    if a.bombs or a.reviewers:  # built before anything starts (seconds of CPU)
        a.bomb_dir = Path(tempfile.mkdtemp(prefix="parlour-bombs-"))
        for kb in BOMB_KB:
            (a.bomb_dir / f"{kb}.json").write_bytes(bomb_record(kb))
    extra = [x for item in a.set for x in ("--set", item)]
    server = ServerProcess(bot_delay=a.bot_delay, round_pause=1.0, extra=extra,
                           env={"PARLOUR_TESTING": "0"}).start(timeout=300)
    try:
        until = time.monotonic() + 120  # the mix measures a running server: bots warm
        while (httpx.get(server.base + "/healthz").json().get("bots", "ready") != "ready"
               and time.monotonic() < until):
            time.sleep(0.2)
        time.sleep(a.warmup)
        out = asyncio.run(main_async(a, server))
    finally:
        if a.server_log:
            a.server_log.write_text(server.log_tail(10**8))
        server.cleanup()
    out["args"] = vars(a) | {"json": str(a.json) if a.json else None}
    text = json.dumps(out, indent=1, default=str)
    print(text)
    if a.json:
        a.json.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
