"""Pairing pools: "Play people". One pool per game and table size, kept in the database
so that every process of a cluster pairs from the same pool.

A person enters with a *ticket* (a secret shown once; only its hash is stored) and asks
with it until they are paired. Each process runs pairing rounds
(:func:`parlour.server.pairing.pair`) over the waiting entries; a group is claimed in
one transaction that moves every entry from ``waiting`` to ``paired`` only if all of
them are still waiting (else nothing is written) and inserts the new table: nobody is
paired twice, and a table exists exactly when its players were paired. The database
work of a request or a round runs in a worker thread (one connection each), so the
event loop serves other people while PostgreSQL answers. The seat tokens
are derived from the tickets (their hashes were stored at entry), so no token is ever
written down. A pairing is announced with PostgreSQL ``NOTIFY`` (the cluster's
existing channel) with the entries it seated, so the process holding each of their
questions answers it at once; nobody else is woken (a pairing wakes its own people, not
everyone waiting).

On PostgreSQL one process of the cluster runs a pairing round at a time (a session
advisory lock, tried, never waited for): two processes pairing the same people would
each do the whole round's work and one of them would have every claim refused.

After ``pool_fill_after`` seconds a person may ask for computer players in the empty
seats instead (the table is then unrated). An entry whose holder stops asking for
``pool_stale`` seconds leaves the pool, so nobody is paired with someone gone.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import logging
import math
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, insert, or_, select, text, update
from sqlalchemy.exc import IntegrityError

from parlour.games import get_game
from parlour.server import names
from parlour.server.db import TABLES, TableRow
from parlour.server.errors import ServiceError
from parlour.server.limits import PerAddress, refuse_if_waiting
from parlour.server.live import LiveTable, SeatInfo
from parlour.server.pairing import Bands, Waiter, blocked_by, pair
from parlour.server.pool_rows import POOL
from parlour.server.protocol import Joined
from parlour.server.social_rows import BLOCKS
from parlour.server.tokens import hash_token, new_table_id

if TYPE_CHECKING:
    from parlour.server.core import Core
    from parlour.server.intents import Intents
    from parlour.server.writes import Writer

log = logging.getLogger("parlour.server")

DEFAULT_RATING = 1500.0
"""The rating of a player who has none yet (``ratings.BASE``)."""
KEEP = 3600.0
"""Seconds an entry that is no longer waiting is kept (the counts of who plays)."""
ROUND_LOCK = 0x7061726C_706F6F6C
"""The PostgreSQL advisory lock key of a pairing round ("parlpool")."""
ASK_THREADS = 4
"""Worker threads for the database work of pool requests (a connection each at most)."""
COUNTS_EVERY = 1.0
"""Seconds the pools' counts are kept; after a change here, 0.1 s."""


