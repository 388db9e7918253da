"""``parlour serve``: the web tables (page, HTTP API and WebSocket) in one process."""

from __future__ import annotations

import os
import socket
from pathlib import Path
from typing import Annotated, Any

import typer

from parlour.cli.app import app
from parlour.cli.common import UsageError, fail, reason, usage_errors
from parlour.cli.paths import check_output_file

SQLITE_MAGIC = b"SQLite format 3\x00"


def check_sqlite_file(path: Path) -> None:
    """``--db`` as a file: writable, and a SQLite database if it holds anything."""
    check_output_file(path)
    with path.open("rb") if path.exists() else open(os.devnull, "rb") as f:
        head = f.read(len(SQLITE_MAGIC))
    if head and head != SQLITE_MAGIC:
        raise UsageError(f"--db {path} is not a SQLite database; give a new file name "
                         f"or an existing parlour database")


BACKLOG = 4096
"""Connections the kernel queues on each listening socket until they are accepted."""


def listening_sockets(host: str, port: int, count: int,
                      backlog: int = BACKLOG) -> list[socket.socket]:
    """``count`` sockets listening on the same address (``SO_REUSEPORT``), or one.

    The event loop (uvloop) accepts one new connection per listening socket on each of
    its turns; a turn under load takes several milliseconds, so one socket took only
    about a hundred new connections a second while 1,000 tables were arriving (four
    sockets each) and handshakes timed out. The kernel spreads new connections over the
    sockets, and each turn accepts one on each. The port is first bound without
    ``SO_REUSEPORT``: if another process already listens there (say a second server
    started by mistake) that fails with "address in use", as with one socket, instead
    of silently sharing the port with it.
    """
    try:
        family, kind, proto, _, addr = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except (OSError, OverflowError) as e:  # an unknown host name, or a port past 65535
        raise UsageError(f"cannot listen on {host}:{port}: {reason(e)}") from None
    probe = socket.socket(family, kind, proto)
    try:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind(addr)
    except OSError as e:
        raise UsageError(f"cannot listen on {host}:{port}: {reason(e)}") from None
    finally:
        probe.close()
    if not hasattr(socket, "SO_REUSEPORT"):
        count = 1
    out = []
    try:
        for _ in range(max(1, count)):
            sock = socket.socket(family, kind, proto)
            out.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if count > 1:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            sock.bind(addr)
            sock.listen(backlog)
            sock.setblocking(False)
    except OSError as e:
        for sock in out:
            sock.close()
        raise UsageError(f"cannot listen on {host}:{port}: {reason(e)}") from None
    return out


@app.command("serve", short_help="Serve the web tables (page, HTTP API, WebSocket).")
def serve(
    host: Annotated[str | None, typer.Option(
        help="Address to listen on (default 127.0.0.1).")] = None,
    port: Annotated[int | None, typer.Option(
        min=1, max=65535, help="Port to listen on (default 8000).")] = None,
    db: Annotated[str | None, typer.Option(
        help="Database: a SQLite file path, or a SQLAlchemy URL such as "
             "postgresql://user@host/parlour (default parlour.sqlite3).")] = None,
    bot_delay: Annotated[float | None, typer.Option(
        help="Seconds a bot waits before it moves, so people can follow (default 0.6).")] = None,
    round_pause: Annotated[float | None, typer.Option(
        help="Seconds between the end of a round and the next deal (default 3).")] = None,
    grace: Annotated[float | None, typer.Option(
        help="Seconds a disconnected player keeps the seat before a bot stands in "
             "(default 30).")] = None,
    idle_hours: Annotated[float | None, typer.Option(
        help="Tables without activity for this many hours expire (default 6).")] = None,
    origin: Annotated[list[str] | None, typer.Option(
        help="Another page origin allowed to open WebSockets (repeatable).")] = None,
    cluster: Annotated[bool | None, typer.Option(
        "--cluster/--no-cluster",
        help="Share the database with other `parlour serve --cluster` processes: each "
             "table is owned by one process at a time (a lease), and every process "
             "pushes the others' events to its own clients (see docs/deploy.md).",
        show_default=False)] = None,
    lease: Annotated[float | None, typer.Option(
        help="Cluster: seconds before a silent process's tables are taken over "
             "(default 10).")] = None,
    ws_deflate: Annotated[bool | None, typer.Option(
        "--ws-deflate/--no-ws-deflate",
        help="Offer permessage-deflate on WebSockets (less traffic, more CPU).",
        show_default=False)] = None,
    trusted_proxy: Annotated[list[str] | None, typer.Option(
        help="Address of a reverse proxy whose X-Forwarded-For names the client "
             "(repeatable); per-address limits then apply to that client.")] = None,
    public_url: Annotated[str | None, typer.Option(
        help="The address people use, e.g. https://tables.example: links are built "
             "from it and only its host is answered (DNS rebinding).")] = None,
    listeners: Annotated[int | None, typer.Option(
        min=1, max=64,
        help="Listening sockets on the port (SO_REUSEPORT): new connections accepted "
             "per turn of the event loop (default 8; see docs/deploy.md).")] = None,
    set_: Annotated[list[str] | None, typer.Option(
        "--set", help="Any server setting as NAME=VALUE (repeatable; the limits are "
                      "listed in docs/hardening.md).")] = None,
    config: Annotated[str | None, typer.Option(
        help="A TOML file of settings (NAME = VALUE); the environment (PARLOUR_NAME) "
             "and options win over it. Default: PARLOUR_CONFIG.")] = None,
) -> None:
    """Serve the whole product: open the printed address in a browser.

    Every setting comes from an option, else a PARLOUR_* environment variable, else
    the --config file, else its default (docs/deploy.md)."""
    options: dict[str, object] = {
        "host": host, "port": port, "db_url": db, "bot_delay": bot_delay,
        "round_pause": round_pause, "grace": grace,
        "idle_expiry": None if idle_hours is None else idle_hours * 3600,
        "allowed_origins": origin, "cluster": cluster, "lease": lease,
        "ws_deflate": ws_deflate, "trusted_proxies": trusted_proxy,
        "public_url": public_url, "listeners": listeners}
    resolved = _resolve(options, set_ or [], config)
    sockets = _open(resolved)
    from parlour.server import create_app
    from parlour.server.logs import setup as setup_logs

    setup_logs()  # JSON lines on standard error (docs/deploy.md)
    _run(create_app(resolved.settings), resolved.listen, sockets)


