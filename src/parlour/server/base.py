"""The declarative base every table of the server's database is defined on.

Below :mod:`parlour.server.db` and every module of rows, so that the store can import
the rows it creates (``Store.__init__``) while the rows import nothing of the store.
"""

from __future__ import annotations

from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    pass
