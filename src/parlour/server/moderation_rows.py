"""The database rows of moderation: reports, sanctions in force, and the log of every
operator action."""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, Float, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from parlour.server.base import Base


class ReportRow(Base):
    """A player reported another, from a table or a profile."""

    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[float] = mapped_column(Float, index=True)
    reporter: Mapped[str] = mapped_column(String(64))
    target: Mapped[str] = mapped_column(String(64), index=True)
    target_name: Mapped[str] = mapped_column(String(64))
    reason: Mapped[str] = mapped_column(Text)
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    chat: Mapped[list[Any]] = mapped_column(JSON)
    """The table's chat lines when the report was made (chat is kept in memory only)."""
    status: Mapped[str] = mapped_column(String(16), index=True)
    """``open`` until an operator closes it."""


class SanctionRow(Base):
    """What a player may not do, until when (epoch seconds; None: for good)."""

    __tablename__ = "sanctions"

    player_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    """``mute`` (no chat), ``suspend`` (no new tables, seats or pools) or ``ban``."""
    until: Mapped[float | None] = mapped_column(Float, nullable=True)
    reason: Mapped[str] = mapped_column(Text)


class ModLogRow(Base):
    """One operator action, as it was done."""

    __tablename__ = "moderation_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[float] = mapped_column(Float)
    actor: Mapped[str] = mapped_column(String(64))
    action: Mapped[str] = mapped_column(String(16))
    target: Mapped[str] = mapped_column(String(64))
    reason: Mapped[str] = mapped_column(Text)
    until: Mapped[float | None] = mapped_column(Float, nullable=True)


REPORTS = ReportRow.__table__
SANCTIONS = SanctionRow.__table__
MODLOG = ModLogRow.__table__
