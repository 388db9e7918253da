"""Pairing pools: "Play people". One pool per game and table size, kept in the database
so that every process of a cluster pairs from the same pool.

A person enters with a *ticket* (a secret shown once; only its hash is stored) and asks
with it until they are paired. Each process runs pairing rounds
(:func:`parlour.server.pairing.pair`) over the waiting entries; a group is claimed in
one transaction that moves every entry from ``waiting`` to ``paired`` only if all of
them are still waiting (else nothing is written) and inserts the new table: nobody is
paired twice, and a table exists exactly when its players were paired. The seat tokens
are derived from the tickets (their hashes were stored at entry), so no token is ever
written down. A pairing is announced with PostgreSQL ``NOTIFY`` (the cluster's
existing channel), so the other processes wake their waiting players at once.

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
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from parlour.games import get_game
from parlour.server import names
from parlour.server.db import TABLES, TableRow
from parlour.server.errors import ServiceError
from parlour.server.limits import PerAddress
from parlour.server.live import LiveTable, SeatInfo
from parlour.server.pairing import Bands, Waiter, blocked_by, pair
from parlour.server.pool_rows import POOL
from parlour.server.protocol import Joined
from parlour.server.social_rows import BLOCKS
from parlour.server.tokens import hash_token, new_table_id

if TYPE_CHECKING:
    from parlour.server.service import TableService

log = logging.getLogger("parlour.server")

DEFAULT_RATING = 1500.0
"""The rating of a player who has none yet (``ratings.BASE``)."""
KEEP = 3600.0
"""Seconds an entry that is no longer waiting is kept (the counts of who plays)."""


def derived(ticket: str, purpose: str) -> str:
    """The seat token (``purpose="seat"``) or rejoin key of a ticket's seat."""
    mac = hmac.new(ticket.encode("utf-8"), f"parlour-pool-{purpose}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()).decode("ascii").rstrip("=")


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

    def __init__(self, svc: TableService) -> None:
        self.svc = svc
        st = svc.settings
        self.bands = Bands(st.pool_band, st.pool_band_per_second, st.pool_band_open_after)
        self.enter_limit = PerAddress(st.pool_enter_per_minute / 60.0, st.pool_enter_burst)
        self.ask_limit = PerAddress(st.pool_asks_per_minute / 60.0, st.pool_asks_burst)
        self._changed = asyncio.Event()
        """Set (and replaced) when entries may have changed: waiting requests look again."""
        self._kick = asyncio.Event()
        self._task: asyncio.Task | None = None
        self._counts: tuple[float, dict[tuple[str, int], tuple[int, int]]] = (-math.inf, {})
        self.paired_here = 0
        self.rounds = 0
        """Pairing rounds run here (tests wait on it)."""

    # --- lifecycle --------------------------------------------------------------------

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
        self._wake()

    def heard(self, what: str) -> None:
        """Another process entered or paired someone (``NOTIFY``)."""
        self._kick.set()
        self._wake()

    def _wake(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def _run(self) -> None:
        every = self.svc.settings.pool_every
        last_clean = 0.0
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._kick.wait(), every)
            self._kick.clear()
            try:
                await self.match()
                if time.time() - last_clean > 60:
                    last_clean = time.time()
                    self._clean()
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the database may be briefly away: next round
                log.warning("pool pairing failed: %s", e)

    def rating_of(self, player: str, game: str, players: int) -> float:
        """The rating people see for ``player`` at this game and size (a newcomer's
        when they have none)."""
        from parlour.server import ratings
        from parlour.server.rated import RatingRow

        table = RatingRow.__table__
        with self.svc.store.engine.connect() as c:
            mu = c.scalar(select(table.c.mu).where(
                table.c.player_id == player,
                table.c.pool == ratings.pool_of(game, players)))
        return float(ratings.shown(mu)) if mu is not None else DEFAULT_RATING

    # --- entering, asking, leaving -------------------------------------------------------

    def _limit(self, bucket: PerAddress, addr: str, what: str) -> None:
        wait = bucket.allow(addr)
        if wait > 0:
            secs = math.ceil(wait)
            raise ServiceError(429, "rate_limited", f"too many {what} from your address: "
                               f"try again in {secs} s", {"Retry-After": str(secs)})

    def enter(self, player: str, name: str, game_name: str, players: int,
              addr: str = "local") -> dict[str, Any]:
        """Put a person in a pool (leaving any other pool they were in); their ticket."""
        st = self.svc.settings
        try:
            game = get_game(game_name)
            game.check_players(players)
        except ValueError as e:
            raise ServiceError(400, "bad_pool", str(e)) from None
        self._limit(self.enter_limit, addr, "pool entries")
        if self.waiting_total() >= st.pool_max_waiting:
            raise ServiceError(503, "busy", "the pools hold as many people as they can: "
                               "try again in a minute", {"Retry-After": "60"})
        ticket = secrets.token_urlsafe(32)
        now = time.time()
        row = {"id": secrets.token_urlsafe(12), "ticket_hash": hash_token(ticket),
               "player_id": player, "name": name, "game": game.name, "players": players,
               "rating": float(self.rating_of(player, game.name, players)),
               "entered": now, "seen": now, "status": "waiting", "table_id": None,
               "seat": None, "seat_hash": hash_token(derived(ticket, "seat")),
               "rejoin_hash": hash_token(derived(ticket, "rejoin"))}
        store = self.svc.store
        for attempt in range(3):
            try:
                with store.engine.begin() as c:
                    c.execute(update(POOL).where(POOL.c.player_id == player,
                                                 POOL.c.status == "waiting")
                              .values(status="left", seen=now))
                    c.execute(insert(POOL).values(**row))
                    store._notify(c, "pool:enter")
                break
            except IntegrityError:  # the same person entering on another process now
                if attempt == 2:
                    raise ServiceError(409, "busy", "you are entering a pool elsewhere at "
                                       "this moment: try again") from None
        self._kick.set()
        self._counts = (-math.inf, {})
        return {"ticket": ticket, **self._status(row, now)}

    def _row(self, ticket: str) -> dict[str, Any]:
        with self.svc.store.engine.connect() as c:
            r = c.execute(select(POOL).where(POOL.c.ticket_hash == hash_token(ticket))).first()
        if r is None:
            raise ServiceError(404, "not_found", "this pool ticket is unknown or has "
                               "expired: press Play people again")
        return dict(r._mapping)

    def _status(self, row: dict[str, Any], now: float) -> dict[str, Any]:
        st = self.svc.settings
        waited = max(0.0, now - row["entered"])
        waiting, playing = self.counts().get((row["game"], row["players"]), (0, 0))
        band = self.bands.of(waited)
        out: dict[str, Any] = {
            "status": row["status"], "game": row["game"], "players": row["players"],
            "waited": round(waited, 1), "band": None if math.isinf(band) else round(band),
            "fill": row["status"] == "waiting" and waited >= st.pool_fill_after,
            "fill_after": st.pool_fill_after, "waiting": waiting, "playing": playing}
        return out

    async def ask(self, ticket: str, addr: str = "local", wait: bool = True) -> dict[str, Any]:
        """Where the ticket's holder stands; while waiting, the answer is held until
        something changes or ``pool_wait`` seconds have passed."""
        self._limit(self.ask_limit, addr, "pool requests")
        deadline = time.monotonic() + (self.svc.settings.pool_wait if wait else 0.0)
        while True:
            changed = self._changed
            row = self._row(ticket)
            now = time.time()
            if row["status"] == "waiting":
                with self.svc.store.engine.begin() as c:
                    c.execute(update(POOL).where(POOL.c.id == row["id"],
                                                 POOL.c.status == "waiting").values(seen=now))
            left = deadline - time.monotonic()
            if row["status"] != "waiting" or left <= 0:
                return self._answer(ticket, row, now)
            # Looked at again on a change here or announced by another process, and
            # every few seconds in any case (a lost announcement, or SQLite).
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), min(left, self.svc.settings.pool_recheck))

    def _answer(self, ticket: str, row: dict[str, Any], now: float) -> dict[str, Any]:
        out = self._status(row, now)
        if row["status"] in ("paired", "filled") and row["table_id"]:
            from parlour.server.intents import joined

            t = self.svc.load(row["table_id"])
            j = joined(t, row["seat"], derived(ticket, "seat"), derived(ticket, "rejoin"))
            out["joined"] = j.model_dump()
        return out

    def leave(self, ticket: str, addr: str = "local") -> dict[str, Any]:
        self._limit(self.ask_limit, addr, "pool requests")
        row = self._row(ticket)
        with self.svc.store.engine.begin() as c:
            c.execute(update(POOL).where(POOL.c.id == row["id"], POOL.c.status == "waiting")
                      .values(status="left", seen=time.time()))
        row = self._row(ticket)
        return self._answer(ticket, row, time.time())

    async def fill(self, ticket: str, addr: str = "local") -> dict[str, Any]:
        """Computer players in the empty seats, for someone who has waited long enough."""
        self._limit(self.ask_limit, addr, "pool requests")
        row = self._row(ticket)
        now = time.time()
        if row["status"] == "waiting" and now - row["entered"] < self.svc.settings.pool_fill_after:
            wait = math.ceil(self.svc.settings.pool_fill_after - (now - row["entered"]))
            raise ServiceError(409, "too_soon", f"computer players are offered after a "
                               f"minute's wait: {wait} s to go", {"Retry-After": str(wait)})
        if row["status"] == "waiting":
            await self._seat([row], fill=True)
            row = self._row(ticket)
        if row["status"] not in ("paired", "filled"):
            raise ServiceError(409, "not_waiting", "you are no longer waiting in this pool")
        return self._answer(ticket, row, now)

    # --- counting -----------------------------------------------------------------------

    def counts(self) -> dict[tuple[str, int], tuple[int, int]]:
        """(waiting, playing) per pool, counted at most once a second."""
        at, cached = self._counts
        now = time.time()
        if now - at < 1.0:
            return cached
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
        counted = {k: (v[0], v[1]) for k, v in out.items()}
        self._counts = (now, counted)
        return counted

    def waiting_total(self) -> int:
        return sum(w for w, _ in self.counts().values())

    def listing(self) -> list[dict[str, Any]]:
        """Every pool: game, size, how many wait and how many play."""
        from parlour.games import GAMES

        counts = self.counts()
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
        with svc.store.engine.begin() as c:
            gone = c.execute(update(POOL).where(POOL.c.status == "waiting", POOL.c.seen < stale)
                             .values(status="gone")).rowcount
            rows = [dict(r._mapping) for r in c.execute(
                select(POOL).where(POOL.c.status == "waiting"))]
        self.rounds += 1
        if gone:
            self._wake()
        if not rows:
            return 0
        ids = {r["player_id"] for r in rows}
        with svc.store.engine.connect() as c:
            pairs = [(a, b) for a, b in c.execute(select(BLOCKS.c.blocker, BLOCKS.c.blocked).where(
                or_(BLOCKS.c.blocker.in_(ids), BLOCKS.c.blocked.in_(ids))))]
        blocked = blocked_by(pairs)
        by_pool: dict[tuple[str, int], list[dict[str, Any]]] = {}
        for r in rows:
            by_pool.setdefault((r["game"], r["players"]), []).append(r)
        made = 0
        for (_game, size), entries in by_pool.items():
            index = {r["id"]: r for r in entries}
            waiters = [Waiter(r["id"], r["player_id"], r["rating"], r["entered"])
                       for r in entries]
            for group in pair(waiters, size, now, self.bands, blocked):
                if svc.intents.open_tables() >= svc.settings.max_open_tables:
                    return made  # full: they wait until a table ends
                if await self._seat([index[w.id] for w in group], fill=False):
                    made += 1
        return made

    def _config(self, entries: list[dict[str, Any]], size: int, fill: bool) -> dict[str, Any]:
        svc = self.svc
        game = get_game(entries[0]["game"])
        standin = svc.intents.default_bot(game.name)
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

    async def _seat(self, entries: list[dict[str, Any]], fill: bool) -> bool:
        """Claim ``entries`` (all still waiting, or nothing is written), make their table
        and start it; whether it was made."""
        svc = self.svc
        size = entries[0]["players"]
        config = self._config(entries, size, fill)
        now = time.time()
        tid = new_table_id()
        row = TableRow(id=tid, game=entries[0]["game"], status="waiting", created=now,
                       updated=now, config=config, record=None, seq=0, deadline=None,
                       salt=None, log=[], invite_key="", watch_key="", rematch=None)
        status = "filled" if fill else "paired"
        try:
            with svc.store.engine.begin() as c:
                for seat, e in enumerate(entries):
                    res = c.execute(update(POOL).where(POOL.c.id == e["id"],
                                                       POOL.c.status == "waiting")
                                    .values(status=status, table_id=tid, seat=seat, seen=now))
                    if res.rowcount != 1:  # someone left, or another process paired them
                        raise _Taken
                c.execute(insert(TABLES).values(
                    id=tid, game=row.game, status="waiting", created=now, updated=now,
                    config=config, record=None, seq=0, deadline=None, salt=None, log=[],
                    invite_key="", watch_key="", rematch=None))
                owners = _seat_owners()
                if owners is not None:  # who sat where: ratings and "your games" read it
                    for seat, e in enumerate(entries):
                        if not e["player_id"].startswith("ticket:"):
                            c.execute(insert(owners).values(
                                table_id=tid, seat=seat, player_id=e["player_id"],
                                name=config["seats"][seat]["name"], at=now))
                svc.store._notify(c, "pool:paired")
        except _Taken:  # rolled back: nothing of it was written
            return False
        self.paired_here += 1
        self._counts = (-math.inf, {})
        t = svc.adopt(row)
        t.creator = "pool"
        await self._start(t)
        self._wake()
        return True

    async def _start(self, t: LiveTable) -> None:
        try:
            async with t.lock:
                if t.status == "waiting":
                    await self.svc.writer.start(t)
        except Exception as e:  # the host's page starts it when they come
            log.warning("pool table %s not started: %s", t.id, e)

    def _clean(self) -> None:
        before = time.time() - KEEP
        with self.svc.store.engine.begin() as c:
            gone = select(TABLES.c.id).where(TABLES.c.status.in_(("waiting", "playing")))
            c.execute(POOL.delete().where(
                POOL.c.status != "waiting", POOL.c.seen < before,
                or_(POOL.c.table_id.is_(None), POOL.c.table_id.not_in(gone))))


__all__ = ["DEFAULT_RATING", "Joined", "Pools", "derived"]
