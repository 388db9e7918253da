"""``parlour verify FILE``: check every deal commitment in a record, round by round.

Records are numbered from 0 in each file, as ``check`` and ``replay`` number them;
rounds from 1, as record errors name them. ``--json`` prints one object per record.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from parlour.cli.app import app
from parlour.cli.common import stdout, usage_errors
from parlour.cli.paths import check_input


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


@app.command("verify", short_help="Check the deal commitments in a live game's record.")
def verify(
    file: Annotated[Path, typer.Argument(
        metavar="FILE", help="A record (JSON) or a JSON Lines file of them.")],
    as_json: Annotated[bool, typer.Option(
        "--json", help="One JSON object per record instead of text.")] = False,
) -> None:
    """Check that each round was dealt from the deck the server committed to.

    Exit status 0 when every round of every record has a commitment that matches its revealed deck and salt and the record itself checks; 1 otherwise; 2 when the file cannot be read. Records are numbered from 0.
    """
    from parlour import record
    from parlour.server.verify import verify as check

    with usage_errors():
        check_input(file)
    try:
        entries = list(record.read_entries(file))
    except UnicodeDecodeError as e:
        entries = [record.Entry(0, None, f"not UTF-8 text: {e.reason} at byte {e.start}")]
    if not entries:
        entries = [record.Entry(0, None, "the file holds no record")]
    out = stdout()
    verified = 0
    for entry in entries:
        label = f"record {entry.index}" + (f" (line {entry.line})" if entry.line else "")
        result: dict[str, Any] = {"file": str(file), "index": entry.index, "line": entry.line}
        if entry.error is not None:
            result.update(ok=False, record_error=entry.error, rounds=[])
        else:
            result.update(check(entry.data).to_json())
        verified += result["ok"]
        if as_json:
            typer.echo(json.dumps(result, ensure_ascii=False))
            continue
        for r in result["rounds"]:
            mark = "ok" if r["status"] == "ok" else "FAILED"
            commit = f" commit {r['commit'][:16]}..." if r["commit"] else ""
            out.print(f"{label} round {r['round']}: {r['status']}{commit} [{mark}]",
                      markup=False, soft_wrap=True)
        if result["record_error"]:
            words = (entry.error if entry.error is not None
                     else f"the record does not check: {result['record_error']}")
            out.print(f"{label}: {words}", markup=False, soft_wrap=True)
        elif not result["rounds"]:
            out.print(f"{label}: no rounds to verify", markup=False)
        out.print(f"{label}: {'verified' if result['ok'] else 'NOT verified'}", markup=False)
    if not as_json:
        out.print(f"{_count(len(entries), 'record')} in {file}: {verified} verified, "
                  f"{len(entries) - verified} not verified", markup=False, soft_wrap=True)
    raise typer.Exit(0 if verified == len(entries) else 1)
