"""Load and fault harness for the online tables.

``parlour loadtest`` drives T concurrent tables of scripted people over real
WebSockets against a ``parlour serve`` it starts itself (or a given loopback URL) and
reports games finished, moves per second, move round trips, errors and the server's
memory. The same clients (:mod:`.clients`) and server launcher (:mod:`.procs`) serve
the fault tests in ``tests/hardening``.
"""

from parlour.loadtest.clients import SeatClient, Stats, TableRun, run_tables
from parlour.loadtest.procs import NotLocal, ServerProcess, check_local_url
from parlour.loadtest.run import LoadConfig, public, run_load, run_sync

__all__ = ["LoadConfig", "NotLocal", "SeatClient", "ServerProcess", "Stats", "TableRun",
           "check_local_url", "public", "run_load", "run_sync", "run_tables"]
