"""The people of the card room in the database: players (guests and accounts), their
sessions, their passkeys, and who sat in which seat of which table.

The rows share :class:`~parlour.server.db.Base`, so the store creates them with the
tables (``Store.__init__``). A player's ``id`` is random and never shown; a browser
holds only a session secret, of which the database keeps the SHA-256
(:mod:`~parlour.server.identity`). Functions here are short transactions on the store's
engine.
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Float,
    Integer,
    String,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Mapped, mapped_column

from parlour.server.base import Base

FORMER = "Former player"
"""The name a deleted account's seats keep in the records of finished games."""


class PlayerRow(Base):
    """A person: a guest (known by one browser's cookie) or an account."""

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    """Random (``secrets.token_urlsafe(16)``), never shown."""
    name: Mapped[str] = mapped_column(String(64))
    """The name shown (empty for a guest who has not chosen one)."""
    name_key: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    """The casefolded name of an account (unique); None for guests."""
    guest: Mapped[bool] = mapped_column(Boolean, default=True)
    created: Mapped[float] = mapped_column(Float)
    seen: Mapped[float] = mapped_column(Float, default=0.0)
    banned: Mapped[str | None] = mapped_column(String(400), nullable=True)
    """Why the player is banned (shown to them), or None."""
    password: Mapped[str | None] = mapped_column(String(256), nullable=True)
    """The argon2id hash of an account's password (None: passkeys only, or a guest)."""


class SessionRow(Base):
    """A signed-in browser (or a guest's browser): the SHA-256 of its cookie secret."""

    __tablename__ = "sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), index=True)
    created: Mapped[float] = mapped_column(Float)
    expires: Mapped[float] = mapped_column(Float)


class SeatOwnerRow(Base):
    """Who sat in a seat: written when a person takes a seat (create, join, sit,
    rejoin, rematch), so every table knows which player sat where."""

    __tablename__ = "seat_owners"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), index=True)
    name: Mapped[str] = mapped_column(String(64))
    at: Mapped[float] = mapped_column(Float, default=0.0)


class PasskeyRow(Base):
    """A WebAuthn credential of an account (server/passkeys.py)."""

    __tablename__ = "passkeys"

    id: Mapped[str] = mapped_column(String(400), primary_key=True)
    """The credential id, base64url."""
    player_id: Mapped[str] = mapped_column(String(32), index=True)
    public_key: Mapped[str] = mapped_column(String(2000))
    """The COSE public key, base64url."""
    sign_count: Mapped[int] = mapped_column(Integer, default=0)
    created: Mapped[float] = mapped_column(Float)
    transports: Mapped[list[Any]] = mapped_column(JSON, default=list)
    label: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """What its owner calls it (chosen at creation, or ``Passkey N``: passkey_list.py)."""
    used: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When it last signed someone in (None: never yet)."""


class ChallengeRow(Base):
    """A WebAuthn challenge handed out and not yet answered (one use, short-lived)."""

    __tablename__ = "auth_challenges"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    """The SHA-256 of the challenge id the browser holds."""
    challenge: Mapped[str] = mapped_column(String(128))
    purpose: Mapped[str] = mapped_column(String(16))
    data: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    expires: Mapped[float] = mapped_column(Float, index=True)


PLAYERS = PlayerRow.__table__
SESSIONS = SessionRow.__table__
SEAT_OWNERS = SeatOwnerRow.__table__
PASSKEYS = PasskeyRow.__table__
CHALLENGES = ChallengeRow.__table__


# --- players -------------------------------------------------------------------------

def get_player(engine: Engine, player_id: str) -> dict[str, Any] | None:
    with engine.connect() as c:
        row = c.execute(select(PLAYERS).where(PLAYERS.c.id == player_id)).mappings().first()
    return dict(row) if row else None


def player_by_key(engine: Engine, name_key: str) -> dict[str, Any] | None:
    with engine.connect() as c:
        row = c.execute(select(PLAYERS).where(PLAYERS.c.name_key == name_key)
                        ).mappings().first()
    return dict(row) if row else None


def add_player(engine: Engine, player_id: str, name: str = "", *, guest: bool = True,
               name_key: str | None = None, password: str | None = None) -> None:
    now = time.time()
    with engine.begin() as c:
        c.execute(insert(PLAYERS).values(id=player_id, name=name, name_key=name_key,
                                         guest=guest, created=now, seen=now, banned=None,
                                         password=password))


def set_player(engine: Engine, player_id: str, **values: Any) -> None:
    with engine.begin() as c:
        c.execute(update(PLAYERS).where(PLAYERS.c.id == player_id).values(**values))


# --- sessions ------------------------------------------------------------------------

def add_session(engine: Engine, digest: str, player_id: str, expires: float,
                replaces: str | None = None) -> None:
    """A new session (and the one it replaces, if any, gone: rotation)."""
    with engine.begin() as c:
        if replaces:
            c.execute(delete(SESSIONS).where(SESSIONS.c.id == replaces))
        c.execute(insert(SESSIONS).values(id=digest, player_id=player_id,
                                          created=time.time(), expires=expires))


def session_player(engine: Engine, digest: str, now: float) -> dict[str, Any] | None:
    """The player of a live session, with the session's expiry (``expires``)."""
    q = (select(PLAYERS.c.id, PLAYERS.c.name, PLAYERS.c.guest, PLAYERS.c.banned,
                SESSIONS.c.expires)
         .select_from(SESSIONS.join(PLAYERS, PLAYERS.c.id == SESSIONS.c.player_id))
         .where(SESSIONS.c.id == digest, SESSIONS.c.expires > now))
    with engine.connect() as c:
        row = c.execute(q).mappings().first()
    return dict(row) if row else None


