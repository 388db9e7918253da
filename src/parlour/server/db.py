"""The database: one row per table (its record is its state) and one row per event.

A table is event-sourced: ``tables.record`` is the ``parlour-record/1`` record of the
game so far and the live state is ``record.load(record)``. Every accepted event is
written in one transaction that inserts ``events(table_id, seq)`` (primary key: the
same sequence number can never be written twice) and moves ``tables.seq`` from the
expected value to the next (``WHERE seq = expected``): a stale writer changes nothing.
SQLite is the embedded default; PostgreSQL works by URL.

Several server processes can share one database (``--cluster``): ``leases`` says which
process owns a table (runs its bots and timers) until when, and ``presence`` which
seats are connected to which process. A dead process's leases expire and another
process takes its tables over.
"""

from __future__ import annotations

import contextlib
import time
from typing import Any

from sqlalchemy import (
    JSON,
    Float,
    ForeignKey,
    Integer,
    String,
    bindparam,
    case,
    create_engine,
    delete,
    event,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, IntegrityError
from sqlalchemy.orm import Mapped, mapped_column, sessionmaker

from parlour.server.base import Base


class TableRow(Base):
    """A table: its settings, seats, record and the next server deadline."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16), index=True)
    created: Mapped[float] = mapped_column(Float)
    updated: Mapped[float] = mapped_column(Float, index=True)
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    """players, rules, seats (name, kind, bot, token_hash, auto), timer, standin, host, test."""
    record: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    seq: Mapped[int] = mapped_column(Integer, default=0)
    deadline: Mapped[float | None] = mapped_column(Float, nullable=True)
    """Absolute time (epoch seconds) of the next server action: a bot move, a forced
    pass, a turn timeout or the next deal."""
    salt: Mapped[str | None] = mapped_column(String(128), nullable=True)
    """The salt of the round in play: secret until the round ends."""
    log: Mapped[list[Any]] = mapped_column(JSON)
    invite_key: Mapped[str] = mapped_column(String(64))
    watch_key: Mapped[str] = mapped_column(String(64))
    """Empty: the keys are derived from the server secret (``tokens.KeyRing``), never
    stored. A table made by an earlier version keeps its key's SHA-256 here
    (``sha256:...``), so its old links still open it."""
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)
    snap_seq: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The seq at which ``record`` and ``log`` were last written in full; the moves
    after it are the events with a higher seq (None: both are current)."""


class EventRow(Base):
    """One accepted event: a deal or a move. ``(table_id, seq)`` is unique."""

    __tablename__ = "events"

    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tables.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[float] = mapped_column(Float)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)


class LeaseRow(Base):
    """Which server process owns a table (runs its bots and timers), and until when."""

    __tablename__ = "leases"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    owner: Mapped[str] = mapped_column(String(64), index=True)
    until: Mapped[float] = mapped_column(Float)


class PresenceRow(Base):
    """A seat connected to a server process (renewed while the process lives)."""

    __tablename__ = "presence"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    instance: Mapped[str] = mapped_column(String(64), primary_key=True)
    until: Mapped[float] = mapped_column(Float)


class SecretRow(Base):
    """A server-wide secret (``key_secret``: what table keys are derived from)."""

    __tablename__ = "server_secrets"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


ALSO = "_also"
"""A key of an event's ``values`` (never a column): a function given a :class:`Tx` and
run in the event's own transaction after its write, so that what it writes (a rated
game's result) is stored together with the event or not at all."""


class Tx:
    """SQL inside an event's transaction, on either write path: ``:name`` parameters,
    plain columns only (no JSON)."""

    def __init__(self, execute: Any, dialect: str) -> None:
        self._execute = execute
        self.dialect = dialect

    def rows(self, sql: str, **params: Any) -> list[Any]:
        return self._execute(sql, params)

    def run(self, sql: str, **params: Any) -> None:
        self._execute(sql, params)


def _alchemy_tx(c: Any) -> Tx:
    def execute(sql: str, params: dict[str, Any]) -> list[Any]:
        res = c.execute(text(sql), params)
        return list(res.all()) if res.returns_rows else []
    return Tx(execute, c.dialect.name)


def _split_also(values: dict[str, Any]) -> tuple[dict[str, Any], Any]:
    if ALSO not in values:
        return values, None
    values = dict(values)
    return values, values.pop(ALSO)
