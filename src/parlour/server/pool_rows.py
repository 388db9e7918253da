"""The database rows of the pairing pools (server/pools.py): one per person waiting.

An entry stays after its holder is paired (``table_id``, ``seat``), so counting the
people of a pool who play is a join with ``tables``; old entries are deleted.
"""

from __future__ import annotations

from sqlalchemy import Float, Index, Integer, String, text
from sqlalchemy.orm import Mapped, mapped_column

from parlour.server.base import Base


class PoolEntryRow(Base):
    """One person in one pool: waiting, paired (at ``table_id``, ``seat``), filled
    (with computer players), left, or gone (stopped asking)."""

    __tablename__ = "pool_entries"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    ticket_hash: Mapped[str] = mapped_column(String(64), unique=True)
    """SHA-256 of the ticket its holder asks with (the ticket itself is never stored)."""
    player_id: Mapped[str] = mapped_column(String(64), index=True)
    name: Mapped[str] = mapped_column(String(64))
    game: Mapped[str] = mapped_column(String(16))
    players: Mapped[int] = mapped_column(Integer)
    rating: Mapped[float] = mapped_column(Float)
    entered: Mapped[float] = mapped_column(Float)
    seen: Mapped[float] = mapped_column(Float)
    """When its holder last asked: an entry not asked about for ``pool_stale`` leaves."""
    status: Mapped[str] = mapped_column(String(16), index=True)
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seat_hash: Mapped[str] = mapped_column(String(64))
    """The hash of the seat token derived from the ticket: set on the seat at pairing,
    so the server never holds the token itself."""
    rejoin_hash: Mapped[str] = mapped_column(String(64))

    __table_args__ = (
        # One waiting entry per person, whichever process took it: nobody sits at two
        # new tables at once.
        Index("pool_one_waiting", "player_id", unique=True,
              sqlite_where=text("status = 'waiting'"),
              postgresql_where=text("status = 'waiting'")),
    )


POOL = PoolEntryRow.__table__
