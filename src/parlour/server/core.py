"""What every part of the table service shares: the tables in memory and what keeps them.

The service (:class:`~parlour.server.service.TableService`) is the one :class:`Core` of
a process. Its parts (the clock, the write path, the intents, the card room...) are
handed it as a ``Core`` and their sibling parts by name when the service wires them,
so no part reaches a sibling through the service object and no part imports the
service: the server's modules import one another without a circle
(tests/architecture/test_import_graph.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from parlour.server.db import Store, TableRow
    from parlour.server.hub import Hub
    from parlour.server.live import LiveTable
    from parlour.server.quotas import Quotas
    from parlour.server.settings import Settings
    from parlour.server.thinking import ThinkPool
    from parlour.server.tokens import KeyRing


class Core(Protocol):
    """The tables of one process and the means every part keeps them with."""

    settings: Settings
    store: Store
    hub: Hub
    tables: dict[str, LiveTable]
    keys: KeyRing
    limits: Quotas
    pool: ThinkPool
    instance: str
    closing: bool

    def load(self, table_id: str) -> LiveTable:
        """The live table, read from the database on first use."""

    def adopt(self, row: TableRow, tail: list[dict[str, Any]] | tuple = ()) -> LiveTable:
        """The live table of a row in hand."""

    def owns(self, t: LiveTable) -> bool:
        """Whether this process runs the table's bots and timers."""

    def running_bot_tables(self) -> list[LiveTable]:
        """The tables of bots only in play here."""