class LimitRow(Base):
    """A shared limit (cluster): a token bucket (``tokens`` as of ``stamp``) or a hold
    (``stamp``: until when), keyed by what it limits (``server/quotas.py``)."""

    __tablename__ = "limits"

    key: Mapped[str] = mapped_column(String(96), primary_key=True)
    tokens: Mapped[float] = mapped_column(Float)
    stamp: Mapped[float] = mapped_column(Float, index=True)


class ChatRow(Base):
    """A chat line of a cluster's table: every process reads the lines the others
    wrote (``NOTIFY``, or polling), so everyone at the table reads the same chat."""

    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(32), index=True)
    line: Mapped[dict[str, Any]] = mapped_column(JSON)


class OriginRow(Base):
    """The address class a table was created from (``quotas.address_class``, keyed:
    never the address), so every process counts the open tables of a class."""

    __tablename__ = "origins"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    net: Mapped[str] = mapped_column(String(32), index=True)


class Conflict(RuntimeError):
    """The table moved on since it was read: the write was not applied."""


def unavailable(exc: BaseException) -> bool:
    """Whether ``exc`` says the database is busy or cannot be reached (try again later)."""
    return isinstance(exc, DBAPIError) and not isinstance(exc, IntegrityError)


def _json(value: Any) -> str:
    try:
        import orjson
    except ImportError:  # pragma: no cover -- orjson is a dependency
        import json

        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return orjson.dumps(value).decode("utf-8")


def make_engine(url: str, busy_timeout: float = 0.5, synchronous: str = "NORMAL") -> Engine:
    """An engine for ``url``; SQLite gets WAL and a short busy timeout.

    The timeout is short on purpose: a write that finds the database locked fails
    after ``busy_timeout`` seconds with a clear "try again" to the client instead of
    stalling every table of the process.
    """
    if url.startswith("sqlite"):
        engine = create_engine(url, json_serializer=_json,
                               connect_args={"check_same_thread": False,
                                             "timeout": busy_timeout})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute(f"PRAGMA synchronous={synchronous}")
            # No checkpoint inside a commit (it copies pages and syncs the file, which
            # would stall the event loop): Store.start_checkpoints does it in a thread.
            cur.execute("PRAGMA wal_autocheckpoint=0")
            cur.close()

        return engine
    args = {"connect_timeout": max(1, round(busy_timeout * 4))} if "psycopg" in url else {}
    return create_engine(url, pool_pre_ping=True, json_serializer=_json, connect_args=args,
                         pool_size=10, max_overflow=20)


