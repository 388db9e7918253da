"""``parlour bench``: engine speed, search speed, scaling, beside OpenSpiel in the same run."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.console import Group
from rich.progress import (
    BarColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from parlour import bench
from parlour.bench import BenchResult, random_playouts
from parlour.cli.app import app
from parlour.cli.common import (
    UsageError,
    at_least_one,
    fail,
    players_help,
    resolve_game,
    resolve_players,
    stderr,
    stdout,
    usage_errors,
)
from parlour.games import GAMES
from parlour.yardstick import GAMES as YARD_GAMES

ENGINE_CHOICES = ("step", "batch", "both")
SHORT = {"crazy_eights": "crazy8"}
"""Short names of the yardstick games, for table headers."""


def bench_table(r: BenchResult) -> Table:
    t = Table(title=f"Random playouts: {r.game}, {r.players} players",
              caption=f"{r.python}, one process")
    t.add_column("seconds", justify="right")
    t.add_column("rounds", justify="right")
    t.add_column("moves", justify="right")
    t.add_column("rounds/s", justify="right")
    t.add_column("moves/s", justify="right")
    t.add_row(f"{r.seconds:.2f}", f"{r.rounds:,}", f"{r.moves:,}", f"{r.rounds_per_s:,.0f}",
              f"{r.moves_per_s:,.0f}")
    return t


def batch_table(r: dict[str, Any]) -> Table:
    t = Table(title=f"Random playouts: {r['game']}, {r['players']} players, batch engine",
              caption=f"{r['python']}, one process, {r['batch']:,} games per kernel call; "
                      f"kernel load {r['warmup_s']:.2f} s (not counted)")
    for col in ("seconds", "games", "rounds", "moves", "rounds/s", "moves/s"):
        t.add_column(col, justify="right")
    t.add_row(f"{r['seconds']:.2f}", f"{r['games']:,}", f"{r['rounds']:,}", f"{r['moves']:,}",
              f"{r['rounds_per_s']:,.0f}", f"{r['moves_per_s']:,.0f}")
    return t


def _ratio_columns(t: Table, yard: dict[str, Any] | None) -> list[str]:
    """Add one column per yardstick figure; return the ratio keys in column order."""
    if not yard or not yard.get("available"):
        return []
    keys = []
    for name in YARD_GAMES:
        for how, label in (("cpp", "C++"), ("python", "Py")):
            t.add_column(f"{SHORT.get(name, name)}\n{label}", justify="right")
            keys.append(f"{name}_{how}")
    return keys


def _ratios(f: dict[str, Any], keys: list[str]) -> list[str]:
    r = f.get("vs_openspiel", {})
    return [_fmt_ratio(r[k]) if k in r else "" for k in keys]


def _big(x: float) -> str:
    """Millions as ``24.2 M``; smaller numbers with thousands separators."""
    return f"{x / 1e6:.1f} M" if x >= 1e6 else f"{x:,.0f}"


def _fmt_ratio(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:.3g}"


def report_tables(rep: dict[str, Any]) -> list[Table]:
    """The report as tables: playouts, search, scaling, yardstick (those measured)."""
    yard = rep.get("yardstick")
    tables = []
    measured = bool(yard and yard.get("available"))
    notes = []
    if measured:
        notes.append("last columns: rounds/s over OpenSpiel games/s (loop in C++, or driven "
                     "from Python; crazy8 = crazy_eights), measured in the same run")
    if "batch" in rep["engines"]:
        notes.append(f"batch engine: {rep['batch']:,} games per kernel call")
    t = Table(title="Random playouts", caption="; ".join(notes) or None, pad_edge=False)
    for col in ("game", "n", "engine"):
        t.add_column(col)
    t.add_column("rounds/s", justify="right")
    t.add_column("moves/s", justify="right")
    keys = _ratio_columns(t, yard)
    for f in rep["playouts"]:
        t.add_row(f["game"], str(f["players"]), f["engine"], f"{f['rounds_per_s']:,.0f}",
                  _big(f["moves_per_s"]), *_ratios(f, keys))
    tables.append(t)
    if "search" in rep:
        t = Table(title="Search speed on a mid-round position", pad_edge=False,
                  caption="last columns: iterations/s over OpenSpiel games/s" if keys else None)
        for col in ("game", "n", "bot"):
            t.add_column(col)
        t.add_column("iter/s", justify="right")
        t.add_column("ms/move", justify="right")
        keys = _ratio_columns(t, yard)
        for f in rep["search"]:
            t.add_row(f["game"], str(f["players"]),
                      f"{f['bot']}:{f['iterations_per_decision']}",
                      f"{f['iterations_per_s']:,.0f}", f"{f['ms_per_decision']:,.0f}",
                      *_ratios(f, keys))
        tables.append(t)
    if "scaling" in rep:
        t = Table(title="Time per round by player count",
                  caption="growth: time per round over that of the fewest players")
        for col in ("game", "engine", "n"):
            t.add_column(col)
        for col in ("rounds/s", "moves/round", "ms/round", "µs/move", "growth"):
            t.add_column(col, justify="right")
        for f in rep["scaling"]:
            t.add_row(f["game"], f["engine"], str(f["players"]), f"{f['rounds_per_s']:,.0f}",
                      f"{f['moves_per_round']:.1f}", f"{f['ms_per_round']:.4g}",
                      f"{f['us_per_move']:.3g}", f"{f['growth']:.2f}")
        tables.append(t)
    if yard is not None:
        if yard.get("available"):
            t = Table(title=f"Yardstick: OpenSpiel {yard.get('pyspiel') or ''} random playouts",
                      caption="mean of a run before and a run after the parlour figures")
            for col in ("game", "n"):
                t.add_column(col)
            for col in ("games/s\nloop in C++", "games/s\nfrom Python", "moves/game"):
                t.add_column(col, justify="right")
            for name, g in yard["games"].items():
                t.add_row(name, str(g["players"]), f"{g['cpp_games_per_s']:,.0f}",
                          f"{g['python_games_per_s']:,.0f}", f"{g['moves_per_game']:.1f}")
        else:
            t = Table(title="Yardstick: not measured")
            t.add_column("reason")
            t.add_row(yard.get("reason", ""))
        tables.append(t)
    return tables


@app.command("bench")
def bench_command(
    game: Annotated[str | None, typer.Argument(
        metavar="GAME",
        help=f"The game to measure: {' or '.join(GAMES)}; both when left out.")] = None,
    players: Annotated[int | None, typer.Option(
        "--players", "-n", help=players_help("Players"))] = None,
    seconds: Annotated[float, typer.Option(
        "--seconds", "-s", help="How long to measure each figure.")] = 2.0,
    engine: Annotated[str | None, typer.Option(
        "--engine", metavar="step|batch|both",
        help="step: Round.legal_moves/apply from Python; batch: the numba batch engine; "
             "both (default step for one game's figure, both in a report).")] = None,
    batch: Annotated[int, typer.Option(
        "--batch", help="Batch engine: games per kernel call.")] = bench.DEFAULT_BATCH,
    yardstick: Annotated[bool, typer.Option(
        "--yardstick", help="Also measure OpenSpiel hearts and crazy_eights (C++) in the "
                            "same run, and give every figure as a ratio to them.")] = False,
    search: Annotated[bool, typer.Option(
        "--search", help="Also measure ISMCTS iterations/s on a mid-round position.")] = False,
    scaling: Annotated[bool, typer.Option(
        "--scaling", help="Also measure time per round at every player count.")] = False,
    everything: Annotated[bool, typer.Option(
        "--all", help="The full report: --yardstick --search --scaling.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Measure random-playout rounds and moves per second, and more in a report.

    With a GAME alone: one figure, the step engine by default (each round dealt with new_round and played with legal_moves and apply, which checks every move, as bots and tools drive it) or --engine batch. With --yardstick, --search, --scaling or --all, or without a GAME: a report of both engines (or --engine's) for the game or both games, every section measured in the same run; --json prints it as one JSON object. Progress goes to standard error.
    """
    if everything:
        yardstick = search = scaling = True
    with usage_errors():
        names = [resolve_game(game).name] if game is not None else list(GAMES)
        counts = {}
        for name in names:
            counts[name] = resolve_players(resolve_game(name), players)
        if not 0 < seconds <= 3600:
            raise UsageError(f"--seconds must be above 0 and at most 3600, not {seconds}")
        at_least_one("--batch", batch)
        chosen = None if engine is None else engine.strip().lower()
        if chosen is not None and chosen not in ENGINE_CHOICES:
            raise UsageError(f"unknown --engine {engine!r}; choose one of: "
                             f"{', '.join(ENGINE_CHOICES)}")
        if game is not None and chosen == "batch" and not bench.offered(names[0], ["batch"]):
            raise UsageError(f"{resolve_game(game).title} has no batch engine; "
                             "use --engine step")
    is_report = yardstick or search or scaling or game is None or chosen == "both"
    if not is_report:
        _one_figure(names[0], counts[names[0]], seconds, chosen or "step", batch, as_json)
        return
    engines = list(bench.ENGINES) if chosen in (None, "both") else [chosen]
    out, steps = bench.plan(names, counts, seconds, engines, batch, yardstick, search, scaling)
    progress = Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                        TextColumn("{task.completed:.0f}/{task.total:.0f} s planned"),
                        TimeElapsedColumn(), TimeRemainingColumn(),
                        console=stderr(), transient=True)
    total = sum(s.seconds for s in steps)
    try:
        with progress:
            task = progress.add_task("measuring", total=total)
            for step in steps:
                progress.update(task, description=f"measuring {step.label}")
                step.run()
                progress.advance(task, step.seconds)
    except KeyboardInterrupt:
        fail("interrupted: nothing reported", 130)
    if as_json:
        typer.echo(json.dumps(out))
        return
    console = stdout()
    console.print(Group(*report_tables(out)))
    m = out["machine"]
    load = m["load_average"]
    console.print(f"{out['python']}, parlour {out['parlour']}, {m['cpus']} CPUs"
                  + (f", load average {load[0]:.2f}" if load else "")
                  + f"; {seconds:g} s per figure", soft_wrap=True)


def _one_figure(game: str, players: int, seconds: float, engine: str, batch: int,
                as_json: bool) -> None:
    if engine == "step":
        result = random_playouts(game, players, seconds)
        if as_json:
            typer.echo(json.dumps(result.to_json()))
        else:
            stdout().print(bench_table(result))
        return
    with Progress(SpinnerColumn(), TextColumn("measuring {task.description}"),
                  TimeElapsedColumn(), console=stderr(), transient=True) as progress:
        progress.add_task(f"{game}, batch engine (the kernel loads first)", total=None)
        figure = bench.batch_playouts(game, players, seconds, batch)
    if as_json:
        typer.echo(json.dumps(figure))
    else:
        stdout().print(batch_table(figure))
