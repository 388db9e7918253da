"""The database rows of people among people: who follows whom, who blocked whom,
invitations to a table, and when a player was last seen (who is online)."""

from __future__ import annotations

from sqlalchemy import Float, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from parlour.server.base import Base


class FollowRow(Base):
    """``follower`` follows ``followed`` (player ids): sees them online, invites them."""

    __tablename__ = "follows"

    follower: Mapped[str] = mapped_column(String(64), primary_key=True)
    followed: Mapped[str] = mapped_column(String(64), primary_key=True, index=True)
    at: Mapped[float] = mapped_column(Float)


class BlockRow(Base):
    """``blocker`` never sits with ``blocked`` in a pool and does not read their chat."""

    __tablename__ = "blocks"

    blocker: Mapped[str] = mapped_column(String(64), primary_key=True)
    blocked: Mapped[str] = mapped_column(String(64), primary_key=True, index=True)
    at: Mapped[float] = mapped_column(Float)


class InviteRow(Base):
    """A player asked a player they follow to their table (the link is derived when
    it is read, never stored)."""

    __tablename__ = "invites"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    to_player: Mapped[str] = mapped_column(String(64), index=True)
    from_player: Mapped[str] = mapped_column(String(64))
    from_name: Mapped[str] = mapped_column(String(64))
    table_id: Mapped[str] = mapped_column(String(32))
    at: Mapped[float] = mapped_column(Float)


class SeenRow(Base):
    """When a player last asked the server anything (any process): online if recent."""

    __tablename__ = "seen"

    player_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    at: Mapped[float] = mapped_column(Float, index=True)


FOLLOWS = FollowRow.__table__
BLOCKS = BlockRow.__table__
INVITES = InviteRow.__table__
SEEN = SeenRow.__table__
