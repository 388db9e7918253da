"""``parlour ratings rebuild``: recompute every rating from the stored rated games.

The results of rated games (who placed where, in the order they were written) are
replayed from newcomers' ratings through the same model the server uses; every
stored number must come out the same. Differences are listed and the recomputed
numbers written (``--check``: listed only, exit status 1).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from parlour.cli.app import app
from parlour.cli.common import fail, reason

ratings_app = typer.Typer(help="Ratings of rated games: rebuild them from the stored results.",
                          no_args_is_help=True, rich_markup_mode=None)
app.add_typer(ratings_app, name="ratings", short_help="Rebuild the ratings from the stored results.")


@ratings_app.command("rebuild", short_help="Recompute every rating and compare with the stored ones.")
def rebuild(
    db: Annotated[str, typer.Option(
        help="The server's database: a SQLite file path, or a SQLAlchemy URL such as "
             "postgresql://user@host/parlour.")] = "parlour.sqlite3",
    check: Annotated[bool, typer.Option(
        "--check", help="Only compare: write nothing, exit 1 when a number differs.")] = False,
) -> None:
    """Recompute every rating from the stored results of rated games, in the order they were written, and compare each number with the stored one.

    Exit status 0 when every stored number matches (or, without --check, was put right); 1 with --check when some differ; 2 when the database cannot be used.
    """
    from sqlalchemy.exc import DBAPIError

    from parlour.server.db import Store, shown_url
    from parlour.server.rated import rebuild as run
    from parlour.server.settings import db_url_for

    if "://" not in db and not Path(db).is_file():
        fail(f"--db {db}: no such database file")
    url = db_url_for(db)
    try:
        store = Store(url, busy_timeout=5.0, start_wait=0.0)
    except (ValueError, DBAPIError, OSError) as e:
        fail(f"cannot use the database {shown_url(url)}: {reason(e)}")
    try:
        report = run(store, write=not check)
    except DBAPIError as e:
        fail(f"the database {shown_url(url)} failed: {reason(e)}")
    finally:
        store.close()
    typer.echo(f"replayed {report.games} rated game{'s' if report.games != 1 else ''}; "
               f"{report.ratings} rating{'s' if report.ratings != 1 else ''}; "
               f"{report.records} checked against the game record still kept")
    if not report.differences:
        typer.echo("every stored number matches the recomputed one")
        return
    for d in report.differences[:50]:
        typer.echo(f"  differs: {d}")
    if len(report.differences) > 50:
        typer.echo(f"  ... and {len(report.differences) - 50} more")
    if check:
        typer.echo(f"{len(report.differences)} stored numbers differ (nothing written)")
        raise typer.Exit(1)
    typer.echo(f"{len(report.differences)} stored numbers differed: the recomputed ones "
               f"are written")
