"""The database: one row per table (its record is its state) and one row per event.

A table is event-sourced: ``tables.record`` is the ``parlour-record/1`` record of the
game so far and the live state is ``record.load(record)``. Every accepted event is
written in one transaction that inserts ``events(table_id, seq)`` (primary key: the
same sequence number can never be written twice) and moves ``tables.seq`` from the
expected value to the next (``WHERE seq = expected``): a stale writer changes nothing.
SQLite is the embedded default; PostgreSQL works by URL.
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import (
    JSON,
    Float,
    ForeignKey,
    Integer,
    String,
    create_engine,
    event,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker


class Base(DeclarativeBase):
    pass


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
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)


class EventRow(Base):
    """One accepted event: a deal or a move. ``(table_id, seq)`` is unique."""

    __tablename__ = "events"

    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tables.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[float] = mapped_column(Float)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)


class Conflict(RuntimeError):
    """The table moved on since it was read: the write was not applied."""


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL and a busy timeout."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


class Store:
    """Reads and writes tables; every write is one short transaction."""

    def __init__(self, url: str) -> None:
        self.engine = make_engine(url)
        Base.metadata.create_all(self.engine)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)

    def close(self) -> None:
        self.engine.dispose()

    def add(self, row: TableRow) -> None:
        with self.sessions.begin() as s:
            s.add(row)

    def get(self, table_id: str) -> TableRow | None:
        with self.sessions() as s:
            return s.get(TableRow, table_id)

    def ids_with_status(self, *statuses: str) -> list[str]:
        with self.sessions() as s:
            return list(s.scalars(select(TableRow.id).where(TableRow.status.in_(statuses))))

    def idle(self, before: float) -> list[str]:
        """Open tables untouched since ``before``."""
        with self.sessions() as s:
            q = select(TableRow.id).where(TableRow.status.in_(("waiting", "playing")),
                                          TableRow.updated < before)
            return list(s.scalars(q))

    def set(self, table_id: str, **values: Any) -> None:
        """Change table fields that are not game events (seats, status, rematch)."""
        values.setdefault("updated", time.time())
        with self.sessions.begin() as s:
            s.execute(update(TableRow).where(TableRow.id == table_id).values(**values))

    def commit_event(self, table_id: str, expected_seq: int, data: dict[str, Any],
                     **values: Any) -> int:
        """Write event ``expected_seq + 1`` and the new table fields, atomically.

        Raises :class:`Conflict` (nothing written) when the table is no longer at
        ``expected_seq``.
        """
        now = time.time()
        new_seq = expected_seq + 1
        try:
            with self.sessions.begin() as s:
                s.add(EventRow(table_id=table_id, seq=new_seq, at=now, data=data))
                s.flush()
                res = s.execute(
                    update(TableRow)
                    .where(TableRow.id == table_id, TableRow.seq == expected_seq)
                    .values(seq=new_seq, updated=now, **values)
                )
                if res.rowcount != 1:
                    raise Conflict(f"table {table_id} is no longer at seq {expected_seq}")
        except IntegrityError:
            raise Conflict(f"event {new_seq} of table {table_id} already exists") from None
        return new_seq

    def events(self, table_id: str) -> list[EventRow]:
        with self.sessions() as s:
            q = select(EventRow).where(EventRow.table_id == table_id).order_by(EventRow.seq)
            return list(s.scalars(q))
