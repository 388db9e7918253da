"""``parlour verify FILE``: check every deal commitment in a record, round by round."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from parlour.cli.app import app


@app.command()
def verify(
    file: Annotated[Path, typer.Argument(help="A record (JSON) or a JSON Lines file of them.",
                                         exists=True, dir_okay=False)],
) -> None:
    """Check that each round was dealt from the deck the server committed to.

    Exit status 0 when every round of every record has a commitment that matches its
    revealed deck and salt and the record itself checks; 1 otherwise.
    """
    from parlour import record
    from parlour.server.verify import verify as check

    all_ok = True
    for entry in record.read_entries(file):
        label = f"record {entry.index + 1}" + (f" (line {entry.line})" if entry.line else "")
        if entry.error is not None:
            typer.echo(f"{label}: {entry.error}")
            all_ok = False
            continue
        report = check(entry.data)
        for r in report.rounds:
            mark = "ok" if r.ok else "FAILED"
            commit = f" commit {r.commit[:16]}..." if r.commit else ""
            typer.echo(f"{label} round {r.round}: {r.status}{commit} [{mark}]")
        if report.record_error:
            typer.echo(f"{label}: the record does not check: {report.record_error}")
        if not report.rounds:
            typer.echo(f"{label}: no rounds to verify")
        typer.echo(f"{label}: {'verified' if report.ok else 'NOT verified'}")
        all_ok = all_ok and report.ok
    raise typer.Exit(0 if all_ok else 1)
