"""``parlour loadtest``: many tables of scripted players against a local server."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from parlour.cli.app import app
from parlour.cli.common import UsageError, resolve_game, resolve_players, stderr, usage_errors
from parlour.games import GAMES


class Speed(StrEnum):
    human = "human"
    full = "full"


def _v(value: object) -> str:
    """A measured value in words: ``-`` when nothing was measured."""
    return "-" if value is None else str(value)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def report_text(report: dict, tables: int, speed: str, game: str, players: int,
                rounds: int) -> str:
    """The load report as lines of plain words (no raw Python values)."""
    r, a, m = report["rtt_ms"], report["rtt_ms_after_arrival"], report["server_rss_mb"]
    lines = [
        f"{_plural(tables, 'table')} ({speed} speed, {game}, {players} seats, "
        f"{_plural(rounds, 'round')}) in {report['elapsed_s']} s",
        f"games finished  {report['games_finished']} of {tables}",
        f"moves           {report['moves']} ({report['moves_per_s']} a second)",
        f"round trip ms   p50 {_v(r['p50'])}  p90 {_v(r['p90'])}  p99 {_v(r['p99'])}  "
        f"max {_v(r['max'])}",
        f"  after arrival p50 {_v(a['p50'])}  p99 {_v(a['p99'])}  "
        f"({_plural(a['n'] or 0, 'move')})",
        f"errors          {report['errors']}" + ("" if not report["error_codes"] else " ("
            + ", ".join(f"{code}: {n}" for code, n in report["error_codes"].items()) + ")"),
        *(f"  {f}" for f in report["failures"]),
        f"server RSS MB   start {_v(m['start'])}  peak {_v(m['peak'])}  end {_v(m['end'])}",
    ]
    cpu, lag = report.get("cpu") or {}, report.get("client_loop_lag_ms")
    if lag is not None:
        per = report.get("client_loop_lag_ms_per_proc") or []
        procs = report.get("client_procs", 1)
        lines.append(
            f"clients         {procs} process{'' if procs == 1 else 'es'}, CPU "
            f"{_v(cpu.get('clients_ms_per_move'))} ms a move (server "
            f"{_v(cpu.get('server_ms_per_move'))}), loop lag p99 {_v(lag['p99'])} ms"
            + (" (" + ", ".join(_v(x["p99"]) for x in per) + " by process)"
               if len(per) > 1 else ""))
    checked = report["records_checked"]
    if checked:
        lines.append("records         " + ", ".join(
            f"{n} {'valid' if k == 'ok' else 'invalid' if k == 'bad' else k}"
            for k, n in checked.items()))
    return "\n".join(lines)


@app.command("loadtest", short_help="Concurrent games against a local server, measured.")
def loadtest(
    tables: Annotated[int, typer.Option(min=1, max=2000, help="Concurrent tables.")] = 10,
    duration: Annotated[float, typer.Option(
        min=1, help="Upper bound of the run in seconds: games not over by then count as "
                    "unfinished.")] = 120.0,
    url: Annotated[str | None, typer.Option(
        help="A running server on this machine (http://127.0.0.1:PORT). Default: start "
             "`parlour serve` on a free port with a temporary SQLite database.")] = None,
    speed: Annotated[Speed, typer.Option(
        help="human: 0.4-1.6 s to think before each move; full: no pause.")] = Speed.human,
    game: Annotated[str, typer.Option(help=f"The game: {' or '.join(GAMES)}.")] = "fantan",
    players: Annotated[int, typer.Option(min=2, max=8, help="People per table.")] = 4,
    rounds: Annotated[int, typer.Option(min=1, help="Rounds per game.")] = 1,
    bot_delay: Annotated[float, typer.Option(
        help="The started server's pause before an automatic pass.")] = 0.3,
    compression: Annotated[bool, typer.Option(
        help="Negotiate permessage-deflate, as browsers do.")] = True,
    ramp: Annotated[float | None, typer.Option(
        help="Seconds over which the tables arrive (default: 1 s per 20 tables, at most "
             "10 s).")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the players' choices.")] = None,
    procs: Annotated[int, typer.Option(
        help="Client processes the tables are split across (the load generator's own "
             "CPU on more than one core); at most one per table.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Play T concurrent games over real WebSockets, one connection per seat, and report
    games finished, moves/s, move round-trip p50/p99, errors and server memory.

    Only servers on this machine are ever targeted: any other URL is refused.
    Exit status 0 when every game finished with no error, 1 otherwise.
    """
    from parlour.loadtest import LoadConfig, NotLocal, check_local_url, public, run_load
    from parlour.loadtest.fleet import check_procs

    with usage_errors():
        game = resolve_game(game).name
        resolve_players(resolve_game(game), players)
        refused = check_procs(procs, tables)
        if refused is not None:
            raise UsageError(refused)

    if url is not None:
        try:
            check_local_url(url)
        except NotLocal as e:
            typer.echo(f"parlour loadtest: {e}", err=True)
            raise typer.Exit(2) from None
        import httpx

        try:  # a server that is not there is said before any table is tried
            httpx.get(url.rstrip("/") + "/healthz", timeout=5.0)
        except httpx.HTTPError:
            typer.echo(f"parlour loadtest: no parlour server answers at {url} "
                       f"(start one with `parlour serve`, or leave out --url)", err=True)
            raise typer.Exit(2) from None

    bar = Progress(TextColumn("games over"), BarColumn(), MofNCompleteColumn(),
                   TextColumn("{task.fields[moves]} moves, {task.fields[errors]} errors"),
                   console=stderr(), transient=True, disable=as_json)
    task = bar.add_task("games", total=tables, moves=0, errors=0)

    def progress(done: int, total: int, moves: int, errors: int) -> None:
        bar.update(task, completed=done, moves=moves, errors=errors)

    cfg = LoadConfig(tables=tables, duration=duration, url=url, speed=speed.value, game=game,
                     players=players, rounds=rounds, bot_delay=bot_delay,
                     compression=compression, seed=seed, ramp=ramp, procs=procs)
    with bar:
        report = public(run_load(cfg, progress=progress))
    if as_json:
        typer.echo(json.dumps(report, indent=1))
    else:
        typer.echo(report_text(report, tables, speed.value, game, players, rounds))
    ok = report["all_finished"] and report["errors"] == 0 and not report[
        "records_checked"].get("bad")
    raise typer.Exit(0 if ok else 1)
