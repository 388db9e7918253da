"""The rated games' tables (created by the store with the others; read and written by
:mod:`parlour.server.rated`, which describes them)."""

from __future__ import annotations

from sqlalchemy import Boolean, Float, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from parlour.server.base import Base


class RatingRow(Base):
    """A player's rating in one pool (a game and table size)."""

    __tablename__ = "ratings"

    player_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    pool: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    updated: Mapped[float] = mapped_column(Float)

    __table_args__ = (Index("ix_ratings_pool_mu", "pool", "mu"),)


class RatedGameRow(Base):
    """A rated game, numbered in the order its result was written."""

    __tablename__ = "rated_games"

    n: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(32), unique=True)
    pool: Mapped[str] = mapped_column(String(32))
    finished: Mapped[float] = mapped_column(Float)
    players: Mapped[int] = mapped_column(Integer)


class RatingChangeRow(Base):
    """One seat of a rated game: who, their place, and their rating before and after."""

    __tablename__ = "rating_changes"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(String(64), index=True)
    pool: Mapped[str] = mapped_column(String(32))
    finished: Mapped[float] = mapped_column(Float)
    place: Mapped[int] = mapped_column(Integer)
    total: Mapped[int] = mapped_column(Integer)
    gone: Mapped[bool] = mapped_column(Boolean)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
