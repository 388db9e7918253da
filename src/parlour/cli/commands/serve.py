"""``parlour serve``: the web tables (page, HTTP API and WebSocket) in one process."""

from __future__ import annotations

from typing import Annotated

import typer

from ..app import app


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[str, typer.Option(
        help="Database: a SQLite file path, or a SQLAlchemy URL such as "
             "postgresql://user@host/parlour.")] = "parlour.sqlite3",
    bot_delay: Annotated[float, typer.Option(
        help="Seconds a bot waits before it moves, so people can follow.")] = 0.6,
    round_pause: Annotated[float, typer.Option(
        help="Seconds between the end of a round and the next deal.")] = 3.0,
    grace: Annotated[float, typer.Option(
        help="Seconds a disconnected player keeps the seat before a bot stands in.")] = 30.0,
    idle_hours: Annotated[float, typer.Option(
        help="Tables without activity for this many hours expire.")] = 6.0,
    origin: Annotated[list[str] | None, typer.Option(
        help="Another page origin allowed to open WebSockets (repeatable).")] = None,
) -> None:
    """Serve the whole product: open the printed address in a browser."""
    import uvicorn

    from ...server import Settings, create_app
    from ...server.settings import db_url_for

    settings = Settings.from_env(db_url=db_url_for(db), bot_delay=bot_delay,
                                 round_pause=round_pause, grace=grace,
                                 idle_expiry=idle_hours * 3600,
                                 allowed_origins=list(origin or []))
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    typer.echo(f"parlour: open http://{shown}:{port}/  (database: {settings.db_url})")
    if settings.testing:
        typer.echo("parlour: TESTING mode: test-only table options are accepted")
    uvicorn.run(create_app(settings), host=host, port=port, log_level="warning",
                ws_max_size=64 * 1024)