def _resolve(options: dict[str, object], set_: list[str], config: str | None) -> Any:
    """The settings from the options, ``--set`` pairs, the environment and the file (a
    usage error, status 2, when they do not make sense)."""
    from parlour.server.config import ConfigError, resolve

    sets: dict[str, str] = {}
    for item in set_:
        name, sep, value = item.partition("=")
        if not sep:
            fail(f"--set takes NAME=VALUE, not {item!r}", 2)
        sets[name.strip()] = value.strip()
    try:
        return resolve(options, os.environ, config, sets)
    except ConfigError as e:
        fail(str(e), 2)


def _open(resolved: Any) -> list[socket.socket]:
    """Listen on the port and check the database before anything starts, saying what
    is served where; a refusal is one line and status 2, never a startup traceback."""
    from parlour.server.config import report
    from parlour.server.db import check_database, shown_url

    settings, listen = resolved.settings, resolved.listen
    host, port = listen.host, listen.port
    with usage_errors():
        if "://" not in (resolved.raw_db or "parlour.sqlite3"):
            check_sqlite_file(Path(resolved.raw_db or "parlour.sqlite3"))
        sockets = listening_sockets(host, port, listen.listeners)
    for line in report(resolved):
        typer.echo(f"parlour: {line}")
    try:
        check_database(settings.db_url, settings.db_timeout, settings.db_start_wait,
                       waiting=lambda reason: typer.echo(
                           f"parlour: the database does not answer yet ({reason}); trying "
                           f"for {settings.db_start_wait:g} s (setting db_start_wait)",
                           err=True))
    except ValueError as e:
        for s in sockets:
            s.close()
        fail(str(e), 2)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    typer.echo(f"parlour: open http://{shown}:{port}/  (database: {shown_url(settings.db_url)})")
    if settings.testing:
        typer.echo("parlour: TESTING mode: test-only table options are accepted")
    return sockets


def _run(application: Any, listen: Any, sockets: list[socket.socket]) -> None:
    """Serve ``application`` on the open sockets until SIGTERM or Ctrl-C."""
    import uvicorn

    class Server(uvicorn.Server):
        """On SIGTERM (or Ctrl-C), first tell every client to reconnect (a ``bye`` and
        close code 1012), then let uvicorn close the sockets."""

        async def shutdown(self, sockets=None) -> None:  # noqa: ANN001
            for listener in self.servers:  # no new connections from here on
                listener.close()
            service = getattr(application.state, "service", None)
            if service is not None:
                await service.going_away()
            await super().shutdown(sockets)

    config = uvicorn.Config(application, host=listen.host, port=listen.port,
                            log_level="warning", ws_max_size=64 * 1024,
                            ws_per_message_deflate=listen.ws_deflate,
                            backlog=BACKLOG, timeout_graceful_shutdown=5,
                            # the client's address is the guard's (--trusted-proxy) alone
                            proxy_headers=False,
                            # uvicorn's own lines go through the JSON logs; the access
                            # log is parlour's (server/logs.py: routes, no query strings)
                            log_config=None, access_log=False)
    Server(config).run(sockets=sockets)
