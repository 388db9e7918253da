"""``parlour admin``: the operator's moderation tools on a server's database: read
reports, mute, suspend and ban a player (an account's name or a guest's id, shown with
each report), lift them, close reports, and read the log of every action."""

from __future__ import annotations

import getpass
import json
import time
from typing import Annotated, Any

import typer

from parlour.cli.app import app
from parlour.cli.common import fail, reason, stdout

admin = typer.Typer(help="Moderation: reports, mutes, suspensions and bans (logged).",
                    no_args_is_help=True, rich_markup_mode=None)
app.add_typer(admin, name="admin")

DbOption = Annotated[str, typer.Option(
    help="The server's database: a SQLite file path or a SQLAlchemy URL.")]
ReasonOption = Annotated[str, typer.Option("--reason", help="Why (the player is shown it).")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON.")]
TargetArgument = Annotated[str, typer.Argument(help="An account's name or a player id.")]


def _engine(db: str) -> Any:
    return _store(db).engine


def _store(db: str) -> Any:
    from parlour.server.db import Store
    from parlour.server.settings import db_url_for

    if "://" not in db:
        from pathlib import Path

        if not Path(db).is_file():
            fail(f"--db {db}: no such database file")
    try:
        return Store(db_url_for(db), start_wait=2.0)
    except Exception as e:  # noqa: BLE001 -- told in words, never a traceback
        fail(f"cannot open the database {db}: {reason(e)}")


def _actor() -> str:
    try:
        return "cli:" + getpass.getuser()
    except Exception:  # noqa: BLE001
        return "cli"


def _when(at: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.gmtime(at))


@admin.command("reports")
def reports_cmd(db: DbOption = "parlour.sqlite3",
                all_: Annotated[bool, typer.Option("--all", help="Closed reports too.")] = False,
                as_json: JsonOption = False) -> None:
    """List the open reports, newest first (with the game's record when it is over)."""
    from parlour.server import moderation

    found = moderation.reports(_engine(db), None if all_ else "open")
    if as_json:
        stdout().print_json(json.dumps(found))
        return
    if not found:
        typer.echo("No open reports.")
        return
    for r in found:
        held = ", ".join(f"{k} ({moderation.when(v['until'])})" for k, v in r["sanctions"].items())
        typer.echo(f"#{r['id']} {_when(r['at'])} UTC [{r['status']}] {r['target_name'] or 'a guest'}"
                   f" (player {r['target']}){' - ' + held if held else ''}")
        typer.echo(f"    reason: {r['reason']}")
        if r["table_id"]:
            typer.echo(f"    table {r['table_id']} ({r['table_status'] or 'deleted'})"
                       f"{', record attached' if r['record'] else ''}")
        for line in r["chat"][-10:]:
            typer.echo(f"    chat: {line.get('name')}: {line.get('text')}")


@admin.command("log")
def log_cmd(db: DbOption = "parlour.sqlite3", as_json: JsonOption = False) -> None:
    """Every moderation action, newest first."""
    from parlour.server import moderation

    rows = moderation.history(_engine(db))
    if as_json:
        stdout().print_json(json.dumps(rows))
        return
    if not rows:
        typer.echo("No actions yet.")
    for r in rows:
        typer.echo(f"{_when(r['at'])} UTC {r['actor']}: {r['action']} {r['target']}"
                   f" ({moderation.when(r['until'])}): {r['reason']}")


def _act(action: str, db: str, target: str, why: str, hours: float | None) -> None:
    from parlour.server import moderation

    engine = _engine(db)
    try:
        pid, name = (target, target) if action == "close" else moderation.resolve(engine, target)
        until = time.time() + hours * 3600 if hours else None
        done = moderation.act(engine, _actor(), action, pid, why, until)
    except ValueError as e:
        fail(str(e))
    shown = f"report {target}" if action == "close" else f"{name} ({pid})"
    typer.echo(f"{action}: {shown}, {moderation.when(done['until'])}"
               if not action.startswith("un") and action != "close" else f"{action}: {shown}")


def _sanction(action: str, doc: str) -> None:
    def run(target: TargetArgument,
            why: ReasonOption,
            db: DbOption = "parlour.sqlite3",
            hours: Annotated[float | None, typer.Option(
                "--hours", min=0.01, help="For this many hours (default: until lifted).")] = None,
            ) -> None:
        _act(action, db, target, why, hours)

    run.__doc__ = doc
    admin.command(action)(run)


def _lift(action: str, doc: str) -> None:
    def run(target: TargetArgument,
            why: ReasonOption, db: DbOption = "parlour.sqlite3") -> None:
        _act(action, db, target, why, None)

    run.__doc__ = doc
    admin.command(action)(run)


_sanction("mute", "No chat for the player.")
_sanction("suspend", "No chat, new tables, seats or pools for the player.")
_sanction("ban", "Nothing at all: no sign-in, tables, seats, pools or chat.")
_lift("unmute", "Lift a mute.")
_lift("unsuspend", "Lift a suspension.")
_lift("unban", "Lift a ban.")


@admin.command("export-records")
def export_records_cmd(
        out: Annotated[str, typer.Option("--out", metavar="FILE",
                                         help="JSON Lines file of records (not overwritten).")],
        db: DbOption = "parlour.sqlite3",
        names: Annotated[bool, typer.Option(
            "--names", help="Keep the players' names (default: Player 1, 2, ...).")] = False,
) -> None:
    """Write every finished table's record, one a line, for `parlour dataset`. Only when
    the server's setting record_export is on (PARLOUR_RECORD_EXPORT=1: the operator's
    opt-in); a game still in play is never written."""
    from pathlib import Path

    from parlour.server.settings import Settings

    try:
        on = Settings.from_env().record_export
    except ValueError as e:
        fail(str(e))
    if not on:
        fail("record export is off on this server: the operator opts in with the setting "
             "record_export (PARLOUR_RECORD_EXPORT=1; docs/hardening.md)")
    path = Path(out)
    if path.exists():
        fail(f"--out {out}: the file exists; choose a new one")
    from parlour.server.export import finished_records

    count = 0
    with path.open("x", encoding="utf-8") as f:
        for data in finished_records(_store(db), names):
            f.write(json.dumps(data, ensure_ascii=False) + "\n")
            count += 1
    stdout().print(f"{count} finished games written to {out}")


@admin.command("close")
def close_cmd(report: Annotated[int, typer.Argument(help="The report's number.")],
              why: ReasonOption, db: DbOption = "parlour.sqlite3") -> None:
    """Close a report (it stays in the list with --all)."""
    _act("close", db, str(report), why, None)
