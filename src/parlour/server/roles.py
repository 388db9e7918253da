"""The parts of the table service as the parts below them see them.

A part calls the ones it stands on by their classes; where it must call a part that
stands above it (the write path arming the clock that calls it, the clock asking the
coordination that resumes it), it knows that part only by the small face here, and the
service hands it the part itself (server/service.py). So the imports run one way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from parlour.server.live import Action, LiveTable


class Coordination(Protocol):
    """What the service asks about ownership and presence."""

    async def startup(self) -> None:
        """Resume the tables in play that this process runs."""

    def stop(self) -> None:
        """The process is going away: hand back whatever it holds."""

    def owns(self, t: LiveTable) -> bool:
        """Whether this process runs the table's bots and timers."""

    def seat_connected(self, t: LiveTable, seat: int) -> None:
        """A seat said hello here (under the table's lock)."""

    def seat_disconnected(self, t: LiveTable, seat: int) -> None:
        """The last connection of a seat here closed."""

    def seat_revoked(self, t: LiveTable, seat: int) -> None:
        """The connections of a seat here were sent away (the seat is no longer theirs)."""

    async def reread(self, t: LiveTable) -> None:
        """Read the table again now, if other processes may have changed it."""

    def watcher_connected(self, t: LiveTable) -> None:
        """A spectator said hello here (after joining ``t.conns``)."""

    def watcher_disconnected(self, t: LiveTable) -> None:
        """A spectator's connection here closed (after leaving ``t.conns``)."""

    def turn_of_absent(self, t: LiveTable, seat: int) -> None:
        """It is the turn of a person seat connected nowhere (under the table's lock)."""

    def claim(self, t: LiveTable) -> None:
        """The table starts: this process runs it."""

    def finished(self, t: LiveTable) -> None:
        """The game at the table is over: nothing left to run."""


class Clock(Protocol):
    """The table clock as the write path sees it (server/clock.py)."""

    def arm(self, t: LiveTable, action: Action | None) -> None:
        """Schedule the table's next server action (replacing any earlier one)."""


class Seats(Protocol):
    """What the write path asks of the intents (server/intents.py)."""

    def mark_live(self, addr: str) -> None:
        """A session at a game: its address may open tables for a while."""

    async def drop_revoked(self, t: LiveTable) -> None:
        """Send away the connections whose seat was taken away meanwhile."""