def extend_session(engine: Engine, digest: str, expires: float) -> None:
    with engine.begin() as c:
        c.execute(update(SESSIONS).where(SESSIONS.c.id == digest).values(expires=expires))


def end_session(engine: Engine, digest: str) -> None:
    with engine.begin() as c:
        c.execute(delete(SESSIONS).where(SESSIONS.c.id == digest))


def end_sessions(engine: Engine, player_id: str, keep: str | None = None) -> int:
    """End every session of a player (but ``keep``); returns how many ended."""
    with engine.begin() as c:
        q = delete(SESSIONS).where(SESSIONS.c.player_id == player_id)
        if keep:
            q = q.where(SESSIONS.c.id != keep)
        return c.execute(q).rowcount or 0


def delete_expired(engine: Engine, now: float) -> None:
    """Forget expired sessions and challenges."""
    with engine.begin() as c:
        c.execute(delete(SESSIONS).where(SESSIONS.c.expires <= now))
        c.execute(delete(CHALLENGES).where(CHALLENGES.c.expires <= now))


# --- seats ---------------------------------------------------------------------------

def own_seat(engine: Engine, table_id: str, seat: int, player_id: str, name: str) -> None:
    """Record that ``player_id`` took ``seat`` of ``table_id`` (replacing any earlier
    owner of that seat)."""
    own_seats(engine, table_id, [(seat, player_id, name)])


def own_seats(engine: Engine, table_id: str, owners: list[tuple[int, str, str]]) -> None:
    if not owners:
        return
    now = time.time()
    with engine.begin() as c:
        c.execute(delete(SEAT_OWNERS).where(SEAT_OWNERS.c.table_id == table_id,
                                            SEAT_OWNERS.c.seat.in_([o[0] for o in owners])))
        c.execute(insert(SEAT_OWNERS), [{"table_id": table_id, "seat": s, "player_id": p,
                                         "name": n, "at": now} for s, p, n in owners])


def disown_seat(engine: Engine, table_id: str, seat: int) -> None:
    with engine.begin() as c:
        c.execute(delete(SEAT_OWNERS).where(SEAT_OWNERS.c.table_id == table_id,
                                            SEAT_OWNERS.c.seat == seat))


def seat_owners(engine: Engine, table_id: str) -> dict[int, dict[str, Any]]:
    """``seat -> {"player_id", "name"}`` of one table."""
    with engine.connect() as c:
        rows = c.execute(select(SEAT_OWNERS).where(SEAT_OWNERS.c.table_id == table_id)
                         ).mappings().all()
    return {r["seat"]: dict(r) for r in rows}


def seats_of(engine: Engine, player_id: str) -> list[dict[str, Any]]:
    """Every seat a player took: ``{"table_id", "seat", "name", "at"}``, newest first."""
    with engine.connect() as c:
        rows = c.execute(select(SEAT_OWNERS).where(SEAT_OWNERS.c.player_id == player_id)
                         .order_by(SEAT_OWNERS.c.at.desc())).mappings().all()
    return [dict(r) for r in rows]



