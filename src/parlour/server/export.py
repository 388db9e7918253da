"""Finished tables as game records, for research (``parlour admin export-records``).

Only tables whose stored status is ``over`` are read, each as the server itself reads a
table (its record, then the moves saved after its last snapshot), and only a finished
game is given: a game still in play never is (its decks are secret until the end).
Seats are renamed Player 1, 2, ... and ``meta`` dropped unless the operator keeps the
names. Whether this may run at all is the operator's setting ``record_export`` (off by
default; docs/hardening.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from sqlalchemy import select

from parlour import record
from parlour.server.db import Store, TableRow
from parlour.server.live import LiveTable


def finished_records(store: Store, names: bool = False) -> Iterator[dict[str, Any]]:
    """The record of every finished table, in table id order."""
    with store.sessions() as s:
        ids = list(s.scalars(select(TableRow.id).where(TableRow.status == "over")
                             .order_by(TableRow.id)))
    for table_id in ids:
        row, tail = store.get_with_tail(table_id)
        if row is None or row.status != "over":
            continue  # deleted or changed since the list was read
        try:
            match = LiveTable.from_row(row, tail).match
        except (ValueError, record.RecordError):
            continue  # not a game this exporter can vouch for
        if match is None or not match.is_over:
            continue
        out = record.dump(match)
        if not names:
            out["seats"] = [f"Player {i + 1}" for i in range(match.players)]
            out.pop("meta", None)
        yield out