def derived(ticket: str, purpose: str) -> str:
    """The seat token (``purpose="seat"``) or rejoin key of a ticket's seat."""
    mac = hmac.new(ticket.encode("utf-8"), f"parlour-pool-{purpose}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()).decode("ascii").rstrip("=")


def _key(ticket_hash: str) -> str:
    """What a pairing announces of an entry (short; the ticket's hash is known only to
    the database and its holder's questions)."""
    return ticket_hash[:16]


def _seat_owners() -> Any:
    try:
        from parlour.server.people import SeatOwnerRow
    except ImportError:  # a server without identities
        return None
    return SeatOwnerRow.__table__


class _Taken(Exception):
    """An entry of a group was no longer waiting when it was claimed."""


class Pools:
    """The pools as one process sees them (the state is in the database)."""

    # Sibling parts, handed over by the service (TableService.__init__).
    writer: Writer
    intents: Intents

    def __init__(self, svc: Core) -> None:
        self.svc = svc
        st = svc.settings
        self.bands = Bands(st.pool_band, st.pool_band_per_second, st.pool_band_open_after)
        self.enter_limit = PerAddress(st.pool_enter_per_minute / 60.0, st.pool_enter_burst)
        self.ask_limit = PerAddress(st.pool_asks_per_minute / 60.0, st.pool_asks_burst)
        self._asking: dict[str, asyncio.Event] = {}
        """:func:`_key` of an entry -> set when it is seated or leaves (its held question
        answers at once)."""
        self._kick = asyncio.Event()
        self._task: asyncio.Task | None = None
        self._counts: tuple[float, dict[tuple[str, int], tuple[int, int]]] = (-math.inf, {})
        self._dirty = False
        """Entries changed here since the counts were taken."""
        self._counting = asyncio.Lock()
        self._starting: set[asyncio.Task] = set()
        self._threads = ThreadPoolExecutor(ASK_THREADS, thread_name_prefix="parlour-pools")
        """The database work of pool requests (their own threads: a crowd of waiting
        people never queues before other work of the server's default threads)."""
        self._round_thread = ThreadPoolExecutor(1, thread_name_prefix="parlour-pairing")
        """The rounds' database work: never queued behind the questions."""
        """Tables being started (held here so that they are not collected)."""
        self._swept = -math.inf
        self.paired_here = 0
        self.rounds = 0
        """Pairing rounds run here (tests wait on it)."""

    # --- lifecycle --------------------------------------------------------------------

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    def _db(self, fn: Any, *args: Any, rounds: bool = False) -> Any:
        """``fn(*args)`` in a worker thread (the rounds' own, or the requests'), awaitable."""
        pool = self._round_thread if rounds else self._threads
        return asyncio.get_running_loop().run_in_executor(pool, fn, *args)

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
        self._threads.shutdown(wait=False)
        self._round_thread.shutdown(wait=False)
        for ev in self._asking.values():
            ev.set()
        self._asking.clear()

    def heard(self, what: str) -> None:
        """Another process announced (``NOTIFY``) an entry (``enter``: a round here may
        pair it) or a pairing (``paired:KEY,KEY``: answer those entries' questions)."""
        kind, _, keys = what.partition(":")
        if kind == "paired":
            self._wake(keys.split(",") if keys else ())
            self._dirty = True
        else:
            self._kick.set()

    def _wake(self, keys: Any) -> None:
        """Answer the held questions of the entries of ``keys`` (seated or gone)."""
        for k in keys:
            ev = self._asking.pop(k, None)
            if ev is not None:
                ev.set()

    @property
    def held(self) -> int:
        """Questions held open here now (``/metrics``: ``parlour_pool_questions_held``)."""
        return len(self._asking)

    def _unlisten(self, key: str, ev: asyncio.Event) -> None:
        if self._asking.get(key) is ev:
            del self._asking[key]

    async def _run(self) -> None:
        every = self.svc.settings.pool_every
        last_clean = 0.0
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._kick.wait(), every)
            self._kick.clear()
            try:
                with self._turn() as mine:
                    if mine:  # else another process is pairing: it has been told of
                        await self.match()  # every entry (NOTIFY), so it pairs them
                if time.time() - last_clean > 60:
                    last_clean = time.time()
                    self._clean()
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the database may be briefly away: next round
                log.warning("pool pairing failed: %s", e)

    @contextlib.contextmanager
    def _turn(self) -> Any:
        """Whether this process may run a pairing round now: on PostgreSQL when it holds
        the cluster's round lock (for the round), else always (SQLite: one process)."""
        store = self.svc.store
        if not store.postgres:
            yield True
            return
        with store.engine.connect() as c:
            mine = bool(c.scalar(text("SELECT pg_try_advisory_lock(:k)"), {"k": ROUND_LOCK}))
            c.commit()
            try:
                yield mine
            finally:
                if mine:
                    try:
                        c.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": ROUND_LOCK})
                        c.commit()
                    except Exception:  # closing its session is what frees the lock then
                        c.invalidate()

    @staticmethod
    def rating_in(c: Any, player: str, game: str, players: int) -> float:
        """The rating people see for ``player`` at this game and size (a newcomer's
        when they have none), read on connection ``c``."""
        from parlour.server import ratings
        from parlour.server.rated import RatingRow

        table = RatingRow.__table__
        mu = c.scalar(select(table.c.mu).where(
            table.c.player_id == player, table.c.pool == ratings.pool_of(game, players)))
        return float(ratings.shown(mu)) if mu is not None else DEFAULT_RATING

    # --- entering, asking, leaving -------------------------------------------------------

    def _limit(self, bucket: PerAddress, addr: str, what: str) -> None:
        refuse_if_waiting(bucket.allow(addr), f"too many {what} from your address")

    async def enter(self, player: str, name: str, game_name: str, players: int,
                    addr: str = "local") -> dict[str, Any]:
        """Put a person in a pool (leaving any other pool they were in); their ticket."""
        st = self.svc.settings
        try:
            game = get_game(game_name)
            game.check_players(players)
        except ValueError as e:
            raise ServiceError(400, "bad_pool", str(e)) from None
        self._limit(self.enter_limit, addr, "pool entries")
        if await self.waiting_total() >= st.pool_max_waiting:
            raise ServiceError(503, "busy", "the pools hold as many people as they can: "
                               "try again in a minute", {"Retry-After": "60"})
        ticket = secrets.token_urlsafe(32)
        now = time.time()
        row = {"id": secrets.token_urlsafe(12), "ticket_hash": hash_token(ticket),
               "player_id": player, "name": name, "game": game.name, "players": players,
               "rating": DEFAULT_RATING, "entered": now, "seen": now, "status": "waiting",
               "table_id": None, "seat": None,
               "seat_hash": hash_token(derived(ticket, "seat")),
               "rejoin_hash": hash_token(derived(ticket, "rejoin"))}
        store = self.svc.store

        def write() -> None:  # in a worker thread: one connection, one transaction
            with store.engine.begin() as c:
                row["rating"] = self.rating_in(c, player, game.name, players)
                c.execute(update(POOL).where(POOL.c.player_id == player,
                                             POOL.c.status == "waiting")
                          .values(status="left", seen=now))
                c.execute(insert(POOL).values(**row))
                store._notify(c, "pool:enter")

        for attempt in range(3):
            try:
                await self._db(write)
                break
            except IntegrityError:  # the same person entering on another process now
                if attempt == 2:
                    raise ServiceError(409, "busy", "you are entering a pool elsewhere at "
                                       "this moment: try again") from None
        self._kick.set()
        self._dirty = True
        return {"ticket": ticket, **(await self._status(row, now))}

    async def _row(self, ticket: str, seen_after: float | None = None) -> dict[str, Any]:
        """The ticket's entry (404 when unknown). With ``seen_after``, a waiting entry
        last seen before then is marked seen now, in the same transaction."""
        engine = self.svc.store.engine

        def read() -> Any:  # in a worker thread
            with engine.begin() as c:
                r = c.execute(select(POOL).where(POOL.c.ticket_hash == hash_token(ticket))).first()
                if (r is not None and seen_after is not None and r.status == "waiting"
                        and r.seen < seen_after):
                    c.execute(update(POOL).where(POOL.c.id == r.id, POOL.c.status == "waiting")
                              .values(seen=time.time()))
                return r

        r = await self._db(read)
        if r is None:
            raise ServiceError(404, "not_found", "this pool ticket is unknown or has "
                               "expired: press Play people again")
        return dict(r._mapping)

    async def _status(self, row: dict[str, Any], now: float) -> dict[str, Any]:
        st = self.svc.settings
        waited = max(0.0, now - row["entered"])
        waiting, playing = await self._pool_counts(row)
        band = self.bands.of(waited)
        out: dict[str, Any] = {
            "status": row["status"], "game": row["game"], "players": row["players"],
            "waited": round(waited, 1), "band": None if math.isinf(band) else round(band),
            "fill": row["status"] == "waiting" and waited >= st.pool_fill_after,
            "fill_after": st.pool_fill_after, "waiting": waiting, "playing": playing}
        return out

    async def ask(self, ticket: str, addr: str = "local", wait: bool = True,
                  shown: tuple[int, int] | None = None) -> dict[str, Any]:
        """Where the ticket's holder stands; while waiting, the answer is held until
        they are seated, computer players are first offered, the pool's (waiting,
        playing) counts differ from ``shown`` (what their page shows), or ``pool_wait``
        seconds have passed."""
        self._limit(self.ask_limit, addr, "pool requests")
        st = self.svc.settings
        deadline = time.monotonic() + (st.pool_wait if wait else 0.0)
        key = _key(hash_token(ticket))
        offered: bool | None = None  # whether computer players were offered at the start
        while True:
            # Listening before reading: a pairing made while the row is read still wakes.
            changed = self._asking.setdefault(key, asyncio.Event())
            try:  # still here: written only now and then (the stale sweep's margin is wide)
                row = await self._row(ticket, seen_after=time.time() - min(5.0, st.pool_stale / 4))
            except BaseException:
                self._unlisten(key, changed)
                raise
            now = time.time()
            left = deadline - time.monotonic()
            fill = now - row["entered"] >= st.pool_fill_after
            offered = fill if offered is None else offered
            if (row["status"] != "waiting" or left <= 0 or fill != offered
                    or (shown is not None and await self._pool_counts(row) != shown)):
                self._unlisten(key, changed)
                return await self._answer(ticket, row, now)
            # Looked at again when this entry is seated (here, or announced by another
            # process), when computer players are first offered, and every few seconds
            # in any case (a lost announcement, the counts, SQLite).
            nap = min(left, st.pool_recheck)
            offer = row["entered"] + st.pool_fill_after - now
            if offer > 0:
                nap = min(nap, offer + 0.05)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), nap)
            self._unlisten(key, changed)

    async def _pool_counts(self, row: dict[str, Any]) -> tuple[int, int]:
        """(waiting, playing) in the pool of the entry ``row``."""
        return (await self.counts()).get((row["game"], row["players"]), (0, 0))

    async def _answer(self, ticket: str, row: dict[str, Any], now: float) -> dict[str, Any]:
        out = await self._status(row, now)
        if row["status"] in ("paired", "filled") and row["table_id"]:
            from parlour.server.intents import joined

            t = self.svc.load(row["table_id"])
            j = joined(t, row["seat"], derived(ticket, "seat"), derived(ticket, "rejoin"))
            out["joined"] = j.model_dump()
        return out

    async def leave(self, ticket: str, addr: str = "local") -> dict[str, Any]:
        self._limit(self.ask_limit, addr, "pool requests")
        row = await self._row(ticket)

        def write() -> None:
            with self.svc.store.engine.begin() as c:
                c.execute(update(POOL).where(POOL.c.id == row["id"], POOL.c.status == "waiting")
                          .values(status="left", seen=time.time()))

        await self._db(write)
        self._wake([_key(row["ticket_hash"])])
        self._dirty = True
        row = await self._row(ticket)
        return await self._answer(ticket, row, time.time())

    async def fill(self, ticket: str, addr: str = "local") -> dict[str, Any]:
        """Computer players in the empty seats, for someone who has waited long enough."""
        self._limit(self.ask_limit, addr, "pool requests")
        row = await self._row(ticket)
        now = time.time()
        if row["status"] == "waiting" and now - row["entered"] < self.svc.settings.pool_fill_after:
            wait = math.ceil(self.svc.settings.pool_fill_after - (now - row["entered"]))
            raise ServiceError(409, "too_soon", f"computer players are offered after a "
                               f"minute's wait: {wait} s to go", {"Retry-After": str(wait)})
        if row["status"] == "waiting":
            await self._seat([[row]], fill=True)
            row = await self._row(ticket)
        if row["status"] not in ("paired", "filled"):
            raise ServiceError(409, "not_waiting", "you are no longer waiting in this pool")
        return await self._answer(ticket, row, now)

    # --- counting -----------------------------------------------------------------------

    async def counts(self) -> dict[tuple[str, int], tuple[int, int]]:
        """(waiting, playing) per pool, counted at most once a second, or a tenth of a
        second after a change here (a crowd entering does not count at every entry);
        counted in a worker thread, one count at a time."""
        async with self._counting:
            at, cached = self._counts
            age = time.monotonic() - at  # (a step of the wall clock stretches no cache)
            if age < (0.1 if self._dirty else COUNTS_EVERY):
                return cached
            self._dirty = False
            started = time.monotonic()
            try:
                counted = await self._db(self._count, time.time())
            except BaseException:  # not counted (cancelled, database away): still dirty
                self._dirty = True
                raise
            self._counts = (started, counted)
            return counted

    def _count(self, now: float) -> dict[tuple[str, int], tuple[int, int]]:
        out: dict[tuple[str, int], list[int]] = {}
        fresh = now - self.svc.settings.pool_stale
        with self.svc.store.engine.connect() as c:
            q = (select(POOL.c.game, POOL.c.players, func.count())
                 .where(POOL.c.status == "waiting", POOL.c.seen >= fresh)
                 .group_by(POOL.c.game, POOL.c.players))
            for g, n, k in c.execute(q):
                out.setdefault((g, n), [0, 0])[0] = int(k)
            q = (select(POOL.c.game, POOL.c.players, func.count())
                 .select_from(POOL.join(TABLES, TABLES.c.id == POOL.c.table_id))
                 .where(POOL.c.status.in_(("paired", "filled")),
                        TABLES.c.status.in_(("waiting", "playing")))
                 .group_by(POOL.c.game, POOL.c.players))
            for g, n, k in c.execute(q):
                out.setdefault((g, n), [0, 0])[1] = int(k)
        return {k: (v[0], v[1]) for k, v in out.items()}

    async def waiting_total(self) -> int:
        return sum(w for w, _ in (await self.counts()).values())

    async def listing(self) -> list[dict[str, Any]]:
        """Every pool: game, size, how many wait and how many play."""
        from parlour.games import GAMES

        counts = await self.counts()
        return [{"game": g.name, "title": g.title, "players": n,
                 "waiting": counts.get((g.name, n), (0, 0))[0],
                 "playing": counts.get((g.name, n), (0, 0))[1]}
                for g in GAMES.values() for n in range(g.min_players, g.max_players + 1)]

    # --- pairing ------------------------------------------------------------------------

    async def match(self) -> int:
        """One pairing round over every pool; the number of tables made."""
        svc = self.svc
        now = time.time()
        stale = now - svc.settings.pool_stale
        sweep = now - self._swept >= min(1.0, svc.settings.pool_stale / 4)
        if sweep:
            self._swept = now

        def read() -> tuple[int, list[list[dict[str, Any]]]]:
            # In a worker thread, on one connection: the stale sweep (now and then:
            # nobody asks for a stale entry, so nobody is woken), the waiting entries,
            # the blocks among them; then who plays whom (pure CPU, off the event loop).
            with svc.store.engine.begin() as c:
                if sweep and c.execute(update(POOL).where(POOL.c.status == "waiting",
                                                          POOL.c.seen < stale)
                                       .values(status="gone")).rowcount:
                    self._dirty = True
                rows = [dict(r._mapping) for r in c.execute(
                    select(POOL).where(POOL.c.status == "waiting", POOL.c.seen >= stale))]
                ids = {r["player_id"] for r in rows}
                pairs = [(a, b) for a, b in c.execute(
                    select(BLOCKS.c.blocker, BLOCKS.c.blocked).where(
                        or_(BLOCKS.c.blocker.in_(ids), BLOCKS.c.blocked.in_(ids))))] if rows else []
            blocked = blocked_by(pairs)
            by_pool: dict[tuple[str, int], list[dict[str, Any]]] = {}
            for r in rows:
                by_pool.setdefault((r["game"], r["players"]), []).append(r)
            groups: list[list[dict[str, Any]]] = []
            for (_game, size), entries in by_pool.items():
                index = {r["id"]: r for r in entries}
                waiters = [Waiter(r["id"], r["player_id"], r["rating"], r["entered"])
                           for r in entries]
                groups += [[index[w.id] for w in g]
                           for g in pair(waiters, size, now, self.bands, blocked)]
            return len(rows), groups

        waiting, groups = await self._db(read, rounds=True)
        self.rounds += 1
        room = svc.settings.max_open_tables - self.intents.open_tables()
        if not waiting or room <= 0:
            return 0  # full: they wait until a table ends
        return len(await self._seat(groups[:room], fill=False))

    def _config(self, entries: list[dict[str, Any]], size: int, fill: bool) -> dict[str, Any]:
        svc = self.svc
        game = get_game(entries[0]["game"])
        standin = self.intents.default_bot(game.name)
        seats: list[SeatInfo] = []
        taken: set[str] = set()
        for i in range(size):
            if i < len(entries):
                e = entries[i]
                base = e["name"] or f"Player {i + 1}"
                name, n = base, 2
                while names.key(name) in taken:
                    name, n = f"{base} ({n})", n + 1
                seats.append(SeatInfo(name, "person", token_hash=e["seat_hash"],
                                      rejoin_hash=e["rejoin_hash"]))
            else:
                name = f"Computer {i + 1}"
                seats.append(SeatInfo(name, "bot", standin))
            taken.add(names.key(name))
        timer = svc.settings.pool_timer or None
        return {"players": size, "rules": game.rules(size, {}), "timer": timer,
                "standin": standin, "host": 0, "test": None, "hints": True,
                "public": False, "pool": True, "rated": not fill,
                "seats": [s.to_json() for s in seats]}

    async def _seat(self, groups: list[list[dict[str, Any]]], fill: bool) -> list[str]:
        """Claim each group (all its entries still waiting, or nothing of it is written)
        and make its table, all on one connection in a worker thread; then start the
        tables side by side in tasks of their own, each answering its people once it is
        started. The ids of the tables made."""
        svc = self.svc
        status = "filled" if fill else "paired"
        owners = _seat_owners()
        made: list[tuple[TableRow, list[dict[str, Any]]]] = []

        def claim(c: Any, entries: list[dict[str, Any]]) -> TableRow:
            config = self._config(entries, entries[0]["players"], fill)
            now = time.time()
            tid = new_table_id()
            for seat, e in enumerate(entries):
                res = c.execute(update(POOL).where(POOL.c.id == e["id"],
                                                   POOL.c.status == "waiting")
                                .values(status=status, table_id=tid, seat=seat, seen=now))
                if res.rowcount != 1:  # someone left, or another process paired them
                    raise _Taken
            row = TableRow(id=tid, game=entries[0]["game"], status="waiting", created=now,
                           updated=now, config=config, record=None, seq=0, deadline=None,
                           salt=None, log=[], invite_key="", watch_key="", rematch=None)
            c.execute(insert(TABLES).values(
                id=tid, game=row.game, status="waiting", created=now, updated=now,
                config=config, record=None, seq=0, deadline=None, salt=None, log=[],
                invite_key="", watch_key="", rematch=None))
            if owners is not None:  # who sat where: ratings and "your games" read it
                for seat, e in enumerate(entries):
                    if not e["player_id"].startswith("ticket:"):
                        c.execute(insert(owners).values(
                            table_id=tid, seat=seat, player_id=e["player_id"],
                            name=config["seats"][seat]["name"], at=now))
            svc.store._notify(c, "pool:paired:" + ",".join(
                _key(e["ticket_hash"]) for e in entries))
            return row

        def claim_all() -> None:
            with svc.store.engine.connect() as c:
                for entries in groups:  # a transaction each: one refused claim is alone
                    try:
                        with c.begin():
                            made.append((claim(c, entries), entries))
                    except _Taken:  # rolled back: nothing of it was written
                        pass

        await self._db(claim_all, rounds=True)
        if made:
            self._dirty = True
        self.paired_here += len(made)
        for row, entries in made:  # started beside the next round (not under its lock)
            t = svc.adopt(row)
            t.creator = "pool"
            task = asyncio.create_task(self._start(t, [_key(e["ticket_hash"]) for e in entries]))
            self._starting.add(task)
            task.add_done_callback(self._starting.discard)
        return [row.id for row, _ in made]

    async def _start(self, t: LiveTable, keys: list[str]) -> None:
        """Start ``t``, then answer its people's held questions."""
        try:
            async with t.lock:
                if t.status == "waiting":
                    await self.writer.start(t)
        except Exception as e:  # the host's page starts it when they come
            log.warning("pool table %s not started: %s", t.id, e)
        self._wake(keys)

    def _clean(self) -> None:
        before = time.time() - KEEP
        with self.svc.store.engine.begin() as c:
            gone = select(TABLES.c.id).where(TABLES.c.status.in_(("waiting", "playing")))
            c.execute(POOL.delete().where(
                POOL.c.status != "waiting", POOL.c.seen < before,
                or_(POOL.c.table_id.is_(None), POOL.c.table_id.not_in(gone))))


__all__ = ["DEFAULT_RATING", "Joined", "Pools", "derived"]
