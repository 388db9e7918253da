"""``parlour check``: check every game record in JSON or JSON Lines files (RECORD.md)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.text import Text

from parlour import record
from parlour.cli.app import app
from parlour.cli.common import UsageError, reason, stderr, stdout
from parlour.cli.paths import check_input


@dataclass(frozen=True)
class Finding:
    """The verdict on one record: ``error`` is None when it is valid."""

    file: str
    index: int
    line: int | None
    error: str | None
    round: int | None = None
    move: int | None = None

    def to_json(self) -> dict[str, object]:
        return {"file": self.file, "index": self.index, "valid": self.error is None,
                "error": self.error}


def check_file(path: Path) -> Iterator[Finding]:
    """One finding per record in ``path``, in file order (OSError if it cannot be read)."""
    name = str(path)
    try:
        entries = list(record.read_entries(path))
    except UnicodeDecodeError as e:
        yield Finding(name, 0, None, f"not UTF-8 text: {e.reason} at byte {e.start}")
        return
    for entry in entries:
        if entry.error is not None:
            yield Finding(name, entry.index, entry.line, entry.error)
            continue
        try:
            record.load(entry.data)
        except record.RecordError as e:
            yield Finding(name, entry.index, entry.line, str(e), e.round, e.move)
        else:
            yield Finding(name, entry.index, entry.line, None)


def _where(f: Finding) -> str:
    line = f" (line {f.line})" if f.line is not None else ""
    return f"record {f.index}{line}"


@app.command("check", short_help="Check game records (JSON or JSON Lines).")
def check_command(
    files: Annotated[list[Path], typer.Argument(
        metavar="FILE...", help="JSON or JSON Lines files.")],
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per record.")] = False,
) -> None:
    """Check game records: every deck, turn, move, score and total is replayed.

    Exit status: 0 when every record is valid, 1 when any is not, 2 when a file is missing or unreadable. Records are numbered from 0 in each file.
    """
    out, err = stdout(), stderr()
    findings: list[Finding] = []
    unreadable = 0
    for path in files:
        try:  # an unreadable file is reported, and the other files are still checked
            check_input(path)
            file_findings = list(check_file(path))
        except UsageError as e:
            unreadable += 1
            err.print(Text(f"error: {e}", style="red"), soft_wrap=True)
            continue
        except OSError as e:
            unreadable += 1
            err.print(Text(f"error: cannot read {path}: {reason(e)}", style="red"),
                      soft_wrap=True)
            continue
        findings.extend(file_findings)
        if as_json:
            for f in file_findings:
                typer.echo(json.dumps(f.to_json(), ensure_ascii=False))
        else:
            _print_file(out, path, file_findings)
    invalid = sum(f.error is not None for f in findings)
    if not as_json:
        read = len(files) - unreadable
        out.print(f"{_count(len(findings), 'record')} checked in {_count(read, 'file')}: "
                  f"{len(findings) - invalid} valid, {invalid} invalid"
                  + (f"; {_count(unreadable, 'file')} could not be read" if unreadable else ""),
                  soft_wrap=True)
    raise typer.Exit(2 if unreadable else 1 if invalid else 0)


def _print_file(out: Console, path: Path, findings: list[Finding]) -> None:
    """``✓ FILE: n of n records valid``, then one line per invalid record."""
    valid = sum(f.error is None for f in findings)
    ok = valid == len(findings)
    line = Text("✓ " if ok else "✗ ", style="bold green" if ok else "bold red")
    line.append(str(path), style="bold").append(f": {valid} of {len(findings)} records valid")
    out.print(line, soft_wrap=True)  # a long path must stay whole on its line
    for f in findings:
        if f.error is not None:
            why = f.error.removeprefix(f"line {f.line}: ") if f.line else f.error
            out.print(Text("    ").append(_where(f), style="cyan").append(f": {why}"),
                      soft_wrap=True)




def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"