def shown_url(url: str) -> str:
    """``url`` fit to print: any password replaced by ``***``."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return url


START_PAUSE = 0.5
"""Seconds between two tries of a database that does not answer yet (PostgreSQL still
starting beside the server); how long it is tried is the ``db_start_wait`` setting."""


def start_attempts(start_wait: float) -> int:
    """How many tries ``start_wait`` seconds allow (at least one)."""
    return max(1, int(start_wait / START_PAUSE) + 1)


def _first_line(e: BaseException) -> str:
    said = str(getattr(e, "orig", None) or e).strip()
    return said.splitlines()[0] if said else type(e).__name__


def check_database(url: str, busy_timeout: float = 0.5, start_wait: float = 10.0,
                   waiting: Any = None) -> None:
    """Open ``url`` as the server will, once, so that ``parlour serve`` refuses a
    database it cannot use before it serves anything: an unknown dialect or missing
    driver, a server that does not answer (after the same wait as :class:`Store`),
    or a database whose tables are not parlour's. Raises :class:`ValueError` in words.
    ``waiting(reason)`` is called once if the first try fails and there is time to wait."""
    shown = shown_url(url)
    try:
        engine = make_engine(url, busy_timeout)
    except (ArgumentError, ImportError) as e:  # an unknown dialect or a missing driver
        raise ValueError(f"cannot use the database {shown}: {e}") from None
    try:
        attempts = start_attempts(start_wait)
        for attempt in range(attempts):
            try:
                with engine.connect() as conn:
                    conn.execute(text("SELECT 1"))
                break
            except DBAPIError as e:
                if attempt == attempts - 1:
                    raise ValueError(f"cannot open the database {shown}: "
                                     f"{_first_line(e)}") from None
                if attempt == 0 and waiting is not None:
                    waiting(_first_line(e))
                time.sleep(START_PAUSE)
    finally:
        engine.dispose()
    try:
        # The same tries as the server's own start: processes of a cluster starting
        # together race to create the tables, and the loser's first try fails.
        Store(url, busy_timeout, start_wait=start_wait).close()
    except ValueError as e:
        raise ValueError(f"the database {shown} is not a parlour database: {e}") from None
    except DBAPIError as e:
        raise ValueError(f"the database {shown} is not a parlour database, or not one "
                         f"this version can use: {_first_line(e)}") from None


TABLES = TableRow.__table__
MIGRATED_COLUMNS = frozenset({"snap_seq"})
"""Columns of ``tables`` that :meth:`Store._migrate` adds to a database made before them."""
EVENTS = EventRow.__table__
LEASES = LeaseRow.__table__
PRESENCE = PresenceRow.__table__
SECRETS = SecretRow.__table__
LIMITS = LimitRow.__table__
CHAT = ChatRow.__table__
ORIGINS = OriginRow.__table__


_INSERT_EVENT = insert(EVENTS)

CHANNEL = "parlour_tables"
"""PostgreSQL ``NOTIFY`` channel on which a cluster's processes announce the tables they
changed (payload: ``"<instance> <table id>"``, or ``"<instance> <table id> chat"`` for a
new chat line)."""
_NOTIFY = text(f"SELECT pg_notify('{CHANNEL}', :payload)")
_UPDATES: dict[frozenset[str], Any] = {}


PRIOR = "_prior"
"""A key of an event's ``values`` (not a column): the ``updated`` the writer last read or
wrote. Given, the write also needs the row's ``updated`` unchanged, so a change another
process made since (a seat taken back, freed or left: ``Store.set``) refuses the event
as a :class:`Conflict`, and the writer reads the table again (cluster mode)."""


def _update_for(columns: frozenset[str]) -> Any:
    """The sequence-checked UPDATE of these columns, built once: the statement is the
    same object every time, so SQLAlchemy compiles and caches it only once."""
    stmt = _UPDATES.get(columns)
    if stmt is None:
        cols = sorted((columns - {PRIOR}) | {"seq"})
        where = [TABLES.c.id == bindparam("_id"), TABLES.c.seq == bindparam("_expected")]
        if PRIOR in columns:
            where.append(TABLES.c.updated == bindparam("_prior", type_=Float()))
        stmt = (update(TABLES).where(*where)
                .values({c: bindparam(f"v_{c}", type_=TABLES.c[c].type) for c in cols}))
        _UPDATES[columns] = stmt
    return stmt


JSON_COLUMNS = frozenset(c.name for c in TABLES.columns if isinstance(c.type, JSON))


class SqliteEvents:
    """The event write of a SQLite file through the driver itself: a connection of its
    own, kept open, and two SQL strings the driver prepares once and keeps (its
    statement cache). A move's write is then two statements and a commit, without
    SQLAlchemy's per-statement work (compiling parameters, result objects), which cost
    more than SQLite's own. The statements are those of :meth:`Store.commit_events`'
    SQLAlchemy path: the same rows, the same sequence check."""

    INSERT = "INSERT INTO events (table_id, seq, at, data) VALUES (?, ?, ?, ?)"

    def __init__(self, engine: Engine) -> None:
        self._pooled = engine.raw_connection()  # the engine's pragmas (WAL, timeout)
        self.con: Any = self._pooled.driver_connection
        self._updates: dict[tuple[str, ...], tuple[str, tuple[bool, ...]]] = {}

    def _update(self, columns: tuple[str, ...]) -> tuple[str, tuple[bool, ...]]:
        found = self._updates.get(columns)
        if found is None:
            for c in columns:
                if c not in TABLES.c or c in ("id", "seq"):
                    raise ValueError(f"not a column an event writes: {c!r}")
            sets = ", ".join(f"{c} = ?" for c in columns)
            found = (f"UPDATE tables SET {sets}, seq = ? WHERE id = ? AND seq = ?",
                     tuple(c in JSON_COLUMNS for c in columns))
            self._updates[columns] = found
        return found

    def _update_prior(self, columns: tuple[str, ...]) -> tuple[str, tuple[bool, ...]]:
        """The same UPDATE that also needs ``updated`` unchanged (:data:`PRIOR`)."""
        key = (*columns, PRIOR)
        found = self._updates.get(key)
        if found is None:
            sql, flags = self._update(columns)
            found = (sql + " AND updated = ?", flags)
            self._updates[key] = found
        return found

    def commit(self, batch: list[tuple[str, int, dict[str, Any], dict[str, Any]]]
               ) -> list[int | Conflict]:
        import sqlite3

        con = self.con
        out: list[int | Conflict] = []
        sql = None
        try:
            con.execute("BEGIN IMMEDIATE")  # the write lock now (or busy: try again)
            for table_id, expected, data, values in batch:
                values, also = _split_also(values)
                prior = values.get(PRIOR)
                columns = tuple(c for c in values if c != PRIOR)
                sql, json_flags = (self._update(columns) if prior is None
                                   else self._update_prior(columns))
                params = [_json(values[c]) if j else values[c]
                          for c, j in zip(columns, json_flags, strict=True)]
                params += (expected + 1, table_id, expected)
                if prior is not None:
                    params.append(prior)
                if con.execute(sql, params).rowcount != 1:
                    out.append(Conflict(f"table {table_id} is no longer at seq {expected}"))
                    continue
                sql = self.INSERT
                con.execute(sql, (table_id, expected + 1, values["updated"], _json(data)))
                if also is not None:
                    sql = "(written with the event)"
                    also(Tx(lambda q, p: con.execute(q, p).fetchall(), "sqlite"))
                out.append(expected + 1)
            sql = "COMMIT"
            con.commit()
        except BaseException as e:
            with contextlib.suppress(sqlite3.Error):
                con.rollback()  # never left inside a transaction, whatever went wrong
            if isinstance(e, sqlite3.Error):
                # As SQLAlchemy raises it: callers tell busy from broken the same way.
                raise DBAPIError.instance(sql, None, e, sqlite3.Error) from e
            raise
        return out

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._pooled.close()


class Store:
    """Reads and writes tables; every write is one short transaction."""

    def __init__(self, url: str, busy_timeout: float = 0.5, synchronous: str = "NORMAL",
                 start_wait: float = 10.0) -> None:
        if synchronous.upper() not in ("FULL", "NORMAL", "EXTRA"):
            raise ValueError(f"sqlite_synchronous must be FULL, NORMAL or EXTRA, "
                             f"not {synchronous!r}")
        self.url = url
        self.engine = make_engine(url, busy_timeout, synchronous.upper())
        # The rows of the people in the room live in modules of their own; their tables
        # are made here with the others.
        from parlour.server import (  # noqa: F401
            moderation_rows,
            people,
            pool_rows,
            push_rows,
            rated_rows,
            social_rows,
        )

        attempts = start_attempts(start_wait)
        for attempt in range(attempts):  # a database that is still starting up
            try:
                self._refuse_foreign()
                Base.metadata.create_all(self.engine)
                self._migrate()
                break
            except DBAPIError:
                if attempt == attempts - 1:
                    raise
                time.sleep(START_PAUSE)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        path = self.engine.url.database
        self._fast: SqliteEvents | None = (
            SqliteEvents(self.engine) if url.startswith("sqlite") and path
            and path != ":memory:" and not path.startswith("file:") else None)
        """A SQLite file: events are written through the driver (``SqliteEvents``)."""
        self.notify_as: str | None = None
        """Cluster on PostgreSQL: the instance name sent with a ``NOTIFY`` in the same
        transaction as every change of a table (delivered when it commits)."""

    @property
    def postgres(self) -> bool:
        return self.engine.dialect.name == "postgresql"

    def listen_conninfo(self) -> str:
        """The database URL as psycopg takes it (for the ``LISTEN`` connection)."""
        return self.engine.url.set(drivername="postgresql").render_as_string(
            hide_password=False)

    def _notify(self, c: Any, table_id: str, what: str = "") -> None:
        if self.notify_as is not None:
            tail = f" {what}" if what else ""
            c.execute(_NOTIFY, {"payload": f"{self.notify_as} {table_id}{tail}"})

    def start_checkpoints(self, every: float = 0.5) -> None:
        """SQLite file: copy the write-ahead log into the database in a thread of its
        own (passive checkpoints never block writers), so commits on the event loop
        only append to the log."""
        path = self.engine.url.database
        if not self.url.startswith("sqlite") or not path or path == ":memory:":
            return
        import sqlite3
        import threading

        self._stop = threading.Event()

        def run() -> None:
            con = sqlite3.connect(path, timeout=0.1, check_same_thread=False)
            try:
                while not self._stop.wait(every):
                    with contextlib.suppress(sqlite3.Error):  # busy or locked: next time
                        con.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                with contextlib.suppress(sqlite3.Error):
                    con.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
            finally:
                con.close()

        self._checkpointer = threading.Thread(target=run, name="parlour-checkpoint",
                                              daemon=True)
        self._checkpointer.start()

    def _refuse_foreign(self) -> None:
        """A table named ``tables`` that parlour did not make (another program's database
        given by mistake) is refused before anything is created or altered in it: only
        the columns added since the first version (``_migrate``) may be missing."""
        from sqlalchemy import inspect

        found = inspect(self.engine)
        if "tables" not in found.get_table_names():
            return
        have = {c["name"] for c in found.get_columns("tables")}
        missing = sorted({c.name for c in TABLES.columns} - MIGRATED_COLUMNS - have)
        if missing:
            named = ", ".join(missing[:3]) + (f" and {len(missing) - 3} more"
                                              if len(missing) > 3 else "")
            raise ValueError(f"its table 'tables' is not parlour's (no column {named}); "
                             f"nothing was changed in it")

    def _migrate(self) -> None:
        """Bring a database made by an earlier version up to date: add the columns it
        lacks, and replace the invite and spectator keys it stored in the clear by their
        hashes (the links given out keep working: ``tokens.KeyRing.opens``)."""
        from sqlalchemy import inspect

        from parlour.server.tokens import LEGACY, stored_form

        have = {c["name"] for c in inspect(self.engine).get_columns("tables")}
        if "snap_seq" not in have:
            with self.engine.begin() as c:
                c.execute(text("ALTER TABLE tables ADD COLUMN snap_seq INTEGER"))
        self._add_columns("passkeys", {"label": "VARCHAR(64)", "used": "FLOAT"})

        def hashed(key: str) -> str:
            return key if not key or key.startswith(LEGACY) else stored_form(key)

        clear = ((TABLES.c.invite_key != "") & ~TABLES.c.invite_key.startswith(LEGACY)) | (
            (TABLES.c.watch_key != "") & ~TABLES.c.watch_key.startswith(LEGACY))
        while True:
            with self.engine.begin() as c:
                rows = c.execute(select(TABLES.c.id, TABLES.c.invite_key, TABLES.c.watch_key)
                                 .where(clear).limit(500)).all()
                for r in rows:
                    # Only if still as read: another process may be migrating too.
                    c.execute(update(TABLES).where(
                        TABLES.c.id == r.id, TABLES.c.invite_key == r.invite_key,
                        TABLES.c.watch_key == r.watch_key).values(
                        invite_key=hashed(r.invite_key), watch_key=hashed(r.watch_key)))
            if len(rows) < 500:
                break

    def _add_columns(self, table: str, columns: dict[str, str]) -> None:
        """Add the nullable columns an older database's ``table`` lacks (another process
        adding one at the same moment is fine)."""
        from sqlalchemy import inspect

        if table not in inspect(self.engine).get_table_names():
            return
        have = {c["name"] for c in inspect(self.engine).get_columns(table)}
        for name, kind in columns.items():
            if name not in have:
                try:
                    with self.engine.begin() as c:
                        c.execute(text(f"ALTER TABLE {table} ADD COLUMN {name} {kind}"))
                except DBAPIError:
                    if name not in {c["name"] for c in inspect(self.engine).get_columns(table)}:
                        raise

    def server_secret(self, name: str = "key_secret", make: Any = None) -> str | None:
        """The server secret ``name`` kept in the database; with ``make`` (a function
        returning a fresh one) it is created on first use (the first process to write
        it wins, so every process of a cluster gets the same)."""
        with self.engine.connect() as c:
            value = c.scalar(select(SECRETS.c.value).where(SECRETS.c.name == name))
        if value is not None or make is None:
            return value
        with contextlib.suppress(IntegrityError), self.engine.begin() as c:
            c.execute(insert(SECRETS).values(name=name, value=make()))
        with self.engine.connect() as c:
            return c.scalar(select(SECRETS.c.value).where(SECRETS.c.name == name))

    def close(self) -> None:
        stop = getattr(self, "_stop", None)
        if stop is not None:
            stop.set()
            self._checkpointer.join(5)
        if self._fast is not None:
            self._fast.close()
        self.engine.dispose()

    def get_with_tail(self, table_id: str) -> tuple[TableRow | None, list[dict[str, Any]]]:
        """A table's row and the events written after its last full snapshot (moves),
        read in one transaction."""
        with self.sessions() as s, s.begin():
            row = s.get(TableRow, table_id)
            if row is None or row.snap_seq is None or row.snap_seq >= row.seq:
                return row, []
            q = (select(EventRow.data).where(EventRow.table_id == table_id,
                                             EventRow.seq > row.snap_seq,
                                             EventRow.seq <= row.seq)
                 .order_by(EventRow.seq))
            return row, list(s.scalars(q))

    def add(self, row: TableRow, origin: str | None = None) -> None:
        """A new table (and, with ``origin``, the address class it came from)."""
        with self.sessions.begin() as s:
            s.add(row)
            if origin is not None:
                s.flush()
                s.add(OriginRow(table_id=row.id, net=origin))

    def count_open_from(self, origin: str) -> int:
        """Tables waiting or in play created from the address class ``origin``."""
        from sqlalchemy import func

        with self.engine.connect() as c:
            q = (select(func.count()).select_from(ORIGINS.join(
                TABLES, TABLES.c.id == ORIGINS.c.table_id))
                .where(ORIGINS.c.net == origin, TABLES.c.status.in_(("waiting", "playing"))))
            return int(c.scalar(q) or 0)

    def get(self, table_id: str) -> TableRow | None:
        with self.sessions() as s:
            return s.get(TableRow, table_id)

    def ids_with_status(self, *statuses: str) -> list[str]:
        with self.sessions() as s:
            return list(s.scalars(select(TableRow.id).where(TableRow.status.in_(statuses))))

    def idle(self, before: float, statuses: tuple[str, ...] = ("waiting", "playing")
             ) -> list[str]:
        """Tables of these statuses (open ones by default) untouched since ``before``."""
        with self.sessions() as s:
            q = select(TableRow.id).where(TableRow.status.in_(statuses),
                                          TableRow.updated < before)
            return list(s.scalars(q))

    def delete_finished(self, before: float, limit: int = 500) -> list[str]:
        """Delete finished and expired tables untouched since ``before`` with their
        events, leases and presence rows (at most ``limit`` a call); returns their ids."""
        with self.engine.begin() as c:
            q = (select(TABLES.c.id).where(TABLES.c.status.in_(("over", "expired")),
                                           TABLES.c.updated < before).limit(limit))
            ids = list(c.scalars(q))
            if ids:
                c.execute(delete(CHAT).where(CHAT.c.table_id.in_(ids)))
                c.execute(delete(ORIGINS).where(ORIGINS.c.table_id.in_(ids)))
                for t in (EVENTS, LEASES, PRESENCE):
                    c.execute(delete(t).where(t.c.table_id.in_(ids)))
                c.execute(delete(TABLES).where(TABLES.c.id.in_(ids)))
        return ids

    def count_open(self) -> int:
        """Tables waiting or in play."""
        from sqlalchemy import func

        with self.engine.connect() as c:
            q = select(func.count()).select_from(TABLES).where(
                TABLES.c.status.in_(("waiting", "playing")))
            return int(c.scalar(q) or 0)

    def set(self, table_id: str, **values: Any) -> float:
        """Change table fields that are not game events (seats, status, rematch);
        returns the ``updated`` time written."""
        values.setdefault("updated", time.time())
        with self.engine.begin() as c:
            c.execute(update(TABLES).where(TABLES.c.id == table_id).values(**values))
            self._notify(c, table_id)
        return values["updated"]

    def versions(self, ids: list[str]) -> dict[str, tuple[int, float]]:
        """``(seq, updated)`` of each table: what changed since a process last looked."""
        if not ids:
            return {}
        with self.engine.connect() as c:
            q = select(TABLES.c.id, TABLES.c.seq, TABLES.c.updated).where(TABLES.c.id.in_(ids))
            return {r.id: (r.seq, r.updated) for r in c.execute(q)}

    def commit_event(self, table_id: str, expected_seq: int, data: dict[str, Any],
                     **values: Any) -> int:
        """Write event ``expected_seq + 1`` and the new table fields, atomically.

        Raises :class:`Conflict` (nothing written) when the table is no longer at
        ``expected_seq``.
        """
        values.setdefault("updated", time.time())
        result = self.commit_events([(table_id, expected_seq, data, values)])[0]
        if isinstance(result, Exception):
            raise result
        return result

    def commit_events(self, batch: list[tuple[str, int, dict[str, Any], dict[str, Any]]]
                      ) -> list[int | Conflict]:
        """Write several tables' events in one transaction (a group commit): each item is
        ``(table_id, expected_seq, data, values)`` as :meth:`commit_event` takes it, and
        ``values`` must hold ``updated``. Each item's result is its new sequence number,
        or a :class:`Conflict` when its table is no longer at ``expected_seq`` (that item
        wrote nothing; the others are written). A database error (busy, unreachable)
        raises, and then nothing of the batch is written.
        """
        if not batch:
            return []
        if len(batch) > 1:
            try:
                return self._commit_batch(batch)
            except IntegrityError:  # an event already there: find out which, one by one
                pass
        out: list[int | Conflict] = []
        for item in batch:
            try:
                out.extend(self._commit_batch([item]))
            except IntegrityError:
                out.append(Conflict(f"event {item[1] + 1} of table {item[0]} already exists"))
        return out

    def _commit_batch(self, batch: list[tuple[str, int, dict[str, Any], dict[str, Any]]]
                      ) -> list[int | Conflict]:
        """One transaction for ``batch``; IntegrityError (nothing written) if an event
        row already exists."""
        if self._fast is not None:
            return self._fast.commit(batch)
        out: list[int | Conflict] = []
        with self.engine.begin() as c:
            for table_id, expected, data, values in batch:
                values, also = _split_also(values)
                params = {f"v_{k}": v for k, v in values.items() if k != PRIOR}
                params.update(_id=table_id, _expected=expected, v_seq=expected + 1)
                if PRIOR in values:
                    params["_prior"] = values[PRIOR]
                res = c.execute(_update_for(frozenset(values)), params)
                if res.rowcount != 1:
                    out.append(Conflict(f"table {table_id} is no longer at seq {expected}"))
                    continue
                c.execute(_INSERT_EVENT, {"table_id": table_id, "seq": expected + 1,
                                          "at": values["updated"], "data": data})
                if also is not None:
                    also(_alchemy_tx(c))
                self._notify(c, table_id)
                out.append(expected + 1)
        return out

    def events(self, table_id: str) -> list[EventRow]:
        with self.sessions() as s:
            q = select(EventRow).where(EventRow.table_id == table_id).order_by(EventRow.seq)
            return list(s.scalars(q))

    # --- several processes: leases and presence ----------------------------------------

    def acquire(self, table_id: str, owner: str, until: float, now: float) -> bool:
        """Take (or keep) the lease of a table if it is free, expired or already ours."""
        with self.engine.begin() as c:
            res = c.execute(update(LEASES).where(
                LEASES.c.table_id == table_id,
                (LEASES.c.owner == owner) | (LEASES.c.until < now)).values(owner=owner,
                                                                            until=until))
            if res.rowcount == 1:
                return True
        try:
            with self.engine.begin() as c:
                c.execute(insert(LEASES).values(table_id=table_id, owner=owner, until=until))
            return True
        except IntegrityError:
            return False

    def renew(self, owner: str, until: float) -> set[str]:
        """Extend every lease ``owner`` still holds; returns those tables."""
        with self.engine.begin() as c:
            c.execute(update(LEASES).where(LEASES.c.owner == owner).values(until=until))
            c.execute(update(PRESENCE).where(PRESENCE.c.instance == owner).values(until=until))
            return set(c.scalars(select(LEASES.c.table_id).where(LEASES.c.owner == owner)))

    def release(self, table_id: str, owner: str) -> None:
        with self.engine.begin() as c:
            c.execute(delete(LEASES).where(LEASES.c.table_id == table_id,
                                           LEASES.c.owner == owner))

    def orphans(self, now: float) -> list[str]:
        """Tables in play whose lease is missing or expired."""
        with self.engine.connect() as c:
            q = (select(TABLES.c.id).select_from(TABLES.outerjoin(
                LEASES, LEASES.c.table_id == TABLES.c.id))
                .where(TABLES.c.status == "playing",
                       LEASES.c.table_id.is_(None) | (LEASES.c.until < now)))
            return list(c.scalars(q))

    def present(self, table_id: str, seat: int, instance: str, until: float | None) -> None:
        """Mark a seat connected to ``instance`` (``until`` None: no longer connected)."""
        with self.engine.begin() as c:
            c.execute(delete(PRESENCE).where(PRESENCE.c.table_id == table_id,
                                             PRESENCE.c.seat == seat,
                                             PRESENCE.c.instance == instance))
            if until is not None:
                c.execute(insert(PRESENCE).values(table_id=table_id, seat=seat,
                                                  instance=instance, until=until))

    def attended(self, ids: list[str], now: float) -> set[str]:
        """Of these tables, those with a seat connected to a live process."""
        if not ids:
            return set()
        with self.engine.connect() as c:
            q = select(PRESENCE.c.table_id).where(
                PRESENCE.c.table_id.in_(ids), PRESENCE.c.until >= now, PRESENCE.c.seat >= 0)
            return set(c.scalars(q))

    def present_seats(self, ids: list[str], now: float, other_than: str) -> dict[str, set[int]]:
        """The seats connected to another live process, per table."""
        if not ids:
            return {}
        out: dict[str, set[int]] = {}
        with self.engine.connect() as c:
            q = select(PRESENCE.c.table_id, PRESENCE.c.seat).where(
                PRESENCE.c.table_id.in_(ids), PRESENCE.c.until >= now,
                PRESENCE.c.instance != other_than)
            for r in c.execute(q):
                out.setdefault(r.table_id, set()).add(r.seat)
        return out

    # --- shared limits and chat (cluster) ---------------------------------------------

    def take_token(self, key: str, rate: float, burst: int, now: float) -> float:
        """Take a token from the shared bucket ``key`` (``rate`` a second, at most
        ``burst``): 0.0 when taken, else the seconds until one is there. One statement
        refills and takes, so processes asking at once never both get the last one."""
        refill = LIMITS.c.tokens + (now - LIMITS.c.stamp) * rate
        level = case((refill > burst, float(burst)), else_=refill)
        for _ in range(2):
            with self.engine.begin() as c:
                res = c.execute(update(LIMITS).where(LIMITS.c.key == key, level >= 1)
                                .values(tokens=level - 1, stamp=now))
                if res.rowcount == 1:
                    return 0.0
                row = c.execute(select(LIMITS.c.tokens, LIMITS.c.stamp)
                                .where(LIMITS.c.key == key)).first()
            if row is not None:
                have = min(float(burst), row.tokens + (now - row.stamp) * rate)
                return (1 - have) / rate if rate > 0 else 3600.0
            if burst < 1:
                return 3600.0
            try:
                with self.engine.begin() as c:
                    c.execute(insert(LIMITS).values(key=key, tokens=burst - 1.0, stamp=now))
                return 0.0
            except IntegrityError:  # another process made it first: take from it
                continue
        return 1.0

    def hold(self, key: str, until: float) -> None:
        """A hold on ``key`` until ``until`` (a cool-down), replacing any before."""
        with self.engine.begin() as c:
            c.execute(delete(LIMITS).where(LIMITS.c.key == key))
            c.execute(insert(LIMITS).values(key=key, tokens=0.0, stamp=until))

    def held_until(self, key: str) -> float:
        """Until when ``key`` is held (0.0: not held)."""
        with self.engine.connect() as c:
            v = c.scalar(select(LIMITS.c.stamp).where(LIMITS.c.key == key))
        return float(v or 0.0)

    def prune_limits(self, before: float) -> None:
        """Forget buckets untouched, and holds ended, before ``before``."""
        with self.engine.begin() as c:
            c.execute(delete(LIMITS).where(LIMITS.c.stamp < before))

    def add_chat(self, table_id: str, line: dict[str, Any]) -> int:
        """Store a chat line and announce it; returns its id (ids grow over every
        table)."""
        with self.engine.begin() as c:
            new = c.execute(insert(CHAT).values(table_id=table_id, line=line)
                            ).inserted_primary_key[0]
            self._notify(c, table_id, "chat")
        return int(new)

    def trim_chat(self, table_id: str, keep_from: int) -> None:
        """Drop the table's chat lines older than id ``keep_from``."""
        with self.engine.begin() as c:
            c.execute(delete(CHAT).where(CHAT.c.table_id == table_id, CHAT.c.id < keep_from))

    def chat_after(self, table_id: str, after: int) -> list[tuple[int, dict[str, Any]]]:
        """The table's chat lines with an id above ``after``, oldest first."""
        with self.engine.connect() as c:
            q = (select(CHAT.c.id, CHAT.c.line)
                 .where(CHAT.c.table_id == table_id, CHAT.c.id > after).order_by(CHAT.c.id))
            return [(r.id, r.line) for r in c.execute(q)]

    def last_chat(self, ids: list[str]) -> dict[str, int]:
        """The id of each table's newest chat line (tables with none left out)."""
        if not ids:
            return {}
        from sqlalchemy import func

        with self.engine.connect() as c:
            q = (select(CHAT.c.table_id, func.max(CHAT.c.id)).where(CHAT.c.table_id.in_(ids))
                 .group_by(CHAT.c.table_id))
            return {tid: int(m) for tid, m in c.execute(q)}