def last_shared_table(engine: Engine, one: str, other: str) -> str | None:
    """The table where ``one`` and ``other`` both took a seat last, or None."""
    a, b = SEAT_OWNERS.alias("a"), SEAT_OWNERS.alias("b")
    with engine.connect() as c:
        return c.execute(select(a.c.table_id).join(b, b.c.table_id == a.c.table_id)
                         .where(a.c.player_id == one, b.c.player_id == other)
                         .order_by(a.c.at.desc()).limit(1)).scalar()

# --- forgetting a player (account deletion) -----------------------------------------

FORGET_ROWS: dict[str, tuple[str, ...]] = {
    "sessions": ("player_id",), "passkeys": ("player_id",), "seen": ("player_id",),
    "follows": ("follower", "followed"), "blocks": ("blocker", "blocked"),
    "invites": ("to_player", "from_player"), "pool_entries": ("player_id",),
    "sanctions": ("player_id",)}
"""Rows that are the player's own: deleted with the account (table: its player columns)."""
REKEY_ROWS: dict[str, tuple[str, ...]] = {
    "seat_owners": ("player_id",), "reports": ("reporter", "target"),
    "moderation_log": ("actor", "target")}
"""Rows shared with other people's history (who sat where, rated results, reports):
kept, but under a fresh anonymous id, so nothing leads back to the account and
rebuilding the ratings gives the same numbers. Every other table with a ``player_id``
column is treated so too."""
NAME_COLUMNS: dict[str, str] = {"seat_owners": "name", "reports": "target_name"}
"""Columns holding the player's name in kept rows: replaced by :data:`FORMER`."""


def forget(engine: Engine, player_id: str, tombstone: str) -> list[dict[str, Any]]:
    """Delete a player and their own rows; re-key the shared rows to ``tombstone``.
    One transaction. Returns the seats they held (``table_id``, ``seat``), for the
    tables' own copies of the name."""
    seats = seats_of(engine, player_id)
    tables = Base.metadata.tables
    with engine.begin() as c:
        for name, columns in FORGET_ROWS.items():
            if name in tables:
                t = tables[name]
                for col in columns:
                    c.execute(delete(t).where(t.c[col] == player_id))
        rekey = dict(REKEY_ROWS)
        for name, t in tables.items():
            if name not in rekey and name not in FORGET_ROWS and "player_id" in t.c \
                    and name != "players":
                rekey[name] = ("player_id",)
        for name, columns in rekey.items():
            if name not in tables:
                continue
            t = tables[name]
            for col in columns:
                values: dict[str, Any] = {col: tombstone}
                shown = NAME_COLUMNS.get(name)
                if shown and col in ("player_id", "target"):
                    values[shown] = FORMER
                c.execute(update(t).where(t.c[col] == player_id).values(**values))
        c.execute(delete(PLAYERS).where(PLAYERS.c.id == player_id))
    return seats


def passkeys_of(engine: Engine, player_id: str) -> list[dict[str, Any]]:
    with engine.connect() as c:
        rows = c.execute(select(PASSKEYS).where(PASSKEYS.c.player_id == player_id)
                         ).mappings().all()
    return [dict(r) for r in rows]


def sessions_of(engine: Engine, player_id: str) -> list[dict[str, Any]]:
    with engine.connect() as c:
        rows = c.execute(select(SESSIONS).where(SESSIONS.c.player_id == player_id)
                         ).mappings().all()
    return [dict(r) for r in rows]


def rows_of(engine: Engine, player_id: str) -> dict[str, list[dict[str, Any]]]:
    """Every other row about a player (for the export): tables with a ``player_id``
    column, without the columns that hold hashes or secrets."""
    out: dict[str, list[dict[str, Any]]] = {}
    own = {"players", "sessions", "passkeys", "seat_owners", "auth_challenges"}
    with engine.connect() as c:
        for name, t in Base.metadata.tables.items():
            if name in own or "player_id" not in t.c:
                continue
            rows = c.execute(select(t).where(t.c.player_id == player_id)).mappings().all()
            if rows:
                out[name] = [{k: v for k, v in r.items() if k != "player_id"
                              and not k.endswith("hash") and "secret" not in k}
                             for r in rows]
    return out
