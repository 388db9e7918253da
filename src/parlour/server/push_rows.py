"""The push subscriptions' table (:mod:`parlour.server.push`; created by the store)."""

from __future__ import annotations

from sqlalchemy import Float, String
from sqlalchemy.orm import Mapped, mapped_column

from parlour.server.base import Base


class PushRow(Base):
    """One browser's push subscription, under the player who made it."""

    __tablename__ = "push_subscriptions"

    endpoint: Mapped[str] = mapped_column(String(1000), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), index=True)
    p256dh: Mapped[str] = mapped_column(String(200))
    auth: Mapped[str] = mapped_column(String(100))
    created: Mapped[float] = mapped_column(Float)


PUSH = PushRow.__table__
